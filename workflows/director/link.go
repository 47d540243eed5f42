package director

import (
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
func (s *TournamentState) Signalled(id floor.TableID, orders []Order) {
	tr := s.Table(id)
	if tr == nil || s.Pace < PaceClosed || !slices.ContainsFunc(orders, func(o Order) bool { return o.Close != nil }) {
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
