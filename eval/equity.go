package eval

import (
	"fmt"
	"math/rand/v2"
)

// HandEquity is one hand's share of the pot over all the boards considered: how often it wins alone,
// how often it ties for the best hand, and its equity (wins plus its fraction of each tied pot), all
// as fractions from 0 to 1.
type HandEquity struct {
	Win, Tie, Equity float64
}

// MaxEquityHands is the most hands an equity calculation takes: a full table.
const MaxEquityHands = 10

// ErrEquityInput says what is wrong with the hands, board or dead cards given to an equity
// calculation.
type ErrEquityInput struct{ Problem string }

func (e *ErrEquityInput) Error() string { return e.Problem }

// tieUnits is the least common multiple of 1..10: a pot split t ways gives each tied hand tieUnits/t,
// a whole number, so equity adds up exactly in integers.
const tieUnits = 2520

// tally counts, per hand, the boards it wins alone, ties, and its pot shares in tieUnits.
type tally struct {
	n                  int
	wins, ties, shares [MaxEquityHands]uint64
	boards             uint64
}

func (t *tally) add(v *[MaxEquityHands]Value) {
	best, count := Value(0), 0
	for _, x := range v[:t.n] {
		if x > best {
			best, count = x, 1
		} else if x == best {
			count++
		}
	}
	t.boards++
	for i, x := range v[:t.n] {
		if x != best {
			continue
		}
		if count == 1 {
			t.wins[i]++
			t.shares[i] += tieUnits
		} else {
			t.ties[i]++
			t.shares[i] += tieUnits / uint64(count)
		}
	}
}

func (t *tally) result() []HandEquity {
	out := make([]HandEquity, t.n)
	if t.boards == 0 {
		return out
	}
	b := float64(t.boards)
	for i := range out {
		out[i] = HandEquity{
			Win:    float64(t.wins[i]) / b,
			Tie:    float64(t.ties[i]) / b,
			Equity: float64(t.shares[i]) / tieUnits / b,
		}
	}
	return out
}

// equitySetup checks the input and returns each hand with the board added, the cards left to deal
// from, and how many board cards are missing.
func equitySetup(hands [][]Card, board, dead []Card) (bases []Hand, deck []Card, need int, err error) {
	if len(hands) < 2 || len(hands) > MaxEquityHands {
		return nil, nil, 0, &ErrEquityInput{fmt.Sprintf("equity needs 2 to %d hands, got %d", MaxEquityHands, len(hands))}
	}
	switch len(board) {
	case 0, 3, 4, 5:
	default:
		return nil, nil, 0, &ErrEquityInput{fmt.Sprintf("the board has %d cards (expected 0, 3, 4 or 5)", len(board))}
	}
	var used CardSet
	for i, h := range hands {
		if len(h) != 2 {
			return nil, nil, 0, &ErrEquityInput{fmt.Sprintf("hand %d has %d cards (expected 2 hole cards)", i+1, len(h))}
		}
	}
	for _, group := range append(append(append([][]Card{}, hands...), board), dead) {
		if err := checkDistinct(group, used); err != nil {
			return nil, nil, 0, err
		}
		used |= NewCardSet(group...)
	}
	boardHand := NewHand(board...)
	for _, h := range hands {
		bases = append(bases, boardHand.Merge(NewHand(h...)))
	}
	for i := 0; i < NumCards; i++ {
		if c := CardFromIndex(i); !used.Has(c) {
			deck = append(deck, c)
		}
	}
	need = 5 - len(board)
	if need > len(deck) {
		return nil, nil, 0, &ErrEquityInput{fmt.Sprintf("only %d cards are left to complete the board (need %d)", len(deck), need)}
	}
	return bases, deck, need, nil
}

// ExactEquity deals every possible completion of the board (5 cards in all) from the cards no hand,
// board or dead list holds, and returns each hand's win, tie and equity over all of them. hands are
// Hold'em hands of two hole cards, 2 to 10 of them; board has 0, 3, 4 or 5 cards.
func ExactEquity(hands [][]Card, board, dead []Card) ([]HandEquity, error) {
	bases, deck, need, err := equitySetup(hands, board, dead)
	if err != nil {
		return nil, err
	}
	t := &tally{n: len(bases)}
	e := enumerator{t: t, deck: deck}
	for i, c := range deck {
		e.cards[i] = NewHand(c)
		e.sums[i] = e.cards[i].rankSum()
	}
	e.enumerate(bases, 0, need)
	return t.result(), nil
}

type enumerator struct {
	t     *tally
	deck  []Card
	cards [NumCards]Hand
	sums  [NumCards]uint32 // the cards' rank keys, for the loops that need no flush test
	v     [MaxEquityHands]Value
}

// enumerate deals need more board cards from deck[from:] to hands that hold what is dealt so far.
func (e *enumerator) enumerate(hands []Hand, from, need int) {
	switch need {
	case 0:
		for i, h := range hands {
			e.v[i] = h.Value()
		}
		e.t.add(&e.v)
		return
	case 1:
		if len(hands) == 2 {
			aWins, bWins := e.lastCardHeadsUp(hands[0], hands[1], from)
			e.t.addHeadsUp(aWins, bWins, uint64(len(e.deck)-from))
			return
		}
		for _, c := range e.cards[from:len(e.deck)] {
			for i, h := range hands {
				e.v[i] = h.Merge(c).Value()
			}
			e.t.add(&e.v)
		}
		return
	}
	if need == 2 && len(hands) == 2 {
		e.lastTwoHeadsUp(hands[0], hands[1], from)
		return
	}
	var next [MaxEquityHands]Hand
	for i := from; i <= len(e.deck)-need; i++ {
		for j, h := range hands {
			next[j] = h.Merge(e.cards[i])
		}
		e.enumerate(next[:len(hands)], i+1, need-1)
	}
}

// lastTwoHeadsUp deals the last two board cards from deck[from:] to two hands of five cards each.
// When neither hand holds three cards of a suit, two more cannot make a flush, and both loops read
// rank sums alone; otherwise each turn card is dealt and the river left to lastCardHeadsUp. The
// wins are added up in registers and counted into the tally once.
func (e *enumerator) lastTwoHeadsUp(a, b Hand, from int) {
	var aWins, bWins uint64
	n := uint64(len(e.deck) - from)
	boards := n * (n - 1) / 2
	if a.flushDrawnBy(2) || b.flushDrawnBy(2) {
		for i := from; i < len(e.deck)-1; i++ {
			c := e.cards[i]
			wa, wb := e.lastCardHeadsUp(a.Merge(c), b.Merge(c), i+1)
			aWins, bWins = aWins+wa, bWins+wb
		}
	} else {
		sums := e.sums[from:len(e.deck)]
		ka, kb := a.rankSum(), b.rankSum()
		for i, turn := range sums {
			aWins, bWins = headsUpRankWins(ka+turn, kb+turn, sums[i+1:], aWins, bWins)
		}
	}
	e.t.addHeadsUp(aWins, bWins, boards)
}

// lastCardHeadsUp is the innermost loop of a heads-up enumeration: the last board card, from
// deck[from:], for two hands of six cards each; it returns the boards each hand wins. When neither
// hand holds four cards of a suit, no last card can make a flush, and the loop reads rank sums
// alone.
func (e *enumerator) lastCardHeadsUp(a, b Hand, from int) (aWins, bWins uint64) {
	if !a.flushDrawn() && !b.flushDrawn() {
		return headsUpRankWins(a.rankSum(), b.rankSum(), e.sums[from:len(e.deck)], 0, 0)
	}
	for _, c := range e.cards[from:len(e.deck)] {
		va, vb := a.Merge(c).Value(), b.Merge(c).Value()
		aWins += oneIf(va > vb)
		bWins += oneIf(vb > va)
	}
	return aWins, bWins
}

// headsUpRankWins adds to aWins and bWins the boards that each of two hands with no flush to come,
// of rank sums ka and kb, wins with each last card of rest. Wins are counted with comparisons
// turned into 0 or 1, not with a branch or a histogram indexed by the outcome: the outcome is as
// good as random, so a branch would be mispredicted often, and increments of a few counters in
// memory wait on each other.
func headsUpRankWins(ka, kb uint32, rest []uint32, aWins, bWins uint64) (uint64, uint64) {
	for _, k := range rest {
		va, vb := rankValue(ka+k), rankValue(kb+k)
		aWins += oneIf(va > vb)
		bWins += oneIf(vb > va)
	}
	return aWins, bWins
}

// addHeadsUp counts boards of a heads-up enumeration, of which the first hand won aWins, the
// second bWins, and the rest were ties.
func (t *tally) addHeadsUp(aWins, bWins, boards uint64) {
	ties := boards - aWins - bWins
	t.boards += boards
	t.wins[0] += aWins
	t.wins[1] += bWins
	t.ties[0] += ties
	t.ties[1] += ties
	t.shares[0] += aWins*tieUnits + ties*tieUnits/2
	t.shares[1] += bWins*tieUnits + ties*tieUnits/2
}

// oneIf is 1 for true and 0 for false; the compiler makes it a SETcc, with no branch.
func oneIf(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// MonteCarloEquity deals trials random completions of the board, from a generator seeded with seed
// (the same seed gives the same result), and returns each hand's estimated win, tie and equity.
func MonteCarloEquity(hands [][]Card, board, dead []Card, trials int, seed uint64) ([]HandEquity, error) {
	if trials <= 0 {
		return nil, &ErrEquityInput{fmt.Sprintf("Monte Carlo needs a positive number of trials, got %d", trials)}
	}
	bases, deck, need, err := equitySetup(hands, board, dead)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	t := &tally{n: len(bases)}
	cards := make([]Hand, len(deck))
	for i, c := range deck {
		cards[i] = NewHand(c)
	}
	var v [MaxEquityHands]Value
	for range trials {
		// A partial Fisher-Yates shuffle draws the need cards without replacement.
		var drawn Hand
		for i := 0; i < need; i++ {
			j := i + rng.IntN(len(cards)-i)
			cards[i], cards[j] = cards[j], cards[i]
			drawn = drawn.Merge(cards[i])
		}
		for i, h := range bases {
			v[i] = h.Merge(drawn).Value()
		}
		t.add(&v)
	}
	return t.result(), nil
}
