package workflows

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSectionsStartFortyAtATime starts a tournament of 45 sections (405 entries, a table each)
// on a real Temporal server and reads the tournament's history: at most sectionsStarting (40) of
// its sections' starts are under way at once, each start's completion being an event that comes
// in during whatever task the tournament runs (the server fails a task past 100 of them; 52 came
// in during one at 100,000 entries, when the 112 sections were started at once), and every
// section starts. Then a pause orders every section, at most signalsInFlight signals at once.
func TestSectionsStartFortyAtATime(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c := idleServer(t) // the tables deal nothing
	spec := clockSpec()
	spec.Name, spec.PlayerCount, spec.Players, spec.SectionTables = "starts", 405, nil, 1
	const sections = 45
	if tables := floor.TableCount(spec.PlayerCount, spec.TableSize); tables != sections || sections <= sectionsStarting {
		t.Fatalf("%d tables: expected %d sections, more than %d", tables, sections, sectionsStarting)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tour, err := StartTournament(ctx, c, spec.Name, "", spec)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.CancelWorkflow(context.Background(), tour.ID, "") }()
	for {
		h, err := historyOf(ctx, c, tour.ID)
		if err != nil {
			t.Fatal(err)
		}
		started := 0
		for _, ev := range h.Events {
			if ev.GetEventType() == enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED {
				started++
			}
		}
		if started == sections {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d of the %d sections started: %v", started, sections, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
	l, err := limitsOf(ctx, c, tour.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if l.starts > sectionsStarting || l.starts == 0 {
		t.Errorf("%d sections' starts under way at once, expected between 1 and %d", l.starts, sectionsStarting)
	}
	if l.taskFailed > 0 {
		t.Errorf("%d of the tournament's tasks failed (the last: %s)", l.taskFailed, l.failure)
	}

	// A pause is an order to every section: at most signalsInFlight of their signals are on their
	// way at once (director.PlanSignalCap), each delivery an event that comes in during whatever
	// task the tournament runs, and every section gets its order.
	if _, err := tour.ClockAction(ctx, ClockRequest{Kind: floor.ClockPause, By: "td", Reason: "the signal cap"}); err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= sections; k++ {
		id := director.SectionWorkflowID(tour.ID, k)
		for !signalled(ctx, t, c, id, SectionOrdersSignal) {
			select {
			case <-ctx.Done():
				t.Fatalf("section %d got no order: %v", k, ctx.Err())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	if l, err = limitsOf(ctx, c, tour.ID, ""); err != nil {
		t.Fatal(err)
	}
	if l.signals > signalsInFlight || l.signals == 0 {
		t.Errorf("%d order signals to the sections on their way at once, expected between 1 and %d", l.signals, signalsInFlight)
	}
	if l.taskFailed > 0 {
		t.Errorf("%d of the tournament's tasks failed (the last: %s)", l.taskFailed, l.failure)
	}
}

// signalled reports whether workflow id's current run has taken a signal of that name.
func signalled(ctx context.Context, t *testing.T, c client.Client, id, name string) bool {
	h, err := historyOf(ctx, c, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range h.Events {
		if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a != nil && a.GetSignalName() == name {
			return true
		}
	}
	return false
}
