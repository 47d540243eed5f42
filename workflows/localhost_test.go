package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// A hosted table of a simulation at a set speed (HostedTable.Pace, from TournamentSpec.Pace) is
// played by RunBots at that pace, reporting its batches at once, to its last player.
func TestRunBotsKeepsTheTablesPace(t *testing.T) {
	c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 9},
		Levels:        []engine.Level{{SmallBlind: 50, BigBlind: 100}, {SmallBlind: 100, BigBlind: 200}, {SmallBlind: 200, BigBlind: 400}},
		HandsPerLevel: 10, Players: []string{"a", "b", "c", "d"}, Stack: 3000, Button: 3, Batch: 20})
	if err != nil {
		t.Fatal(err)
	}
	clock := host.NewFakeClock(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))
	var ends []time.Time
	opt := host.Options{Clock: clock, OnHand: func(*report.HandResult) { ends = append(ends, clock.Now()) }}
	if err := RunBots(context.Background(), HostedTable{ID: "t1", Number: 1, DeckSeed: 5, Simulation: true, Pace: 3 * time.Second}, c, opt); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Winner(); !ok || len(ends) < 2 {
		t.Fatalf("%d hands, winner %v: the table did not play to its last player", len(ends), ok)
	}
	for i := 1; i < len(ends); i++ {
		if gap := ends[i].Sub(ends[i-1]); gap != 3*time.Second {
			t.Fatalf("hands %d and %d %v apart, want the table's pace, 3s", i, i+1, gap)
		}
	}
}
