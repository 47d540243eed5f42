package floor

import (
	"slices"
	"testing"
)

func card(s string) RaceCard {
	return RaceCard{Rank: 2 + slices.Index([]byte("23456789TJQKA"), s[0]), Suit: slices.Index([]byte("cdhs"), s[1])}
}

func cards(ss ...string) []RaceCard {
	var cs []RaceCard
	for _, s := range ss {
		cs = append(cs, card(s))
	}
	return cs
}

func TestNeedsChipRaceR8(t *testing.T) { // rule R8: online integer tables need no race
	cases := []struct {
		live   bool
		stacks []int64
		next   int64
		want   bool
	}{
		{false, []int64{1075, 1050}, 100, false},
		{true, []int64{1075, 1050}, 100, true},
		{true, []int64{1000, 2500}, 100, false},
		{true, []int64{1000, 2500}, 1000, true},
	}
	for _, c := range cases {
		if got := NeedsChipRace(c.live, c.stacks, c.next); got != c.want {
			t.Errorf("NeedsChipRace(%v, %v, %d) = %v", c.live, c.stacks, c.next, got)
		}
	}
}

func TestChipRaceByHandR8(t *testing.T) { // rule R8: worked by hand with a fixed deck
	racers := []Racer{
		{Seat: 4, Player: "d", Stack: 2000}, // no odd chips: no cards
		{Seat: 1, Player: "a", Stack: 1075}, // three odd 25s
		{Seat: 2, Player: "b", Stack: 1050}, // two
		{Seat: 3, Player: "c", Stack: 25},   // one, and nothing else
	}
	// Odd chips worth 150: one and a half new chips, rounded up to two. Dealt from seat 1, a card
	// at a time: a 2c, b Kd, c 3h; a 4s, b Ah; a 5c. Best cards: b Ah, a 5c, c 3h.
	deck := cards("2c", "Kd", "3h", "4s", "Ah", "5c", "9s")
	res, err := raceWithDeck(racers, 25, 100, deck)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]RaceCard{nil, cards("2c", "4s", "5c"), cards("Kd", "Ah"), cards("3h")}; !slices.EqualFunc(res.Cards, want, slices.Equal) {
		t.Fatalf("cards %v, want %v", res.Cards, want)
	}
	if !slices.Equal(res.Winners, []PlayerID{"b", "a"}) {
		t.Fatalf("winners %v", res.Winners)
	}
	// c lost his only chips in the race and is given one: nobody is raced out.
	if !slices.Equal(res.Stacks, []int64{2000, 1100, 1100, 100}) || !slices.Equal(res.Saved, []PlayerID{"c"}) {
		t.Fatalf("stacks %v saved %v", res.Stacks, res.Saved)
	}
	if res.Added != 150 || !slices.Equal(res.OddChips, []int{0, 3, 2, 1}) {
		t.Fatalf("added %d odd %v", res.Added, res.OddChips)
	}
}

func TestChipRaceAtMostOneChipR8(t *testing.T) { // rule R8: a player wins at most one chip
	// One racer with three odd 25s (75): rounded up to one chip of 100, the most he can win.
	// Two racers with 400 in odd 100s each, racing for 500s: 800 rounds up to two chips, one each.
	res, err := raceWithDeck([]Racer{{Seat: 1, Player: "a", Stack: 475}}, 25, 100, cards("2c", "3c", "4c"))
	if err != nil || !slices.Equal(res.Stacks, []int64{500}) {
		t.Fatalf("stacks %v, %v", res.Stacks, err)
	}
	res, err = raceWithDeck([]Racer{{Seat: 1, Player: "a", Stack: 400}, {Seat: 2, Player: "b", Stack: 1400}}, 100, 500,
		cards("2c", "Ac", "3c", "Kc", "4c", "Qc", "5c", "Jc"))
	if err != nil || !slices.Equal(res.Stacks, []int64{500, 1500}) {
		t.Fatalf("stacks %v, %v", res.Stacks, err)
	}
	// Less than half a chip is not raced: two 25s in all (50 of 100 rounds up; 25 does not).
	res, _ = raceWithDeck([]Racer{{Seat: 1, Player: "a", Stack: 1025}, {Seat: 2, Player: "b", Stack: 1000}}, 25, 100, cards("Ac"))
	if !slices.Equal(res.Stacks, []int64{1000, 1000}) || res.Added != -25 || len(res.Winners) != 0 {
		t.Fatalf("stacks %v added %d", res.Stacks, res.Added)
	}
}

func TestChipRaceSeededR8(t *testing.T) { // rule R8: deterministic from a seed, chips whole afterwards
	var racers []Racer
	for s := 1; s <= 10; s++ {
		racers = append(racers, Racer{Seat: Seat(s), Player: PlayerID(rune('a' + s)), Stack: int64(1000 + 25*s)})
	}
	a, err := ChipRace(racers, 25, 100, NewSeededReader(3))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ChipRace(racers, 25, 100, NewSeededReader(3))
	if !slices.Equal(a.Stacks, b.Stacks) || !slices.Equal(a.Winners, b.Winners) {
		t.Fatal("the same seed raced twice differently")
	}
	var before, after int64
	for i, s := range a.Stacks {
		if s%100 != 0 || s <= 0 {
			t.Fatalf("stack %d after the race", s)
		}
		before += racers[i].Stack
		after += s
	}
	// Odd chips 25,50,75,0 repeating: 375 in all, four chips raced.
	if len(a.Winners) != 4 || after-before != a.Added || a.Added != 25 {
		t.Fatalf("winners %v added %d", a.Winners, a.Added)
	}
}

func TestChipRaceRefusesR8(t *testing.T) { // rule R8
	cases := []struct {
		racers        []Racer
		removed, next int64
	}{
		{[]Racer{{Seat: 1, Player: "a", Stack: 1010}}, 25, 100},
		{[]Racer{{Seat: 1, Player: "a", Stack: 1000}}, 100, 250},
		{[]Racer{{Seat: 1, Player: "a", Stack: 0}}, 25, 100},
		{[]Racer{{Seat: 1, Player: "a", Stack: 100}, {Seat: 1, Player: "b", Stack: 100}}, 25, 100},
		{[]Racer{ // 6 x 9 odd chips of 100 racing for 1,000: 54 cards
			{Seat: 1, Player: "a", Stack: 900}, {Seat: 2, Player: "b", Stack: 900}, {Seat: 3, Player: "c", Stack: 900},
			{Seat: 4, Player: "d", Stack: 900}, {Seat: 5, Player: "e", Stack: 900}, {Seat: 6, Player: "f", Stack: 900},
		}, 100, 1000},
	}
	for _, c := range cases {
		_, err := ChipRace(c.racers, c.removed, c.next, NewSeededReader(1))
		wantRule(t, err, "R8")
	}
}
