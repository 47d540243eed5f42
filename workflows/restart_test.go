package workflows

import (
	"context"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"
)

// idleHost starts no table process: the tournament's clock runs with nobody dealing.
type idleHost struct{}

func (idleHost) CreateTable(context.Context, HostedTable) error { return nil }
func (idleHost) DeleteTable(context.Context, string) error      { return nil }

// TestClockKeepsScheduleAcrossWorkerRestart stops the only worker in the middle of level 1 and
// starts a new one, with an empty cache, after level 2 was due: the new worker rebuilds the
// tournament from its history (the level change it missed is made as soon as it runs), and every
// later level changes at the time the schedule gave at the start (B3). The whole history then
// replays without a nondeterminism error.
func TestClockKeepsScheduleAcrossWorkerRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	srv := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quietSDKLogger()}))
	c := srv.GetDefaultClient()
	register := func(r worker.Registry) { Register(r, idleHost{}) }
	w1 := srv.NewWorker(TaskQueue, register)

	spec := clockSpec()
	spec.Structure.Speed = 300 // a 10-minute level lasts 2 seconds, the break 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tour, err := StartTournament(ctx, c, "restart", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	w1.Stop()
	worker.PurgeStickyWorkflowCache()
	time.Sleep(2 * time.Second) // level 2 was due at 2 seconds
	srv.NewWorker(TaskQueue, register)
	time.Sleep(5500 * time.Millisecond) // to 8.5 seconds: level 4, the last, began at 7

	clock, err := tour.Clock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := time.Second
	want := []time.Duration{0, 2 * s, 4 * s, 5 * s, 7 * s}
	if len(clock.Changes) != len(want) {
		t.Fatalf("level changes %+v", clock.Changes)
	}
	for i, w := range want {
		got := clock.Changes[i].At.Sub(clock.Started)
		late := got - w
		// The change due while no worker ran is late by the outage; the others keep the schedule.
		tolerance := 400 * time.Millisecond
		if i == 1 {
			tolerance = 3 * s
		}
		if clock.Changes[i].Period != i || late < 0 || late > tolerance {
			t.Errorf("change %d: period %d at %v, scheduled at %v", i, clock.Changes[i].Period, got, w)
		}
	}
	if clock.State.Period != 4 {
		t.Errorf("clock now: %+v", clock.State)
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
	hist, err := historyOf(ctx, c, tour.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := replayer.ReplayWorkflowHistoryWithOptions(nil, hist, worker.ReplayWorkflowHistoryOptions{
		OriginalExecution: workflow.Execution{ID: tour.ID},
	}); err != nil {
		t.Fatalf("replay: %v", err)
	}
}

// historyOf fetches the history of a workflow's current run.
func historyOf(ctx context.Context, c client.Client, id string) (*historypb.History, error) {
	it := c.GetWorkflowHistory(ctx, id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
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
