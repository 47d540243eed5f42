package director

import (
	"fmt"
	"slices"
	"time"

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

// TableStarted marks table id's workflow started, its start done: its orders may go. From
// PaceQuietStart the table's first run does not say it is up (TableState.QuietStart), and it
// keeps quiet when asked, as its first event would have said.
func (s *TournamentState) TableStarted(id floor.TableID) {
	tr := s.Table(id)
	if tr == nil {
		return
	}
	tr.Started = true
	if s.Pace >= PaceQuietStart && tr.EventSeq == 0 {
		tr.CanQuiet = true
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

// SplitHeld splits orders queued for tr into those that go now and those it holds (HoldsOrder),
// each in their order.
func (tr *TableRecord) SplitHeld(orders []Order) (now, later []Order) {
	for _, o := range orders {
		if tr.HoldsOrder(o) {
			later = append(later, o)
		} else {
			now = append(now, o)
		}
	}
	return now, later
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

// AfterClose returns, of the orders queued for table id whose Close went (Drops), those that go
// all the same: from PaceQuietClosing the end of a quiet it was asked for with its Close, or
// after it (a run due to continue as new sends the Close and Order.Quiet in one signal). The
// table closed keeping its news, its close among it, and waits for the next run's end of the
// quiet (EndQuiet) to tell it; before, it ended with its close untold and the run waited for it
// closeWait, a minute at the end of one run in three of 1,500 entries at x600. The table ends
// once it has told its close, and nothing goes to it after that order (Signalled ends QuietSeq).
func (s *TournamentState) AfterClose(id floor.TableID, orders []Order) []Order {
	tr := s.Table(id)
	if s.Pace < PaceQuietClosing || tr == nil || tr.QuietSeq == 0 {
		return nil
	}
	var out []Order
	for _, o := range orders {
		if o.Quiet != nil && !*o.Quiet && o.Seq > tr.QuietSeq {
			out = append(out, o)
		}
	}
	return out
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

// A section's quiet: the tournament's orders to a section are signals too, and one that came in
// during the task that continued the section as new had the server refuse it (UnhandledCommand;
// once the tables kept quiet, the last refusals at 100,000 entries). So from PaceSectionQuiet a
// section due to continue as new asks its tournament to hold its orders: its next report, sent
// once no report of its own is on its way and beside its tables' quiet, says so (Quiet), and
// every report names its run (SectionRole.Run). The tournament marks the section quiet (Heard),
// holds every later order to it (queued on its Link, as while a signal to it is on its way) and
// answers the report only once none of its order signals to the section is on its way; the
// section, answered, takes in every order that came and continues as new. Its next run's first
// report, whatever it carries, ends the quiet, and the held orders go. Neither side waits without
// end: the section gives its ask a bound (the workflows' QuietWait), past which it continues as
// new unanswered, as before; and the tournament holds a section's orders at most
// SectionQuietWait, then sends them whether or not the section's next run has said it is up (a
// section that is gone, or whose report is lost). A report from a run older than one heard from
// (an ask that came late) changes nothing. Before, a section asked its tournament for leave to
// continue and waited for it: at 100,000 entries the sections' continues-as-new starved.

// SectionQuietWait bounds how long the tournament holds a quiet section's orders: twice the two
// minutes a section gives its ask and then its tables (the workflows' QuietWait), so that a
// section that continues as new within its own bounds finds its orders held.
const SectionQuietWait = 4 * time.Minute

// HoldStep is where a section's run is in asking its tournament to hold its orders.
type HoldStep int

const (
	HoldNone       HoldStep = iota // not asked
	HoldAsked                      // the ask is on its way (a report that says Quiet)
	HoldGranted                    // the tournament holds the orders: the run may continue as new
	HoldUnanswered                 // the ask failed or ran out of time: the run continues as new without
)

// AskHold reports whether a section due to continue as new asks its tournament now to hold its
// orders (the report the caller sends now says so), and notes the ask: once a run, from
// PaceSectionQuiet, and not by a section that ends instead.
func (s *TournamentState) AskHold() bool {
	sec := s.Section
	if sec == nil || s.Pace < PaceSectionQuiet || s.Finished || sec.Hold != HoldNone {
		return false
	}
	sec.Hold = HoldAsked
	return true
}

// HoldAnswer notes the outcome of the ask: the tournament took it (granted: it holds the
// orders), or the report failed or ran out of time.
func (s *TournamentState) HoldAnswer(granted bool) {
	sec := s.Section
	if sec == nil || sec.Hold != HoldAsked {
		return
	}
	sec.Hold = HoldUnanswered
	if granted {
		sec.Hold = HoldGranted
	}
}

// HoldDone reports whether, as far as its tournament's orders go, the run may continue as new:
// the ask was answered either way (or the run is from before PaceSectionQuiet, or no section).
func (s *TournamentState) HoldDone() bool {
	sec := s.Section
	return sec == nil || s.Pace < PaceSectionQuiet || sec.Hold == HoldGranted || sec.Hold == HoldUnanswered
}

// ReportRun is the run the section's reports name: 0 before PaceSectionQuiet, which the
// tournament takes as a section that never asks.
func (s *TournamentState) ReportRun() int {
	if s.Section == nil || s.Pace < PaceSectionQuiet {
		return 0
	}
	return s.Section.Run
}

// Heard takes the run a report of section n names and whether it asks for its orders to be held
// (quiet), at now, and reports whether the section is quiet for that ask: the caller answers the
// report only once none of its order signals to the section is on its way. A report from a later
// run than the quiet one ends the quiet; one from an earlier run than the latest heard, or an ask
// whose quiet ran out (EndLateQuiets), changes nothing.
func (t *TopState) Heard(n, run int, quiet bool, now time.Time) bool {
	r := t.Section(n)
	if r == nil || run == 0 || run < r.Run {
		return false
	}
	r.Run = run
	if r.Quiet && run > r.QuietRun {
		r.Quiet, r.QuietSince = false, time.Time{}
	}
	if !quiet || r.Phase == SectionClosed {
		return false
	}
	if r.QuietRun != run {
		r.QuietRun, r.Quiet, r.QuietSince = run, true, now
	}
	return r.Quiet
}

// Holds reports whether the orders to section r wait, queued: it is quiet as it continues as new.
func (r *SectionRecord) Holds() bool { return r.Quiet && r.Phase != SectionClosed }

// QuietEnds is when the quiet that began first ends (SectionQuietWait after it began); zero when
// no section is quiet.
func (t *TopState) QuietEnds() time.Time {
	var first time.Time
	for _, r := range t.Sections {
		if r.Holds() && (first.IsZero() || r.QuietSince.Before(first)) {
			first = r.QuietSince
		}
	}
	if first.IsZero() {
		return first
	}
	return first.Add(SectionQuietWait)
}

// EndLateQuiets ends every quiet that has lasted SectionQuietWait at now, and returns those
// sections, for the log: their orders go whether or not their next run has said it is up.
func (t *TopState) EndLateQuiets(now time.Time) []int {
	var late []int
	for i := range t.Sections {
		if r := &t.Sections[i]; r.Holds() && !now.Before(r.QuietSince.Add(SectionQuietWait)) {
			r.Quiet, r.QuietSince = false, time.Time{}
			late = append(late, r.Number)
		}
	}
	return late
}

// EndQuiets ends every section's quiet, and reports whether one was: a tournament that ends
// (cancelled, or done waiting for its sections to close) sends its sections their Close before
// its run ends, whatever they are doing.
func (t *TopState) EndQuiets() bool {
	ended := false
	for i := range t.Sections {
		if r := &t.Sections[i]; r.Holds() {
			r.Quiet, r.QuietSince, ended = false, time.Time{}, true
		}
	}
	return ended
}

// Reply takes the orders queued for table id that may go to it now as the answer to the Update
// that carried its events (from PaceOrdersInReply; the caller has made sure that no signal of
// orders to it is on its way and that the run is not holding its orders to continue as new):
// they are noted sent, as a signal's are (Unacked, Signalled), and a run that continues as new
// before the table has applied them sends them again (Resend). Orders that take part in a
// handshake (Order.Continue, Order.Quiet and the end of a quiet, Order.Close) go only by signal,
// whose delivery the run waits for: with one of them queued, nothing new is taken. The answer
// also carries again the orders sent and not yet acknowledged but those of a handshake (the
// table applies each once): an answer that never reached the table (its activity gave up after
// the section had taken the events, which the table then sends again in another batch) is not
// lost until the run continues as new.
func (s *TournamentState) Reply(id floor.TableID) []Order {
	tr := s.Table(id)
	if s.Pace < PaceOrdersInReply || tr == nil || !tr.Started || tr.Drops() {
		return nil
	}
	var again []Order
	for _, o := range tr.Unacked {
		if !handshakeOrder(o) && !tr.HoldsOrder(o) {
			again = append(again, o)
		}
	}
	s.Outbox = MergeOutbox(s.Outbox)
	i := slices.IndexFunc(s.Outbox, func(b TableOrders) bool { return b.Table == id })
	if i < 0 || slices.ContainsFunc(s.Outbox[i].Orders, handshakeOrder) {
		return again
	}
	now, later := tr.SplitHeld(s.Outbox[i].Orders)
	if len(later) > 0 {
		s.Outbox[i].Orders = later
	} else {
		s.Outbox = slices.Delete(s.Outbox, i, i+1)
	}
	if len(now) == 0 {
		return again
	}
	tr.Unacked = append(tr.Unacked, now...)
	tr.Lost = false
	s.Signalled(id, now)
	return append(again, now...)
}

// handshakeOrder: o takes part in a handshake between a run and its table (link.go), and goes
// only by signal.
func handshakeOrder(o Order) bool { return o.Continue != nil || o.Quiet != nil || o.Close != nil }
