package engine

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pokerfloor/pokerfloor/eval"
)

// checkDown plays the hand to its end with checks and calls.
func checkDown(t *testing.T, tb *Table) {
	t.Helper()
	for tb.Phase() == Betting {
		s := tb.ToAct()
		var err error
		if tb.CanCheck(s) {
			_, err = tb.Check(s)
		} else {
			_, err = tb.Call(s)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func kindsOf(log []Event, k EventKind) []Event {
	var out []Event
	for _, e := range log {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// rule D1: one 52-card deck; crypto/rand in production, a seeded generator for simulations.
func TestRuleD1Deck(t *testing.T) {
	for name, d := range map[string]DeckSource{"crypto": &CryptoDeck{}, "seeded": NewSeededDeck(9)} {
		for round := 0; round < 3; round++ {
			d.Shuffle()
			var seen eval.CardSet
			for i := 0; i < 52; i++ {
				c := d.Draw()
				if !c.Valid() || seen.Has(c) {
					t.Fatalf("%s: card %d is %v, irregular", name, i, c)
				}
				seen = seen.Add(c)
			}
			if d.Draw().Valid() {
				t.Fatalf("%s: a 53rd card", name)
			}
		}
	}
	a, b := NewSeededDeck(5), NewSeededDeck(5)
	a.Shuffle()
	b.Shuffle()
	for i := 0; i < 52; i++ {
		if a.Draw() != b.Draw() {
			t.Fatal("the same seed dealt different decks")
		}
	}
}

// rule D2: two hole cards each, one at a time in two rounds, from the small blind.
func TestRuleD2DealingOrder(t *testing.T) {
	for _, c := range []struct {
		stacks []int64
		order  []int8
	}{
		{[]int64{1000, 1000, 1000, 1000}, []int8{0, 1, 2, 3}},
		{[]int64{1000, 1000}, []int8{1, 0}}, // heads-up the button is the small blind
	} {
		n := len(c.order)
		ref := NewSeededDeck(3)
		ref.Shuffle()
		drawn := make([]eval.Card, 2*n)
		for i := range drawn {
			drawn[i] = ref.Draw()
		}
		tb := newTestTable(t, Config{}, lv50, NewSeededDeck(3), c.stacks...)
		mustStart(t, tb)
		holes := kindsOf(tb.Log(), EvHole)
		if len(holes) != n {
			t.Fatalf("%d hole events", len(holes))
		}
		for i, e := range holes {
			if e.Seat != c.order[i] || e.N != 2 || e.Cards[0] != drawn[i] || e.Cards[1] != drawn[n+i] {
				t.Fatalf("seat %d got %v, want seat %d with the deck's cards %d and %d", e.Seat, e.CardList(), c.order[i], i, n+i)
			}
		}
	}
}

// rule D3: one card is burned before the flop, the turn and the river.
func TestRuleD3Burns(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 1000, 1000, 1000)
	mustStart(t, tb)
	checkDown(t, tb)
	boards := kindsOf(tb.Log(), EvBoard)
	if len(boards) != 3 || boards[0].N != 3 || boards[1].N != 1 || boards[2].N != 1 {
		t.Fatalf("boards %v", boards)
	}
	// Every street burns a card first: the deck's cards after the hole cards go burn, flop, burn,
	// turn, burn, river.
	d := NewSeededDeck(1)
	d.Shuffle()
	var deck [52]eval.Card
	for i := range deck {
		deck[i] = d.Draw()
	}
	want := [][]eval.Card{deck[6:10], deck[10:12], deck[12:14]}
	for i, b := range boards {
		got := append([]eval.Card{b.Burn}, b.CardList()...)
		if eval.CardsString(got) != eval.CardsString(want[i]) {
			t.Fatalf("street %d: burn and board %v, want %v", i, got, want[i])
		}
	}
}

// rule D4: a void hand returns every chip to whoever bet it; the button does not move; an irregular
// deck voids the hand by itself.
func TestRuleD4Void(t *testing.T) {
	tb := six(t, Config{})
	run(t, tb, []step{{2, Raise, 300, ""}, {3, Call, 0, ""}})
	button, number := tb.Button(), tb.HandNumber()
	if err := tb.Void(); err != nil {
		t.Fatal(err)
	}
	for s := 0; s < 6; s++ {
		if tb.Stack(s) != 10000 {
			t.Fatalf("seat %d has %d after the void", s, tb.Stack(s))
		}
	}
	mustStart(t, tb)
	if tb.Button() != button || tb.HandNumber() != number {
		t.Fatalf("after a void: button %d hand %d, want %d and %d", tb.Button(), tb.HandNumber(), button, number)
	}
	if err := tb.Void(); err != nil {
		t.Fatal(err)
	}
	if err := tb.Void(); err == nil {
		t.Fatal("voided a hand that is not in progress")
	}

	// A duplicate card in the deck.
	d := scripted([]string{"AsAh", "KsKh", "QsQh"}, "2c3c4c5c6c")
	d.Cards[3] = d.Cards[0]
	tb = newTestTable(t, Config{}, lv50, d, 1000, 1000, 1000)
	mustStart(t, tb)
	if tb.Phase() != Voided || tb.Stack(0) != 1000 || tb.Stack(1) != 1000 {
		t.Fatalf("irregular deck: phase %v stacks %d %d", tb.Phase(), tb.Stack(0), tb.Stack(1))
	}
}

// rule D5: cards that were not dealt are never shown, and nobody sees another player's hole cards or
// a burned card.
func TestRuleD5NoUndealtCards(t *testing.T) {
	d := scripted([]string{"AsAh", "KsKh", "QsQh"}, "2c3c4c5c6c")
	tb := newTestTable(t, Config{}, lv50, d, 1000, 1000, 1000)
	mustStart(t, tb)
	run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}, {1, Check, 0, ""}, {0, Bet, 100, ""}, {1, Fold, 0, ""}, {2, Fold, 0, ""}})
	// Dealt: 6 hole cards, a burn and the flop: the first 10 cards of the deck.
	dealt := eval.NewCardSet(d.Cards[:10]...)
	full := tb.View(FullView)
	seen := eval.NewCardSet(full.Board[:full.NBoard]...)
	for _, s := range full.Seats[:full.NSeats] {
		if s.Known {
			seen = seen.Add(s.Cards[0]).Add(s.Cards[1])
		}
	}
	for _, e := range tb.EventsFor(FullView, nil) {
		seen |= eval.NewCardSet(e.CardList()...)
	}
	if seen&^dealt != 0 {
		t.Fatalf("undealt cards exposed: %v", seen&^dealt)
	}
	for _, viewer := range []int{0, 1, Spectator} {
		v := tb.View(viewer)
		for _, s := range v.Seats[:v.NSeats] {
			if s.Known && s.Seat != viewer && !s.Shown {
				t.Fatalf("viewer %d sees seat %d's cards", viewer, s.Seat)
			}
		}
		for _, e := range tb.EventsFor(viewer, nil) {
			if e.Kind == EvBoard && e.Burn != NoCard || e.N > 0 && e.Kind == EvHole && int(e.Seat) != viewer {
				t.Fatalf("viewer %d sees %v", viewer, e)
			}
		}
	}
}

// rule S1: the best five of seven cards win.
func TestRuleS1BestFive(t *testing.T) {
	d := scripted([]string{"AhKh", "QsQd"}, "QhJhTh2c3d")
	tb := newTestTable(t, Config{}, lv50, d, 1000, 1000) // heads-up: seat 1 (button) dealt first
	mustStart(t, tb)
	checkDown(t, tb)
	if tb.Stack(1) != 1100 {
		t.Fatalf("the royal flush lost: stacks %d %d", tb.Stack(0), tb.Stack(1))
	}
}

// rule S2: equal hands split; odd chips go to the winners from the first seat after the button.
func TestRuleS2SplitOddChip(t *testing.T) {
	lv := Level{SmallBlind: 25, BigBlind: 50}
	d := scripted([]string{"9c8d", "2c3d", "2h3s"}, "AsKdQhJcTd")
	tb := newTestTable(t, Config{}, lv, d, 1000, 1000, 1000)
	mustStart(t, tb)
	run(t, tb, []step{{2, Call, 0, ""}, {0, Fold, 0, ""}, {1, Check, 0, ""}})
	checkDown(t, tb)
	// Pot 125: the board plays for seats 1 and 2; seat 0 is first after the button but folded.
	if tb.Stack(1) != 1000-50+63 || tb.Stack(2) != 1000-50+62 {
		t.Fatalf("stacks %d %d, want the odd chip to seat 1", tb.Stack(1), tb.Stack(2))
	}
}

// rule S3: side pots, each decided separately; a player wins only from pots his chips went into.
func TestRuleS3SidePots(t *testing.T) {
	// Seat 0 (100) has the best hand, seat 1 (300) the second, seat 2 (1000) the worst.
	d := scripted([]string{"AsAh", "KsKh", "2c7d"}, "AdKd9h4c3s")
	tb := newTestTable(t, Config{}, lv50, d, 100, 300, 1000)
	mustStart(t, tb)
	run(t, tb, []step{{2, AllIn, 0, ""}, {0, Call, 0, ""}, {1, Call, 0, ""}})
	r := tb.Result()
	if tb.Phase() != Complete || r.NPots != 2 || r.Pots[0].Amount != 300 || r.Pots[1].Amount != 400 {
		t.Fatalf("pots %+v", r.Pots[:r.NPots])
	}
	if tb.Stack(0) != 300 || tb.Stack(1) != 400 || tb.Stack(2) != 700 {
		t.Fatalf("stacks %d %d %d", tb.Stack(0), tb.Stack(1), tb.Stack(2))
	}
	// Rule R7 (reported by the engine): eliminations carry the starting stack.
	if r.NEliminated != 0 {
		t.Fatalf("eliminated %v", r.Eliminated[:r.NEliminated])
	}
	d = scripted([]string{"2s3h", "KsKh", "2c7d"}, "AdKd9h4c3s")
	tb = newTestTable(t, Config{}, lv50, d, 100, 300, 1000)
	mustStart(t, tb)
	run(t, tb, []step{{2, AllIn, 0, ""}, {0, Call, 0, ""}, {1, Call, 0, ""}})
	r = tb.Result()
	if r.NEliminated != 1 || r.Eliminated[0].Seat != 0 || r.Eliminated[0].StartingStack != 100 || tb.Player(0).State != Eliminated {
		t.Fatalf("eliminations %+v", r.Eliminated[:r.NEliminated])
	}
}

// rule S4: once betting is closed with an all-in, every hand in the pot is shown face up.
func TestRuleS4AllInFaceUp(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 500, 1000, 1000)
	mustStart(t, tb)
	run(t, tb, []step{{2, Call, 0, ""}, {0, AllIn, 0, ""}, {1, Call, 0, ""}, {2, Call, 0, ""}})
	// Two players still have chips: the flop comes and they bet on; nothing is shown yet.
	if len(kindsOf(tb.Log(), EvShow)) != 0 {
		t.Fatal("hands shown while betting goes on")
	}
	run(t, tb, []step{{1, AllIn, 0, ""}, {2, Call, 0, ""}})
	log := tb.Log()
	firstShow, firstTurn := -1, -1
	for i, e := range log {
		if e.Kind == EvShow && firstShow < 0 {
			firstShow = i
		}
		if e.Kind == EvBoard && e.Round == Turn {
			firstTurn = i
		}
	}
	if len(kindsOf(log, EvShow)) != 3 || firstShow > firstTurn {
		t.Fatalf("all-in hands not face up before the turn: %v", actionsOf(log))
	}
}

// showdownOf lists the showdown's shows and mucks in order, as "2 shows" and "0 mucks".
func showdownOf(log []Event) []string {
	var out []string
	for _, e := range log {
		switch e.Kind {
		case EvShow:
			out = append(out, fmt.Sprintf("%d shows", e.Seat))
		case EvMuck:
			out = append(out, fmt.Sprintf("%d mucks", e.Seat))
		}
	}
	return out
}

// rule S5, rule S6: who shows first, and who shows after him. Three players: seat 0 the small blind,
// seat 1 the big blind, seat 2 the button.
//
// S5, seed 000: "Se al giro finale di scommesse tutti i giocatori rimasti in gioco fanno check (o
// sono tutti all-in) il giocatore che ha agito per primo è il primo a mostrare le carte. Se ci sono
// stati due turni di check, il primo giocatore a mostrare le carte deve essere il primo attivo dopo
// il bottone. Se ci sono puntate nel giro finale l'ultimo giocatore che ha effettuato una scommessa o
// un rilancio è il primo a mostrare le carte."
//
// S6, seed 000: "Per aggiudicarsi il piatto (sia esso il piatto principale (main pot) o un piatto
// parziale o secondario (side pot)) il giocatore deve mostrare entrambe le sue carte scoprendole sul
// tavolo." and "Tutte le mani perdenti vengono eliminate dal dealer prima dell'assegnazione del
// piatto."
func TestRuleS5S6ShowdownOrder(t *testing.T) {
	checkRiver := func(t *testing.T, tb *Table) { checkDown(t, tb) }
	for _, c := range []struct {
		name   string
		holes  []string // seats 0, 1, 2
		board  string
		stacks []int64
		play   func(t *testing.T, tb *Table)
		want   []string
		wins   map[int]int64 // chips each seat takes from the pots
	}{
		{
			name:  "the called river bettor shows first and loses; the caller shows and wins",
			holes: []string{"AsAh", "2c7d", "KsKh"}, board: "Ad9d9h4c3s",
			play: func(t *testing.T, tb *Table) {
				run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}, {1, Fold, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {2, Check, 0, ""}, {0, Check, 0, ""}, {2, Check, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {2, Bet, 200, ""}, {0, Call, 0, ""}})
			},
			want: []string{"2 shows", "0 shows"}, wins: map[int]int64{0: 700},
		},
		{
			name:  "the river bettor shows first; the next hand beats it and shows, the last loses and mucks",
			holes: []string{"AsAh", "2c7d", "KsKh"}, board: "Ad9d9h4c3s",
			play: func(t *testing.T, tb *Table) {
				run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}, {1, Check, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Bet, 200, ""}, {0, Call, 0, ""}, {1, Call, 0, ""}})
			},
			want: []string{"2 shows", "0 shows", "1 mucks"}, wins: map[int]int64{0: 900},
		},
		{
			name:  "a raise on the river: the raiser shows first",
			holes: []string{"AsAh", "2c7d", "KsKh"}, board: "Ad9d9h4c3s",
			play: func(t *testing.T, tb *Table) {
				run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}, {1, Fold, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {2, Check, 0, ""}, {0, Check, 0, ""}, {2, Check, 0, ""}})
				run(t, tb, []step{{0, Check, 0, ""}, {2, Bet, 200, ""}, {0, Raise, 400, ""}, {2, Call, 0, ""}})
			},
			want: []string{"0 shows", "2 mucks"}, wins: map[int]int64{0: 1100},
		},
		{
			name:  "checked down: the first active player after the button shows first and loses",
			holes: []string{"2c7d", "AsAh", "KsKh"}, board: "Ad9d9h4c3s",
			play: checkRiver,
			want: []string{"0 shows", "1 shows", "2 mucks"}, wins: map[int]int64{1: 300},
		},
		{
			name:  "checked down: a hand that does not beat the first shown is mucked, a better one shown",
			holes: []string{"KsKh", "2c7d", "AsAh"}, board: "Ad9d9h4c3s",
			play: checkRiver,
			want: []string{"0 shows", "1 mucks", "2 shows"}, wins: map[int]int64{2: 300},
		},
		{
			name:  "a tie with the hand shown is shown and splits",
			holes: []string{"Ah2c", "Ad3c", "Kh4d"}, board: "AcKd9h7s5c",
			play: checkRiver,
			want: []string{"0 shows", "1 shows", "2 mucks"}, wins: map[int]int64{0: 150, 1: 150},
		},
		{
			name:  "the first after the button folded: the next one still in shows first",
			holes: []string{"AsAh", "2c7d", "KsKh"}, board: "Ad9d9h4c3s",
			play: func(t *testing.T, tb *Table) {
				run(t, tb, []step{{2, Call, 0, ""}, {0, Fold, 0, ""}, {1, Check, 0, ""}})
				checkDown(t, tb)
			},
			want: []string{"1 shows", "2 shows"}, wins: map[int]int64{2: 250},
		},
		{
			name:  "a side pot: its winner shows though he loses the main pot (all hands face up, S4)",
			holes: []string{"AsAh", "KsKh", "2c7d"}, board: "Ad9d9h4c3s", stacks: []int64{100, 1000, 1000},
			play: func(t *testing.T, tb *Table) {
				run(t, tb, []step{{2, Raise, 300, ""}, {0, AllIn, 0, ""}, {1, Call, 0, ""}})
				checkDown(t, tb)
			},
			want: []string{"0 shows", "1 shows", "2 shows"}, wins: map[int]int64{0: 300, 1: 400},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			stacks := c.stacks
			if stacks == nil {
				stacks = []int64{1000, 1000, 1000}
			}
			tb := newTestTable(t, Config{}, lv50, scripted(c.holes, c.board), stacks...)
			mustStart(t, tb)
			c.play(t, tb)
			if tb.Phase() != Complete {
				t.Fatalf("phase %v", tb.Phase())
			}
			if got := showdownOf(tb.Log()); !slices.Equal(got, c.want) {
				t.Fatalf("showdown %q, want %q\n%v", got, c.want, actionsOf(tb.Log()))
			}
			r := tb.Result()
			for s := 0; s < 3; s++ {
				if r.Won[s] != c.wins[s] {
					t.Fatalf("seat %d won %d, want %d (pots %+v)", s, r.Won[s], c.wins[s], r.Pots[:r.NPots])
				}
			}
			// Mucked before the pot is pushed (S6): every show or muck comes before the first win.
			log := tb.Log()
			lastSD, firstWin := -1, len(log)
			for i, e := range log {
				if e.Kind == EvShow || e.Kind == EvMuck {
					lastSD = i
				}
				if e.Kind == EvWin && i < firstWin {
					firstWin = i
				}
			}
			if lastSD > firstWin {
				t.Fatalf("a hand shown or mucked after the pot was pushed: %v", actionsOf(log))
			}
		})
	}
}

// rule S7: cards shown are shown to everyone; a mucked hand to nobody but its owner (S6).
func TestRuleS7ShownToAll(t *testing.T) {
	d := scripted([]string{"KsKh", "2c7d", "AsAh"}, "Ad9d9h4c3s")
	tb := newTestTable(t, Config{}, lv50, d, 1000, 1000, 1000)
	mustStart(t, tb)
	checkDown(t, tb) // seat 0 shows first, seat 1 mucks, seat 2 shows and wins
	for _, viewer := range []int{0, 1, 2, Spectator} {
		v := tb.View(viewer)
		for _, s := range []int{0, 2} {
			if !v.Seats[s].Known || !v.Seats[s].Shown || v.Seats[s].Cards != tb.HoleCards(s) {
				t.Fatalf("viewer %d does not see seat %d's shown hand: %+v", viewer, s, v.Seats[s])
			}
		}
		if viewer != 1 && v.Seats[1].Known {
			t.Fatalf("viewer %d sees the mucked hand", viewer)
		}
	}
}

// rule S3: chips of a folded player that no player left can match go back to him: here two players
// all-in for their antes of 1 against a folded ante of 48.
func TestRuleS3UnmatchedFoldedChips(t *testing.T) {
	lv := Level{SmallBlind: 50, BigBlind: 100, Ante: 48}
	d := scripted([]string{"AsAh", "2c7d", "KsKh"}, "Ad9d9h4c3s")
	tb := newTestTable(t, Config{}, lv, d, 1, 1, 10000)
	mustStart(t, tb)
	run(t, tb, []step{{2, Fold, 0, ""}}) // owes the full big blind (A9) and folds
	if tb.Phase() != Complete || tb.Stack(0) != 3 || tb.Stack(1) != 0 || tb.Stack(2) != 10000-1 {
		t.Fatalf("stacks %d %d %d\n%v", tb.Stack(0), tb.Stack(1), tb.Stack(2), actionsOf(tb.Log()))
	}
}
