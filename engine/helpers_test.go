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

func must(t testing.TB, e Event, err error) Event {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return e
}
