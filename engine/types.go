package engine

import "fmt"

// MaxSeats is the largest table (rule T1).
const MaxSeats = 10

// PlayerState says how a seated player takes part in the next hand.
type PlayerState uint8

const (
	// Active players are dealt in and play.
	Active PlayerState = iota
	// SittingOut players (late, rule T4, or at their own request, rule T5) post blinds and antes,
	// are dealt in and their hand is folded at once.
	SittingOut
	// WaitingForButton players joined the table between the button and the small blind and are not
	// dealt in until the button passes them (rule B7).
	WaitingForButton
	// Penalised players serve a temporary exclusion (rule P3): blinds and antes posted, hand dealt and
	// killed.
	Penalised
	// Eliminated players have no chips left; they keep the seat only until the caller unseats them.
	Eliminated
)

var playerStateNames = [...]string{"active", "sitting out", "waiting for the button", "penalised", "eliminated"}

func (s PlayerState) String() string {
	if int(s) < len(playerStateNames) {
		return playerStateNames[s]
	}
	return fmt.Sprintf("PlayerState(%d)", uint8(s))
}

// absent reports whether a player in this state is dealt in but has his hand killed at once.
func (s PlayerState) absent() bool { return s == SittingOut || s == Penalised }

// AnteMode is the policy of rule B2.
type AnteMode uint8

const (
	// AnteEveryone: every player dealt in posts the ante (the seeds). Antes count as live chips for
	// side pots.
	AnteEveryone AnteMode = iota
	// AnteBigBlind: the big blind pays one ante for the table (TDA RP-11); the big blind is posted
	// first and the ante is dead money in the main pot.
	AnteBigBlind
)

// ButtonRule is the policy of rule B5.
type ButtonRule uint8

const (
	// ButtonDead: the big blind always advances to the next player; the button and small blind adjust
	// and may be dead (TDA, 003 r6). The default.
	ButtonDead ButtonRule = iota
	// ButtonSeed000: the rule book 000: small blind eliminated, the button stays one hand; big blind
	// eliminated, the button moves and the hand has no small blind, then the button stays one hand.
	ButtonSeed000
)

// ClockExpiry is the policy of rule A15 at the end of a player's time.
type ClockExpiry uint8

const (
	// ExpireFold folds the hand (the seeds).
	ExpireFold ClockExpiry = iota
	// ExpireCheckWhenFree checks when nothing is owed and folds otherwise (TDA 29).
	ExpireCheckWhenFree
)

// ShortOpenRule is the policy of rule A10: what the smallest raise is over an opening all-in smaller
// than the minimum bet.
type ShortOpenRule uint8

const (
	// ShortOpenDoubleBlind: the raise is to at least twice the big blind (the seeds: big blind 100,
	// all-in for 20, the smallest raise is to 200).
	ShortOpenDoubleBlind ShortOpenRule = iota
	// ShortOpenPlusBlind: the raise is to at least the all-in plus the big blind (120 in the example),
	// as PokerKit and most online rooms play it.
	ShortOpenPlusBlind
)

// OutOfTurnRule is the policy of rule A14 for a declaration made out of turn at a live table.
type OutOfTurnRule uint8

const (
	// OutOfTurnSeed000: the declaration binds unless a call, bet, raise or reraise comes before the
	// player's turn; a player who called out of turn may never raise in that round (000, 004). The
	// default.
	OutOfTurnSeed000 OutOfTurnRule = iota
	// OutOfTurnTDA: checks, calls and folds in between do not change the action, so the declaration
	// binds; a bet or raise frees the player, who then has every option (003 r30).
	OutOfTurnTDA
)

// Config holds the table's size and the tournament's policies. The zero value of each policy is
// the rule book's default.
type Config struct {
	Seats      int // 2..MaxSeats
	AnteMode   AnteMode
	ButtonRule ButtonRule
	Expiry     ClockExpiry
	ShortOpen  ShortOpenRule
	OutOfTurn  OutOfTurnRule
	Clock      ClockPolicy
	// Live: a card room's table with a human dealer, who reports every card as dealt (ReportHole,
	// ReportBoard) instead of a DeckSource, and the procedures of RULES.md group L.
	Live bool
}

// Level is a blind level (rule B3).
type Level struct {
	SmallBlind, BigBlind, Ante int64
}

// Round is a betting round.
type Round uint8

const (
	Preflop Round = iota
	Flop
	Turn
	River
)

var roundNames = [...]string{"preflop", "flop", "turn", "river"}

func (r Round) String() string {
	if int(r) < len(roundNames) {
		return roundNames[r]
	}
	return fmt.Sprintf("Round(%d)", uint8(r))
}

// Phase is where a table is in its hand cycle. A table is in exactly one phase.
type Phase uint8

const (
	// NoHand: between hands; seats, stacks, states and the level may change.
	NoHand Phase = iota
	// Betting: a hand is in progress and a player must act.
	Betting
	// Complete: the hand ended and the pot was pushed; Result describes it.
	Complete
	// Voided: the hand was void (rule D4); every chip went back.
	Voided
)

var phaseNames = [...]string{"no hand", "betting", "complete", "voided"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}
