package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// `structure show NAME` prints each built-in structure in each file format, and what it prints is
// a structure file that `run --structure` reads back as the same structure (rules B3, R2).
func TestStructureShowRoundTrips(t *testing.T) {
	dir := t.TempDir()
	for _, name := range floor.StructureNames() {
		want, err := floor.BuiltinStructure(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"yaml", "toml", "json"} {
			code, out, errOut := runCommand(t, "structure", "show", name, "--format", format)
			if code != 0 || errOut != "" {
				t.Fatalf("show %s --format %s: exit %d, stderr %q", name, format, code, errOut)
			}
			path := filepath.Join(dir, name+"."+format)
			writeFile(t, path, out)
			got, err := loadStructure(path)
			if err != nil {
				t.Fatalf("%s as %s does not load: %v\n%s", name, format, err, out)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s as %s loads as %+v, want %+v", name, format, got, want)
			}
		}
	}
	// YAML shows one level a line.
	_, out, _ := runCommand(t, "structure", "show", "turbo")
	if !strings.Contains(out, "\n  - {smallBlind: 100, bigBlind: 200, minutes: 10}\n") {
		t.Errorf("yaml levels not one a line:\n%s", out)
	}
}

func TestStructureList(t *testing.T) {
	code, out, errOut := runCommand(t, "structure", "list")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := "turbo     10,000 chips (50 big blinds), 37 levels of 10 minutes, 6 breaks\n" +
		"standard  20,000 chips (100 big blinds), 37 levels of 20 minutes, 9 breaks\n" +
		"deep      30,000 chips (150 big blinds), 37 levels of 30 minutes, 9 breaks\n"
	if out != want {
		t.Errorf("list:\n%s\nwant:\n%s", out, want)
	}
}

func TestStructureShowBadInput(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"structure", "show", "hyper"}, `structure show "hyper": no such built-in structure (turbo, standard, deep)`},
		{[]string{"structure", "show"}, "structure show takes one name (turbo, standard, deep), got 0"},
		{[]string{"structure", "show", "turbo", "--format", "xml"}, `--format "xml": yaml, toml or json`},
		{[]string{"structure", "list", "x"}, `takes no arguments, got "x"`},
	} {
		code, out, errOut := runCommand(t, tt.args...)
		if code != 2 || out != "" {
			t.Errorf("%q: exit %d, stdout %q; want 2 and nothing", tt.args, code, out)
		}
		checkOneLineError(t, errOut, tt.want)
	}
}

// A structure file's mistakes are told in the file's own field names, with the path to the value,
// whatever the format: never in the Go types' (floor.Level, small_blind not found in type ...).
func TestStructureFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		file, body string
		want       []string
	}{
		{"snake.yaml", "startingStack: 5000\nlevels:\n  - {small_blind: 25, bigBlind: 50, minutes: 15}\n",
			[]string{"unknown field levels[0].small_blind (did you mean smallBlind?); a level has break, smallBlind, bigBlind, ante, minutes, colorUp"}},
		{"typo.toml", "startingStak = 5000\n[[levels]]\nsmallBlind = 25\nbigBlind = 50\nminutes = 15\n",
			[]string{"unknown field startingStak (did you mean startingStack?); a structure has name, startingStack, chips, levels"}},
		{"word.json", `{"startingStack": 5000, "levels": [{"smallBlind": 25, "bigBlind": 50, "minutes": "ten"}]}`,
			[]string{`levels[0].minutes: expected a whole number, got the text "ten"`}},
		{"fraction.yaml", "startingStack: 5000.5\nlevels: []\n", []string{"startingStack: expected a whole number, got 5000.5"}},
		{"level list.yaml", "startingStack: 5000\nlevels: {smallBlind: 25}\n", []string{"levels: expected a list, got a table of keys"}},
		{"level scalar.yaml", "startingStack: 5000\nlevels: [25]\n", []string{"levels[0]: expected a level (a table of break, smallBlind"}},
		{"break.yaml", "startingStack: 5000\nlevels:\n  - {smallBlind: 25, bigBlind: 50, minutes: 15}\n  - {break: yes please, minutes: 5}\n",
			[]string{`levels[1].break: expected true or false, got the text "yes please"`}},
		{"speed.yaml", "startingStack: 5000\nspeed: 60\nlevels:\n  - {smallBlind: 25, bigBlind: 50, minutes: 15}\n",
			[]string{"speed: the clock's speed is set by run --speed, not in the file"}},
		{"empty.yaml", "", []string{"the file is empty: a structure has startingStack and levels (docs/structure.md"}},
		{"list.yaml", "- 1\n- 2\n", []string{"the file: expected a structure (a table of name, startingStack, chips, levels), got a list"}},
		{"rules.json", `{"startingStack": 5000, "levels": [{"smallBlind": 25, "bigBlind": 60, "minutes": 15}, {"break": true, "minutes": 0}]}`,
			[]string{"levels[0] (level 1): big blind 60 is not twice the small blind 25", "levels[1]: minutes 0: every period needs a length"}},
		{"syntax.yaml", "startingStack: 5000\nlevels: [\n", []string{"syntax.yaml: not valid YAML: line "}},
	}
	goTypes := regexp.MustCompile(`floor\.|int64|in type |Go value`)
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			writeFile(t, path, tt.body)
			code, out, errOut := runCommand(t, "run", "--structure", path)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			for _, w := range tt.want {
				checkOneLineError(t, errOut, w)
			}
			if goTypes.MatchString(errOut) {
				t.Errorf("the error speaks of Go types: %q", errOut)
			}
		})
	}
}

// The example in docs/structure.md is a structure file that loads.
func TestStructureDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", structureDoc))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(yaml|toml|json)\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) == 0 {
		t.Fatalf("no yaml, toml or json example in %s", structureDoc)
	}
	dir := t.TempDir()
	for i, b := range blocks {
		path := filepath.Join(dir, "example"+string(rune('a'+i))+"."+string(b[1]))
		writeFile(t, path, string(b[2]))
		s, err := loadStructure(path)
		if err != nil {
			t.Errorf("example %d (%s) in %s does not load: %v", i+1, b[1], structureDoc, err)
			continue
		}
		if len(s.Levels) == 0 || s.StartingStack == 0 {
			t.Errorf("example %d loads as %+v", i+1, s)
		}
	}
}
