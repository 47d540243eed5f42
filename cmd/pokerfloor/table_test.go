package main

import "testing"

// table says what is wrong with its settings, with the usage exit status, before it serves anyone.
func TestTableRefusesBadSettings(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no players", []string{"table", "--key", "0123456789abcdef0123456789abcdef"}, "--players names 2 to 10 players"},
		{"one player", []string{"table", "--players", "ada", "--key", "0123456789abcdef0123456789abcdef"}, "--players names 2 to 10 players"},
		{"no key", []string{"table", "--players", "ada,bo"}, "give --key-file or --key"},
		{"short key", []string{"table", "--players", "ada,bo", "--key", "short"}, "at least 32 bytes"},
		{"missing key file", []string{"table", "--players", "ada,bo", "--key-file", "/nonexistent/key"}, "token key"},
		{"bad blinds", []string{"table", "--players", "ada,bo", "--key", "0123456789abcdef0123456789abcdef", "--blinds", "100/50"}, "expected small/big"},
		{"bad clock", []string{"table", "--players", "ada,bo", "--key", "0123456789abcdef0123456789abcdef", "--think", "0s"}, "think time must be positive"},
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
