package workflows

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

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
}

// NewTableReporter returns the Reporter of table processes that report through c.
func NewTableReporter(c client.Client) *TableReporter {
	return &TableReporter{client: c}
}

var _ report.Reporter = (*TableReporter)(nil)

// Report acknowledges results and returns what the table does next. A table whose workflow has
// ended is told to close. A report the workflow refuses (chips not conserved, an unknown player,
// a hand out of order) is a *report.RejectedError; other errors are worth retrying.
func (c *TableReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
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
	h, err := c.client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID:   tableID,
		UpdateID:     id,
		UpdateName:   ReportUpdate,
		Args:         []any{director.ReportRequest{Results: results}},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	var st report.State
	if err == nil {
		err = h.Get(ctx, &st)
	}
	if err == nil {
		return st, nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == rejectedErrorType {
		return report.State{}, &report.RejectedError{TableID: tableID, HandNumber: lastHand(results), Reason: app.Message()}
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) && c.closed(ctx, tableID) {
		return report.State{TableID: tableID, Directive: report.Close}, nil
	}
	return report.State{}, err
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
