package engine

import "time"

// AdvanceAction is an action a player queues before his turn (rule A14): online, "check/fold",
// "call" and "fold" buttons.
type AdvanceAction uint8

const (
	// AdvanceCheckFold checks if nothing is owed, folds otherwise.
	AdvanceCheckFold AdvanceAction = iota + 1
	// AdvanceCall calls the amount owed when it was queued (checks if that was nothing). A call out
	// of turn can never become a raise.
	AdvanceCall
	// AdvanceFold folds.
	AdvanceFold
)

// advance is a queued advance action and the action it was made against: the round and the bet to
// match then.
type advance struct {
	kind   AdvanceAction
	round  Round
	facing int64
}

// QueueAdvance records seat's advance action. It runs when the turn reaches the seat only if no bet
// or raise happened in between (A14); otherwise it is dropped and the player acts himself.
func (t *Table) QueueAdvance(seat int, a AdvanceAction) error {
	h := &t.h
	if h.phase != Betting {
		return ErrNoHand{Phase: h.phase}
	}
	if !t.validSeat(seat) || !h.dealt[seat] || h.folded[seat] || h.allIn[seat] {
		return ErrBadSeat{Seat: seat, Reason: "not in the hand with chips to act"}
	}
	if a < AdvanceCheckFold || a > AdvanceFold {
		return ErrBadSeat{Seat: seat, Reason: "unknown advance action"}
	}
	if int8(seat) == h.toAct {
		return ErrBadSeat{Seat: seat, Reason: "it is this seat's turn: act now (rule A14)"}
	}
	if h.advance[seat].kind == 0 {
		h.nAdvance++
	}
	h.advance[seat] = advance{kind: a, round: h.round, facing: h.currentBet}
	return nil
}

// CancelAdvance drops seat's queued advance action.
func (t *Table) CancelAdvance(seat int) {
	if t.validSeat(seat) && t.h.advance[seat].kind != 0 {
		t.h.advance[seat] = advance{}
		t.h.nAdvance--
	}
}

// declaration is a live declaration made out of turn (A14): the action and its total, the round it
// was made in, and whether an action since has freed the player from it.
type declaration struct {
	a     Action
	to    int64
	round Round
	freed bool
	made  bool
}

// verifyDeclare says whether seat may declare action a (to for a bet or raise) out of turn.
func (t *Table) verifyDeclare(seat int, a Action, to int64) violation {
	h := &t.h
	switch {
	case h.phase != Betting:
		return vNoHand
	case !t.validSeat(seat) || !h.dealt[seat]:
		return vNotDealt
	case h.folded[seat]:
		return vFolded
	case h.allIn[seat]:
		return vIsAllIn
	case int8(seat) == h.toAct:
		return vInTurn
	case t.decl[seat].made:
		return vAlreadyDeclared
	case a < Fold || a > AllIn:
		return vUnknownAction
	case (a == Bet || a == Raise) && to > h.bet[seat]+t.seats[seat].stack:
		return vNotEnoughChips
	}
	return okAction
}

// CanDeclareOutOfTurn reports whether seat, not the player to act at a live table, may declare
// action a (to: the total of a bet or raise) out of turn.
func (t *Table) CanDeclareOutOfTurn(seat int, a Action, to int64) bool {
	return t.verifyDeclare(seat, a, to) == okAction
}

// VerifyDeclareOutOfTurn says why seat may not declare a out of turn now, or nil.
func (t *Table) VerifyDeclareOutOfTurn(seat int, a Action, to int64) error {
	return t.explain(t.verifyDeclare(seat, a, to), seat, a, to)
}

// DeclareOutOfTurn records seat's declaration out of turn at a live table (rule A14). Under the
// default policy (seed 000) it binds unless a call, bet, raise or reraise comes before his turn, and
// a player who called out of turn may never raise in the round; under OutOfTurnTDA only a bet or a
// raise frees him, and then he has every option. A binding declaration is done when the turn
// reaches him; a freed one is dropped and he acts himself. Online tables use QueueAdvance.
func (t *Table) DeclareOutOfTurn(seat int, a Action, to int64) (Event, error) {
	if v := t.verifyDeclare(seat, a, to); v != okAction {
		return Event{}, t.explain(v, seat, a, to)
	}
	h := &t.h
	if a != Bet && a != Raise {
		to = 0
	}
	t.decl[seat] = declaration{a: a, to: to, round: h.round, made: true}
	t.declDirty = true
	h.nDeclared++
	e := t.ev(EvOutOfTurn, int8(seat), int64(a), to)
	return *e, nil
}

// freeDeclarations frees the pending declarations of everyone but s, after s's call, bet or raise.
func (t *Table) freeDeclarations(s int8) {
	for i := range t.decl {
		if int8(i) != s && t.decl[i].made {
			t.decl[i].freed = true
		}
	}
}

// runDeclaration does the declaration of the player to act, if he has one: the declared action when
// it still binds and is legal, and otherwise nothing (he acts himself, barred from raising if he had
// called, under seed 000). It reports whether an action was done.
func (t *Table) runDeclaration(s int8) bool {
	h := &t.h
	d := t.decl[s]
	t.decl[s] = declaration{}
	h.nDeclared--
	if d.round != h.round {
		return false // the round it was made in is over
	}
	if !d.freed && t.verify(int(s), d.a, d.to) == okAction {
		t.apply(s, d.a, d.to)
		return true
	}
	if d.freed && d.a == Call && t.cfg.OutOfTurn == OutOfTurnSeed000 {
		h.calledOOT |= 1 << uint(s) // "in nessuna circostanza"
	}
	return false
}

// runAdvance runs the queued advance actions (and the live declarations out of turn) of the players
// the turn reaches, in order.
func (t *Table) runAdvance() {
	h := &t.h
	for (h.nAdvance > 0 || h.nDeclared > 0) && h.phase == Betting && h.toAct >= 0 {
		s := h.toAct
		if t.decl[s].made {
			if t.runDeclaration(s) {
				continue
			}
			return
		}
		q := h.advance[s]
		if q.kind == 0 {
			return
		}
		h.advance[s] = advance{}
		h.nAdvance--
		if q.round != h.round || q.facing != h.currentBet {
			return // a bet or raise came in between: the advance action does not bind (A14)
		}
		owed := h.currentBet - h.bet[s]
		switch {
		case q.kind == AdvanceFold:
			t.apply(s, Fold, 0)
		case owed == 0:
			t.apply(s, Check, 0)
		case q.kind == AdvanceCall:
			t.apply(s, Call, 0)
		default:
			t.apply(s, Fold, 0)
		}
	}
}

// ClockPolicy is the action clock of rule A15, as data: the caller keeps time.
type ClockPolicy struct {
	Think     time.Duration // before anyone may call the clock
	Clock     time.Duration // once the clock is called
	Countdown time.Duration // the final countdown
	TimeBank  time.Duration // extra time a player may draw on
}

// DefaultClock is the seeds': 30 seconds, then 60 on the clock, then a 10-second countdown.
var DefaultClock = ClockPolicy{Think: 30 * time.Second, Clock: 60 * time.Second, Countdown: 10 * time.Second}

// Clock says who must act and since which action (a sequence number that grows with every turn),
// so that the caller can time the player and report the expiry of exactly that turn.
func (t *Table) Clock() (seat int, since int32) {
	if t.h.phase != Betting || t.h.toAct < 0 {
		return -1, t.h.seq
	}
	return int(t.h.toAct), t.h.seq
}

// TimeExpired reports that seat's time for the turn that began at since ran out (A15): the hand is
// folded, or checked under ExpireCheckWhenFree when nothing is owed. A stale report (the player acted
// meanwhile) is refused and changes nothing.
func (t *Table) TimeExpired(seat int, since int32) (Event, error) {
	if v := t.turn(seat); v != okAction {
		return Event{}, t.explain(v, seat, 0, 0)
	}
	if since != t.h.seq {
		return Event{}, ErrStaleClock{Seat: seat, Since: since, Now: t.h.seq, Rule: "A15"}
	}
	s := int8(seat)
	t.ev(EvTimeExpired, s, 0, 0)
	a := Fold
	if t.cfg.Expiry == ExpireCheckWhenFree && t.h.bet[s] == t.h.currentBet {
		a = Check
	}
	i := len(t.log)
	t.apply(s, a, 0)
	e := t.log[i]
	t.runAdvance()
	return e, nil
}
