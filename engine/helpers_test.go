package engine

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/eval"
)

// newTestTable seats one player per stack from seat 0, button on the last seat, so that seat 0 is
// the small blind and seat 1 the big blind (heads-up: seat 1 is the button and small blind).
func newTestTable(t testing.TB, cfg Config, lv Level, deck DeckSource, stacks ...int64) *Table {
	t.Helper()
	if cfg.Seats == 0 {
		cfg.Seats = len(stacks)
	}
	if deck == nil {
		deck = NewSeededDeck(1)
	}
	tb, err := NewTable(cfg, lv, deck)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range stacks {
		if err := tb.Sit(i, string(rune('A'+i)), st, Active); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.SetButton(len(stacks) - 1); err != nil {
		t.Fatal(err)
	}
	return tb
}

var lv50 = Level{SmallBlind: 50, BigBlind: 100}

// cards parses cards for a scripted deck.
func cards(s string) []eval.Card { return eval.MustParseCards(s) }

func mustStart(t testing.TB, tb *Table) {
	t.Helper()
	if err := tb.StartHand(); err != nil {
		t.Fatal(err)
	}
}

// scripted builds a deck that deals holes[i] to the i-th player in dealing order (from the small
// blind), then burns and deals board (up to five cards). Unused slots get cards not named.
func scripted(holes []string, board string) *ScriptedDeck {
	var used eval.CardSet
	hs := make([][]eval.Card, len(holes))
	for i, h := range holes {
		hs[i] = cards(h)
		for _, c := range hs[i] {
			used = used.Add(c)
		}
	}
	bd := cards(board)
	for _, c := range bd {
		used = used.Add(c)
	}
	spare := func() eval.Card {
		for i := 0; i < 52; i++ {
			c := eval.CardFromIndex(i)
			if !used.Has(c) {
				used = used.Add(c)
				return c
			}
		}
		panic("no card left")
	}
	var out []eval.Card
	for r := 0; r < 2; r++ {
		for i := range hs {
			out = append(out, hs[i][r])
		}
	}
	for _, k := range []int{3, 1, 1} {
		out = append(out, spare())
		for j := 0; j < k; j++ {
			if len(bd) > 0 {
				out = append(out, bd[0])
				bd = bd[1:]
			} else {
				out = append(out, spare())
			}
		}
	}
	return &ScriptedDeck{Cards: out}
}

// kinds lists the kinds of the log's events that are not dealing.
func actionsOf(log []Event) []string {
	var out []string
	for _, e := range log {
		switch e.Kind {
		case EvHole, EvHandStart:
			continue
		}
		out = append(out, e.String())
	}
	return out
}
