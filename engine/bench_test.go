package engine

import (
	"testing"
)

// randomPlayer picks a uniformly random legal action, and a uniform amount for a bet or raise.
type randomPlayer struct {
	rng *SeededDeck
	l   Legal
}

func (p *randomPlayer) act(t *Table) {
	t.FillLegal(&p.l)
	l := &p.l
	var opts [6]Action
	n := 0
	add := func(ok bool, a Action) {
		if ok {
			opts[n] = a
			n++
		}
	}
	add(l.Fold, Fold)
	add(l.Check, Check)
	add(l.Call, Call)
	add(l.Bet, Bet)
	add(l.Raise, Raise)
	add(l.AllIn, AllIn)
	a := opts[p.rng.Intn(n)]
	var to int64
	if a == Bet || a == Raise {
		to = l.MinTo + int64(p.rng.Intn(int(l.MaxTo-l.MinTo+1)))
	}
	t.Act(l.Seat, a, to)
}

// BenchmarkRandomHands6Max: whole hands (dealing, betting with random legal actions, showdown
// evaluation, pots) at a 6-max table, 10,000-chip stacks, blinds 50/100, from a fixed seed.
func BenchmarkRandomHands6Max(b *testing.B) {
	tb := newTestTable(b, Config{}, lv50, NewSeededDeck(1), 10000, 10000, 10000, 10000, 10000, 10000)
	p := &randomPlayer{rng: NewSeededDeck(2)}
	actions := 0
	b.ReportAllocs()
	for b.Loop() {
		for s := 0; s < 6; s++ {
			tb.seats[s].stack, tb.seats[s].state = 10000, Active
		}
		if err := tb.StartHand(); err != nil {
			b.Fatal(err)
		}
		for tb.h.phase == Betting {
			p.act(tb)
			actions++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/hand")
}
