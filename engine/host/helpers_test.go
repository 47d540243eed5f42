package host_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// levels rise quickly, so that tables of bots end.
var levels = []engine.Level{
	{SmallBlind: 10, BigBlind: 20}, {SmallBlind: 15, BigBlind: 30}, {SmallBlind: 25, BigBlind: 50},
	{SmallBlind: 50, BigBlind: 100, Ante: 10}, {SmallBlind: 75, BigBlind: 150, Ante: 20},
	{SmallBlind: 100, BigBlind: 200, Ante: 25}, {SmallBlind: 150, BigBlind: 300, Ante: 40},
	{SmallBlind: 200, BigBlind: 400, Ante: 50}, {SmallBlind: 300, BigBlind: 600, Ante: 75},
	{SmallBlind: 500, BigBlind: 1000, Ante: 100},
}

func players(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i+1)
	}
	return out
}

// ledger watches a LocalReporter's accepted results: hand numbers in order, chips after each.
type ledger struct {
	mu      sync.Mutex
	numbers []int64 // of the hands accepted, void ones included
	voided  int
	total   int64
	errs    []string
}

func (l *ledger) observe(r report.HandResult) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.numbers = append(l.numbers, r.HandNumber)
	if r.Voided {
		l.voided++
	}
	var start, end int64
	for _, s := range r.Start {
		start += s.Stack
	}
	for _, s := range r.End {
		end += s.Stack
	}
	if start != l.total || end != l.total {
		l.errs = append(l.errs, fmt.Sprintf("hand %d: %d chips at the start, %d at the end, want %d", r.HandNumber, start, end, l.total))
	}
}

// check fails t unless the hands accepted ran 1, 2, 3, … (a void hand's number repeats once it is
// dealt again) and every one conserved chips.
func (l *ledger) check(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.errs {
		t.Error(e)
	}
	want := int64(1)
	for i, n := range l.numbers {
		if n != want {
			t.Fatalf("result %d is hand %d, want %d", i, n, want)
		}
		if i+1 < len(l.numbers) && l.numbers[i+1] == n {
			continue // void, dealt again
		}
		want++
	}
}

func (l *ledger) hands() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.numbers)
}

func newLocal(t testing.TB, n, batch int, l *ledger) *host.LocalReporter {
	t.Helper()
	cfg := host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 9}, Levels: levels, HandsPerLevel: 30,
		Players: players(n), Stack: 1500, Button: n - 1, Batch: batch}
	if l != nil {
		l.total = int64(n) * 1500
		cfg.Observe = l.observe
	}
	c, err := host.NewLocalReporter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// options are a simulation's: a seeded deck, a fake clock.
func options(seed uint64, clock *host.FakeClock) host.Options {
	return host.Options{Deck: engine.NewSeededDeck(seed), Clock: clock}
}

// decideFunc is an Instant decider from a function.
type decideFunc func(v *engine.View) engine.Decision

func (f decideFunc) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	return f(v), nil
}
func (decideFunc) Instant() {}

// caller checks or calls, every time.
var caller = decideFunc(func(v *engine.View) engine.Decision {
	if v.Legal.Check {
		return engine.Decision{Action: engine.Check}
	}
	return engine.Decision{Action: engine.Call}
})

func all(d engine.Decider) engine.Players {
	return engine.PlayersFunc(func(string) engine.Decider { return d })
}
