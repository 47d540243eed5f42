package director

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestLinkDeliversOnceInOrder sends messages through a Link to an Inbox over a channel that loses,
// repeats and reorders them, with resends as a continued run makes: each arrives once, in order.
func TestLinkDeliversOnceInOrder(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		var l Link[int]
		var in Inbox[int]
		var wire []Numbered[int]
		var got []int
		for next := 1; next <= 200 || l.Pending(); {
			if next <= 200 && rng.IntN(2) == 0 {
				l.Send(next)
				next++
			}
			for _, m := range l.Take() {
				if rng.IntN(4) > 0 { // a quarter lost
					wire = append(wire, m)
				}
				if rng.IntN(10) == 0 {
					wire = append(wire, m) // repeated
				}
			}
			rng.Shuffle(len(wire), func(i, j int) { wire[i], wire[j] = wire[j], wire[i] })
			n := rng.IntN(len(wire) + 1)
			got = append(got, in.Add(wire[:n]...)...)
			wire = wire[n:]
			l.Ack(in.Last)
			if rng.IntN(8) == 0 {
				l.Resend() // a new run: what was not acknowledged goes again
			}
		}
		want := make([]int, 200)
		for i := range want {
			want[i] = i + 1
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: got %v", seed, got)
		}
		if len(l.Unacked) != 0 || l.Queued != 0 {
			t.Fatalf("seed %d: %d unacked, %d queued after every ack", seed, len(l.Unacked), l.Queued)
		}
	}
}

// TestContinueHandshakeHoldsOrders: a table that asks to continue as new (an event with
// Continuing) is sent Order.Continue, every later order is held until an event of its next run
// says it is up (Resumed), and so is every order sent again meanwhile, unless the table says it
// misses one (its Gap).
func TestContinueHandshakeHoldsOrders(t *testing.T) {
	s, err := NewTournamentState("t", simSpec(18), 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	s.Pace = PaceResend // before PaceLost: what a gap sends (TestContinueHandshakeResendsOnlyLostOrders from it)
	id := s.Tables[0].ID
	st := s.TableInput(id)
	tell := func(set func(ev *TableEvent)) {
		var ev TableEvent
		set(&ev)
		if !st.Event(&ev, st.Acked, simStart) {
			t.Fatal("the handshake's event is no news")
		}
		s.OnEvent(ev)
	}
	tr := s.Table(id)
	if tr.HoldsOrder(Order{Seq: tr.Sent + 1}) {
		t.Fatal("an order held before the table asked")
	}
	tell(func(ev *TableEvent) { ev.Continuing = true })
	if tr.Continue != ContinueAsked || !tr.HoldsOrder(Order{Seq: tr.Sent + 1}) {
		t.Fatalf("after the ask: %v, order held %v; expected asked, held until Order.Continue goes", tr.Continue, tr.HoldsOrder(Order{Seq: tr.Sent + 1}))
	}
	if !s.TellContinue(id) || s.TellContinue(id) {
		t.Fatal("Order.Continue queued not once")
	}
	last := s.Outbox[len(s.Outbox)-1]
	if o := last.Orders[len(last.Orders)-1]; last.Table != id || o.Continue == nil || o.Seq != tr.ContinueSeq {
		t.Fatalf("the last order queued is %+v for table %d, expected Order.Continue %d for table %d", o, last.Table, tr.ContinueSeq, id)
	}
	if !tr.HoldsOrder(Order{Seq: tr.ContinueSeq + 1}) || !tr.HoldsOrder(Order{Seq: tr.ContinueSeq}) {
		t.Error("an order after Order.Continue, or one sent again, is not held while the table continues as new")
	}
	tr.Gap = tr.ContinueSeq // the table misses an order before its Order.Continue
	if tr.HoldsOrder(Order{Seq: tr.ContinueSeq}) || !tr.HoldsOrder(Order{Seq: tr.ContinueSeq + 1}) {
		t.Error("with a gap, the missing orders go and the later ones wait")
	}
	tell(func(ev *TableEvent) { ev.Resumed = true })
	if tr.Continue != ContinueNone || tr.HoldsOrder(Order{Seq: tr.ContinueSeq + 1}) {
		t.Errorf("after the next run is up: %v, still holding", tr.Continue)
	}
}

// TestContinueHandshakeResendsOnlyLostOrders: from PaceLost, a table told to continue as new is
// sent again the orders before its Order.Continue only when a signal of them failed (Lost): the
// Order.Continue goes once no signal to the table is on its way, so a Gap the table told before
// the last of them arrived is stale, and a resend for it would come in while the table continues
// as new (the server refuses that continue-as-new: the 100,000 test in CI, table-5522).
func TestContinueHandshakeResendsOnlyLostOrders(t *testing.T) {
	s, err := NewTournamentState("t", simSpec(18), 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	s.Pace = PaceLost
	id := s.Tables[0].ID
	st := s.TableInput(id)
	var ev TableEvent
	ev.Continuing = true
	if !st.Event(&ev, st.Acked, simStart) {
		t.Fatal("the ask is no news")
	}
	s.OnEvent(ev)
	if !s.TellContinue(id) {
		t.Fatal("Order.Continue not queued")
	}
	tr := s.Table(id)
	tr.Gap = tr.ContinueSeq // an event told before the table had every order
	if !tr.HoldsOrder(Order{Seq: tr.ContinueSeq}) {
		t.Error("an order sent again for a stale gap goes while the table continues as new")
	}
	tr.Lost = true // a signal of orders to the table failed every attempt
	if tr.HoldsOrder(Order{Seq: tr.ContinueSeq}) || !tr.HoldsOrder(Order{Seq: tr.ContinueSeq + 1}) {
		t.Error("after a lost signal, the missing orders do not go, or the later ones do not wait")
	}
	s.Pace = PaceHostEarly // a run recorded before PaceLost resends for every gap
	tr.Lost = false
	tr.Continue = ContinueAsked
	if !s.TellContinue(id) || tr.OnlyLost || tr.HoldsOrder(Order{Seq: tr.ContinueSeq}) {
		t.Error("before PaceLost, a gap's orders are held")
	}
}

// TestTableStartedByItsNews: a table whose workflow a section's StartTables activity started is
// marked started (its orders go) as soon as its first event comes, not once the activity of its
// twenty tables ends (at 10,000 entries the tables dealt their first credit and waited for their
// orders until then).
func TestTableStartedByItsNews(t *testing.T) {
	s, err := NewTournamentState("t", simSpec(18), 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	tr := &s.Tables[0]
	tr.Started = false
	st := s.TableInput(tr.ID)
	ev := TableEvent{Resumed: true}
	if !st.Event(&ev, st.Acked, simStart) {
		t.Fatal("a first run's event is no news")
	}
	s.OnEvent(ev)
	if !tr.Started {
		t.Error("a table that told its section it is up is not marked started")
	}
}

// TestNothingGoesAfterTheClose: from PaceClosed, once the signal carrying a table's Close has
// gone, the table is sent nothing more: not the Order.Continue of an ask that crossed the Close,
// not its unacknowledged orders sent again (Resend). The server refuses a run's end, as its
// continue-as-new, while a signal comes in during that task (the 100,000 test in CI: one
// TableWorkflow's end refused for an orders signal). A table that asked before its Close is sent
// the Close with its Order.Continue; once the Close's signal failed (Lost), its orders go again.
// Before PaceClosed (recorded histories), nothing is dropped.
func TestNothingGoesAfterTheClose(t *testing.T) {
	for _, pace := range []int{PaceHandOn, PaceClosed} {
		s, err := NewTournamentState("t", simSpec(18), 1, simStart)
		if err != nil {
			t.Fatal(err)
		}
		s.Pace = pace
		id := s.Tables[0].ID
		tr := s.Table(id)
		s.Outbox = nil
		s.order(id, Order{Close: &CloseTableOrder{}})
		tr.Closing = true
		close := s.Outbox[0].Orders
		tr.Unacked = append(tr.Unacked, close...)
		s.Signalled(id, close)
		s.Outbox = nil
		if got := tr.Drops(); got != (pace >= PaceClosed) {
			t.Fatalf("pace %d: the orders to a table whose Close went dropped: %v", pace, got)
		}
		// The table asked to continue as new before it had the Close; the ask comes after.
		st := s.TableInput(id)
		ev := TableEvent{Continuing: true}
		if !st.Event(&ev, st.Acked, simStart) {
			t.Fatal("the ask is no news")
		}
		s.OnEvent(ev)
		if got := s.TellContinue(id); got != (pace < PaceClosed) {
			t.Errorf("pace %d: Order.Continue queued for a table whose Close went: %v", pace, got)
		}
		s.Resend() // a new run of the section
		if pace >= PaceClosed && !tr.Drops() {
			t.Errorf("pace %d: the Close sent again goes to the table as it ends", pace)
		}
		tr.Lost = true // the Close's signal failed every attempt
		if tr.Drops() {
			t.Errorf("pace %d: a lost Close is not sent again", pace)
		}
	}

	// Asked before the Close: the Close goes with the Order.Continue, and is the last order.
	s, err := NewTournamentState("t", simSpec(18), 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	s.Pace = PaceClosed
	id := s.Tables[1].ID
	tr := s.Table(id)
	st := s.TableInput(id)
	ev := TableEvent{Continuing: true}
	if !st.Event(&ev, st.Acked, simStart) {
		t.Fatal("the ask is no news")
	}
	s.OnEvent(ev)
	s.order(id, Order{Close: &CloseTableOrder{}})
	tr.Closing = true
	if tr.Drops() || !s.TellContinue(id) {
		t.Fatal("a table that asked before its Close is not told to continue with it")
	}
	var orders []Order
	for _, b := range s.Outbox {
		if b.Table == id {
			orders = append(orders, b.Orders...)
		}
	}
	s.Signalled(id, orders)
	if !slices.ContainsFunc(orders, func(o Order) bool { return o.Close != nil }) || orders[len(orders)-1].Continue == nil || !tr.Drops() {
		t.Errorf("orders %+v: want the Close and the Order.Continue in one signal, then nothing", orders)
	}
}

// TestQuietEndGoesAfterTheClose: a run due to continue as new asks a closing table, whose Close
// is queued and not yet signalled, to keep quiet: the Close and the Order.Quiet go in one
// signal, the table answers and closes keeping its news. From PaceQuietClosing the next run's
// end of the quiet goes to it all the same (AfterClose), and nothing after it: the table tells
// its close then, and ends (the workflows' TestTableClosedWhileQuietTellsItsClose). Before, it
// was dropped with every order after the Close, and the run waited for the close closeWait.
func TestQuietEndGoesAfterTheClose(t *testing.T) {
	for _, pace := range []int{PaceQuietClosing, PaceQuietClosing - 1} {
		s, err := NewTournamentState("t", simSpec(18), 1, simStart)
		if err != nil {
			t.Fatal(err)
		}
		s.Pace = pace
		a := s.Tables[0].ID
		in := s.TableInput(a)
		st := &in
		ev := TableEvent{Resumed: true}
		st.Event(&ev, st.Acked, simStart)
		ev.CanQuiet = true
		s.OnEvent(ev)
		for i := range s.Tables[1:] {
			s.Tables[1+i].Closed = true
		}
		s.Outbox = nil
		s.order(a, Order{Close: &CloseTableOrder{}})
		s.Table(a).Closing = true
		if !s.QuietAsk(a) {
			t.Fatalf("pace %d: the closing table not asked to keep quiet", pace)
		}
		var orders []Order
		for _, b := range s.Outbox {
			orders = append(orders, b.Orders...)
		}
		s.Outbox = nil
		s.Signalled(a, orders)
		st.NoteQuiet(orders)
		st.AddOrders(orders)
		answer := TableEvent{}
		st.ApplyOrders(&answer)
		if !st.Event(&answer, 0, simStart) || answer.Quiet == 0 || !st.Silent() {
			t.Fatalf("pace %d: the answer %+v, silent %v", pace, answer, st.Silent())
		}
		answer.CanQuiet = true
		s.OnEvent(answer)
		if !s.TablesQuiet() || !s.Table(a).Drops() {
			t.Fatalf("pace %d: quiet %v, orders dropped %v; expected both once the closing table answered", pace, s.TablesQuiet(), s.Table(a).Drops())
		}

		// The next run: the orders unacknowledged go again, and the end of the quiet.
		s.Resend()
		s.EndQuiet()
		var queued []Order
		for _, b := range s.Outbox {
			queued = append(queued, b.Orders...)
		}
		goes := s.AfterClose(a, queued)
		if pace < PaceQuietClosing {
			if len(goes) > 0 {
				t.Errorf("pace %d: %+v go after the Close", pace, goes)
			}
			continue
		}
		if len(goes) != 1 || goes[0].Quiet == nil || *goes[0].Quiet || goes[0].Seq <= answer.Quiet {
			t.Fatalf("pace %d: %+v go after the Close of %+v, expected the end of the quiet alone", pace, goes, queued)
		}
		s.Signalled(a, goes)
		if later := s.AfterClose(a, queued); len(later) > 0 {
			t.Errorf("pace %d: %+v go again after the end of the quiet", pace, later)
		}
		st.NoteQuiet(goes)
		if st.Silent() {
			t.Error("the table keeps quiet after the end of it")
		}
	}
}

// TestTablesKeepQuietWhileTheRunContinues: a run due to continue as new asks each table that can
// to keep quiet (Order.Quiet, with the orders queued for it); the table answers with one event
// and keeps its news until an order past the Quiet comes; the run may continue as new only once
// every table has answered, and the next run ends each table's quiet. An order signalled after
// the Quiet (a handler's) ends it as well, and the table is asked again; a stale Quiet (an order
// past it seen already) and a repeat change nothing; a table that cannot keep quiet, and one
// whose Close went, are not asked.
func TestTablesKeepQuietWhileTheRunContinues(t *testing.T) {
	s, err := NewTournamentState("t", simSpec(18), 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	if s.Pace != PaceLatest || PaceLatest < PaceQuiet {
		t.Fatalf("pace %d, expected the latest (%d), which keeps quiet", s.Pace, PaceLatest)
	}
	a, b := s.Tables[0].ID, s.Tables[1].ID
	ia, ib := s.TableInput(a), s.TableInput(b)
	sta, stb := &ia, &ib
	tell := func(st *TableState, set func(ev *TableEvent)) TableEvent {
		t.Helper()
		var ev TableEvent
		set(&ev)
		if !st.Event(&ev, st.Acked, simStart) {
			t.Fatal("the event is no news")
		}
		ev.CanQuiet = st != stb // as the workflow says on every event
		s.OnEvent(ev)
		return ev
	}
	// deliver hands table st the orders queued for it, as the workflow's signal does.
	deliver := func(st *TableState, id floor.TableID) []Order {
		t.Helper()
		var orders []Order
		s.Outbox = slices.DeleteFunc(s.Outbox, func(b TableOrders) bool {
			if b.Table == id {
				orders = append(orders, b.Orders...)
			}
			return b.Table == id
		})
		s.Signalled(id, orders)
		st.NoteQuiet(orders)
		st.AddOrders(orders)
		return orders
	}
	tell(sta, func(ev *TableEvent) { ev.Resumed = true })
	if s.TablesQuiet() {
		t.Fatal("quiet before any table was asked")
	}
	tell(stb, func(ev *TableEvent) { ev.Resumed = true }) // a run that cannot keep quiet
	if s.QuietAsk(b) {
		t.Error("a table whose run cannot keep quiet was asked")
	}
	for i := range s.Tables[2:] {
		s.Tables[2+i].Closed = true
	}

	if !s.QuietAsk(a) || s.QuietAsk(a) {
		t.Fatal("Order.Quiet queued not once")
	}
	orders := deliver(sta, a)
	if q := orders[len(orders)-1]; q.Quiet == nil || !*q.Quiet || q.Seq != s.Table(a).QuietSeq {
		t.Fatalf("the last order signalled is %+v, expected Order.Quiet %d", q, s.Table(a).QuietSeq)
	}
	if sta.Silent() || !sta.QuietOwed {
		t.Fatal("the table keeps quiet before it has answered")
	}
	if s.TablesQuiet() {
		t.Fatal("quiet before the table answered")
	}
	ans := tell(sta, func(*TableEvent) {})
	if ans.Quiet != s.Table(a).QuietSeq || !sta.Silent() || !s.Table(a).Quiet {
		t.Fatalf("the answer says %d (expected %d), silent %v, the run heard %v", ans.Quiet, s.Table(a).QuietSeq, sta.Silent(), s.Table(a).Quiet)
	}
	if !s.TablesQuiet() {
		t.Fatal("not quiet with every table quiet, closed, or unable to")
	}
	var ev TableEvent
	if !sta.Event(&ev, sta.Acked, simStart) && ev.Quiet != 0 {
		t.Error("the answer went twice")
	}

	// A repeat of the Quiet and a stale one change nothing.
	sta.NoteQuiet(orders)
	if !sta.Silent() || sta.QuietOwed {
		t.Error("a repeated Order.Quiet changed the table's quiet")
	}

	// An order a handler makes the run send ends the quiet at both ends; the table is asked again.
	s.order(a, Order{Batch: new(int)})
	deliver(sta, a)
	if sta.Silent() || s.Table(a).QuietSeq != 0 || s.TablesQuiet() {
		t.Fatalf("after a later order: table silent %v, run's quiet %d, tables quiet %v", sta.Silent(), s.Table(a).QuietSeq, s.TablesQuiet())
	}
	stale := Order{Seq: s.Table(a).Sent - 1, Quiet: new(bool)}
	*stale.Quiet = true
	sta.NoteQuiet([]Order{stale})
	if sta.Silent() || sta.QuietOwed {
		t.Error("a stale Order.Quiet (an order past it was seen) started a quiet")
	}
	if !s.QuietAsk(a) {
		t.Fatal("the table not asked again")
	}
	deliver(sta, a)
	tell(sta, func(*TableEvent) {})
	if !sta.Silent() || !s.TablesQuiet() {
		t.Fatal("not quiet after the second answer")
	}

	// The next run ends it: an order past the Quiet.
	s.Resend()
	s.EndQuiet()
	deliver(sta, a)
	if sta.Silent() || s.Table(a).QuietSeq != 0 {
		t.Errorf("after the next run's orders: table silent %v, run's quiet %d", sta.Silent(), s.Table(a).QuietSeq)
	}

	// A table whose Close went is not asked.
	s.order(a, Order{Close: &CloseTableOrder{}})
	deliver(sta, a)
	if s.QuietAsk(a) {
		t.Error("a table whose Close went was asked to keep quiet")
	}
}

// TestMergeOutboxOneBatchATable: MergeOutbox gathers each table's queued orders into one batch, by
// their numbers, each once (a resend of orders also still queued), tables in their first order.
func TestMergeOutboxOneBatchATable(t *testing.T) {
	hold, release := true, false
	out := []TableOrders{
		{Table: 3, Orders: []Order{{Seq: 7, Hold: &hold}}},
		{Table: 1, Orders: []Order{{Seq: 2, Hold: &hold}}},
		{Table: 3, Orders: []Order{{Seq: 5, Hold: &release}, {Seq: 6, Hold: &hold}, {Seq: 7, Hold: &hold}}},
		{Table: 1, Orders: []Order{{Seq: 3, Hold: &release}}},
	}
	got := MergeOutbox(out)
	var seqs [][]int
	var tables []floor.TableID
	for _, b := range got {
		tables = append(tables, b.Table)
		var s []int
		for _, o := range b.Orders {
			s = append(s, o.Seq)
		}
		seqs = append(seqs, s)
	}
	if !slices.Equal(tables, []floor.TableID{3, 1}) || len(seqs) != 2 || !slices.Equal(seqs[0], []int{5, 6, 7}) || !slices.Equal(seqs[1], []int{2, 3}) {
		t.Errorf("merged: tables %v, orders %v; want tables [3 1], orders [[5 6 7] [2 3]]", tables, seqs)
	}
	if len(out) != 4 || out[0].Table != 3 || len(out[0].Orders) != 1 {
		t.Errorf("the queue given was changed: %+v", out)
	}
	if MergeOutbox(nil) != nil {
		t.Error("an empty queue merged into something")
	}
}

// TestOrdersGoInTheReply: from PaceOrdersInReply the orders queued for a table go back as the
// answer to its events (Reply): noted sent and unacknowledged, as a signal's, and sent again by a
// run that continues as new before the table applied them; orders of a handshake (Order.Continue,
// Order.Quiet, a Close) and orders held for the table's continue-as-new stay for a signal; and a
// run recorded before the pace takes none.
func TestOrdersGoInTheReply(t *testing.T) {
	s, err := NewTournamentState("t", simSpec(18), 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	id := s.Tables[0].ID
	tr := s.Table(id)
	tr.Started = true
	s.Outbox = nil
	credit := int64(5)
	s.order(id, Order{Credit: &credit})
	s.order(s.Tables[1].ID, Order{Credit: &credit}) // another table's: it stays
	s.Pace = PaceCommandSignals
	if got := s.Reply(id); got != nil || len(s.Outbox) != 2 {
		t.Fatalf("before PaceOrdersInReply: reply %+v, %d batches left; expected none taken", got, len(s.Outbox))
	}
	s.Pace = PaceOrdersInReply
	got := s.Reply(id)
	if len(got) != 1 || got[0].Credit == nil || *got[0].Credit != credit {
		t.Fatalf("reply %+v; expected the credit order", got)
	}
	if len(s.Outbox) != 1 || s.Outbox[0].Table == id || !slices.Equal(tr.Unacked, got) {
		t.Fatalf("after the reply: outbox %+v, unacked %+v; expected the other table's batch, and the reply unacknowledged", s.Outbox, tr.Unacked)
	}
	// The table's next events, before it applied the credit: nothing new, the credit again (an
	// answer that never reached the table is not lost).
	if again := s.Reply(id); !slices.Equal(again, got) {
		t.Fatalf("a second reply with nothing new queued: %+v; expected the unacknowledged credit again", again)
	}
	if !slices.Equal(tr.Unacked, got) {
		t.Fatalf("unacked %+v after an answer that repeats; expected the credit once", tr.Unacked)
	}
	s.Resend() // the run continues as new before the table applied it
	if i := slices.IndexFunc(s.Outbox, func(b TableOrders) bool { return b.Table == id }); i < 0 || !slices.Equal(s.Outbox[i].Orders, got) {
		t.Fatalf("outbox %+v after a continue-as-new: the reply is not sent again", s.Outbox)
	}
	s.Outbox, tr.Unacked = nil, nil

	// Orders of a handshake go by signal (its delivery is waited for), the orders with them too,
	// and are not repeated in an answer.
	for _, o := range []Order{{Close: &CloseTableOrder{}}, {Quiet: new(bool)}, {Continue: new(bool)}} {
		s.Outbox = nil
		s.order(id, Order{Credit: &credit})
		s.order(id, o)
		if got := s.Reply(id); got != nil {
			t.Errorf("reply %+v with %+v queued; expected it left for a signal", got, o)
		}
		tr.Unacked = s.Outbox[0].Orders // signalled, not yet acknowledged
		s.Outbox = nil
		if got := s.Reply(id); len(got) != 1 || got[0].Credit == nil {
			t.Errorf("reply %+v with %+v unacknowledged; expected the credit alone again", got, o)
		}
		tr.Unacked = nil
	}
	// A table that asked to continue as new: its orders are held.
	s.Outbox = nil
	s.order(id, Order{Credit: &credit})
	tr.Continue = ContinueAsked
	if got := s.Reply(id); got != nil || len(s.Outbox) != 1 {
		t.Errorf("reply %+v to a table continuing as new; expected its orders held", got)
	}
	tr.Continue = ContinueNone
	// A table whose Close went takes nothing more.
	tr.CloseSent = true
	if got := s.Reply(id); got != nil {
		t.Errorf("reply %+v to a table whose Close went", got)
	}
}

// TestShrinkRidesOnTheAnswer: when the approach closes the credit window in, a table that takes
// its orders in the answer to its events (TableRecord.Replies) is not signalled its shrink: it
// goes with the answer to its next events (PaceLazyShrink), those of the table being answered
// (Answering) at once; near the rounds every table is shrunk at once, as a table that does not
// take answers always is, and as every table was before the pace.
func TestShrinkRidesOnTheAnswer(t *testing.T) {
	shrinks := func(s *TournamentState) map[floor.TableID]int64 {
		return sentOf(s, func(o Order) *int64 { return o.Credit })
	}
	approach := func(pace int) *TournamentState {
		s := approachOf(t, pace, func(tr *TableRecord) { tr.Started, tr.Replies, tr.Hand, tr.Credit = true, true, 40, 100 })
		s.Tables[4].Replies = false // a table recorded before the answers: signalled
		return s
	}
	s := approach(PaceLatest)
	s.grantCredit()
	if got := shrinks(s); len(got) != 1 || got[s.Tables[4].ID] != 41 {
		t.Fatalf("the approach begins: shrinks %v; expected table %d's alone (it takes no answers), to hand 41", got, s.Tables[4].ID)
	}
	s.grantCredit()
	if got := shrinks(s); len(got) != 0 {
		t.Fatalf("shrinks %v at the next step; expected none before the tables' events", got)
	}
	answer(s, s.Tables[1].ID)
	if got := shrinks(s); len(got) != 1 || got[s.Tables[1].ID] != 41 || !s.Tables[1].Slide {
		t.Fatalf("table %d's events answered: shrinks %v, slide %v; expected its shrink to hand 41 with its credit sliding", s.Tables[1].ID, got, s.Tables[1].Slide)
	}
	s.HandForHand.Near = true
	s.grantCredit()
	if got := shrinks(s); len(got) != 3 {
		t.Fatalf("near the rounds: shrinks %v; expected the three tables not shrunk yet", got)
	}
	s = approach(PaceLazyShrink - 1)
	s.grantCredit()
	if got := shrinks(s); len(got) != len(s.Tables) {
		t.Fatalf("before PaceLazyShrink: shrinks %v; expected every table's at once", got)
	}
}
