package main

import "testing"

// table says what is wrong with its settings, with the usage exit status, before it serves anyone.
func TestTableRefusesBadSettings(t *testing.T) {
	const key = "0123456789abcdef0123456789abcdef"
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no table", []string{"table", "--key", key}, "--table names the table's workflow"},
		{"no tournament", []string{"table", "--table", "t7", "--key", key}, "--tournament is needed"},
		{"players of a tournament table", []string{"table", "--table", "sunday/table-007", "--players", "ada,bo", "--key", key}, "--players seats a --standalone table"},
		{"no key", []string{"table", "--table", "sunday/table-007"}, "give --key-file or --key"},
		{"bad log level", []string{"table", "--table", "sunday/table-007", "--key", key, "--log-level", "loud"}, "expected error, warn, info or debug"},
		{"bad bot strategy", []string{"table", "--table", "sunday/table-007", "--key", key, "--bots", "all", "--bot-strategy", "genius"}, "--bot-strategy: unknown bot"},
		{"standalone, no players", []string{"table", "--standalone", "--key", key}, "--standalone --players names 2 to 10 players"},
		{"standalone, one player", []string{"table", "--standalone", "--players", "ada", "--key", key}, "--standalone --players names 2 to 10 players"},
		{"standalone, no key", []string{"table", "--standalone", "--players", "ada,bo"}, "give --key-file or --key"},
		{"short key", []string{"table", "--standalone", "--players", "ada,bo", "--key", "short"}, "at least 32 bytes"},
		{"missing key file", []string{"table", "--standalone", "--players", "ada,bo", "--key-file", "/nonexistent/key"}, "token key"},
		{"bad blinds", []string{"table", "--standalone", "--players", "ada,bo", "--key", key, "--blinds", "100/50"}, "expected small/big"},
		{"negative report-after", []string{"table", "--table", "sunday/table-007", "--key", key, "--report-after", "-1s"}, "--report-after -1s: expected 0 or more"},
		{"negative hand-pause", []string{"table", "--table", "sunday/table-007", "--key", key, "--hand-pause", "-3s"}, "--hand-pause -3s: expected 0 or more"},
		{"bad clock", []string{"table", "--standalone", "--players", "ada,bo", "--key", key, "--think", "0s"}, "think time must be positive"},
		{"bad listen address", []string{"table", "--standalone", "--players", "ada,bo", "--key", key, "--listen", "256.0.0.1:1"}, "--listen 256.0.0.1:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCommand(t, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			checkOneLineError(t, errOut, c.want)
		})
	}
}

func TestBotNeedsURLAndToken(t *testing.T) {
	code, _, errOut := runCommand(t, "bot", "--url", "ws://127.0.0.1:1/ws")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	checkOneLineError(t, errOut, "bot needs --url")
	code, _, errOut = runCommand(t, "bot", "--url", "ws://127.0.0.1:1/ws", "--token", "x", "--strategy", "genius")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	checkOneLineError(t, errOut, "unknown bot")
}

func TestVerifyDealNeedsAPath(t *testing.T) {
	code, _, errOut := runCommand(t, "verify-deal")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	checkOneLineError(t, errOut, "verify-deal needs a .phh file")
}

// table reads its settings from POKERFLOOR_TABLE_* too, as every command does: a table pod is
// configured by its environment.
func TestTableReadsItsEnvironment(t *testing.T) {
	t.Setenv("POKERFLOOR_TABLE_TABLE", "t7")
	t.Setenv("POKERFLOOR_TABLE_KEY", "0123456789abcdef0123456789abcdef")
	code, _, errOut := runCommand(t, "table")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	checkOneLineError(t, errOut, `--table "t7" does not start with the tournament's name`)
}
