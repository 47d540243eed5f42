package eval

import (
	"sync"
	"testing"
	"time"
)

const benchHands = 10_000_000

var (
	benchOnce  sync.Once
	benchSets  []CardSet
	benchCards [][7]Card
	benchSink  Value

	benchHandsOnce sync.Once
	benchPrepared  []Hand
)

// benchData deals the benchmarks' 10 million random 7-card hands once, from a fixed seed.
func benchData() ([]CardSet, [][7]Card) {
	benchOnce.Do(func() {
		benchCards = randomSevens(benchHands, 42)
		benchSets = make([]CardSet, len(benchCards))
		for i, h := range benchCards {
			benchSets[i] = NewCardSet(h[:]...)
		}
	})
	return benchSets, benchCards
}

// BenchmarkEval7Random evaluates pre-dealt random 7-card hands held as card sets: one op, one hand.
func BenchmarkEval7Random(b *testing.B) {
	sets, _ := benchData()
	b.ReportAllocs()
	b.ResetTimer()
	var acc Value
	for n := b.N; n > 0; n -= len(sets) {
		for _, s := range sets[:min(n, len(sets))] {
			acc += EvalSet(s)
		}
	}
	benchSink = acc
}

// BenchmarkEval7RandomCards evaluates the same hands held as seven Cards each, the work of OMPEval's
// "card arrays": AppendValues over blocks of 1,024 hands, whose Values are then added up.
func BenchmarkEval7RandomCards(b *testing.B) {
	_, cards := benchData()
	const block = 1024
	values := make([]Value, 0, block)
	b.ReportAllocs()
	b.ResetTimer()
	var acc Value
	for n := b.N; n > 0; {
		for i := 0; i < len(cards) && n > 0; i += block {
			hands := cards[i:min(i+block, i+n, len(cards))]
			for _, v := range AppendValues(values[:0], hands) {
				acc += v
			}
			n -= len(hands)
		}
	}
	benchSink = acc
}

// BenchmarkEval7RandomCardsHand evaluates the same seven Cards a hand at a time, each added to a
// Hand and evaluated: the cost of one call where no batch is at hand.
func BenchmarkEval7RandomCardsHand(b *testing.B) {
	_, cards := benchData()
	b.ReportAllocs()
	b.ResetTimer()
	var acc Value
	for n := b.N; n > 0; n -= len(cards) {
		for i := range cards[:min(n, len(cards))] {
			c := &cards[i]
			acc += Hand{}.Add(c[0]).Add(c[1]).Add(c[2]).Add(c[3]).Add(c[4]).Add(c[5]).Add(c[6]).Value()
		}
	}
	benchSink = acc
}

// benchPreparedHands builds the benchmarks' random hands once as Hands.
func benchPreparedHands() []Hand {
	benchHandsOnce.Do(func() {
		_, cards := benchData()
		benchPrepared = make([]Hand, len(cards))
		for i, c := range cards {
			benchPrepared[i] = NewHand(c[:]...)
		}
	})
	return benchPrepared
}

// BenchmarkEval7RandomPrepared evaluates the same hands built beforehand as Hands, so that only the
// evaluation is timed: the work of OMPEval's "precalculated Hand objects".
func BenchmarkEval7RandomPrepared(b *testing.B) {
	hands := benchPreparedHands()
	b.ReportAllocs()
	b.ResetTimer()
	var acc Value
	for n := b.N; n > 0; n -= len(hands) {
		for _, h := range hands[:min(n, len(hands))] {
			acc += h.Value()
		}
	}
	benchSink = acc
}

// BenchmarkEval7Enumerate evaluates all 133,784,560 7-card hands in order, adding one card at a time;
// one op is the whole enumeration, and ns/hand is the figure that counts.
func BenchmarkEval7Enumerate(b *testing.B) {
	b.ReportAllocs()
	start := time.Now()
	var acc uint64
	for i := 0; i < b.N; i++ {
		acc += sumAllSevens()
	}
	benchSink = Value(acc)
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/133_784_560, "ns/hand")
}

// sumAllSevens adds up the Values of every 7-card hand: the enumeration of forEachSeven with the
// evaluation written into the innermost loops (sumLastTwo).
func sumAllSevens() uint64 {
	var keys [52]uint32
	for i := range keys {
		keys[i] = rankKeys[CardFromIndex(i).Rank()]
	}
	var acc uint64
	forEachFiveOfSeven(func(five Hand, from int, deck *[52]Hand) {
		acc += sumLastTwo(five, from, deck, &keys)
	})
	return acc
}

// sumLastTwo adds up the Values of five cards with every pair of deck[from:] added: the two innermost
// loops of the enumeration. Where the five cards hold no three of a suit, two more cannot make a
// flush, and both loops read rank sums alone (sumRankPairs); otherwise a six-card hand with no four
// of a suit still lets its last loop do so (sumRankValues).
func sumLastTwo(five Hand, from int, deck *[52]Hand, keys *[52]uint32) uint64 {
	if !five.flushDrawnBy(2) {
		return sumRankPairs(five.rankSum(), keys[from:])
	}
	var acc uint64
	for g := from; g < 51; g++ {
		six := five.Merge(deck[g])
		if six.flushDrawn() {
			acc += sumValues(six, deck[g+1:])
		} else {
			acc += sumRankValues(six.rankSum(), keys[g+1:])
		}
	}
	return acc
}

// sumRankPairs adds up the rank-only Values of the key sum five with every pair of rest added.
//
//go:noinline
func sumRankPairs(five uint32, rest []uint32) uint64 {
	var acc uint64
	for i, g := range rest {
		six := five + g
		for _, last := range rest[i+1:] {
			acc += uint64(rankValue(six + last))
		}
	}
	return acc
}

// sumValues adds up the Values of six with each of rest added.
//
//go:noinline
func sumValues(six Hand, rest []Hand) uint64 {
	var acc uint64
	for _, last := range rest {
		acc += uint64(six.Merge(last).Value())
	}
	return acc
}

// sumRankValues adds up the rank-only Values of the key sum six with each key of rest added. Each
// of these is a function of its own, so that the Go compiler keeps its few variables in registers.
//
//go:noinline
func sumRankValues(six uint32, rest []uint32) uint64 {
	var acc uint64
	for _, last := range rest {
		acc += uint64(rankValue(six + last))
	}
	return acc
}

// BenchmarkEquityPreflopExact: AsKs against QdQc over all 1,712,304 boards.
func BenchmarkEquityPreflopExact(b *testing.B) {
	hs := [][]Card{MustParseCards("AsKs"), MustParseCards("QdQc")}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := ExactEquity(hs, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEquityMonteCarlo: three hands preflop, 100,000 random boards a run.
func BenchmarkEquityMonteCarlo(b *testing.B) {
	hs := [][]Card{MustParseCards("AhAd"), MustParseCards("KsKc"), MustParseCards("9h8h")}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := MonteCarloEquity(hs, nil, nil, 100_000, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
