package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
)

// playTable runs a table server with network bots for hands hands and returns the folder of its
// hand histories.
func playTable(t *testing.T, hands int64) string {
	t.Helper()
	dir := t.TempDir()
	players := []string{"ada", "bo", "cy", "di"}
	reporter, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 4},
		Levels: []engine.Level{{SmallBlind: 50, BigBlind: 100}}, Players: players, Stack: 20000})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := tableserver.NewTokens([]byte(strings.Repeat("key!", 10)), "local", "t1", nil)
	if err != nil {
		t.Fatal(err)
	}
	var srv *tableserver.Server
	srv, err = tableserver.New(tableserver.Config{Tournament: "local", TableID: "t1", Reporter: reporter, Tokens: tokens,
		HistoryDir: dir, Clock: host.NewFakeClock(time.Now()),
		OnHand: func(r *report.HandResult) {
			if r.HandNumber >= hands {
				srv.Drain()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background()) }()
	for !srv.Ready() {
		time.Sleep(time.Millisecond)
	}
	for i, p := range players {
		tok, _ := tokens.Issue(p, protocol.RolePlayer, time.Hour)
		b := &tableserver.Bot{URL: "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws", Token: tok, Decider: bot.New(bot.KindRandom, uint64(i+1)), ClientSeed: p + "'s seed"}
		go b.Play(context.Background())
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	return dir
}

// verify-deal accepts the hands a table served and rejects a history with one card changed.
func TestVerifyDealAcceptsATablesHandsAndRejectsAChangedCard(t *testing.T) {
	dir := playTable(t, 20)
	code, out, errOut := runCommand(t, "verify-deal", dir)
	if code != 0 || errOut != "" || !strings.HasSuffix(out, "20 check, 0 do not\n") {
		t.Fatalf("exit %d, stderr %q, stdout ends %q", code, errOut, lastLines(out, 3))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.phh"))
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// p1's first hole card becomes one nobody holds in the hand.
	m := regexp.MustCompile(`'d dh p1 ([2-9TJQKA][cdhs])`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("no hole cards for p1 in %s", b)
	}
	text := string(b)
	var spare string
	for _, r := range "23456789TJQKA" {
		for _, s := range "cdhs" {
			if c := string(r) + string(s); spare == "" && !strings.Contains(text, "'"+c) && !strings.Contains(text, c+"'") && !strings.Contains(text, " "+c) && !regexp.MustCompile(c).MatchString(strings.Join(regexp.MustCompile(`'[^']*'`).FindAllString(text, -1), "")) {
				spare = c
			}
		}
	}
	// Only the actions ('d dh p1 ...', 'p2 sm ...') change: a seed or a commitment in hex may hold
	// the same two characters.
	changed := regexp.MustCompile(`'(d |p[0-9]+ )[^']*'`).ReplaceAllStringFunc(text, func(action string) string {
		return strings.ReplaceAll(action, string(m[1]), spare)
	})
	if err := os.WriteFile(files[0], []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCommand(t, "verify-deal", dir)
	if code != 1 || !strings.Contains(out, files[0]+": hand 1 does not check: p1's first hole card is "+spare) || !strings.HasSuffix(out, "19 check, 1 do not\n") {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	checkOneLineError(t, errOut, "1 of 20 hands do not check")
}
