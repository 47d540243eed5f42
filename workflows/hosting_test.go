package workflows

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestTablesHostedAsTheyStart: a table's process starts as soon as its workflow has, with the
// tables whose start came in by then, not once every table of the section has started (at
// 10,000 entries the tables of sections 1 to 11 started dealing 40 to 60 s late, waiting for
// the last of their hundred children). Tables 1 and 2 start at once, table 3 a minute later:
// two CreateTables, the first before table 3 has started.
func TestTablesHostedAsTheyStart(t *testing.T) {
	env := newQuietEnv()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	spec := clockSpec()
	spec.PlayerCount = 27 // three tables
	hostAll := func(ctx workflow.Context) error {
		s, err := director.NewTournamentState("hosting", spec, 3, workflow.Now(ctx))
		if err != nil {
			return err
		}
		s.Pace = director.PaceHostEarly
		var starting []startingTable
		for id := floor.TableID(1); id <= 3; id++ {
			f, set := workflow.NewFuture(ctx)
			starting = append(starting, startingTable{id, f})
			workflow.Go(ctx, func(ctx workflow.Context) {
				if id == 3 {
					_ = workflow.Sleep(ctx, time.Minute)
				}
				set.Set(nil, nil)
			})
		}
		(&tournamentWorkflow{s: s}).hostAsTheyStart(ctx, starting)
		return nil
	}
	env.RegisterWorkflowWithOptions(hostAll, workflow.RegisterOptions{Name: "hostAll"})
	var created [][]string
	var at []time.Duration
	start := env.Now()
	env.RegisterActivityWithOptions(func(_ context.Context, hosts []HostedTable) error { return nil },
		activity.RegisterOptions{Name: CreateTablesActivity})
	env.OnActivity(CreateTablesActivity, mock.Anything, mock.Anything).Return(func(_ context.Context, hosts []HostedTable) error {
		var ids []string
		for _, h := range hosts {
			ids = append(ids, h.ID)
		}
		created = append(created, ids)
		at = append(at, env.Now().Sub(start))
		return nil
	})
	env.ExecuteWorkflow("hostAll")
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{director.TableWorkflowID("hosting", 1), director.TableWorkflowID("hosting", 2)}, {director.TableWorkflowID("hosting", 3)}}
	if !slices.EqualFunc(created, want, slices.Equal) {
		t.Fatalf("CreateTables hosted %v, expected %v (tables 1 and 2 at once, table 3 once it started)", created, want)
	}
	if len(at) != 2 || at[0] >= time.Minute {
		t.Errorf("CreateTables ran at %v after the start, expected the first before table 3 started (1m)", at)
	}
}
