package workflows

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// idleHost starts no table process: the tournament's clock runs with nobody dealing.
type idleHost struct{}

func (idleHost) CreateTable(context.Context, HostedTable) error  { return nil }
func (idleHost) DeleteTable(context.Context, string) error       { return nil }
func (idleHost) ReplaceTable(context.Context, HostedTable) error { return nil }

// idleServer starts a real Temporal server (temporaltest) with the package's two workers over
// idleHost, and returns its client: the tables' workflows run, their processes deal nothing.
func idleServer(t *testing.T) client.Client {
	srv := newTestServer(t)
	register := func(r worker.Registry) { Register(r, idleHost{}) }
	srv.NewWorkerWithOptions(TaskQueue, register, testWorkerOptions(worker.Options{}))
	srv.NewWorkerWithOptions(TableTaskQueue(TaskQueue), register, testWorkerOptions(worker.Options{}))
	return srv.GetDefaultClient()
}

// TestClockKeepsScheduleAcrossWorkerRestart stops the only worker in the middle of level 1 and
// starts a new one, with an empty cache, after level 2 was due: the new worker rebuilds the
// tournament from its history and makes the level change it missed in its first workflow task, and
// every timer the tournament ever started, before the outage or after it, aims at a time of the
// schedule the start gave (B3). The whole history then replays without a nondeterminism error.
//
// Nothing here depends on the machine's speed: the times compared are the server's own (the
// history's event times, which are workflow.Now), and the waits are lower bounds (the outage spans
// level 2's start) or polls with a deadline far beyond what a slow machine needs.
func TestClockKeepsScheduleAcrossWorkerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	srv := newTestServer(t)
	c := srv.GetDefaultClient()
	register := func(r worker.Registry) { Register(r, idleHost{}) }
	w1 := srv.NewWorkerWithOptions(TaskQueue, register, testWorkerOptions(worker.Options{}))
	srv.NewWorkerWithOptions(TableTaskQueue(TaskQueue), register, testWorkerOptions(worker.Options{})) // the tables keep theirs: the tournament's worker is the one restarted

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// The outage must begin before level 2 is due: on a machine too slow for that at one speed,
	// the test starts again at a slower one (the speed sets only how long it takes). It begins
	// when nothing is in flight (waitQuiet): a workflow task or an activity that the stopped
	// worker had taken is lost and runs again only after its timeout (StateTaskTimeout, two minutes),
	// past every level of the schedule. Should one be lost all the same, the test starts again.
	var (
		tour               *Tournament
		clock              ClockView
		schedule           []time.Duration
		lastEnds           time.Duration
		restart            time.Time
		speeds             = []int{150, 50, 15}
		lostTasks          = 0
		s                  = time.Second
		periodsAtSpeed150  = []time.Duration{0, 4 * s, 8 * s, 10 * s, 14 * s} // the start of each period
		lastEndsAtSpeed150 = 18 * s                                           // the last level's end: its timer finds nothing to change
	)
	for k := 0; ; k++ {
		speed := speeds[0]
		spec := clockSpec()
		spec.Structure.Speed = speed // at 150, a 10-minute level lasts 4 seconds, the break 2
		scale := func(d time.Duration) time.Duration { return d * 150 / time.Duration(speed) }
		schedule = nil
		for _, d := range periodsAtSpeed150 {
			schedule = append(schedule, scale(d))
		}
		lastEnds = scale(lastEndsAtSpeed150)
		var err error
		tour, err = StartTournament(ctx, c, fmt.Sprintf("restart-%d", k), "", spec)
		if err != nil {
			t.Fatal(err)
		}
		clock = waitClock(ctx, t, tour, func(v ClockView) bool { return len(v.Changes) >= 1 })
		waitQuiet(ctx, t, c, tour.ID)
		w1.Stop()
		worker.PurgeStickyWorkflowCache()
		if since := time.Since(clock.Started); since >= schedule[1] {
			if len(speeds) == 1 {
				t.Fatalf("the first worker ran until %v, past level 2's start at %v, at every speed: no outage to test", since, schedule[1])
			}
			t.Logf("at speed %v the first worker ran until %v, past level 2's start at %v: again, slower", speed, since, schedule[1])
			speeds = speeds[1:]
			if err := c.TerminateWorkflow(ctx, tour.ID, "", "the outage came too late"); err != nil {
				t.Fatal(err)
			}
			w1 = srv.NewWorkerWithOptions(TaskQueue, register, testWorkerOptions(worker.Options{}))
			continue
		}
		// The outage lasts until level 2 is due, and a while after.
		time.Sleep(time.Until(clock.Started.Add(schedule[1] + schedule[1]/4)))
		restart = time.Now()
		w1 = srv.NewWorkerWithOptions(TaskQueue, register, testWorkerOptions(worker.Options{}))
		clock = waitClock(ctx, t, tour, func(v ClockView) bool { return v.State.Period == 4 })
		hist, err := historyOf(ctx, c, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		if lost := timedOutTasks(hist); lost > 0 && lostTasks < 2 {
			lostTasks++
			t.Logf("the stopped worker lost %d workflow tasks in flight, which timed out: again", lost)
			if err := c.TerminateWorkflow(ctx, tour.ID, "", "a task was lost at the outage"); err != nil {
				t.Fatal(err)
			}
			continue
		}
		break
	}

	if len(clock.Changes) != len(schedule) {
		t.Fatalf("level changes %+v", clock.Changes)
	}
	hist, err := historyOf(ctx, c, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Every timer aims at the end of a period of the schedule, counted from the start: none drifts
	// with the outage or with a late task.
	var taskStarted time.Time
	aimed := map[time.Duration]int{}
	var tasksAfterRestart []time.Time
	for _, ev := range hist.GetEvents() {
		at := ev.GetEventTime().AsTime()
		switch ev.GetEventType() {
		case enums.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			taskStarted = at // workflow.Now in the task
			if !at.Before(restart) {
				tasksAfterRestart = append(tasksAfterRestart, at)
			}
		case enums.EVENT_TYPE_TIMER_STARTED:
			fire := taskStarted.Add(ev.GetTimerStartedEventAttributes().GetStartToFireTimeout().AsDuration()).Sub(clock.Started)
			if !slices.Contains(schedule[1:], fire) && fire != lastEnds {
				t.Errorf("a timer aims at %v from the start, not at a period of the schedule %v", fire, schedule[1:])
			}
			aimed[fire]++
		}
	}
	for _, at := range schedule[1:] {
		if aimed[at] == 0 {
			t.Errorf("no timer aimed at the period starting at %v", at)
		}
	}
	for i, ch := range clock.Changes {
		late := ch.At.Sub(clock.Started) - schedule[i]
		if ch.Period != i || late < 0 {
			t.Errorf("change %d: period %d at %v, scheduled at %v", i, ch.Period, ch.At.Sub(clock.Started), schedule[i])
		}
	}
	// Level 2, due while no worker ran, changed in the new worker's first workflow task.
	if len(tasksAfterRestart) == 0 || !clock.Changes[1].At.Equal(tasksAfterRestart[0]) {
		t.Errorf("level 2 changed at %v, the new worker's first task ran at %v", clock.Changes[1].At, tasksAfterRestart)
	}
	if err := c.CancelWorkflow(ctx, tour.ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := tour.Result(ctx); err == nil {
		t.Fatal("a cancelled tournament returned a result")
	}

	// Replay the whole history (every run) from the server.
	replayer := worker.NewWorkflowReplayer()
	replayer.RegisterWorkflow(TournamentWorkflow)
	replayer.RegisterWorkflow(TableWorkflow)
	hist, err = historyOf(ctx, c, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := replayer.ReplayWorkflowHistoryWithOptions(nil, hist, worker.ReplayWorkflowHistoryOptions{
		OriginalExecution: workflow.Execution{ID: tour.ID},
	}); err != nil {
		dumpFailures(t, c, tour.ID)
		t.Fatalf("replay: %v", err)
	}
}

// waitQuiet waits until the workflow id and its running children have nothing in flight: no
// workflow task scheduled or started, no activity, no signal sent and not yet delivered. Only
// ctx's deadline ends the wait.
func waitQuiet(ctx context.Context, t *testing.T, c client.Client, id string) {
	t.Helper()
	quiet := func(id string) ([]string, bool) {
		d, err := c.DescribeWorkflowExecution(ctx, id, "")
		if err != nil || d.GetPendingWorkflowTask() != nil || len(d.GetPendingActivities()) > 0 {
			return nil, false
		}
		hist, err := historyOf(ctx, c, id)
		if err != nil {
			return nil, false
		}
		sent := 0
		for _, ev := range hist.GetEvents() {
			switch ev.GetEventType() {
			case enums.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
				sent++
			case enums.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, enums.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED:
				sent--
			}
		}
		var children []string
		for _, ch := range d.GetPendingChildren() {
			children = append(children, ch.GetWorkflowId())
		}
		return children, sent == 0
	}
	for {
		children, ok := quiet(id)
		for _, ch := range children {
			if _, q := quiet(ch); !q {
				ok = false
			}
		}
		// Twice in a row, so that nothing started between the first look at the tournament and the
		// last at a table.
		if ok {
			if _, again := quiet(id); again {
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("%s never went quiet: %v", id, ctx.Err())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// timedOutTasks counts the workflow tasks of a history that timed out.
func timedOutTasks(hist *historypb.History) int {
	n := 0
	for _, ev := range hist.GetEvents() {
		if ev.GetEventType() == enums.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT {
			n++
		}
	}
	return n
}

// waitClock polls the tournament's clock until done holds; only ctx's deadline ends the wait.
func waitClock(ctx context.Context, t *testing.T, tour *Tournament, done func(ClockView) bool) ClockView {
	t.Helper()
	for {
		v, err := tour.Clock(ctx)
		if err == nil && done(v) {
			return v
		}
		if ctx.Err() != nil {
			t.Fatalf("clock %+v, %v: %v", v, err, ctx.Err())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// historyOf fetches the history of a workflow's current run.
func historyOf(ctx context.Context, c client.Client, id string) (*historypb.History, error) {
	return runHistory(ctx, c, id, "")
}

// runHistory fetches the history of one run of a workflow ("": its current run).
func runHistory(ctx context.Context, c client.Client, id, run string) (*historypb.History, error) {
	it := c.GetWorkflowHistory(ctx, id, run, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, err
		}
		h.Events = append(h.Events, ev)
	}
	return h, nil
}
