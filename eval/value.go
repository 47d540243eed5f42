package eval

import (
	"fmt"
	"sort"
	"sync"
)

// Value is the strength of a poker hand: the best five cards it holds. A higher Value wins and equal
// Values tie. Values run from 1 (7-5-4-3-2 offsuit) to NumValues (a royal flush); 0 is no hand.
type Value uint16

// NumValues is the number of distinct five-card hand strengths.
const NumValues = 7462

// Category is the kind of hand, from HighCard to StraightFlush.
type Category uint8

// The categories, low to high (rule S1).
const (
	NoHand Category = iota
	HighCard
	OnePair
	TwoPair
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
)

var categoryNames = [...]string{"No hand", "High card", "One pair", "Two pair", "Three of a kind",
	"Straight", "Flush", "Full house", "Four of a kind", "Straight flush"}

func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

// How many Values each category has, from HighCard up; their sum is NumValues.
var categorySizes = [10]int{0, 1277, 2860, 858, 858, 10, 1277, 156, 156, 10}

// categoryFloor[c] is the highest Value below category c.
var categoryFloor = func() (f [11]Value) {
	for c := 1; c <= 10; c++ {
		f[c] = f[c-1] + Value(categorySizes[c-1])
	}
	return f
}()

// Category returns the kind of hand.
func (v Value) Category() Category {
	for c := StraightFlush; c > NoHand; c-- {
		if v > categoryFloor[c] {
			return c
		}
	}
	return NoHand
}

// IsRoyalFlush reports whether v is the ace-high straight flush.
func (v Value) IsRoyalFlush() bool { return v == NumValues }

// String is the description a player reads, such as "Full house, kings full of fives".
func (v Value) String() string { return v.Describe() }

// Describe says what the hand is in words, naming its ranks: "Straight, five high",
// "Two pair, aces and eights", "Royal flush".
func (v Value) Describe() string {
	if v == 0 || v > NumValues {
		return "No hand"
	}
	s := classes()[v-1]
	r := s.ranks
	switch s.cat {
	case StraightFlush:
		if r[0] == Ace {
			return "Royal flush"
		}
		return fmt.Sprintf("Straight flush, %s high", r[0].Name())
	case FourOfAKind:
		return fmt.Sprintf("Four of a kind, %s", r[0].Plural())
	case FullHouse:
		return fmt.Sprintf("Full house, %s full of %s", r[0].Plural(), r[3].Plural())
	case Flush:
		return fmt.Sprintf("Flush, %s high", r[0].Name())
	case Straight:
		return fmt.Sprintf("Straight, %s high", r[0].Name())
	case ThreeOfAKind:
		return fmt.Sprintf("Three of a kind, %s", r[0].Plural())
	case TwoPair:
		return fmt.Sprintf("Two pair, %s and %s", r[0].Plural(), r[2].Plural())
	case OnePair:
		return fmt.Sprintf("One pair, %s", r[0].Plural())
	default:
		return fmt.Sprintf("High card, %s", r[0].Name())
	}
}

// BestFive returns the five cards, of those given, that make the hand's Value, in the order a player
// would lay them out (the set before the kickers; a wheel is laid 5-4-3-2-A). It is the slow path, for
// showdowns and hand histories, not for enumeration.
func BestFive(cards []Card) []Card {
	if len(cards) < 5 {
		return nil
	}
	var best [5]Card
	var bestClass class
	forEachFive(cards, func(five *[5]Card) {
		if c := referenceClass(five); c.key() > bestClass.key() {
			bestClass, best = c, *five
		}
	})
	out := make([]Card, 0, 5)
	used := [5]bool{}
	for _, r := range bestClass.ranks {
		for i, c := range best {
			if !used[i] && c.Rank() == r {
				used[i] = true
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// A class is one of the NumValues hand strengths: its category and its five ranks in layout order
// (the set before the kickers; a wheel is laid 5-4-3-2-A).
type class struct {
	cat   Category
	ranks [5]Rank
}

// key orders classes exactly as poker does: category first, then the ranks in layout order.
func (c class) key() uint32 {
	k := uint32(c.cat)
	for _, r := range c.ranks {
		k = k<<4 | uint32(r)
	}
	// A wheel's ace counts low.
	if (c.cat == Straight || c.cat == StraightFlush) && c.ranks[0] == Five {
		k = uint32(c.cat)<<20 | uint32(Five)<<16 | uint32(Four)<<12 | uint32(Three)<<8 | uint32(Two)<<4
	}
	return k
}

var (
	classOnce  sync.Once
	classTable []class
	classIndex map[uint32]Value
)

// classes lists every hand strength, weakest first, so that classes()[v-1] describes Value v. It is
// built on first use from the reference evaluator's view of every five-rank pattern.
func classes() []class {
	classOnce.Do(func() {
		seen := map[uint32]class{}
		var counts [13]uint8
		forEachRankMultiset(5, func(c *[13]uint8) {
			cl := classOfCounts(c, false)
			seen[cl.key()] = cl
			if cl.cat == HighCard || cl.cat == Straight {
				fl := classOfCounts(c, true)
				seen[fl.key()] = fl
			}
		}, &counts)
		keys := make([]uint32, 0, len(seen))
		for k := range seen {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		classTable = make([]class, len(keys))
		classIndex = make(map[uint32]Value, len(keys))
		for i, k := range keys {
			classTable[i] = seen[k]
			classIndex[k] = Value(i + 1)
		}
		if len(classTable) != NumValues {
			panic(fmt.Sprintf("eval: %d hand classes, want %d", len(classTable), NumValues))
		}
	})
	return classTable
}

// valueOfClass maps a class to its Value.
func valueOfClass(c class) Value {
	classes()
	return classIndex[c.key()]
}

// forEachRankMultiset calls f with every way of holding n cards' ranks (each rank at most 4 times).
func forEachRankMultiset(n int, f func(*[13]uint8), counts *[13]uint8) {
	var rec func(r, left int)
	rec = func(r, left int) {
		if r == 13 {
			if left == 0 {
				f(counts)
			}
			return
		}
		for k := 0; k <= 4 && k <= left; k++ {
			counts[r] = uint8(k)
			rec(r+1, left-k)
		}
		counts[r] = 0
	}
	rec(0, n)
}

// classOfCounts names the best five-card hand among ranks held counts[r] times each (5 to 7 cards in
// all, no flush unless flush is set, in which case the counts are five or more distinct ranks of one
// suit). It is written for clarity: it builds the lookup tables and the descriptions.
func classOfCounts(counts *[13]uint8, flush bool) class {
	var present uint16
	for r := 0; r < 13; r++ {
		if counts[r] > 0 {
			present |= 1 << r
		}
	}
	if flush {
		if top, ok := straightTop(present); ok {
			return class{StraightFlush, straightRanks(top)}
		}
		return class{Flush, topRanks(present, 5)}
	}
	// Ranks grouped by how many times they appear, each group highest first.
	var quads, trips, pairs []Rank
	for r := 12; r >= 0; r-- {
		switch counts[r] {
		case 4:
			quads = append(quads, Rank(r))
		case 3:
			trips = append(trips, Rank(r))
		case 2:
			pairs = append(pairs, Rank(r))
		}
	}
	kickers := func(n int, except ...Rank) []Rank {
		var out []Rank
		for r := 12; r >= 0 && len(out) < n; r-- {
			skip := counts[r] == 0
			for _, e := range except {
				skip = skip || Rank(r) == e
			}
			if !skip {
				out = append(out, Rank(r))
			}
		}
		return out
	}
	mk := func(cat Category, rs ...Rank) class {
		c := class{cat: cat}
		copy(c.ranks[:], rs)
		return c
	}
	switch {
	case len(quads) > 0:
		q := quads[0]
		return mk(FourOfAKind, append([]Rank{q, q, q, q}, kickers(1, q)...)...)
	case len(trips) > 0 && (len(trips) > 1 || len(pairs) > 0):
		t := trips[0]
		p := Rank(0)
		switch {
		case len(trips) > 1 && (len(pairs) == 0 || trips[1] > pairs[0]):
			p = trips[1]
		default:
			p = pairs[0]
		}
		return mk(FullHouse, t, t, t, p, p)
	}
	if top, ok := straightTop(present); ok {
		return class{Straight, straightRanks(top)}
	}
	switch {
	case len(trips) > 0:
		t := trips[0]
		return mk(ThreeOfAKind, append([]Rank{t, t, t}, kickers(2, t)...)...)
	case len(pairs) >= 2:
		a, b := pairs[0], pairs[1]
		return mk(TwoPair, append([]Rank{a, a, b, b}, kickers(1, a, b)...)...)
	case len(pairs) == 1:
		p := pairs[0]
		return mk(OnePair, append([]Rank{p, p}, kickers(3, p)...)...)
	}
	return class{HighCard, topRanks(present, 5)}
}

// straightTop finds the highest straight in a rank mask; a wheel (A-2-3-4-5) tops at Five.
func straightTop(mask uint16) (Rank, bool) {
	for top := 12; top >= 4; top-- {
		run := uint16(0x1f) << (top - 4)
		if mask&run == run {
			return Rank(top), true
		}
	}
	if wheel := uint16(1<<12 | 0xf); mask&wheel == wheel {
		return Five, true
	}
	return 0, false
}

func straightRanks(top Rank) [5]Rank {
	if top == Five {
		return [5]Rank{Five, Four, Three, Two, Ace}
	}
	return [5]Rank{top, top - 1, top - 2, top - 3, top - 4}
}

func topRanks(mask uint16, n int) (out [5]Rank) {
	i := 0
	for r := 12; r >= 0 && i < n; r-- {
		if mask&(1<<r) != 0 {
			out[i] = Rank(r)
			i++
		}
	}
	return out
}
