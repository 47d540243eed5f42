// Package reporttest holds Reporters for the tests of the table runtime and of what serves it
// (engine/tableserver, the manager's gateway).
package reporttest

import (
	"context"
	"sync"

	"github.com/pokerfloor/pokerfloor/engine/report"
)

// Gated holds every report until Open is called: a table process whose TableWorkflow has not
// answered yet (its Pod starting, its workflow not yet started).
type Gated struct {
	inner report.Reporter
	open  chan struct{}
	once  sync.Once
}

// NewGated gates inner; its reports wait for Open.
func NewGated(inner report.Reporter) *Gated {
	return &Gated{inner: inner, open: make(chan struct{})}
}

// Open lets the reports through, the ones waiting and every later one; calling it again does
// nothing.
func (g *Gated) Open() { g.once.Do(func() { close(g.open) }) }

// Report waits for Open (or ctx) and then reports through the gated Reporter.
func (g *Gated) Report(ctx context.Context, id string, rs []report.HandResult) (report.State, error) {
	select {
	case <-g.open:
	case <-ctx.Done():
		return report.State{}, ctx.Err()
	}
	return g.inner.Report(ctx, id, rs)
}
