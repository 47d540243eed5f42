package workflows

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestHostsCalledInBatches: from PaceHostBatch the tables to take down and to replace go to
// their hosts tablesPerHostCall to an activity and hostCallsInFlight activities at a time, the
// rest queued in the state (a section at 100,000 entries that replaced its silent tables one
// activity each had 92 activity events come in during one workflow task, and the server refused
// it past its 100 buffered events: ForceCloseCommand). Every table goes once; a table taken down
// is not replaced; the run's end drains the queues.
func TestHostsCalledInBatches(t *testing.T) {
	env := newQuietEnv()
	spec := clockSpec()
	spec.PlayerCount = 9 * 130
	type firstCall struct{ Calls, Deleting, Replacing int }
	hosts := func(ctx workflow.Context) (firstCall, error) {
		s, err := director.NewTournamentState("hosts", spec, 3, workflow.Now(ctx))
		if err != nil {
			return firstCall{}, err
		}
		if len(s.Tables) < 120 {
			return firstCall{}, nil
		}
		s.Pace = director.PaceHostBatch
		for id := floor.TableID(1); id <= 100; id++ {
			s.Table(id).Closed = true
			s.Deleting = append(s.Deleting, id)
		}
		s.Replacing = append(s.Replacing, 5) // closed and taken down: not replaced
		for id := floor.TableID(101); id <= 120; id++ {
			s.Replacing = append(s.Replacing, id)
		}
		w := &tournamentWorkflow{s: s}
		w.callHosts(ctx)
		first := firstCall{w.hostCalls, len(s.Deleting), len(s.Replacing)}
		if err := w.drainHosts(ctx); err != nil {
			return first, err
		}
		return first, workflow.Await(ctx, func() bool { return w.hostCalls == 0 })
	}
	env.RegisterWorkflowWithOptions(hosts, workflow.RegisterOptions{Name: "hosts"})
	var (
		mu                  sync.Mutex
		deleted, replaced   []string
		batches             []int
		inFlight, mostFlown int
	)
	call := func(ids []string, to *[]string) {
		mu.Lock()
		inFlight++
		mostFlown = max(mostFlown, inFlight)
		batches = append(batches, len(ids))
		*to = append(*to, ids...)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond) // long enough for the others to start, were they let
		mu.Lock()
		inFlight--
		mu.Unlock()
	}
	env.RegisterActivityWithOptions(func(context.Context, []string) error { return nil }, activity.RegisterOptions{Name: DeleteTablesActivity})
	env.RegisterActivityWithOptions(func(context.Context, []HostedTable) error { return nil }, activity.RegisterOptions{Name: ReplaceTablesActivity})
	env.OnActivity(DeleteTablesActivity, mock.Anything, mock.Anything).Return(func(_ context.Context, ids []string) error {
		call(ids, &deleted)
		return nil
	})
	env.OnActivity(ReplaceTablesActivity, mock.Anything, mock.Anything).Return(func(_ context.Context, ts []HostedTable) error {
		var ids []string
		for _, h := range ts {
			ids = append(ids, h.ID)
		}
		call(ids, &replaced)
		return nil
	})
	env.ExecuteWorkflow("hosts")
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var first firstCall
	if err := env.GetWorkflowResult(&first); err != nil {
		t.Fatal(err)
	}
	if first == (firstCall{}) {
		t.Fatalf("the spec for %d players seats fewer than 120 tables", spec.PlayerCount)
	}
	if want := (firstCall{Calls: hostCallsInFlight, Deleting: 100 - hostCallsInFlight*tablesPerHostCall, Replacing: 20}); first != want {
		t.Errorf("the first call had %+v under way and queued, expected %+v", first, want)
	}
	if mostFlown > hostCallsInFlight {
		t.Errorf("%d host activities ran at once, expected at most %d", mostFlown, hostCallsInFlight)
	}
	if slices.Max(batches) > tablesPerHostCall || len(batches) != 6 {
		t.Errorf("host activities took %v tables, expected 6 of at most %d", batches, tablesPerHostCall)
	}
	var wantDeleted, wantReplaced []string
	for id := floor.TableID(1); id <= 120; id++ {
		if id <= 100 {
			wantDeleted = append(wantDeleted, director.TableWorkflowID("hosts", id))
		} else {
			wantReplaced = append(wantReplaced, director.TableWorkflowID("hosts", id))
		}
	}
	slices.Sort(deleted)
	slices.Sort(replaced)
	slices.Sort(wantDeleted)
	slices.Sort(wantReplaced)
	if !slices.Equal(deleted, wantDeleted) {
		t.Errorf("deleted %d tables %v, expected tables 1 to 100 once each", len(deleted), deleted)
	}
	if !slices.Equal(replaced, wantReplaced) {
		t.Errorf("replaced %v, expected tables 101 to 120 once each (not table 5, taken down)", replaced)
	}
}
