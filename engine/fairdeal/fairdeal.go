// Package fairdeal is the provably fair deck: a table commits to each deal before it happens and
// proves it afterwards, so that any player can check that the cards were not chosen.
//
// The algorithm (version 1), for one hand:
//
//  1. The table draws a server seed S of 32 bytes from crypto/rand and publishes the commitment
//     C = hex(SHA-256(S)) before the deal.
//  2. Each player seated at the deal may have given a client seed (any text, empty when none). The
//     pairs (player, client seed) are sorted by player ID and written as
//     M = "pokerfloor/fairdeal/v1" || for each pair: len(player) player len(seed) seed
//     with each length a 4-byte big-endian number.
//  3. The deal key is K = HMAC-SHA256(key S, message M).
//  4. A stream of random 64-bit numbers comes from HMAC-SHA256(key K, message the block number as an
//     8-byte big-endian counter from 0), each 32-byte block read as four big-endian uint64s.
//  5. The deck starts in index order (2c 2d 2h 2s 3c ... As: rank*4+suit, eval.CardFromIndex) and is
//     shuffled by Fisher–Yates from the top, one step per card drawn: the k-th card drawn (k from 0)
//     is chosen among the 52-k cards left as position k+j, j = v mod (52-k) for the next number v of
//     the stream that is below the largest multiple of 52-k (rejection sampling: no bias), and
//     swapped into position k.
//  6. The engine draws in dealing order (rules D2, D3): two hole cards each, one at a time in two
//     rounds from the small blind, then a burn and the flop, a burn and the turn, a burn and the river.
//  7. After the hand the table reveals S; anyone recomputes C, K and the deck, and compares each card
//     the hand history shows (Verify; `pokerfloor verify-deal`).
//
// The server seed never leaves the Source before the hand it dealt is over: the caller reveals it
// only then (rule D5: nothing predicts a card not yet dealt).
package fairdeal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/pokerfloor/pokerfloor/eval"
)

// SeedSize is the server seed's length in bytes.
const SeedSize = 32

// domain separates this algorithm's keys from any other use of the same seed.
const domain = "pokerfloor/fairdeal/v1"

// Deal is what proves one hand's deal: the commitment published before it, the server seed revealed
// after it, and the client seeds mixed in, by player (sorted by player ID).
type Deal struct {
	Commitment  string
	ServerSeed  [SeedSize]byte
	Players     []string
	ClientSeeds []string
}

// Commit returns the commitment to a server seed: hex(SHA-256(seed)).
func Commit(seed [SeedSize]byte) string {
	sum := sha256.Sum256(seed[:])
	return hex.EncodeToString(sum[:])
}

// key returns K = HMAC-SHA256(S, M) for the deal.
func (d *Deal) key() []byte {
	m := hmac.New(sha256.New, d.ServerSeed[:])
	m.Write([]byte(domain))
	var n [4]byte
	for i, p := range d.Players {
		binary.BigEndian.PutUint32(n[:], uint32(len(p)))
		m.Write(n[:])
		m.Write([]byte(p))
		s := d.ClientSeeds[i]
		binary.BigEndian.PutUint32(n[:], uint32(len(s)))
		m.Write(n[:])
		m.Write([]byte(s))
	}
	return m.Sum(nil)
}

// check says what is wrong with the deal's shape, if anything.
func (d *Deal) check() error {
	if len(d.Players) != len(d.ClientSeeds) {
		return fmt.Errorf("%d players but %d client seeds: one seed a player", len(d.Players), len(d.ClientSeeds))
	}
	if !slices.IsSorted(d.Players) {
		return fmt.Errorf("the players of the client seeds are not sorted by ID: %v", d.Players)
	}
	for i := 1; i < len(d.Players); i++ {
		if d.Players[i] == d.Players[i-1] {
			return fmt.Errorf("player %q has two client seeds", d.Players[i])
		}
	}
	if got := Commit(d.ServerSeed); got != strings.ToLower(d.Commitment) {
		return fmt.Errorf("the server seed's SHA-256 is %s, not the commitment %s published before the deal", got, d.Commitment)
	}
	return nil
}

// shuffler is the Fisher–Yates shuffle of steps 4 and 5, driven by a deal key.
type shuffler struct {
	mac   hashMAC
	block uint64
	buf   [sha256.Size]byte
	pos   int
	cards [eval.NumCards]eval.Card
	next  int
}

type hashMAC interface {
	Reset()
	Write([]byte) (int, error)
	Sum([]byte) []byte
}

func (s *shuffler) start(key []byte) {
	s.mac = hmac.New(sha256.New, key)
	s.block, s.pos, s.next = 0, len(s.buf), 0
	for i := range s.cards {
		s.cards[i] = eval.CardFromIndex(i)
	}
}

func (s *shuffler) uint64() uint64 {
	if s.pos+8 > len(s.buf) {
		var ctr [8]byte
		binary.BigEndian.PutUint64(ctr[:], s.block)
		s.block++
		s.mac.Reset()
		s.mac.Write(ctr[:])
		s.mac.Sum(s.buf[:0])
		s.pos = 0
	}
	v := binary.BigEndian.Uint64(s.buf[s.pos:])
	s.pos += 8
	return v
}

// draw is one Fisher–Yates step; 0xff (an irregular card, which voids the hand, rule D4) past 52.
func (s *shuffler) draw() eval.Card {
	left := uint64(eval.NumCards - s.next)
	if left == 0 {
		return 0xff
	}
	limit := ^uint64(0) - (^uint64(0)%left+1)%left // the largest multiple of left, minus one
	v := s.uint64()
	for v > limit {
		v = s.uint64()
	}
	j := s.next + int(v%left)
	s.cards[s.next], s.cards[j] = s.cards[j], s.cards[s.next]
	c := s.cards[s.next]
	s.next++
	return c
}

// Cards returns the first n cards the deal draws, in drawing order, or an error when the deal does
// not hold together (the seed does not match its commitment, the seeds are not one a player).
func (d *Deal) Cards(n int) ([]eval.Card, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	var s shuffler
	s.start(d.key())
	out := make([]eval.Card, min(n, eval.NumCards))
	for i := range out {
		out[i] = s.draw()
	}
	return out, nil
}

// Source is an engine.DeckSource that deals by the algorithm above. It holds the next deal's server
// seed (its commitment published by the caller before the deal), takes the seated players' client
// seeds, and keeps the last deal to reveal once its hand is over.
//
// Shuffle and Draw are called by the engine on the table's goroutine; the other methods may be
// called from any goroutine.
type Source struct {
	rand io.Reader

	mu       sync.Mutex
	seeds    map[string]string
	next     [SeedSize]byte
	nextHash string
	last     Deal
	dealt    bool

	s shuffler // used by the table's goroutine only
}

// NewSource returns a source drawing its server seeds from rand (crypto/rand.Reader in production;
// a fixed reader only in tests).
func NewSource(r io.Reader) (*Source, error) {
	if r == nil {
		r = rand.Reader
	}
	s := &Source{rand: r, seeds: map[string]string{}}
	if err := s.newSeed(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Source) newSeed() error {
	if _, err := io.ReadFull(s.rand, s.next[:]); err != nil {
		return fmt.Errorf("fairdeal: drawing a server seed: %w", err)
	}
	s.nextHash = Commit(s.next)
	return nil
}

// Commitment returns the commitment to the next deal's server seed: publish it before the deal.
func (s *Source) Commitment() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nextHash
}

// MaxClientSeed is the longest client seed kept, in bytes.
const MaxClientSeed = 128

// SetClientSeed records player's client seed for the deals from the next one on; an empty seed
// removes it. Call RemovePlayer when the player leaves the table.
func (s *Source) SetClientSeed(player, seed string) error {
	if len(seed) > MaxClientSeed {
		return fmt.Errorf("a client seed is at most %d bytes, this one has %d", MaxClientSeed, len(seed))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if seed == "" {
		delete(s.seeds, player)
	} else {
		s.seeds[player] = seed
	}
	return nil
}

// RemovePlayer forgets a player's client seed.
func (s *Source) RemovePlayer(player string) {
	s.mu.Lock()
	delete(s.seeds, player)
	s.mu.Unlock()
}

// Shuffle starts a deal with the committed server seed and the client seeds given so far, and draws
// the seed for the deal after it (whose commitment Commitment now returns).
func (s *Source) Shuffle() {
	s.mu.Lock()
	d := Deal{Commitment: s.nextHash, ServerSeed: s.next}
	for p := range s.seeds {
		d.Players = append(d.Players, p)
	}
	slices.Sort(d.Players)
	for _, p := range d.Players {
		d.ClientSeeds = append(d.ClientSeeds, s.seeds[p])
	}
	if err := s.newSeed(); err != nil {
		// crypto/rand does not fail on supported systems; a test reader that runs dry reuses the
		// seed's hash as the next seed rather than deal from a zero seed.
		s.next = sha256.Sum256(s.next[:])
		s.nextHash = Commit(s.next)
	}
	s.last, s.dealt = d, true
	s.mu.Unlock()
	s.s.start(d.key())
}

// Draw deals the next card of the deal.
func (s *Source) Draw() eval.Card { return s.s.draw() }

// Reveal returns the last deal with its server seed. Call it only once the hand it dealt is over:
// before, the seed predicts the cards not yet dealt (rule D5).
func (s *Source) Reveal() (Deal, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.last
	d.Players = slices.Clone(d.Players)
	d.ClientSeeds = slices.Clone(d.ClientSeeds)
	return d, s.dealt
}
