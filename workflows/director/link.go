package director

import (
	"fmt"
	"slices"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Numbered is one message on a Link, with its sequence number.
type Numbered[T any] struct {
	Seq int `json:"seq"`
	Msg T   `json:"msg"`
}

// Link is ordered, resent delivery from one workflow to one other, the sending side: it numbers
// the messages from 1, keeps each until the receiver acknowledges it, and hands out again what
// was never acknowledged when a run that continued this one asks (Resend): the receiver (an
// Inbox) takes each once and in order, whatever the repeats and the order of arrival.
type Link[T any] struct {
	Sent  int `json:"sent"`
	Acked int `json:"acked"`
	// Unacked are the messages sent and not yet acknowledged, in order; the last Queued of them
	// have not been handed out (Take) yet.
	Unacked []Numbered[T] `json:"unacked,omitempty"`
	Queued  int           `json:"queued,omitempty"`
}

// Send numbers m and queues it; it returns its sequence number.
func (l *Link[T]) Send(m T) int {
	l.Sent++
	l.Unacked = append(l.Unacked, Numbered[T]{Seq: l.Sent, Msg: m})
	l.Queued++
	return l.Sent
}

// Take returns the messages queued since the last Take, for the caller to signal.
func (l *Link[T]) Take() []Numbered[T] {
	if l.Queued == 0 {
		return nil
	}
	out := slices.Clone(l.Unacked[len(l.Unacked)-l.Queued:])
	l.Queued = 0
	return out
}

// Ack notes that the receiver has applied every message up to seq.
func (l *Link[T]) Ack(seq int) {
	if seq <= l.Acked {
		return
	}
	l.Acked = min(seq, l.Sent)
	k := 0
	for k < len(l.Unacked) && l.Unacked[k].Seq <= l.Acked {
		k++
	}
	l.Unacked = slices.Delete(l.Unacked, 0, k)
	l.Queued = min(l.Queued, len(l.Unacked))
	if len(l.Unacked) == 0 {
		l.Unacked = nil
	}
}

// Resend queues again every message not acknowledged: a run that continued as new does not know
// whether they arrived.
func (l *Link[T]) Resend() { l.Queued = len(l.Unacked) }

// LastQueued is the last message sent and not yet taken, to add to (nil when none is queued).
func (l *Link[T]) LastQueued() *T {
	if l.Queued == 0 || len(l.Unacked) == 0 {
		return nil
	}
	return &l.Unacked[len(l.Unacked)-1].Msg
}

// Pending reports whether a message is not yet acknowledged.
func (l *Link[T]) Pending() bool { return l.Acked < l.Sent }

// Inbox is the receiving side of a Link: it takes messages in whatever order they arrive, drops
// repeats, and gives them out once each, in sequence.
type Inbox[T any] struct {
	// Last is the sequence number of the last message given out; Early holds those that came
	// before their turn.
	Last  int           `json:"last"`
	Early []Numbered[T] `json:"early,omitempty"`
}

// Add takes msgs in and returns, in order, the messages that are now next in sequence.
func (in *Inbox[T]) Add(msgs ...Numbered[T]) []T {
	for _, m := range msgs {
		if m.Seq <= in.Last || slices.ContainsFunc(in.Early, func(e Numbered[T]) bool { return e.Seq == m.Seq }) {
			continue
		}
		in.Early = append(in.Early, m)
	}
	slices.SortFunc(in.Early, func(a, b Numbered[T]) int { return a.Seq - b.Seq })
	var out []T
	k := 0
	for k < len(in.Early) && in.Early[k].Seq == in.Last+1 {
		out = append(out, in.Early[k].Msg)
		in.Last++
		k++
	}
	in.Early = slices.Delete(in.Early, 0, k)
	if len(in.Early) == 0 {
		in.Early = nil
	}
	return out
}

// ContinueStep is where a table is in its continue-as-new handshake with its section (or its
// tournament of one section). The server refuses to continue a run as new while a signal came
// in during the task that does it (UnhandledCommand: the next task takes the signal and tries
// again), and the section's order signals come in whenever they are sent: at 10,000 entries
// every refused continue-as-new was a table's, for an order that came in. So a table due to
// continue as new asks (TableEvent.Continuing); its section, once none of its order signals to
// the table is on its way, sends it one more, Order.Continue, and holds every later order; the
// table continues as new once it has every order up to that one, and its next run says it is up
// (TableEvent.Resumed), which lets the held orders go. A table's first run says so too: its
// section's orders go from then on.
type ContinueStep int

const (
	ContinueNone  ContinueStep = iota
	ContinueAsked              // the table asked: Order.Continue goes once no order signal to it is on its way
	ContinueTold               // Order.Continue went (ContinueSeq): nothing more until the table's next run is up
)

// continueStep takes the table's part of the handshake from its event, in the table's order.
func (tr *TableRecord) continueStep(ev TableEvent) {
	tr.Started = true // its news says it is up (a section's StartTables ends after many tables)
	switch {
	case ev.Resumed:
		tr.Continue, tr.ContinueSeq, tr.OnlyLost = ContinueNone, 0, false
	case ev.Continuing && tr.Continue == ContinueNone:
		tr.Continue = ContinueAsked
	}
	tr.CanQuiet = ev.CanQuiet
	if ev.Quiet > 0 && ev.Quiet == tr.QuietSeq {
		tr.Quiet = true
	}
}

// TellContinue queues Order.Continue for table id, which asked to continue as new, and holds
// every later order until its next run is up: the caller sends it once no order signal to the
// table is on its way. It reports whether it queued one.
func (s *TournamentState) TellContinue(id floor.TableID) bool {
	tr := s.Table(id)
	if tr == nil || tr.Closed || tr.Continue != ContinueAsked || tr.CloseSent {
		return false // a table whose Close went ends with it: it does not continue as new
	}
	yes := true
	s.order(id, Order{Continue: &yes})
	tr.Continue, tr.ContinueSeq = ContinueTold, tr.Sent
	tr.OnlyLost = s.Pace >= PaceLost
	return true
}

// HoldsOrder reports whether order o to table tr waits (the handshake above): while the table
// has asked, every order waits to go with its Order.Continue (TellContinue, which the caller
// sends at once); once that went, every later order waits for the table's next run, and so does
// every order sent again (the table has it: nothing may come in while it continues as new),
// unless the table says it misses one and, from PaceLost, a signal of orders to it failed: the
// Order.Continue went once no signal to the table was on its way, so every order before it
// arrived unless its signal failed, and a Gap the table told before it had them all is stale
// (a resend for it came in while the table continued as new).
func (tr *TableRecord) HoldsOrder(o Order) bool {
	switch tr.Continue {
	case ContinueAsked:
		return true
	case ContinueTold:
		return o.Seq > tr.ContinueSeq || tr.Gap == 0 || tr.OnlyLost && !tr.Lost
	}
	return false
}

// Signalled notes the orders the caller signals to table id. From PaceClosed, once they carry the
// table's Close nothing more goes to it (Drops).
// An order past the table's Order.Quiet ends its quiet (QuietSeq).
func (s *TournamentState) Signalled(id floor.TableID, orders []Order) {
	tr := s.Table(id)
	if tr == nil {
		return
	}
	if tr.QuietSeq > 0 && slices.ContainsFunc(orders, func(o Order) bool { return o.Seq > tr.QuietSeq }) {
		tr.QuietSeq, tr.Quiet = 0, false
	}
	if s.Pace < PaceClosed || !slices.ContainsFunc(orders, func(o Order) bool { return o.Close != nil }) {
		return
	}
	tr.CloseSent = true
}

// Drops reports whether the orders queued for tr go nowhere: its Close was signalled
// (Signalled), so it applies no order after it, and it ends its run once it has it. As when it
// continues as new, the server refuses the end of a run while a signal came in during that task
// (UnhandledCommand): an order sent again after the Close (a section's new run sends its
// unacknowledged orders again, Resend) or the Order.Continue of an ask that crossed the Close
// came in as the table completed. Unless the signal that carried the Close failed (Lost): then
// the orders go again, the Close among them.
func (tr *TableRecord) Drops() bool {
	return tr.CloseSent && !tr.Lost
}

// Quiet: a run continues as new by the server's leave only when no event comes in during the
// task that does it (UnhandledCommand otherwise: the next task takes the event and tries again),
// and a section's tables send their events whenever they have news: at 100,000 entries every
// refused continue-as-new left was a section's, for a table's event that came in. So from
// PaceQuiet a run due to continue as new first asks each of its tables to keep quiet: once none
// of its order signals to the table is on its way, it sends one more, Order.Quiet, with every
// order queued for the table, and holds every later one; the table answers with one event
// (TableEvent.Quiet) and keeps its news from then on. Once every table has answered (or closed),
// the run continues as new, and the next run sends each table an order past its Quiet (Quiet
// false, with the orders held), which ends it: the table sends what it kept. A table in its own
// handshake is asked once its next run is up; a table whose Close went is waited for until it
// has closed; a table whose run cannot keep quiet (it says so on each event) is not asked.

// QuietAsk queues Order.Quiet for table id when the run should ask it (the caller signals it
// with every order queued for the table, once none of its signals to the table is on its way),
// and reports whether it did.
func (s *TournamentState) QuietAsk(id floor.TableID) bool {
	tr := s.Table(id)
	if s.Pace < PaceQuiet || tr == nil || !tr.CanQuiet || tr.Closed || tr.CloseSent || tr.QuietSeq > 0 || tr.Continue != ContinueNone {
		return false
	}
	yes := true
	s.order(id, Order{Quiet: &yes})
	tr.QuietSeq, tr.Quiet = tr.Sent, false
	return true
}

// TablesQuiet reports whether no table of the run can send it an event: each has closed, kept
// quiet (answered its Order.Quiet), or runs code that cannot (always true before PaceQuiet).
func (s *TournamentState) TablesQuiet() bool {
	if s.Pace < PaceQuiet {
		return true
	}
	for i := range s.Tables {
		tr := &s.Tables[i]
		switch {
		case tr.Closed:
		case tr.EventSeq > 0 && !tr.CanQuiet: // a run from before PaceQuiet: it cannot be asked
		case !tr.Quiet || tr.QuietSeq == 0:
			return false
		}
	}
	return true
}

// Unquiet describes the tables TablesQuiet waits for, for the log of a run that waited too long.
func (s *TournamentState) Unquiet() []string {
	var out []string
	for i := range s.Tables {
		tr := &s.Tables[i]
		if tr.Closed || tr.EventSeq > 0 && !tr.CanQuiet || tr.Quiet && tr.QuietSeq > 0 {
			continue
		}
		out = append(out, fmt.Sprintf("table %d: quiet asked %d, events %d, acked %d of %d, continue step %d, started %v, close sent %v, gap %d",
			tr.ID, tr.QuietSeq, tr.EventSeq, tr.Acked, tr.Sent, tr.Continue, tr.Started, tr.CloseSent, tr.Gap))
	}
	return out
}

// EndQuiet queues, for a run that continued one due, an order past each table's Order.Quiet
// (Quiet false), which ends the table's quiet: it sends what it kept.
func (s *TournamentState) EndQuiet() {
	no := false
	for i := range s.Tables {
		if tr := &s.Tables[i]; tr.QuietSeq > 0 && !tr.Closed {
			s.order(tr.ID, Order{Quiet: &no})
		}
	}
}

// NoteQuiet takes the section's Order.Quiet, and its end, from orders as they come in (before
// AddOrders): a Quiet past every order the table has seen starts it, any later order ends it;
// a repeat, or an order older than one seen (a stale Quiet among them), changes nothing.
func (t *TableState) NoteQuiet(orders []Order) {
	seen := t.Acked
	if n := len(t.Pending); n > 0 {
		seen = max(seen, t.Pending[n-1].Seq)
	}
	in := slices.SortedFunc(slices.Values(orders), func(a, b Order) int { return a.Seq - b.Seq })
	for _, o := range in {
		if o.Seq <= seen {
			continue
		}
		seen = o.Seq
		switch {
		case o.Quiet != nil && *o.Quiet:
			t.Quiet, t.QuietOwed = o.Seq, true
		case t.Quiet > 0:
			t.Quiet, t.QuietOwed = 0, false
		}
	}
}

// Silent reports whether the table keeps its events: its section asked it to keep quiet, and the
// answer went.
func (t *TableState) Silent() bool { return t.Quiet > 0 && !t.QuietOwed }
