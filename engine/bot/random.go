package bot

import (
	"context"

	"github.com/pokerfloor/pokerfloor/engine"
)

// RandomConfig weighs a Random bot's choices. Zero fields take the defaults (in brackets).
type RandomConfig struct {
	// Facing a bet: fold, call, raise, all-in (40, 45, 12, 3).
	Fold, Call, Raise, AllIn int
	// With nothing owed: check, bet, all-in (70, 28, 2).
	Check, Bet, OpenAllIn int
	// PushBelow is the stack, in big blinds, under which the bot plays push-or-fold: all-in or
	// fold, all-in the more often the shorter it is (10).
	PushBelow float64
}

func (c *RandomConfig) defaults() {
	if c.Fold+c.Call+c.Raise+c.AllIn == 0 {
		c.Fold, c.Call, c.Raise, c.AllIn = 40, 45, 12, 3
	}
	if c.Check+c.Bet+c.OpenAllIn == 0 {
		c.Check, c.Bet, c.OpenAllIn = 70, 28, 2
	}
	if c.PushBelow == 0 {
		c.PushBelow = 10
	}
}

// Random picks a legal action at random by its weights, folds the more often the bigger the bet it
// faces, bets between the minimum and a pot-sized raise (small sizes the most likely) or all-in, and
// pushes more as the blinds grow against its stack.
type Random struct {
	cfg RandomConfig
	rng rng
}

// NewRandom returns a Random bot seeded with seed.
func NewRandom(seed uint64, cfg RandomConfig) *Random {
	cfg.defaults()
	return &Random{cfg: cfg, rng: rng{state: seed}}
}

// Instant marks the bot as answering at once (engine.Instant).
func (*Random) Instant() {}

// Decide picks the action.
func (b *Random) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	l := &v.Legal
	if m := stackInBlinds(v); m < b.cfg.PushBelow {
		// Push or fold: from even odds at PushBelow big blinds to always at none.
		if l.Check && b.rng.float() < 0.5 {
			return engine.Decision{Action: engine.Check}, nil
		}
		if b.rng.float()*b.cfg.PushBelow >= m/2 {
			return allIn(l), nil
		}
		return checkOrFold(l), nil
	}
	c := &b.cfg
	if l.Check {
		switch w := b.rng.intn(int64(c.Check + c.Bet + c.OpenAllIn)); {
		case w < int64(c.Check):
			return engine.Decision{Action: engine.Check}, nil
		case w < int64(c.Check+c.Bet):
			return b.sized(v), nil
		}
		return allIn(l), nil
	}
	// Facing a bet, the larger it is against the stack, the likelier a fold: a random bot that
	// called every shove would bust the table in a few hands.
	me := &v.Seats[v.ToAct]
	f := float64(l.CallAmount) / float64(me.Stack+1)
	keep := (1 - min(f, 1)) * (1 - min(f, 1))
	call, raise := int64(float64(c.Call)*keep), int64(float64(c.Raise)*keep)
	switch w := b.rng.intn(int64(c.Fold) + call + raise + int64(c.AllIn) + 1); {
	case w < int64(c.Fold):
		return engine.Decision{Action: engine.Fold}, nil
	case w < int64(c.Fold)+call:
		return engine.Decision{Action: engine.Call}, nil
	case w < int64(c.Fold)+call+raise:
		return b.sized(v), nil
	case w < int64(c.Fold)+call+raise+int64(c.AllIn):
		return allIn(l), nil
	}
	return engine.Decision{Action: engine.Fold}, nil
}

// sized bets or raises to a total between the minimum and a pot-sized raise, small sizes the most
// likely (the cube of a uniform number); going all-in is a choice of its own.
func (b *Random) sized(v *engine.View) engine.Decision {
	l := &v.Legal
	if !l.Bet && !l.Raise {
		return checkOrCall(l)
	}
	top := min(l.MaxTo, v.CurrentBet+v.Pot+v.ToCall)
	u := b.rng.float()
	return raiseTo(l, l.MinTo+int64(u*u*u*float64(max(top-l.MinTo, 0))))
}
