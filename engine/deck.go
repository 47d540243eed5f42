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
	if d.cards[1] == 0 { // first use: the zero value of cards is not a deck yet
		for i := range d.cards {
			d.cards[i] = eval.CardFromIndex(i)
		}
	}
	d.next = 0
}

// draw swaps the card at position next+j into position next and returns it.
func (d *deck52) draw(j int) eval.Card {
	i := d.next
	d.cards[i], d.cards[i+j] = d.cards[i+j], d.cards[i]
	d.next++
	return d.cards[i]
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
// play). It uses SplitMix64; the same seed deals the same hands. It draws by rejection: six random
// bits name one of 64 slots, a slot that is not a card left in the deck is drawn again, so each card
// is uniform among those left without keeping an array of the deck.
type SeededDeck struct {
	state uint64
	bits  uint64 // random bits not used yet
	nbits uint
	left  uint64 // slots of the cards not drawn yet: bit i for CardFromIndex(i)
	n     int
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
func (s *SeededDeck) Shuffle() { s.n = 0 }

// slotCard maps six random bits to a card, or 0xff for the 12 slots past the deck.
var slotCard = func() (m [64]eval.Card) {
	for i := range m {
		m[i] = 0xff
		if i < eval.NumCards {
			m[i] = eval.CardFromIndex(i)
		}
	}
	return m
}()

// drawInto fills dst with the next cards: Draw in bulk, for the engine's hot path. The slots left
// are a bit mask (bit i for CardFromIndex(i)), so a try is a shift and a test.
func (s *SeededDeck) drawInto(dst []eval.Card) bool {
	if s.n+len(dst) > eval.NumCards {
		return false
	}
	b, nb, left := s.bits, s.nbits, s.left
	if s.n == 0 {
		left = 1<<eval.NumCards - 1 // a fresh deck
	}
	for i := range dst {
		for {
			if nb < 6 {
				b, nb = s.Uint64(), 64
			}
			slot := b & 63
			b >>= 6
			nb -= 6
			if left>>slot&1 != 0 {
				left &^= 1 << slot
				dst[i] = slotCard[slot]
				break
			}
		}
	}
	s.bits, s.nbits, s.left = b, nb, left
	s.n += len(dst)
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
