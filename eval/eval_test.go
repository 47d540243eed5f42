package eval

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
)

// forEachSeven calls f with every 7-card hand, built incrementally.
func forEachSeven(f func(Hand)) {
	forEachFiveOfSeven(func(five Hand, from int, deck *[52]Hand) {
		for g := from; g < 51; g++ {
			six := five.Merge(deck[g])
			for _, last := range deck[g+1:] {
				f(six.Merge(last))
			}
		}
	})
}

// oneCardHands holds a Hand of each card, in deck order, once the tables are built.
var (
	oneCardHands     [52]Hand
	oneCardHandsOnce sync.Once
)

// forEachFiveOfSeven calls f with the first five cards of every 7-card hand, in order, built
// incrementally, and the index in deck from which the last two are to be drawn.
func forEachFiveOfSeven(f func(five Hand, from int, deck *[52]Hand)) {
	oneCardHandsOnce.Do(func() {
		for i := range oneCardHands {
			oneCardHands[i] = NewHand(CardFromIndex(i))
		}
	})
	deck := &oneCardHands
	for a := 0; a < 52; a++ {
		ha := deck[a]
		for b := a + 1; b < 52; b++ {
			hb := ha.Merge(deck[b])
			for c := b + 1; c < 52; c++ {
				hc := hb.Merge(deck[c])
				for d := c + 1; d < 52; d++ {
					hd := hc.Merge(deck[d])
					for e := d + 1; e < 50; e++ {
						f(hd.Merge(deck[e]), e+1, deck)
					}
				}
			}
		}
	}
}

// categoryCounts turns a histogram of Values into counts per category.
func categoryCounts(hist *[NumValues + 1]uint64) map[Category]uint64 {
	out := map[Category]uint64{}
	for v, n := range hist {
		if n > 0 {
			out[Value(v).Category()] += n
		}
	}
	return out
}

// rule S1: the ranking of every 7-card hand, counted over all 133,784,560 of them.
func TestRuleS1SevenCardCategoryCounts(t *testing.T) {
	var hist [NumValues + 1]uint64
	forEachSeven(func(h Hand) { hist[h.Value()]++ })
	want := map[Category]uint64{
		StraightFlush: 41_584, FourOfAKind: 224_848, FullHouse: 3_473_184, Flush: 4_047_644,
		Straight: 6_180_020, ThreeOfAKind: 6_461_620, TwoPair: 31_433_400, OnePair: 58_627_800,
		HighCard: 23_294_460,
	}
	got := categoryCounts(&hist)
	var total uint64
	for c, n := range got {
		total += n
		if want[c] != n {
			t.Errorf("%v: %d hands, want %d", c, n, want[c])
		}
	}
	if total != 133_784_560 {
		t.Errorf("%d hands in all, want 133,784,560", total)
	}
	if hist[0] != 0 {
		t.Errorf("%d hands evaluated to no hand", hist[0])
	}
	if royal := hist[NumValues]; royal != 4_324 {
		t.Errorf("royal flushes: %d, want 4,324", royal)
	}
}

// The benchmark's enumeration, which skips the flush test where no flush can come, adds up to the
// same total as the plain one.
func TestSumAllSevensMatchesPlainEnumeration(t *testing.T) {
	var plain uint64
	forEachSeven(func(h Hand) { plain += uint64(h.Value()) })
	if got := sumAllSevens(); got != plain {
		t.Errorf("sumAllSevens = %d, plain enumeration %d", got, plain)
	}
}

// rule S1: the ranking of every 5-card hand, and the fast evaluator against the reference on each.
func TestRuleS1FiveCardHands(t *testing.T) {
	var hist [NumValues + 1]uint64
	var five [5]Card
	mismatches := 0
	forEachSubset(5, func(idx []int) {
		for i, x := range idx {
			five[i] = CardFromIndex(x)
		}
		v := EvalSet(NewCardSet(five[:]...))
		hist[v]++
		if ref := ReferenceEvaluate(five[:]...); ref != v && mismatches < 10 {
			mismatches++
			t.Errorf("%s: fast %v (%d), reference %v (%d)", CardsString(five[:]), v, v, ref, ref)
		}
	})
	want := map[Category]uint64{
		StraightFlush: 40, FourOfAKind: 624, FullHouse: 3_744, Flush: 5_108, Straight: 10_200,
		ThreeOfAKind: 54_912, TwoPair: 123_552, OnePair: 1_098_240, HighCard: 1_302_540,
	}
	for c, n := range categoryCounts(&hist) {
		if want[c] != n {
			t.Errorf("%v: %d hands, want %d", c, n, want[c])
		}
	}
	if hist[NumValues] != 4 {
		t.Errorf("royal flushes: %d, want 4", hist[NumValues])
	}
	distinct := 0
	for _, n := range hist[1:] {
		if n > 0 {
			distinct++
		}
	}
	if distinct != NumValues {
		t.Errorf("%d distinct values among 5-card hands, want %d", distinct, NumValues)
	}
}

// forEachSubset calls f with every k-subset of the 52 card indexes, in order.
func forEachSubset(k int, f func([]int)) {
	idx := make([]int, k)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == k {
			f(idx)
			return
		}
		for i := from; i <= 52-(k-pos); i++ {
			idx[pos] = i
			rec(pos+1, i+1)
		}
	}
	rec(0, 0)
}

// The fast evaluator agrees with the reference on every 6-card hand. The work is split by the first
// card over the machine's cores.
func TestEvalSetMatchesReferenceSixCards(t *testing.T) {
	var mu sync.Mutex
	var checked uint64
	parallelByFirstCard(func(first int) {
		var six [6]Card
		var n uint64
		six[0] = CardFromIndex(first)
		for b := first + 1; b < 52; b++ {
			six[1] = CardFromIndex(b)
			for c := b + 1; c < 52; c++ {
				six[2] = CardFromIndex(c)
				for d := c + 1; d < 52; d++ {
					six[3] = CardFromIndex(d)
					for e := d + 1; e < 52; e++ {
						six[4] = CardFromIndex(e)
						for g := e + 1; g < 52; g++ {
							six[5] = CardFromIndex(g)
							n++
							fast, ref := EvalSet(NewCardSet(six[:]...)), ReferenceEvaluate(six[:]...)
							if fast != ref {
								mu.Lock()
								t.Errorf("%s: fast %v, reference %v", CardsString(six[:]), fast, ref)
								mu.Unlock()
								return
							}
						}
					}
				}
			}
		}
		mu.Lock()
		checked += n
		mu.Unlock()
	})
	if checked != 20_358_520 {
		t.Errorf("checked %d 6-card hands, want 20,358,520", checked)
	}
}

func parallelByFirstCard(f func(first int)) {
	next := make(chan int, 52)
	for i := 0; i < 52; i++ {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for first := range next {
				f(first)
			}
		}()
	}
	wg.Wait()
}

// randomSevens deals n random 7-card hands from a fixed seed.
func randomSevens(n int, seed uint64) [][7]Card {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	hands := make([][7]Card, n)
	for i := range hands {
		var used CardSet
		for j := 0; j < 7; j++ {
			c := CardFromIndex(rng.IntN(52))
			for used.Has(c) {
				c = CardFromIndex(rng.IntN(52))
			}
			used = used.Add(c)
			hands[i][j] = c
		}
	}
	return hands
}

// The fast evaluator, every way in, agrees with the reference on 10 million random 7-card hands.
func TestEvalMatchesReferenceRandomSevens(t *testing.T) {
	const n, workers = 10_000_000, 8
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			for _, h := range randomSevens(n/workers, uint64(w)+1) {
				ref := ReferenceEvaluate(h[:]...)
				if fast := EvalSet(NewCardSet(h[:]...)); fast != ref {
					errs <- fmt.Sprintf("%s: EvalSet %v, reference %v", CardsString(h[:]), fast, ref)
					return
				}
				if inc := NewHand(h[:]...).Value(); inc != ref {
					errs <- fmt.Sprintf("%s: Hand.Value %v, reference %v", CardsString(h[:]), inc, ref)
					return
				}
				if batch := AppendValues(nil, [][7]Card{h})[0]; batch != ref {
					errs <- fmt.Sprintf("%s: AppendValues %v, reference %v", CardsString(h[:]), batch, ref)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// AppendValues, the batch path, agrees with Hand.Value on every 7-card hand. The work is split by
// the first card over the machine's cores.
func TestAppendValuesMatchesHandEverySeven(t *testing.T) {
	var mu sync.Mutex
	var checked uint64
	parallelByFirstCard(func(first int) {
		const block = 1024
		hands := make([][7]Card, 0, block)
		want := make([]Value, 0, block)
		got := make([]Value, 0, block)
		var n uint64
		check := func() bool {
			got = AppendValues(got[:0], hands)
			for i := range hands {
				if got[i] != want[i] {
					mu.Lock()
					t.Errorf("%s: AppendValues %v, Hand.Value %v", CardsString(hands[i][:]), got[i], want[i])
					mu.Unlock()
					return false
				}
			}
			n += uint64(len(hands))
			hands, want = hands[:0], want[:0]
			return true
		}
		var c [7]Card
		c[0] = CardFromIndex(first)
		h0 := NewHand(c[0])
		for i1 := first + 1; i1 < 52; i1++ {
			c[1] = CardFromIndex(i1)
			h1 := h0.Add(c[1])
			for i2 := i1 + 1; i2 < 52; i2++ {
				c[2] = CardFromIndex(i2)
				h2 := h1.Add(c[2])
				for i3 := i2 + 1; i3 < 52; i3++ {
					c[3] = CardFromIndex(i3)
					h3 := h2.Add(c[3])
					for i4 := i3 + 1; i4 < 52; i4++ {
						c[4] = CardFromIndex(i4)
						h4 := h3.Add(c[4])
						for i5 := i4 + 1; i5 < 52; i5++ {
							c[5] = CardFromIndex(i5)
							h5 := h4.Add(c[5])
							for i6 := i5 + 1; i6 < 52; i6++ {
								c[6] = CardFromIndex(i6)
								hands = append(hands, c)
								want = append(want, h5.Add(c[6]).Value())
								if len(hands) == block && !check() {
									return
								}
							}
						}
					}
				}
			}
		}
		if check() {
			mu.Lock()
			checked += n
			mu.Unlock()
		}
	})
	if !t.Failed() && checked != 133_784_560 {
		t.Errorf("checked %d 7-card hands, want 133,784,560", checked)
	}
}

// AppendValues appends to what dst holds already.
func TestAppendValuesAppends(t *testing.T) {
	royal := [7]Card(MustParseCards("AhKhQhJhTh2c3d"))
	wheel := [7]Card(MustParseCards("Ah2d3c4s5h9c9d"))
	got := AppendValues([]Value{7}, [][7]Card{royal, wheel})
	want := []Value{7, NumValues, Evaluate(wheel[:]...)}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("AppendValues = %v, want %v", got, want)
	}
	if got := AppendValues(nil, nil); len(got) != 0 {
		t.Errorf("AppendValues of no hands = %v, want none", got)
	}
}

// AppendValues takes four hands an iteration and the rest one at a time: every length from 0 to
// 12, at every offset of a list where flushes come often (one hand in three is made a flush), agrees
// with Hand.Value, so that each hand's place in the loop, flush or not, is checked.
func TestAppendValuesEveryLength(t *testing.T) {
	hands := randomSevens(48, 7)
	flush := [][7]Card{
		[7]Card(MustParseCards("2h5h9hJhKh3c4d")), [7]Card(MustParseCards("AsKsQsJsTs9s8s")),
		[7]Card(MustParseCards("7c7d7h2c5c9cQc")), [7]Card(MustParseCards("Ad2d3d4d5d6h7h")),
	}
	for i := 0; i < len(hands); i += 3 {
		hands[i] = flush[i/3%len(flush)]
	}
	var flushes int
	for from := range len(hands) - 12 {
		for n := 0; n <= 12; n++ {
			got := AppendValues(nil, hands[from:from+n])
			if len(got) != n {
				t.Fatalf("AppendValues of %d hands gave %d Values", n, len(got))
			}
			for i, v := range got {
				h := hands[from+i]
				if want := NewHand(h[:]...).Value(); v != want {
					t.Errorf("hand %d of %d from %d, %s: AppendValues %v, Hand.Value %v", i, n, from, CardsString(h[:]), v, want)
				}
				if v.Category() >= Flush {
					flushes++
				}
			}
		}
	}
	if flushes == 0 {
		t.Error("no flush was evaluated")
	}
}

// rule S1: the order of the categories and within them, the wheel lowest.
func TestRuleS1Ordering(t *testing.T) {
	// Each hand beats the next.
	order := []string{
		"AhKhQhJhTh", "KsQsJsTs9s", "5d4d3d2dAd", "AcAdAhAs2c", "2c2d2h2sAs", "KcKdKh5s5c",
		"KcKdKh4s4c", "AhJh9h7h5h", "KsQsJs9s7s", "AhKdQcJsTh", "6h5d4c3s2h", "5h4d3c2sAh",
		"AhAdAcKsQh", "AhAdKcKsQh", "AhAdKcKsJh", "AhAd5c5s4h", "AhAdKcQsJh", "AhKdQcJs9h", "7h5d4c3s2h",
	}
	for i := 0; i+1 < len(order); i++ {
		a, b := Evaluate(MustParseCards(order[i])...), Evaluate(MustParseCards(order[i+1])...)
		if !(a > b) {
			t.Errorf("%s (%v) should beat %s (%v)", order[i], a, order[i+1], b)
		}
	}
	if v := Evaluate(MustParseCards("7h5d4c3s2h")...); v != 1 {
		t.Errorf("7-5-4-3-2 is Value %d, want 1", v)
	}
	if v := Evaluate(MustParseCards("AhKhQhJhTh")...); !v.IsRoyalFlush() || v.Category() != StraightFlush {
		t.Errorf("royal flush is %v", v)
	}
	// Suits never break ties.
	if a, b := Evaluate(MustParseCards("AhKhQd9c2s")...), Evaluate(MustParseCards("AsKdQh9s2c")...); a != b {
		t.Errorf("equal ranks in other suits: %v vs %v", a, b)
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"AhKhQhJhTh2c3d", "Royal flush"},
		{"9h8h7h6h5h2c3d", "Straight flush, nine high"},
		{"KcKdKh5s5cAs2d", "Full house, kings full of fives"},
		{"KcKdKh5s5c5d2d", "Full house, kings full of fives"},
		{"Ah2d3c4s5h9c9d", "Straight, five high"},
		{"AhAdAcAs2c3d4h", "Four of a kind, aces"},
		{"AhJh9h7h5h4h2c", "Flush, ace high"},
		{"QcQdQh8s2c3d4h", "Three of a kind, queens"},
		{"AhAd8c8s2c3d4h", "Two pair, aces and eights"},
		{"6h6d8c9sJcQdKh", "One pair, sixes"},
		{"2c3d4h5s7c8dTh", "High card, ten"},
	} {
		cards := MustParseCards(tc.cards)
		if got := Evaluate(cards...).Describe(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cards, got, tc.want)
		}
	}
}

func TestBestFive(t *testing.T) {
	for _, tc := range []struct{ cards, want string }{
		{"KcKdKh5s5cAs2d", "KcKdKh5s5c"},
		{"Ah2d3c4s5h9c9d", "5h4s3c2dAh"},
		{"AhJh9h7h5h4h2c", "AhJh9h7h5h"},
		{"6h6d8c9sJcQdKh", "6h6dKhQdJc"},
	} {
		if got := CardsString(BestFive(MustParseCards(tc.cards))); got != tc.want {
			t.Errorf("BestFive(%s) = %s, want %s", tc.cards, got, tc.want)
		}
	}
}

func TestEvaluateRejectsBadHands(t *testing.T) {
	if v := Evaluate(MustParseCards("AhKh")...); v != 0 {
		t.Errorf("two cards: %v, want no hand", v)
	}
	if err := CheckHand(MustParseCards("AhKhQh")); err == nil || err.Error() != "a hand to evaluate has 3 cards (expected 5, 6 or 7)" {
		t.Errorf("CheckHand(3 cards) = %v", err)
	}
	ah := MustParseCard("Ah")
	if err := CheckHand([]Card{ah, ah, MustParseCard("2c"), MustParseCard("3c"), MustParseCard("4c")}); err == nil {
		t.Error("CheckHand accepted a duplicate card")
	}
}

// The lookup tables stay within their budget of 256 KB (read as 256,000 bytes, the stricter way),
// and building them is quick.
func TestTablesBudget(t *testing.T) {
	if TablesSize > 256_000 {
		t.Errorf("lookup tables take %d bytes, budget 256,000", TablesSize)
	}
	start := time.Now()
	buildTables()
	t.Logf("tables: %d bytes, rebuilt in %v", TablesSize, time.Since(start))
}

// The rank hash is perfect: every holding of five to seven cards has a slot of its own, inside the
// table.
func TestRankHashPerfect(t *testing.T) {
	owner := make(map[uint][13]uint8, rankTableSize)
	forEachHolding(func(c *[13]uint8, sum uint32) {
		slot := rankSlot(sum)
		if slot >= rankTableSize {
			t.Fatalf("holding %v: slot %d outside the %d-entry table", *c, slot, rankTableSize)
		}
		if o, ok := owner[slot]; ok {
			t.Fatalf("holdings %v and %v share slot %d", o, *c, slot)
		}
		owner[slot] = *c
	})
	if len(owner) != 73_775 {
		t.Errorf("%d holdings of five to seven cards, want 73,775", len(owner))
	}
}
