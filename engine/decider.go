package engine

import (
	"context"
)

// Decision is a player's action: what Table.Act takes. To is the total of a bet or a raise
// (rule A5); it is ignored for the other actions.
type Decision struct {
	Action Action
	To     int64
}

// Decider chooses the actions of one seated player: a bot, or the connection of a person.
type Decider interface {
	// Decide returns the action of the player to act. v is the table as that player's seat sees it
	// (Table.View of the seat): its own hole cards and nobody else's until they are shown, no
	// card not dealt (rule D5). v.ToAct is the seat and v.Legal what it may do (rule A16). v belongs
	// to the runner and is valid during the call only.
	//
	// An illegal action changes nothing: the runner tells a Decider that is also a Refusals why
	// (the engine's VerifyX error, naming the rule and the amounts) and asks again, under the same
	// action clock, up to MaxRefusals times; then the turn ends as when the clock runs out. An error
	// forfeits the turn as the action clock does (rule A15): only the clock folds.
	//
	// A Decider that waits for a person must return when ctx ends: the action clock ends it, and
	// the turn is then the engine's TimeExpired (a fold, or a check under checkWhenFree).
	Decide(ctx context.Context, v *View) (Decision, error)
}

// Refusals is a Decider that hears why a decision was refused before it is asked again: err is the
// engine's error value (ErrRaiseTooSmall and the others), naming the rule and the amounts, as
// a person at the table would be told. Refused is called on the runner's goroutine, between turns of
// Decide, never during one.
type Refusals interface {
	Refused(d Decision, err error)
}

// Instant marks a Decider that answers at once and never blocks (a bot): the runner calls it on its
// own goroutine without the action clock, so that a simulation spends no time and no allocation on
// the clock, and no clock time passes for a bot.
type Instant interface {
	Decider
	Instant()
}

// Players gives the runner each seated player's Decider. The runner asks when it first finds a
// player in a seat and keeps the answer while the player sits there. nil means that nobody acts for
// the player (a connection lost): each of his turns expires at once (rule A15).
type Players interface {
	Decider(player string) Decider
}

// PlayersFunc is a function that is a Players.
type PlayersFunc func(player string) Decider

// Decider returns f(player).
func (f PlayersFunc) Decider(player string) Decider { return f(player) }
