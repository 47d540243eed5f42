package workflows

import (
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
)

// Register registers the workflows, the table activities over host and the places activity over
// sink (at most one; none drops the places a tournament of sections does not keep) with a worker
// (or any registry: the test environment too). The worker's task queue must be TaskQueue, or the
// one the tournament was started on, and another worker's TableTaskQueue of it, registered the
// same way (NewWorkers makes both).
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

// NewWorkers makes the two workers a tournament on taskQueue needs, registered with Register: one
// on taskQueue (tournaments, sections, the table and places activities), one on
// TableTaskQueue(taskQueue) (the tables). The caller starts and stops both.
func NewWorkers(c client.Client, taskQueue string, opts worker.Options, host TableHost, sink ...PlaceSink) []worker.Worker {
	var out []worker.Worker
	for _, q := range []string{taskQueue, TableTaskQueue(taskQueue)} {
		w := worker.New(c, q, opts)
		Register(w, host, sink...)
		out = append(out, w)
	}
	return out
}
