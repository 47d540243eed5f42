package eval

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func hands(s ...string) [][]Card {
	out := make([][]Card, len(s))
	for i, h := range s {
		out[i] = MustParseCards(h)
	}
	return out
}

// bruteForceEquity deals every board the plain way — each combination of the cards left, evaluated
// from scratch with EvalSet — to check ExactEquity's incremental enumeration.
func bruteForceEquity(t *testing.T, hs [][]Card, board, dead []Card) []HandEquity {
	t.Helper()
	used := NewCardSet(board...) | NewCardSet(dead...)
	for _, h := range hs {
		used |= NewCardSet(h...)
	}
	var deck []Card
	for i := 0; i < NumCards; i++ {
		if c := CardFromIndex(i); !used.Has(c) {
			deck = append(deck, c)
		}
	}
	tl := &tally{n: len(hs)}
	var v [MaxEquityHands]Value
	var rec func(from, need int, b CardSet)
	rec = func(from, need int, b CardSet) {
		if need == 0 {
			for i, h := range hs {
				v[i] = EvalSet(b | NewCardSet(h...))
			}
			tl.add(&v)
			return
		}
		for i := from; i <= len(deck)-need; i++ {
			rec(i+1, need-1, b.Add(deck[i]))
		}
	}
	rec(0, 5-len(board), NewCardSet(board...))
	return tl.result()
}

func TestExactEquityKnownValues(t *testing.T) {
	for _, tc := range []struct {
		name        string
		hands       []string
		board, dead string
		hand        int
		lo, hi      float64
	}{
		{"AKs vs QQ preflop: QQ about 54%", []string{"AsKs", "QdQc"}, "", "", 1, 0.535, 0.545},
		{"AA vs KK preflop: AA about 82%", []string{"AhAd", "KsKc"}, "", "", 0, 0.81, 0.83},
		{"dominated: AK vs AQ", []string{"AhKd", "AsQc"}, "", "", 0, 0.70, 0.76},
		{"three-way: AA vs KK vs QQ", []string{"AhAd", "KsKc", "QhQs"}, "", "", 0, 0.64, 0.68},
		{"a board given: flush draw against a set on the flop", []string{"7c7d", "AhKh"}, "7h2h9s", "", 1, 0.20, 0.30},
		{"dead cards: QQ loses its set outs", []string{"AsKs", "QdQc"}, "", "QhQs", 1, 0.42, 0.50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eq, err := ExactEquity(hands(tc.hands...), MustParseCards(tc.board), MustParseCards(tc.dead))
			if err != nil {
				t.Fatal(err)
			}
			if got := eq[tc.hand].Equity; got < tc.lo || got > tc.hi {
				t.Errorf("hand %d equity %.4f, want %.3f..%.3f (all: %+v)", tc.hand, got, tc.lo, tc.hi, eq)
			}
			sum := 0.0
			for _, e := range eq {
				sum += e.Equity
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("equities sum to %v", sum)
			}
		})
	}
}

func TestExactEquityMatchesBruteForce(t *testing.T) {
	for _, tc := range []struct {
		hands       []string
		board, dead string
	}{
		{[]string{"AsKs", "QdQc"}, "", ""},
		{[]string{"AhAd", "KsKc", "QhQs"}, "2c7d9h", ""},
		{[]string{"AhKh", "2c2d"}, "QhJh3s", "4h"},
		{[]string{"9s8s", "AcKd", "7h7d", "Qc2c"}, "Ts6s2d3h", ""},
		{[]string{"AhAd", "KsKc"}, "QhJhTh9h", "8h"},
		// Heads-up with two board cards to come, where two more cannot make either hand a flush
		// (the rank-sum loop of lastTwoHeadsUp) and, preflop, where they can.
		{[]string{"AhKd", "QsJc"}, "2c7d9h", ""},
		{[]string{"7c2d", "8h3s"}, "", ""},
	} {
		board, dead := MustParseCards(tc.board), MustParseCards(tc.dead)
		got, err := ExactEquity(hands(tc.hands...), board, dead)
		if err != nil {
			t.Fatal(err)
		}
		want := bruteForceEquity(t, hands(tc.hands...), board, dead)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%v board %q: hand %d %+v, brute force %+v", tc.hands, tc.board, i, got[i], want[i])
			}
		}
	}
}

// rule S2: equal hands split the pot. A royal flush on the board ties everyone.
func TestRuleS2EquityBoardRoyalFlushTies(t *testing.T) {
	eq, err := ExactEquity(hands("2c3c", "4d5d", "7s8s"), MustParseCards("AhKhQhJhTh"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range eq {
		if e.Tie != 1 || e.Win != 0 || math.Abs(e.Equity-1.0/3) > 1e-12 {
			t.Errorf("hand %d: %+v, want a tie every time and a third of the pot", i, e)
		}
	}
}

func TestMonteCarloEquity(t *testing.T) {
	hs := hands("AsKs", "QdQc")
	exact, _ := ExactEquity(hs, nil, nil)
	mc, err := MonteCarloEquity(hs, nil, nil, 200_000, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range exact {
		if d := math.Abs(mc[i].Equity - exact[i].Equity); d > 0.006 {
			t.Errorf("hand %d: Monte Carlo %.4f, exact %.4f", i, mc[i].Equity, exact[i].Equity)
		}
	}
	again, _ := MonteCarloEquity(hs, nil, nil, 200_000, 7)
	if again[0] != mc[0] {
		t.Error("the same seed gave another result")
	}
	// A flop given, three hands.
	hs = hands("AhAd", "KsKc", "9h8h")
	board := MustParseCards("7h6c2h")
	exact, _ = ExactEquity(hs, board, nil)
	mc, _ = MonteCarloEquity(hs, board, nil, 100_000, 1)
	for i := range exact {
		if d := math.Abs(mc[i].Equity - exact[i].Equity); d > 0.01 {
			t.Errorf("flop hand %d: Monte Carlo %.4f, exact %.4f", i, mc[i].Equity, exact[i].Equity)
		}
	}
}

func TestEquityRejectsBadInput(t *testing.T) {
	for _, tc := range []struct {
		hands       []string
		board, dead string
		trials      int
		want        string
	}{
		{[]string{"AsKs"}, "", "", 0, "equity needs 2 to 10 hands, got 1"},
		{[]string{"AsKs", "Qd"}, "", "", 0, "hand 2 has 1 cards (expected 2 hole cards)"},
		{[]string{"AsKs", "QdQc"}, "2c3c", "", 0, "the board has 2 cards (expected 0, 3, 4 or 5)"},
		{[]string{"AsKs", "AsQc"}, "", "", 0, "card As appears more than once"},
		{[]string{"AsKs", "QdQc"}, "2c3c4c", "4c", 0, "card 4c appears more than once"},
		{[]string{"AsKs", "QdQc"}, "", "", -1, "Monte Carlo needs a positive number of trials, got -1"},
	} {
		var err error
		if tc.trials != 0 {
			_, err = MonteCarloEquity(hands(tc.hands...), MustParseCards(tc.board), MustParseCards(tc.dead), tc.trials, 1)
		} else {
			_, err = ExactEquity(hands(tc.hands...), MustParseCards(tc.board), MustParseCards(tc.dead))
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.hands, err, tc.want)
		}
	}
	_, err := ExactEquity(hands("AsKs", "AsQc"), nil, nil)
	var dup *ErrDuplicateCard
	if !errors.As(err, &dup) {
		t.Errorf("duplicate card error is %T", err)
	}
}
