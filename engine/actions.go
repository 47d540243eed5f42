package engine

import (
	"math/bits"

	"github.com/pokerfloor/pokerfloor/eval"
)

// Action is what a player may do (rule A3).
type Action uint8

const (
	Fold Action = iota + 1
	Check
	Call
	Bet   // To is the bet
	Raise // To is the total the player's bet in the round is raised to
	AllIn
)

var actionNames = [...]string{"", "fold", "check", "call", "bet", "raise", "all-in"}

func (a Action) String() string {
	if int(a) < len(actionNames) && a != 0 {
		return actionNames[a]
	}
	return "Action(?)"
}

// violation is why an action is illegal, as a small code so that CanX and the hot path cost
// nothing; explain turns it into an error value with the amounts, read from the unchanged table.
type violation uint8

const (
	okAction violation = iota
	vNoHand
	vNotYourTurn
	vCannotCheck
	vNothingToCall
	vAlreadyBet
	vNoBetToRaise
	vBetTooSmall
	vRaiseTooSmallA5
	vRaiseTooSmallA10
	vNotReopened
	vNoOpponent
	vNotEnoughChips
	vCalledOutOfTurn
	vAwaitingDealer
	vInTurn
	vAlreadyDeclared
	vNotDealt
	vFolded
	vIsAllIn
	vUnknownAction
)

// explain returns the error for violation v of seat's action a to to.
func (t *Table) explain(v violation, seat int, a Action, to int64) error {
	h := &t.h
	var owed, max int64
	if t.validSeat(seat) {
		owed = h.currentBet - h.bet[seat]
		max = h.bet[seat] + t.seats[seat].stack
	}
	if a == AllIn {
		to = max
	}
	switch v {
	case okAction:
		return nil
	case vNoHand:
		return ErrNoHand{Phase: h.phase}
	case vNotYourTurn:
		return ErrNotYourTurn{Seat: seat, ToAct: int(h.toAct), Rule: "A1"}
	case vCannotCheck:
		return ErrCannotCheck{Owed: owed, Rule: "A3"}
	case vNothingToCall:
		return ErrNothingToCall{Rule: "A3"}
	case vAlreadyBet:
		return ErrAlreadyBet{Current: h.currentBet, Rule: "A3"}
	case vNoBetToRaise:
		return ErrNoBetToRaise{Rule: "A3"}
	case vBetTooSmall:
		return ErrBetTooSmall{Amount: to, Min: h.level.BigBlind, Rule: "A4"}
	case vRaiseTooSmallA5:
		return ErrRaiseTooSmall{To: to, Min: t.MinRaiseTo(), Rule: "A5"}
	case vRaiseTooSmallA10:
		return ErrRaiseTooSmall{To: to, Min: t.MinRaiseTo(), Rule: "A10"}
	case vNotReopened:
		return ErrNotReopened{Facing: h.currentBet, ActedAt: h.actedTo[seat], FullRaise: h.lastFullRaise, Rule: "A7"}
	case vNoOpponent:
		return ErrNoOpponent{Rule: "A2"}
	case vNotEnoughChips:
		return ErrNotEnoughChips{To: to, Max: max, Rule: "A3"}
	case vCalledOutOfTurn:
		return ErrCalledOutOfTurn{Rule: "A14"}
	case vAwaitingDealer:
		return ErrAwaitingDealer{Awaiting: h.await, Rule: "D3"}
	case vInTurn:
		return ErrBadSeat{Seat: seat, Reason: "it is this seat's turn: act now (rule A14)"}
	case vAlreadyDeclared:
		return ErrBadSeat{Seat: seat, Reason: "has already declared an action out of turn, which binds (rule A14)"}
	case vNotDealt:
		return ErrBadSeat{Seat: seat, Reason: "not dealt in this hand"}
	case vFolded:
		return ErrBadSeat{Seat: seat, Reason: "has folded"}
	case vIsAllIn:
		return ErrBadSeat{Seat: seat, Reason: "is all-in"}
	}
	return ErrBadSeat{Seat: seat, Reason: "unknown action"}
}

// turn checks that a hand is in progress and seat is the player to act.
func (t *Table) turn(seat int) violation {
	h := &t.h
	if h.phase == Betting && h.toAct >= 0 && seat == int(h.toAct) {
		return okAction // the player to act is always dealt in, not folded and not all-in
	}
	if h.phase != Betting {
		return vNoHand
	}
	if h.await != AwaitNothing {
		return vAwaitingDealer
	}
	if !t.validSeat(seat) || !h.dealt[seat] {
		return vNotDealt
	}
	if h.folded[seat] {
		return vFolded
	}
	if h.allIn[seat] {
		return vIsAllIn
	}
	if int8(seat) != h.toAct {
		return vNotYourTurn
	}
	return okAction
}

// MinRaiseTo returns the smallest total a raise may reach now (A5), over an opening all-in below the
// big blind by policy (A10); with no bet in the round, the minimum bet (A4).
func (t *Table) MinRaiseTo() int64 {
	h := &t.h
	bb := h.level.BigBlind
	if h.currentBet == 0 {
		return bb
	}
	min := h.currentBet + h.lastFullRaise
	if h.currentBet < bb && h.round != Preflop && t.cfg.ShortOpen == ShortOpenDoubleBlind && min < 2*bb {
		min = 2 * bb // A10: all-in for 20 with a big blind of 100, the smallest raise is to 200
	}
	return min
}

// reopened reports whether the player may raise the bet in front of him (A7). Only a player who made
// or called a bet in this round (actedTo above zero) is barred, and only while the bet has grown by
// less than a full raise since, alone or added up from several short all-ins (TDA 47A). A player who
// has not acted, or who only checked, may raise: an all-in opening bet below the minimum bet is a
// bet, not a raise of his check (A10).
func (h *hand) reopened(s int8) bool {
	return !h.acted[s] || h.actedTo[s] == 0 || h.currentBet-h.actedTo[s] >= h.lastFullRaise
}

// answerable reports whether a bet or raise by s could be called by anyone: another player in the
// hand has chips beyond the bet in front (A2). With every other player folded, all-in or unable to
// cover the bet already made, the rules give no bet or raise; the player may only check, call or fold.
func (t *Table) answerable(s int8) bool {
	h := &t.h
	for m := h.act &^ (1 << uint(s)); m != 0; m &= m - 1 {
		o := bits.TrailingZeros16(m)
		if h.bet[o]+t.seats[o].stack > h.currentBet {
			return true
		}
	}
	return false
}

func (t *Table) verify(seat int, a Action, to int64) violation {
	if v := t.turn(seat); v != okAction {
		return v
	}
	h := &t.h
	s := int8(seat)
	owed := h.currentBet - h.bet[s]
	max := h.bet[s] + t.seats[s].stack
	switch a {
	case Fold:
		return okAction
	case Check:
		if owed > 0 {
			return vCannotCheck
		}
		return okAction
	case Call:
		if owed <= 0 {
			return vNothingToCall
		}
		return okAction
	case AllIn:
		if max <= h.currentBet {
			return okAction // an all-in call
		}
		to = max
		if h.currentBet == 0 {
			a = Bet
		} else {
			a = Raise
		}
	}
	switch a {
	case Bet:
		if h.currentBet > 0 {
			return vAlreadyBet
		}
		if to > max {
			return vNotEnoughChips
		}
		if !t.answerable(s) {
			return vNoOpponent
		}
		if to < h.level.BigBlind && to != max || to <= 0 {
			return vBetTooSmall
		}
		return okAction
	case Raise:
		if h.currentBet == 0 {
			return vNoBetToRaise
		}
		if to > max || max <= h.currentBet {
			return vNotEnoughChips
		}
		if !h.reopened(s) {
			return vNotReopened
		}
		if h.calledOOT&(1<<uint(s)) != 0 {
			return vCalledOutOfTurn
		}
		if !t.answerable(s) {
			return vNoOpponent
		}
		if min := t.MinRaiseTo(); to < min && to != max {
			if h.currentBet < h.level.BigBlind && h.round != Preflop && t.cfg.ShortOpen == ShortOpenDoubleBlind {
				return vRaiseTooSmallA10
			}
			return vRaiseTooSmallA5
		}
		return okAction
	}
	return vUnknownAction
}

// CanFold reports whether seat may fold now.
func (t *Table) CanFold(seat int) bool { return t.verify(seat, Fold, 0) == okAction }

// VerifyFold says why seat may not fold now, or nil.
func (t *Table) VerifyFold(seat int) error { return t.explain(t.verify(seat, Fold, 0), seat, Fold, 0) }

// Fold folds seat's hand.
func (t *Table) Fold(seat int) (Event, error) { return t.Act(seat, Fold, 0) }

// CanCheck reports whether seat may check (nothing owed, rule A3).
func (t *Table) CanCheck(seat int) bool { return t.verify(seat, Check, 0) == okAction }

// VerifyCheck says why seat may not check now, or nil.
func (t *Table) VerifyCheck(seat int) error {
	return t.explain(t.verify(seat, Check, 0), seat, Check, 0)
}

// Check checks.
func (t *Table) Check(seat int) (Event, error) { return t.Act(seat, Check, 0) }

// CanCall reports whether seat may call (something is owed; a short stack calls all-in).
func (t *Table) CanCall(seat int) bool { return t.verify(seat, Call, 0) == okAction }

// VerifyCall says why seat may not call now, or nil.
func (t *Table) VerifyCall(seat int) error { return t.explain(t.verify(seat, Call, 0), seat, Call, 0) }

// Call calls the bet in front (all-in when the stack is short).
func (t *Table) Call(seat int) (Event, error) { return t.Act(seat, Call, 0) }

// CanBet reports whether seat may open the round's betting with a bet of amount (A4).
func (t *Table) CanBet(seat int, amount int64) bool {
	return t.verify(seat, Bet, amount) == okAction
}

// VerifyBet says why seat may not bet amount now, or nil.
func (t *Table) VerifyBet(seat int, amount int64) error {
	return t.explain(t.verify(seat, Bet, amount), seat, Bet, amount)
}

// Bet opens the round's betting with amount.
func (t *Table) Bet(seat int, amount int64) (Event, error) { return t.Act(seat, Bet, amount) }

// CanRaiseTo reports whether seat may raise its bet in the round to a total of to (A5–A10).
func (t *Table) CanRaiseTo(seat int, to int64) bool {
	return t.verify(seat, Raise, to) == okAction
}

// VerifyRaiseTo says why seat may not raise to to now, or nil.
func (t *Table) VerifyRaiseTo(seat int, to int64) error {
	return t.explain(t.verify(seat, Raise, to), seat, Raise, to)
}

// RaiseTo raises seat's bet in the round to a total of to.
func (t *Table) RaiseTo(seat int, to int64) (Event, error) { return t.Act(seat, Raise, to) }

// CanAllIn reports whether seat may put in every chip now: a call, bet or raise all-in.
func (t *Table) CanAllIn(seat int) bool { return t.verify(seat, AllIn, 0) == okAction }

// VerifyAllIn says why seat may not go all-in now, or nil.
func (t *Table) VerifyAllIn(seat int) error {
	return t.explain(t.verify(seat, AllIn, 0), seat, AllIn, 0)
}

// AllIn puts every chip of seat in.
func (t *Table) AllIn(seat int) (Event, error) { return t.Act(seat, AllIn, 0) }

// Act does action a for seat (to is the amount of a bet or the total of a raise) after verifying it,
// and returns its event. An illegal action changes nothing and returns the rule it breaks. Advance
// actions (A14) queued by the players after seat run before Act returns; their events are in the log.
func (t *Table) Act(seat int, a Action, to int64) (Event, error) {
	if v := t.verify(seat, a, to); v != okAction {
		return Event{}, t.explain(v, seat, a, to)
	}
	i := len(t.log)
	t.apply(int8(seat), a, to)
	e := t.log[i]
	t.runAdvance()
	return e, nil
}

// apply does a verified action and logs its event.
func (t *Table) apply(s int8, a Action, to int64) {
	h := &t.h
	if h.nAdvance > 0 && h.advance[s].kind != 0 {
		h.advance[s] = advance{} // acting in turn replaces an advance action
		h.nAdvance--
	}
	switch a {
	case Fold:
		h.acted[s] = true
		t.foldSeat(s)
		t.ev(EvFold, s, 0, 0)
		t.advanceTurn(s)
		return
	case Check:
		h.acted[s], h.actedTo[s] = true, h.currentBet
		h.settled |= 1 << uint(s)
		t.ev(EvCheck, s, 0, 0)
		t.advanceTurn(s)
		return
	case Call:
		amt := t.pay(s, h.currentBet-h.bet[s])
		h.acted[s], h.actedTo[s] = true, h.currentBet
		h.settled |= 1 << uint(s)
		t.ev(EvCall, s, amt, h.bet[s]).AllIn = h.allIn[s]
		if h.nDeclared > 0 && t.cfg.OutOfTurn == OutOfTurnSeed000 {
			t.freeDeclarations(s)
		}
		t.advanceTurn(s)
		return
	case AllIn:
		to = h.bet[s] + t.seats[s].stack
		if to <= h.currentBet {
			t.apply(s, Call, 0)
			return
		}
	}
	// A bet or a raise (or an all-in that is one).
	kind := EvRaise
	if h.currentBet == 0 {
		kind = EvBet
	}
	full := to >= t.MinRaiseTo()
	amt := t.pay(s, to-h.bet[s])
	if full {
		if size := to - h.currentBet; size > h.lastFullRaise {
			h.lastFullRaise = size
		}
	}
	h.currentBet = to
	h.aggressor = s
	h.acted[s], h.actedTo[s] = true, to
	h.settled = 1 << uint(s) // everyone else owes the new bet
	t.ev(kind, s, amt, to).AllIn = h.allIn[s]
	if h.nDeclared > 0 {
		t.freeDeclarations(s)
	}
	t.advanceTurn(s)
}

// Legal lists what the player to act may do, with the amounts (A16 for the player).
type Legal struct {
	Seat                          int
	Fold, Check, Call, Bet, Raise bool
	AllIn                         bool
	CallAmount                    int64 // chips a call puts in (all-in when short)
	MinTo, MaxTo                  int64 // bounds of a bet or raise: the total bet in the round
	Reopened                      bool  // the bet in front lets this player raise (A7)
}

// LegalActions returns what the player to act may do; Seat is -1 when nobody is to act.
func (t *Table) LegalActions() Legal {
	var l Legal
	t.FillLegal(&l)
	return l
}

// FillLegal is LegalActions writing into l: for bots and simulations that ask at every turn.
func (t *Table) FillLegal(l *Legal) {
	h := &t.h
	if h.phase != Betting || h.toAct < 0 {
		*l = Legal{Seat: -1}
		return
	}
	s := h.toAct
	owed := h.currentBet - h.bet[s]
	stack := t.seats[s].stack
	max := h.bet[s] + stack
	reopened := h.reopened(s)
	raise := max > h.currentBet && reopened && t.answerable(s) && h.calledOOT&(1<<uint(s)) == 0
	var minTo, maxTo int64
	if raise {
		minTo, maxTo = min(t.MinRaiseTo(), max), max
	}
	l.Seat = int(s)
	l.Fold = true
	l.Check = owed <= 0
	l.Call = owed > 0
	l.Bet = raise && h.currentBet == 0
	l.Raise = raise && h.currentBet > 0
	l.AllIn = raise || owed > 0 && stack <= owed
	l.CallAmount = max64(min(owed, stack), 0)
	l.MinTo, l.MaxTo = minTo, maxTo
	l.Reopened = reopened
}

// ToAct returns the seat to act, or -1.
func (t *Table) ToAct() int { return int(t.h.toAct) }

// Round returns the betting round of the hand in progress.
func (t *Table) Round() Round { return t.h.round }

// Board returns the board cards dealt so far (a copy).
func (t *Table) Board() []eval.Card { return t.AppendBoard(nil) }

// AppendBoard appends the board cards dealt so far to dst.
func (t *Table) AppendBoard(dst []eval.Card) []eval.Card {
	return append(dst, t.h.board[:t.h.nBoard]...)
}
