package engine

import "fmt"

// The errors below are values that name the rule an action breaks, with the amounts involved.
// Match them with errors.As.

// ErrNoHand: there is no hand in progress to act in.
type ErrNoHand struct{ Phase Phase }

func (e ErrNoHand) Error() string {
	return fmt.Sprintf("no hand is in progress (the table is %s)", e.Phase)
}

// ErrHandInProgress: seats, stacks, states and the button change only between hands.
type ErrHandInProgress struct{ Rule string }

func (e ErrHandInProgress) Error() string {
	return fmt.Sprintf("a hand is in progress: seats, stacks and states change only between hands (rule %s)", e.Rule)
}

// ErrBadSeat: the seat number is outside the table or the seat holds no player of the hand.
type ErrBadSeat struct {
	Seat   int
	Reason string
}

func (e ErrBadSeat) Error() string { return fmt.Sprintf("seat %d: %s", e.Seat, e.Reason) }

// ErrNotYourTurn: only the player to act may act (rule A1); an action out of turn is an advance
// action (rule A14).
type ErrNotYourTurn struct {
	Seat, ToAct int
	Rule        string
}

func (e ErrNotYourTurn) Error() string {
	return fmt.Sprintf("seat %d acted out of turn: seat %d is to act (rule %s; queue an advance action instead, rule A14)", e.Seat, e.ToAct, e.Rule)
}

// ErrCannotCheck: a player who owes chips cannot check (rule A3).
type ErrCannotCheck struct {
	Owed int64
	Rule string
}

func (e ErrCannotCheck) Error() string {
	return fmt.Sprintf("cannot check: %d to call (rule %s)", e.Owed, e.Rule)
}

// ErrNothingToCall: there is no bet to call; check instead (rule A3).
type ErrNothingToCall struct{ Rule string }

func (e ErrNothingToCall) Error() string {
	return fmt.Sprintf("there is nothing to call: check instead (rule %s)", e.Rule)
}

// ErrBetTooSmall: a bet is at least the big blind unless it is all-in (rule A4).
type ErrBetTooSmall struct {
	Amount, Min int64
	Rule        string
}

func (e ErrBetTooSmall) Error() string {
	return fmt.Sprintf("bet of %d is below the minimum bet of %d (rule %s)", e.Amount, e.Min, e.Rule)
}

// ErrAlreadyBet: there is a bet in the round already; raise instead (rule A3).
type ErrAlreadyBet struct {
	Current int64
	Rule    string
}

func (e ErrAlreadyBet) Error() string {
	return fmt.Sprintf("there is already a bet of %d in this round: raise instead of betting (rule %s)", e.Current, e.Rule)
}

// ErrNoBetToRaise: there is no bet in the round; bet instead (rule A3).
type ErrNoBetToRaise struct{ Rule string }

func (e ErrNoBetToRaise) Error() string {
	return fmt.Sprintf("there is no bet to raise in this round: bet instead (rule %s)", e.Rule)
}

// ErrRaiseTooSmall: a raise is at least the last full raise (rule A5), or twice the big blind over
// an opening all-in smaller than the big blind (rule A10), unless it is all-in.
type ErrRaiseTooSmall struct {
	To, Min int64
	Rule    string
}

func (e ErrRaiseTooSmall) Error() string {
	return fmt.Sprintf("raise to %d is below the minimum raise to %d (rule %s)", e.To, e.Min, e.Rule)
}

// ErrNotReopened: an all-in of less than a full raise does not reopen the betting to a player who
// made or called the bet it raises (rule A7); he may call or fold.
type ErrNotReopened struct {
	Facing, ActedAt, FullRaise int64
	Rule                       string
}

func (e ErrNotReopened) Error() string {
	return fmt.Sprintf("the betting is not reopened: the bet went from %d, when you acted, to %d, less than a full raise of %d; call or fold (rule %s)",
		e.ActedAt, e.Facing, e.FullRaise, e.Rule)
}

// ErrNoOpponent: no other player in the hand could call a bet or raise (each one folded, all-in, or
// without chips beyond the bet in front), so there is none to make (rule A2).
type ErrNoOpponent struct{ Rule string }

func (e ErrNoOpponent) Error() string {
	return fmt.Sprintf("no other player could call a bet or raise (all folded, all-in or covered): check, call or fold (rule %s)", e.Rule)
}

// ErrNotEnoughChips: the amount is more than the player has; all-in is the most (rule A3).
type ErrNotEnoughChips struct {
	To, Max int64
	Rule    string
}

func (e ErrNotEnoughChips) Error() string {
	return fmt.Sprintf("%d is more than the player has: all-in is %d (rule %s)", e.To, e.Max, e.Rule)
}

// ErrStaleClock: the clock that expired belongs to an action that is no longer awaited (rule A15).
type ErrStaleClock struct {
	Seat       int
	Since, Now int32
	Rule       string
}

func (e ErrStaleClock) Error() string {
	return fmt.Sprintf("seat %d's clock since action %d is stale: the table is at action %d (rule %s)", e.Seat, e.Since, e.Now, e.Rule)
}

// ErrTooFewPlayers: a hand needs at least two players with chips who can be dealt in.
type ErrTooFewPlayers struct{ Players int }

func (e ErrTooFewPlayers) Error() string {
	return fmt.Sprintf("a hand needs two players with chips, the table has %d", e.Players)
}

// ErrBadConfig: the table's configuration, level or a seat's data is not usable.
type ErrBadConfig struct{ Reason string }

func (e ErrBadConfig) Error() string { return "bad table setup: " + e.Reason }

// ErrCalledOutOfTurn: a player who called out of turn may not make it a raise, whatever came before
// his turn (rule A14, seed 000: "in nessuna circostanza"); he may call or fold.
type ErrCalledOutOfTurn struct{ Rule string }

func (e ErrCalledOutOfTurn) Error() string {
	return fmt.Sprintf("you called out of turn: that call can never become a raise; call or fold (rule %s)", e.Rule)
}
