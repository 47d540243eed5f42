package main

import (
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
)

// The tournament's answer stands still between its workflow tasks: the countdown runs on from it,
// and starts again from each new answer.
func TestLevelCountdownRunsBetweenAnswers(t *testing.T) {
	var c levelCountdown
	t0 := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	answer := func(level int, in time.Duration, paused bool, at time.Duration) time.Duration {
		p := workflows.Progress{Level: level, NextLevelIn: in, Paused: paused}
		c.run(&p, t0.Add(at))
		return p.NextLevelIn
	}
	for _, step := range []struct {
		level    int
		in       time.Duration
		paused   bool
		at, want time.Duration
	}{
		{3, 15 * time.Second, false, 0, 15 * time.Second},
		{3, 15 * time.Second, false, 4 * time.Second, 11 * time.Second}, // the same answer: 4 s later
		{3, 15 * time.Second, false, 20 * time.Second, 0},               // never below zero
		{3, 9 * time.Second, false, 21 * time.Second, 9 * time.Second},  // a new answer
		{3, 9 * time.Second, false, 22 * time.Second, 8 * time.Second},
		{3, 9 * time.Second, true, 30 * time.Second, 9 * time.Second},  // paused: the clock stands
		{4, 9 * time.Second, false, 31 * time.Second, 9 * time.Second}, // another level
	} {
		if got := answer(step.level, step.in, step.paused, step.at); got != step.want {
			t.Errorf("level %d, answer %v at %v: shows %v, want %v", step.level, step.in, step.at, got, step.want)
		}
	}
}

// The bar counts the eliminations of the whole field, late entries included.
func TestProgressBarFollowsTheField(t *testing.T) {
	var out nopWriter
	b := newProgressBar(&out, 10)
	b.Update(workflows.Progress{Entries: 10, PlayersLeft: 10})
	if got := b.bar.GetMax64(); got != 9 {
		t.Fatalf("max %d for 10 entries, want 9", got)
	}
	b.Update(workflows.Progress{Entries: 14, PlayersLeft: 7})
	if got := b.bar.GetMax64(); got != 13 {
		t.Fatalf("max %d for 14 entries, want 13", got)
	}
	if got := b.bar.State().CurrentNum; got != 7 {
		t.Fatalf("bar at %d, want 7 eliminations", got)
	}
}

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }
