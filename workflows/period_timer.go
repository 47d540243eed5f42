package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// periodTimer is the one timer a director's workflow keeps on the end of the clock's period (B3):
// pauses and added time move it, a paused or final period has none.
type periodTimer struct {
	timer  workflow.Future
	at     time.Time
	cancel workflow.CancelFunc
}

// arm keeps the timer on the end of the period cs describes at now (ok false: the clock could not
// say, and no timer runs).
func (p *periodTimer) arm(ctx workflow.Context, now time.Time, cs floor.ClockState, ok bool) {
	var at time.Time
	if ok && !cs.Paused && !cs.Final && cs.Remaining > 0 {
		at = now.Add(cs.Remaining)
	}
	p.armAt(ctx, now, at)
}

// armAt keeps the timer on at (zero: none runs). The tournament also keeps one so on the end of
// its sections' quiet (director.TopState.QuietEnds).
func (p *periodTimer) armAt(ctx workflow.Context, now, at time.Time) {
	if p.timer != nil && !p.timer.IsReady() && p.at.Equal(at) {
		return
	}
	p.stop()
	p.at = at
	if at.IsZero() {
		return
	}
	tctx, cancel := workflow.WithCancel(ctx)
	p.timer, p.cancel = workflow.NewTimer(tctx, at.Sub(now)), cancel
}

// stop cancels the timer running, if any.
func (p *periodTimer) stop() {
	if p.cancel != nil {
		p.cancel()
	}
	p.timer, p.cancel = nil, nil
}

// fired reports whether the period's end has come.
func (p *periodTimer) fired() bool { return p.timer != nil && p.timer.IsReady() }
