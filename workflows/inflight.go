package workflows

import (
	"context"
	"sync"
)

// updatesInFlight is how many Updates one process has under way on one workflow at once, each
// from its first try until it is taken (ReportTableEvents' and ReportSection's,
// updateUntilTaken): below the server's ten in flight
// a run (history.maxInFlightUpdates), with room for the director's own. The server refuses an
// Update past its ten, and its refusal is an error under the run's lock, which clears the run's
// state from the server's cache: the updates it had taken in are aborted and the speculative
// task its worker is working on is lost ("Workflow task not found"), so the worker drops the run
// and replays its whole history for the next task. 112 tables racing for the ten did that to a
// tournament 317 to 469 times a run alone, and stalled its field under load (docs/design.md,
// "The stall of one tournament of 112 tables under load").
const updatesInFlight = 8

// inFlight bounds the Updates under way on each workflow: a slot an Update, given back when it
// is taken or given up.
type inFlight struct {
	size  int
	mu    sync.Mutex
	slots map[string]*slots
}

type slots struct {
	ch    chan struct{}
	users int // Updates waiting for a slot or holding one: the entry goes with the last
}

// updateTries bounds this process's Updates under way on each workflow.
var updateTries = newInFlight(updatesInFlight)

func newInFlight(size int) *inFlight {
	return &inFlight{size: size, slots: map[string]*slots{}}
}

// acquire waits for a slot on workflow id, or for ctx to end; it returns the function that gives
// the slot back.
func (f *inFlight) acquire(ctx context.Context, id string) (release func(), err error) {
	f.mu.Lock()
	s := f.slots[id]
	if s == nil {
		s = &slots{ch: make(chan struct{}, f.size)}
		f.slots[id] = s
	}
	s.users++
	f.mu.Unlock()
	done := func() {
		f.mu.Lock()
		if s.users--; s.users == 0 {
			delete(f.slots, id)
		}
		f.mu.Unlock()
	}
	select {
	case s.ch <- struct{}{}:
		return func() { <-s.ch; done() }, nil
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
}

// held is the number of workflows with an Update waiting for a slot or under way (for tests).
func (f *inFlight) held() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.slots)
}
