package workflows

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestTournamentLarge plays a large field at full speed on a real server, for the figures in the
// README: POKERFLOOR_PLAYERS=1000 go test -run TestTournamentLarge -v ./workflows. With
// POKERFLOOR_TRACE=file every table event the tournament takes is written to file, a JSON line each.
func TestTournamentLarge(t *testing.T) {
	players, _ := strconv.Atoi(os.Getenv("POKERFLOOR_PLAYERS"))
	if players == 0 {
		t.Skip("set POKERFLOOR_PLAYERS to play a large field")
	}
	if path := os.Getenv("POKERFLOOR_TRACE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var mu sync.Mutex
		trace = func(ev TableEvent) {
			mu.Lock()
			defer mu.Unlock()
			b, _ := json.Marshal(ev)
			_, _ = f.Write(append(b, '\n'))
		}
		defer func() { trace = nil }()
	}
	c, host, check := startServer(t, nil)
	st, err := floor.BuiltinStructure(floor.StructureStandard)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{Name: "large", PlayerCount: players, TableSize: 9, Structure: st, Seed: 1, Simulation: true, BuyIn: 10000}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	start := time.Now()
	tour, err := StartTournament(ctx, c, "large", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Second):
			}
			if p, err := tour.Progress(ctx); err == nil {
				t.Logf("%v: %d left, %d tables, level %d, %d hands", time.Since(start).Round(time.Second), p.PlayersLeft, p.Tables, p.Level, p.HandsPlayed)
			}
		}
	}()
	res, err := tour.Result(ctx)
	close(done)
	if err != nil {
		dumpFailures(t, c, tour.ID)
		dumpState(t, tour)
		t.Fatal(err)
	}
	t.Logf("%d players: %d hands at %d tables in %v; winner %s", players, res.HandsPlayed, res.Tables, time.Since(start).Round(time.Millisecond), res.Places[0].Player)
	if len(res.ChipErrors) > 0 || len(check.errs) > 0 || host.Err() != nil {
		t.Errorf("errors: %v %v %v", res.ChipErrors, check.errs, host.Err())
	}
}

// dumpState logs what holds a stalled tournament up.
func dumpState(t *testing.T, tour *Tournament) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var s TournamentState
	if err := tour.query(ctx, StateQuery, &s); err != nil {
		t.Logf("state: %v", err)
		return
	}
	s.reindex()
	t.Logf("left %d, movesPending %v, h4h %+v, outbox %d", s.Left(), s.movesPending(), s.HandForHand, len(s.Outbox))
	for _, tr := range s.Tables {
		if tr.Closed {
			continue
		}
		t.Logf("table %d: seats %v sent %d acked %d arriving %+v held %v breaking %v closing %v round %d hand %d early %d started %v",
			tr.ID, tr.Seats, tr.Sent, tr.Acked, tr.Arriving, tr.Held, tr.Breaking, tr.Closing, tr.RoundDone, tr.Hand, len(tr.Early), tr.Started)
	}
	for _, p := range s.Players {
		if p.Status == Moving || p.Leaving || p.Status == Waiting {
			t.Logf("player %+v", p)
		}
	}
}
