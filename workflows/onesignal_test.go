package workflows

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestOneOrderSignalOnItsWay plays a simulation of 180 entries in five sections of four tables
// to the end on a real Temporal server and reads every run of every section from the server's
// history: from director.PaceOneSignal a section signals orders to a table only once its last
// signal to that table has been delivered (what is queued meanwhile goes in the next one), so
// that no table gets its orders out of sequence and is sent them all again for the gap
// (director.MergeOutbox). It also counts the level orders among them, which a simulation's
// tables do not apply (they keep the schedule by their own hands: docs/design.md).
func TestOneOrderSignalOnItsWay(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c, _, _ := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{Name: "one-signal", PlayerCount: 180, TableSize: 9, Structure: turbo, Seed: 5, Simulation: true,
		SectionTables: 4, BuyIn: 1100, Fee: 100}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	tour, res := playOut(ctx, t, c, spec.Name, spec)
	if len(res.Places) != spec.PlayerCount {
		t.Fatalf("%d places for %d entries", len(res.Places), spec.PlayerCount)
	}
	signals, overlaps, runs, levels := 0, 0, 0, 0
	dc := converter.GetDefaultDataConverter()
	for _, id := range sectionIDs(tour.ID, 5) {
		histories, err := historiesOf(ctx, c, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range histories {
			runs++
			onWay := map[string]int{}    // a table's workflow ID: its order signals not yet delivered
			target := map[int64]string{} // an initiating event's ID: the table it signals
			for _, ev := range h.Events {
				switch ev.GetEventType() {
				case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
					a := ev.GetSignalExternalWorkflowExecutionInitiatedEventAttributes()
					if a.GetSignalName() != OrdersSignal {
						continue
					}
					to := a.GetWorkflowExecution().GetWorkflowId()
					signals++
					var orders []director.Order
					if err := dc.FromPayloads(a.GetInput(), &orders); err != nil {
						t.Fatalf("%s event %d: orders to %s: %v", id, ev.GetEventId(), to, err)
					}
					for _, o := range orders {
						if o.Level != nil {
							levels++
						}
					}
					if onWay[to] > 0 {
						overlaps++
						if overlaps <= 5 {
							t.Errorf("%s event %d: orders signalled to %s while %d signal(s) to it were on their way", id, ev.GetEventId(), to, onWay[to])
						}
					}
					onWay[to]++
					target[ev.GetEventId()] = to
				case enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED:
					onWay[target[ev.GetExternalWorkflowExecutionSignaledEventAttributes().GetInitiatedEventId()]]--
				case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED:
					onWay[target[ev.GetSignalExternalWorkflowExecutionFailedEventAttributes().GetInitiatedEventId()]]--
				}
			}
		}
	}
	if signals == 0 {
		t.Fatal("no section signalled any orders: the check saw nothing")
	}
	if overlaps > 0 {
		t.Errorf("%d of %d order signals went to a table with another on its way (pace %d)", overlaps, signals, director.PaceLatest)
	}
	t.Logf("%d order signals in %d section runs, %d while another to the same table was on its way, %d level orders", signals, runs, overlaps, levels)
}
