package director

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestLostOrdersAreSentAgain: a signal of orders that failed every attempt (the workflow's
// retrySignal gives up) is lost, and the table, which applies its orders in sequence, holds
// every later one: its credit, its moves, hand-for-hand. The table's events say which orders it
// misses (TableEvent.Gap), and the tournament sends its unapplied orders again, so the
// tournament still finishes with chips conserved (R1) and every place given once (R5). Before
// the resend the table waited on the gap forever and the tournament never finished.
func TestLostOrdersAreSentAgain(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		f := newFloorSim(t, simSpec(100), seed)
		// The first batch of orders to table 1 after its first one (so that later batches
		// follow it) is lost, as a signal whose every attempt failed.
		lost := floor.TableID(1)
		batches := 0
		var dropped []Order
		f.lose = func(b TableOrders) bool {
			if b.Table != lost || dropped != nil {
				return false
			}
			batches++
			if batches < 2 {
				return false
			}
			dropped = b.Orders
			return true
		}
		f.run(200000)
		if dropped == nil {
			t.Fatalf("seed %d: no batch of orders to table %d was lost: the test proves nothing", seed, lost)
		}
		if len(f.s.ChipErrors) > 0 {
			t.Fatalf("seed %d: %v", seed, f.s.ChipErrors)
		}
		res, err := f.s.Result()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Places) != 100 {
			t.Fatalf("seed %d: %d places for 100 players", seed, len(res.Places))
		}
		t.Logf("seed %d: %d orders lost to table %d (first seq %d), %d hands", seed, len(dropped), lost, dropped[0].Seq, f.hands)
	}
}

// TestTableTellsAGapAtOnce: a table that holds an order past one it never received says so in
// an event at once (not at its next heartbeat, a quarter of its deadline later), and again once
// the gap is filled; a table started by a tournament before PaceResend tells nothing new.
func TestTableTellsAGapAtOnce(t *testing.T) {
	for _, tell := range []bool{true, false} {
		st := TableState{Number: 4, TellGaps: tell}
		late := Order{Seq: 2, Pause: new(bool)}
		st.AddOrders([]Order{late})
		var ev TableEvent
		st.ApplyOrders(&ev)
		if st.Acked != 0 {
			t.Fatalf("the table applied order 2 before order 1 (acked %d)", st.Acked)
		}
		sent := st.Event(&ev, 0, simStart)
		if sent != tell || (tell && ev.Gap != 2) {
			t.Fatalf("TellGaps %v: event sent %v with gap %d, want sent %v (gap 2)", tell, sent, ev.Gap, tell)
		}
		if !tell {
			continue
		}
		if again := st.Event(&TableEvent{}, 0, simStart); again {
			t.Error("the same gap told twice")
		}
		st.AddOrders([]Order{{Seq: 1, Pause: new(bool)}})
		ev = TableEvent{}
		st.ApplyOrders(&ev)
		if !st.Event(&ev, 0, simStart) || ev.Gap != 0 || ev.Acked != 2 {
			t.Errorf("gap filled: event %+v, want acked 2 and no gap", ev)
		}
	}
}

// TestGapNotToldWhileTheReplyIsOnItsWay: while an Update of the table's events that its section
// may answer with orders is on its way (Replying), a gap is no news and no event tells it: the
// missing orders may be in that answer, a later signal having come first. Once the answer is in
// and the gap is still there, it is told.
func TestGapNotToldWhileTheReplyIsOnItsWay(t *testing.T) {
	st := TableState{Number: 4, TellGaps: true, Replying: true}
	st.AddOrders([]Order{{Seq: 2, Pause: new(bool)}}) // a signal after the answer, come first
	var ev TableEvent
	st.ApplyOrders(&ev)
	if st.Event(&ev, 0, simStart) {
		t.Fatalf("a gap told while the answer is on its way: %+v", ev)
	}
	ev = TableEvent{Seated: []string{"p1"}} // other news: told, without the gap
	if !st.Event(&ev, 0, simStart) || ev.Gap != 0 {
		t.Fatalf("news while the answer is on its way: event %+v, want it told without the gap", ev)
	}
	st.Replying = false // the answer came without order 1
	ev = TableEvent{}
	if !st.Event(&ev, 0, simStart) || ev.Gap != 2 {
		t.Errorf("the answer is in and order 1 still missing: event %+v, want the gap told", ev)
	}
}
