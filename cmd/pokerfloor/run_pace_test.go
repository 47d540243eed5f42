package main

import (
	"context"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine/report"
)

// countingReporter acknowledges every report at once.
type countingReporter struct{ reports int }

func (c *countingReporter) Report(context.Context, string, []report.HandResult) (report.State, error) {
	c.reports++
	return report.State{Directive: report.Play}, nil
}

// On a compressed clock a table deals a hand per hand-time: a report of n hands returns n
// hand-times after the table's last one; the first report, and one of void hands only, at once.
func TestPacedReporterDealsAtTheClocksPace(t *testing.T) {
	const perHand = 40 * time.Millisecond
	inner := &countingReporter{}
	p := newPacedReporter(inner, perHand)
	ctx := context.Background()
	hand := []report.HandResult{{HandNumber: 1}}
	took := func(results []report.HandResult, id string) time.Duration {
		start := time.Now()
		if _, err := p.Report(ctx, id, results); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	if d := took(nil, "t1"); d >= perHand {
		t.Errorf("first report took %v", d)
	}
	if d := took(hand, "t1"); d < perHand-5*time.Millisecond {
		t.Errorf("a hand reported after %v, want about %v", d, perHand)
	}
	if d := took([]report.HandResult{{HandNumber: 2}, {HandNumber: 3}}, "t1"); d < 2*perHand-5*time.Millisecond {
		t.Errorf("two hands reported after %v, want about %v", d, 2*perHand)
	}
	if d := took([]report.HandResult{{HandNumber: 4, Voided: true}}, "t1"); d >= perHand {
		t.Errorf("a void hand waited %v", d)
	}
	if d := took(nil, "t2"); d >= perHand {
		t.Errorf("another table's first report waited %v", d)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Report(cctx, "t1", hand); err == nil {
		t.Error("a cancelled report went through")
	}
	if inner.reports != 5 {
		t.Errorf("%d reports reached the tournament, want 5", inner.reports)
	}
}
