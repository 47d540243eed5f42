package director

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestColorUpAppliedAtLiveTablesR8: when a period that colours up starts, every live table races
// the odd chips of the denomination leaving play, from seat 1, between hands: afterwards every
// stack is a whole number of the smallest chip left, the ledger counts what the races added, and
// the chip count holds. Online tables never race.
func TestColorUpAppliedAtLiveTablesR8(t *testing.T) { // rule R8
	structure := floor.Structure{Name: "live", StartingStack: 10000, Chips: []int64{25, 100, 500, 1000}, Levels: []floor.Level{
		{SmallBlind: 25, BigBlind: 50, Minutes: 20},
		{Break: true, Minutes: 10, ColorUp: []int64{25}},
		{SmallBlind: 100, BigBlind: 200, Minutes: 20},
	}}
	for _, live := range []bool{true, false} {
		spec := TournamentSpec{PlayerCount: 18, TableSize: 9, Structure: structure, BuyIn: 1000, Live: live}
		s, err := NewTournamentState("t", spec, 7, simStart)
		if err != nil {
			t.Fatal(err)
		}
		s.Tick(simStart)
		tables := map[floor.TableID]*TableState{}
		for _, id := range s.NewTables {
			st := s.TableInput(id)
			tables[id] = &st
			s.Table(id).Started = true
		}
		s.NewTables = nil
		exchange := func(now time.Time) {
			for _, b := range s.Outbox {
				tables[b.Table].AddOrders(b.Orders)
			}
			s.Outbox = nil
			for _, id := range sortedTableIDs(tables) {
				st := tables[id]
				var ev TableEvent
				acked := st.Acked
				st.ApplyOrders(&ev)
				if st.Event(&ev, acked, now) {
					s.OnEvent(ev)
				}
			}
		}
		exchange(simStart)
		// A hand at table 1 leaves odd chips of 25: seat 1 passes 75 to seat 2.
		st := tables[1]
		start := make([]report.SeatStack, len(st.Seats))
		for i, seat := range st.Seats {
			start[i] = report.SeatStack{Seat: seat.Seat, Player: seat.Player, Stack: seat.Stack}
		}
		end := append([]report.SeatStack(nil), start...)
		end[0].Stack -= 75
		end[1].Stack += 75
		r := report.HandResult{TableID: st.ID, HandNumber: 1, Start: start, End: end,
			Positions: engine.Positions{Button: st.Seats[0].Seat, SmallBlind: st.Seats[1].Seat, BigBlind: st.Seats[2].Seat, Played: true}}
		var ev TableEvent
		if err := st.ApplyResults([]report.HandResult{r}, &ev); err != nil {
			t.Fatal(err)
		}
		if st.Event(&ev, st.Acked, simStart) {
			s.OnEvent(ev)
		}
		breakAt := simStart.Add(20 * time.Minute)
		s.Tick(breakAt)
		var raced []AppliedColorUp
		s.Trace = func(ev TableEvent) { raced = append(raced, ev.ColorUps...) }
		exchange(breakAt)
		if len(s.ChipErrors) > 0 {
			t.Fatalf("live %v: %v", live, s.ChipErrors)
		}
		if !live {
			if len(raced) != 0 || tables[1].Seats[0].Stack%100 == 0 {
				t.Errorf("an online table raced: %+v", raced)
			}
			continue
		}
		if len(raced) != len(tables) {
			t.Fatalf("colour-ups %+v, want one a table", raced)
		}
		var added int64
		for _, c := range raced {
			added += c.Added
			if c.Removed != 25 || c.Next != 100 || c.Error != "" {
				t.Errorf("colour-up %+v", c)
			}
		}
		if len(raced[0].Winners) == 0 {
			t.Errorf("table 1 had odd chips and nobody won a chip: %+v", raced[0])
		}
		var sum int64
		for _, id := range sortedTableIDs(tables) {
			for _, seat := range tables[id].Seats {
				sum += seat.Stack
				if seat.Stack%100 != 0 || seat.Stack <= 0 {
					t.Errorf("table %d seat %d holds %d after the colour-up", id, seat.Seat, seat.Stack)
				}
			}
		}
		if s.Ledger.ColorUp != added || sum != s.Ledger.Total() {
			t.Errorf("ledger colour-up %d, races added %d; chips %d, ledger %d", s.Ledger.ColorUp, added, sum, s.Ledger.Total())
		}
	}
}

func sortedTableIDs(tables map[floor.TableID]*TableState) []floor.TableID {
	ids := slices.Collect(maps.Keys(tables))
	slices.Sort(ids)
	return ids
}
