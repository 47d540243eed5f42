package workflows

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// busyTasks counts the workflow tasks busyWorkflow ran, replays included.
var busyTasks atomic.Int64

// busyWorkflow computes for a while (the same hashes every time: deterministic) in each task a
// "poke" signal brings; the test pokes it without pause, so that a task of its is always waiting.
func busyWorkflow(ctx workflow.Context) error {
	pokes := workflow.GetSignalChannel(ctx, "poke")
	for {
		pokes.Receive(ctx, nil)
		for pokes.ReceiveAsync(nil) {
		}
		busyTasks.Add(1)
		sum := sha256.Sum256([]byte("busy"))
		for range 20000 {
			sum = sha256.Sum256(sum[:])
		}
	}
}

// firstTaskWorkflow is done in its first task, which is on the task queue, never a sticky one.
func firstTaskWorkflow(workflow.Context) (string, error) { return "started", nil }

// TestWorkerStartsFirstTaskBehindStickyBacklog: a worker with WorkerOptions' pollers starts a new
// workflow (its first task on the normal task queue) while its sticky queue has a backlog that
// never drains. The worker has two task slots and eight busy workflows, each signalled without
// pause, so each has a task waiting as soon as its last one ends and the sticky queue is never
// empty once they run. The SDK's default "Mixed" pollers poll only the sticky queue while the server
// reports a backlog there: with MaxConcurrentWorkflowTaskPollers: 2 instead of WorkerOptions'
// pollers this test waits out its deadline (the tables' stall at 10,000 entries, docs/design.md).
// The deadline is far beyond the time the task takes (milliseconds): it only ends a starved wait.
func TestWorkerStartsFirstTaskBehindStickyBacklog(t *testing.T) {
	srv := newTestServer(t)
	c := srv.GetDefaultClient()
	const queue = "saturated"
	w := worker.New(c, queue, WorkerOptions(worker.Options{MaxConcurrentWorkflowTaskExecutionSize: 2}))
	w.RegisterWorkflow(busyWorkflow)
	w.RegisterWorkflow(firstTaskWorkflow)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	const busy = 8
	for i := range busy {
		id := fmt.Sprintf("busy-%d", i)
		if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: queue}, busyWorkflow); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = c.TerminateWorkflow(context.Background(), id, "", "test over") }()
		go func() {
			for ctx.Err() == nil {
				_ = c.SignalWorkflow(ctx, id, "", "poke", nil)
			}
		}()
	}
	// Every busy workflow has run tasks (its later ones on the sticky queue) before the new one
	// starts.
	for busyTasks.Load() < 4*busy {
		if ctx.Err() != nil {
			t.Fatalf("the busy workflows ran %d tasks before the deadline", busyTasks.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := busyTasks.Load()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "first-task", TaskQueue: queue}, firstTaskWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		t.Fatalf("the workflow whose first task is on the task queue did not run beside a sticky backlog: %v", err)
	}
	t.Logf("started behind %d busy workflows on 2 task slots; they ran %d tasks meanwhile", busy, busyTasks.Load()-before)
}

// TestWorkflowCacheHoldsATournament: the worker's cache holds every run of a tournament with room
// to spare (its tables, sections and itself), never below the SDK's default.
func TestWorkflowCacheHoldsATournament(t *testing.T) {
	for _, c := range []struct{ players, size, want int }{
		{180, 9, 10_000},
		{100_000, 9, 14_031}, // 11,112 tables, 112 sections, the tournament: 11,225 runs
		{100_000, 6, 21_043}, // 16,667 tables
	} {
		if got := WorkflowCacheFor(c.players, c.size); got != c.want {
			t.Errorf("%d players at %d: a cache of %d, want %d", c.players, c.size, got, c.want)
		}
	}
}
