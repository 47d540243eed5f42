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

	"github.com/pokerfloor/pokerfloor/engine/table"
	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// TableController is the table.Controller of a table process: Report sends the hands to the
// table's TableWorkflow as a ReportUpdate and returns the State the workflow answers. The update's
// ID is the table's ID and the last hand's number, so a retried report is the same update, which
// Temporal runs once; a report with no hands (the first after a start, or after a Wait) gets an
// ID of its own.
type TableController struct {
	client client.Client
}

// NewTableController returns the Controller for table processes that report through c.
func NewTableController(c client.Client) *TableController {
	return &TableController{client: c}
}

var _ table.Controller = (*TableController)(nil)

// Report acknowledges results and returns what the table does next. A table whose workflow has
// ended is told to close. A report the workflow refuses (chips not conserved, an unknown player,
// a hand out of order) is a *table.RejectedError; other errors are worth retrying.
func (c *TableController) Report(ctx context.Context, tableID string, results []table.HandResult) (table.State, error) {
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
	var st table.State
	if err == nil {
		err = h.Get(ctx, &st)
	}
	if err == nil {
		return st, nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) && app.Type() == rejectedErrorType {
		return table.State{}, &table.RejectedError{TableID: tableID, HandNumber: lastHand(results), Reason: app.Message()}
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) && c.closed(ctx, tableID) {
		return table.State{TableID: tableID, Directive: table.Close}, nil
	}
	return table.State{}, err
}

func nonce() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// closed reports whether the table's workflow has ended (and not continued as new).
func (c *TableController) closed(ctx context.Context, tableID string) bool {
	d, err := c.client.DescribeWorkflowExecution(ctx, tableID, "")
	if err != nil {
		return false
	}
	st := d.GetWorkflowExecutionInfo().GetStatus()
	return st != enums.WORKFLOW_EXECUTION_STATUS_RUNNING && st != enums.WORKFLOW_EXECUTION_STATUS_CONTINUED_AS_NEW
}
