package host_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// endless is a LocalReporter that starts a new table (a new game of the same players) each time
// one ends, and closes after limit hands: a benchmark's steady supply of hands.
type endless struct {
	b      *testing.B
	n      int
	batch  int
	local  *host.LocalReporter
	played int
	limit  int
}

func (e *endless) fresh() {
	c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 9}, Levels: levels,
		HandsPerLevel: 30, Players: players(e.n), Stack: 1500, Button: 0, Batch: e.batch})
	if err != nil {
		e.b.Fatal(err)
	}
	e.local = c
}

func (e *endless) Report(ctx context.Context, id string, res []report.HandResult) (report.State, error) {
	st, err := e.local.Report(ctx, id, res)
	if err != nil {
		return st, err
	}
	e.played += len(res)
	if e.played >= e.limit {
		st.Directive = report.Close
		return st, nil
	}
	if st.Directive == report.Close {
		e.fresh()
		return e.local.Report(ctx, id, nil)
	}
	return st, nil
}

// BenchmarkRunnerHands: hands a second through the whole runner (state set-up, dealing, random bots
// deciding from their views, results, chip checks, reports) with the LocalReporter, 6 and 9
// players, one report a hand and one every 100 hands.
func BenchmarkRunnerHands(b *testing.B) {
	for _, n := range []int{6, 9} {
		for _, batch := range []int{1, 100} {
			b.Run(fmt.Sprintf("players=%d/batch=%d", n, batch), func(b *testing.B) {
				e := &endless{b: b, n: n, batch: batch, limit: b.N}
				e.fresh()
				r := host.NewRunner("t1", e, bot.Players(1), host.Options{Deck: engine.NewSeededDeck(1), Clock: host.NewFakeClock(epoch)})
				b.ReportAllocs()
				b.ResetTimer()
				if err := r.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				s := r.Stats()
				if s.Hands+s.Voided < int64(b.N) {
					b.Fatalf("%d hands played, want %d", s.Hands, b.N)
				}
				b.ReportMetric(float64(s.Hands)/b.Elapsed().Seconds(), "hands/s")
			})
		}
	}
}

// BenchmarkRunnerHandsStrength is the same with Strength bots, whose Monte Carlo costs the most.
func BenchmarkRunnerHandsStrength(b *testing.B) {
	e := &endless{b: b, n: 9, batch: 100, limit: b.N}
	e.fresh()
	r := host.NewRunner("t1", e, bot.Players(1, bot.KindStrength), host.Options{Deck: engine.NewSeededDeck(1), Clock: host.NewFakeClock(epoch)})
	b.ReportAllocs()
	b.ResetTimer()
	if err := r.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(r.Stats().Hands)/b.Elapsed().Seconds(), "hands/s")
}
