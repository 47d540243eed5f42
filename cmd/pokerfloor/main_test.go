package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCommand runs the command line in-process, as main would, and returns its exit status and output.
func runCommand(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// checkOneLineError checks that a failed command printed exactly one line to stderr, containing want.
func checkOneLineError(t *testing.T, stderr, want string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr = %q, want it to mention %q", stderr, want)
	}
}

func TestEval(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"royal flush from seven cards apart", []string{"Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"},
			"Straight flush: Royal flush\nBest five: AhKhQhJhTh\n"},
		{"cards written together", []string{"AhKhQhJhTh2c3d"},
			"Straight flush: Royal flush\nBest five: AhKhQhJhTh\n"},
		{"full house from six cards", []string{"Kc", "Kd", "Ks", "5h", "5d", "2c"},
			"Full house: Full house, kings full of fives\nBest five: KcKdKs5h5d\n"},
		{"the wheel is five high", []string{"Ah2c3d4s5h"},
			"Straight: Straight, five high\nBest five: 5h4s3d2cAh\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCommand(t, append([]string{"eval"}, tt.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if out != tt.want {
				t.Errorf("stdout = %q, want %q", out, tt.want)
			}
		})
	}
}

// Bad input of every kind exits with status 2 and one line naming the problem.
func TestBadInputExitsTwo(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown rank", []string{"eval", "Xh", "Kh", "Qh", "Jh", "Th"}, `"Xh"`},
		{"unknown suit", []string{"eval", "Ah", "Kx", "Qh", "Jh", "Th"}, `"Kx"`},
		{"odd cards together", []string{"eval", "AhKhQhJhT"}, "two characters each"},
		{"duplicate", []string{"eval", "Ah", "Kh", "Qh", "Jh", "Ah"}, "Ah appears more than once"},
		{"duplicate across args", []string{"eval", "AhKh", "QhJh", "Kh"}, "Kh appears more than once"},
		{"too few cards", []string{"eval", "Ah", "Kh", "Qh", "Jh"}, "5 to 7 cards, got 4"},
		{"too many cards", []string{"eval", "AhKhQhJhTh2c3d4d"}, "5 to 7 cards, got 8"},
		{"no cards", []string{"eval"}, "5 to 7 cards, got 0"},
		{"unknown flag", []string{"eval", "--nope", "AhKhQhJhTh"}, "unknown flag: --nope"},
		{"unknown command", []string{"evl", "AhKhQhJhTh"}, `unknown command "evl" (did you mean "eval"?)`},
		{"version takes no args", []string{"version", "extra"}, `takes no arguments, got "extra"`},
		{"missing config file", []string{"--config", "/nonexistent/pokerfloor.yaml", "version"}, "config file /nonexistent/pokerfloor.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCommand(t, tt.args...)
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

func TestVersionAndHelp(t *testing.T) {
	code, out, errOut := runCommand(t, "version")
	if code != 0 || errOut != "" || !strings.HasPrefix(out, "pokerfloor ") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, args := range [][]string{nil, {"--help"}, {"eval", "--help"}} {
		code, out, errOut := runCommand(t, args...)
		if code != 0 || errOut != "" || !strings.Contains(out, "Usage:") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestConfigFileIsRead(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("equity: [unclosed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCommand(t, "--config", bad, "version")
	if code != 2 {
		t.Errorf("malformed config: exit %d, want 2", code)
	}
	checkOneLineError(t, errOut, "bad.yaml")

	t.Setenv("POKERFLOOR_CONFIG", bad)
	if code, _, errOut := runCommand(t, "version"); code != 2 {
		t.Errorf("POKERFLOOR_CONFIG naming a malformed file: exit %d, want 2 (stderr %q)", code, errOut)
	}
}
