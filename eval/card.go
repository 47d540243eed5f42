// Package eval ranks poker hands and computes equities.
//
// It is the bottom of pokerfloor's import graph: it depends on nothing but the standard library,
// does no I/O and keeps no state besides lookup tables built once at start-up.
//
// A Card is a byte, suit<<4 | rank, so that a CardSet (a uint64 with bit c set for card c) keeps each
// suit's 13 ranks in a 16-bit lane. The evaluator reads those lanes directly.
package eval

import (
	"fmt"
	"math/bits"
	"strings"
)

// Rank is a card's rank, Two (0) to Ace (12).
type Rank uint8

// Suit is a card's suit: clubs, diamonds, hearts, spades.
type Suit uint8

// The ranks, low to high.
const (
	Two Rank = iota
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
)

// The suits, in the order of their letters "cdhs".
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

const (
	rankChars = "23456789TJQKA"
	suitChars = "cdhs"
)

var rankNames = [13]string{"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"}
var rankPlurals = [13]string{"twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces"}

// String returns the rank's character: "2" … "9", "T", "J", "Q", "K", "A".
func (r Rank) String() string {
	if r > Ace {
		return "?"
	}
	return rankChars[r : r+1]
}

// Name returns the rank in words, "queen"; Plural returns "queens".
func (r Rank) Name() string   { return rankNames[r%13] }
func (r Rank) Plural() string { return rankPlurals[r%13] }

// String returns the suit's letter.
func (s Suit) String() string {
	if s > Spades {
		return "?"
	}
	return suitChars[s : s+1]
}

// Card is one card of the 52: suit<<4 | rank.
type Card uint8

// NumCards is the size of the deck.
const NumCards = 52

// NewCard returns the card of rank r and suit s.
func NewCard(r Rank, s Suit) Card { return Card(s)<<4 | Card(r) }

// CardFromIndex returns the i-th card (0..51) of the deck in rank-major order 2c, 2d, 2h, 2s, 3c … As.
func CardFromIndex(i int) Card { return NewCard(Rank(i/4), Suit(i%4)) }

// Index is the inverse of CardFromIndex: 0..51.
func (c Card) Index() int { return int(c.Rank())*4 + int(c.Suit()) }

// Rank returns the card's rank.
func (c Card) Rank() Rank { return Rank(c & 15) }

// Suit returns the card's suit.
func (c Card) Suit() Suit { return Suit(c >> 4) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c&15 <= 12 && c>>4 <= 3 }

// String returns the card in the two-character form "Ah".
func (c Card) String() string {
	if !c.Valid() {
		return fmt.Sprintf("Card(%d)", uint8(c))
	}
	return c.Rank().String() + c.Suit().String()
}

// ErrBadCard says that a card's text is not a rank character followed by a suit letter.
type ErrBadCard struct {
	Text   string
	Reason string
}

func (e *ErrBadCard) Error() string {
	return fmt.Sprintf("bad card %q: %s (expected a rank of %s followed by a suit of %s, like Ah or Td)",
		e.Text, e.Reason, rankChars, suitChars)
}

// ErrDuplicateCard says that a card appears twice where each card may appear once.
type ErrDuplicateCard struct{ Card Card }

func (e *ErrDuplicateCard) Error() string {
	return fmt.Sprintf("card %s appears more than once (each of the 52 cards can be used once)", e.Card)
}

// ParseCard reads one card such as "Ah", "td" or "2C". Ranks accept "10" for ten as well as "T".
func ParseCard(s string) (Card, error) {
	t := s
	if len(t) == 3 && t[:2] == "10" {
		t = "T" + t[2:]
	}
	if len(t) != 2 {
		return 0, &ErrBadCard{Text: s, Reason: "a card is two characters"}
	}
	r := strings.IndexByte(rankChars, upper(t[0]))
	if r < 0 {
		return 0, &ErrBadCard{Text: s, Reason: fmt.Sprintf("unknown rank %q", t[0])}
	}
	su := strings.IndexByte(suitChars, lower(t[1]))
	if su < 0 {
		return 0, &ErrBadCard{Text: s, Reason: fmt.Sprintf("unknown suit %q", t[1])}
	}
	return NewCard(Rank(r), Suit(su)), nil
}

func upper(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b - 'A' + 'a'
	}
	return b
}

// MustParseCard is ParseCard for literals known to be valid; it panics otherwise.
func MustParseCard(s string) Card {
	c, err := ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseCards reads cards written together or apart: "AhKd", "Ah Kd", "Ah,Kd". It rejects a card that
// appears twice. An empty string is no cards.
func ParseCards(s string) ([]Card, error) {
	var cards []Card
	var seen CardSet
	for _, field := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		if len(field)%2 != 0 && !strings.Contains(field, "10") {
			return nil, &ErrBadCard{Text: field, Reason: "cards written together must be two characters each"}
		}
		for len(field) > 0 {
			n := 2
			if strings.HasPrefix(field, "10") {
				n = 3
			}
			if n > len(field) {
				n = len(field)
			}
			c, err := ParseCard(field[:n])
			if err != nil {
				return nil, err
			}
			if seen.Has(c) {
				return nil, &ErrDuplicateCard{Card: c}
			}
			seen = seen.Add(c)
			cards = append(cards, c)
			field = field[n:]
		}
	}
	return cards, nil
}

// MustParseCards is ParseCards for literals known to be valid; it panics otherwise.
func MustParseCards(s string) []Card {
	cs, err := ParseCards(s)
	if err != nil {
		panic(err)
	}
	return cs
}

// CardsString writes cards together, "AhKd".
func CardsString(cards []Card) string {
	var b strings.Builder
	for _, c := range cards {
		b.WriteString(c.String())
	}
	return b.String()
}

// CardSet is a set of cards: bit c is set when card c is in it. Each suit's ranks sit in 16 bits.
type CardSet uint64

// FullDeck holds all 52 cards.
const FullDeck CardSet = 0x1fff_1fff_1fff_1fff

// NewCardSet returns the set of the given cards.
func NewCardSet(cards ...Card) CardSet {
	var s CardSet
	for _, c := range cards {
		s |= 1 << (c & 63)
	}
	return s
}

// Add returns s with c in it.
func (s CardSet) Add(c Card) CardSet { return s | 1<<(c&63) }

// Remove returns s without c.
func (s CardSet) Remove(c Card) CardSet { return s &^ (1 << (c & 63)) }

// Has reports whether c is in s.
func (s CardSet) Has(c Card) bool { return s&(1<<(c&63)) != 0 }

// Len is the number of cards in s.
func (s CardSet) Len() int { return bits.OnesCount64(uint64(s)) }

// Suit returns the 13-bit mask of the ranks of suit su in s.
func (s CardSet) Suit(su Suit) uint16 { return uint16(s>>(16*uint(su))) & 0x1fff }

// Cards lists the cards of s, clubs first, each suit from two up.
func (s CardSet) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for m := uint64(s); m != 0; m &= m - 1 {
		out = append(out, Card(bits.TrailingZeros64(m)))
	}
	return out
}

// String lists the cards of s together, "2c7dAh".
func (s CardSet) String() string { return CardsString(s.Cards()) }
