package workflows

import (
	"cmp"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TournamentInput is the TournamentWorkflow's input: the spec of a new tournament, or the state a
// run handed on when it continued as new.
type TournamentInput struct {
	Spec  TournamentSpec            `json:"spec"`
	State *director.TournamentState `json:"state,omitempty"`
	// Top is the state of a tournament of sections (a field larger than one section's tables).
	Top *director.TopState `json:"top,omitempty"`
	// Section is what a section's first run starts from (State the runs after).
	Section *director.SectionStart `json:"section,omitempty"`
}

// traceEvents, when set (in tests), sees every table event the tournament applies.
var traceEvents func(ev director.TableEvent)

// closeWait is how long the end waits for the tables to confirm they closed.
const closeWait = time.Minute

// TournamentWorkflow is the tournament director: it draws the seats and buttons (T2, T3), opens a
// TableWorkflow and a table process per table, keeps the blind clock (B3, R2: pause, resume, add
// time, breaks), breaks and balances tables after eliminations (R3, R4), plays hand-for-hand on the
// bubble (R7), places the eliminated (R5, R7), applies sanctions (P1-P6), takes late entries,
// re-entries and rebuys (R1), records a deal, and pays the places (R6). Every decision is a
// floor function over TournamentState; this function only sequences them and does the I/O, so it
// replays deterministically. It continues as new when the history grows long, after its handlers
// have finished and everything it sent has gone, carrying the whole state.
func TournamentWorkflow(ctx workflow.Context, in TournamentInput) (TournamentResult, error) {
	if in.Top != nil || in.State == nil && in.Spec.Sectioned() {
		return topWorkflow(ctx, in)
	}
	s := in.State
	if s == nil {
		seed, err := drawSeed(ctx, in.Spec)
		if err != nil {
			return TournamentResult{}, err
		}
		s, err = director.NewTournamentState(workflow.GetInfo(ctx).WorkflowExecution.ID, in.Spec, seed, workflow.Now(ctx))
		if err != nil {
			return TournamentResult{}, temporal.NewNonRetryableApplicationError(err.Error(), "InvalidSpec", err)
		}
		s.Tick(workflow.Now(ctx))
	}
	if err := runFloor(ctx, s, in.State != nil); err != nil {
		return TournamentResult{}, err
	}
	return s.Result()
}

// drawSeed is the spec's seed, or one drawn from crypto/rand once and recorded in the history
// (T2, T3: every draw is keyed by it).
func drawSeed(ctx workflow.Context, spec TournamentSpec) (uint64, error) {
	seed := spec.Seed
	if seed != 0 {
		return seed, nil
	}
	enc := workflow.SideEffect(ctx, func(workflow.Context) any {
		var b [8]byte
		_, _ = rand.Read(b[:])
		return binary.LittleEndian.Uint64(b[:])
	})
	err := enc.Get(&seed)
	return seed, err
}

// SectionWorkflow is one section of a large tournament: the director of its tables (balancing and
// breaking them, R3, R4; their clock, pauses and hand-for-hand rounds as the tournament orders),
// which tells the tournament its counts and eliminations and sends players on to other sections.
// It continues as new like the tournament, carrying its TournamentState (its tables and players
// only), and ends when the tournament closes it.
func SectionWorkflow(ctx workflow.Context, in TournamentInput) error {
	if in.State == nil && in.Section != nil {
		s, err := in.Section.State(workflow.Now(ctx))
		if err != nil {
			return temporal.NewNonRetryableApplicationError(err.Error(), "InvalidSection", err)
		}
		return runFloor(ctx, s, false)
	}
	if in.State == nil || in.State.Section == nil {
		return temporal.NewNonRetryableApplicationError("a section starts from its tables or its state", "InvalidSection", nil)
	}
	in.State.ResumeSection()
	return runFloor(ctx, in.State, true)
}

// runFloor runs a tournament's (or a section's) floor to its end: the tables' news in, the
// floor's steps, the orders out. resumed says the state comes from a run that continued as new.
func runFloor(ctx workflow.Context, s *director.TournamentState, resumed bool) error {
	if resumed {
		s.Resend()
		s.EndQuiet()
	} else {
		// A simulation's pacing near the bubble (director.PaceSlide), the orders resent for a
		// table's gap (director.PaceResend) and the tables hosted as they start
		// (director.PaceHostEarly), the resends held for a table continuing as new unless a signal
		// failed (director.PaceLost), the rebuys not yet answered told up (director.PaceRebuys),
		// an emptied section's entries handed on (director.PaceHandOn), nothing sent to a table
		// after its Close (director.PaceClosed), the hosts' calls in batches (director.PaceHostBatch),
		// a section's news sent up as an Update (director.PaceReportUpdate), a held table's
		// hand-for-hand round skipped (director.PaceHeldSkip), the tables kept quiet while the run
		// continues as new (director.PaceQuiet), one order signal at a time on its way to a table
		// (director.PaceOneSignal), at most signalsInFlight of them at once (director.PaceSignalCap);
		// a run recorded before them replays without them.
		s.Pace = int(workflow.GetVersion(ctx, "pace", workflow.DefaultVersion, director.PaceLatest))
	}
	s.Trace = traceEvents
	w := &tournamentWorkflow{s: s, wait: newWaiter(ctx)}
	if err := w.register(ctx); err != nil {
		return err
	}
	// Events are taken from the channel only by ReceiveAsync (see TableWorkflow).
	w.events = tableNews{one: workflow.GetSignalChannel(ctx, TableEventSignal), batches: workflow.GetSignalChannel(ctx, TableEventsSignal)}
	// From a table's marker eventUpdates its events come as Updates (ReportTableEvents), taken
	// in here and processed with the signals' at the run's next step; from
	// director.PaceOrdersInReply, for a table that takes them so, processed here, and the orders
	// that may go to the table now are the answer (reply).
	if err := workflow.SetUpdateHandler(ctx, TableEventsUpdate, func(ctx workflow.Context, batch []director.TableEvent) ([]director.Order, error) {
		w.inbox = append(w.inbox, batch...)
		if len(batch) == 0 || !batch[len(batch)-1].Replies || w.s.Pace < director.PaceOrdersInReply {
			return nil, nil
		}
		return w.reply(ctx, batch[0].Table), nil
	}); err != nil {
		return err
	}
	if s.Section != nil {
		w.orders = workflow.GetSignalChannel(ctx, SectionOrdersSignal)
	}
	for {
		w.send(ctx)
		if s.Finished {
			break
		}
		if w.continueAsNewDue(ctx) && w.quiet(ctx) {
			// Nothing yields between the last look at the channel and the end of the run. Orders
			// still on their way are sent again by the next run (the tables apply each once).
			w.process(ctx)
			if !s.Finished {
				w.clock.stop()
				if s.Section != nil {
					return workflow.NewContinueAsNewError(ctx, SectionWorkflow, TournamentInput{State: s})
				}
				return workflow.NewContinueAsNewError(ctx, TournamentWorkflow, TournamentInput{Spec: s.Spec, State: s})
			}
			continue
		}
		w.armClock(ctx)
		w.wake = false
		err := workflow.Await(ctx, func() bool {
			return w.events.Len() > 0 || w.orders != nil && w.orders.Len() > 0 || len(w.inbox) > 0 || w.wake || w.clockFired() ||
				w.continueAsNewDue(ctx) && (w.quiet(ctx) || w.holdDue())
		})
		if err == nil {
			// Await returns as soon as its condition holds, even when the tournament is cancelled:
			// a cancelled clock timer is ready at once, and without this the loop would spin.
			err = ctx.Err()
		}
		if err != nil {
			w.cancelled(ctx)
			return temporal.NewCanceledError()
		}
		w.process(ctx)
	}
	if s.Pace >= director.PaceQuietEndsAtEnd {
		// A run that came due and asked its tables to keep quiet ends instead: it ends their
		// quiet, as its next run would have, or a table closed while quiet (its Close went with
		// its Order.Quiet) waits for that next run (quietCloseWait) and tells its close too late
		// for the wait below. Before, a satellite's section ended so, "closing", its last events
		// not told (TestBountiesAndSatellitesInSectionsEndToEnd, 5 December, under load).
		s.EndQuiet()
		w.send(ctx)
	}
	// R5: over. Wait (a while) for every table to close, and for the hosts to let them go.
	deadline := workflow.Now(ctx).Add(closeWait)
	for !w.allClosed() {
		left := deadline.Sub(workflow.Now(ctx))
		if left <= 0 {
			break
		}
		// From PaceEndWakes an order signal done wakes it too: the orders held behind it go.
		wakes := s.Pace >= director.PaceEndWakes
		w.wake = false
		if ok, err := w.wait.within(ctx, left, func() bool { return w.events.Len() > 0 || len(w.inbox) > 0 || wakes && w.wake }); err != nil || !ok {
			break
		}
		w.process(ctx)
		w.send(ctx)
	}
	w.process(ctx)
	w.send(ctx)
	if s.Section != nil {
		s.Section.Ended = true
		// Every last event goes up, however many signals it takes: with one under way as the
		// section ended, the rest stayed queued and the wait never sent them (the tournament waited
		// closeWait for the section to say it had closed). Gated: a run recorded before waits once.
		again := workflow.GetVersion(ctx, "section-end", workflow.DefaultVersion, 1) > workflow.DefaultVersion
		for {
			w.reportUp(ctx)
			if err := workflow.Await(ctx, func() bool { return !w.upBusy && (again || !s.Section.Events.Pending()) }); err != nil {
				return err
			}
			if !s.Section.Events.Pending() || w.upGone {
				break
			}
		}
	}
	// Every row of the record written out (the result keeps the best, the sink has them all).
	for !w.rowsWritten() {
		w.writeRows(ctx)
		if err := workflow.Await(ctx, func() bool { return !w.writing }); err != nil {
			return err
		}
	}
	if err := w.drainHosts(ctx); err != nil {
		return err
	}
	return w.waitSent(ctx)
}

// tableNews are the tables' events as they come, one to a signal (TableEventSignal) or, from a
// table's marker eventBatches, in batches (TableEventsSignal). The tournament takes each table's
// events in sequence (TableEvent.Seq), whatever the signals' order.
type tableNews struct{ one, batches workflow.ReceiveChannel }

// Len is the number of signals waiting.
func (n tableNews) Len() int { return n.one.Len() + n.batches.Len() }

// take appends the events of every signal waiting to inbox, without blocking.
func (n tableNews) take(inbox []director.TableEvent) []director.TableEvent {
	for {
		var ev director.TableEvent
		if !n.one.ReceiveAsync(&ev) {
			break
		}
		inbox = append(inbox, ev)
	}
	for {
		var batch []director.TableEvent
		if !n.batches.ReceiveAsync(&batch) {
			break
		}
		inbox = append(inbox, batch...)
	}
	return inbox
}

type tournamentWorkflow struct {
	s      *director.TournamentState
	events tableNews
	// orders are a section's orders from the tournament (nil for the tournament itself); upBusy
	// says a report to the tournament is under way; upGone that the tournament's workflow is over
	// (a report refused for it: nothing more is sent, and the run continues as new without asking
	// it to hold the orders).
	orders workflow.ReceiveChannel
	upBusy bool
	upGone bool
	inbox  []director.TableEvent
	wake   bool // a handler changed the state: step and send

	clock periodTimer
	wait  waiter

	// futures of activities not yet done; busy counts the table starts in progress, sending the
	// signals; writing: the record's rows are being written out (record_places.go).
	pending []workflow.Future
	// hostCalls counts callHosts' activities under way.
	hostCalls int
	busy      int
	sending   int
	writing   bool
	// inflight counts the order signals on their way to each table (continue-as-new's
	// handshake, tellContinue).
	inflight map[floor.TableID]int
	// quietWait runs from the run's first Order.Quiet (askQuiet); answerWait, from
	// director.PaceQuietFromAsk, from the delivery of its last (quietDelivered), and
	// answerCancel cancels it.
	quietWait    workflow.Future
	answerWait   workflow.Future
	answerCancel workflow.CancelFunc
	quietLate    bool // the wait ran out (logged once)
}

func (w *tournamentWorkflow) continueAsNewDue(ctx workflow.Context) bool {
	info := workflow.GetInfo(ctx)
	return runDue(w.s.Pace >= director.PaceOwnEventCount, info.GetCurrentHistoryLength(), w.s.Spec.ContinueAsNewAfter, info.GetContinueAsNewSuggested(), info.GetContinueAsNewSuggestedReasons())
}

// RunEvents is the history length at which a tournament's or a section's run continues as new
// for its events, from director.PaceOwnEventCount (a tournament of sections from
// director.PlanOwnEventCount), once Temporal has suggested it (or at its spec's
// ContinueAsNewAfter, when that is less). Each continue-as-new costs a section its quiet: an
// order signal to each of its hundred tables and its answer, and the tables' news held until the
// next run tells them to go on (director's link.go, "Quiet"); at 100,000 entries about one
// order signal in five carried it (docs/design.md, "What a section's tables wait on"). At
// Temporal's suggestion, 4,096 events, a section of 10,000 entries had a history of 1.4 MB (7
// December, 11 sections, each 4,421-4,583 events as it continued: the quiet's own events after
// it came due); at 8,000 about 2.5 MB, under Temporal's suggestion for the size (4 MB), which
// still counts at once as its suggestion for the Updates does (2,000 a run at most), and the
// quiet's events after it keep the run under the server's warning at 10,240 events.
const RunEvents = 8000

// runDue reports whether a tournament's or a section's run, with a history of length events,
// continues as new: past after, or when Temporal suggests it (suggested, for reasons); a run that
// keeps its own event count (own: from director.PaceOwnEventCount, or director.PlanOwnEventCount
// for a tournament of sections) takes a suggestion for the event count alone at RunEvents.
func runDue(own bool, length, after int, suggested bool, reasons []workflow.ContinueAsNewSuggestedReason) bool {
	if length > after {
		return true
	}
	if !suggested {
		return false
	}
	if !own || length >= RunEvents || len(reasons) == 0 {
		return true // a server that does not say why: as it suggests
	}
	return slices.ContainsFunc(reasons, func(r workflow.ContinueAsNewSuggestedReason) bool {
		return r != workflow.ContinueAsNewSuggestedReasonTooManyHistoryEvents
	})
}

// process takes the news in and does the floor's work.
func (w *tournamentWorkflow) process(ctx workflow.Context) {
	w.inbox = w.events.take(w.inbox)
	for _, ev := range w.inbox {
		w.s.OnEvent(ev)
	}
	w.inbox = nil
	if w.orders != nil {
		for {
			var msgs []director.Numbered[director.SectionOrder]
			if !w.orders.ReceiveAsync(&msgs) {
				break
			}
			w.s.OnOrders(msgs)
		}
	}
	now := workflow.Now(ctx)
	w.s.Tick(now)
	w.s.Step(now)
	w.reportUp(ctx)
}

// reportUp sends a section's news to the tournament, one report at a time, in order; a report
// that failed every attempt goes again with the next. From director.PaceReportUpdate a report is
// an Update (ReportSectionActivity): the next goes once the tournament has taken the last in,
// and the server holds at most ten of a run's Updates in flight, so that a hundred sections
// cannot pile their news into the events that wait while one of the tournament's tasks runs
// (the server fails the task past 100: 94 section signals came in during one 29-second task at
// 100,000 entries under load). Before it a report was a signal, accepted by the server whatever
// the tournament was doing. A run due to continue as new sends nothing more (the next run sends
// what is queued) but, from director.PaceSectionQuiet, one report that asks the tournament to
// hold its orders, given QuietWait (director's link.go, "A section's quiet"); and the first
// report of a run that continued one goes even with no news: it ends that hold.
func (w *tournamentWorkflow) reportUp(ctx workflow.Context) {
	s := w.s
	sec := s.Section
	if sec == nil {
		return
	}
	if ev, ok := s.SectionReport(); ok {
		sec.Events.Send(ev)
	}
	if w.upBusy || w.upGone {
		return
	}
	ask := false
	if w.continueAsNewDue(ctx) && !s.Finished {
		if ask = s.AskHold(); !ask {
			return // the next run sends what is queued
		}
	}
	msgs := sec.Events.Take()
	if len(msgs) == 0 && !ask && !sec.FirstReport {
		return
	}
	w.upBusy = true
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() { w.upBusy = false; w.wake = true }()
		report := SectionEvents{Section: sec.Number, Events: msgs, Run: s.ReportRun(), Quiet: ask}
		var sent bool
		if s.Pace >= director.PaceReportUpdate {
			var within time.Duration
			if ask {
				within = QuietWait
			}
			sent, w.upGone = reportSection(ctx, sec.Parent, report, within)
		} else {
			sent = retrySignal(ctx, sec.Parent, SectionEventsSignal, report, nil)
		}
		if sent {
			if len(msgs) > 0 {
				sec.Events.Ack(msgs[len(msgs)-1].Seq) // the tournament has it: it takes every signal before it continues as new
			}
			sec.FirstReport = false
		} else {
			sec.Events.Resend()
		}
		if ask {
			s.HoldAnswer(sent)
		}
	})
}

// holdDue: the section's run, due to continue as new, still has to ask its tournament to hold
// its orders (reportUp sends the ask, in process): its wait ends for it, since nothing else may
// come in to end it (its tables may be quiet already).
func (w *tournamentWorkflow) holdDue() bool {
	s := w.s
	return s.Section != nil && s.Pace >= director.PaceSectionQuiet && s.Section.Hold == director.HoldNone &&
		!s.Finished && !w.upBusy && !w.upGone
}

// send opens the new tables, signals the orders to the tables that have started, and lets the
// hosts take down the closed tables.
func (w *tournamentWorkflow) send(ctx workflow.Context) {
	s := w.s
	if len(s.NewTables) > 0 {
		w.startTables(ctx, s.NewTables)
	}
	s.NewTables = nil
	// A run due to continue as new sends no new orders once its handlers are done (the next run
	// sends them): it waits for the signals under way (quiet), and every new one would make it
	// wait again. A handler waiting for a table to apply its order keeps them going.
	holding := w.continueAsNewDue(ctx) && !s.Finished && workflow.AllHandlersFinished(ctx)
	if !holding {
		w.tellContinue(ctx, false)
	} else if s.Pace >= director.PaceQuiet {
		// From PaceQuiet the run asks its tables to keep quiet first (link.go, "Quiet"), and a
		// table that asked to continue as new does so before it is asked.
		w.tellContinue(ctx, true)
		w.askQuiet(ctx)
	}
	// From PaceOneSignal a table has at most one signal of orders on its way: what is queued for
	// it meanwhile goes in one signal once that one is done (director.MergeOutbox says why).
	oneSignal := s.Pace >= director.PaceOneSignal
	if oneSignal {
		s.Outbox = director.MergeOutbox(s.Outbox)
	}
	// From PaceSignalCap at most signalsInFlight order signals are on their way at once; the
	// rest wait in the outbox (signalsInFlight says why).
	capped := s.Pace >= director.PaceSignalCap
	kept := s.Outbox[:0]
	for _, b := range s.Outbox {
		t := s.Table(b.Table)
		if t != nil && t.Drops() {
			if b.Orders = s.AfterClose(t.ID, b.Orders); len(b.Orders) == 0 {
				continue
			}
		}
		if t == nil || !t.Started || holding || oneSignal && w.inflight[t.ID] > 0 || capped && w.sending >= signalsInFlight {
			kept = append(kept, b)
			continue
		}
		now, later := t.SplitHeld(b.Orders)
		if len(later) > 0 {
			kept = append(kept, director.TableOrders{Table: b.Table, Orders: later})
		}
		if len(now) > 0 {
			t.Unacked = append(t.Unacked, now...)
			w.signal(ctx, t.ID, t.WorkflowID, now)
		}
	}
	s.Outbox = kept
	if s.Pace >= director.PaceHostBatch {
		w.callHosts(ctx)
	} else {
		for _, id := range s.Deleting {
			t := s.Table(id)
			actx := tableActivityOptions(ctx, "delete/"+t.WorkflowID)
			w.track(workflow.ExecuteActivity(actx, DeleteTableActivity, t.WorkflowID))
		}
		s.Deleting = nil
		for _, id := range s.Replacing {
			t := s.Table(id)
			workflow.GetLogger(ctx).Warn("table silent past its deadline: replacing its host", "table", t.WorkflowID, "replaced", t.Replaced)
			actx := tableActivityOptions(ctx, fmt.Sprintf("replace/%s/%d", t.WorkflowID, t.Replaced))
			w.track(workflow.ExecuteActivity(actx, ReplaceTableActivity, w.hosted(id)))
		}
		s.Replacing = nil
	}
	w.writeRows(ctx)
}

// tellContinue sends Order.Continue, with every order queued for it, to each table that asked
// to continue as new and to which no order signal is on its way (director.ContinueStep): the
// table continues as new once it has them, and nothing else is sent to it before its next run
// says it is up. While the run is holding (due to continue as new itself), a table already asked
// to keep quiet is left to ask again of the next run.
func (w *tournamentWorkflow) tellContinue(ctx workflow.Context, holding bool) {
	s := w.s
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Continue != director.ContinueAsked || !t.Started || w.inflight[t.ID] > 0 || holding && t.QuietSeq > 0 || !s.TellContinue(t.ID) {
			continue
		}
		w.sendQueued(ctx, t)
	}
}

// askQuiet sends Order.Quiet, with every order queued for it, to each table the run should ask
// to keep quiet before it continues as new (link.go, "Quiet"), and starts the wait after which
// the run continues as new whoever has not answered (QuietWait). From
// director.PaceQuietFromAsk the asks keep within signalsInFlight (a section's hundred asks at
// once had 51 of their deliveries come in during one of its slow tasks, two suites side by side,
// and the server fail it past 100), no table is asked once that wait is over, and the run waits
// QuietAnswerWait at least after its last ask was delivered (signal): at 100,000 entries a
// section's tables started minutes after it came due, and it asked the last of them as its wait
// from the first ask (of no one: none had started) ran out, continued as new as soon as those
// asks were delivered, and an answer came in during that task.
func (w *tournamentWorkflow) askQuiet(ctx workflow.Context) {
	s := w.s
	if w.quietWait == nil {
		w.quietWait = workflow.NewTimer(ctx, QuietWait)
	}
	if s.Pace >= director.PaceQuietFromAsk && w.quietWait.IsReady() {
		return
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if s.Pace >= director.PaceQuietFromAsk && w.sending >= signalsInFlight {
			break // the rest are asked as signals are delivered: each delivery comes in to the run
		}
		if s.Pace >= director.PaceOneSignal && w.inflight[t.ID] > 0 {
			continue // asked once that signal is done (the run asks at each step while it is due)
		}
		if t.Started && s.QuietAsk(t.ID) {
			w.sendQueued(ctx, t)
		}
	}
}

// quietDelivered starts the wait for the answer to an Order.Quiet just delivered
// (QuietAnswerWait, from director.PaceQuietFromAsk), anew.
func (w *tournamentWorkflow) quietDelivered(ctx workflow.Context, orders []director.Order) {
	if w.s.Pace < director.PaceQuietFromAsk || !slices.ContainsFunc(orders, func(o director.Order) bool { return o.Quiet != nil && *o.Quiet }) {
		return
	}
	if w.answerWait != nil && !w.answerWait.IsReady() {
		w.answerCancel()
	}
	actx, cancel := workflow.WithCancel(ctx)
	w.answerWait, w.answerCancel = workflow.NewTimer(actx, QuietAnswerWait), cancel
}

// answersWaited: the run has given its last ask to keep quiet QuietAnswerWait since it was
// delivered (director.PaceQuietFromAsk).
func (w *tournamentWorkflow) answersWaited() bool {
	return w.answerWait == nil || w.answerWait.IsReady()
}

// QuietAnswerWait is the least a run due to continue as new waits for the answer of a table it
// asked to keep quiet, from the ask's delivery, whenever its wait for them all (QuietWait) ends:
// at 100,000 entries on a busy server an ask's signal took more than the 30 s it was first given
// from its sending, and the answer came in during the task that continued the run.
const QuietAnswerWait = 30 * time.Second

// QuietWait bounds how long a run due to continue as new waits for its tables to keep quiet (a
// table whose answer was lost, or that is gone): past it the run continues as new as before
// PaceQuiet, and the server may refuse that once for an event that comes in. Two minutes: at
// 100,000 entries the 112 sections come due nearly together and ask their 11,112 tables at
// once, and on temporaltest with the tables' 8 pollers on 2 cores some tables answered after
// the minute it was before: in each of the 4 runs of
// TestHundredThousandEntriesWithinTemporalsLimits logged (5 December), 1 to 6 sections waited
// it out, and in 4 of the 9 runs that day a late answer came in during the task that continued
// a section as new.
const QuietWait = 2 * time.Minute

// sendQueued signals table t every order queued for it.
func (w *tournamentWorkflow) sendQueued(ctx workflow.Context, t *director.TableRecord) {
	var orders []director.Order
	w.s.Outbox = slices.DeleteFunc(w.s.Outbox, func(b director.TableOrders) bool {
		if b.Table != t.ID {
			return false
		}
		orders = append(orders, b.Orders...)
		return true
	})
	t.Unacked = append(t.Unacked, orders...)
	w.signal(ctx, t.ID, t.WorkflowID, orders)
}

// signal sends orders to a table, again while the signal fails (the table may be between two runs:
// continue-as-new); the table applies each order once, whatever the repeats and their order. A
// table that was told to close and has ended takes no more.
func (w *tournamentWorkflow) signal(ctx workflow.Context, id floor.TableID, workflowID string, orders []director.Order) {
	w.sending++
	if t := w.s.Table(id); t != nil {
		t.Lost = false
	}
	w.s.Signalled(id, orders)
	if w.inflight == nil {
		w.inflight = map[floor.TableID]int{}
	}
	w.inflight[id]++
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer func() {
			w.sending--
			if w.inflight[id]--; w.inflight[id] == 0 {
				delete(w.inflight, id)
			}
			w.wake = true
		}()
		// A table that was told to close may be gone: a few attempts, then nothing is lost.
		gone := func() bool { return tableGone(w.s, id) }
		var sent bool
		if w.s.Pace >= director.PaceLocalSignals && w.s.Pace < director.PaceCommandSignals {
			sent = retrySend(ctx, workflowID, OrdersSignal, func(ctx workflow.Context) error {
				return signalOrders(ctx, workflowID, orders)
			}, gone)
		} else {
			sent = retrySignal(ctx, workflowID, OrdersSignal, orders, gone)
		}
		if !sent && w.s.Pace >= director.PaceLost {
			if t := w.s.Table(id); t != nil {
				t.Lost = true
			}
		} else {
			w.quietDelivered(ctx, orders)
		}
	})
}

// reply does the floor's work on the news in (a table's events just taken, with whatever else
// came) and takes the orders that may go to table id now, for the answer to its events' Update
// (director.TournamentState.Reply): none while a signal of orders to it is on its way (they go
// after it, in one signal, as before), or while the run holds its orders to continue as new. The
// answer leaves the server only once the task that completes the Update is recorded, with the
// decision it carries. The run's loop steps again for the other tables' orders.
func (w *tournamentWorkflow) reply(ctx workflow.Context, id floor.TableID) []director.Order {
	w.s.Answering = id
	w.process(ctx)
	w.s.Answering = 0
	w.wake = true
	if w.inflight[id] > 0 || w.continueAsNewDue(ctx) && !w.s.Finished {
		return nil
	}
	return w.s.Reply(id)
}

// tableGone: table id was told to close, or is no longer on the books at all (a section forgets
// a table once it has closed, which may be while a signal to it is retried).
func tableGone(s *director.TournamentState, id floor.TableID) bool {
	t := s.Table(id)
	return t == nil || t.Closing || t.Closed
}

// signalsInFlight is the most order signals a run (a section, or a tournament of one section)
// has on their way at once, from director.PaceSignalCap; the orders of the other tables wait in
// the outbox, merged, for one to be done. Each signal takes the sending run's lock at the server
// twice (its transfer task reads it, then records its completion), and a run's own task
// completion waits its turn behind them: with two 100,000-entry tests side by side, 3,023 order
// signals were on their way from 112 sections, 370 of their transfer tasks waiting for a lock, 13
// sections' tasks taken and not completed within their two minutes, and during one of them 99 of
// its tables' events buffered (the server fails a task past 100, as it did on CI for 101).
const signalsInFlight = 16

// tablesPerHostCall is the most tables one DeleteTables or ReplaceTables activity takes, and
// hostCallsInFlight the most of them a run has under way (from director.PaceHostBatch): each
// activity's start and end come to the workflow as two events, and the server takes at most 100
// (history.maximumBufferedEventsBatch) while a workflow task runs. At 100,000 entries on a busy
// machine a section that replaced its silent tables one activity each had 92 of them come in
// during one task, with 10 signals from its tables: the server refused the task
// (ForceCloseCommand) and the section waited for its timeout.
const (
	tablesPerHostCall = 20
	hostCallsInFlight = 4
)

// callHosts sends the tables to take down and those to replace to their hosts, tablesPerHostCall
// to an activity and hostCallsInFlight activities at a time; the rest stay queued (Deleting,
// Replacing) until one is done, in this run or the next. A table taken down is not replaced.
func (w *tournamentWorkflow) callHosts(ctx workflow.Context) {
	s := w.s
	for w.hostCalls < hostCallsInFlight && len(s.Deleting) > 0 {
		n := min(len(s.Deleting), tablesPerHostCall)
		var ids []string
		for _, id := range s.Deleting[:n] {
			ids = append(ids, s.Table(id).WorkflowID)
		}
		s.Deleting = slices.Clone(s.Deleting[n:])
		w.hostCall(ctx, tablesActivityID("delete/", ids[0], len(ids)), DeleteTablesActivity, ids)
	}
	s.Replacing = slices.DeleteFunc(s.Replacing, func(id floor.TableID) bool {
		t := s.Table(id)
		return t == nil || t.Closed // a section forgets a table once it has closed
	})
	for w.hostCalls < hostCallsInFlight && len(s.Replacing) > 0 {
		n := min(len(s.Replacing), tablesPerHostCall)
		var hosts []HostedTable
		for _, id := range s.Replacing[:n] {
			t := s.Table(id)
			workflow.GetLogger(ctx).Warn("table silent past its deadline: replacing its host", "table", t.WorkflowID, "replaced", t.Replaced)
			hosts = append(hosts, w.hosted(id))
		}
		first := s.Table(s.Replacing[0])
		s.Replacing = slices.Clone(s.Replacing[n:])
		w.hostCall(ctx, tablesActivityID("replace/", fmt.Sprintf("%s/%d", first.WorkflowID, first.Replaced), len(hosts)), ReplaceTablesActivity, hosts)
	}
}

// drainHosts calls the hosts until none of the tables to take down or to replace is still queued
// (callHosts keeps some while its calls are under way): a run's end leaves no table process up.
func (w *tournamentWorkflow) drainHosts(ctx workflow.Context) error {
	for len(w.s.Deleting) > 0 || len(w.s.Replacing) > 0 {
		w.callHosts(ctx)
		if err := workflow.Await(ctx, func() bool { return w.hostCalls < hostCallsInFlight }); err != nil {
			return err
		}
	}
	return nil
}

// hostCall runs one of callHosts' activities: the run waits for it before it continues as new
// or ends (track), and steps again once it is done, to send what waited for it.
func (w *tournamentWorkflow) hostCall(ctx workflow.Context, id, activity string, arg any) {
	f := workflow.ExecuteActivity(tablesActivity(ctx, id), activity, arg)
	w.track(f)
	w.hostCalls++
	workflow.Go(ctx, func(gctx workflow.Context) {
		defer func() { w.hostCalls--; w.wake = true }()
		if err := f.Get(gctx, nil); err != nil {
			workflow.GetLogger(gctx).Error("table hosts did not answer", "activity", id, "error", err)
		}
	})
}

func (w *tournamentWorkflow) track(f workflow.Future) {
	kept := w.pending[:0]
	for _, p := range w.pending {
		if !p.IsReady() {
			kept = append(kept, p)
		}
	}
	w.pending = append(kept, f)
}

// startTables starts the tables' workflows, as children that outlive this run (continue-as-new),
// then their processes; a table's orders go once it has started. From PaceHostEarly a table's
// process starts as soon as its workflow has, with the others whose start came in by then (one
// CreateTables activity for them): the server starts a section's hundred children over many
// seconds (a minute at 10,000 entries), and every table waited for the last before. A run
// started before hosts them all at once, once every start has resolved, as it was recorded.
func (w *tournamentWorkflow) startTables(ctx workflow.Context, ids []floor.TableID) {
	s := w.s
	if s.Pace >= director.PaceHostEarly && s.Section != nil {
		w.startSectionTables(ctx, ids)
		return
	}
	var children []startingTable
	for _, id := range ids {
		t := s.Table(id)
		in := s.TableInput(id)
		// The table outlives this run, and a cancelled tournament does not cancel its tables: they
		// take a Close order.
		dctx, _ := workflow.NewDisconnectedContext(ctx)
		cctx := workflow.WithChildOptions(dctx, workflow.ChildWorkflowOptions{
			WorkflowID:        t.WorkflowID,
			TaskQueue:         TableTaskQueue(workflow.GetInfo(ctx).TaskQueueName),
			ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_ABANDON,
		})
		children = append(children, startingTable{id, workflow.ExecuteChildWorkflow(cctx, TableWorkflow, in).GetChildWorkflowExecution()})
	}
	w.busy++
	workflow.Go(ctx, func(gctx workflow.Context) {
		defer func() { w.busy--; w.wake = true }()
		if s.Pace >= director.PaceHostEarly {
			w.hostAsTheyStart(gctx, children)
			return
		}
		var hosts []HostedTable
		for _, c := range children {
			if w.started(gctx, c) {
				hosts = append(hosts, w.hosted(c.id))
			}
		}
		if err := w.createTables(gctx, hosts).Get(gctx, nil); err != nil {
			workflow.GetLogger(gctx).Error("table processes did not start", "tables", len(hosts), "error", err)
		}
	})
}

// tablesPerStart is the most tables one StartTables activity starts: a section's hundred go in
// five activities side by side.
const tablesPerStart = 20

// startSectionTables starts a section's tables (from PaceHostEarly) with StartTables
// activities, tablesPerStart tables each, side by side: each table's workflow, then its
// process. A table is marked started, and its orders go, once its activity is done or its first
// event has come (it says it is up: director.ContinueStep), whichever is first.
func (w *tournamentWorkflow) startSectionTables(ctx workflow.Context, ids []floor.TableID) {
	s := w.s
	queue := TableTaskQueue(workflow.GetInfo(ctx).TaskQueueName)
	for from := 0; from < len(ids); from += tablesPerStart {
		batch := ids[from:min(len(ids), from+tablesPerStart)]
		var ts []TableStart
		for _, id := range batch {
			ts = append(ts, TableStart{Input: s.TableInput(id), Host: w.hosted(id)})
		}
		id := tablesActivityID("start/", ts[0].Host.ID, len(ts))
		f := workflow.ExecuteActivity(tablesActivity(ctx, id), StartTablesActivity, queue, ts)
		w.busy++
		workflow.Go(ctx, func(gctx workflow.Context) {
			defer func() { w.busy--; w.wake = true }()
			if err := f.Get(gctx, nil); err != nil {
				workflow.GetLogger(gctx).Error("tables did not start", "tables", id, "error", err)
				return
			}
			for _, id := range batch {
				s.TableStarted(id)
			}
		})
	}
}

// startingTable is a table whose workflow is being started: start is ready once it has.
type startingTable struct {
	id    floor.TableID
	start workflow.Future
}

// started waits for the table's workflow to start and marks it started (its orders may go).
func (w *tournamentWorkflow) started(ctx workflow.Context, c startingTable) bool {
	if err := c.start.Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Error("table workflow did not start", "table", w.s.Table(c.id).WorkflowID, "error", err)
		return false
	}
	w.s.TableStarted(c.id)
	return true
}

// hostAsTheyStart starts the tables' processes as their workflows start, in whatever order the
// server starts them: each time a start comes in, every start already in with it is taken too
// and their processes started with one activity; it returns once every activity is done.
func (w *tournamentWorkflow) hostAsTheyStart(ctx workflow.Context, children []startingTable) {
	sel := workflow.NewSelector(ctx)
	var ready []HostedTable
	for _, c := range children {
		sel.AddFuture(c.start, func(workflow.Future) {
			if w.started(ctx, c) {
				ready = append(ready, w.hosted(c.id))
			}
		})
	}
	var creating []workflow.Future
	for range children {
		sel.Select(ctx)
		if sel.HasPending() || len(ready) == 0 {
			continue // another start is in: it goes with these
		}
		creating = append(creating, w.createTables(ctx, ready))
		ready = nil
		w.wake = true // their orders may go
	}
	for _, f := range creating {
		if err := f.Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("table processes did not start", "error", err)
		}
	}
}

// createTables starts the processes of hosts (none: a future that is ready at once).
func (w *tournamentWorkflow) createTables(ctx workflow.Context, hosts []HostedTable) workflow.Future {
	if len(hosts) == 0 {
		f, set := workflow.NewFuture(ctx)
		set.Set(nil, nil)
		return f
	}
	id := tablesActivityID("create/", hosts[0].ID, len(hosts))
	return workflow.ExecuteActivity(tablesActivity(ctx, id), CreateTablesActivity, hosts)
}

// tablesActivityID names an activity on n tables by the first one's workflow ID: "start/T" for
// one, "start/T+4" for five.
func tablesActivityID(kind, first string, n int) string {
	if n > 1 {
		return kind + first + fmt.Sprintf("+%d", n-1)
	}
	return kind + first
}

// tablesActivity is the context of an activity that starts tables (their workflows or their
// processes): two minutes a try, tried again from 100 ms up to every 10 s.
func tablesActivity(ctx workflow.Context, id string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		ActivityID:          id,
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumInterval: 10 * time.Second},
	})
}

// hosted is what table id's process needs to start.
func (w *tournamentWorkflow) hosted(id floor.TableID) HostedTable {
	s := w.s
	return HostedTable{ID: s.Table(id).WorkflowID, Tournament: s.ID, Number: id, Simulation: s.Spec.Simulation, Pace: s.Spec.Pace, DeckSeed: s.DeckSeed(id)}
}

// cancelled closes the tables of a tournament cancelled before its end.
func (w *tournamentWorkflow) cancelled(ctx workflow.Context) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	w.s.Finish(workflow.Now(dctx))
	w.send(dctx)
	_ = w.waitSent(dctx)
}

// armClock keeps one timer on the end of the period running (B3); pauses and added time move it.
func (w *tournamentWorkflow) armClock(ctx workflow.Context) {
	s := w.s
	if s.Spec.Simulation || s.Finished {
		return
	}
	now := workflow.Now(ctx)
	cs, err := s.ClockAt(now)
	w.clock.arm(ctx, now, cs, err == nil)
}

func (w *tournamentWorkflow) clockFired() bool { return w.clock.fired() }

func (w *tournamentWorkflow) allClosed() bool {
	for _, t := range w.s.Tables {
		if !t.Closed {
			return false
		}
	}
	return true
}

// quiet: no handler is running, no table starting, no activity in flight, no signal on its way:
// the server records a signal's delivery in the sender's history, and one recorded during the
// task that continues the run as new has the server refuse it (UnhandledCommand; 31 of the 41
// events behind such refusals at 20,000 entries were a section's own orders delivered).
func (w *tournamentWorkflow) quiet(ctx workflow.Context) bool {
	if !workflow.AllHandlersFinished(ctx) || w.busy > 0 || w.upBusy || w.writing || w.sending > 0 {
		return false
	}
	// A section's tournament holds its orders, or the ask was not answered in time (link.go, "A
	// section's quiet").
	if !w.s.HoldDone() && !w.upGone {
		return false
	}
	if _, rows := w.s.RecordUnwritten(); len(rows) > carryRows {
		return false
	}
	// No table can send an event (they keep quiet as asked), or the wait for them is over.
	if !w.s.TablesQuiet() {
		if w.quietWait == nil || !w.quietWait.IsReady() || !w.answersWaited() {
			return false
		}
		if !w.quietLate {
			w.quietLate = true
			workflow.GetLogger(ctx).Warn("tables not quiet after the wait: continuing as new", "tables", w.s.Unquiet())
		}
	}
	for _, f := range w.pending {
		if !f.IsReady() {
			return false
		}
	}
	return true
}

func (w *tournamentWorkflow) waitSent(ctx workflow.Context) error {
	if err := workflow.Await(ctx, func() bool { return w.sending == 0 }); err != nil {
		return err
	}
	for _, f := range w.pending {
		if err := f.Get(ctx, nil); err != nil {
			var canceled *temporal.CanceledError
			if errors.As(err, &canceled) {
				continue
			}
			// A table that closed takes no more orders; nothing is lost with it.
			workflow.GetLogger(ctx).Warn("signal or activity failed", "error", err)
		}
	}
	w.pending = nil
	return nil
}

// register sets the queries and the director's updates.
func (w *tournamentWorkflow) register(ctx workflow.Context) error {
	s := w.s
	queries := map[string]any{
		ProgressQuery:  func() (Progress, error) { return s.Progress(workflow.Now(ctx)), nil },
		StandingsQuery: func() ([]Standing, error) { return s.StandingsView(), nil },
		TablesQuery:    func() ([]TableView, error) { return s.TablesView(), nil },
		ClockQuery:     func() (ClockView, error) { return s.ClockView(workflow.Now(ctx)), nil },
		PayoutsQuery:   func() (PayoutsView, error) { return s.PayoutsView(), nil },
		SanctionsQuery: func() ([]SanctionRecord, error) { return s.Sanctions, nil },
		DealQuoteQuery: func(terms floor.DealTerms) (DealQuote, error) { return s.Quote(terms) },
		StateQuery:     func() (*director.TournamentState, error) { return s.Redacted(), nil },
		SectionsQuery:  func() ([]string, error) { return nil, nil }, // one section: every record is here
		SeatQuery:      func(player string) (Seat, error) { return seatOf(s, player), nil },
		WhereQuery:     func(at director.Where) (bool, error) { return s.Holds(at), nil },
	}
	for name, h := range queries {
		if err := workflow.SetQueryHandler(ctx, name, h); err != nil {
			return err
		}
	}
	changed := func() { w.wake = true }
	err := errors.Join(
		setKeyedUpdate(ctx, ClockUpdate,
			func(ctx workflow.Context, r ClockRequest) error {
				return cmp.Or(w.tournamentOnly("a clock action"), s.VerifyClock(r))
			},
			func(ctx workflow.Context, r ClockRequest) (ClockView, error) {
				s.Clock(r, workflow.Now(ctx))
				changed()
				return s.ClockView(workflow.Now(ctx)), nil
			}),
		setKeyedUpdate(ctx, SanctionUpdate,
			func(ctx workflow.Context, r SanctionRequest) error { return s.VerifySanction(r, workflow.Now(ctx)) },
			func(ctx workflow.Context, r SanctionRequest) (SanctionRecord, error) {
				ref := s.GiveSanction(r, workflow.Now(ctx))
				changed()
				// The record is complete once the table has applied it (P2, P4, P5).
				_, _ = w.wait.within(ctx, time.Minute, func() bool {
					return s.Sanctions[ref].Applied || s.Sanctions[ref].Void
				})
				return s.Sanctions[ref], nil
			}),
		setKeyedUpdate(ctx, RegisterUpdate,
			func(ctx workflow.Context, r RegisterRequest) error {
				return cmp.Or(w.tournamentOnly("an entry"), s.VerifyRegister(r, workflow.Now(ctx)))
			},
			func(ctx workflow.Context, r RegisterRequest) (string, error) {
				id := s.Register(r)
				changed()
				return id, nil
			}),
		setKeyedUpdate(ctx, RegisterBatchUpdate,
			func(ctx workflow.Context, r RegisterBatchRequest) error {
				return cmp.Or(w.tournamentOnly("a batch of entries"), director.VerifyBatch(r))
			},
			func(ctx workflow.Context, r RegisterBatchRequest) ([]BatchResult, error) {
				res := s.RegisterBatch(r, workflow.Now(ctx))
				changed()
				return res, nil
			}),
		setKeyedUpdate(ctx, RebuyUpdate,
			func(ctx workflow.Context, r RebuyRequest) error { return s.VerifyRebuy(r, workflow.Now(ctx)) },
			func(ctx workflow.Context, r RebuyRequest) (director.RebuyRecord, error) {
				ref := s.Rebuy(r)
				changed()
				// The chips are the player's once his table has checked his stack after its hand.
				_, _ = w.wait.within(ctx, time.Minute, func() bool { return s.RebuyLog[ref].Done })
				rec := s.RebuyLog[ref]
				if rec.Refused != "" {
					return rec, temporal.NewNonRetryableApplicationError(rec.Refused, "RebuyRefused", nil)
				}
				return rec, nil
			}),
		setKeyedUpdate(ctx, RebuyBatchUpdate,
			func(ctx workflow.Context, r RebuyBatchRequest) error { return director.VerifyRebuyBatch(r) },
			func(ctx workflow.Context, r RebuyBatchRequest) ([]BatchResult, error) {
				res, refs := s.RebuyBatch(r, workflow.Now(ctx))
				changed()
				// As one rebuy's: the chips are the players' once their tables have checked the
				// stacks; one not answered within the minute is answered as taken (its table
				// still decides, as for a single rebuy).
				_, _ = w.wait.within(ctx, time.Minute, func() bool { return s.RebuysDone(refs) })
				return s.RebuyBatchResults(res, refs), nil
			}),
		setKeyedUpdate(ctx, DealUpdate,
			func(ctx workflow.Context, r DealRequest) error {
				return cmp.Or(w.tournamentOnly("a deal"), s.VerifyDeal(r))
			},
			func(ctx workflow.Context, r DealRequest) (DealRecord, error) {
				d := s.MakeDeal(r, workflow.Now(ctx))
				changed()
				return d, nil
			}),
		w.registerTools(ctx),
	)
	return err
}

// tournamentOnly refuses, on a section's workflow, an action that is its tournament's: the clock,
// the entries (they go through the payouts, R6), a deal.
func (w *tournamentWorkflow) tournamentOnly(what string) error {
	if sec := w.s.Section; sec != nil {
		return fmt.Errorf("%s is for the tournament %s, not its section %d", what, sec.Parent, sec.Number)
	}
	return nil
}

// keyedRequest is a director's request that carries its idempotency key (director's SetKey).
type keyedRequest[R any] interface {
	*R
	SetKey(key string)
}

// setKeyedUpdate sets the director's update name: the request keyed by its Update ID (so that a
// retried re-entry, rebuy or sanction is applied once, also after a continue-as-new, P6), checked
// by verify before anything is recorded (a validator reads and never writes), then applied.
func setKeyedUpdate[R any, P keyedRequest[R], T any](ctx workflow.Context, name string,
	verify func(workflow.Context, R) error, apply func(workflow.Context, R) (T, error)) error {
	keyed := func(ctx workflow.Context, r R) R {
		P(&r).SetKey(workflow.GetCurrentUpdateInfo(ctx).ID)
		return r
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, name,
		func(ctx workflow.Context, r R) (T, error) { return apply(ctx, keyed(ctx, r)) },
		workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r R) error { return verify(ctx, keyed(ctx, r)) }})
}
