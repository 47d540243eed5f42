package controllers

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A Tournament whose workflow failed to answer many times in a row is tried again within
// MaxRetryDelay, not after controller-runtime's default of up to 1,000 s: a director's spec.paused
// written after a slow minute of Temporal is applied within half a minute of Temporal answering.
func TestTournamentRetriesAreCapped(t *testing.T) {
	limiter := tournamentRetries()
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "club", Name: "night"}}
	var last, longest = limiter.When(req), limiter.When(req)
	for range 40 {
		last = limiter.When(req)
		longest = max(longest, last)
	}
	if longest > MaxRetryDelay || last != MaxRetryDelay {
		t.Errorf("after 42 failures in a row the delay is %v (longest %v), want at most and at last %v", last, longest, MaxRetryDelay)
	}
	limiter.Forget(req)
	if d := limiter.When(req); d > MaxRetryDelay/100 {
		t.Errorf("after a success the first retry waits %v, want the short one again", d)
	}
}
