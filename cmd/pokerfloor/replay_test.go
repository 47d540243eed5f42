package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/shareddata"
)

// Every shipped hand history replays through the engine to its finishing stacks.
func TestReplayCheckShippedHands(t *testing.T) {
	dir := filepath.Join(shareddata.Dir(t), "phh")
	code, out, errOut := runCommand(t, "replay", "--check", dir)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q, stdout ends %q", code, errOut, lastLines(out, 5))
	}
	if out != "5081 passed, 0 failed\n" {
		t.Fatalf("stdout = %q, want only the summary", lastLines(out, 5))
	}
}

func TestReplayCheckReportsEachFailure(t *testing.T) {
	hand := readShippedHand(t, "wsop-2023-43-5/1.phh")
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("good.phh", hand)
	mismatch := write("sub/mismatch.phh", strings.Replace(hand, "finishing_stacks = [7340000", "finishing_stacks = [7340001", 1))
	corrupt := write("sub/corrupt.phh", strings.Replace(hand, "'p3 f'", "'p3 fold'", 1))
	illegal := write("sub/illegal.phh", strings.Replace(hand, "'p3 f', ", "", 1))
	write("notes.txt", "not a hand history")

	code, out, errOut := runCommand(t, "replay", "--check", dir)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	checkOneLineError(t, errOut, "3 of 4 hands failed")
	want := []string{
		corrupt + `:7: actions[5]: malformed action "p3 fold"`,
		illegal + `: replay: action 6 "p4 cbr 170000"`,
		mismatch + ": replay: finishing stacks [7340000 ",
		"1 passed, 3 failed",
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("stdout has %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], want[i])
		}
	}
}

func TestReplayPrintsFinalStacks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "1.phh")
	if err := os.WriteFile(path, []byte(readShippedHand(t, "wsop-2023-43-5/1.phh")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCommand(t, "replay", path)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if want := path + ": final stacks 7340000 3775000 5110000 8935000 4545000\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
}

func TestReplayBadPathsExitTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"replay"}, "replay needs a .phh file or a folder of them"},
		{[]string{"replay", filepath.Join(t.TempDir(), "missing.phh")}, "missing.phh does not exist (expected a .phh file or a folder of them)"},
		{[]string{"replay", t.TempDir()}, "no .phh files under"},
	} {
		code, _, errOut := runCommand(t, tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		checkOneLineError(t, errOut, tc.want)
	}
}

// readShippedHand returns one of the shared test hand histories.
func readShippedHand(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(shareddata.Dir(t), "phh", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
