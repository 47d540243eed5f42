package workflows

import (
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
	if err := workflow.SetUpdateHandlerWithOptions(ctx, ReportUpdate, w.report, workflow.UpdateHandlerOptions{
		Validator: w.validate,
	}); err != nil {
		return err
	}
	for {
		err := workflow.Await(ctx, func() bool {
			return w.orders.Len() > 0 || (w.st.Closed() || w.continueAsNewDue(ctx)) && w.reports == 0
		})
		if err != nil {
			return err
		}
		drain(w.orders, w.st)
		if w.reports > 0 || !w.st.Closed() && !w.continueAsNewDue(ctx) {
			continue
		}
		if w.st.Closed() {
			if w.closedSent {
				w.flush(ctx)
				return nil
			}
			// Nobody is dealing (no report in flight): the last orders apply now.
			var ev director.TableEvent
			acked := w.st.Acked
			w.st.ApplyOrders(&ev)
			ev.Closed = true
			w.st.Event(&ev, acked, workflow.Now(ctx))
			w.send(ctx, ev)
			w.flush(ctx)
			return nil
		}
		w.flush(ctx) // yields: a report may have come in, and orders
		if w.reports > 0 || w.orders.Len() > 0 {
			continue
		}
		// Nothing yields between the last look at the channel and the end of the run.
		return workflow.NewContinueAsNewError(ctx, TableWorkflow, *w.st)
	}
}

// drain takes in the orders waiting in the channel.
func drain(orders workflow.ReceiveChannel, st *director.TableState) {
	for {
		var batch []director.Order
		if !orders.ReceiveAsync(&batch) {
			return
		}
		st.AddOrders(batch)
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
	// closedSent: the table closed itself (the last table, R5) and said so in a report's event.
	closedSent bool
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
func (w *tableWorkflow) report(ctx workflow.Context, req director.ReportRequest) (report.State, error) {
	w.reports++
	defer func() { w.reports-- }()
	w.latest++
	mine := w.latest
	var ev director.TableEvent
	acked := w.st.Acked
	if !w.st.Closing {
		if err := w.st.ApplyResults(req.Results, &ev); err != nil {
			return report.State{}, err // the validator let it through: a bug, not a bad report
		}
	}
	deadline := workflow.Now(ctx).Add(w.st.MaxWait)
	for {
		if mine != w.latest {
			return report.State{}, temporal.NewNonRetryableApplicationError(
				"a newer report from the table's new host supersedes this one", supersededErrorType, nil)
		}
		drain(w.orders, w.st)
		w.st.ApplyOrders(&ev)
		next := w.st.Next(&ev, true)
		if w.st.Event(&ev, acked, workflow.Now(ctx)) {
			w.closedSent = w.closedSent || ev.Closed
			w.send(ctx, ev)
			ev, acked = director.TableEvent{}, w.st.Acked
		} else if len(w.st.Undelivered) > 0 && w.sending == 0 {
			w.resend(ctx)
		}
		left := deadline.Sub(workflow.Now(ctx))
		if next.Directive != report.Wait || left <= 0 || w.continueAsNewDue(ctx) {
			return next, nil
		}
		ok, err := workflow.AwaitWithTimeout(ctx, left, func() bool {
			return w.orders.Len() > 0 || w.st.Ready() || w.continueAsNewDue(ctx) || mine != w.latest
		})
		if err != nil {
			return next, nil
		}
		if !ok {
			return next, nil
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
func (w *tableWorkflow) send(ctx workflow.Context, ev director.TableEvent) {
	w.st.Undelivered = append(w.st.Undelivered, ev)
	w.resend(ctx)
}

// resend signals the events not yet delivered, each in a goroutine of its own.
func (w *tableWorkflow) resend(ctx workflow.Context) {
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

// maxSignalAttempts bounds the attempts to signal a workflow that is gone for good (a tournament
// over); about three minutes of backoff. A workflow that may be gone (gone says so) gets three.
const maxSignalAttempts = 100

// retrySignal signals workflow id, retrying with backoff while it fails; it reports whether the
// signal went.
func retrySignal(ctx workflow.Context, id, name string, arg any, gone func() bool) bool {
	delay := 50 * time.Millisecond
	for k := 1; ; k++ {
		err := workflow.SignalExternalWorkflow(ctx, id, "", name, arg).Get(ctx, nil)
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
