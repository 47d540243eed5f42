package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// equityRows reads the equity table: hand → [win %, tie %, equity %].
func equityRows(t *testing.T, out string) map[string][3]float64 {
	t.Helper()
	rows := map[string][3]float64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || f[0] == "Hand" {
			continue
		}
		var r [3]float64
		for i := range r {
			v, err := strconv.ParseFloat(f[i+1], 64)
			if err != nil {
				t.Fatalf("row %q: %v", line, err)
			}
			r[i] = v
		}
		rows[f[0]] = r
	}
	return rows
}

func runEquity(t *testing.T, args ...string) (out string, rows map[string][3]float64) {
	t.Helper()
	code, out, errOut := runCommand(t, append([]string{"equity"}, args...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("equity %q: exit %d, stderr %q", args, code, errOut)
	}
	return out, equityRows(t, out)
}

func TestEquityExact(t *testing.T) {
	out, rows := runEquity(t, "AsKs", "QdQc")
	if !strings.Contains(out, "exact") {
		t.Errorf("output does not say the result is exact:\n%s", out)
	}
	qq, ak := rows["QdQc"], rows["AsKs"]
	if qq[2] < 53 || qq[2] > 56 || ak[2] < 44 || ak[2] > 47 {
		t.Errorf("AsKs vs QdQc: equities %v and %v, want about 46 and 54:\n%s", ak[2], qq[2], out)
	}
	if sum := qq[2] + ak[2]; sum < 99.98 || sum > 100.02 {
		t.Errorf("equities add up to %v, want 100:\n%s", sum, out)
	}
}

func TestEquityWithBoardAndDead(t *testing.T) {
	// On 2c7d9h the queens are far ahead of ace-king, which needs an ace or a king.
	out, rows := runEquity(t, "AsKs", "QdQc", "--board", "2c7d9h", "--dead", "3s")
	if !strings.Contains(out, "2c7d9h") || !strings.Contains(out, "3s") {
		t.Errorf("output does not show the board and dead cards:\n%s", out)
	}
	if qq := rows["QdQc"][2]; qq < 70 || qq > 85 {
		t.Errorf("QdQc on 2c7d9h: equity %v%%, want about 76%%:\n%s", qq, out)
	}
}

func TestEquityRoyalFlushOnTheBoardTies(t *testing.T) {
	out, rows := runEquity(t, "2c3d", "4s5s", "--board", "AhKhQhJhTh")
	for hand, r := range rows {
		if r != [3]float64{0, 100, 50} {
			t.Errorf("%s: win, tie, equity %v, want 0, 100, 50:\n%s", hand, r, out)
		}
	}
	if len(rows) != 2 {
		t.Errorf("%d rows, want 2:\n%s", len(rows), out)
	}
}

func TestEquityMonteCarloRepeatsWithItsSeed(t *testing.T) {
	args := []string{"AhAd", "KsKc", "--trials", "20000", "--seed", "7"}
	first, rows := runEquity(t, args...)
	second, _ := runEquity(t, args...)
	if first != second {
		t.Errorf("the same seed gave different results:\n%s\n%s", first, second)
	}
	if !strings.Contains(first, "Monte Carlo, 20000 trials, seed 7") {
		t.Errorf("output does not name the method, trials and seed:\n%s", first)
	}
	if aa := rows["AhAd"][2]; aa < 80 || aa > 84 {
		t.Errorf("AhAd vs KsKc: equity %v%%, want about 82%%", aa)
	}
}

// Settings come from the environment and the config file when no flag gives them.
func TestEquitySettingsFromEnvAndConfig(t *testing.T) {
	t.Run("environment", func(t *testing.T) {
		t.Setenv("POKERFLOOR_EQUITY_TRIALS", "1000")
		t.Setenv("POKERFLOOR_EQUITY_SEED", "42")
		out, _ := runEquity(t, "AsKs", "QdQc")
		if !strings.Contains(out, "Monte Carlo, 1000 trials, seed 42") {
			t.Errorf("environment settings not used:\n%s", out)
		}
	})
	t.Run("config file, overridden by a flag", func(t *testing.T) {
		cfg := filepath.Join(t.TempDir(), "pokerfloor.yaml")
		if err := os.WriteFile(cfg, []byte("equity:\n  trials: 2000\n  seed: 9\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		out, _ := runEquity(t, "--config", cfg, "AsKs", "QdQc", "--seed", "11")
		if !strings.Contains(out, "Monte Carlo, 2000 trials, seed 11") {
			t.Errorf("config file (trials 2000) and flag (seed 11) not both used:\n%s", out)
		}
	})
}

func TestEquityBadInputExitsTwo(t *testing.T) {
	tests := []struct {
		name string
		env  string // POKERFLOOR_EQUITY_TRIALS, if set
		args []string
		want string
	}{
		{"one hand", "", []string{"AsKs"}, "2 to 10 hands, got 1"},
		{"eleven hands", "", []string{"2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d", "TcTd", "JcJd", "QcQd"}, "2 to 10 hands, got 11"},
		{"three cards in a hand", "", []string{"AsKsQs", "QdQc"}, `hand "AsKsQs" has 3 cards`},
		{"unknown card", "", []string{"AsKz", "QdQc"}, `"Kz"`},
		{"duplicate across hands", "", []string{"AsKs", "AsQd"}, "As appears more than once"},
		{"duplicate in board", "", []string{"AsKs", "QdQc", "--board", "2c2c7d"}, "2c appears more than once"},
		{"hand card on the board", "", []string{"AsKs", "QdQc", "--board", "Qd7d9h"}, "Qd appears more than once"},
		{"dead card in a hand", "", []string{"AsKs", "QdQc", "--dead", "Ks"}, "Ks appears more than once"},
		{"two-card board", "", []string{"AsKs", "QdQc", "--board", "2c7d"}, "board has 2 cards"},
		{"bad dead card", "", []string{"AsKs", "QdQc", "--dead", "1s"}, `"1s"`},
		{"negative trials", "", []string{"AsKs", "QdQc", "--trials", "-5"}, `got "-5"`},
		{"trials not a number", "", []string{"AsKs", "QdQc", "--trials", "many"}, `invalid argument "many"`},
		{"trials from the environment not a number", "many", []string{"AsKs", "QdQc"}, `got "many"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != "" {
				t.Setenv("POKERFLOOR_EQUITY_TRIALS", tt.env)
			}
			code, out, errOut := runCommand(t, append([]string{"equity"}, tt.args...)...)
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
