package workflows

import (
	"os"
	"testing"

	"go.temporal.io/sdk/worker"
)

// TestMain sizes the workers' sticky cache, a setting of the process read once as its first
// worker starts, for the largest tournament a test here plays, as pokerfloor run and the
// cluster's worker do (WorkflowCacheFor): the 100,000-entry test's 11,225 runs are more than the
// SDK's 10,000, and with them it ran on a cache that evicted live runs all the time, each task of
// an evicted run replaying its whole history (14 of its sections' tasks taken and never completed
// within their two minutes in one run of 5 December, their tables' events buffered meanwhile).
func TestMain(m *testing.M) {
	worker.SetStickyWorkflowCacheSize(WorkflowCacheFor(100_000, 9))
	os.Exit(m.Run())
}
