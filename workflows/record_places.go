package workflows

import (
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// carryRows bounds the record's rows a tournament of one section hands on unwritten when it
// continues as new (about 12 KB; a tournament of sections carries up to carryPlaces places).
const carryRows = 100

// writePlaces writes places out through RecordPlaces (at most placesPerWrite of them; from is the
// index of places[0] among the tournament's places written) and, once the sink has them, calls
// wrote with how many; done runs either way. Both the tournament of sections (its places) and the
// tournament of one section (its record's rows, as places) write through it.
func writePlaces(ctx workflow.Context, tournament string, from int, places []Place, wrote func(n int), done func()) {
	places = places[:min(len(places), placesPerWrite)]
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumInterval: 10 * time.Second},
	})
	f := workflow.ExecuteActivity(actx, RecordPlacesActivity, tournament, from, places)
	n := len(places)
	workflow.Go(ctx, func(ctx workflow.Context) {
		defer done()
		if err := f.Get(ctx, nil); err != nil {
			workflow.GetLogger(ctx).Error("places not written", "error", err)
			return
		}
		wrote(n)
	})
}

// writeRows writes the record's rows given and not yet written out, one activity at a time.
func (w *tournamentWorkflow) writeRows(ctx workflow.Context) {
	from, rows := w.s.RecordUnwritten()
	if len(rows) == 0 || w.writing {
		return
	}
	w.writing = true
	writePlaces(ctx, w.s.ID, from, rows, w.s.RecordWroteOut, func() { w.writing = false; w.wake = true })
}

// rowsWritten: no row waits to be written, none is being written.
func (w *tournamentWorkflow) rowsWritten() bool {
	_, rows := w.s.RecordUnwritten()
	return len(rows) == 0 && !w.writing
}
