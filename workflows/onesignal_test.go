package workflows

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestOneOrderSignalOnItsWay plays a simulation of 180 entries in five sections of four tables
// to the end on a real Temporal server and reads every run of every table from the server's
// history: from director.PaceOneSignal a section signals orders to a table only once its last
// signal to that table has been delivered (what is queued meanwhile goes in the next one), so
// that no table gets its orders out of sequence and is sent them all again for the gap
// (director.MergeOutbox): every signal of orders a table takes starts at most one past the last
// order it had (a run continued as new may be sent again what it had). From
// director.PaceOrdersInReply orders also come as the section's answer to the table's events
// (the result of its ReportTableEvents activity), which must follow on in sequence too; a signal
// sent after such an answer may come while the answer is still on its way (counted, not a
// failure: the table does not tell that gap, director.TableState.Replying). The tables'
// histories are read: they have every signal, whichever way it was sent. It also counts the
// level orders among them, which a simulation's tables do not apply (they keep the schedule by
// their own hands: docs/design.md).
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
	_, res := playOut(ctx, t, c, spec.Name, spec)
	if len(res.Places) != spec.PlayerCount {
		t.Fatalf("%d places for %d entries", len(res.Places), spec.PlayerCount)
	}
	tables, err := workflowIDsOfType(ctx, c, "TableWorkflow")
	if err != nil {
		t.Fatal(err)
	}
	signals, gaps, runs, levels, replies, crossed := 0, 0, 0, 0, 0, 0
	dc := converter.GetDefaultDataConverter()
	for _, id := range tables {
		histories, err := historiesOf(ctx, c, id)
		if err != nil {
			t.Fatal(err)
		}
		last := 0 // the last order the table had, over its runs from the first
		took := func(orders []director.Order) {
			for _, o := range orders {
				last = max(last, o.Seq)
				if o.Level != nil {
					levels++
				}
			}
		}
		for _, h := range slices.Backward(histories) {
			runs++
			asking := map[int64]bool{} // the run's Updates of events under way (ReportTableEvents), by scheduled event
			// From the table's eventsByHost a report's answer may hand its host a batch
			// (director.ReportAnswer.Deliver), whose answer comes back in the host's next report
			// (director.ReportRequest.Replies): under way from the one to the other.
			withHost := false
			for _, ev := range h.Events {
				if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == ReportTableEventsActivity {
					asking[ev.GetEventId()] = true
				}
				var answer *commonpb.Payloads
				if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && asking[a.GetScheduledEventId()] {
					delete(asking, a.GetScheduledEventId())
					answer = a.GetResult()
				}
				if a := ev.GetWorkflowExecutionUpdateCompletedEventAttributes(); a != nil {
					var ans director.ReportAnswer
					if p := a.GetOutcome().GetSuccess(); p != nil && dc.FromPayloads(p, &ans) == nil && ans.Deliver != nil {
						withHost = true
					}
				}
				if a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil && a.GetAcceptedRequest().GetInput().GetName() == ReportUpdate {
					var req director.ReportRequest
					if err := dc.FromPayloads(a.GetAcceptedRequest().GetInput().GetArgs(), &req); err != nil {
						t.Fatalf("%s event %d: a report: %v", id, ev.GetEventId(), err)
					}
					if req.Delivers {
						withHost = false
						replies, err := dc.ToPayloads(req.Replies)
						if err != nil {
							t.Fatal(err)
						}
						answer = replies
					}
				}
				if answer != nil {
					var orders []director.Order
					if err := dc.FromPayloads(answer, &orders); err != nil {
						t.Fatalf("%s event %d: the section's answer: %v", id, ev.GetEventId(), err)
					}
					if len(orders) > 0 {
						replies++
						if orders[0].Seq > last+1 {
							gaps++
							t.Errorf("%s event %d: orders from %d in the section's answer while the table had up to %d: out of sequence", id, ev.GetEventId(), orders[0].Seq, last)
						}
					}
					took(orders)
				}
				for _, e := range []int64{ev.GetActivityTaskFailedEventAttributes().GetScheduledEventId(), ev.GetActivityTaskTimedOutEventAttributes().GetScheduledEventId(), ev.GetActivityTaskCanceledEventAttributes().GetScheduledEventId()} {
					delete(asking, e)
				}
				a := ev.GetWorkflowExecutionSignaledEventAttributes()
				if a.GetSignalName() != OrdersSignal {
					continue
				}
				signals++
				var orders []director.Order
				if err := dc.FromPayloads(a.GetInput(), &orders); err != nil {
					t.Fatalf("%s event %d: orders: %v", id, ev.GetEventId(), err)
				}
				switch {
				case len(orders) == 0 || orders[0].Seq <= last+1:
				case len(asking) > 0 || withHost:
					crossed++ // the orders before it may be in the answer on its way
				default:
					gaps++
					if gaps <= 5 {
						t.Errorf("%s event %d: orders from %d while the table had up to %d: out of sequence", id, ev.GetEventId(), orders[0].Seq, last)
					}
				}
				took(orders)
			}
		}
	}
	if signals == 0 || replies == 0 || len(tables) < 20 {
		t.Fatalf("%d signals of orders and %d answers with orders to %d tables: the check saw nothing", signals, replies, len(tables))
	}
	if gaps > 0 {
		t.Errorf("%d of %d order signals and %d answers came to a table out of sequence (pace %d)", gaps, signals, replies, director.PaceLatest)
	}
	t.Logf("%d order signals and %d answers with orders in %d runs of %d tables, %d out of sequence, %d signals past an answer on its way, %d level orders",
		signals, replies, runs, len(tables), gaps, crossed, levels)
}

// workflowIDsOfType lists the IDs of the workflows of type kind (visibility), each once.
func workflowIDsOfType(ctx context.Context, c client.Client, kind string) ([]string, error) {
	var ids []string
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowType = '%s'", kind), NextPageToken: token})
		if err != nil {
			return nil, err
		}
		for _, e := range resp.GetExecutions() {
			ids = append(ids, e.GetExecution().GetWorkflowId())
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
