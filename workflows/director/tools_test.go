package director

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// tablesBySize are the open tables' views, fullest first.
func tablesBySize(s *TournamentState) []floor.Table {
	open := s.openTables()
	slices.SortStableFunc(open, func(a, b floor.Table) int { return b.Players() - a.Players() })
	return open
}

func countOrders(f *floorSim, match func(Order) bool) int {
	n := 0
	for _, b := range f.s.Outbox {
		for _, o := range b.Orders {
			if match(o) {
				n++
			}
		}
	}
	return n
}

// finish plays the tournament out and checks that every entry left in the field has a place and
// the prizes add up to the pool (R5, R6); every step checked the chips against the ledger (R1).
func finish(t *testing.T, f *floorSim) TournamentResult {
	t.Helper()
	f.run(200000)
	res, err := f.s.Result()
	if err != nil {
		t.Fatal(err)
	}
	var paid int64
	for _, p := range res.Places {
		paid += p.Prize
	}
	if len(res.Places) != len(f.s.Field) || paid != res.PrizePool || len(res.ChipErrors) > 0 {
		t.Errorf("%d places for %d entries, %d paid of %d, chip errors %v", len(res.Places), len(f.s.Field), paid, res.PrizePool, res.ChipErrors)
	}
	return res
}

// TestRuleR3DirectorMove: a move by hand takes R3's seat (the free seat closest to the left of the
// big blind), is refused with the rule for any other seat, a full table, a move that unbalances the
// tables, or no director named (P6), and a retry with the same key is applied once.
func TestRuleR3DirectorMove(t *testing.T) {
	f := newFloorSim(t, simSpec(17), 4) // tables of 9 and 8
	open := tablesBySize(f.s)
	full, short := open[0], open[1]
	who := string(full.Seats[0])
	if who == "" {
		who = string(full.Seats[1])
	}
	r3 := floor.BalanceSeat(short)
	wrong := r3%floor.Seat(short.Size()) + 1
	refused := []struct {
		name string
		r    MoveRequest
		rule string
	}{
		{"another seat than R3's", MoveRequest{Player: who, To: short.ID, Seat: wrong, By: "td"}, "R3"},
		{"to a full table", MoveRequest{Player: string(short.Seats[slices.IndexFunc(short.Seats, func(p floor.PlayerID) bool { return p != "" })]), To: full.ID, By: "td"}, "R3"},
		{"to his own table", MoveRequest{Player: who, To: full.ID, By: "td"}, "R3"},
		{"nobody named", MoveRequest{Player: who, To: short.ID}, "P6"},
	}
	for _, c := range refused {
		err := f.s.VerifyMove(c.r)
		if ruleOf(err) != c.rule || !strings.Contains(err.Error(), c.rule) {
			t.Errorf("%s: %v, want a refusal naming %s", c.name, err, c.rule)
		}
	}
	r := MoveRequest{Player: who, To: short.ID, By: "td", Reason: "TV table", Key: "move-1"}
	if err := f.s.VerifyMove(r); err != nil {
		t.Fatal(err)
	}
	m := f.s.Move(r)
	if m.ToSeat != r3 || m.Reason != floor.MoveDirector {
		t.Errorf("moved to seat %d (%s), R3's seat is %d", m.ToSeat, m.Reason, r3)
	}
	if again := f.s.Move(r); again != m {
		t.Errorf("the retry gave %+v, the move %+v", again, m)
	}
	if n := countOrders(f, func(o Order) bool { return o.MoveOut != nil && o.MoveOut.Player == who }); n != 1 {
		t.Errorf("%d move orders for one move and its retry", n)
	}
	if len(f.s.Tools.Moves) != 1 || f.s.Tools.Moves[0].By != "td" {
		t.Errorf("moves recorded: %+v", f.s.Tools.Moves)
	}
	// While he is on his way, the floor's view is not the tables': another move waits.
	if err := f.s.VerifyMove(MoveRequest{Player: string(full.Seats[2]), To: short.ID, By: "td"}); ruleOf(err) != "R3" {
		t.Errorf("a second move while the first is under way: %v", err)
	}
	f.flush()
	f.until(func() bool {
		p := f.s.player(who)
		return p.Status == Out || p.Status == Seated && p.Table == short.ID && !p.Leaving
	})
	finish(t, f)
}

// TestRuleR4DirectorBreak: the director's break names the table the floor breaks next: R4 lets a
// table break only when the others' free seats can take its players, which is when the floor
// would break its emptiest; then it breaks the director's (here the fullest), its players drawn
// into the free seats. The last table cannot be broken.
func TestRuleR4DirectorBreak(t *testing.T) {
	f := newFloorSim(t, simSpec(27), 6) // three tables of 9
	target := tablesBySize(f.s)[0].ID
	if err := f.s.VerifyBreak(BreakRequest{Table: 99, By: "td"}); ruleOf(err) != "R4" {
		t.Errorf("a table that does not exist: %v", err)
	}
	r := BreakRequest{Table: target, By: "td", Reason: "the shuffler is broken", Key: "break-1"}
	if err := f.s.VerifyBreak(r); err != nil {
		t.Fatal(err)
	}
	f.s.BreakTable(r)
	f.s.BreakTable(r)
	f.s.Step(f.now)
	f.flush()
	f.until(func() bool { return len(f.s.Tools.Breaks) > 0 || f.s.Table(target).Breaking })
	if len(f.s.Tools.Breaks) != 1 || f.s.Tools.Breaks[0].Table != target || f.s.Tools.Breaks[0].By != "td" {
		t.Fatalf("breaks by hand: %+v, want table %d", f.s.Tools.Breaks, target)
	}
	for _, t2 := range f.s.Tables {
		if t2.ID != target && (t2.Breaking || t2.Closed) {
			t.Errorf("table %d broke before the director's %d", t2.ID, target)
		}
	}
	f.until(func() bool { return f.s.Table(target).Closed })
	f.until(func() bool { return f.s.OpenTables() == 1 })
	for _, t2 := range f.s.Tables {
		if !t2.Closed && !t2.Closing {
			if err := f.s.VerifyBreak(BreakRequest{Table: t2.ID, By: "td"}); ruleOf(err) != "R4" {
				t.Errorf("breaking the last table: %v", err)
			}
		}
	}
	finish(t, f)
}

// TestRuleR1Unregister: before the first hand an entry is withdrawn with his whole buy-in
// refunded, the field and the prize pool drop and the payouts are recomputed (R6); his table
// takes him off with his chips, which leave the ledger. Once a hand is dealt nothing is refunded.
func TestRuleR1Unregister(t *testing.T) {
	spec := simSpec(20)
	spec.Fee = 100
	f := newFloorSim(t, spec, 2)
	pool := f.s.Payouts.Pool
	who := "p0007"
	r := UnregisterRequest{Player: who, By: "td", Key: "unreg-1"}
	if err := f.s.VerifyUnregister(r); err != nil {
		t.Fatal(err)
	}
	w := f.s.Unregister(r)
	if again := f.s.Unregister(r); again != w {
		t.Errorf("retry %+v, first %+v", again, w)
	}
	if w.RefundCents != spec.BuyIn || f.s.Payouts.Pool != pool-(spec.BuyIn-spec.Fee) || f.s.Entries.Entries != 19 {
		t.Errorf("refund %d, pool %d (was %d), %d entries", w.RefundCents, f.s.Payouts.Pool, pool, f.s.Entries.Entries)
	}
	if err := f.s.VerifyUnregister(r); err != nil {
		t.Errorf("a retry's check: %v", err)
	}
	if err := f.s.VerifyUnregister(UnregisterRequest{Player: who, By: "td"}); ruleOf(err) != "R1" {
		t.Errorf("unregistering twice: %v", err)
	}
	// The table hears of it before its first hand (the real table's first report has no hands).
	f.s.Step(f.now)
	f.flush()
	for _, b := range f.orders {
		f.tables[b.Table].st.AddOrders(b.Orders)
	}
	f.orders = nil
	f.until(func() bool { _, done := f.s.WithdrawalDone(w.Ref); return done })
	if rec := f.s.withdrawal(w.Ref); !rec.Done || rec.Chips != spec.Structure.StartingStack || f.s.player(who).Status != Withdrawn {
		t.Fatalf("withdrawal %+v, status %s", rec, f.s.player(who).Status)
	}
	f.until(func() bool { return f.s.started() })
	if err := f.s.VerifyUnregister(UnregisterRequest{Player: "p0001", By: "td"}); ruleOf(err) != "R1" {
		t.Errorf("unregistering after the start: %v", err)
	}
	res := finish(t, f)
	if res.Entries != 19 || slices.ContainsFunc(res.Places, func(p Place) bool { return p.Player == who }) {
		t.Errorf("%d entries in the result; the unregistered player placed", res.Entries)
	}
}

// TestRuleT4NoShowsRemoved: a player absent since the start is late (T4) until the spec's time;
// then the director removes him: refunded less the fee (the rule keeps it), the field and the
// pool drop, the payouts are recomputed, his blinded stack leaves the ledger.
func TestRuleT4NoShowsRemoved(t *testing.T) {
	spec := simSpec(30)
	spec.Fee = 100
	spec.NoShow = &floor.NoShowRule{After: 20 * time.Minute, KeepFee: true}
	f := newFloorSim(t, spec, 3)
	f.s.Step(f.now)
	f.flush()
	// The no-shows: two players who have lost no more than blinds (a stack at or below the start).
	var absent []string
	pick := func() bool {
		absent = absent[:0]
		for _, p := range f.s.Players {
			if p.Status == Seated && !p.Leaving && p.Stack <= spec.Structure.StartingStack && p.Stack > 0 && len(absent) < 2 {
				absent = append(absent, p.ID)
			}
		}
		return len(absent) == 2
	}
	f.until(func() bool { return f.s.simHands() > 3 && pick() })
	early := NoShowRequest{Players: absent, By: "td"}
	if err := f.s.VerifyNoShows(early, f.now); ruleOf(err) != "T4" {
		t.Errorf("removing no-shows at %d hands: %v", f.s.simHands(), err)
	}
	f.until(func() bool { return f.s.simHands() >= 21 && pick() })
	r := NoShowRequest{Players: slices.Clone(absent), By: "td", Key: "noshow-1"}
	if err := f.s.VerifyNoShows(r, f.now); err != nil {
		t.Fatal(err)
	}
	pool, entries := f.s.Payouts.Pool, f.s.Entries.Entries
	out := f.s.RemoveNoShows(r, f.now)
	if again := f.s.RemoveNoShows(r, f.now); len(again) != 2 || again[0] != out[0] {
		t.Errorf("retry %+v, first %+v", again, out)
	}
	if len(out) != 2 || out[0].RefundCents != spec.BuyIn-spec.Fee || out[0].KeptFeeCents != spec.Fee {
		t.Errorf("removed %+v", out)
	}
	if f.s.Entries.Entries != entries-2 || f.s.Payouts.Pool != pool-2*(spec.BuyIn-spec.Fee) {
		t.Errorf("%d entries (was %d), pool %d (was %d)", f.s.Entries.Entries, entries, f.s.Payouts.Pool, pool)
	}
	f.flush()
	f.until(func() bool {
		for _, w := range out {
			if _, done := f.s.WithdrawalDone(w.Ref); !done {
				return false
			}
		}
		return true
	})
	var removed int64
	kept := 0
	for _, w := range out {
		rec := f.s.withdrawal(w.Ref)
		if rec.Done {
			removed += rec.Chips
			kept++
		}
	}
	if f.s.Ledger.Disqualified != removed || f.s.Entries.Entries != entries-kept {
		t.Errorf("ledger removed %d chips, the tables %d; %d entries", f.s.Ledger.Disqualified, removed, f.s.Entries.Entries)
	}
	finish(t, f)
}

// TestRuleT4NoShowsFromTheTables: the tables say who has not come (a served table's results list
// them): two players never come, a third comes at his table's sixth hand. Before the spec's time
// nobody can be removed (T4); at it, with NoShowRule.Auto, the tournament removes the two itself,
// refunded, by the rule (P6), and never the one who came: the director cannot remove him by name
// either. The field, the pool and the chips stay right to the end (R1, R5).
func TestRuleT4NoShowsFromTheTables(t *testing.T) { // rule T4
	spec := simSpec(30)
	spec.Fee = 100
	spec.NoShow = &floor.NoShowRule{After: 20 * time.Minute, KeepFee: true, Auto: true}
	spec.Batch = 1 // every hand told: the absent are known hands before the no-show time (20 hands)
	f := newFloorSim(t, spec, 3)
	never := []string{f.s.Players[2].ID, f.s.Players[17].ID}
	late := f.s.Players[9].ID
	f.absent = func(p string, hand int64) bool { return slices.Contains(never, p) || p == late && hand <= 5 }
	f.s.Step(f.now)
	f.flush()
	f.until(func() bool {
		return f.s.player(never[0]).Absent && f.s.player(never[1]).Absent && f.s.player(late).Absent
	})
	if len(f.s.Tools.Withdrawn) > 0 {
		t.Fatalf("removed before the no-show time: %+v", f.s.Tools.Withdrawn)
	}
	if err := f.s.VerifyNoShows(NoShowRequest{By: "td"}, f.now); ruleOf(err) != "T4" {
		t.Errorf("removing the absent at %d hands, before the time: %v", f.s.simHands(), err)
	}
	f.until(func() bool { return f.s.player(late).Came })
	if err := f.s.VerifyNoShows(NoShowRequest{Players: []string{late}, By: "td"}, f.now); ruleOf(err) != "T4" || !strings.Contains(err.Error(), "has come") {
		t.Errorf("removing %s, who came: %v", late, err)
	}
	entries, pool := f.s.Entries.Entries, f.s.Payouts.Pool
	f.until(func() bool { return len(f.s.Tools.Withdrawn) >= 2 })
	var removed []string
	for _, w := range f.s.Tools.Withdrawn {
		if !w.NoShow || w.By != NoShowRuleBy || w.RefundCents != spec.BuyIn-spec.Fee {
			t.Errorf("withdrawal %+v: want a no-show refunded less the fee by the rule", w)
		}
		removed = append(removed, w.Player)
	}
	slices.Sort(removed)
	if want := slices.Sorted(slices.Values(never)); !slices.Equal(removed, want) {
		t.Errorf("removed %v, want those who never came %v", removed, want)
	}
	if f.s.Entries.Entries != entries-2 || f.s.Payouts.Pool != pool-2*(spec.BuyIn-spec.Fee) {
		t.Errorf("%d entries (was %d), pool %d (was %d)", f.s.Entries.Entries, entries, f.s.Payouts.Pool, pool)
	}
	res := finish(t, f)
	if res.Entries != 28 || slices.ContainsFunc(res.Places, func(p Place) bool { return slices.Contains(never, p.Player) }) {
		t.Errorf("%d entries in the result; a no-show placed", res.Entries)
	}
}

// TestRuleR1AddOnsAtTheBreak: add-ons are sold at the break that ends the rebuy period (a
// simulation skips breaks: in the level after it), with rebuys before it; the chips reach the
// player and the ledger, the money the prize pool, and the limit holds.
func TestRuleR1AddOnsAtTheBreak(t *testing.T) {
	spec := simSpec(20)
	spec.Rebuys, spec.RebuyLevel = 1, 6 // turbo's first break is after level 6
	spec.AddOn = &floor.AddOn{Chips: 5000, PriceCents: 1000}
	f := newFloorSim(t, spec, 5)
	f.s.Step(f.now)
	f.flush()
	seated := func() string {
		for _, p := range f.s.Players {
			if p.Status == Seated && !p.Leaving && p.Stack > 0 && p.Stack <= spec.Structure.StartingStack {
				return p.ID
			}
		}
		return ""
	}
	var who string
	f.until(func() bool { who = seated(); return who != "" })
	if err := f.s.VerifyAddOn(AddOnRequest{Player: who}, f.now); ruleOf(err) != "R1" {
		t.Errorf("an add-on in level %d: %v", f.s.Level(f.now), err)
	}
	if err := f.s.VerifyRebuy(RebuyRequest{Player: who}, f.now); err != nil {
		t.Fatal(err)
	}
	f.s.Rebuy(RebuyRequest{Player: who})
	f.flush()
	f.until(func() bool { return f.s.RebuyLog[0].Done })
	f.until(func() bool { return f.s.Level(f.now) >= 7 })
	if f.s.Level(f.now) != 7 {
		t.Skipf("level %d: the sim passed the add-on level in one step", f.s.Level(f.now))
	}
	f.until(func() bool { who = seated(); return who != "" && f.s.Level(f.now) == 7 })
	if err := f.s.VerifyRebuy(RebuyRequest{Player: who}, f.now); ruleOf(err) != "R1" {
		t.Errorf("a rebuy after the rebuy period: %v", err)
	}
	pool, chips := f.s.Payouts.Pool, f.s.Ledger.RebuyChips
	r := AddOnRequest{Player: who, Key: "addon-1"}
	if err := f.s.VerifyAddOn(r, f.now); err != nil {
		t.Fatal(err)
	}
	a := f.s.AddOn(r)
	if again := f.s.AddOn(r); again.Ref != a.Ref || len(f.s.Tools.AddOns) != 1 {
		t.Errorf("the retry sold another add-on: %+v", f.s.Tools.AddOns)
	}
	if f.s.Payouts.Pool != pool+spec.AddOn.PriceCents {
		t.Errorf("pool %d, was %d", f.s.Payouts.Pool, pool)
	}
	if err := f.s.VerifyAddOn(AddOnRequest{Player: who}, f.now); ruleOf(err) != "R1" {
		t.Errorf("a second add-on over the limit of 1: %v", err)
	}
	f.flush()
	f.until(func() bool { _, done := f.s.AddOnDone(a.Ref); return done })
	if rec, _ := f.s.AddOnDone(a.Ref); rec.Done && f.s.Ledger.RebuyChips != chips+spec.AddOn.Chips {
		t.Errorf("ledger rebuy chips %d, was %d", f.s.Ledger.RebuyChips, chips)
	}
	res := finish(t, f)
	buy := f.s.buyIns()
	purse, err := buy.Purse()
	if err != nil {
		t.Fatal(err)
	}
	if res.PrizePool != purse.PrizePoolCents || purse.PaidInCents != purse.FeesCents+purse.PrizePoolCents {
		t.Errorf("pool %d, the purse %+v", res.PrizePool, purse)
	}
}

// TestRuleR6SatellitePays: a satellite pays as many equal seats as the pool buys and the cash
// remainder to the next place, which may be fewer than R6's 10% of the field.
func TestRuleR6SatellitePays(t *testing.T) {
	spec := simSpec(45)
	spec.BuyIn, spec.Fee = 2200, 200
	spec.Satellite = &floor.Satellite{TicketCents: 21500}
	f := newFloorSim(t, spec, 8)
	if n := len(f.s.Payouts.Prizes); n != 5 || f.s.Payouts.Prizes[0] != 21500 || f.s.Payouts.Prizes[4] != 45*2000-4*21500 {
		t.Fatalf("payouts %+v", f.s.Payouts)
	}
	res := finish(t, f)
	for _, p := range res.Places[:4] {
		if p.Prize != 21500 && p.Shared == 0 {
			t.Errorf("place %d paid %d, a seat is 21500", p.Place, p.Prize)
		}
	}
}

// TestRuleR1UnregisterRefusedOnceDealt: a table that dealt before the unregistration reached it
// keeps the player (his chips are in play): the removal is refused and not refunded.
func TestRuleR1UnregisterRefusedOnceDealt(t *testing.T) {
	for _, played := range []bool{false, true} {
		st := threePlayers()
		st.Positions.Played = played
		var ev TableEvent
		st.AddOrders([]Order{{Seq: 1, Tool: &ToolOrder{Ref: 1, Kind: ToolRemove, Player: "b", BeforeStart: true}}})
		st.ApplyOrders(&ev)
		if len(ev.Tools) != 1 {
			t.Fatalf("answers %+v", ev.Tools)
		}
		d := ev.Tools[0]
		if got := d.Refused != ""; got != played || !played && (d.Chips != 1000 || st.playerIndex("b") >= 0) {
			t.Errorf("played %v: %+v, b at index %d", played, d, st.playerIndex("b"))
		}
		if played && !strings.Contains(d.Refused, "R1") {
			t.Errorf("refusal %q names no rule", d.Refused)
		}
	}
}

// TestRuleR6ProgressiveKnockout: a PKO tournament on the floor simulation: each knockout pays
// the bounty of the player busted to who won his last chips (half in cash, half onto his head),
// the winner takes his own at the end; the bounties paid add up to the bounty share of the
// buy-ins, and prizes plus bounties paid are what was paid in less the fees, to the cent (R6).
func TestRuleR6ProgressiveKnockout(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		spec := simSpec(60)
		spec.BuyIn, spec.Fee = 11000, 1000
		spec.Bounty = &floor.Bounty{StartCents: 5001, CashPercent: 50}
		spec.ReEntries, spec.LateRegistrationLevel = 1, 4
		f := newFloorSim(t, spec, seed)
		f.s.Step(f.now)
		f.flush()
		// A re-entry buys a new bounty.
		f.until(func() bool {
			return slices.ContainsFunc(f.s.Players, func(p PlayerRecord) bool { return p.Status == Out })
		})
		if f.s.Level(f.now) <= 4 {
			out := f.s.Players[slices.IndexFunc(f.s.Players, func(p PlayerRecord) bool { return p.Status == Out })]
			if err := f.s.VerifyRegister(RegisterRequest{ReEntryOf: out.Entrant}, f.now); err == nil {
				f.s.Register(RegisterRequest{ReEntryOf: out.Entrant})
			}
		}
		res := finish(t, f)
		b := res.Bounties
		if b == nil {
			t.Fatal("no bounties in the result")
		}
		field := int64(f.s.Entries.Field())
		if b.PoolCents != field*5001 || b.PaidCents != b.PoolCents || b.OnHeadsCents != 0 || len(b.Errors) > 0 {
			t.Errorf("seed %d: bounties %+v, %d entries", seed, b, field)
		}
		var cash int64
		for _, w := range b.Won {
			cash += w.CashCents
		}
		var prizes int64
		for _, p := range res.Places {
			prizes += p.Prize
		}
		if cash != b.PaidCents || prizes+cash != field*(spec.BuyIn-spec.Fee) {
			t.Errorf("seed %d: cash %d (paid %d), prizes %d: %d in less fees", seed, cash, b.PaidCents, prizes, field*(spec.BuyIn-spec.Fee))
		}
		if err := f.s.Tools.Bounties.Board.Check(); err != nil {
			t.Error(err)
		}
		// The winner is paid his own bounty at the end: at least the starting one.
		winner := res.Places[0].Player
		if k := slices.IndexFunc(b.Won, func(w BountyWon) bool { return w.Player == winner }); k < 0 || b.Won[k].CashCents < 5001 {
			t.Errorf("seed %d: the winner %s is not paid his bounty: %+v", seed, winner, b.Won)
		}
	}
}

// TestTournamentRecordOfARun: the director's end-of-run list of a whole tournament: a row for
// every entry (bust level, table, hand and eliminator; the winner's at the end), the bubble, the
// final table's line-up with its chips, levels with their eliminations, moves and breaks, the
// chip leader and average over time, and the money, amounts in cents, adding up.
func TestTournamentRecordOfARun(t *testing.T) {
	spec := simSpec(50)
	spec.BuyIn, spec.Fee = 11000, 1000
	spec.Bounty = &floor.Bounty{StartCents: 4000}
	f := newFloorSim(t, spec, 12)
	res := finish(t, f)
	rec := res.Record
	if rec == nil {
		t.Fatal("no record in the result")
	}
	if len(rec.Errors) > 0 {
		t.Fatalf("the record refused: %v", rec.Errors)
	}
	if len(rec.Rows) != 50 {
		t.Fatalf("%d rows for 50 entries", len(rec.Rows))
	}
	var prizes, bounties int64
	for i, row := range rec.Rows {
		prizes += row.PrizeCents
		bounties += row.BountiesWonCents
		if row.Level < 1 {
			t.Errorf("row %d: %+v has no level", i, row)
		}
		if row.Place > 1 && (row.Hand < 1 || row.Table == 0 || len(row.Eliminators) == 0) {
			t.Errorf("row %d: %+v lacks where and to whom he went out", i, row)
		}
	}
	if rec.Rows[0].Place != 1 || rec.Rows[0].Player != floor.PlayerID(res.Places[0].Player) {
		t.Errorf("first row %+v, the winner %s", rec.Rows[0], res.Places[0].Player)
	}
	sum := rec.Summary
	if prizes != sum.PrizePoolCents || bounties != sum.BountyPoolCents || sum.BountiesPaidCents != sum.BountyPoolCents ||
		sum.PaidInCents != sum.FeesCents+sum.PrizePoolCents+sum.BountyPoolCents {
		t.Errorf("prizes %d, bounties %d; summary money %+v", prizes, bounties, sum)
	}
	if sum.Bubble == nil || sum.Bubble.Place != sum.PaidPlaces+1 || sum.FinalTable == nil || len(sum.FinalTable.Seats) < 2 {
		t.Errorf("bubble %+v, final table %+v, %d paid", sum.Bubble, sum.FinalTable, sum.PaidPlaces)
	}
	var chips int64
	for _, s := range sum.FinalTable.Seats {
		chips += s.Chips
	}
	if chips != f.s.Ledger.Total() {
		t.Errorf("the final table has %d chips, the ledger %d", chips, f.s.Ledger.Total())
	}
	t.Logf("bubble %+v; final table at level %d of %d; %d samples; moves %+v; rows 1-2 %+v %+v", *sum.Bubble, sum.FinalTable.Level, len(sum.FinalTable.Seats), len(sum.Stacks), sum.Moves, rec.Rows[0], rec.Rows[1])
	elim := 0
	for _, l := range sum.Levels {
		elim += l.Eliminations
	}
	if elim != 49 || len(sum.Stacks) < 2 || sum.EndedAtLevel < 1 || !sum.Finished || sum.TablesBroken == 0 || sum.Moves.Break == 0 {
		t.Errorf("%d eliminations by level, %d samples, ended at level %d, finished %v, %d tables broken, moves %+v",
			elim, len(sum.Stacks), sum.EndedAtLevel, sum.Finished, sum.TablesBroken, sum.Moves)
	}
}

// TestFinalTableLineUp: the record's final table is every player left when the last other table
// breaks (those on their way to it included), with every chip in play.
func TestFinalTableLineUp(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		f := newFloorSim(t, simSpec(90), seed)
		f.s.Step(f.now)
		f.flush()
		left := 0
		for !f.s.Finished {
			f.once()
			if ft := f.s.Tools.Record.Record.FinalTable; ft != nil && left == 0 {
				left = f.s.Left()
				var chips int64
				for _, s := range ft.Seats {
					chips += s.Chips
				}
				if len(ft.Seats) != left || left > 9 || chips != f.s.Ledger.Total() {
					t.Errorf("seed %d: a final table of %d with %d left, %d chips of %d", seed, len(ft.Seats), left, chips, f.s.Ledger.Total())
				}
			}
		}
		if left < 2 {
			t.Errorf("seed %d: no final table", seed)
		}
	}
}
