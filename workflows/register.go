package workflows

import "go.temporal.io/sdk/worker"

// Register registers the workflows, and the table activities over host, with a worker (or any
// registry: the test environment too). The worker's task queue must be TaskQueue, or the one the
// tournament was started on.
func Register(r worker.Registry, host TableHost) {
	r.RegisterWorkflow(TournamentWorkflow)
	r.RegisterWorkflow(TableWorkflow)
	r.RegisterActivity(&TableActivities{Host: host})
}
