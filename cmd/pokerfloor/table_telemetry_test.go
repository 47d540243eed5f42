package main

import (
	"bufio"
	"context"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
)

// TestTableMetrics starts `pokerfloor table` as a process (a standalone table of check-folding
// bots that take their time, so that it plays on while the test looks: strength bots once
// busted two of the three in the first hands, the process ended, and the next scrape was
// refused) and reads its /metrics on
// the players' address: the hands reported, the actions timed, the reports counted and timed, and
// a spectator's WebSocket connection counted while it is open; and the same process sends its
// hands' and reports' spans and its metrics by OTLP to the endpoint its environment names.
func TestTableMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a table process")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "table", "--standalone", "--players", "ann,bob,cat", "--bots", "all",
		"--bot-strategy", "checkfold", "--bot-think", "20ms", "--stack", "1000000", "--blinds", "1/2", "--key", strings.Repeat("k", 32), "--print-tokens",
		"--listen", "127.0.0.1:0")
	otlp := startOTLPReceiver(t)
	cmd.Env = append(append(os.Environ(), asMainEnv+"=1"), otlp.env()...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	serving := regexp.MustCompile(`serving on (http://\S+)`)
	spectators := regexp.MustCompile(`spectators: (\S+)`)
	var base, watch string
	sc := bufio.NewScanner(out)
	for (base == "" || watch == "") && sc.Scan() {
		if m := serving.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
		if m := spectators.FindStringSubmatch(sc.Text()); m != nil {
			watch = m[1]
		}
	}
	if base == "" || watch == "" {
		t.Fatalf("the table printed no address or no spectators' link (address %q, link %q)", base, watch)
	}
	go func() { // the rest of its output, so that it never blocks on a full pipe
		for sc.Scan() {
		}
	}()
	u, err := url.Parse(watch)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := tableserver.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if err := conn.Send(ctx, protocol.TypeJoin, protocol.Join{Token: u.Query().Get("token")}); err != nil {
		t.Fatal(err)
	}
	want := []string{"pokerfloor_hands_total{", "pokerfloor_action_latency_seconds_count{", "pokerfloor_reports_total{",
		"pokerfloor_report_latency_seconds_count{"}
	for {
		done := scrape(t, base, "pokerfloor_websocket_connections{") == 1
		for _, w := range want {
			done = done && scrape(t, base, w) >= 3
		}
		if done {
			break
		}
		if ctx.Err() != nil {
			for _, w := range append(want, "pokerfloor_websocket_connections{") {
				t.Errorf("%s %v", w, scrape(t, base, w))
			}
			t.Fatal("the table's /metrics never counted 3 hands, actions and reports with the spectator")
		}
		time.Sleep(100 * time.Millisecond)
	}
	conn.CloseNow()
	for scrape(t, base, "pokerfloor_websocket_connections{") != 0 {
		if ctx.Err() != nil {
			t.Fatal("the spectator's connection is still counted after it closed")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Its spans and metrics by OTLP too, to the collector the environment names.
	for otlp.spanWith("poker.hand", map[string]string{"poker.tournament": "local", "poker.table": "t1"}) == nil ||
		otlp.spanWith("poker.report", map[string]string{"poker.table": "t1"}) == nil || otlp.metricCount() == 0 {
		if ctx.Err() != nil {
			t.Fatalf("by OTLP: a hand's span %v, a report's %v, %d metrics", otlp.spanWith("poker.hand", nil) != nil,
				otlp.spanWith("poker.report", nil) != nil, otlp.metricCount())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("table %s: %v hands, %v actions, %v reports on /metrics", base, scrape(t, base, want[0]), scrape(t, base, want[1]), scrape(t, base, want[2]))
}
