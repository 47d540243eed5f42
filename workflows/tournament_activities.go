package workflows

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TableHost runs table processes: in Kubernetes, Table objects whose pods run the engine; in the
// local run and in tests, goroutines (LocalTableHost). Both calls are idempotent: the table's ID is
// the idempotency key, so a retried activity creates or deletes nothing twice.
type TableHost interface {
	// CreateTable makes sure a process deals at the table, reporting to its TableWorkflow.
	CreateTable(ctx context.Context, t HostedTable) error
	// DeleteTable makes sure nothing deals at the table any more.
	DeleteTable(ctx context.Context, id string) error
	// ReplaceTable makes sure a new process deals at the table: the old one, hung or gone, is
	// stopped first. The new one takes up from the TableWorkflow's state; the hand the old one was
	// dealing is void (D4).
	ReplaceTable(ctx context.Context, t HostedTable) error
}

// HostedTable is what a table process needs to start.
type HostedTable struct {
	// ID is the table's ID: its TableWorkflow's ID, which the process reports to.
	ID         string        `json:"id"`
	Tournament string        `json:"tournament"`
	Number     floor.TableID `json:"number"`
	// DeckSeed seeds the deck in a reproducible simulation (D1: never in live play); 0 means
	// crypto/rand.
	DeckSeed uint64 `json:"deckSeed,omitempty"`
	// Simulation: the process plays as fast as it can (bots, no action clock), or at Pace.
	Simulation bool `json:"simulation,omitempty"`
	// Pace, in a simulation at a set speed, is the least time from one hand's start to the next's
	// (TournamentSpec.Pace).
	Pace time.Duration `json:"pace,omitempty"`
}

// TableActivities are the activities that create and delete tables through a TableHost.
type TableActivities struct {
	Host TableHost
}

// CreateTable is the activity that starts a table's process.
func (a *TableActivities) CreateTable(ctx context.Context, t HostedTable) error {
	return a.Host.CreateTable(ctx, t)
}

// CreateTables is the activity that starts the processes of the tables one task opened (a
// section's hundred at its start): one activity, not one a table. A retry creates them again,
// which creates nothing twice.
func (a *TableActivities) CreateTables(ctx context.Context, ts []HostedTable) error {
	for _, t := range ts {
		if err := a.Host.CreateTable(ctx, t); err != nil {
			return fmt.Errorf("table %s: %w", t.ID, err)
		}
	}
	return nil
}

// TableStart is what StartTables needs of one table: its workflow's input and its process.
type TableStart struct {
	Input director.TableState `json:"input"`
	Host  HostedTable         `json:"host"`
}

// StartTables is the activity that starts a section's tables, each its TableWorkflow (on
// taskQueue) and then its process, one table after the other, so that each deals as soon as it
// is up. The workflows are not the section's children: a child's start costs the server the
// child's creation and then the parent's record of it and a task of the parent's (a hundred at a
// section's start), and a client's start only the first (at 100,000 entries the children came
// up at about 22 a second). A retry starts nothing twice: a table whose workflow runs, or ran
// (the ID is never reused), is left as it is.
func (a *TableActivities) StartTables(ctx context.Context, taskQueue string, ts []TableStart) error {
	c := activity.GetClient(ctx)
	for _, t := range ts {
		_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID:                    t.Host.ID,
			TaskQueue:             taskQueue,
			WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		}, TableWorkflow, t.Input)
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if err != nil && !errors.As(err, &started) {
			return fmt.Errorf("table %s's workflow did not start: %w", t.Host.ID, err)
		}
		if err := a.Host.CreateTable(ctx, t.Host); err != nil {
			return fmt.Errorf("table %s: %w", t.Host.ID, err)
		}
	}
	return nil
}

// DeleteTable is the activity that stops a table's process.
func (a *TableActivities) DeleteTable(ctx context.Context, id string) error {
	return a.Host.DeleteTable(ctx, id)
}

// ReplaceTable is the activity that replaces a silent table's process.
func (a *TableActivities) ReplaceTable(ctx context.Context, t HostedTable) error {
	return a.Host.ReplaceTable(ctx, t)
}

// DeleteTables is the activity that stops the processes of tables ids, one after the other.
func (a *TableActivities) DeleteTables(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := a.Host.DeleteTable(ctx, id); err != nil {
			return fmt.Errorf("table %s: %w", id, err)
		}
	}
	return nil
}

// ReplaceTables is the activity that replaces the processes of silent tables, one after the
// other.
func (a *TableActivities) ReplaceTables(ctx context.Context, ts []HostedTable) error {
	for _, t := range ts {
		if err := a.Host.ReplaceTable(ctx, t); err != nil {
			return fmt.Errorf("table %s: %w", t.ID, err)
		}
	}
	return nil
}

// tableActivityOptions: a table host answers quickly; retry until it does.
func tableActivityOptions(ctx workflow.Context, id string) workflow.Context {
	return workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		ActivityID:          id,
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaximumInterval: 10 * time.Second},
	})
}

// The activities' registered names.
const (
	CreateTableActivity   = "CreateTable"
	CreateTablesActivity  = "CreateTables"
	StartTablesActivity   = "StartTables"
	DeleteTableActivity   = "DeleteTable"
	ReplaceTableActivity  = "ReplaceTable"
	DeleteTablesActivity  = "DeleteTables"
	ReplaceTablesActivity = "ReplaceTables"
)

// ReportSectionActivity is the activity that gives a section's news to its tournament
// (ReportSection).
const ReportSectionActivity = "ReportSection"

// ReportSection is the activity that gives a section's report to its tournament as a
// SectionEventsUpdate and returns once the tournament has taken it in. The Update's ID is the
// section's and its last event's number, so that the server takes a report sent again once in a
// run; a report a continued run sees again is dropped by the events' numbers (updateUntilTaken
// says how it is tried).
func ReportSection(ctx context.Context, tournament string, r SectionEvents) error {
	if len(r.Events) == 0 && r.Run == 0 {
		return nil
	}
	return updateUntilTaken(ctx, activity.GetClient(ctx), client.UpdateWorkflowOptions{
		WorkflowID: tournament,
		UpdateID:   reportID(r),
		UpdateName: SectionEventsUpdate,
		Args:       []any{r},
	}, "tournament", tournamentGone, nil)
}

// SignalOrders is the local activity that signals a table's workflow its orders (OrdersSignal)
// through the client, for a section or a tournament of one recorded from director.PaceLocalSignals
// and before director.PaceCommandSignals (signalOrders); it stays for their histories to replay.
// One try: the workflow's retrySend tries again.
func SignalOrders(ctx context.Context, table string, orders []director.Order) error {
	return activity.GetClient(ctx).SignalWorkflow(ctx, table, "", OrdersSignal, orders)
}

// signalOrders runs SignalOrders. A signal the workflow sends as a command comes back to it as
// an event that wakes it for another task, and the server takes the sender's lock twice for it
// (its transfer task, then its completion): in the first 2 minutes 50 seconds of a paced 10,000
// at x60 its 12 sections sent 12,572 order signals, and took 12,418 such events beside their
// 13,592 tasks. Sent from a local activity, the signal is a request on the table's workflow
// alone, and the sender's task records its end as a marker.
//
// But the signal leaves before the task that decided it is recorded: a run whose task is lost
// decides again, on other news, and sends other orders under the same numbers (the pace of
// director.PaceCommandSignals says more). Runs from that pace send them as commands again.
func signalOrders(ctx workflow.Context, table string, orders []director.Order) error {
	actx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: signalTry, RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1}})
	return workflow.ExecuteLocalActivity(actx, SignalOrders, table, orders).Get(ctx, nil)
}

// signalTry bounds one try of SignalOrders.
const signalTry = 30 * time.Second

// ReportTableEventsActivity is the activity that gives a table's events to its section
// (ReportTableEvents).
const ReportTableEventsActivity = "ReportTableEvents"

// ReportTableEvents is the activity that gives a batch of a table's events to its section (or
// its tournament of one section) as a TableEventsUpdate, and returns once the section has taken
// them in; a table from its marker eventUpdates sends its events so (deliverBatch), and from
// eventsByHost its host sends those its reports' answers hand it the same way (TableReporter).
// The Update's ID names the table and its events' numbers: the server takes a batch sent again
// once in a run, and the section drops what a continued run sees again by the events' numbers.
// It returns the orders the section answers with (from director.PaceOrdersInReply, for a batch
// whose events say the table takes them: TableEvent.Replies); the same Update sent again to the
// same run is answered the same.
func ReportTableEvents(ctx context.Context, section string, batch []director.TableEvent) ([]director.Order, error) {
	return sendTableEvents(ctx, activity.GetClient(ctx), section, batch)
}

// sendTableEvents gives a batch of a table's events to its section through c, as
// ReportTableEvents does: from an activity, or from the table's host (TableReporter), which
// sends the batch its report's answer carries (director.ReportAnswer.Deliver).
func sendTableEvents(ctx context.Context, c client.Client, section string, batch []director.TableEvent) ([]director.Order, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	var orders []director.Order
	err := updateUntilTaken(ctx, c, client.UpdateWorkflowOptions{
		WorkflowID: section,
		UpdateID:   fmt.Sprintf("table-%d-events-%d-%d", batch[0].Table, batch[0].Seq, batch[len(batch)-1].Seq),
		UpdateName: TableEventsUpdate,
		Args:       []any{batch},
	}, "section", sectionGone, &orders)
	return orders, err
}

// updateUntilTaken sends the Update opts (waiting for its completion) and returns once the
// workflow has taken it in (its answer decoded into result, unless nil), or with an error of
// type gone when the workflow is over (what names it in the message). The server refuses an
// Update while ten of the run's are in flight (ResourceExhausted): each try is given reportTry,
// the client's own retries within it, and then another follows at once, so that a slot freed
// is taken within a second or so, not after the client's backoff of up to ten seconds (at
// 40,000 entries, 45 sections, a report waited 38 s on average so, the longest the activity's
// whole two minutes; with tries of a second, 7 s; at 100,000 tries of three seconds hosted every table sooner than tries of one, 2:41 against 4:16,
// for the same 17 s a report). A try that times out makes the next longer, and a refused one
// waits a little (growing, with jitter) before the next: a tournament whose tasks took 27 s under
// 112 sections' tries every three seconds stopped taking any report at all (pokerfloor run
// --players 100000). A process has at most updatesInFlight of them on one workflow at once
// (updateTries): a refusal clears the run's state in the server.
func updateUntilTaken(ctx context.Context, c client.Client, opts client.UpdateWorkflowOptions, what, gone string, result any) error {
	// A try may wait long (a busy workflow, ten Updates in flight): the activity heartbeats all
	// along, so that one whose worker died (a process killed) is tried again after
	// reportHeartbeatTimeout, not after its whole StartToCloseTimeout.
	done := make(chan struct{})
	defer close(done)
	go func() {
		if !activity.IsActivity(ctx) {
			return // a table's host sending its events
		}
		beat := time.NewTicker(reportHeartbeat)
		defer beat.Stop()
		for {
			select {
			case <-done:
				return
			case <-beat.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	// At most updatesInFlight of this process's Updates on the workflow at once, each from its
	// first try until it is taken (a try that timed out leaves it in flight on the server): one
	// the server refused past its ten would clear the run's state there.
	release, err := updateTries.acquire(ctx, opts.WorkflowID)
	if err != nil {
		return err
	}
	defer release()
	opts.WaitForStage = client.WorkflowUpdateStageCompleted
	try, pause := reportTry, time.Duration(0)
	for {
		if pause > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(pause + rand.N(pause)):
			}
		}
		tctx, cancel := context.WithTimeout(ctx, try)
		h, err := c.UpdateWorkflow(tctx, opts)
		if err == nil {
			err = h.Get(tctx, result)
		}
		timedOut := tctx.Err() != nil
		cancel()
		var notFound *serviceerror.NotFound
		var busy *serviceerror.ResourceExhausted
		switch {
		case err == nil:
			return nil
		case errors.As(err, &notFound):
			return temporal.NewNonRetryableApplicationError(fmt.Sprintf("%s %s is over: %v", what, opts.WorkflowID, err), gone, err)
		case ctx.Err() != nil:
			return err
		case !timedOut && !errors.As(err, &busy):
			return err // the activity's retry policy tries again
		case timedOut:
			// The workflow is slow to take it: the next try waits longer, rather than sending it
			// again every few seconds (the same Update, taken once, but each try is a request on
			// the workflow's state, and 112 sections' tries held a slow tournament back).
			try, pause = min(2*try, reportTryMost), 0
		default:
			// Ten of the run's Updates are in flight: a pause, growing and spread, before the next.
			pause = min(max(2*pause, reportBusyPause), reportBusyPauseMost)
		}
	}
}

// reportID is the Update ID of a section's report. From director.PaceSectionQuiet it names the
// section's run and the ask: the same events sent again by a later run (after an ask whose
// answer was lost) are another report, whose run ends the tournament's hold on the section's
// orders, and an ask is never taken for a report without it.
func reportID(r SectionEvents) string {
	last := 0
	if n := len(r.Events); n > 0 {
		last = r.Events[n-1].Seq
	}
	if r.Run == 0 {
		return fmt.Sprintf("section-%d-events-%d", r.Section, last)
	}
	id := fmt.Sprintf("section-%d-run-%d-events-%d", r.Section, r.Run, last)
	if r.Quiet {
		id += "-quiet"
	}
	return id
}

// reportTryMost bounds a try of ReportSection once tries have timed out; reportBusyPause and
// reportBusyPauseMost the pause after a try refused for the Updates in flight (to which up to as
// much again is added at random, so that sections refused together do not come back together).
const (
	reportTryMost       = 30 * time.Second
	reportBusyPause     = 100 * time.Millisecond
	reportBusyPauseMost = 2 * time.Second
)

// reportTry bounds one try of ReportSection's Update.
const reportTry = 3 * time.Second

// reportHeartbeat is how often ReportSection and ReportTableEvents heartbeat while they try, and
// reportHeartbeatTimeout the activity's heartbeat timeout: a report whose worker is gone is tried
// again that soon. Before, a table's events in an activity of a process killed waited out its
// four minutes (2 * StateTaskTimeout), the table's news with them, and the local run killed five
// times stalled for minutes after each resume (TestRunResumesAfterKills). A report done within
// reportHeartbeat never heartbeats.
const (
	reportHeartbeat        = 3 * time.Second
	reportHeartbeatTimeout = 15 * time.Second
)

// tournamentGone is the type of ReportSection's error when the tournament's workflow is over, and
// sectionGone ReportTableEvents' when the section's is.
const (
	tournamentGone = "TournamentGone"
	sectionGone    = "SectionGone"
)

// reportSection runs ReportSection and reports whether the tournament took the report in, and
// whether its workflow is over (nothing more can be given to it). within, if not 0, bounds the
// report's tries in all: a section that asks its tournament to hold its orders does not wait
// longer than that to continue as new (director's link.go, "A section's quiet").
func reportSection(ctx workflow.Context, tournament string, r SectionEvents, within time.Duration) (taken, over bool) {
	actx := workflow.WithActivityOptions(ctx, reportOptions(within))
	err := workflow.ExecuteActivity(actx, ReportSectionActivity, tournament, r).Get(actx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Warn("section report not taken", "tournament", tournament, "section", r.Section, "error", err)
	}
	var app *temporal.ApplicationError
	return err == nil, errors.As(err, &app) && app.Type() == tournamentGone
}

// reportOptions are the activity options of a report (ReportSection, ReportTableEvents): tried
// as a signal is (retrySignal's backoff and attempts), heartbeating (reportHeartbeatTimeout), in
// all at most within (0: no bound).
func reportOptions(within time.Duration) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout:    2 * StateTaskTimeout,
		HeartbeatTimeout:       reportHeartbeatTimeout,
		ScheduleToCloseTimeout: within,
		RetryPolicy: &temporal.RetryPolicy{InitialInterval: 50 * time.Millisecond, BackoffCoefficient: 2,
			MaximumInterval: 2 * time.Second, MaximumAttempts: maxSignalAttempts},
	}
}
