package tableserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// viewKey names a table state: the view an action answered, and the one before a view received.
type viewKey struct {
	hand       int64
	round      string
	toAct      int
	pot        int64
	currentBet int64
}

// latencies measures, at one table, the time from a bot's action to the last of the table's players
// receiving the view it produced.
type latencies struct {
	mu      sync.Mutex
	sent    map[viewKey]time.Time   // when the action on that view was sent
	arrived map[viewKey][]time.Time // when each player received the view after it
}

// timed is a bot decider that notes when it answers a view.
type timed struct {
	d     engine.Decider
	lat   *latencies
	think time.Duration
}

func (t timed) Decide(ctx context.Context, v *engine.View) (engine.Decision, error) {
	// The player's pace, live play rather than a simulation at full speed: half to one and a half
	// times the think time, so that the tables do not act in step.
	time.Sleep(t.think/2 + time.Duration(rand.Int64N(int64(t.think)+1)))
	d, err := t.d.Decide(ctx, v)
	k := viewKey{v.HandNumber, v.Round.String(), v.ToAct, v.Pot, v.CurrentBet}
	t.lat.mu.Lock()
	t.lat.sent[k] = time.Now()
	t.lat.mu.Unlock()
	return d, err
}

// BenchmarkLoad100Tables runs 100 tables of 9 network bots on loopback in one process and reports
// the time from an action to every player's update: p50, p99 and the maximum over every action (the
// target is p99 at most 5 ms). The clock starts when the bot has decided, before it sends the action,
// and stops when the last of the table's nine players has read the view that action produced: the
// client's write, the server's read, the engine's step, the views' encoding, the nine writes and the
// nine reads all count. Each bot thinks POKERFLOOR_LOAD_THINK (default 300 ms) before it acts, a live
// table's pace: bots answering at once would measure a queue of 100 saturated tables instead of the
// server's response. One iteration is 100 tables playing 5 hands each.
func BenchmarkLoad100Tables(b *testing.B) {
	const players, hands = 9, 5
	tables := 100
	if n, err := strconv.Atoi(os.Getenv("POKERFLOOR_LOAD_TABLES")); err == nil && n > 0 {
		tables = n // fewer, to see the server's response apart from the machine's load
	}
	think := 300 * time.Millisecond
	if d, err := time.ParseDuration(os.Getenv("POKERFLOOR_LOAD_THINK")); err == nil {
		think = d
	}
	b.ReportAllocs()
	var all []time.Duration
	for b.Loop() {
		var wg sync.WaitGroup
		lats := make([]*latencies, tables)
		for ti := 0; ti < tables; ti++ {
			lat := &latencies{sent: map[viewKey]time.Time{}, arrived: map[viewKey][]time.Time{}}
			lats[ti] = lat
			id := fmt.Sprintf("t%03d", ti)
			ids := make([]string, players)
			for i := range ids {
				ids[i] = fmt.Sprintf("%s-p%d", id, i+1)
			}
			reporter, err := host.NewLocalReporter(host.LocalConfig{TableID: id, Config: engine.Config{Seats: players},
				Levels: []engine.Level{{SmallBlind: 50, BigBlind: 100}}, Players: ids, Stack: 100000})
			if err != nil {
				b.Fatal(err)
			}
			tokens, _ := NewTokens(testKey, "load", id, nil)
			var srv *Server
			srv, err = New(Config{Tournament: "load", TableID: id, Reporter: reporter, Tokens: tokens,
				OnHand: func(r *report.HandResult) {
					if r.HandNumber >= hands {
						srv.Drain()
					}
				}})
			if err != nil {
				b.Fatal(err)
			}
			hs := httptest.NewServer(srv.Handler())
			url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws"
			done := make(chan error, 1)
			go func() { done <- srv.Run(context.Background()) }()
			for !srv.Ready() {
				time.Sleep(time.Millisecond)
			}
			for i, p := range ids {
				tok, _ := tokens.Issue(p, protocol.RolePlayer, time.Hour)
				var prev viewKey
				bt := &Bot{URL: url, Token: tok, Decider: timed{bot.New(bot.KindRandom, uint64(ti*players+i+1)), lat, think},
					OnFrame: func(env protocol.Envelope, _ []byte) {
						if env.Type != protocol.TypeView {
							return
						}
						now := time.Now()
						var v struct { // only what names the state: the bot decodes the view itself
							Hand       int64  `json:"hand"`
							Round      string `json:"round"`
							ToAct      int    `json:"toAct"`
							Pot        int64  `json:"pot"`
							CurrentBet int64  `json:"currentBet"`
						}
						json.Unmarshal(env.Data, &v)
						lat.mu.Lock()
						lat.arrived[prev] = append(lat.arrived[prev], now)
						lat.mu.Unlock()
						prev = viewKey{v.Hand, v.Round, v.ToAct, v.Pot, v.CurrentBet}
					}}
				wg.Add(1)
				go func() { defer wg.Done(); bt.Play(context.Background()) }()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := <-done; err != nil {
					b.Error(err)
				}
				hs.Close()
			}()
		}
		wg.Wait()
		for _, lat := range lats {
			for k, t0 := range lat.sent {
				arr := lat.arrived[k]
				if len(arr) < players || k.hand < 2 {
					continue // a view some player did not follow (the last of the run), or the first
					// hand, while 900 connections join
				}
				last := arr[0]
				for _, a := range arr[1:] {
					if a.After(last) {
						last = a
					}
				}
				all = append(all, last.Sub(t0))
			}
		}
	}
	if len(all) == 0 {
		b.Fatal("no action measured")
	}
	slices.Sort(all)
	q := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(q(1), "max-ms")
	b.ReportMetric(float64(len(all)), "actions")
}
