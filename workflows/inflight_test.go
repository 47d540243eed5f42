package workflows

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A process's Update tries on one workflow are bounded (so that the server never refuses one past
// its ten in flight, which clears the run's state there); those on another workflow are not held
// up by them, a try whose context ends stops waiting, and nothing is kept once all are done.
func TestUpdateTriesBoundedPerWorkflow(t *testing.T) {
	f := newInFlight(3)
	var now, most atomic.Int64
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			release, err := f.acquire(context.Background(), "tournament")
			if err != nil {
				t.Error(err)
				return
			}
			n := now.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			now.Add(-1)
			release()
		})
	}

	// Another workflow's try goes at once while the first's wait.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	release, err := f.acquire(ctx, "section-1")
	if err != nil {
		t.Fatalf("a try on another workflow waited: %v", err)
	}
	release()
	wg.Wait()
	if m := most.Load(); m > 3 {
		t.Errorf("%d tries on one workflow at once, expected at most 3", m)
	}
	if m := most.Load(); m < 2 {
		t.Errorf("at most %d try at once of 20: the bound let fewer through than it allows", m)
	}

	// A try whose context ends while every slot is held stops waiting, and gives back nothing.
	var held []func()
	for range 3 {
		r, err := f.acquire(context.Background(), "tournament")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, r)
	}
	short, stop := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer stop()
	if _, err := f.acquire(short, "tournament"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a try past the bound whose context ended: %v, expected the context's deadline", err)
	}
	for _, r := range held {
		r()
	}
	if n := f.held(); n != 0 {
		t.Errorf("%d workflows still kept after every try is over, expected none", n)
	}
}
