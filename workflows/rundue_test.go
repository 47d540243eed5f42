package workflows

import (
	"testing"

	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// TestRunWaitsForItsOwnEventCount: from director.PaceOwnEventCount a tournament's or a section's
// run (a tournament of sections' from director.PlanOwnEventCount) that Temporal suggests continue
// as new for its event count alone goes on to RunEvents (a continue-as-new costs a section its
// tables' quiet, and the tournament of sections its orders while it drains); a suggestion for the
// history's size or for the run's Updates is taken at once, as is one that gives no reason, and
// the spec's own ContinueAsNewAfter still bounds the run. A run of an earlier pace or plan takes
// every suggestion as it did.
func TestRunWaitsForItsOwnEventCount(t *testing.T) {
	events := []workflow.ContinueAsNewSuggestedReason{workflow.ContinueAsNewSuggestedReasonTooManyHistoryEvents}
	size := []workflow.ContinueAsNewSuggestedReason{workflow.ContinueAsNewSuggestedReasonHistorySizeTooLarge}
	updates := []workflow.ContinueAsNewSuggestedReason{workflow.ContinueAsNewSuggestedReasonTooManyUpdates}
	both := append(append([]workflow.ContinueAsNewSuggestedReason{}, events...), updates...)
	const after = director.DefaultContinueAsNewAfter
	now, before := true, false
	for _, c := range []struct {
		name      string
		own       bool
		length    int
		after     int
		suggested bool
		reasons   []workflow.ContinueAsNewSuggestedReason
		want      bool
	}{
		{"nothing suggested", now, 4096, after, false, nil, false},
		{"the event count alone, early", now, 4097, after, true, events, false},
		{"the event count alone, just before RunEvents", now, RunEvents - 1, after, true, events, false},
		{"the event count alone, at RunEvents", now, RunEvents, after, true, events, true},
		{"the history's size", now, 3000, after, true, size, true},
		{"the Updates", now, 3000, after, true, updates, true},
		{"the event count and the Updates", now, 4097, after, true, both, true},
		{"no reason given", now, 4097, after, true, nil, true},
		{"past the spec's own bound", now, 401, 400, false, nil, true},
		{"the spec's bound under RunEvents, suggested for events", now, 401, 400, true, events, true},
		{"a run of an earlier pace or plan takes the event count at once", before, 4097, after, true, events, true},
	} {
		if got := runDue(c.own, c.length, c.after, c.suggested, c.reasons); got != c.want {
			t.Errorf("%s: runDue(own %v, %d events, after %d, suggested %v, reasons %v) = %v, want %v",
				c.name, c.own, c.length, c.after, c.suggested, c.reasons, got, c.want)
		}
	}
	if RunEvents >= 10240-1000 {
		t.Errorf("RunEvents %d leaves under 1,000 events before the server's warning at 10,240 for the quiet's own", RunEvents)
	}
}
