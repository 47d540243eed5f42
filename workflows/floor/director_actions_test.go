package floor

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// seatedPlayers is every seated player, sorted: moves must neither lose nor add one.
func seatedPlayers(tables []Table) []PlayerID {
	var ps []PlayerID
	for _, t := range tables {
		for _, p := range t.Seats {
			if p != "" {
				ps = append(ps, p)
			}
		}
	}
	slices.Sort(ps)
	return ps
}

// rules R3, B7, B8: a director's move takes the seat a balancing move would, the free seat closest
// to the left of the big blind, never the small blind's.
func TestDirectorMoveSeatR3(t *testing.T) {
	cases := []struct {
		name     string
		to       Table
		seat     Seat
		bigBlind bool
	}{
		{"straight after the big blind: he is the next big blind", seats(2, "ab.cdef..", 2), 3, true},
		{"the closest free seat past players due first", seats(2, "abcde.f..", 2), 6, false},
		{"round the table", seats(2, ".bcdefgh.", 8), 9, true},
		{"round the table to seat 1", seats(2, ".bcdefghi", 9), 1, true},
		{"the last big blind's free seat is skipped", seats(2, "a.cdefgh.", 9), 2, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tables := []Table{seats(1, "abcdefghi", 1), c.to}
			plan, err := PlanDirectorMove(tables, DirectorMove{Player: "1c", To: 2, By: "td", Reason: "seat change"}, Policy{})
			if err != nil {
				t.Fatal(err)
			}
			want := Move{Player: "1c", From: 1, FromSeat: 3, To: 2, ToSeat: c.seat, Reason: MoveDirector}
			if plan.Move != want || plan.BigBlindNext != c.bigBlind {
				t.Fatalf("got %+v, want %+v with big blind next %v", plan, want, c.bigBlind)
			}
			after, err := ApplyPlan(tables, Plan{Moves: []Move{plan.Move}})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(seatedPlayers(after), seatedPlayers(tables)) {
				t.Fatal("the move lost or added a player")
			}
		})
	}
}

// rule R3: a director's move that the rules forbid is refused, naming the rule and what is wrong.
func TestDirectorMoveRefusedR3(t *testing.T) {
	tables := []Table{seats(1, "abcdefgh.", 1), seats(2, "abcdefgh.", 9), seats(3, "abcdefghi", 2), seats(4, "abcdefg..", 2), seats(5, ".........", 1), seats(6, "abcdefg..", 0)}
	cases := []struct {
		name string
		m    DirectorMove
		p    Policy
		rule string
		want string
	}{
		{"not seated", DirectorMove{Player: "zz", To: 2}, Policy{}, "R3", "not seated"},
		{"no such table", DirectorMove{Player: "1a", To: 7}, Policy{}, "R3", "does not exist"},
		{"his own table", DirectorMove{Player: "1a", To: 1}, Policy{}, "R3", "already sits"},
		{"only the small blind free", DirectorMove{Player: "1a", To: 2}, Policy{}, "R3", "never the small blind"},
		{"full", DirectorMove{Player: "1a", To: 3}, Policy{}, "R3", "is full"},
		{"another seat", DirectorMove{Player: "1a", To: 4, Seat: 9}, Policy{}, "R3", "takes seat 8"},
		{"out of balance", DirectorMove{Player: "4a", To: 1}, Policy{}, "R3", "no table may have 2 or more"},
		{"no big blind", DirectorMove{Player: "1a", To: 6}, Policy{}, "B5", "no big blind position"},
		{"a closed table", DirectorMove{Player: "1a", To: 5}, Policy{}, "R3", "no players"},
		{"bad policy", DirectorMove{Player: "1a", To: 4}, Policy{BalanceThreshold: 5}, "R3", "neither 2 nor 3"},
	}
	for _, c := range cases {
		_, err := PlanDirectorMove(tables, c.m, c.p)
		wantRule(t, err, c.rule)
		if !strings.Contains(err.Error(), c.want) || CanDirectorMove(tables, c.m, c.p) || VerifyDirectorMove(tables, c.m, c.p) == nil {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
	// From a fuller table to an emptier one is fine, and TDA's threshold of 3 allows a gap of 2.
	for _, c := range []struct {
		m DirectorMove
		p Policy
	}{
		{DirectorMove{Player: "3a", To: 4}, Policy{}},
	} {
		if _, err := PlanDirectorMove(tables, c.m, c.p); err != nil {
			t.Errorf("%+v: %v", c.m, err)
		}
	}
	even := tablesOf(9, 8, 8)
	m := DirectorMove{Player: "t1-s1", To: 2}
	_, err := PlanDirectorMove(even, m, Policy{})
	wantRule(t, err, "R3")
	if _, err := PlanDirectorMove(even, m, Policy{BalanceThreshold: 3}); err != nil {
		t.Errorf("a gap of 2 under TDA's threshold 3: %v", err)
	}
}

// rules R4, B7, R3: a table broken by hand sends its players to the other tables' free seats by
// draw, and the tables are balanced after; nobody is lost.
func TestDirectorBreakR4(t *testing.T) {
	tables := tablesOf(9, 9, 3, 7, 2)
	plan, err := PlanDirectorBreak(tables, 2, Policy{}, NewSeededReader(4))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Broken, []TableID{2}) {
		t.Fatalf("broken %v", plan.Broken)
	}
	breaks, balances := 0, 0
	for _, m := range plan.Moves {
		switch m.Reason {
		case MoveBreak:
			breaks++
			if m.From != 2 {
				t.Fatalf("a break move from table %d", m.From)
			}
		case MoveBalance:
			balances++
		}
	}
	if breaks != 3 || balances == 0 {
		t.Fatalf("%d break moves and %d balancing moves: %+v", breaks, balances, plan.Moves)
	}
	after, err := ApplyPlan(tables, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seatedPlayers(after), seatedPlayers(tables)) || len(after) != 3 {
		t.Fatalf("players or tables wrong after the break: %+v", after)
	}
	lo, hi := MaxTableSize, 0
	for _, tb := range after {
		lo, hi = min(lo, tb.Players()), max(hi, tb.Players())
	}
	if hi-lo >= DefaultBalanceThreshold {
		t.Fatalf("tables left %d to %d players", lo, hi)
	}
	// The same seed draws the same seats.
	again, _ := PlanDirectorBreak(tables, 2, Policy{}, NewSeededReader(4))
	if !slices.Equal(again.Moves, plan.Moves) {
		t.Fatal("the draw is not reproducible from its seed")
	}

	_, err = PlanDirectorBreak(tablesOf(9, 5), 1, Policy{}, NewSeededReader(1))
	wantRule(t, err, "R4")
	_, err = PlanDirectorBreak(tablesOf(9, 9, 8), 2, Policy{}, NewSeededReader(1))
	wantRule(t, err, "R4")
	_, err = PlanDirectorBreak(tablesOf(9, 5, 5), 9, Policy{}, NewSeededReader(1))
	wantRule(t, err, "R4")
}

// rules R1, R6: an entry withdrawn before the start is refunded in full, and the payouts are the
// smaller field's; after the start it is refused.
func TestUnregisterR1R6(t *testing.T) {
	b := BuyIns{Entries: Entries{Entries: 11, BuyIn: 1100, Fee: 100}, StartingStack: 10000, Bounty: Bounty{StartCents: 300}}
	before, _ := b.Purse()
	pay, _ := b.Payouts(PayoutStructure{})
	u, err := Unregister(b, "p1", false)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := u.BuyIns.Purse()
	if u.RefundCents != 1100 || after.PaidInCents+u.RefundCents != before.PaidInCents {
		t.Fatalf("refund %d: paid in %d before, %d after", u.RefundCents, before.PaidInCents, after.PaidInCents)
	}
	pay2, err := u.BuyIns.Payouts(PayoutStructure{})
	if err != nil || len(pay.Prizes) != 2 || len(pay2.Prizes) != 1 || pay2.Pool != 10*700 {
		t.Fatalf("payouts before %+v, after %+v, %v", pay, pay2, err)
	}
	_, err = Unregister(b, "p1", true)
	wantRule(t, err, "R1")
	_, err = Unregister(BuyIns{StartingStack: 1}, "p1", false)
	wantRule(t, err, "R1")
}

// rules T4, R6, P4: a no-show is removed once his time is up, refunded (less the fee when the
// rule keeps it), his chips leave play, and the payouts are the new field's.
func TestRemoveNoShowsT4R6(t *testing.T) {
	b := BuyIns{Entries: Entries{Entries: 101, BuyIn: 1100, Fee: 100}, StartingStack: 10000}
	ledger, _ := b.Ledger()
	onTables := ledger.Total() // what the tables hold: blinds lost by the absent are in other stacks
	noShows := []NoShow{{"p7", 9500}, {"p9", 9800}}
	rule := NoShowRule{After: 30 * time.Minute, KeepFee: true}

	_, err := RemoveNoShows(b, rule, 29*time.Minute, noShows, ledger, PayoutStructure{})
	wantRule(t, err, "T4")
	_, err = RemoveNoShows(b, NoShowRule{}, 5*time.Hour, noShows, ledger, PayoutStructure{})
	wantRule(t, err, "T4")

	r, err := RemoveNoShows(b, rule, 30*time.Minute, noShows, ledger, PayoutStructure{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Removed) != 2 || r.Removed[0].RefundCents != 1000 || r.Removed[0].KeptFeeCents != 100 {
		t.Fatalf("removed %+v", r.Removed)
	}
	if r.Ledger.Total() != onTables-9500-9800 {
		t.Fatalf("ledger %d, the tables hold %d", r.Ledger.Total(), onTables-9500-9800)
	}
	before, _ := b.Purse()
	after, _ := r.BuyIns.Purse()
	var refunds, kept int64
	for _, u := range r.Removed {
		refunds += u.RefundCents
		kept += u.KeptFeeCents
	}
	if before.PaidInCents != after.PaidInCents+refunds+kept {
		t.Fatalf("paid in %d before; %d after, %d refunded, %d fees kept", before.PaidInCents, after.PaidInCents, refunds, kept)
	}
	if r.BuyIns.Entries.Field() != 99 || len(r.Payouts.Prizes) != 10 || r.Payouts.Pool != 99000 || sumPrizes(r.Payouts.Prizes) != 99000 {
		t.Fatalf("field %d, payouts %+v", r.BuyIns.Entries.Field(), r.Payouts)
	}
	full, _ := RemoveNoShows(b, NoShowRule{After: time.Minute}, time.Hour, noShows[:1], ledger, PayoutStructure{})
	if full.Removed[0].RefundCents != 1100 {
		t.Fatalf("full refund %d", full.Removed[0].RefundCents)
	}
	for _, bad := range [][]NoShow{{{"p1", 10001}}, {{"p1", 10}, {"p1", 10}}, {{"", 1}}} {
		_, err := RemoveNoShows(b, rule, time.Hour, bad, ledger, PayoutStructure{})
		wantRule(t, err, "T4")
	}
	_, err = RemoveNoShows(BuyIns{Entries: Entries{Entries: 2, BuyIn: 100}, StartingStack: 10}, rule, time.Hour, []NoShow{{"p1", 5}}, ChipLedger{}, PayoutStructure{})
	wantRule(t, err, "R5")
}
