package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// A data dir or hand-history folder that cannot be used is bad input: status 2, one line saying
// what is wrong and what is expected, and nothing starts.
func TestRunBadFoldersExitTwo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	writeFile(t, file, "x")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"data dir is a file", []string{"--data-dir", file}, "--data-dir " + file + " is a file; expected a folder (created if missing)"},
		{"data dir under a file", []string{"--data-dir", filepath.Join(file, "run")}, "cannot be created (" + file + ": not a directory); expected a folder this user can write"},
		{"histories is a file", []string{"--data-dir", dir, "--hand-histories", file}, "--hand-histories " + file + " is a file; expected a folder"},
		{"histories under a file", []string{"--data-dir", dir, "--hand-histories", filepath.Join(file, "h")}, "--hand-histories " + filepath.Join(file, "h") + " cannot be created"},
		{"damaged record", []string{"--data-dir", filepath.Join(dir, "damaged")}, "current.json is damaged"},
	}
	if err := os.MkdirAll(filepath.Join(dir, "damaged"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "damaged", currentRunFile), "{not json")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saved := startTournament
			startTournament = func(ctx context.Context, s runSettings, _ io.Writer) (tournament, func(), error) {
				t.Error("the tournament started")
				return nil, nil, errSettingsSeen
			}
			defer func() { startTournament = saved }()
			code, out, errOut := runCommand(t, append([]string{"run"}, tt.args...)...)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing (stderr %q)", code, out, errOut)
			}
			checkOneLineError(t, errOut, tt.want)
		})
	}
}

// A data dir with an unfinished tournament resumes it, with its own settings: a setting given
// now that differs is said to be ignored. --fresh starts a new one and says what it discards.
func TestRunResumeSettings(t *testing.T) {
	dir := t.TempDir()
	deep, _ := floor.BuiltinStructure(floor.StructureDeep)
	deep.Speed = 30
	started := time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	if err := writeSavedRun(dir, savedRun{TournamentID: "run-x", Started: started,
		Settings: savedSettings{Players: 45, TableSize: 6, Structure: deep, Seed: 7}}); err != nil {
		t.Fatal(err)
	}
	var got runSettings
	saved := startTournament
	startTournament = func(_ context.Context, s runSettings, _ io.Writer) (tournament, func(), error) {
		got = s
		return nil, nil, errSettingsSeen
	}
	defer func() { startTournament = saved }()

	code, _, errOut := runCommand(t, "run", "--data-dir", dir, "--players", "100", "--table-size", "6", "--output", "json")
	if code != 1 || !strings.Contains(errOut, errSettingsSeen.Error()) {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if got.Resume != "run-x" || !got.Started.Equal(started) || got.Players != 45 || got.TableSize != 6 ||
		got.Structure.Name != "deep" || got.Structure.Speed != 30 || got.MaxSpeed || got.Seed != 7 || !got.JSON {
		t.Errorf("resume settings %+v", got)
	}
	if !strings.Contains(errOut, "--players 100 ignored: resuming tournament run-x, which plays with players 45 (--fresh starts a new one)\n") {
		t.Errorf("no note that --players is ignored: %q", errOut)
	}
	if strings.Contains(errOut, "--table-size") {
		t.Errorf("a note for --table-size, which is the same: %q", errOut)
	}

	code, _, errOut = runCommand(t, "run", "--data-dir", dir, "--players", "100", "--fresh")
	if code != 1 || got.Resume != "" || got.Players != 100 || !got.Fresh {
		t.Errorf("--fresh: exit %d, settings %+v", code, got)
	}
	if !strings.HasPrefix(errOut, "--fresh: discarding the unfinished tournament run-x (started ") {
		t.Errorf("--fresh does not say what it discards: %q", errOut)
	}
}

// tables.jsonl: the tables created and not deleted, the last record of each winning; a line cut
// short by a kill is skipped.
func TestHostedTables(t *testing.T) {
	dir := t.TempDir()
	body := `{"id":"t/table-001","number":1,"deckSeed":11}` + "\n" +
		`{"id":"t/table-002","number":2}` + "\n" +
		`{"id":"t/table-003","number":3}` + "\n" +
		`{"id":"t/table-002","deleted":true}` + "\n" +
		`{"id":"t/table-001","number":1,"deckSeed":12}` + "\n" +
		`{"id":"t/table-004","num`
	writeFile(t, filepath.Join(dir, tablesFile), body)
	live, all, err := hostedTables(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 2 || live[0].ID != "t/table-001" || live[0].DeckSeed != 12 || live[1].ID != "t/table-003" {
		t.Errorf("live tables %+v", live)
	}
	if strings.Join(all, " ") != "t/table-001 t/table-002 t/table-003" {
		t.Errorf("every table: %v", all)
	}
}

func TestHistoryPath(t *testing.T) {
	for id, want := range map[string]string{
		"run-20261201-0900.123/table-007": "h/run-20261201-0900.123/table-007/hand-000042.phh",
		"../../etc/passwd":                "h/_/_/etc/passwd/hand-000042.phh",
		"a b/c:d":                         "h/a_b/c_d/hand-000042.phh",
	} {
		if got := historyPath("h", id, 42); got != filepath.FromSlash(want) {
			t.Errorf("historyPath(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestStandingsText(t *testing.T) {
	p := workflows.Progress{Entries: 20, PlayersLeft: 3, Level: 4, Blinds: engine.Level{SmallBlind: 250, BigBlind: 500, Ante: 50}, HandsPlayed: 321}
	standings := []workflows.Standing{
		{Player: "p07", Stack: 120000, Table: 1}, {Player: "p02", Stack: 60000, Table: 1}, {Player: "p11", Stack: 20000, Table: 2},
		{Player: "p05", Place: 4, Prize: 0}, {Player: "p01", Place: 5, Shared: 2}, {Player: "p09", Place: 5, Shared: 2},
	}
	var b bytes.Buffer
	if err := writeStandings(&b, "t-1", runSettings{}, p, standings); err != nil {
		t.Fatal(err)
	}
	want := "standings so far: level 4 (250/500 ante 50), 3 of 20 players left, hands 321\n" +
		"rank  player    chips  table\n" +
		"   1  p07     120,000  1\n" +
		"   2  p02      60,000  1\n" +
		"   3  p11      20,000  2\n" +
		"17 players out, none in the money yet\n" // 20 entries, 3 left: the places listed may be the best only
	if b.String() != want {
		t.Errorf("standings:\n%s\nwant:\n%s", b.String(), want)
	}
}

// fakeTournament is a tournament in memory for interrupted's test; it records the calls it gets.
type fakeTournament struct {
	calls     []string
	standings []workflows.Standing
}

func (f *fakeTournament) ID() string { return "run-fake" }
func (f *fakeTournament) Progress(context.Context) (workflows.Progress, error) {
	f.calls = append(f.calls, "progress")
	return workflows.Progress{Entries: 20, PlayersLeft: 2, Level: 6, Blinds: engine.Level{SmallBlind: 400, BigBlind: 800, Ante: 100}, HandsPlayed: 99}, nil
}
func (f *fakeTournament) Result(context.Context) (workflows.TournamentResult, error) {
	return workflows.TournamentResult{}, errors.New("not used")
}
func (f *fakeTournament) SuspendTables() { f.calls = append(f.calls, "suspend") }
func (f *fakeTournament) PauseClock(context.Context) error {
	f.calls = append(f.calls, "pause")
	return nil
}
func (f *fakeTournament) ResumeClock(context.Context) error {
	f.calls = append(f.calls, "resume")
	return nil
}
func (f *fakeTournament) Standings(context.Context) ([]workflows.Standing, error) {
	f.calls = append(f.calls, "standings")
	return f.standings, nil
}

type recordingDisplay struct{ interrupted bool }

func (d *recordingDisplay) Update(workflows.Progress) {}
func (d *recordingDisplay) Done(workflows.Progress)   {}
func (d *recordingDisplay) Interrupt()                { d.interrupted = true }

// An interrupted run ends the display's line, stops the tables before it reads the standings (the
// hands in progress are void, D4), pauses a clock that runs (not at --speed max, where levels go by
// hands), writes the standings (JSON with amounts in cents under --output json), and exits 130
// saying how to resume.
func TestInterruptedStopsInOrder(t *testing.T) {
	for _, maxSpeed := range []bool{false, true} {
		f := &fakeTournament{standings: []workflows.Standing{
			{Player: "p03", Stack: 150000, Table: 1}, {Player: "p08", Stack: 50000, Table: 1},
			{Player: "p01", Place: 3, Prize: 120050},
		}}
		d := &recordingDisplay{}
		var out, errOut bytes.Buffer
		s := runSettings{DataDir: "/data", JSON: true, MaxSpeed: maxSpeed}
		err := interrupted(f, s, d, &interruptedError{sig: os.Interrupt}, &out, &errOut)
		want := []string{"suspend", "pause", "progress", "standings"}
		if maxSpeed {
			want = []string{"suspend", "progress", "standings"}
		}
		if strings.Join(f.calls, " ") != strings.Join(want, " ") {
			t.Errorf("max speed %v: calls %v, want %v", maxSpeed, f.calls, want)
		}
		if !d.interrupted {
			t.Error("the display's line was not ended")
		}
		if code := exitCode(err); code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
		if msg := err.Error(); msg != `interrupted (interrupt): tournament run-fake is kept in /data at level 6 (400/800 ante 100) `+
			`with 2 of 20 players left; run "pokerfloor run --data-dir /data" to resume it, or add --fresh to start a new one` {
			t.Errorf("message %q", msg)
		}
		var doc standingsReport
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, out.String())
		}
		if !doc.Interrupted || doc.TournamentID != "run-fake" || len(doc.ChipCounts) != 2 || doc.ChipCounts[0].Chips != 150000 ||
			len(doc.Places) != 1 || doc.Places[0].PrizeCents != 120050 || !strings.Contains(out.String(), `"prizeCents": 120050`) {
			t.Errorf("standings document:\n%s", out.String())
		}
	}
}

// A signal while the run starts exits 128+signal with a line that says what is left: nothing to
// resume for a new tournament, the tournament still there for a resume.
func TestInterruptedWhileStarting(t *testing.T) {
	dir := t.TempDir()
	saved := startTournament
	defer func() { startTournament = saved }()
	startTournament = func(ctx context.Context, _ runSettings, _ io.Writer) (tournament, func(), error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	}
	for _, tt := range []struct {
		resume bool
		sig    os.Signal
		code   int
		want   string
	}{
		{false, os.Interrupt, 130, "pokerfloor: interrupted (interrupt) while starting: nothing to resume, the next run starts a new tournament\n"},
		{true, syscall.SIGTERM, 143, "pokerfloor: interrupted (terminated) while resuming: tournament run-x stays in " + dir + "; the same command resumes it\n"},
	} {
		if tt.resume {
			if err := writeSavedRun(dir, savedRun{TournamentID: "run-x", Settings: savedSettings{Players: 9, TableSize: 9}}); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(interruptedError{sig: tt.sig})
		var out, errOut bytes.Buffer
		code := run(ctx, []string{"run", "--data-dir", dir}, &out, &errOut)
		lines := strings.SplitAfter(errOut.String(), "\n")
		if code != tt.code || lines[len(lines)-2] != tt.want {
			t.Errorf("exit %d, stderr %q; want %d and a last line %q", code, errOut.String(), tt.code, tt.want)
		}
	}
}
