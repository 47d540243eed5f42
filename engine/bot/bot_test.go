package bot

import (
	"context"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/eval"
)

func TestChenScore(t *testing.T) {
	for _, tc := range []struct {
		hand string
		want int
	}{
		{"AsAh", 20}, {"KsKh", 16}, {"2s2h", 5}, {"5c5d", 5}, {"6c6d", 6},
		{"AsKs", 12}, {"AsKh", 10}, {"JsTs", 9}, {"Ts9h", 6}, {"5s4s", 6}, // 2.5 + 2 + 1, rounded up
		{"7s2h", -1}, {"As2h", 5}, {"Qs9s", 7},
	} {
		c := eval.MustParseCards(tc.hand)
		if got := ChenScore(c[0], c[1]); got != tc.want {
			t.Errorf("ChenScore(%s) = %d, want %d", tc.hand, got, tc.want)
		}
		if ChenScore(c[0], c[1]) != ChenScore(c[1], c[0]) {
			t.Errorf("ChenScore(%s) depends on the order of the cards", tc.hand)
		}
	}
}

// play deals hands at a table of the given bots, starting stacks stacks, and fails t on any decision
// the engine refuses. It returns the decisions made, in order.
func play(t testing.TB, bots []engine.Decider, stacks []int64, hands int, seed uint64) []engine.Decision {
	t.Helper()
	tb, err := engine.NewTable(engine.Config{Seats: len(bots)}, engine.Level{SmallBlind: 50, BigBlind: 100, Ante: 10}, engine.NewSeededDeck(seed))
	if err != nil {
		t.Fatal(err)
	}
	var out []engine.Decision
	for h := 0; h < hands; h++ {
		for s, st := range stacks {
			tb.Unseat(s)
			if err := tb.Sit(s, string(rune('a'+s)), st, engine.Active); err != nil {
				t.Fatal(err)
			}
		}
		if h == 0 {
			tb.SetButton(0)
		}
		if err := tb.StartHand(); err != nil {
			t.Fatal(err)
		}
		for tb.Phase() == engine.Betting {
			s := tb.ToAct()
			v := tb.View(s)
			d, err := bots[s].Decide(context.Background(), &v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tb.Act(s, d.Action, d.To); err != nil {
				t.Fatalf("hand %d seat %d: %+v refused: %v (legal %+v)", h, s, d, err, v.Legal)
			}
			out = append(out, d)
		}
	}
	return out
}

// Bots only ever make legal decisions, deep and short stacked, and the same seed makes the same ones.
func TestBotsLegalAndDeterministic(t *testing.T) {
	stackSets := [][]int64{
		{10000, 10000, 10000, 10000, 10000, 10000},
		{300, 1200, 80, 5000, 650, 1000},
		{150, 20000},
	}
	for _, k := range []Kind{KindRandom, KindStrength} {
		for _, stacks := range stackSets {
			mk := func() []engine.Decider {
				bots := make([]engine.Decider, len(stacks))
				for i := range bots {
					bots[i] = New(k, uint64(i+1))
				}
				return bots
			}
			a := play(t, mk(), stacks, 300, 9)
			b := play(t, mk(), stacks, 300, 9)
			if len(a) != len(b) {
				t.Fatalf("%v: %d decisions then %d", k, len(a), len(b))
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%v: decision %d: %+v then %+v", k, i, a[i], b[i])
				}
			}
			kinds := map[engine.Action]int{}
			for _, d := range a {
				kinds[d.Action]++
			}
			if len(stacks) > 2 && (kinds[engine.Fold] == 0 || kinds[engine.Call]+kinds[engine.Check] == 0 || kinds[engine.Raise]+kinds[engine.Bet]+kinds[engine.AllIn] == 0) {
				t.Errorf("%v %v: a narrow range of play: %v", k, stacks, kinds)
			}
		}
	}
}

// A table of check-folders (KindCheckFold) only checks and folds: nobody bets, so nobody can be
// put all in and only the blinds and antes change hands.
func TestCheckFoldersOnlyPassTheBlinds(t *testing.T) {
	stacks := []int64{10000, 10000, 10000, 10000}
	bots := make([]engine.Decider, len(stacks))
	for i := range bots {
		bots[i] = New(KindCheckFold, uint64(i+1))
	}
	for i, d := range play(t, bots, stacks, 200, 3) {
		if d.Action != engine.Fold && d.Action != engine.Check {
			t.Fatalf("decision %d: %+v, want a check or a fold", i, d)
		}
	}
}

// The Random bot pushes more as its stack shrinks against the blinds.
func TestRandomPushesShort(t *testing.T) {
	allIns := func(stack int64) int {
		b := NewRandom(1, RandomConfig{})
		tb, _ := engine.NewTable(engine.Config{Seats: 3}, engine.Level{SmallBlind: 50, BigBlind: 100}, engine.NewSeededDeck(1))
		tb.Sit(0, "a", stack, engine.Active)
		tb.Sit(1, "b", 10000, engine.Active)
		tb.Sit(2, "c", 10000, engine.Active)
		tb.SetButton(2) // seat 0 small blind, seat 1 big blind, seat 2 acts first
		tb.StartHand()
		tb.Call(2)
		v := tb.View(0)
		n := 0
		for i := 0; i < 1000; i++ {
			if d, _ := b.Decide(context.Background(), &v); d.Action == engine.AllIn {
				n++
			}
		}
		return n
	}
	deep, short := allIns(10000), allIns(300)
	if short < 500 || deep > 100 {
		t.Fatalf("all-in %d times in 1000 with 3 big blinds, %d with 100", short, deep)
	}
}

func TestStrengthEquity(t *testing.T) {
	b := NewStrength(1, StrengthConfig{Trials: 2000})
	eq := func(hole, board string, opp int) float64 {
		h := eval.MustParseCards(hole)
		return b.equity([2]eval.Card{h[0], h[1]}, eval.MustParseCards(board), opp)
	}
	if e := eq("AsAh", "2c7d9h", 1); e < 0.8 {
		t.Errorf("aces on 2-7-9: equity %.2f against one hand", e)
	}
	if e := eq("7s2h", "AcKdQh", 1); e > 0.25 {
		t.Errorf("7-2 on A-K-Q: equity %.2f against one hand", e)
	}
	if e1, e3 := eq("JsTs", "9s8d2c", 1), eq("JsTs", "9s8d2c", 3); e3 >= e1 {
		t.Errorf("equity against three hands %.2f, not below against one %.2f", e3, e1)
	}
	if e := eq("AsKs", "QsJsTs", 2); e != 1 {
		t.Errorf("a royal flush: equity %.2f", e)
	}
}

// Deciding allocates nothing: a simulation makes millions of decisions.
func TestDecideAllocatesNothing(t *testing.T) {
	tb, _ := engine.NewTable(engine.Config{Seats: 3}, engine.Level{SmallBlind: 50, BigBlind: 100}, engine.NewSeededDeck(1))
	for s := 0; s < 3; s++ {
		tb.Sit(s, string(rune('a'+s)), 10000, engine.Active)
	}
	tb.SetButton(2)
	tb.StartHand()
	tb.Call(2)
	tb.Call(0)
	tb.Check(1) // the flop
	v := tb.View(tb.ToAct())
	for _, d := range []engine.Decider{NewRandom(1, RandomConfig{}), NewStrength(1, StrengthConfig{})} {
		if n := testing.AllocsPerRun(100, func() { d.Decide(context.Background(), &v) }); n != 0 {
			t.Errorf("%T: %v allocations a decision", d, n)
		}
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range []Kind{KindRandom, KindStrength, KindCheckFold} {
		if got, err := ParseKind(k.String()); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKind("shark"); err == nil {
		t.Error("ParseKind accepted an unknown bot")
	}
}

func benchDecide(b *testing.B, d engine.Decider, flop bool) {
	tb, _ := engine.NewTable(engine.Config{Seats: 6}, engine.Level{SmallBlind: 50, BigBlind: 100}, engine.NewSeededDeck(1))
	for s := 0; s < 6; s++ {
		tb.Sit(s, string(rune('a'+s)), 10000, engine.Active)
	}
	tb.SetButton(5)
	tb.StartHand()
	if flop {
		for tb.Round() == engine.Preflop {
			if s := tb.ToAct(); !tb.CanCheck(s) {
				tb.Call(s)
			} else {
				tb.Check(s)
			}
		}
	}
	v := tb.View(tb.ToAct())
	b.ReportAllocs()
	for b.Loop() {
		d.Decide(context.Background(), &v)
	}
}

func BenchmarkRandomDecide(b *testing.B) { benchDecide(b, NewRandom(1, RandomConfig{}), false) }
func BenchmarkStrengthPreflop(b *testing.B) {
	benchDecide(b, NewStrength(1, StrengthConfig{}), false)
}
func BenchmarkStrengthFlop(b *testing.B) { benchDecide(b, NewStrength(1, StrengthConfig{}), true) }
