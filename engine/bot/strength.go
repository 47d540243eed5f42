package bot

import (
	"context"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/eval"
)

// StrengthConfig tunes a Strength bot. Zero fields take the defaults (in brackets).
type StrengthConfig struct {
	// Trials is the number of random deals of the Monte Carlo equity after the flop (48).
	Trials int
	// MaxOpponents caps the random hands the equity is measured against (3).
	MaxOpponents int
	// Bluff is the chance, in percent, of betting a weak hand when nothing is owed (5).
	Bluff int
	// PushBelow is the stack, in big blinds, under which the bot moves all-in preflop or folds (12).
	PushBelow float64
}

func (c *StrengthConfig) defaults() {
	if c.Trials <= 0 {
		c.Trials = 48
	}
	if c.MaxOpponents <= 0 {
		c.MaxOpponents = 3
	}
	if c.Bluff == 0 {
		c.Bluff = 5
	}
	if c.PushBelow == 0 {
		c.PushBelow = 12
	}
}

// Strength plays its cards: before the flop by Chen's score of its two cards, after it by its equity
// against as many random hands as it has opponents, estimated from a few random deals. It bets for
// value in proportion to the pot, calls when the equity beats the price, and bluffs now and then.
type Strength struct {
	cfg   StrengthConfig
	rng   rng
	bits  uint64 // random bits not used yet, for drawing cards
	nbits uint
}

// NewStrength returns a Strength bot seeded with seed.
func NewStrength(seed uint64, cfg StrengthConfig) *Strength {
	cfg.defaults()
	return &Strength{cfg: cfg, rng: rng{state: seed}}
}

// Instant marks the bot as answering at once (engine.Instant).
func (*Strength) Instant() {}

// Decide picks the action.
func (b *Strength) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	me := &v.Seats[v.ToAct]
	if !me.Known { // a view without its own cards: nothing to play on
		return checkOrFold(&v.Legal), nil
	}
	if v.NBoard == 0 {
		return b.preflop(v, ChenScore(me.Cards[0], me.Cards[1])), nil
	}
	opponents := 0
	for s := 0; s < v.NSeats; s++ {
		if s != v.ToAct && v.Seats[s].InHand {
			opponents++
		}
	}
	eq := b.equity(me.Cards, v.Board[:v.NBoard], min(max(opponents, 1), b.cfg.MaxOpponents))
	return b.postflop(v, eq), nil
}

// preflop plays by the hand's score: raise the best, call with good ones at a fair price, fold the
// rest; short-stacked, push or fold with a threshold that falls as the stack does.
func (b *Strength) preflop(v *engine.View, score int) engine.Decision {
	l := &v.Legal
	bb := v.Level.BigBlind
	if m := stackInBlinds(v); m < b.cfg.PushBelow {
		if float64(score) >= 4+m/2 {
			return allIn(l)
		}
		return checkOrFold(l)
	}
	switch {
	case score >= 10: // AA-JJ, AK
		return raiseTo(l, max(3*v.CurrentBet, 3*bb))
	case score >= 8:
		if v.ToCall <= 4*bb {
			if v.CurrentBet <= bb && b.rng.intn(2) == 0 {
				return raiseTo(l, 3*bb)
			}
			return checkOrCall(l)
		}
	case score >= 6:
		if v.ToCall <= 2*bb {
			return checkOrCall(l)
		}
	}
	return checkOrFold(l)
}

// postflop plays by equity: bet or raise strong hands, call when the equity beats the price,
// bluff rarely, give up otherwise.
func (b *Strength) postflop(v *engine.View, eq float64) engine.Decision {
	l := &v.Legal
	pot := v.Pot
	price := 0.0
	if v.ToCall > 0 {
		price = float64(v.ToCall) / float64(pot+v.ToCall)
	}
	switch {
	case eq >= 0.75:
		return raiseTo(l, v.CurrentBet+pot)
	case eq >= 0.55 && l.Check:
		return raiseTo(l, pot*2/3)
	case l.Check:
		if b.rng.intn(100) < int64(b.cfg.Bluff) {
			return raiseTo(l, pot/2)
		}
		return engine.Decision{Action: engine.Check}
	case eq > price+0.05:
		return engine.Decision{Action: engine.Call}
	}
	return engine.Decision{Action: engine.Fold}
}

// equity estimates the share of the pot hole wins on board against opponents random hands, from
// Trials random deals of the rest of the board and the opponents' cards.
func (b *Strength) equity(hole [2]eval.Card, board []eval.Card, opponents int) float64 {
	used := eval.NewCardSet(hole[0], hole[1])
	var base eval.Hand
	for _, c := range board {
		used = used.Add(c)
		base = base.Add(c)
	}
	need := 5 - len(board)
	var won float64
	for t := 0; t < b.cfg.Trials; t++ {
		taken := used
		full := base
		for i := 0; i < need; i++ {
			c := b.card(&taken)
			full = full.Add(c)
		}
		mine := full.Add(hole[0]).Add(hole[1]).Value()
		best, ties := true, 1
		for o := 0; o < opponents && best; o++ {
			theirs := full.Add(b.card(&taken)).Add(b.card(&taken)).Value()
			switch {
			case theirs > mine:
				best = false
			case theirs == mine:
				ties++
			}
		}
		if best {
			won += 1 / float64(ties)
		}
	}
	return won / float64(b.cfg.Trials)
}

// card draws a card not in taken and adds it: six random bits name a card (rank in the low four
// bits, suit above, as eval.Card), drawn again when they name no card or one taken. Bits left over
// from one draw serve the next.
func (b *Strength) card(taken *eval.CardSet) eval.Card {
	for {
		if b.nbits < 6 {
			b.bits, b.nbits = b.rng.uint64(), 60 // ten draws of six bits
		}
		c := eval.Card(b.bits & 63)
		b.bits >>= 6
		b.nbits -= 6
		if c.Valid() && !taken.Has(c) {
			*taken = taken.Add(c)
			return c
		}
	}
}

// ChenScore is Bill Chen's preflop score of two hole cards, rounded up: the higher card's points
// (ace 10, king 8, queen 7, jack 6, ten to two half their rank), doubled for a pair (at least 5),
// 2 more suited, less for the gap between them, 1 more for connected cards below a queen. Scores run
// from -1 (7-2 offsuit) to 20 (aces).
func ChenScore(a, b eval.Card) int {
	hi, lo := a.Rank(), b.Rank()
	if lo > hi {
		hi, lo = lo, hi
	}
	// Points doubled, to stay in integers: ace 20, king 16, queen 14, jack 12, ten to two their
	// rank's value (10 … 2).
	points := func(r eval.Rank) int {
		switch r {
		case eval.Ace:
			return 20
		case eval.King:
			return 16
		case eval.Queen:
			return 14
		case eval.Jack:
			return 12
		}
		return int(r) + 2
	}
	s := points(hi)
	if hi == lo {
		s = max(2*s, 10)
		return (s + 1) >> 1
	}
	if a.Suit() == b.Suit() {
		s += 4
	}
	gap := int(hi-lo) - 1
	s -= [...]int{0, 2, 4, 8, 10}[min(gap, 4)]
	if gap <= 1 && hi < eval.Queen {
		s += 2
	}
	return (s + 1) >> 1 // halves round up, negative ones too (the shift floors)
}
