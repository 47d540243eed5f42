package workflows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// TableReporter is the report.Reporter of a table process: Report sends the hands to the
// table's TableWorkflow as a ReportUpdate and returns the State the workflow answers. The update's
// ID is the table's ID and the last hand's number, so a retried report is the same update, which
// Temporal runs once; a report with no hands (the first after a start, or after a Wait) gets an
// ID of its own.
type TableReporter struct {
	client client.Client
	// heard is, for each table, what its section said of the batch of events the table's last
	// answer handed this process (director.ReportRequest's Taken and Replies), to go with the
	// table's next report.
	mu    sync.Mutex
	heard map[string]director.ReportRequest
	// accepting, when not nil, holds a token for each report waiting for its workflow task: the
	// bound NewLocalTableReporter sets.
	accepting chan struct{}
}

// NewTableReporter returns the Reporter of table processes that report through c.
func NewTableReporter(c client.Client) *TableReporter {
	return &TableReporter{client: c, heard: map[string]director.ReportRequest{}}
}

// NewLocalTableReporter returns the Reporter of the many tables one process hosts (LocalTableHost):
// at most accepting of their reports at once wait for the tables' worker to take them in (the
// update's Accepted stage, one workflow task); the others wait here, in turn. A report the
// workflow then holds (a table that may not deal, waiting for an order) no longer counts.
//
// Why: a thousand tables dealing at full speed without a bound keep the worker's sticky queue
// seconds deep; a task five seconds there is moved to the normal queue, where it costs a replay
// of its table's history, and the field crawls (docs/design.md, "The stall at 10,000
// entries"). Bounded, the sticky queue stays short. (WorkerOptions' pollers see to it that the
// normal queue is polled at all.)
func NewLocalTableReporter(c client.Client, accepting int) *TableReporter {
	if accepting <= 0 {
		return NewTableReporter(c)
	}
	return &TableReporter{client: c, accepting: make(chan struct{}, accepting), heard: map[string]director.ReportRequest{}}
}

var _ report.Reporter = (*TableReporter)(nil)

// Report acknowledges results and returns what the table does next. A table whose workflow has
// ended is told to close. A report the workflow refuses (chips not conserved, an unknown player,
// a hand out of order) is a *report.RejectedError; other errors are worth retrying.
//
// The events the report's answer hands it (director.ReportAnswer.Deliver, from the table's
// eventsByHost) it gives the table's section before it returns, and what the section took and
// answered goes back with the table's next report: at once, with no hands, when the table waits
// for orders; otherwise with its next hands (a table that deals applies orders between two
// reports, whichever way they came). A batch the section does not take stays with the table,
// which hands it out again.
func (c *TableReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	for {
		req := director.ReportRequest{Results: results, Delivers: true}
		c.mu.Lock()
		if h, ok := c.heard[tableID]; ok {
			req.Taken, req.Replies = h.Taken, h.Replies
		}
		c.mu.Unlock()
		ans, err := c.report(ctx, tableID, req)
		if err != nil {
			return ans.State, err
		}
		c.mu.Lock()
		delete(c.heard, tableID)
		c.mu.Unlock()
		d := ans.Deliver
		if d == nil || len(d.Events) == 0 || ans.Directive == report.Close {
			return ans.State, nil
		}
		orders, err := sendTableEvents(ctx, c.client, d.Section, d.Events)
		if err != nil {
			return ans.State, nil // the table hands the batch out again
		}
		c.mu.Lock()
		c.heard[tableID] = director.ReportRequest{Taken: d.Events[len(d.Events)-1].Seq, Replies: orders}
		c.mu.Unlock()
		if ans.Directive != report.Wait {
			return ans.State, nil // a dealing table applies orders between its reports
		}
		results = nil
	}
}

// report sends one report, req, to the table's workflow.
func (c *TableReporter) report(ctx context.Context, tableID string, req director.ReportRequest) (director.ReportAnswer, error) {
	results := req.Results
	id := ""
	if n := len(results); n > 0 {
		id = fmt.Sprintf("%s/%d", tableID, results[n-1].HandNumber)
		if results[n-1].Voided {
			// A void hand's number is dealt again (D4): this report is not that hand's.
			id += "/void/" + nonce()
		}
	} else {
		id = tableID + "/next/" + nonce()
	}
	h, err := c.update(ctx, client.UpdateWorkflowOptions{
		WorkflowID: tableID,
		UpdateID:   id,
		UpdateName: ReportUpdate,
		Args:       []any{req},
	})
	var ans director.ReportAnswer
	if err == nil {
		err = h.Get(ctx, &ans) // at once when the task that accepted the report answered it
	}
	if err == nil {
		return ans, nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == rejectedErrorType {
		return ans, &report.RejectedError{TableID: tableID, HandNumber: lastHand(results), Reason: app.Message()}
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) && c.closed(ctx, tableID) {
		return director.ReportAnswer{State: report.State{TableID: tableID, Directive: report.Close}}, nil
	}
	return director.ReportAnswer{}, err
}

// update sends the report: unbounded, it waits for the answer; bounded, it holds a token only
// until the report is accepted (the server answers at once if the same task completed it).
func (c *TableReporter) update(ctx context.Context, opts client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	if c.accepting == nil {
		opts.WaitForStage = client.WorkflowUpdateStageCompleted
		return c.client.UpdateWorkflow(ctx, opts)
	}
	select {
	case c.accepting <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.accepting }()
	opts.WaitForStage = client.WorkflowUpdateStageAccepted
	return c.client.UpdateWorkflow(ctx, opts)
}

func nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// closed reports whether the table's workflow has ended (and not continued as new).
func (c *TableReporter) closed(ctx context.Context, tableID string) bool {
	d, err := c.client.DescribeWorkflowExecution(ctx, tableID, "")
	if err != nil {
		return false
	}
	st := d.GetWorkflowExecutionInfo().GetStatus()
	return st != enums.WORKFLOW_EXECUTION_STATUS_RUNNING && st != enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW
}
