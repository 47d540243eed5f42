package workflows

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// BenchmarkLoneTableTournament plays simulations that have one table from the first hand to the
// last, on a real Temporal server with bot tables: the speed of a table alone through the whole
// stack (tournament and table workflows, signals, updates, the table process), in hands per second.
// turbo is a 9-player turbo (about 100 hands: the tournament's start and end weigh much); deep a
// 10-player deep-stack one with 30-hand levels (about 200 hands); long the same with passive
// bots (over a thousand hands: the table's sustained pace). hands/s counts from the
// tournament's start to its result; play-hands/s from the table's first report to the result,
// without the start (the workflows and the table process starting).
func BenchmarkLoneTableTournament(b *testing.B) {
	for _, c := range []struct {
		name      string
		structure string
		players   int
		run       RunTable
	}{
		{"turbo", floor.StructureTurbo, 9, BotTables(nil)},
		{"deep", floor.StructureDeep, 10, BotTables(nil)},
		{"long", floor.StructureDeep, 10, passiveTables},
	} {
		b.Run(c.name, func(b *testing.B) { benchmarkLoneTable(b, c.structure, c.players, c.run) })
	}
}

// passiveTables are bot tables whose Random bots seldom raise and never go all in before they are
// short: a table that lasts a thousand hands or more.
func passiveTables(ctx context.Context, t HostedTable, c report.Reporter) error {
	players := engine.PlayersFunc(func(player string) engine.Decider {
		h := fnv.New64a()
		h.Write([]byte(player))
		return bot.NewRandom(t.DeckSeed^h.Sum64(), bot.RandomConfig{Fold: 50, Call: 48, Raise: 2, Check: 95, Bet: 5, PushBelow: 5})
	})
	return host.NewRunner(t.ID, c, players, host.Options{Deck: engine.NewSeededDeck(t.DeckSeed)}).Run(ctx)
}

func benchmarkLoneTable(b *testing.B, structure string, players int, run RunTable) {
	b.ReportAllocs()
	srv := newTestServer(b)
	defer srv.Stop()
	c := srv.GetDefaultClient()
	first := &firstReport{inner: NewTableReporter(c)}
	host := NewLocalTableHost(first, run)
	defer host.Close()
	srv.NewWorkerWithOptions(TaskQueue, func(r worker.Registry) { Register(r, host) }, testWorkerOptions(worker.Options{}))
	srv.NewWorkerWithOptions(TableTaskQueue(TaskQueue), func(r worker.Registry) { Register(r, host) }, testWorkerOptions(worker.Options{}))
	st, err := floor.BuiltinStructure(structure)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var hands int64
	var play time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		spec := TournamentSpec{Name: "lone", PlayerCount: players, TableSize: players, Structure: st, Seed: uint64(i + 1),
			Simulation: true, BuyIn: 11000, Fee: 1000}
		first.reset()
		tour, err := StartTournament(ctx, c, fmt.Sprintf("lone-%s-%d", structure, i), "", spec)
		if err != nil {
			b.Fatal(err)
		}
		res, err := tour.Result(ctx)
		if err != nil {
			b.Fatal(err)
		}
		play += time.Since(first.at())
		if res.Tables != 1 || len(res.Places) != players {
			b.Fatalf("%d tables, %d places: want 1 table and %d places", res.Tables, len(res.Places), players)
		}
		hands += res.HandsPlayed
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
	b.ReportMetric(float64(hands)/play.Seconds(), "play-hands/s")
	b.ReportMetric(float64(hands)/float64(b.N), "hands/op")
}

// firstReport notes when a table first reported hands.
type firstReport struct {
	inner report.Reporter
	mu    sync.Mutex
	first time.Time
}

func (f *firstReport) Report(ctx context.Context, id string, rs []report.HandResult) (report.State, error) {
	f.mu.Lock()
	if f.first.IsZero() && len(rs) > 0 {
		f.first = time.Now()
	}
	f.mu.Unlock()
	return f.inner.Report(ctx, id, rs)
}

func (f *firstReport) reset() { f.mu.Lock(); f.first = time.Time{}; f.mu.Unlock() }

func (f *firstReport) at() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first
}
