package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// errSettingsSeen stops `run` once it has its settings, before anything starts.
var errSettingsSeen = errors.New("settings seen")

// runSettingsFor runs `pokerfloor run args...` in-process up to the point where the tournament would
// start, and returns the settings it would have started with.
func runSettingsFor(t *testing.T, args ...string) runSettings {
	t.Helper()
	var got runSettings
	saved := startTournament
	startTournament = func(_ context.Context, s runSettings, _ io.Writer) (tournament, func(), error) {
		got = s
		return nil, nil, errSettingsSeen
	}
	t.Cleanup(func() { startTournament = saved })
	code, out, errOut := runCommand(t, append([]string{"run"}, args...)...)
	if code != 1 || out != "" || !strings.Contains(errOut, errSettingsSeen.Error()) {
		t.Fatalf("run %q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
	}
	return got
}

func TestRunDefaults(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux
	s := runSettingsFor(t)
	turbo, _ := floor.BuiltinStructure(floor.StructureTurbo)
	switch {
	case s.Players != 180, s.TableSize != 9, s.JSON, s.Verbose:
		t.Errorf("defaults: %+v", s)
	case s.Structure.Name != "turbo" || !reflect.DeepEqual(s.Structure.Levels, turbo.Levels):
		t.Errorf("structure %q, want the built-in turbo", s.Structure.Name)
	case !s.MaxSpeed || s.Structure.Speed != 0:
		t.Errorf("speed: max %v, factor %d; want max", s.MaxSpeed, s.Structure.Speed)
	case s.Seed == 0:
		t.Error("no random seed drawn")
	case s.DataDir != filepath.Join(cache, "pokerfloor", "run"):
		t.Errorf("data dir %q, want %s/pokerfloor/run", s.DataDir, cache)
	case s.Fresh || s.HandHistories != "" || s.Resume != "":
		t.Errorf("fresh %v, hand histories %q, resume %q; want none", s.Fresh, s.HandHistories, s.Resume)
	}
}

// Flags beat POKERFLOOR_RUN_* variables, which beat the config file's run section, which beats the
// defaults.
func TestRunSettingsSources(t *testing.T) {
	dir := t.TempDir()
	fromConfig := filepath.Join(dir, "from-config")
	cfg := filepath.Join(dir, "pokerfloor.yaml")
	writeFile(t, cfg, "run:\n  players: 45\n  table-size: 6\n  speed: 30\n  seed: 11\n  output: json\n  data-dir: "+fromConfig+"\n")
	t.Setenv("POKERFLOOR_RUN_TABLE_SIZE", "8")
	t.Setenv("POKERFLOOR_RUN_SPEED", "120")
	s := runSettingsFor(t, "--config", cfg, "--speed", "60", "--structure", "deep", "--verbose")
	want := runSettings{Players: 45, TableSize: 8, Seed: 11, JSON: true, DataDir: fromConfig, Verbose: true}
	if s.Players != want.Players || s.TableSize != want.TableSize || s.Seed != want.Seed ||
		s.JSON != want.JSON || s.DataDir != want.DataDir || s.Verbose != want.Verbose {
		t.Errorf("settings %+v, want %+v", s, want)
	}
	if s.MaxSpeed || s.Structure.Speed != 60 || s.Structure.Name != "deep" {
		t.Errorf("structure %q speed %d (max %v), want deep at 60", s.Structure.Name, s.Structure.Speed, s.MaxSpeed)
	}
}

// A structure file in JSON, YAML or TOML is read, checked and named after the file.
func TestRunStructureFile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"club.json": `{"startingStack": 5000, "levels": [{"smallBlind": 25, "bigBlind": 50, "minutes": 15},` +
			` {"break": true, "minutes": 5}, {"smallBlind": 50, "bigBlind": 100, "ante": 10, "minutes": 15}]}`,
		"club.yaml": "startingStack: 5000\nlevels:\n  - {smallBlind: 25, bigBlind: 50, minutes: 15}\n" +
			"  - {break: true, minutes: 5}\n  - {smallBlind: 50, bigBlind: 100, ante: 10, minutes: 15}\n",
		"club.toml": "startingStack = 5000\n[[levels]]\nsmallBlind = 25\nbigBlind = 50\nminutes = 15\n" +
			"[[levels]]\nbreak = true\nminutes = 5\n[[levels]]\nsmallBlind = 50\nbigBlind = 100\nante = 10\nminutes = 15\n",
	}
	for name, body := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			writeFile(t, path, body)
			s := runSettingsFor(t, "--structure", path, "--speed", "10")
			if s.Structure.Name != "club" || s.Structure.StartingStack != 5000 || len(s.Structure.Levels) != 3 ||
				s.Structure.Levels[2].Ante != 10 || !s.Structure.Levels[1].Break || s.Structure.Speed != 10 {
				t.Errorf("structure %+v", s.Structure)
			}
		})
	}
}

// Every bad setting exits with status 2 and one line naming it, from a flag, the environment or the
// config file, and nothing starts.
func TestRunBadSettingsExitTwo(t *testing.T) {
	dir := t.TempDir()
	badStructure := filepath.Join(dir, "bad.json")
	writeFile(t, badStructure, `{"startingStack": 5000, "levels": [{"smallBlind": 25, "bigBlind": 60, "minutes": 15}]}`)
	unknownField := filepath.Join(dir, "typo.yaml")
	writeFile(t, unknownField, "startingStack: 5000\nlevles: []\n")
	noExt := filepath.Join(dir, "structure.txt")
	writeFile(t, noExt, "{}")
	cfg := filepath.Join(dir, "pokerfloor.yaml")
	writeFile(t, cfg, "run:\n  table-size: 11\n")
	wordsCfg := filepath.Join(dir, "words.toml")
	writeFile(t, wordsCfg, "[run]\nplayers = \"many\"\n")

	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"one player", nil, []string{"--players", "1"}, "--players 1: a tournament needs 2 to 100000 players"},
		{"negative players", nil, []string{"--players=-5"}, "--players -5"},
		{"too many players", nil, []string{"--players", "100001"}, "--players 100001"},
		{"players not a number", nil, []string{"--players", "lots"}, `invalid argument "lots" for "--players"`},
		{"table of one", nil, []string{"--table-size", "1"}, "--table-size 1: a table seats 2 to 10 (rule T1)"},
		{"table of eleven", nil, []string{"--table-size", "11"}, "--table-size 11"},
		{"speed zero", nil, []string{"--speed", "0"}, `--speed "0": a factor from 1 (real time) to 3600, or max`},
		{"speed a word", nil, []string{"--speed", "fast"}, `--speed "fast"`},
		{"speed a fraction", nil, []string{"--speed", "1.5"}, `--speed "1.5"`},
		{"output", nil, []string{"--output", "yaml"}, `--output "yaml": text or json`},
		{"unknown structure", nil, []string{"--structure", "hyper"}, `--structure "hyper": no such built-in structure (turbo, standard, deep) or file`},
		{"missing structure file", nil, []string{"--structure", filepath.Join(dir, "none.json")}, "none.json: no such file"},
		{"invalid structure", nil, []string{"--structure", badStructure}, "big blind 60 is not twice the small blind 25"},
		{"unknown structure field", nil, []string{"--structure", unknownField}, "levles"},
		{"structure extension", nil, []string{"--structure", noExt}, "ends in .json, .yaml, .yml or .toml"},
		{"seed negative", nil, []string{"--seed", "-1"}, `invalid argument "-1" for "--seed"`},
		{"arguments", nil, []string{"180"}, `takes no arguments, got "180"`},
		{"env players", map[string]string{"POKERFLOOR_RUN_PLAYERS": "1"}, nil, "--players 1"},
		{"env players word", map[string]string{"POKERFLOOR_RUN_PLAYERS": "many"}, nil, `--players "many" is not a whole number`},
		{"env speed", map[string]string{"POKERFLOOR_RUN_SPEED": "slow"}, nil, `--speed "slow"`},
		{"env output", map[string]string{"POKERFLOOR_RUN_OUTPUT": "xml"}, nil, `--output "xml"`},
		{"config table size", nil, []string{"--config", cfg}, "--table-size 11"},
		{"env verbose word", map[string]string{"POKERFLOOR_RUN_VERBOSE": "maybe"}, nil, `--verbose "maybe": true or false`},
		{"env fresh word", map[string]string{"POKERFLOOR_RUN_FRESH": "please"}, nil, `--fresh "please": true or false`},
		{"config players word", nil, []string{"--config", wordsCfg}, `--players "many" is not a whole number`},
		{"pprof address", nil, []string{"--pprof", "127.0.0.1:notaport"}, "--pprof 127.0.0.1:notaport"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			saved := startTournament
			startTournament = func(context.Context, runSettings, io.Writer) (tournament, func(), error) {
				t.Error("the tournament started with bad settings")
				return nil, nil, errSettingsSeen
			}
			defer func() { startTournament = saved }()
			code, out, errOut := runCommand(t, append([]string{"run"}, tt.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing", out)
			}
			checkOneLineError(t, errOut, tt.want)
		})
	}
}

// The JSON document has places (place, player, prizeCents), prizePoolCents, handsPlayed and
// durationSeconds: every amount is integer cents, and its name says so.
func TestRunJSONReportShape(t *testing.T) {
	r := newRunReport("t-1", runSettings{Players: 3, TableSize: 9, Seed: 5, Structure: floor.Structure{Name: "turbo"}, MaxSpeed: true},
		workflows.TournamentResult{
			Places:      []workflows.Place{{Place: 1, Player: "p2", Prize: 21000}, {Place: 2, Player: "p3", Prize: 9000}, {Place: 3, Player: "p1"}},
			PrizePool:   30000,
			HandsPlayed: 57,
			Entries:     3,
			Tables:      1,
		}, workflows.Progress{Level: 4, Blinds: engine.Level{SmallBlind: 250, BigBlind: 500, Ante: 50}}, 1500*time.Millisecond)
	var buf bytes.Buffer
	if err := writeJSONReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, buf.String())
	}
	for key, want := range map[string]any{"prizePoolCents": 30000.0, "handsPlayed": 57.0, "durationSeconds": 1.5,
		"players": 3.0, "seed": 5.0, "tournamentId": "t-1", "structure": "turbo", "speed": "max",
		"currency": "USD", "buyInCents": 11000.0, "feeCents": 1000.0, "feesCents": 3000.0, "entries": 3.0,
		"tablesOpened": 1.0, "handForHandRounds": 0.0, "endedAtLevel": 4.0} {
		if doc[key] != want {
			t.Errorf("%s = %v, want %v", key, doc[key], want)
		}
	}
	places, _ := doc["places"].([]any)
	if len(places) != 3 {
		t.Fatalf("places = %v", doc["places"])
	}
	first, _ := places[0].(map[string]any)
	if !reflect.DeepEqual(first, map[string]any{"place": 1.0, "player": "p2", "prizeCents": 21000.0, "percentOfPool": 70.0}) {
		t.Errorf("places[0] = %v", first)
	}
}

func TestRunTextReport(t *testing.T) {
	r := newRunReport("t-1", runSettings{Players: 3},
		workflows.TournamentResult{Places: []workflows.Place{{Place: 1, Player: "p2", Prize: 2100050}, {Place: 2, Player: "p3", Prize: 900000}, {Place: 3, Player: "p1"}},
			PrizePool: 3000050, HandsPlayed: 12345, Tables: 1, HandForHandRounds: 2},
		workflows.Progress{Level: 12, Blinds: engine.Level{SmallBlind: 1500, BigBlind: 3000, Ante: 400}}, 61*time.Second)
	var buf bytes.Buffer
	if err := writeTextReport(&buf, r); err != nil {
		t.Fatal(err)
	}
	want := "place  player      prize  of pool\n" +
		"    1  p2      21,000.50   70.00%\n" +
		"    2  p3       9,000.00   30.00%\n" +
		"\n3 players, 2 paid (66.7%); places 3 to 3 win nothing\n" +
		"prize pool    30,000.50: 3 entries at 110.00, fees 30.00\n" +
		"tables        1 opened; 2 hand-for-hand rounds on the bubble\n" +
		"ended at      level 12 (1500/3000 ante 400)\n" +
		"hands played  12,345\n" +
		"time taken    1m1s\n"
	if got := buf.String(); got != want {
		t.Errorf("text report:\n%s\nwant:\n%s", got, want)
	}
}

func TestDescribeProgress(t *testing.T) {
	p := workflows.Progress{Entries: 180, PlayersLeft: 97, Tables: 11, Level: 4,
		Blinds: engine.Level{SmallBlind: 250, BigBlind: 500, Ante: 50}, NextLevelIn: 42 * time.Second, HandsPlayed: 1234}
	if got, want := describeProgress(p), "players 97/180, tables 11, level 4 (250/500 ante 50), next level in 0:42, hands 1234"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	p.OnBreak, p.NextLevelIn = true, 0
	if got, want := describeProgress(p), "players 97/180, tables 11, break before level 4, hands 1234"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	p = workflows.Progress{Entries: 180, PlayersLeft: 1, HandsPlayed: 4321, Finished: true}
	if got, want := describeProgress(p), "finished: 180 players, hands 4321"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// At a set speed a field of sections plays as a simulation paced by the clock (a hand a minute of
// play, sped up; the levels by hands): its tables could not report every hand at that speed. A
// smaller field, a person at a table and max speed keep their own ways.
func TestRunPacedSimulation(t *testing.T) {
	for _, tc := range []struct {
		args      []string
		play      string
		paced     bool
		wantPace  time.Duration
		wantBatch int
	}{
		{args: []string{"--players", "10000", "--speed", "60"}, paced: true, wantPace: time.Second, wantBatch: 20},
		{args: []string{"--players", "100000", "--speed", "120"}, paced: true, wantPace: 500 * time.Millisecond, wantBatch: 20},
		{args: []string{"--players", "10000", "--speed", "10"}, paced: true, wantPace: 6 * time.Second, wantBatch: 3},
		{args: []string{"--players", "10000", "--speed", "1"}, paced: true, wantPace: time.Minute, wantBatch: 1},
		{args: []string{"--players", "1152", "--speed", "60"}}, // 128 tables: one section, by the clock
		{args: []string{"--players", "10000", "--speed", "max"}},
		{args: []string{"--players", "10000", "--speed", "60"}, play: "p0001"},
	} {
		s := runSettingsFor(t, tc.args...)
		s.Play.Player = tc.play
		spec := s.tournamentSpec()
		if s.pacedSimulation() != tc.paced || spec.Pace != tc.wantPace {
			t.Errorf("%q (play %q): paced %v, pace %v; want %v, %v", tc.args, tc.play, s.pacedSimulation(), spec.Pace, tc.paced, tc.wantPace)
		}
		if tc.paced && spec.Batch != tc.wantBatch {
			t.Errorf("%q: %d hands a report, want %d (a report every 20 s at most)", tc.args, spec.Batch, tc.wantBatch)
		}
		if spec.Simulation != (tc.paced || s.MaxSpeed) {
			t.Errorf("%q (play %q): simulation %v", tc.args, tc.play, spec.Simulation)
		}
		if err := spec.Validate(); err != nil {
			t.Errorf("%q: %v", tc.args, err)
		}
	}
}
