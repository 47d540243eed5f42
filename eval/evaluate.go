package eval

import (
	"fmt"
	"math/bits"
	"slices"
)

//go:generate go run ./internal/gentables -o tables_gen.go

// The fast evaluator.
//
// A holding's ranks are summed into one key (rankKeys, generated: every holding of up to seven cards
// has its own sum), and a perfect hash of that sum finds the holding's Value in rankTable. Flushes,
// which a rank sum cannot see, are read per suit: with at most seven cards only one suit can hold
// five, and a flush then beats anything the other cards could add.
//
// Three ways in:
//   - EvalSet reads a CardSet suit lane by suit lane: laneKeys[mask] holds one suit's rank-key sum in
//     its low 32 bits and, when that suit alone holds five or more cards, the Value of its best flush
//     above them. The four lanes add up to the hand's key sum and, above it, its flush if any.
//   - Hand adds cards one at a time (cardKeys), so that enumeration adds only the cards that change.
//   - AppendValues evaluates many hands of seven cards, adding their keys and building a card set
//     only for a flush.
//
// All tables are filled by init from the same plain hand-reading code that names the classes
// (classOfCounts), in a few milliseconds.

const (
	// A Hand's key holds its rank-key sum in bits 32..63 and, in bits 0..31, a count of its cards of
	// each suit, a byte a suit, seven for each card: five cards of a suit (35) are the fewest that set
	// bit 5 of its byte, and seven (49) stay inside it. So the flush test is one mask that fits an
	// instruction's 32-bit immediate, with no bias to add first (a count of one per card would need
	// one), and the zero Hand is an empty hand. (The sum in the low half would spare a shift but
	// need a 64-bit mask, loaded into a register at each test: measured no faster on either path.)
	handSumShift  = 32
	handSuitStep  = 7
	handSuitOnes  = 0x01010101
	handFlushBits = 0x20202020
	handFlushBit0 = 5

	laneFlushShift = 32
	rowMask        = 1<<hashRowBits - 1
)

var (
	laneKeys  [1 << 13]uint64 // one suit's 13-bit rank mask → rank-key sum | flush Value<<32
	rankTable [rankTableSize]uint16
	cardKeys  [256]uint64 // a Card (any byte, so no bounds check) → its rank key | its suit's count
)

// TablesSize is the memory the evaluator's lookup tables take, in bytes.
const TablesSize = len(laneKeys)*8 + rankTableSize*2 + len(hashOffsets)*2 + len(cardKeys)*8

func init() { buildTables() }

func buildTables() {
	classes() // the Values, in order
	for m := range 1 << 13 {
		var sum uint64
		var counts [13]uint8
		for r := 0; r < 13; r++ {
			if m&(1<<r) != 0 {
				sum += uint64(rankKeys[r])
				counts[r] = 1
			}
		}
		if bits.OnesCount(uint(m)) >= 5 {
			sum |= uint64(valueOfClass(classOfCounts(&counts, true))) << laneFlushShift
		}
		laneKeys[m] = sum
	}
	for c := range NumCards {
		card := CardFromIndex(c)
		if card.Valid() {
			cardKeys[card] = uint64(rankKeys[card.Rank()])<<handSumShift | handSuitStep<<(8*uint(card.Suit()))
		}
	}
	forEachHolding(func(c *[13]uint8, sum uint32) {
		rankTable[rankSlot(sum)] = uint16(valueOfClass(classOfCounts(c, false)))
	})
}

// forEachHolding calls f with every holding of five to seven cards' ranks (counts per rank) and its
// rank-key sum.
func forEachHolding(f func(counts *[13]uint8, sum uint32)) {
	var counts [13]uint8
	for n := 5; n <= 7; n++ {
		forEachRankMultiset(n, func(c *[13]uint8) {
			var sum uint32
			for r, k := range c {
				sum += uint32(k) * rankKeys[r]
			}
			f(c, sum)
		}, &counts)
	}
}

// rankValue is the Value of a holding with no flush, by its rank-key sum.
func rankValue(sum uint32) Value { return Value(rankTable[rankSlot(sum)]) }

// rankSlot is the perfect hash of a rank-key sum: its slot in rankTable. Offsets are stored halved, so
// that they fit 16 bits and the offset table stays in a level-1 cache.
func rankSlot(sum uint32) uint { return uint(sum>>hashRowBits) + uint(hashOffsets[sum&rowMask])<<1 }

// EvalSet returns the Value of the best five-card hand in a set of 5, 6 or 7 cards. It is the fast
// path: five table lookups, no branch but the flush test, no allocation, small enough to inline. A set
// of another size is the caller's mistake; use Evaluate, which checks, where the input is not known
// to be right.
func EvalSet(s CardSet) Value {
	k := laneKeys[s&0x1fff] + laneKeys[s>>16&0x1fff] + laneKeys[s>>32&0x1fff] + laneKeys[s>>48&0x1fff]
	if k>>laneFlushShift == 0 {
		return rankValue(uint32(k))
	}
	return Value(k >> laneFlushShift)
}

// Hand is a partial hand built a card at a time: the board, then each player's hole cards added to
// it. The zero Hand has no cards. Hands are values; Add returns a new one.
type Hand struct {
	key uint64  // rank-key sum in the high 32 bits, per-suit counts in the low ones
	set CardSet // the cards, for reading a flush
}

// NewHand returns the Hand of the given cards.
func NewHand(cards ...Card) Hand {
	var h Hand
	for _, c := range cards {
		h = h.Add(c)
	}
	return h
}

// Add returns h with card c added. Adding a card already in h is the caller's mistake.
func (h Hand) Add(c Card) Hand { return Hand{h.key + cardKeys[c], h.set | 1<<(c&63)} }

// Merge returns the cards of h and o together; they must not share a card.
func (h Hand) Merge(o Hand) Hand { return Hand{h.key + o.key, h.set | o.set} }

// Cards returns the set of h's cards.
func (h Hand) Cards() CardSet { return h.set }

// Len returns how many cards h holds.
func (h Hand) Len() int { return h.set.Len() }

// Value returns the Value of a Hand of 5, 6 or 7 cards.
func (h Hand) Value() Value {
	// The common case first: so written, the compiler lays it out as the straight path through a
	// caller's loop, the rare flush as the jump.
	if h.key&handFlushBits == 0 {
		return rankValue(h.rankSum())
	}
	return flushLaneValue(h.key, h.set)
}

// rankSum is the sum of the rank keys of h's cards.
func (h Hand) rankSum() uint32 { return uint32(h.key >> handSumShift) }

// AppendValues appends the Value of each hand of seven cards to dst and returns the extended slice.
// It is the batch form of NewHand(h[:]...).Value(): with the loop inside, each hand costs its seven
// key additions and one lookup, and the card set that only a flush needs is built only for one (a
// single call could not be inlined and keep this lazy). Each hand must hold seven distinct valid
// cards; anything else is the caller's mistake, as for EvalSet (CheckHand says what is wrong).
func AppendValues(dst []Value, hands [][7]Card) []Value {
	n := len(dst)
	dst = slices.Grow(dst, len(hands))[:n+len(hands)]
	out := dst[n:][:len(hands)]
	// Four hands an iteration, their keys first: measured 7% faster than one at a time (fewer jumps
	// and loop tests a hand; the four keys' loads overlap). So written (i < len-3, then i to i+3),
	// the compiler can drop every bounds check of hands and out.
	i := 0
	for ; i < len(hands)-3; i += 4 {
		c0, c1, c2, c3 := &hands[i], &hands[i+1], &hands[i+2], &hands[i+3]
		k0, k1, k2, k3 := sevenKey(c0), sevenKey(c1), sevenKey(c2), sevenKey(c3)
		if k0&handFlushBits == 0 {
			out[i] = rankValue(uint32(k0 >> handSumShift))
		} else {
			out[i] = flushValue(k0, c0)
		}
		if k1&handFlushBits == 0 {
			out[i+1] = rankValue(uint32(k1 >> handSumShift))
		} else {
			out[i+1] = flushValue(k1, c1)
		}
		if k2&handFlushBits == 0 {
			out[i+2] = rankValue(uint32(k2 >> handSumShift))
		} else {
			out[i+2] = flushValue(k2, c2)
		}
		if k3&handFlushBits == 0 {
			out[i+3] = rankValue(uint32(k3 >> handSumShift))
		} else {
			out[i+3] = flushValue(k3, c3)
		}
	}
	for ; i < len(hands); i++ {
		out[i] = sevenValue(sevenKey(&hands[i]), &hands[i])
	}
	return dst
}

// sevenKey is the Hand key of seven cards.
func sevenKey(c *[7]Card) uint64 {
	return cardKeys[c[0]] + cardKeys[c[1]] + cardKeys[c[2]] + cardKeys[c[3]] + cardKeys[c[4]] +
		cardKeys[c[5]] + cardKeys[c[6]]
}

// sevenValue is the Value of seven cards c whose key is k.
func sevenValue(k uint64, c *[7]Card) Value {
	if k&handFlushBits != 0 {
		return flushValue(k, c)
	}
	return rankValue(uint32(k >> handSumShift))
}

// flushValue is the Value of seven cards, with key k, that hold a flush: AppendValues's rare path,
// kept out of its loop. It builds the card set only here, from shifts (measured faster than a
// table of card bits, and than NewHand's loop).
//
//go:noinline
func flushValue(k uint64, c *[7]Card) Value {
	set := CardSet(1)<<(c[0]&63) | CardSet(1)<<(c[1]&63) | CardSet(1)<<(c[2]&63) | CardSet(1)<<(c[3]&63) |
		CardSet(1)<<(c[4]&63) | CardSet(1)<<(c[5]&63) | CardSet(1)<<(c[6]&63)
	return flushLaneValue(k, set)
}

// flushLaneValue is the Value of the flush in set, whose key k flags the flush's suit: the flagged
// byte names the suit, whose ranks are the set's 16-bit lane 2*8*suit. The flags are read again
// shifted down, not reused from the flush test, so that the test compiles to a single TEST.
func flushLaneValue(k uint64, set CardSet) Value {
	lane := uint(bits.TrailingZeros64(k>>handFlushBit0&handSuitOnes)) * 2
	return Value(laneKeys[set>>lane&0x1fff] >> laneFlushShift)
}

// flushDrawn reports whether h holds four or more cards of one suit, so that one more card could
// make a flush.
func (h Hand) flushDrawn() bool { return h.flushDrawnBy(1) }

// flushDrawnBy reports whether n more cards could give h a flush: whether it holds 5-n or more
// cards of one suit. It counts n more cards in every suit and tests for a flush.
func (h Hand) flushDrawnBy(n uint64) bool {
	return (h.key+n*handSuitStep*handSuitOnes)&handFlushBits != 0
}

// Evaluate returns the Value of the best five-card hand among 5, 6 or 7 distinct cards, and 0 (no
// hand) for anything else. CheckHand says what is wrong with such input.
func Evaluate(cards ...Card) Value {
	if CheckHand(cards) != nil {
		return 0
	}
	return EvalSet(NewCardSet(cards...))
}

// ErrHandSize says a hand has too few or too many cards to evaluate.
type ErrHandSize struct{ Got int }

func (e *ErrHandSize) Error() string {
	return fmt.Sprintf("a hand to evaluate has %d cards (expected 5, 6 or 7)", e.Got)
}

// CheckHand reports what makes cards unfit for Evaluate: an invalid card, a duplicate, or a count
// other than 5 to 7.
func CheckHand(cards []Card) error {
	if len(cards) < 5 || len(cards) > 7 {
		return &ErrHandSize{Got: len(cards)}
	}
	return checkDistinct(cards, 0)
}

// checkDistinct reports the first card of cards that is invalid or already in seen or in cards.
func checkDistinct(cards []Card, seen CardSet) error {
	for _, c := range cards {
		if !c.Valid() {
			return &ErrBadCard{Text: c.String(), Reason: "not one of the 52 cards"}
		}
		if seen.Has(c) {
			return &ErrDuplicateCard{Card: c}
		}
		seen = seen.Add(c)
	}
	return nil
}
