package engine

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/bits"

	"github.com/pokerfloor/pokerfloor/eval"
)

// A DeckSource supplies each hand's cards (rule D1). The engine calls Shuffle once when a hand
// starts and then Draw once for each card it deals or burns, in dealing order. It never asks for more
// cards than it deals, so the rest of the deck never leaves the source (rule D5).
//
// A source may return an irregular card (one that is not one of the 52, or one already dealt in the
// hand): the engine then voids the hand (rule D4).
type DeckSource interface {
	Shuffle()
	Draw() eval.Card
}

// The deck sources below draw lazily: Draw picks a random card among those not yet drawn
// (Fisher–Yates one step at a time), so a hand costs as many random numbers as cards it deals.

// deck52 is the 52 cards with the next draw position.
type deck52 struct {
	cards [eval.NumCards]eval.Card
	next  int
}

func (d *deck52) reset() {
	if d.cards[0] == d.cards[1] { // first use: the zero value of cards is not a deck yet
		for i := range d.cards {
			d.cards[i] = eval.CardFromIndex(i)
		}
	}
	d.next = 0
}

// draw swaps the card at position next+j into position next and returns it.
func (d *deck52) draw(j int) eval.Card {
	i := d.next
	c := d.cards[i+j]
	d.cards[i+j] = d.cards[i]
	d.cards[i] = c
	d.next++
	return c
}

// CryptoDeck shuffles with crypto/rand: the production source (rule D1). The zero value is ready.
type CryptoDeck struct {
	d   deck52
	buf [256]byte
	pos int
}

// Shuffle starts a new hand's deck.
func (c *CryptoDeck) Shuffle() {
	c.d.reset()
}

func (c *CryptoDeck) uint64() uint64 {
	if c.pos == 0 || c.pos+8 > len(c.buf) {
		if _, err := crand.Read(c.buf[:]); err != nil {
			panic("engine: crypto/rand failed: " + err.Error()) // crypto/rand never fails on supported systems
		}
		c.pos = 0
	}
	v := binary.LittleEndian.Uint64(c.buf[c.pos:])
	c.pos += 8
	return v
}

// Draw deals the next card uniformly among those left, without bias (rejection sampling).
func (c *CryptoDeck) Draw() eval.Card {
	left := uint64(eval.NumCards - c.d.next)
	if left == 0 {
		return 0xff
	}
	limit := ^uint64(0) - (^uint64(0)%left+1)%left // largest multiple of left, minus one
	for {
		v := c.uint64()
		if v <= limit {
			return c.d.draw(int(v % left))
		}
	}
}

// SeededDeck is a fast deterministic source for simulations and tests (rule D1: never in live
// play). It uses SplitMix64; the same seed deals the same hands. Each card is a Fisher–Yates step:
// a 32-bit random number scaled to the cards left picks one (the bias is below 52/2^32, harmless in
// a simulation and absent from CryptoDeck), swapped to the front. The deck is not put back in order
// between hands: Fisher–Yates is uniform from any starting order.
type SeededDeck struct {
	state uint64
	spare uint64 // the high half of the last random number, when unused
	has   bool
	d     deck52
}

// NewSeededDeck returns a deck source seeded with seed.
func NewSeededDeck(seed uint64) *SeededDeck { return &SeededDeck{state: seed} }

// Uint64 returns the next number of the generator (SplitMix64). Simulations may share it to pick
// actions so that a whole run follows from one seed.
func (s *SeededDeck) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a number in [0, n) for n > 0 (multiply-shift; the bias is below n/2^64).
func (s *SeededDeck) Intn(n int) int {
	hi, _ := bits.Mul64(s.Uint64(), uint64(n))
	return int(hi)
}

// Shuffle starts a new hand's deck.
func (s *SeededDeck) Shuffle() { s.d.reset() }

// drawInto fills dst with the next cards: Draw in bulk, for the engine's hot path.
func (s *SeededDeck) drawInto(dst []eval.Card) bool {
	d := &s.d
	if d.next+len(dst) > eval.NumCards {
		return false
	}
	for i := range dst {
		var r uint32
		if s.has {
			r, s.has = uint32(s.spare), false
		} else {
			x := s.Uint64()
			r, s.spare, s.has = uint32(x), x>>32, true
		}
		j := int(uint64(r) * uint64(eval.NumCards-d.next) >> 32)
		dst[i] = d.draw(j)
	}
	return true
}

// Draw deals the next card.
func (s *SeededDeck) Draw() eval.Card {
	var c [1]eval.Card
	if !s.drawInto(c[:]) {
		return 0xff
	}
	return c[0]
}

// ScriptedDeck deals fixed cards in order: for replays and tests. Cards past the script are 0xff,
// an irregular card, which voids the hand (rule D4).
type ScriptedDeck struct {
	Cards []eval.Card
	next  int
}

// Shuffle rewinds the script: each hand deals the same cards.
func (s *ScriptedDeck) Shuffle() { s.next = 0 }

// Draw deals the next scripted card.
func (s *ScriptedDeck) Draw() eval.Card {
	if s.next >= len(s.Cards) {
		return 0xff
	}
	c := s.Cards[s.next]
	s.next++
	return c
}
