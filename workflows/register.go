package workflows

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
)

// Register registers the workflows, the table activities over host and the places activity over
// sink (at most one; none drops the places a tournament of sections does not keep) with a worker
// (or any registry: the test environment too). The worker's task queue must be TaskQueue, or the
// one the tournament was started on.
func Register(r worker.Registry, host TableHost, sink ...PlaceSink) {
	r.RegisterWorkflow(TournamentWorkflow)
	r.RegisterWorkflow(SectionWorkflow)
	r.RegisterWorkflow(TableWorkflow)
	r.RegisterActivity(&TableActivities{Host: host})
	pa := &placeActivities{}
	if len(sink) > 0 {
		pa.sink = sink[0]
	}
	r.RegisterActivityWithOptions(pa.RecordPlaces, activity.RegisterOptions{Name: RecordPlacesActivity})
}
