package engine

import (
	"testing"
)

// foldOut ends the hand by folding whoever is to act until one player is left.
func foldOut(t *testing.T, tb *Table) {
	t.Helper()
	for tb.Phase() == Betting {
		if _, err := tb.Fold(tb.ToAct()); err != nil {
			t.Fatal(err)
		}
	}
}

func posts(log []Event) (sb, bb int) {
	sb, bb = -1, -1
	for _, e := range log {
		switch e.Kind {
		case EvSmallBlind:
			sb = int(e.Seat)
		case EvBigBlind:
			bb = int(e.Seat)
		}
	}
	return
}

// rule B1: the small blind is posted by the first player after the button, the big blind (twice
// the small blind) by the next.
func TestRuleB1Blinds(t *testing.T) {
	tb := six(t, Config{})
	sb, bb := posts(tb.Log())
	if tb.Button() != 5 || sb != 0 || bb != 1 {
		t.Fatalf("button %d sb %d bb %d", tb.Button(), sb, bb)
	}
	for _, e := range tb.Log() {
		if e.Kind == EvSmallBlind && e.Amount != 50 || e.Kind == EvBigBlind && e.Amount != 100 {
			t.Fatalf("%v", e)
		}
	}
}

// rule B2: antes, everyone (the seeds) or one big-blind ante (TDA), posted after the big blind and
// dead money in the main pot.
func TestRuleB2Antes(t *testing.T) {
	lv := Level{SmallBlind: 50, BigBlind: 100, Ante: 10}
	tb := newTestTable(t, Config{}, lv, nil, 1000, 1000, 1000, 5)
	mustStart(t, tb)
	antes := 0
	for _, e := range tb.Log() {
		if e.Kind == EvAnte {
			antes++
			if e.Seat == 3 && (e.Amount != 5 || !e.AllIn) {
				t.Fatalf("short stack's ante: %v", e)
			}
		}
	}
	if antes != 4 || tb.View(FullView).Pot != 35+150 {
		t.Fatalf("antes %d, pot %d", antes, tb.View(FullView).Pot)
	}

	// Big-blind ante: the big blind is posted first; a short big blind's ante is dead money in the
	// main pot, not a side pot of its own.
	lv = Level{SmallBlind: 50, BigBlind: 100, Ante: 100}
	deck := scripted([]string{"2c3d", "AsAh", "7c8d"}, "KsQd9h4c5s")
	tb = newTestTable(t, Config{AnteMode: AnteBigBlind}, lv, deck, 1000, 150, 1000)
	mustStart(t, tb)
	var order []EventKind
	for _, e := range tb.Log() {
		if e.Kind == EvAnte || e.Kind == EvBigBlind || e.Kind == EvSmallBlind {
			order = append(order, e.Kind)
			if e.Kind == EvAnte && (e.Seat != 1 || e.Amount != 50) {
				t.Fatalf("big-blind ante %v", e)
			}
		}
	}
	if len(order) != 3 || order[1] != EvBigBlind || order[2] != EvAnte {
		t.Fatalf("posting order %v", order)
	}
	run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}})
	// The big blind is all-in: the betting goes on between seats 0 and 2.
	for tb.Phase() == Betting {
		if tb.CanCheck(tb.ToAct()) {
			tb.Check(tb.ToAct())
		} else {
			tb.Call(tb.ToAct())
		}
	}
	if got := tb.Stack(1); got != 350 {
		t.Fatalf("the big blind's aces win 3×100 + the dead 50: stack %d, want 350\n%v", got, actionsOf(tb.Log()))
	}
}

// rule B3: a new level applies from the next hand, never to the hand in progress.
func TestRuleB3LevelNextHand(t *testing.T) {
	tb := six(t, Config{})
	if err := tb.SetLevel(Level{SmallBlind: 100, BigBlind: 200}); err != nil {
		t.Fatal(err)
	}
	if tb.MinRaiseTo() != 200 {
		t.Fatalf("the hand in progress changed level")
	}
	foldOut(t, tb)
	mustStart(t, tb)
	for _, e := range tb.Log() {
		if e.Kind == EvBigBlind && e.Amount != 200 {
			t.Fatalf("next hand's big blind %d", e.Amount)
		}
	}
}

// rule B4: the button moves one seat clockwise each hand.
func TestRuleB4ButtonMoves(t *testing.T) {
	for _, rule := range []ButtonRule{ButtonDead, ButtonSeed000} {
		tb := newTestTable(t, Config{ButtonRule: rule}, lv50, nil, 1000, 1000, 1000, 1000)
		for want := 3; want < 10; want++ {
			mustStart(t, tb)
			if tb.Button() != want%4 {
				t.Fatalf("%v: button %d, want %d", rule, tb.Button(), want%4)
			}
			foldOut(t, tb)
		}
	}
}

// rule B5: eliminations around the blinds, by each button policy.
func TestRuleB5Eliminations(t *testing.T) {
	type pos struct{ button, sb, bb int }
	cases := []struct {
		name string
		rule ButtonRule
		out  int   // the seat eliminated after the first hand (button 4, sb 0, bb 1)
		want []pos // the next hands; sb -1 is no small blind
	}{
		{"dead: big blind out, no small blind", ButtonDead, 1, []pos{{0, -1, 2}, {1, 2, 3}}},
		{"dead: small blind out, dead button", ButtonDead, 0, []pos{{0, 1, 2}, {1, 2, 3}}},
		{"seed000: small blind out, the button stays", ButtonSeed000, 0, []pos{{4, 1, 2}, {1, 2, 3}}},
		{"seed000: big blind out, no small blind, then the button stays", ButtonSeed000, 1, []pos{{0, -1, 2}, {0, 2, 3}, {2, 3, 4}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := newTestTable(t, Config{ButtonRule: c.rule}, lv50, nil, 1000, 1000, 1000, 1000, 1000)
			mustStart(t, tb)
			foldOut(t, tb)
			tb.SetState(c.out, Eliminated)
			for i, w := range c.want {
				mustStart(t, tb)
				sb, bb := posts(tb.Log())
				if tb.Button() != w.button || sb != w.sb || bb != w.bb {
					t.Fatalf("hand %d: button %d sb %d bb %d, want %+v", i+2, tb.Button(), sb, bb, w)
				}
				foldOut(t, tb)
			}
		})
	}
}

// rule B6: when play becomes heads-up nobody posts the big blind twice in a row, and the button posts
// the small blind.
func TestRuleB6SwitchToHeadsUp(t *testing.T) {
	for _, rule := range []ButtonRule{ButtonDead, ButtonSeed000} {
		for out := 0; out < 3; out++ {
			tb := newTestTable(t, Config{ButtonRule: rule}, lv50, nil, 1000, 1000, 1000)
			mustStart(t, tb)
			_, bb1 := posts(tb.Log())
			foldOut(t, tb)
			tb.SetState(out, Eliminated)
			mustStart(t, tb)
			sb, bb := posts(tb.Log())
			if bb == bb1 || sb != tb.Button() || sb == bb {
				t.Fatalf("%v, seat %d out: big blind %d then %d, small blind %d, button %d", rule, out, bb1, bb, sb, tb.Button())
			}
			foldOut(t, tb)
			mustStart(t, tb)
			if _, bb2 := posts(tb.Log()); bb2 == bb {
				t.Fatalf("heads-up big blind twice in a row")
			}
		}
	}
}

// rule B7: a player who joins may be big blind at once, but is not dealt in while seated between
// the button and the small blind; he waits for the button to pass.
func TestRuleB7NewPlayer(t *testing.T) {
	t.Run("waits between the button and the small blind", func(t *testing.T) {
		tb, _ := NewTable(Config{Seats: 8}, lv50, NewSeededDeck(1))
		for _, s := range []int{0, 2, 3, 4, 5} {
			tb.Sit(s, "p", 1000, Active)
		}
		tb.SetButton(5)
		mustStart(t, tb) // button 5, sb 0, bb 2
		foldOut(t, tb)
		tb.Sit(1, "new", 1000, WaitingForButton)
		mustStart(t, tb) // bb 3, sb 2, button 0: seat 1 sits between the button and the small blind
		if tb.h.dealt[1] || tb.Player(1).State != WaitingForButton {
			t.Fatalf("seat 1 dealt in between the button %d and the small blind %d", tb.Button(), tb.h.sb)
		}
		foldOut(t, tb)
		mustStart(t, tb) // the button passed seat 1
		if !tb.h.dealt[1] || tb.Player(1).State != Active {
			t.Fatalf("seat 1 not dealt in after the button passed (button %d)", tb.Button())
		}
	})
	t.Run("may be big blind at once", func(t *testing.T) {
		tb, _ := NewTable(Config{Seats: 6}, lv50, NewSeededDeck(1))
		for _, s := range []int{0, 1, 3, 4} {
			tb.Sit(s, "p", 1000, Active)
		}
		tb.SetButton(4)
		mustStart(t, tb) // button 4, sb 0, bb 1
		foldOut(t, tb)
		tb.Sit(2, "new", 1000, WaitingForButton)
		mustStart(t, tb)
		if _, bb := posts(tb.Log()); bb != 2 || !tb.h.dealt[2] {
			t.Fatalf("the newcomer should be the big blind, bb %d", bb)
		}
	})
}

// rule B8: every player pays the blinds every round.
func TestRuleB8BlindsEveryRound(t *testing.T) {
	tb := six(t, Config{})
	foldOut(t, tb)
	var bbs [6]int
	for i := 0; i < 12; i++ {
		mustStart(t, tb)
		_, bb := posts(tb.Log())
		bbs[bb]++
		foldOut(t, tb)
	}
	for s, n := range bbs {
		if n != 2 {
			t.Fatalf("seat %d posted the big blind %d times in two rounds", s, n)
		}
	}
}

// rule T4 and rule T5: a player sitting out (late, or at his request) posts blinds and antes, is dealt
// in and his hand is folded. Rule P3: the same for a penalised player.
func TestRuleT4T5P3AbsentPlayers(t *testing.T) {
	for _, st := range []PlayerState{SittingOut, Penalised} {
		lv := Level{SmallBlind: 50, BigBlind: 100, Ante: 10}
		tb := newTestTable(t, Config{}, lv, nil, 1000, 1000, 1000, 1000)
		tb.SetState(1, st) // the big blind
		mustStart(t, tb)
		var ante, blind, hole, kill bool
		// Everyone else folds to the small blind: the absent big blind's hand is dead and never
		// wins, so it is killed and the small blind takes the pot without acting.
		run(t, tb, []step{{2, Fold, 0, ""}, {3, Fold, 0, ""}})
		for _, e := range tb.Log() {
			if e.Seat != 1 {
				continue
			}
			switch e.Kind {
			case EvAnte:
				ante = true
			case EvBigBlind:
				blind = e.Amount == 100
			case EvHole:
				hole = true
			case EvKill:
				kill = true
			}
		}
		if !ante || !blind || !hole || !kill {
			t.Fatalf("%v: ante %v blind %v dealt %v killed %v", st, ante, blind, hole, kill)
		}
		// Nobody can win more than the pot: folding round gives seat 0 everything; the big blind's
		// hand was killed when its turn came.
		if !tb.h.folded[1] || tb.Phase() != Complete {
			t.Fatalf("%v: the absent hand is still live", st)
		}
		if tb.Stack(0) != 1000+100+30 || tb.Stack(1) != 890 {
			t.Fatalf("%v: stacks %d %d", st, tb.Stack(0), tb.Stack(1))
		}
		// Back at the table: plays the next hand.
		tb.SetState(1, Active)
		mustStart(t, tb)
		for _, e := range tb.Log() {
			if e.Kind == EvKill {
				t.Fatalf("%v: killed after coming back", st)
			}
		}
	}
}

// rule T5, rule P3: an absent hand is folded at its first turn, and a dead hand never wins: when the
// only opponents left to a live player are hands still to kill, they are killed and he wins.
func TestRuleP3DeadHandNeverWins(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 1000, 1000, 1000)
	tb.SetState(1, Penalised)  // the big blind
	tb.SetState(2, SittingOut) // the button, first to act
	mustStart(t, tb)
	// The small blind's only opponents are two hands to kill: both are killed at once, before any
	// turn, and he takes the pot.
	if tb.Phase() != Complete || tb.Stack(0) != 1100 || tb.Stack(1) != 900 || tb.Stack(2) != 1000 {
		t.Fatalf("phase %v, stacks %d %d %d\n%v", tb.Phase(), tb.Stack(0), tb.Stack(1), tb.Stack(2), actionsOf(tb.Log()))
	}
	kills := kindsOf(tb.Log(), EvKill)
	if len(kills) != 2 || kills[0].Seat != 2 || kills[0].Amount != 1 || kills[1].Seat != 1 || kills[1].Amount != 1 {
		t.Fatalf("kills %v", kills)
	}
}
