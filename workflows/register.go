package workflows

import (
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/pokerfloor/pokerfloor/workflows/director"
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
	r.RegisterActivityWithOptions(ReportSection, activity.RegisterOptions{Name: ReportSectionActivity})
	r.RegisterActivityWithOptions(ReportTableEvents, activity.RegisterOptions{Name: ReportTableEventsActivity})
}

// NewWorkers makes the two workers a tournament on taskQueue needs, registered with Register: one
// on taskQueue (tournaments, sections, the table and places activities), one on
// TableTaskQueue(taskQueue) (the tables). The caller starts and stops both.
func NewWorkers(c client.Client, taskQueue string, opts worker.Options, host TableHost, sink ...PlaceSink) []worker.Worker {
	var out []worker.Worker
	for _, q := range []string{taskQueue, TableTaskQueue(taskQueue)} {
		w := worker.New(c, q, WorkerOptions(opts))
		Register(w, host, sink...)
		out = append(out, w)
	}
	return out
}

// DeadlockDetectionTimeout is how long a workflow task of this package's may run before the SDK calls
// it a deadlock and fails the task. The SDK's default, one second of wall time, is taken by a busy
// node alone (seen at a load of 20 on 2 cores: a task not scheduled for a second); the state
// machines' steps are bounded by the field a run holds, far below this.
const DeadlockDetectionTimeout = 30 * time.Second

// WorkflowTaskPollers is how many workflow-task polls a worker of this package's keeps on each of
// its two queues: its sticky queue (the workflows it has cached) and the task queue (a
// workflow's first task, and any moved off the sticky queue after its five seconds there).
//
// The SDK's default pollers (two, "Mixed") choose their queue at each poll and take the sticky
// one whenever the server says it has a backlog; a worker of tables dealing at full speed always
// has one, so a table whose task is on the task queue was never started, the tables around it
// waited for its players, and 10,000 entries stalled (docs/design.md, "The stall at 10,000
// entries"). Polled apart, each queue always has a poll of its own (the SDK's autoscaling
// behaviour, held at one size: the embedded server gives no scaling hints worth following).
const WorkflowTaskPollers = 4

// StateTaskTimeout is the workflow task timeout of the tournament and its sections, the
// workflows with the largest state and histories: a task that replays a section's history after
// its cache entry was evicted took over the server's default of 10 s with two test suites side by
// side on 2 cores (TestHundredThousandEntriesWithinTemporalsLimits: two tasks failed "context
// deadline exceeded"). Continued runs keep it. It is the server's most (two minutes): at 100,000
// entries in one process (pokerfloor run) sections' tasks took up to 22 s and waited up to 28 s,
// and a task that times out is not only done again: its worker drops the run from its cache, so
// the next replays the whole history, slower still.
const StateTaskTimeout = 2 * time.Minute

// HistoryPageSize is the most history events a Temporal server must give a worker in the first
// page of a workflow task (the dynamic config limit.historyMaxPageSize, 256 by default): more than
// any of these workflows' histories (they continue as new from the server's suggestion, 4,096
// events, or DefaultContinueAsNewAfter). The tournament takes its sections' reports as Updates,
// whose tasks are the server's speculative ones; a run out of the worker's cache that pages its
// history loses their events (temporalio/temporal#7741: "history_events: premature end of
// stream"), its task fails, and with reports coming all the time every next task does too. The
// first local run of 100,000 entries stalled so for good at 47 minutes (559 failed tasks of the
// tournament's in two and a half minutes after a resume); a history that comes in one page is
// never paged. pokerfloor run's and pokerfloor temporal's server set it; a Temporal cluster of
// one's own must too (docs/helm.md).
const HistoryPageSize = 10 * 1024

// StickyTimeout is how long a workflow task waits on its worker's sticky queue (the worker that
// has the run cached) before the server moves it to the task queue, where any worker takes it
// and replays the run's whole history first. The SDK's five seconds are taken by a busy worker
// alone: at 100,000 entries on 2 cores (TestHundredThousandEntriesWithinTemporalsLimits, load
// 5) 45 sections' and 155 tables' tasks timed out so, each then replayed in full (a section's
// slowest task 6 s), and every table signal that came in during such a task waited in the
// server's buffer, which fails the task past 100 events. Longer, a busy worker keeps its runs;
// a worker that dies without shutting down (which frees its sticky queue at once) costs its runs
// this long before another takes them.
const StickyTimeout = 30 * time.Second

// WorkflowCacheFor is the sticky workflow cache (worker.SetStickyWorkflowCacheSize, 10,000 runs by
// default) that keeps every run of one tournament of players entries at tables of tableSize in
// memory, with a quarter to spare: its tables, its sections and itself. Below it the worker's cache
// evicts live runs all the time, and each task of an evicted run replays its whole history; the
// local run of 100,000 entries (11,225 runs) stopped taking the tournament's tasks after 53
// minutes with every workflow task slot waiting on an evicted run's lock (docs/design.md).
func WorkflowCacheFor(players, tableSize int) int {
	tables := (players + max(tableSize, 2) - 1) / max(tableSize, 2)
	runs := tables + (tables+director.DefaultSectionTables-1)/director.DefaultSectionTables + 1
	return max(10_000, runs+runs/4)
}

// WorkerOptions returns opts with this package's defaults where opts leaves them unset: the
// deadlock detector's DeadlockDetectionTimeout, StickyTimeout, and WorkflowTaskPollers polls on
// the sticky queue and as many on the task queue. NewWorkers applies it; a worker made another way
// (temporaltest's NewWorkerWithOptions) should too.
func WorkerOptions(opts worker.Options) worker.Options {
	if opts.DeadlockDetectionTimeout == 0 {
		opts.DeadlockDetectionTimeout = DeadlockDetectionTimeout
	}
	if opts.StickyScheduleToStartTimeout == 0 {
		opts.StickyScheduleToStartTimeout = StickyTimeout
	}
	if opts.WorkflowTaskPollerBehavior == nil && opts.MaxConcurrentWorkflowTaskPollers == 0 {
		n := WorkflowTaskPollers
		opts.WorkflowTaskPollerBehavior = worker.NewPollerBehaviorAutoscaling(worker.PollerBehaviorAutoscalingOptions{
			InitialNumberOfPollers: n, MinimumNumberOfPollers: n, MaximumNumberOfPollers: n,
		})
	}
	return opts
}
