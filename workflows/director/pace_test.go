package director

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine/report"
)

// TestRuleB3SimulationScheduleInHands: a simulation's table keeps the published schedule by its
// own hand number, the same level the tournament's clock shows after as many hands (B3, R2), and
// a batch that crosses a level change carries the level of each hand.
func TestRuleB3SimulationScheduleInHands(t *testing.T) { // rule B3
	spec := simSpec(30)
	spec.HandTime = 3 * time.Minute // not a divisor of the 10-minute levels: levels start mid-way
	s, err := NewTournamentState("sched", spec, 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	st := s.TableInput(s.Tables[0].ID)
	if len(st.Schedule) == 0 {
		t.Fatal("a simulation's table has no schedule")
	}
	for played := int64(0); played < 200; played++ {
		// The tournament's clock after `played` hands at every table.
		for i := range s.Tables {
			s.Tables[i].Hands = played
		}
		cs, err := s.ClockAt(simStart)
		if err != nil {
			t.Fatal(err)
		}
		tbl := st.Clone()
		tbl.HandNumber = played
		tbl.followSchedule()
		if tbl.LevelNumber != cs.Level || tbl.Level != engineLevel(cs.Blinds) {
			t.Fatalf("hand %d: the table deals level %d %+v, the clock shows level %d %+v", played+1, tbl.LevelNumber, tbl.Level, cs.Level, cs.Blinds)
		}
	}
	// A batch of 10 from hand 1: the levels that start in it, each from its hand.
	st.Credit, st.Batch = 0, 10
	next := st.Next(&TableEvent{}, true)
	if next.Level != st.Schedule[0].Level {
		t.Fatalf("first hand's level %+v, want %+v", next.Level, st.Schedule[0].Level)
	}
	var want []report.LevelFrom
	for _, l := range st.Schedule {
		if l.From > 1 && l.From <= 10 {
			want = append(want, report.LevelFrom{From: l.From, Level: l.Level})
		}
	}
	if len(want) == 0 || len(next.Levels) != len(want) {
		t.Fatalf("batch levels %+v, want %+v", next.Levels, want)
	}
	for i := range want {
		if next.Levels[i] != want[i] {
			t.Fatalf("batch levels %+v, want %+v", next.Levels, want)
		}
	}
	// A level order (the tournament's news) does not move a table that keeps the schedule.
	st.AddOrders([]Order{{Seq: st.Acked + 1, Level: &LevelOrder{Number: 9, Level: st.Schedule[8].Level}}})
	st.ApplyOrders(&TableEvent{})
	if st.Next(&TableEvent{}, true); st.LevelNumber != 1 {
		t.Fatalf("level %d after a level order, want the schedule's 1", st.LevelNumber)
	}
}

// TestRuleR5LastTableClosesItself: a simulation's only table, which nobody can join, deals in long
// batches with no credit limit and closes itself when one player has every chip: the tournament
// hears the last elimination and the close in one event, and sends nothing after it (R5).
func TestRuleR5LastTableClosesItself(t *testing.T) { // rule R5
	for seed := uint64(1); seed <= 5; seed++ {
		f := newFloorSim(t, simSpec(9), seed)
		st := f.tables[f.s.Tables[0].ID].st
		if !st.Last || st.Credit != 0 || st.Batch != f.s.loneBatch() {
			t.Fatalf("the only table: last %v, credit %d, batch %d; want last, no credit limit, batch %d", st.Last, st.Credit, st.Batch, f.s.loneBatch())
		}
		var last TableEvent
		f.s.Trace = func(ev TableEvent) { last = ev }
		f.run(100000)
		if !last.Closed || len(last.Busts) == 0 {
			t.Fatalf("seed %d: the last event %+v: want the last elimination and the close together", seed, last)
		}
		for _, b := range append(f.orders, f.s.Outbox...) {
			for _, o := range b.Orders {
				if o.Close != nil {
					t.Fatalf("seed %d: a close order %+v for a table that closed itself", seed, o)
				}
			}
		}
		res, err := f.s.Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Places) != 9 || len(res.ChipErrors) > 0 {
			t.Fatalf("seed %d: %d places, chip errors %v", seed, len(res.Places), res.ChipErrors)
		}
	}
}

// TestLoneTableAfterTheOthersBroke: when the tables break down to one and registration is over,
// the last one is told it is the last and that it deals on with no credit limit, in long batches.
func TestLoneTableAfterTheOthersBroke(t *testing.T) {
	f := newFloorSim(t, simSpec(40), 3)
	f.s.Step(f.now)
	f.flush()
	f.until(func() bool {
		for _, tr := range f.s.Tables {
			if !tr.Closed && !tr.Closing && tr.Last {
				return true
			}
		}
		return false
	})
	if !f.s.alone() {
		t.Fatalf("a table told it is the last with %d tables open", f.s.OpenTables())
	}
	f.until(func() bool {
		for _, tb := range f.tables {
			if tb.st.Last && tb.st.Credit == 0 && tb.st.Batch == f.s.loneBatch() {
				return true
			}
		}
		return false
	})
	f.run(100000)
	if res, err := f.s.Result(); err != nil || len(res.Places) != 40 {
		t.Fatalf("result %v, %v", res.Places, err)
	}
}

// TestSeededSimulationIgnoresScheduling: a seeded simulation plays the same tournament whatever
// the order its orders and events are delivered in and its tables report in: the same places,
// prizes and hands (its decisions are made at barriers, its eliminations placed by hand).
func TestSeededSimulationIgnoresScheduling(t *testing.T) {
	for _, c := range []struct {
		players int
		seed    uint64
	}{{27, 42}, {100, 42}, {100, 7}, {250, 42}, {250, 3}} {
		players := c.players
		var first *TournamentResult
		var firstHands int
		var firstClock int64
		for delivery := uint64(1); delivery <= 4; delivery++ {
			spec := simSpec(players)
			spec.Seed = c.seed
			f := newFloorSim(t, spec, c.seed)
			f.rng = rand.New(rand.NewPCG(delivery, 99)) // the scheduling
			f.byHand = true
			f.run(500000)
			res, err := f.s.Result()
			if err != nil {
				t.Fatal(err)
			}
			if len(res.ChipErrors) > 0 || len(res.Places) != players {
				t.Fatalf("%d players, delivery %d: %d places, chip errors %v", players, delivery, len(res.Places), res.ChipErrors)
			}
			if first == nil {
				first, firstHands, firstClock = &res, f.hands, f.s.SimHands
				continue
			}
			if f.s.SimHands != firstClock {
				t.Fatalf("%d players: delivery %d ended with the clock at %d hands, delivery 1 at %d", players, delivery, f.s.SimHands, firstClock)
			}
			if f.hands != firstHands || !reflect.DeepEqual(res.Places, first.Places) {
				t.Fatalf("%d players: delivery %d dealt %d hands and placed %v; delivery 1 dealt %d and placed %v",
					players, delivery, f.hands, res.Places[:min(5, len(res.Places))], firstHands, first.Places[:min(5, len(first.Places))])
			}
		}
	}
}

// TestClockPacedTablesTellEveryBatch: the tables of a simulation paced by the clock (a hand a
// second at x60) tell their hand count every batch, news or not, and its last table reports a
// batch at a time, so that the clock and the progress hear of them every 20 seconds at most; at
// full speed, and in a run recorded before PaceClockReports, every 100 hands and five batches.
func TestClockPacedTablesTellEveryBatch(t *testing.T) {
	for _, c := range []struct {
		name          string
		pace          time.Duration
		version       int
		every, lonely int
	}{
		{"paced", time.Second, PaceClockReports, 10, 10},
		{"paced, recorded before", time.Second, PaceSlideBatch, 100, 50},
		{"full speed", 0, PaceClockReports, 100, 50},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := simSpec(9)
			spec.Pace = c.pace
			s, err := NewTournamentState("clock", spec, 1, simStart)
			if err != nil {
				t.Fatal(err)
			}
			s.Pace = c.version
			if got := s.loneBatch(); got != c.lonely {
				t.Fatalf("the last table's batch %d, want %d", got, c.lonely)
			}
			st := s.TableInput(s.Tables[0].ID)
			if st.ReportEvery != c.every {
				t.Fatalf("the table tells its hand count every %d hands, want %d", st.ReportEvery, c.every)
			}
			// Hands without news: the table tells after ReportEvery of them, not before.
			var ev TableEvent
			st.Event(&ev, st.Acked, simStart) // the first event, which says the table started
			st.HandsPlayed += int64(c.every - 1)
			if st.Event(&TableEvent{}, st.Acked, simStart) {
				t.Fatalf("an event after %d hands without news", c.every-1)
			}
			st.HandsPlayed++
			if !st.Event(&TableEvent{}, st.Acked, simStart) {
				t.Fatalf("no event after %d hands", c.every)
			}
		})
	}
}
