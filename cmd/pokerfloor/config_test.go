package main

import (
	"path/filepath"
	"testing"
)

// A config file key that no command reads is refused with status 2, naming the key, the nearest
// known one and the keys its section takes; the keys that exist are accepted in every format.
func TestConfigFileKeys(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, file, body string
		want             []string // each in the one line of stderr; none: accepted
	}{
		{"camel case key", "a.yaml", "run:\n  tableSize: 6\n",
			[]string{"unknown key run.tableSize (did you mean run.table-size?)", "run takes bounty, bounty-cash, data-dir, fresh, hand-histories, metrics, output, play, play-bot-think, play-listen, players, pprof, satellite, seed, speed, structure, table-size, verbose, web"}},
		{"typo", "b.yaml", "run:\n  seeed: 7\n", []string{"unknown key run.seeed (did you mean run.seed?)"}},
		{"two unknown keys", "c.toml", "[run]\nseeed = 7\nplayer = 20\n",
			[]string{"unknown keys run.player (did you mean run.players?), run.seeed (did you mean run.seed?); run takes "}},
		{"unknown section", "d.json", `{"runn": {"players": 20}}`,
			[]string{"unknown key runn (did you mean run?); the file has one section per command: ", "equity", "structure"}},
		{"section not a table", "e.yaml", "run: 20\n", []string{"run is a command's section and takes its flags (run: {", "got 20"}},
		{"nested subcommand key", "f.yaml", "structure:\n  show:\n    formt: toml\n", []string{"unknown key structure.show.formt (did you mean structure.show.format?)"}},
		{"not sections", "g.yaml", "- run\n", []string{"expected sections named after the commands"}},
		{"invalid yaml", "h.yaml", "run:\n  players: [20\n", []string{"h.yaml: not valid YAML: line "}},
		{"invalid json", "i.json", "{\n\"run\": {\"players\": 20,}}", []string{"i.json: not valid JSON: line 2: "}},
		{"invalid toml", "j.toml", "[run\nplayers = 20\n", []string{"j.toml: not valid TOML: line 1, column "}},
		{"known keys", "ok.yaml", "run:\n  players: 20\n  table-size: 6\n  hand-histories: " + dir + "\nequity:\n  trials: 1000\nstructure:\n  show:\n    format: json\n", nil},
		{"empty file", "empty.yaml", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			writeFile(t, path, tt.body)
			code, out, errOut := runCommand(t, "--config", path, "version")
			if tt.want == nil {
				if code != 0 || errOut != "" {
					t.Errorf("exit %d, stderr %q; want the file accepted", code, errOut)
				}
				return
			}
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			for _, w := range tt.want {
				checkOneLineError(t, errOut, w)
			}
		})
	}
}

func TestClosestName(t *testing.T) {
	known := []string{"players", "seed", "speed", "table-size"}
	for key, want := range map[string]string{
		"tableSize": "table-size", "table_size": "table-size", "TABLE-SIZE": "table-size",
		"seeed": "seed", "speeed": "speed", "player": "players", "colour": "",
	} {
		if got := closest(key, known); got != want {
			t.Errorf("closest(%q) = %q, want %q", key, got, want)
		}
	}
}
