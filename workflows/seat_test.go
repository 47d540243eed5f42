package workflows

import (
	"context"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSeatQuery asks where players sit on a real Temporal server: in a tournament of one section
// and in one of three sections, each player's Seat is the table and seat the tables' own views
// (the tournament's or his section's) give him, with the table's workflow ID; an unknown entry is
// unknown; once the tournament is over, its losers are out.
func TestSeatQuery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		spec     TournamentSpec
		sections int
	}{
		{"OneSection", TournamentSpec{PlayerCount: 18, TableSize: 9, Structure: turbo, Seed: 5, Simulation: true, BuyIn: 1000}, 0},
		{"ThreeSections", TournamentSpec{PlayerCount: 27, TableSize: 9, Structure: turbo, Seed: 3, Simulation: true, SectionTables: 1, BuyIn: 1000}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, check := startServer(t, nil)
			release := check.holdAt(0) // the tables stand at their first report: nobody moves
			defer release()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			tour, err := StartTournament(ctx, c, "seats-"+tc.name, "", tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			// Every table's view, from the tournament or from each section.
			seen := map[string]Seat{}
			deadline := time.Now().Add(3 * time.Minute)
			for len(seen) < tc.spec.PlayerCount {
				if time.Now().After(deadline) {
					t.Fatalf("%d of %d players seen at the tables", len(seen), tc.spec.PlayerCount)
				}
				seen = tableSeats(t, ctx, tour, tc.sections)
				time.Sleep(100 * time.Millisecond)
			}
			for _, player := range PlayerNames(tc.spec.PlayerCount) {
				got, err := tour.Seat(ctx, player)
				if err != nil {
					t.Fatal(err)
				}
				want := seen[player]
				if got.Status != SeatSeated || got.Table != want.Table || got.Seat != want.Seat || got.TableID != want.TableID ||
					got.TableID == "" || got.Section != want.Section {
					t.Errorf("Seat(%s) = %+v, want seated at %+v", player, got, want)
				}
			}
			if got, err := tour.Seat(ctx, "ghost"); err != nil || got.Status != SeatUnknown || got.TableID != "" {
				t.Errorf("Seat(ghost) = %+v, %v; want unknown", got, err)
			}
			if _, err := tour.Seat(ctx, ""); err == nil {
				t.Error("Seat of an empty name: no error")
			}

			release()
			res, err := tour.Result(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Places) < 2 {
				t.Fatalf("result %+v: no loser", res)
			}
			loser := res.Places[len(res.Places)-1]
			if got, err := tour.Seat(ctx, loser.Player); err != nil || got.Status != SeatOut {
				t.Errorf("Seat(%s), place %d of the finished tournament = %+v, %v; want out", loser.Player, loser.Place, got, err)
			}
		})
	}
}

// tableSeats is every player's seat as the tables' views list them (of the sections in play
// when there are any).
func tableSeats(t *testing.T, ctx context.Context, tour *Tournament, sections int) map[string]Seat {
	t.Helper()
	out := map[string]Seat{}
	read := func(section string, views []TableView) {
		for _, v := range views {
			for i, p := range v.Seats {
				if p != "" && !v.Closed {
					out[p] = Seat{Player: p, Status: SeatSeated, Table: v.ID, TableID: v.Workflow, Seat: floor.Seat(i + 1), Section: section}
				}
			}
		}
	}
	if sections == 0 {
		views, err := tour.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		read("", views)
		return out
	}
	var ids []string
	if err := tour.query(ctx, SectionsQuery, &ids); err != nil {
		t.Fatal(err)
	}
	if len(ids) != sections {
		return out // not all started yet
	}
	for _, id := range ids {
		var views []TableView
		if err := GetTournament(tour.client, id).query(ctx, TablesQuery, &views); err != nil {
			t.Logf("section %s: %v (not started yet?)", id, err)
			return map[string]Seat{}
		}
		read(id, views)
	}
	return out
}
