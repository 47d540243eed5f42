package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// describeSections logs what a tournament of sections says of itself and what each of its
// sections says: the counts the tournament holds, its held busts and the players between
// sections, each section's phase, orders and last event, and in each section its tables (hands,
// seats, pending orders, credit, closing) and players on the move. A test that fails or stalls
// calls it, so that its log explains where the tournament stood. It uses a context of its own:
// the test's may be over.
func describeSections(t *testing.T, c client.Client, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := c.QueryWorkflow(ctx, id, "", StateQuery)
	var top director.TopState
	if err == nil {
		err = v.Get(&top)
	}
	if err != nil {
		t.Logf("the state of %s: %v", id, err)
		return
	}
	h := top.HandForHand
	t.Logf("%s: left %d, finished %v, period %d, paused %v, pool final %v, held %d groups, in transit %+v, places %d kept, %d written, %d unwritten; hand-for-hand on %v open %v round %d participants %v group %d",
		id, top.Left, top.Finished, top.Period, top.Paused, top.PoolFinal, len(top.Held), top.InTransit, len(top.Places), top.Written, len(top.Unwritten),
		h.On, h.Open, h.Round, h.Participants, len(h.Group))
	for _, e := range top.ChipErrors {
		t.Logf("  error: %s", e)
	}
	for _, r := range top.Sections {
		l := r.Last
		t.Logf("  section %d (%s): %s; orders sent %d, acked %d, pending %v; events taken %d; last: players %d tables %d chips %d settled %v median hands %d round done %d last %q closed %v withdrawing %d",
			r.Number, r.WorkflowID, r.Phase, r.Orders.Sent, r.Orders.Acked, r.Orders.Pending(), r.Events.Last,
			l.Players, l.Tables, l.Chips, l.Settled, l.MedianHands, l.RoundDone, l.Last, l.Closed, l.Withdrawing)
		if r.Phase == director.SectionClosed {
			continue
		}
		v, err := c.QueryWorkflow(ctx, r.WorkflowID, "", StateQuery)
		var st director.TournamentState
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Logf("    its state: %v", err)
			continue
		}
		describeSection(t, &st)
		logTimeline(ctx, t, c, r.WorkflowID, timelineEvents)
		for _, tb := range st.Tables {
			if !tb.Closed {
				describeTable(ctx, t, c, tb.WorkflowID)
				logTimeline(ctx, t, c, tb.WorkflowID, timelineEvents)
			}
		}
	}
}

// timelineEvents is how many of a run's last events logTimeline logs.
const timelineEvents = 40

// logTimeline logs the last n events of workflow id's latest run, one line each (time, ID, type,
// and the name of its activity, signal, timer or Update): what a failure on CI leaves to read
// when no history is kept.
func logTimeline(ctx context.Context, t *testing.T, c client.Client, id string, n int) {
	t.Helper()
	h, err := runHistory(ctx, c, id, "")
	if err != nil {
		t.Logf("      the history of %s: %v", id, err)
		return
	}
	events := h.Events
	if len(events) > n {
		events = events[len(events)-n:]
	}
	t.Logf("      %s: the last %d of %d events", id, len(events), len(h.Events))
	for _, ev := range events {
		var name string
		switch {
		case ev.GetActivityTaskScheduledEventAttributes() != nil:
			name = ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName()
		case ev.GetWorkflowExecutionSignaledEventAttributes() != nil:
			name = ev.GetWorkflowExecutionSignaledEventAttributes().GetSignalName()
		case ev.GetSignalExternalWorkflowExecutionInitiatedEventAttributes() != nil:
			a := ev.GetSignalExternalWorkflowExecutionInitiatedEventAttributes()
			name = a.GetSignalName() + " to " + a.GetWorkflowExecution().GetWorkflowId()
		case ev.GetWorkflowExecutionUpdateAcceptedEventAttributes() != nil:
			name = ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest().GetInput().GetName()
		case ev.GetTimerStartedEventAttributes() != nil:
			name = ev.GetTimerStartedEventAttributes().GetStartToFireTimeout().AsDuration().String()
		case ev.GetActivityTaskFailedEventAttributes() != nil:
			name = ev.GetActivityTaskFailedEventAttributes().GetFailure().GetMessage()
		case ev.GetWorkflowTaskFailedEventAttributes() != nil:
			name = ev.GetWorkflowTaskFailedEventAttributes().GetCause().String()
		case ev.GetWorkflowTaskTimedOutEventAttributes() != nil:
			name = ev.GetWorkflowTaskTimedOutEventAttributes().GetTimeoutType().String()
		}
		t.Logf("        %s #%d %s %s", ev.GetEventTime().AsTime().UTC().Format("15:04:05.000"), ev.GetEventId(),
			strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_"), name)
	}
}

// describeTable logs what a table's workflow says of itself: the orders it applied and the
// events it has not yet delivered (a section's record says what the section heard).
func describeTable(ctx context.Context, t *testing.T, c client.Client, id string) {
	t.Helper()
	ts, err := queryTableState(ctx, c, id)
	if err != nil {
		t.Logf("      table %s: %v", id, err)
		return
	}
	var undelivered []int
	for _, ev := range ts.Undelivered {
		undelivered = append(undelivered, ev.Seq)
	}
	t.Logf("      table %s says: hand %d, orders acked %d, pending %d, events %d (undelivered %v), quiet %d owed %v, closing %v, last event at %s",
		id, ts.HandNumber, ts.Acked, len(ts.Pending), ts.EventSeq, undelivered, ts.Quiet, ts.QuietOwed, ts.Closing, ts.LastEventAt.Format(time.RFC3339Nano))
}

// queryTableState is table workflow id's own state (TableStateQuery).
func queryTableState(ctx context.Context, c client.Client, id string) (director.TableState, error) {
	var ts director.TableState
	v, err := c.QueryWorkflow(ctx, id, "", TableStateQuery)
	if err == nil {
		err = v.Get(&ts)
	}
	return ts, err
}

// describeSection logs one section's state: its role's queues, its tables and its players on the move.
func describeSection(t *testing.T, st *director.TournamentState) {
	t.Helper()
	h := st.HandForHand
	t.Logf("    %s: left %d, finished %v, period %d, paused %v, busts unsent %d; hand-for-hand on %v open %v round %d participants %v",
		st.ID, st.Left(), st.Finished, st.Period, st.Paused, len(st.Busts), h.On, h.Open, h.Round, h.Participants)
	if sec := st.Section; sec != nil {
		t.Logf("    orders applied %d, early %d; events sent %d acked %d; owed %+v; sending %+v; out %+v; closing %v ended %v",
			sec.Orders.Last, len(sec.Orders.Early), sec.Events.Sent, sec.Events.Acked, sec.Owed, sec.Sending, sec.Out, sec.Closing, sec.Ended)
	}
	for _, e := range st.ChipErrors {
		t.Logf("    error: %s", e)
	}
	for _, tb := range st.Tables {
		var pending []string
		for _, o := range tb.Unacked {
			b, _ := json.Marshal(o)
			pending = append(pending, string(b))
		}
		t.Logf("    table %d: hand %d (%d dealt), seats %v, stacks %v; sent %d acked %d unacked [%s]; credit %d last %v held %v breaking %v closing %v closed %v started %v round done %d gap %d arriving %+v",
			tb.ID, tb.Hand, tb.Hands, tb.Seats, tb.Stacks, tb.Sent, tb.Acked, strings.Join(pending, "; "), tb.Credit, tb.Last, tb.Held, tb.Breaking,
			tb.Closing, tb.Closed, tb.Started, tb.RoundDone, tb.Gap, tb.Arriving)
	}
	for _, p := range st.Players {
		if p.Status != director.Seated || p.Leaving {
			t.Logf("    player %s: %s at table %d seat %d, stack %d, leaving %v", p.ID, p.Status, p.Table, p.Seat, p.Stack, p.Leaving)
		}
	}
}

// keepHistories, when the test failed and POKERFLOOR_KEEP_HISTORIES names a folder, writes there
// the history of every run of each workflow (JSON, oldest run first), so that the failure can be
// replayed and its events read.
func keepHistories(t *testing.T, c client.Client, ids ...string) {
	t.Helper()
	dir := os.Getenv("POKERFLOOR_KEEP_HISTORIES")
	if dir == "" || !t.Failed() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Log(err)
		return
	}
	stamp := time.Now().UTC().Format("150405.000")
	for _, id := range ids {
		runs, err := historiesOf(ctx, c, id)
		if notFound := (*serviceerror.NotFound)(nil); errors.As(err, &notFound) {
			continue
		}
		if err != nil {
			t.Logf("the history of %s: %v", id, err)
			continue
		}
		for i, h := range runs {
			data, err := protojson.Marshal(h)
			if err != nil {
				t.Log(err)
				continue
			}
			name := fmt.Sprintf("%s-%s-run%d.json", stamp, strings.ReplaceAll(id, "/", "_"), i)
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Log(err)
			}
		}
		t.Logf("kept %d runs of %s in %s (%s-…)", len(runs), id, dir, stamp)
	}
}

// historiesOf is the history of every run of workflow id, oldest first (each run's first event names
// the run it continued).
func historiesOf(ctx context.Context, c client.Client, id string) ([]*historypb.History, error) {
	var runs []*historypb.History
	run := ""
	for range 1000 {
		h, err := runHistory(ctx, c, id, run)
		if err != nil {
			return nil, err
		}
		runs = append(runs, h)
		if len(h.Events) == 0 {
			break
		}
		run = h.Events[0].GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId()
		if run == "" {
			break
		}
	}
	slices.Reverse(runs)
	return runs, nil
}

// sectionIDs are the workflow IDs of the first n sections of tournament id.
func sectionIDs(id string, n int) []string {
	var out []string
	for k := 1; k <= n; k++ {
		out = append(out, director.SectionWorkflowID(id, k))
	}
	return out
}
