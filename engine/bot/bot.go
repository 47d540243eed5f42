// Package bot holds players that play by themselves: for simulations, tests and empty seats of the
// local run. A bot is a engine.Decider that answers at once (engine.Instant) from the view of its own
// seat, so it can never see another player's hole cards (rule D5), and it is deterministic: the same
// seed and the same views give the same decisions.
//
// Two kinds: Random, which picks among the legal actions with weights and goes all-in more as its
// stack shrinks against the blinds, so that tournaments of bots end; and Strength, which plays its
// cards: a preflop score (Chen's formula) and, after the flop, its equity against random hands by a
// quick Monte Carlo.
//
// Bots must stay fast (a simulation plays thousands of hands a second) and allocate nothing per
// decision. They must never read the table beyond the view they are given.
package bot

import (
	"fmt"
	"hash/fnv"

	"github.com/pokerfloor/pokerfloor/engine"
)

// rng is SplitMix64: small, fast, and the same sequence from the same seed everywhere.
type rng struct{ state uint64 }

func (r *rng) uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n) for n > 0.
func (r *rng) intn(n int64) int64 {
	return int64((r.uint64() >> 11) % uint64(n))
}

// float returns a number in [0, 1).
func (r *rng) float() float64 { return float64(r.uint64()>>11) / (1 << 53) }

// Kind names a kind of bot.
type Kind uint8

const (
	KindRandom Kind = iota
	KindStrength
	// KindCheckFold checks or folds (CheckFolder): nobody busts at a table of them, only the
	// blinds go round, so a test or a demonstration keeps its field for as long as it needs.
	KindCheckFold
)

var kindNames = [...]string{"random", "strength", "checkfold"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind reads a kind's name ("random", "strength", "checkfold").
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if s == n {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown bot %q (expected random, strength or checkfold)", s)
}

// New returns a bot of kind k seeded with seed.
func New(k Kind, seed uint64) engine.Decider {
	switch k {
	case KindStrength:
		return NewStrength(seed, StrengthConfig{})
	case KindCheckFold:
		return CheckFolder{}
	}
	return NewRandom(seed, RandomConfig{})
}

// Players gives every player a bot seeded from seed and the player's name, so that a player keeps
// his bot's behaviour wherever he sits. With several kinds, each player's kind is drawn from them by
// his name. With none, every bot is Random.
func Players(seed uint64, kinds ...Kind) engine.Players {
	return engine.PlayersFunc(func(player string) engine.Decider {
		h := fnv.New64a()
		h.Write([]byte(player))
		s := seed ^ h.Sum64()
		k := KindRandom
		if len(kinds) > 0 {
			k = kinds[s%uint64(len(kinds))]
		}
		return New(k, s)
	})
}

// stackInBlinds is the chips the player to act holds, bets of the round included, in big blinds.
func stackInBlinds(v *engine.View) float64 {
	me := &v.Seats[v.ToAct]
	bb := v.Level.BigBlind
	if bb <= 0 {
		bb = 1
	}
	return float64(me.Stack+me.Bet) / float64(bb)
}

// checkOrFold is what a bot does when it gives up.
func checkOrFold(l *engine.Legal) engine.Decision {
	if l.Check {
		return engine.Decision{Action: engine.Check}
	}
	return engine.Decision{Action: engine.Fold}
}

// checkOrCall continues without raising.
func checkOrCall(l *engine.Legal) engine.Decision {
	if l.Check {
		return engine.Decision{Action: engine.Check}
	}
	return engine.Decision{Action: engine.Call}
}

// raiseTo bets or raises to a total of to, kept between the legal bounds; with no raise allowed, it
// calls (or checks).
func raiseTo(l *engine.Legal, to int64) engine.Decision {
	switch {
	case !l.Bet && !l.Raise:
		return checkOrCall(l)
	case to >= l.MaxTo:
		return engine.Decision{Action: engine.AllIn}
	case to < l.MinTo:
		to = l.MinTo
	}
	a := engine.Raise
	if l.Bet {
		a = engine.Bet
	}
	return engine.Decision{Action: a, To: to}
}

// allIn puts every chip in: a bet or raise, or a call for less.
func allIn(l *engine.Legal) engine.Decision {
	if l.AllIn {
		return engine.Decision{Action: engine.AllIn}
	}
	return checkOrCall(l)
}

// compile-time checks: both bots are Instant deciders.
var (
	_ engine.Instant = (*Random)(nil)
	_ engine.Instant = (*Strength)(nil)
)
