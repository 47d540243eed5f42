package engine

// ChipInput is what a live dealer sees: chips a player put forward in one motion, and what he
// declared, if anything (rules A12, A13).
type ChipInput struct {
	Seat       int
	Chips      int64  // chips put forward in this motion (on top of the bet already in front)
	SingleChip bool   // one chip larger than needed
	Declared   Action // 0 when nothing was declared; Raise with DeclaredTo 0 is "raise" alone
	DeclaredTo int64  // the total declared with a bet or raise, 0 when none was said
}

// ChipReading is the action the rule book reads from a ChipInput, and the chips the player must
// add (Complete) or gets back (Returned). Rule names the rule applied.
type ChipReading struct {
	Action   Action
	To       int64 // for Bet and Raise: the total
	Complete int64
	Returned int64
	Rule     string
}

// ReadChips turns a dealer's chip input into the action the rule book says (A13), or the declared
// one when there was a declaration (A12: a declaration and the chips disagree, the declaration
// wins). It changes nothing: the caller then does the action with Act.
func (t *Table) ReadChips(in ChipInput) (ChipReading, error) {
	if v := t.turn(in.Seat); v != okAction {
		return ChipReading{}, t.explain(v, in.Seat, 0, 0)
	}
	h := &t.h
	s := int8(in.Seat)
	stack := t.seats[s].stack
	if in.Chips < 0 || in.Chips > stack {
		return ChipReading{}, ErrNotEnoughChips{To: h.bet[s] + in.Chips, Max: h.bet[s] + stack, Rule: "A13"}
	}
	owed := min(h.currentBet-h.bet[s], stack)
	to := h.bet[s] + in.Chips
	max := h.bet[s] + stack
	minTo := min(t.MinRaiseTo(), max)
	raiseKind := Raise
	if h.currentBet == 0 {
		raiseKind = Bet
	}
	canRaise := t.verify(in.Seat, AllIn, 0) == okAction && max > h.currentBet && h.reopened(s) && t.answerable(s)
	settle := func(r ChipReading, need int64) (ChipReading, error) {
		if need > in.Chips {
			r.Complete = need - in.Chips
		} else {
			r.Returned = in.Chips - need
		}
		return r, nil
	}
	call := func(rule string) (ChipReading, error) {
		if owed == 0 {
			return settle(ChipReading{Action: Check, Rule: rule}, 0)
		}
		return settle(ChipReading{Action: Call, Rule: rule}, owed)
	}
	raiseTo := func(x int64, rule string) (ChipReading, error) {
		if !canRaise {
			return call(rule)
		}
		x = max64(x, minTo)
		if x > max {
			x = max
		}
		return settle(ChipReading{Action: raiseKind, To: x, Rule: rule}, x-h.bet[s])
	}

	switch in.Declared { // A12: the declaration wins
	case Fold:
		return settle(ChipReading{Action: Fold, Rule: "A12"}, 0)
	case Check, Call:
		return call("A12")
	case AllIn:
		if max <= h.currentBet || !canRaise {
			return call("A12")
		}
		return settle(ChipReading{Action: raiseKind, To: max, Rule: "A12"}, max-h.bet[s])
	case Bet, Raise:
		if in.DeclaredTo > 0 {
			return raiseTo(in.DeclaredTo, "A12")
		}
		return raiseTo(to, "A13") // "raise" alone: the chips' full value (one chip: its value)
	}

	// No declaration: the dealer reads the chips (A13).
	switch {
	case in.SingleChip && (owed > 0 || h.round == Preflop):
		return call("A13") // one oversized chip is a call (a check when nothing is owed before the flop)
	case in.SingleChip && h.round != Preflop:
		return raiseTo(to, "A13") // after the flop, an oversized chip opening the betting is a bet of its value
	case in.Chips == owed:
		return call("A13")
	case in.Chips < owed:
		return call("A13") // less than the bet: a call, to be completed
	case in.Chips == stack || (canRaise && to >= minTo):
		return raiseTo(to, "A13") // a correct bet or raise (or all-in) as put in
	case h.currentBet == 0 && in.Chips > 0 && canRaise:
		// No bet to call and less than the minimum bet: a bet, which the dealer has the player
		// complete to the minimum bet (A4).
		return raiseTo(h.level.BigBlind, "A13")
	}
	excess := in.Chips - owed
	minInc := minTo - h.currentBet
	if !canRaise || 2*excess < minInc {
		return call("A13") // under half a minimum raise: a call, the excess returned
	}
	return raiseTo(minTo, "A13") // half a minimum raise or more: a raise, completed to the minimum
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
