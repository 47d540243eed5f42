package workflows

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// waitingWorkflow waits up to an hour for a "go" signal, with a waiter that cancels its timer or
// not, and ends.
func waitingWorkflow(ctx workflow.Context, cancels bool) (bool, error) {
	ch := workflow.GetSignalChannel(ctx, "go")
	return waiter(cancels).within(ctx, time.Hour, func() bool { return ch.Len() > 0 })
}

// TestWaitCancelsItsTimer: on a real server, a wait of an hour that a signal ends at once cancels
// its timer in the task the signal brought (TimerCanceled in the history) when the waiter
// cancels; the SDK's AwaitWithTimeout (a waiter that does not, as the runs recorded before the
// marker replay) leaves it running: the timer that fired during a table's continue-as-new.
func TestWaitCancelsItsTimer(t *testing.T) {
	srv := newTestServer(t)
	c := srv.GetDefaultClient()
	const queue = "waits"
	w := worker.New(c, queue, WorkerOptions(worker.Options{}))
	w.RegisterWorkflow(waitingWorkflow)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, cancels := range []bool{true, false} {
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{TaskQueue: queue}, waitingWorkflow, cancels)
		if err != nil {
			t.Fatal(err)
		}
		// The signal once the wait's timer has started.
		for timers(ctx, t, c, run)[enumspb.EVENT_TYPE_TIMER_STARTED] == 0 {
			select {
			case <-ctx.Done():
				t.Fatal("the wait's timer never started")
			case <-time.After(20 * time.Millisecond):
			}
		}
		if err := c.SignalWorkflow(ctx, run.GetID(), run.GetRunID(), "go", nil); err != nil {
			t.Fatal(err)
		}
		var ok bool
		if err := run.Get(ctx, &ok); err != nil || !ok {
			t.Fatalf("cancels %v: the wait answered %v, %v; want true, the signal came", cancels, ok, err)
		}
		n := timers(ctx, t, c, run)
		started, cancelled := n[enumspb.EVENT_TYPE_TIMER_STARTED], n[enumspb.EVENT_TYPE_TIMER_CANCELED]
		if cancels && (started != 1 || cancelled != 1) {
			t.Errorf("a waiter that cancels: %d timers started, %d cancelled; want 1 cancelled", started, cancelled)
		}
		if !cancels && (started != 1 || cancelled != 0) {
			t.Errorf("AwaitWithTimeout: %d timers started, %d cancelled; want 1 left running (if the SDK cancels it now, the waiter can go)", started, cancelled)
		}
	}
}

// timers counts the timer events of run's history by type.
func timers(ctx context.Context, t *testing.T, c client.Client, run client.WorkflowRun) map[enumspb.EventType]int {
	t.Helper()
	n := map[enumspb.EventType]int{}
	it := c.GetWorkflowHistory(ctx, run.GetID(), run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		n[ev.GetEventType()]++
	}
	return n
}
