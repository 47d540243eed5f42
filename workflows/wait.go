package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"
)

// awaitTimersMarker is the version marker from which this package's waits with a timeout cancel
// their timer once their condition holds (waiter).
const awaitTimersMarker = "await-timers"

// waiter waits with a timeout. Set (each run reads the marker at its start, newWaiter), it cancels
// the wait's timer as soon as the condition holds; unset, it is the SDK's AwaitWithTimeout, as
// the runs recorded before the marker replay. The SDK's AwaitWithTimeout leaves its timer running
// to its end (v1.50.0: its SDKFlagCancelAwaitTimerOnCondition is off), so a report's wait of
// 20 s that ended at once still fired 20 s later: when that was during the task that continued
// the run as new, the server refused the task for the TimerFired that came in (UnhandledCommand:
// three tables' runs in one run of the 100,000 test, one in another).
type waiter bool

// newWaiter reads the marker (once a run, at its start).
func newWaiter(ctx workflow.Context) waiter {
	return workflow.GetVersion(ctx, awaitTimersMarker, workflow.DefaultVersion, 1) == 1
}

// within blocks until cond holds (true) or d has passed (false); err is the context's error.
// A cancelled timer's CancelTimer command goes with the task in which cond came to hold.
func (cancels waiter) within(ctx workflow.Context, d time.Duration, cond func() bool) (bool, error) {
	if !cancels {
		return workflow.AwaitWithTimeout(ctx, d, cond)
	}
	if cond() {
		return true, nil
	}
	tctx, stop := workflow.WithCancel(ctx)
	defer stop()
	timer := workflow.NewTimer(tctx, d)
	if err := workflow.Await(ctx, func() bool { return cond() || timer.IsReady() }); err != nil {
		return false, err
	}
	return cond(), nil
}
