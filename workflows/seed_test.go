package workflows

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// jitter delays every report by a random few milliseconds, from a generator of its own: the
// tables of one run reach the tournament in another order than those of the next.
type jitter struct {
	inner report.Reporter
	mu    sync.Mutex
	rng   *rand.Rand
}

func (j *jitter) Report(ctx context.Context, id string, rs []report.HandResult) (report.State, error) {
	j.mu.Lock()
	d := time.Duration(j.rng.IntN(8)) * time.Millisecond
	j.mu.Unlock()
	select {
	case <-time.After(d):
	case <-ctx.Done():
		return report.State{}, ctx.Err()
	}
	return j.inner.Report(ctx, id, rs)
}

// TestSeededSimulationReproducible: a simulation with a seed plays the same tournament twice,
// whatever the scheduling of its tables (random delays before every report, different in each
// run): the same places, prizes and hand count; as one tournament, and as a tournament of sections
// (four of two tables, which keep barriers across them: director.PlanBarriers).
func TestSeededSimulationReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	for _, c := range []struct {
		name                   string
		players, sectionTables int
	}{{"one tournament", 30, 0}, {"sections", 63, 2}} {
		t.Run(c.name, func(t *testing.T) { playSeededTwice(t, c.players, c.sectionTables) })
	}
}

func playSeededTwice(t *testing.T, players, sectionTables int) {
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute) // for a machine many times slower
	defer cancel()
	var results []TournamentResult
	for run := uint64(1); run <= 2; run++ {
		c, _, _ := startServer(t, func(c client.Client) report.Reporter {
			return &jitter{inner: NewTableReporter(c), rng: rand.New(rand.NewPCG(run, 0))}
		})
		spec := TournamentSpec{Name: "seeded", PlayerCount: players, TableSize: 9, Structure: turbo, Seed: 7,
			Simulation: true, BuyIn: 11000, Fee: 1000, SectionTables: sectionTables}
		if spec.Sectioned() != (sectionTables > 0) {
			t.Fatalf("sectioned %v, want %v", spec.Sectioned(), sectionTables > 0)
		}
		start := time.Now()
		tour, err := StartTournament(ctx, c, fmt.Sprintf("seeded-%d", run), "", spec)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tour.Result(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.ChipErrors) > 0 || len(res.Places) != players {
			t.Fatalf("run %d: %d places, chip errors %v", run, len(res.Places), res.ChipErrors)
		}
		t.Logf("run %d: %d hands in %v", run, res.HandsPlayed, time.Since(start).Round(time.Millisecond))
		results = append(results, res)
	}
	a, b := results[0], results[1]
	if a.HandsPlayed != b.HandsPlayed || !reflect.DeepEqual(a.Places, b.Places) {
		t.Fatalf("the same seed played two tournaments: %d hands, places %v; then %d hands, places %v", a.HandsPlayed, a.Places, b.HandsPlayed, b.Places)
	}
}
