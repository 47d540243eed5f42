package host_test

import (
	"context"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// Observe sees each hand once dealt and after every action: within a hand the log grows at every
// call, and every hand ends in a call that sees it over.
func TestObserveSeesEveryAction(t *testing.T) {
	c := threeHanded(t)
	var calls, ended, hands int
	lastLen := 0
	r := host.NewRunner("t1", c, bot.Players(3), host.Options{Deck: engine.NewSeededDeck(3), Clock: host.NewFakeClock(epoch),
		Observe: func(tb *engine.Table) {
			calls++
			log := tb.Log()
			if len(log) == 0 || log[0].Kind != engine.EvHandStart {
				t.Fatalf("call %d: a log that does not start with the hand", calls)
			}
			if len(log) <= lastLen {
				t.Fatalf("call %d: the log did not grow (%d events, %d before)", calls, len(log), lastLen)
			}
			lastLen = len(log)
			if tb.Phase() != engine.Betting {
				ended++
				lastLen = 0
			}
		},
		OnHand: func(*report.HandResult) { hands++ },
	})
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hands == 0 || ended != hands || calls <= 2*hands {
		t.Fatalf("%d calls, %d hands ended in them, %d hands played", calls, ended, hands)
	}
}
