package tableserver

import (
	"sync"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// Config.Observe sees each hand the table plays: dealt (betting), after each action, and over
// (complete), in order, after the server's own observe (its lock is free: the hook may call the
// server).
func TestObserveSeesEveryHandDealtAndOver(t *testing.T) {
	type seen struct {
		hand  int64
		phase engine.Phase
	}
	var mu sync.Mutex
	var log []seen
	hands := make(chan int64, 100)
	var tt *testTable
	tt, open := serve(t, 3, Config{Bots: engine.PlayersFunc(checkFolders),
		Observe: func(tb *engine.Table) {
			_, _ = tt.srv.InHand() // takes the server's lock: not held during the hook
			mu.Lock()
			log = append(log, seen{tb.Header().Number, tb.Phase()})
			mu.Unlock()
		},
		OnHand: func(r *report.HandResult) {
			select {
			case hands <- r.HandNumber:
			default:
			}
		}})
	open()
	var played []int64
	for range 5 {
		played = append(played, <-hands)
	}
	tt.cancel()
	tt.wait()
	mu.Lock()
	defer mu.Unlock()
	for _, n := range played {
		first, last := -1, -1
		for i, s := range log {
			if s.hand == n {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first < 0 || log[first].phase != engine.Betting || log[last].phase != engine.Complete || last-first < 1 {
			t.Fatalf("hand %d: observed %v (at %d to %d)", n, log, first, last)
		}
	}
}
