package workflows

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

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
	// Simulation: the process plays as fast as it can (bots, no action clock).
	Simulation bool `json:"simulation,omitempty"`
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

// DeleteTable is the activity that stops a table's process.
func (a *TableActivities) DeleteTable(ctx context.Context, id string) error {
	return a.Host.DeleteTable(ctx, id)
}

// ReplaceTable is the activity that replaces a silent table's process.
func (a *TableActivities) ReplaceTable(ctx context.Context, t HostedTable) error {
	return a.Host.ReplaceTable(ctx, t)
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
	CreateTableActivity  = "CreateTable"
	CreateTablesActivity = "CreateTables"
	DeleteTableActivity  = "DeleteTable"
	ReplaceTableActivity = "ReplaceTable"
)
