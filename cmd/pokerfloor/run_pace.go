package main

import (
	"context"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/engine/report"
)

// pacedReporter deals hands at a live pace on a compressed clock: bots decide at once, so
// unpaced tables would play hundreds of hands in a level the clock makes last seconds, and the
// blinds would never matter. Each table's report of n hands returns no sooner than n hand-times
// after its previous one, so a table deals one hand every perHand: workflows.DefaultHandTime
// divided by --speed, the same hands per level as a simulation at full speed counts.
type pacedReporter struct {
	inner   report.Reporter
	perHand time.Duration

	mu   sync.Mutex
	last map[string]time.Time // when each table's last report returned
}

func newPacedReporter(inner report.Reporter, perHand time.Duration) *pacedReporter {
	return &pacedReporter{inner: inner, perHand: perHand, last: map[string]time.Time{}}
}

func (p *pacedReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	played := 0
	for _, r := range results {
		if !r.Voided {
			played++
		}
	}
	p.mu.Lock()
	last, seen := p.last[tableID]
	p.mu.Unlock()
	if seen && played > 0 {
		wait := time.Until(last.Add(time.Duration(played) * p.perHand))
		if wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				timer.Stop()
				return report.State{}, ctx.Err()
			case <-timer.C:
			}
		}
	}
	st, err := p.inner.Report(ctx, tableID, results)
	p.mu.Lock()
	p.last[tableID] = time.Now()
	p.mu.Unlock()
	return st, err
}
