package protocol

import (
	"errors"
	"fmt"

	"github.com/pokerfloor/pokerfloor/engine"
)

// Code says what kind of error an Error is, for a client to act on without reading the message.
type Code string

const (
	CodeBadJSON      Code = "bad_json"      // the frame is not JSON of the expected shape
	CodeBadVersion   Code = "bad_version"   // another protocol version
	CodeUnknownType  Code = "unknown_type"  // a message type the server does not know
	CodeTooLarge     Code = "too_large"     // a frame over MaxFrame (the connection is closed)
	CodeNotJoined    Code = "not_joined"    // the first frame must be a join
	CodeBadToken     Code = "bad_token"     // forged, malformed, for another table or tournament
	CodeTokenExpired Code = "token_expired" // the token's time is over
	CodeReplayed     Code = "token_replayed"
	CodeNotSeated    Code = "not_seated" // the token's player has no seat at this table
	CodeBotSeat      Code = "bot_seat"   // the token's player's seat is played by the table's own bot
	CodeReadOnly     Code = "read_only"  // a spectator may not act or chat
	CodeNotYourTurn  Code = "not_your_turn"
	CodeWrongHand    Code = "wrong_hand" // the action names another hand than the one in progress
	CodeNoHand       Code = "no_hand"
	CodeIllegal      Code = "illegal_action" // the engine refused it: Rule and the amounts say why
	CodeBadAction    Code = "bad_action"     // an action or advance name that does not exist
	CodeRateLimited  Code = "rate_limited"   // too many frames: the connection is closed
	CodeBadChat      Code = "bad_chat"
	CodeReplaced     Code = "replaced" // the same player connected again elsewhere
	CodeInternal     Code = "internal"
)

// Error is an error sent to a client: what is wrong, what is expected, the rule of RULES.md it breaks
// (when a rule does) and the amounts involved. Fatal errors close the connection after them.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	Rule    string `json:"rule,omitempty"`
	// Amounts (0 when they do not apply): the action's total, the smallest and largest totals
	// allowed, what the player owes.
	To    int64 `json:"to,omitempty"`
	Min   int64 `json:"min,omitempty"`
	Max   int64 `json:"max,omitempty"`
	Owed  int64 `json:"owed,omitempty"`
	Fatal bool  `json:"fatal,omitempty"`
}

func (e *Error) Error() string {
	if e.Rule != "" {
		return fmt.Sprintf("%s: %s (rule %s)", e.Code, e.Message, e.Rule)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// FromEngine converts an engine error (an action refused by the rules) to an Error with its rule and
// amounts. Errors that are not the engine's become CodeInternal.
func FromEngine(err error) *Error {
	e := &Error{Code: CodeIllegal, Message: err.Error()}
	var (
		notTurn   engine.ErrNotYourTurn
		noCheck   engine.ErrCannotCheck
		noCall    engine.ErrNothingToCall
		betSmall  engine.ErrBetTooSmall
		already   engine.ErrAlreadyBet
		noRaise   engine.ErrNoBetToRaise
		small     engine.ErrRaiseTooSmall
		reopened  engine.ErrNotReopened
		noOpp     engine.ErrNoOpponent
		tooMuch   engine.ErrNotEnoughChips
		noHand    engine.ErrNoHand
		badSeat   engine.ErrBadSeat
		staleTime engine.ErrStaleClock
	)
	switch {
	case errors.As(err, &notTurn):
		e.Code, e.Rule = CodeNotYourTurn, notTurn.Rule
	case errors.As(err, &noCheck):
		e.Rule, e.Owed = noCheck.Rule, noCheck.Owed
	case errors.As(err, &noCall):
		e.Rule = noCall.Rule
	case errors.As(err, &betSmall):
		e.Rule, e.To, e.Min = betSmall.Rule, betSmall.Amount, betSmall.Min
	case errors.As(err, &already):
		e.Rule = already.Rule
	case errors.As(err, &noRaise):
		e.Rule = noRaise.Rule
	case errors.As(err, &small):
		e.Rule, e.To, e.Min = small.Rule, small.To, small.Min
	case errors.As(err, &reopened):
		e.Rule = reopened.Rule
	case errors.As(err, &noOpp):
		e.Rule = noOpp.Rule
	case errors.As(err, &tooMuch):
		e.Rule, e.To, e.Max = tooMuch.Rule, tooMuch.To, tooMuch.Max
	case errors.As(err, &staleTime):
		e.Rule = staleTime.Rule
	case errors.As(err, &noHand):
		e.Code = CodeNoHand
	case errors.As(err, &badSeat):
		// not dealt, folded, all-in: the player cannot act in this hand
	default:
		e.Code = CodeInternal
	}
	return e
}

// VerifyAction checks a decision against the view of the player to act, by the same rules as the
// engine's VerifyX for the bounds the view carries (A3, A4, A5, A7, A10): a connection refuses a
// wrong action at once, with its rule and amounts, and asks again, rather than hand the engine an
// action it would refuse. The engine still checks every action it applies.
func VerifyAction(v *engine.View, a engine.Action, to int64) *Error {
	l := &v.Legal
	switch a {
	case engine.Fold:
		if l.Fold {
			return nil
		}
	case engine.Check:
		if l.Check {
			return nil
		}
		return &Error{Code: CodeIllegal, Rule: "A3", Owed: v.ToCall,
			Message: fmt.Sprintf("cannot check: %d to call (rule A3)", v.ToCall)}
	case engine.Call:
		if l.Call {
			return nil
		}
		return &Error{Code: CodeIllegal, Rule: "A3", Message: "there is nothing to call: check instead (rule A3)"}
	case engine.AllIn:
		if l.AllIn || l.Call {
			return nil
		}
	case engine.Bet, engine.Raise:
		switch {
		case a == engine.Bet && !l.Bet && l.Raise:
			return &Error{Code: CodeIllegal, Rule: "A3", Message: fmt.Sprintf("there is already a bet of %d in this round: raise instead of betting (rule A3)", v.CurrentBet)}
		case a == engine.Raise && !l.Raise && l.Bet:
			return &Error{Code: CodeIllegal, Rule: "A3", Message: "there is no bet to raise in this round: bet instead (rule A3)"}
		case !l.Bet && !l.Raise:
			if !v.Reopens && v.CurrentBet > 0 {
				return &Error{Code: CodeIllegal, Rule: "A7", Message: "the betting is not reopened to you: call or fold (rule A7)"}
			}
			return &Error{Code: CodeIllegal, Rule: "A2", Message: "nobody could call a bet or raise: call, check or fold"}
		case to > l.MaxTo:
			return &Error{Code: CodeIllegal, Rule: "A3", To: to, Max: l.MaxTo,
				Message: fmt.Sprintf("%d is more than you have: all-in is %d (rule A3)", to, l.MaxTo)}
		case to < l.MinTo && to != l.MaxTo:
			rule := "A5"
			if a == engine.Bet {
				rule = "A4"
			}
			return &Error{Code: CodeIllegal, Rule: rule, To: to, Min: l.MinTo, Max: l.MaxTo,
				Message: fmt.Sprintf("%s to %d is below the minimum of %d (rule %s); at most %d", ActionName(a), to, l.MinTo, rule, l.MaxTo)}
		}
		return nil
	}
	return &Error{Code: CodeIllegal, Rule: "A3", Message: fmt.Sprintf("%s is not allowed now", ActionName(a))}
}
