package floor

import (
	"io"
	"slices"
	"time"
)

// DirectorMove is a move the tournament director orders by hand (P6): player Player to table To.
type DirectorMove struct {
	Player PlayerID `json:"player"`
	To     TableID  `json:"to"`
	// Seat is the seat the director asks for; 0 takes the seat R3 gives. Any other seat than
	// R3's is refused.
	Seat Seat `json:"seat,omitempty"`
	// By and Reason record who ordered it and why (P6).
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// DirectorMovePlan is a director's move as the floor makes it.
type DirectorMovePlan struct {
	Move Move `json:"move"`
	// BigBlindNext is set when the moved player posts the big blind in the target table's next
	// hand (R3's seat, the free seat closest to the left of the big blind, is straight after it);
	// otherwise the big blind reaches him in turn, and he skips none (B7, B8).
	BigBlindNext bool `json:"bigBlindNext,omitempty"`
}

// CanDirectorMove reports whether PlanDirectorMove accepts the move.
func CanDirectorMove(tables []Table, m DirectorMove, p Policy) bool {
	return VerifyDirectorMove(tables, m, p) == nil
}

// VerifyDirectorMove says which rule forbids the move (PlanDirectorMove), or returns nil.
func VerifyDirectorMove(tables []Table, m DirectorMove, p Policy) error {
	_, err := PlanDirectorMove(tables, m, p)
	return err
}

// PlanDirectorMove is a director's move of a seated player to another table. He takes the seat a
// balancing move would (R3: the free seat closest to the left of the big blind, the next big
// blind's position, never the next small blind's), so that he skips no big blind (B8) and takes
// the seat with its advantages and disadvantages (B7). The move is refused, with the rule, when
// the player is not seated, the table is his own or does not exist, R3's seat is not free (the
// only free seat is the small blind's, or the table is full), the director names another seat,
// or the tables would be left further out of balance than R3 allows (the threshold of p; a move
// that does not widen an existing gap is allowed).
func PlanDirectorMove(tables []Table, m DirectorMove, p Policy) (DirectorMovePlan, error) {
	th, err := p.threshold()
	if err != nil {
		return DirectorMovePlan{}, err
	}
	fi, ti := -1, -1
	var fromSeat Seat
	for i, t := range tables {
		if t.ID == m.To {
			ti = i
		}
		if s := slices.Index(t.Seats, m.Player); s >= 0 && m.Player != "" {
			fi, fromSeat = i, Seat(s+1)
		}
	}
	switch {
	case fi < 0:
		return DirectorMovePlan{}, ruleErr("R3", "%q is not seated at any table: only a seated player can be moved", m.Player)
	case ti < 0:
		return DirectorMovePlan{}, ruleErr("R3", "table %d does not exist: expected an open table", m.To)
	case fi == ti:
		return DirectorMovePlan{}, ruleErr("R3", "%s already sits at table %d", m.Player, m.To)
	}
	from, to := tables[fi], tables[ti]
	if to.Players() == 0 {
		return DirectorMovePlan{}, ruleErr("R3", "table %d has no players: expected an open table", to.ID)
	}
	if to.Size() < MinTableSize || to.Size() > MaxTableSize {
		return DirectorMovePlan{}, ruleErr("T1", "table %d has %d seats, outside %d..%d", to.ID, to.Size(), MinTableSize, MaxTableSize)
	}
	if to.BigBlind < 1 || int(to.BigBlind) > to.Size() {
		return DirectorMovePlan{}, ruleErr("B5", "table %d has no big blind position (seat %d): expected the seat of its last big blind", to.ID, to.BigBlind)
	}
	seat := BalanceSeat(to)
	if seat == 0 {
		if n := to.Players(); n < to.Size() {
			return DirectorMovePlan{}, ruleErr("R3", "table %d's only free seat is seat %d, the next small blind: a moved player takes the seat left of the big blind, never the small blind", to.ID, to.BigBlind)
		}
		return DirectorMovePlan{}, ruleErr("R3", "table %d is full (%d seats)", to.ID, to.Size())
	}
	if m.Seat != 0 && m.Seat != seat {
		return DirectorMovePlan{}, ruleErr("R3", "seat %d at table %d: a moved player takes seat %d, the free seat closest to the left of the big blind", m.Seat, to.ID, seat)
	}
	if err := verifyBalanceAfter(tables, fi, ti, th); err != nil {
		return DirectorMovePlan{}, err
	}
	mv := Move{Player: m.Player, From: from.ID, FromSeat: fromSeat, To: to.ID, ToSeat: seat, Reason: MoveDirector}
	if err := VerifyMove(from, to, mv); err != nil {
		return DirectorMovePlan{}, err
	}
	after := to
	after.Seats = slices.Clone(to.Seats)
	after.Seats[seat-1] = m.Player
	return DirectorMovePlan{Move: mv, BigBlindNext: NextBigBlindSeat(after) == seat}, nil
}

// verifyBalanceAfter refuses a move from table fi to ti that leaves the tables threshold or more
// players apart, unless they were at least as far apart before (R3). A table the move empties
// no longer counts: it breaks.
func verifyBalanceAfter(tables []Table, fi, ti, threshold int) error {
	spread := func(delta func(i int) int) (lo, hi, loID, hiID int) {
		lo, hi = MaxTableSize+1, -1
		for i, t := range tables {
			n := t.Players() + delta(i)
			if n == 0 {
				continue
			}
			if n < lo {
				lo, loID = n, int(t.ID)
			}
			if n > hi {
				hi, hiID = n, int(t.ID)
			}
		}
		return lo, hi, loID, hiID
	}
	lo0, hi0, _, _ := spread(func(int) int { return 0 })
	lo, hi, loID, hiID := spread(func(i int) int {
		switch i {
		case fi:
			return -1
		case ti:
			return 1
		}
		return 0
	})
	if hi-lo >= threshold && hi-lo > hi0-lo0 {
		return ruleErr("R3", "the move leaves table %d with %d players and table %d with %d: no table may have %d or more players than another",
			hiID, hi, loID, lo, threshold)
	}
	return nil
}

// PlanDirectorBreak is a table the director breaks by hand (R4): its players are drawn into the
// free seats of the other tables by BreakTable's draw (each takes his new seat as B7 says), then
// the tables are balanced if the break left them apart (R3). Refused when the table does not
// exist, is the only one left, or the others cannot seat its players.
func PlanDirectorBreak(tables []Table, id TableID, p Policy, r io.Reader) (Plan, error) {
	open := 0
	for _, t := range tables {
		if t.Players() > 0 {
			open++
		}
	}
	if i := slices.IndexFunc(tables, func(t Table) bool { return t.ID == id }); i >= 0 && open == 1 && tables[i].Players() > 0 {
		return Plan{}, ruleErr("R4", "table %d is the last table: it plays to the end (R5)", id)
	}
	plan, err := BreakTable(tables, id, r)
	if err != nil {
		return Plan{}, err
	}
	after, err := ApplyPlan(tables, plan)
	if err != nil {
		return Plan{}, err
	}
	balance, err := BalanceTables(after, p)
	if err != nil {
		return Plan{}, err
	}
	plan.Moves = append(plan.Moves, balance.Moves...)
	plan.Unbalanced = balance.Unbalanced
	return plan, nil
}

// Unregistration is an entry withdrawn: what is refunded and the buy-ins left.
type Unregistration struct {
	Player      PlayerID `json:"player"`
	RefundCents int64    `json:"refundCents"`
	// KeptFeeCents is the part of the buy-in the house keeps (a no-show's fee, by policy).
	KeptFeeCents int64 `json:"keptFeeCents,omitempty"`
	// BuyIns is what is left after the refund (Unregister; RemoveNoShows gives it once for all).
	BuyIns BuyIns `json:"buyIns,omitzero"`
}

// Unregister withdraws a first entry before the start: the whole buy-in (fee and bounty included)
// is refunded, and the buy-ins drop by one, so the payouts recomputed from them (BuyIns.Payouts)
// are the new field's (R6). After the start the chips are in play and nothing is refunded: a
// player who leaves is blinded off (T4), or removed as a no-show (RemoveNoShows).
func Unregister(b BuyIns, p PlayerID, started bool) (Unregistration, error) {
	switch {
	case started:
		return Unregistration{}, ruleErr("R1", "%s cannot unregister: the tournament has started and his chips are in play; a player who leaves is blinded off (T4)", p)
	case b.Entries.Entries < 1:
		return Unregistration{}, ruleErr("R1", "%s cannot unregister: no entry is left to refund", p)
	}
	b.Entries.Entries--
	return Unregistration{Player: p, RefundCents: b.Entries.BuyIn, BuyIns: b}, nil
}

// NoShowRule removes an entry whose player never sat down: after After of clock time from the
// start (pauses excluded, ClockState.Elapsed), he is taken out of the field, his chips leave
// play, and his buy-in is refunded, less its fee when KeepFee is set. Until then he is a late
// player: dealt in, blinds posted, folded (T4). Auto removes them at that time, without the
// director: every player his table has told has not come (a served table knows who connected).
type NoShowRule struct {
	After   time.Duration `json:"after"`
	KeepFee bool          `json:"keepFee,omitempty"`
	Auto    bool          `json:"auto,omitempty"`
}

// NoShow is an entry whose player has not arrived, with his stack now (blinded since the start).
type NoShow struct {
	Player PlayerID `json:"player"`
	Stack  int64    `json:"stack"`
}

// Due says whether a player absent since the start is removed at elapsed clock time.
func (r NoShowRule) Due(elapsed time.Duration) bool { return r.After > 0 && elapsed >= r.After }

// NoShowRemoval is what removing no-shows did: the refunds, the buy-ins and chip ledger left, and
// the payouts recomputed on the new field (R6).
type NoShowRemoval struct {
	Removed []Unregistration `json:"removed"`
	BuyIns  BuyIns           `json:"buyIns"`
	// Ledger keeps the chips the no-shows were given (they were in play, and the blinds they lost
	// are in other stacks) and counts their stacks now as removed, like a disqualified player's
	// (P4), so that it still equals the chips on the tables.
	Ledger  ChipLedger `json:"ledger"`
	Payouts Payouts    `json:"payouts"`
}

// RemoveNoShows removes the no-shows at elapsed clock time (T4, R6): each must be due by the rule
// and have no more chips than he started with (an absent player only loses blinds). The field and
// the prize pool drop by them, and the payouts are recomputed with s on what is left.
func RemoveNoShows(b BuyIns, rule NoShowRule, elapsed time.Duration, noShows []NoShow, l ChipLedger, s PayoutStructure) (NoShowRemoval, error) {
	if !rule.Due(elapsed) {
		return NoShowRemoval{}, ruleErr("T4", "at %v of play an absent player is late, not a no-show: he is removed after %v (and never when the rule's time is 0)", elapsed, rule.After)
	}
	out := NoShowRemoval{}
	seen := map[PlayerID]bool{}
	for _, ns := range noShows {
		switch {
		case ns.Player == "" || seen[ns.Player]:
			return NoShowRemoval{}, ruleErr("T4", "no-show %q is empty or listed twice", ns.Player)
		case ns.Stack < 0 || ns.Stack > b.StartingStack:
			return NoShowRemoval{}, ruleErr("T4", "no-show %s has %d chips: an absent player has between 0 and the starting %d", ns.Player, ns.Stack, b.StartingStack)
		case b.Entries.Entries < 1:
			return NoShowRemoval{}, ruleErr("T4", "no entry left to remove for %s", ns.Player)
		}
		seen[ns.Player] = true
		b.Entries.Entries--
		u := Unregistration{Player: ns.Player, RefundCents: b.Entries.BuyIn}
		if rule.KeepFee {
			u.RefundCents -= b.Entries.Fee
			u.KeptFeeCents = b.Entries.Fee
		}
		out.Removed = append(out.Removed, u)
		l.Disqualified += ns.Stack
	}
	if n := b.Entries.Field(); n < 2 {
		return NoShowRemoval{}, ruleErr("R5", "removing %d no-shows leaves %d entries: a tournament needs two", len(noShows), n)
	}
	pay, err := b.Payouts(s)
	if err != nil {
		return NoShowRemoval{}, err
	}
	out.BuyIns, out.Ledger, out.Payouts = b, l, pay
	return out, nil
}
