package workflows

import (
	"context"
	"fmt"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// BenchmarkLoneTableTournament plays 9-player simulations, one table from the first hand to the
// last, on a real Temporal server with bot tables: the speed of a table alone through the whole
// stack (tournament and table workflows, signals, the table process), reported in hands per second.
func BenchmarkLoneTableTournament(b *testing.B) {
	b.ReportAllocs()
	srv := temporaltest.NewServer(temporaltest.WithBaseClientOptions(client.Options{Logger: quietSDKLogger()}))
	defer srv.Stop()
	c := srv.GetDefaultClient()
	host := NewLocalTableHost(NewTableReporter(c), BotTables(nil))
	defer host.Close()
	srv.NewWorker(TaskQueue, func(r worker.Registry) { Register(r, host) })
	srv.NewWorker(TableTaskQueue(TaskQueue), func(r worker.Registry) { Register(r, host) })
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var hands int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		spec := TournamentSpec{Name: "lone", PlayerCount: 9, TableSize: 9, Structure: turbo, Seed: uint64(i + 1),
			Simulation: true, BuyIn: 11000, Fee: 1000}
		tour, err := StartTournament(ctx, c, fmt.Sprintf("lone-%d", i), "", spec)
		if err != nil {
			b.Fatal(err)
		}
		res, err := tour.Result(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if res.Tables != 1 || len(res.Places) != 9 {
			b.Fatalf("%d tables, %d places: want 1 table and 9 places", res.Tables, len(res.Places))
		}
		hands += res.HandsPlayed
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
}
