package host

import (
	"context"
	"sync"
	"time"
)

// Clock is the runner's only source of time: the action clock (rule A15), the waits the tournament
// asks for, and the backoff between retried reports. RealClock is the wall clock; FakeClock lets tests
// and a simulation at full speed skip time.
type Clock interface {
	Now() time.Time
	// Sleep waits d, or until ctx ends, and then returns ctx.Err().
	Sleep(ctx context.Context, d time.Duration) error
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx ends.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// After is time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// FakeClock is a clock whose time moves only when told: Sleep moves it forward at once (so a wait
// or a backoff costs no real time), and Advance moves it for a test playing a slow player. Timers
// from After fire when the clock reaches them. It is safe for concurrent use.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	slept  time.Duration
	sleeps int
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Time
	ch chan time.Time
}

// NewFakeClock returns a fake clock reading start.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now returns the clock's time.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep moves the clock forward by d at once, unless ctx has ended.
func (c *FakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.slept += max(d, 0)
	c.sleeps++
	c.mu.Unlock()
	c.Advance(d)
	return nil
}

// After returns a channel that receives once the clock has moved d forward.
func (c *FakeClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	at := c.now.Add(d)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.timers = append(c.timers, fakeTimer{at: at, ch: ch})
	return ch
}

// Advance moves the clock forward by d and fires the timers it reaches.
func (c *FakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now = c.now.Add(d)
	}
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at.After(c.now) {
			kept = append(kept, t)
			continue
		}
		t.ch <- c.now
	}
	clear(c.timers[len(kept):])
	c.timers = kept
}

// Slept returns the time spent in Sleep and how many calls there were.
func (c *FakeClock) Slept() (time.Duration, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slept, c.sleeps
}
