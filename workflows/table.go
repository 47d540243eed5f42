package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// TableWorkflow holds one table's state between hands (seats, stacks, button and blinds, hand
// number, level, penalties, orders not yet applied). The table process reports hands through the
// ReportUpdate, keyed by (table, hand number): a retried report never counts a hand twice, and the
// validator refuses a malformed one (chips not conserved, unknown players, hand numbers out of
// order) before anything is written. Between hands it applies the tournament's orders, and it
// tells the tournament only what changes the tournament (TableEvent). It continues as new when
// Temporal suggests it, between reports.
func TableWorkflow(ctx workflow.Context, st director.TableState) error {
	// Orders are taken from the channel only by ReceiveAsync, where they are needed: a goroutine
	// blocked in Receive would be handed a signal it might not run to take before the run ends.
	w := &tableWorkflow{st: &st, orders: workflow.GetSignalChannel(ctx, OrdersSignal)}
	if w.st.MaxWait <= 0 {
		w.st.MaxWait = director.DefaultTableMaxWait
	}
	if err := workflow.SetQueryHandler(ctx, TableStateQuery, func() (director.TableState, error) { return *w.st, nil }); err != nil {
		return err
	}
	// A report that came with the run's first task is handled as soon as its handler is set (the
	// SDK yields to it there): from version 1 of the marker handlersLast it finds the run's
	// markers read. Before, it waited with the SDK's AwaitWithTimeout, whose timer nobody
	// cancelled, and 20 s later the timer fired during the task that ended the table (once in a
	// run of TestSectionsContinueAsNewWhileTheirOrdersHeld, once in one of
	// TestSectionsContinueAsNewWithTheirTablesQuiet). A run recorded before reads them after, as
	// it did.
	late := workflow.GetVersion(ctx, handlersLast, workflow.DefaultVersion, 1) == workflow.DefaultVersion
	if !late {
		w.readMarkers(ctx)
	}
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ReportUpdate, w.report, workflow.UpdateHandlerOptions{
		Validator: w.validate,
	}); err != nil {
		return err
	}
	if late {
		w.readMarkers(ctx)
	}
	if w.handshake {
		// Orders up to here were the run before's, its Order.Continue among them.
		w.before = w.st.Acked
		for _, o := range w.st.Pending {
			w.before = max(w.before, o.Seq)
		}
		// The section hears that this run is up: a first run's section sends it no order before
		// (the table's workflow is started by an activity of many tables' that ends later),
		// unless the section marks it started once that is done (QuietStart).
		if workflow.GetInfo(ctx).ContinuedExecutionRunID != "" || w.st.EventSeq == 0 && !w.st.QuietStart {
			w.tell(ctx, func(ev *director.TableEvent) { ev.Resumed = true })
		}
	}
	for {
		err := workflow.Await(ctx, func() bool {
			return w.orders.Len() > 0 || w.reports == 0 && (w.st.Closed() || w.st.QuietOwed || w.continueAsNewDue(ctx) && (!w.handshake || !w.asked || w.released()))
		})
		if err != nil {
			return err
		}
		w.drain(ctx)
		if w.st.QuietOwed && w.reports == 0 {
			w.tell(ctx, func(*director.TableEvent) {}) // the answer to the section's Order.Quiet
		}
		if w.reports > 0 || !w.st.Closed() && !w.continueAsNewDue(ctx) {
			continue
		}
		if w.st.Closed() {
			if w.handshake && w.timerCancelled {
				// As before continuing as new (below): the run ends in a task no timer can fire in.
				w.timerCancelled = false
				_ = workflow.Sleep(ctx, time.Millisecond)
				continue
			}
			if !w.closedSent {
				// Nobody is dealing (no report in flight): the last orders apply now.
				var ev director.TableEvent
				acked := w.st.Acked
				w.st.ApplyOrders(&ev)
				ev.Closed = true
				w.st.Event(&ev, acked, workflow.Now(ctx))
				w.send(ctx, ev)
				w.closedSent = true
			}
			if w.quietClose(ctx) {
				continue
			}
			w.flush(ctx)
			return nil
		}
		if w.handshake {
			if !w.asked {
				w.asked = true
				w.tell(ctx, func(ev *director.TableEvent) { ev.Continuing = true })
				continue
			}
			if !w.released() {
				continue
			}
		}
		w.flush(ctx) // yields: a report may have come in, and orders
		if w.reports > 0 || w.orders.Len() > 0 {
			continue
		}
		if w.handshake && w.timerCancelled {
			// A report's wait cancelled its timer in this task; the timer may fire before the
			// server has the cancel, and would come in during the task that continues as new.
			w.timerCancelled = false
			_ = workflow.Sleep(ctx, time.Millisecond)
			continue
		}
		// Nothing yields between the last look at the channel and the end of the run.
		return workflow.NewContinueAsNewError(ctx, TableWorkflow, *w.st)
	}
}

// quietClose waits, for a table closed while its section has it keep quiet (a Close and the
// section's Order.Quiet in one signal, as the section was due to continue as new), for the end
// of the quiet, the section's next run's order, at most quietCloseWait: then its close goes with
// the news it kept. It reports whether the run waited (the caller looks again). From version 1
// of the marker closeTells; before, the run ended with its close untold, and its section waited
// for it closeWait (a run recorded before ends as it did).
func (w *tableWorkflow) quietClose(ctx workflow.Context) bool {
	if !w.st.Silent() {
		return false
	}
	if w.quietUntil.IsZero() {
		if workflow.GetVersion(ctx, closeTells, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
			return false
		}
		w.quietUntil = workflow.Now(ctx).Add(quietCloseWait)
	}
	left := w.quietUntil.Sub(workflow.Now(ctx))
	if left <= 0 {
		return false
	}
	if ok, err := w.wait.within(ctx, left, func() bool { return w.orders.Len() > 0 }); ok || err != nil {
		w.timerCancelled = true // the wait's timer did not fire: cancelled in this task
	}
	return true
}

// quietCloseWait bounds how long a table closed while it keeps quiet waits for its section's
// next run (quietClose): the section's own wait for its tables' quiet is QuietWait.
const quietCloseWait = 2 * QuietWait

// continueHandshake is the version marker of the continue-as-new handshake (table runs);
// sectionQuiet the one of keeping quiet while the section continues as new; handlersLast the
// one from which the run reads its markers before it sets its report's handler; closeTells the
// one of a close told after the quiet (quietClose); eventBatches the one of events sent in
// batches, one signal at a time (deliverBatch); eventUpdates the one of those batches sent as
// Updates (deliverBatch); ordersInReply the one whose events say it takes the orders its section
// answers those Updates with (director.TableEvent.Replies).
const (
	continueHandshake = "continue-handshake"
	sectionQuiet      = "section-quiet"
	handlersLast      = "handlers-last"
	closeTells        = "close-tells"
	eventBatches      = "event-batches"
	eventUpdates      = "event-updates"
	ordersInReply     = "orders-in-reply"
)

// eventsByHost is the version of the marker eventUpdates from which a report's answer hands the
// table's undelivered events to a host that delivers them (director.ReportRequest.Delivers):
// the host sends them to the section as ReportTableEvents would, and its next report brings
// back what the section took and answered. The batch is the Update's result, recorded with the
// task that applied the report before it leaves the workflow, so that a section never has events
// of a report the table lost (as it had when a local activity sent them: docs/design.md, "A
// table's events from a local activity, tried again and given up for good"); and no activity
// is scheduled, started and completed for it, nor a second task of the table's run for its
// result. A batch with the table's close, and the events the table makes with no report in
// hand, go by the activity.
const eventsByHost workflow.Version = 2

// readMarkers reads the run's version markers that its report's handler depends on. From
// version 1 of the marker continueHandshake a run continues as new by the handshake with its
// section (director.ContinueStep), so that no order signal comes in as it does; a run recorded
// before replays without it.
func (w *tableWorkflow) readMarkers(ctx workflow.Context) {
	w.handshake = workflow.GetVersion(ctx, continueHandshake, workflow.DefaultVersion, 1) == 1
	w.wait = newWaiter(ctx)
}

// drain takes in the orders waiting in the channel, notes the section's Order.Continue, and
// its Order.Quiet and the end of it: then the events kept go.
func (w *tableWorkflow) drain(ctx workflow.Context) {
	var batches [][]director.Order
	for {
		var batch []director.Order
		if !w.orders.ReceiveAsync(&batch) {
			break
		}
		batches = append(batches, batch)
	}
	w.take(ctx, batches...)
}

// take takes in batches of orders that came (by signal, or in the answer to an Update of
// events); once they end the section's quiet, the events kept go.
func (w *tableWorkflow) take(ctx workflow.Context, batches ...[]director.Order) {
	silent := w.st.Silent()
	for _, batch := range batches {
		for _, o := range batch {
			if o.Continue != nil && o.Seq > w.before && w.asked {
				w.continueSeq = max(w.continueSeq, o.Seq)
			}
		}
		if w.quiets(ctx) {
			w.st.NoteQuiet(batch)
		}
		w.st.AddOrders(batch)
	}
	if silent && !w.st.Silent() {
		w.resend(ctx)
	}
}

// released: the section has answered this run's ask with its Order.Continue, and the table has
// every order up to it, so that no order signal is on its way (director.ContinueStep).
func (w *tableWorkflow) released() bool {
	if w.continueSeq == 0 {
		return false
	}
	next := w.st.Acked + 1
	for _, o := range w.st.Pending {
		if o.Seq > w.continueSeq || o.Seq != next {
			break
		}
		next++
	}
	return next > w.continueSeq
}

// tell sends the section an event that set says (the handshake's: it is news whatever else).
func (w *tableWorkflow) tell(ctx workflow.Context, set func(ev *director.TableEvent)) {
	var ev director.TableEvent
	set(&ev)
	if w.st.Event(&ev, w.st.Acked, workflow.Now(ctx)) {
		w.send(ctx, ev)
	}
}

type tableWorkflow struct {
	st      *director.TableState
	orders  workflow.ReceiveChannel
	reports int // reports in flight
	// latest numbers the reports as they come in. A report waiting here when a newer one arrives
	// was sent by a host that is gone (killed, or replaced): its answer reaches nobody, so it
	// must not apply the orders that the new host's report has to see.
	latest  int
	sending int // events being signalled
	// closedSent: the table said it closed: in a report's event (the last table closed itself,
	// R5), or as its run ends.
	closedSent bool
	// quietUntil: closed while it keeps quiet, the run waits until then for the quiet's end
	// (quietClose).
	quietUntil time.Time
	// handshake: the run continues as new by the handshake with its section; asked: it has
	// asked; continueSeq is the Seq of the section's answer (0: none yet), before the last Seq
	// the run before had; timerCancelled: a report's wait ended (its timer cancelled) since the
	// run last looked.
	handshake, asked bool
	// quiet is 1 when the run keeps quiet as its section asks (director.Order.Quiet), -1 when
	// it does not, 0 until the run has asked its marker (quiets).
	quiet int
	// batched is 1 when the run sends its events in batches (batches), -1 when one by one, 0
	// until the run has asked its marker.
	batched int
	// updating is the run's version of the marker eventUpdates: its batches go as signals
	// (DefaultVersion), as Updates by the activity (1), or by its reports' hosts too
	// (eventsByHost); updatingKnown says the run has asked it.
	updating      workflow.Version
	updatingKnown bool
	// byHost: the report in hand is a delivering host's, and the run hands its events to it
	// (eventsByHost): no activity sends them meanwhile.
	byHost bool
	// replies is 1 when the run's events say it takes its section's orders in the answer to
	// their Update (ordersInReply), -1 when not, 0 until the run has asked its marker.
	replies        int
	continueSeq    int
	before         int
	timerCancelled bool
	wait           waiter
}

// mayEnd: the run is due to continue as new and may (by the handshake: its section has let
// it), so a report does not wait.
func (w *tableWorkflow) mayEnd(ctx workflow.Context) bool {
	return w.continueAsNewDue(ctx) && (!w.handshake || w.released())
}

// continueAsNewDue: Temporal suggests it (history events, size, or updates near their limit).
func (w *tableWorkflow) continueAsNewDue(ctx workflow.Context) bool {
	info := workflow.GetInfo(ctx)
	return info.GetContinueAsNewSuggested() || (w.st.ContinueAsNewAfter > 0 && info.GetCurrentHistoryLength() > w.st.ContinueAsNewAfter)
}

func (w *tableWorkflow) validate(ctx workflow.Context, req director.ReportRequest) error {
	if w.st.Closing {
		return nil // the answer is Close, whatever was reported
	}
	var ev director.TableEvent
	if err := w.st.Clone().ApplyResults(req.Results, &ev); err != nil {
		return temporal.NewNonRetryableApplicationError(err.Error(), rejectedErrorType, nil)
	}
	return nil
}

// rejectedErrorType marks a report the validator refused; the reporter makes it a
// *report.RejectedError again.
const rejectedErrorType = "RejectedReport"

// supersededErrorType marks the answer to a report that a newer one (a new host's) overtook
// while it waited: nobody reads it.
const supersededErrorType = "SupersededReport"

func lastHand(rs []report.HandResult) int64 {
	if len(rs) == 0 {
		return 0
	}
	return rs[len(rs)-1].HandNumber
}

// report acknowledges hands, applies the orders waiting, and answers what the table does next. When
// the table may not deal (a break, a pause, hand-for-hand, too few players), it waits here, in
// the workflow, for an order that changes that, so that a waiting table costs no polling.
func (w *tableWorkflow) report(ctx workflow.Context, req director.ReportRequest) (director.ReportAnswer, error) {
	w.reports++
	defer func() { w.reports-- }()
	w.latest++
	mine := w.latest
	var ev director.TableEvent
	acked := w.st.Acked
	if !w.st.Closing {
		if err := w.st.ApplyResults(req.Results, &ev); err != nil {
			return director.ReportAnswer{}, err // the validator let it through: a bug, not a bad report
		}
	}
	w.byHost = req.Delivers && w.eventRoute(ctx) >= eventsByHost
	if w.byHost {
		w.heard(ctx, req) // after the hands: they were dealt before the section's orders came
	}
	deadline := workflow.Now(ctx).Add(w.st.MaxWait)
	for {
		if mine != w.latest {
			return director.ReportAnswer{}, temporal.NewNonRetryableApplicationError(
				"a newer report from the table's new host supersedes this one", supersededErrorType, nil)
		}
		w.drain(ctx)
		w.st.ApplyOrders(&ev)
		next := w.st.Next(&ev, true)
		if w.handshake && !w.asked && w.continueAsNewDue(ctx) {
			w.asked, ev.Continuing = true, true // a report that waits asks its section at once
		}
		if w.st.Event(&ev, acked, workflow.Now(ctx)) {
			w.closedSent = w.closedSent || ev.Closed
			w.send(ctx, ev)
			ev, acked = director.TableEvent{}, w.st.Acked
		} else if len(w.st.Undelivered) > 0 && w.sending == 0 {
			w.resend(ctx)
		}
		left := deadline.Sub(workflow.Now(ctx))
		// A table that waits for orders and has events for its host answers at once: the orders
		// it would wait for are its section's answer to them.
		if next.Directive != report.Wait || left <= 0 || w.mayEnd(ctx) || w.byHost && w.batchSize() > 0 && w.sending == 0 {
			return w.answer(ctx, next), nil
		}
		ok, err := w.wait.within(ctx, left, func() bool {
			return w.orders.Len() > 0 || w.st.Ready() || w.st.QuietOwed || w.mayEnd(ctx) || mine != w.latest
		})
		if ok || err != nil {
			w.timerCancelled = true // the wait's timer did not fire: cancelled in this task
		}
		if err != nil || !ok {
			return w.answer(ctx, next), nil
		}
	}
}

// send signals the tournament without waiting, and again while the signal fails (the tournament
// may be between two runs: continue-as-new): events carry sequence numbers, so neither a repeat
// nor the order of arrival matters.
//
// An event whose every attempt failed is kept (TableState.Undelivered) and goes again before the
// next one, so that the tournament, which takes each table's events in sequence, never waits on a
// gap.
//
// While the section has the table keep quiet (director.TableState.Silent) the events are kept
// there too, but the one that answers the section's Order.Quiet, which goes with those before it.
func (w *tableWorkflow) send(ctx workflow.Context, ev director.TableEvent) {
	ev.CanQuiet = w.quiets(ctx)
	ev.Replies = markerSet(ctx, &w.replies, ordersInReply)
	w.st.Undelivered = append(w.st.Undelivered, ev)
	if ev.Quiet == 0 {
		w.resend(ctx)
		return
	}
	w.deliver(ctx)
}

// quiets reports whether the run keeps quiet when its section asks (director.Order.Quiet):
// from version 1 of the marker sectionQuiet, asked the first time it is needed, since a
// report's handler may send the run's first event before the workflow function has got past
// its handlers (a run recorded before the marker replays without it).
func (w *tableWorkflow) quiets(ctx workflow.Context) bool {
	return markerSet(ctx, &w.quiet, sectionQuiet)
}

// markerSet reports whether the run has version 1 of marker, asking it the first time: seen is
// 0 until then, 1 when it has, -1 when it has not.
func markerSet(ctx workflow.Context, seen *int, marker string) bool {
	if *seen == 0 {
		*seen = -1
		if workflow.GetVersion(ctx, marker, workflow.DefaultVersion, 1) == 1 {
			*seen = 1
		}
	}
	return *seen > 0
}

// resend signals the events not yet delivered, unless the table keeps quiet.
func (w *tableWorkflow) resend(ctx workflow.Context) {
	if !w.st.Silent() {
		w.deliver(ctx)
	}
}

// deliver signals the events not yet delivered: from version 1 of the marker eventBatches as
// one batch, one signal at a time (deliverBatch); before, each in a signal and a goroutine of
// its own.
func (w *tableWorkflow) deliver(ctx workflow.Context) {
	if w.batches(ctx) {
		w.deliverBatch(ctx)
		return
	}
	events := w.st.Undelivered
	w.st.Undelivered = nil
	for _, ev := range events {
		w.sending++
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer func() { w.sending-- }()
			if !retrySignal(ctx, w.st.Tournament, TableEventSignal, ev, nil) {
				w.st.Undelivered = append(w.st.Undelivered, ev)
			}
		})
	}
}

// batches reports whether the run sends its events in batches (deliverBatch): from version 1 of
// the marker eventBatches, asked the first time it is needed (a report's handler may send the
// run's first event, as for quiets).
func (w *tableWorkflow) batches(ctx workflow.Context) bool {
	return markerSet(ctx, &w.batched, eventBatches)
}

// deliverBatch sends the events not yet delivered as one batch, at most maxEventBatch of them,
// with at most one batch on its way: the events that come while it is go in the next, once it is
// delivered. From version 1 of the marker eventUpdates a batch is an Update of the section's
// (ReportTableEvents), taken in by the section before the next goes, and the server has at most
// ten of the section's Updates in flight: what comes in to a section while one of its tasks runs
// is bounded by construction, however slow the task. Before it a batch was a signal
// (TableEventsSignal), which the server takes whatever the section is doing: each is an event
// that waits in the server's buffer while a task of the section's runs, and the server fails the
// task past 100 (ForceCloseCommand). A table signalling each event at once (before the marker
// eventBatches) had a burst of them come in as many signals, 95 from 32 tables during one
// section task of a minute under two test suites; in batches, 91 from 100 tables during one of
// a minute and a half.
//
// While the table keeps quiet only its answer to the section's Order.Quiet goes, with the
// events before it; a batch whose every attempt failed goes back in front of the rest.
func (w *tableWorkflow) deliverBatch(ctx workflow.Context) {
	if w.sending > 0 {
		return // the batch under way sends the rest after it
	}
	if w.byHost && w.reports > 0 {
		return // the report's answer hands them to its host (answer)
	}
	n := w.batchSize()
	if n == 0 {
		return
	}
	batch := slices.Clone(w.st.Undelivered[:n])
	w.st.Undelivered = slices.Delete(w.st.Undelivered, 0, n)
	updates := w.eventRoute(ctx) >= 1
	w.sending++
	workflow.Go(ctx, func(ctx workflow.Context) {
		var ok bool
		if updates {
			var orders []director.Order
			w.st.Replying = batch[len(batch)-1].Replies
			orders, ok = reportEvents(ctx, w.st.Tournament, batch)
			w.st.Replying = false
			if len(orders) > 0 {
				w.take(ctx, orders) // the section's answer: orders, as a signal brings them
			}
		} else {
			ok = retrySignal(ctx, w.st.Tournament, TableEventsSignal, batch, nil)
		}
		w.sending--
		if !ok {
			w.st.Undelivered = append(batch, w.st.Undelivered...)
			return
		}
		w.deliverBatch(ctx)
	})
}

// batchSize is how many of the undelivered events go in the next batch: at most maxEventBatch,
// and while the table keeps quiet only up to its answer to the section's Order.Quiet.
func (w *tableWorkflow) batchSize() int {
	n := len(w.st.Undelivered)
	if w.st.Silent() {
		n = 0
		for i, ev := range w.st.Undelivered {
			if ev.Quiet != 0 {
				n = i + 1
			}
		}
	}
	return min(n, maxEventBatch)
}

// eventRoute is the run's version of the marker eventUpdates, asked the first time it is needed
// (a report's handler may send the run's first event, as for quiets).
func (w *tableWorkflow) eventRoute(ctx workflow.Context) workflow.Version {
	if !w.updatingKnown {
		w.updating, w.updatingKnown = workflow.GetVersion(ctx, eventUpdates, workflow.DefaultVersion, eventsByHost), true
	}
	return w.updating
}

// heard takes in what a delivering host's report brings back of the batch the last answer
// handed it: the events its section took (dropped from those undelivered) and the orders it
// answered with, taken as the activity's answer is. Nothing else of that batch is on its way.
func (w *tableWorkflow) heard(ctx workflow.Context, req director.ReportRequest) {
	if req.Taken > 0 {
		k := 0
		for k < len(w.st.Undelivered) && w.st.Undelivered[k].Seq <= req.Taken {
			k++
		}
		w.st.Undelivered = slices.Delete(w.st.Undelivered, 0, k)
		if len(w.st.Undelivered) == 0 {
			w.st.Undelivered = nil
		}
	}
	if w.sending == 0 {
		w.st.Replying = false
	}
	if len(req.Replies) > 0 {
		w.take(ctx, req.Replies)
	}
}

// answer is a report's answer next, with the batch of undelivered events for a delivering host
// (byHost). A batch with the table's close, or the close itself, goes by the activity instead:
// the section deletes the table's host once it has the close, and the host may be gone before
// it sends anything. While the activity has a batch on its way the rest waits for it, as in
// deliverBatch.
func (w *tableWorkflow) answer(ctx workflow.Context, next report.State) director.ReportAnswer {
	ans := director.ReportAnswer{State: next}
	n := w.batchSize()
	if !w.byHost || n == 0 || w.sending > 0 {
		return ans
	}
	batch := slices.Clone(w.st.Undelivered[:n])
	if next.Directive == report.Close || slices.ContainsFunc(batch, func(ev director.TableEvent) bool { return ev.Closed }) {
		w.byHost = false
		w.deliverBatch(ctx)
		return ans
	}
	w.st.Replying = batch[n-1].Replies
	ans.Deliver = &director.EventDelivery{Section: w.st.Tournament, Events: batch}
	return ans
}

// reportEvents runs ReportTableEvents and reports whether the section took the batch in, with
// the orders it answered (for a batch that says the table takes them: TableEvent.Replies). The
// tries are those of a signal's (retrySignal); a section that is over takes nothing more, and
// the batch is kept, as one whose signal failed.
func reportEvents(ctx workflow.Context, section string, batch []director.TableEvent) ([]director.Order, bool) {
	actx := workflow.WithActivityOptions(ctx, reportOptions(0))
	f := workflow.ExecuteActivity(actx, ReportTableEventsActivity, section, batch)
	var orders []director.Order
	var err error
	if batch[len(batch)-1].Replies {
		err = f.Get(ctx, &orders)
	} else {
		err = f.Get(ctx, nil)
	}
	if err != nil {
		workflow.GetLogger(ctx).Warn("events not taken", "section", section, "events", len(batch), "error", err)
	}
	return orders, err == nil
}

// maxEventBatch bounds the events in one batch (Update or signal): about a kilobyte each at nine seats,
// far below the 512 KB at which the server warns of a payload.
const maxEventBatch = 64

// maxSignalAttempts bounds the attempts to signal a workflow that is gone for good (a tournament
// over); about three minutes of backoff. A workflow that may be gone (gone says so) gets three.
const maxSignalAttempts = 100

// retrySignal signals workflow id, retrying with backoff while it fails; it reports whether the
// signal went.
func retrySignal(ctx workflow.Context, id, name string, arg any, gone func() bool) bool {
	return retrySend(ctx, id, name, func(ctx workflow.Context) error {
		return workflow.SignalExternalWorkflow(ctx, id, "", name, arg).Get(ctx, nil)
	}, gone)
}

// retrySend sends signal name to workflow id by send, retrying with backoff while it fails; it
// reports whether the signal went.
func retrySend(ctx workflow.Context, id, name string, send func(workflow.Context) error, gone func() bool) bool {
	delay := 50 * time.Millisecond
	for k := 1; ; k++ {
		err := send(ctx)
		if err == nil {
			return true
		}
		attempts := maxSignalAttempts
		if gone != nil && gone() {
			attempts = 3
		}
		if k >= attempts || ctx.Err() != nil {
			workflow.GetLogger(ctx).Warn("signal not delivered", "workflow", id, "signal", name, "attempts", k, "error", err)
			return false
		}
		if workflow.Sleep(ctx, delay) != nil {
			return false
		}
		delay = min(2*delay, 2*time.Second)
	}
}

// flush waits for the signals sent, before the run ends.
func (w *tableWorkflow) flush(ctx workflow.Context) {
	_ = workflow.Await(ctx, func() bool { return w.sending == 0 })
}
