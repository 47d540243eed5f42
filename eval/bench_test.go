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
	j := 0
	for i := 0; i < b.N; i++ {
		acc += EvalSet(sets[j])
		if j++; j == len(sets) {
			j = 0
		}
	}
	benchSink = acc
}

// BenchmarkEval7RandomCards evaluates the same hands held as seven Cards, added to a Hand.
func BenchmarkEval7RandomCards(b *testing.B) {
	_, cards := benchData()
	b.ReportAllocs()
	b.ResetTimer()
	var acc Value
	j := 0
	for i := 0; i < b.N; i++ {
		c := &cards[j]
		h := Hand{}.Add(c[0]).Add(c[1]).Add(c[2]).Add(c[3]).Add(c[4]).Add(c[5]).Add(c[6])
		acc += h.Value()
		if j++; j == len(cards) {
			j = 0
		}
	}
	benchSink = acc
}

// BenchmarkEval7Enumerate evaluates all 133,784,560 7-card hands in order, adding one card at a time;
// one op is the whole enumeration, and ns/hand is the figure that counts.
func BenchmarkEval7Enumerate(b *testing.B) {
	b.ReportAllocs()
	start := time.Now()
	var acc Value
	for i := 0; i < b.N; i++ {
		acc += sumAllSevens()
	}
	benchSink = acc
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/133_784_560, "ns/hand")
}

// sumAllSevens adds up the Values of every 7-card hand: the enumeration of forEachSeven with the
// evaluation written into the innermost loop.
func sumAllSevens() Value {
	var deck [52]Hand
	for i := range deck {
		deck[i] = NewHand(CardFromIndex(i))
	}
	var acc Value
	for a := 0; a < 52; a++ {
		ha := deck[a]
		for b := a + 1; b < 52; b++ {
			hb := ha.Merge(deck[b])
			for c := b + 1; c < 52; c++ {
				hc := hb.Merge(deck[c])
				for d := c + 1; d < 52; d++ {
					hd := hc.Merge(deck[d])
					for e := d + 1; e < 52; e++ {
						he := hd.Merge(deck[e])
						for g := e + 1; g < 52; g++ {
							acc += sumWithEach(he.Merge(deck[g]), deck[g+1:])
						}
					}
				}
			}
		}
	}
	return acc
}

// sumWithEach adds up the Values of base with each of the cards of rest added. It is the innermost
// loop of the enumeration, a function of its own so that its few variables all stay in registers.
func sumWithEach(base Hand, rest []Hand) Value {
	var acc Value
	for _, last := range rest {
		acc += base.Merge(last).Value()
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
