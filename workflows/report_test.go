package workflows

import (
	"context"
	"fmt"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"
)

// TestSectionsReportByUpdate: from director.PaceReportUpdate a section's news goes to the
// tournament as an Update, never as a signal. A signal is buffered by the server while one of
// the tournament's tasks runs, whatever the tournament is doing, and the server fails the task
// past 100 buffered events (94 sections' signals came in during one task at 100,000 entries);
// an Update waits outside the history until a task takes it, at most ten of a run in flight,
// and a section sends its next report only once the last was taken in. The tournament's history
// shows the reports as accepted Updates, each section's in order, and no report signal; the news
// they carry (late entries) reaches the tournament's count.
func TestSectionsReportByUpdate(t *testing.T) { // the design's wall: at most 100 events buffered during a task
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c := idleServer(t)
	spec := clockSpec()
	spec.PlayerCount, spec.SectionTables, spec.LateRegistrationLevel = 40, 2, 4 // 5 tables in 3 sections
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tour, err := StartTournament(ctx, c, "reports", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.CancelWorkflow(context.Background(), tour.ID, "") }()
	// Three batches of late entries, each counted before the next: a section reports each of its
	// entrants, so each section has several reports to send, one after the other.
	field := spec.PlayerCount
	for b := range 3 {
		late := RegisterBatchRequest{Key: fmt.Sprintf("late-%d", b)}
		for i := range 12 {
			late.Entries = append(late.Entries, BatchEntry{Player: fmt.Sprintf("late%d-%02d", b, i)})
		}
		if _, err := tour.RegisterBatch(ctx, late); err != nil {
			t.Fatal(err)
		}
		field += len(late.Entries)
		var p Progress
		for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
			if p, err = tour.Progress(ctx); err != nil {
				t.Fatal(err)
			}
			if p.Entries == field || time.Now().After(deadline) {
				break
			}
		}
		if p.Entries != field {
			t.Fatalf("the tournament counts %d entries, expected %d: the sections' reports did not reach it", p.Entries, field)
		}
	}

	reports := map[int][]int{} // section: the last event's number of each report, in history order
	signals := 0
	dc := converter.GetDefaultDataConverter()
	it := c.GetWorkflowHistory(ctx, tour.ID, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			if ev.GetWorkflowExecutionSignaledEventAttributes().GetSignalName() == SectionEventsSignal {
				signals++
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			in := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes().GetAcceptedRequest().GetInput()
			if in.GetName() != SectionEventsUpdate {
				continue
			}
			var r SectionEvents
			if err := dc.FromPayloads(in.GetArgs(), &r); err != nil {
				t.Fatalf("a section's report: %v", err)
			}
			if len(r.Events) == 0 {
				// From director.PaceSectionQuiet a section's ask to hold its orders, and a run's
				// first report, go with no news; no other report does.
				if r.Run == 0 {
					t.Errorf("section %d sent an empty report", r.Section)
				}
				continue
			}
			reports[r.Section] = append(reports[r.Section], r.Events[len(r.Events)-1].Seq)
		}
	}
	if signals > 0 {
		t.Errorf("%d section reports came as signals, expected none (director.PaceReportUpdate)", signals)
	}
	for n := 1; n <= 3; n++ {
		seqs := reports[n]
		if len(seqs) == 0 {
			t.Errorf("section %d's reports: none taken as an Update", n)
		}
		for i := 1; i < len(seqs); i++ {
			if seqs[i] <= seqs[i-1] {
				t.Errorf("section %d's reports out of order or taken twice: %v", n, seqs)
			}
		}
	}
	t.Logf("reports taken by Update, by section (the last event's number of each): %v", reports)
}
