package director

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

func ruleOf(err error) string {
	var re *floor.RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	return ""
}

// TestLateRegistrationAndReEntry: entries are taken until the last level of late registration,
// a busted player re-enters as a new entry up to the limit, and the prize pool grows with each (R1,
// R6).
func TestLateRegistrationAndReEntry(t *testing.T) {
	spec := simSpec(40)
	spec.LateRegistrationLevel, spec.ReEntries = 3, 1
	f := newFloorSim(t, spec, 5)
	pool := f.s.Payouts.Pool
	if err := f.s.VerifyRegister(RegisterRequest{Player: "p0001"}, f.now); err == nil {
		t.Error("a player registered twice")
	}
	if err := f.s.VerifyRegister(RegisterRequest{Player: "late"}, f.now); err != nil {
		t.Fatal(err)
	}
	if id := f.s.Register(RegisterRequest{Player: "late"}); id != "late" {
		t.Fatalf("registered as %q", id)
	}
	if f.s.Payouts.Pool != pool+spec.BuyIn-spec.Fee || f.s.Ledger.Entries != 41 {
		t.Errorf("pool %d (was %d), %d entries", f.s.Payouts.Pool, pool, f.s.Ledger.Entries)
	}
	f.flush()
	f.until(func() bool { p := f.s.player("late"); return p.Status == Seated && p.Table != 0 })

	// R1: only a busted player re-enters.
	if err := f.s.VerifyRegister(RegisterRequest{ReEntryOf: "late"}, f.now); ruleOf(err) != "R1" {
		t.Errorf("re-entry while still in: %v", err)
	}
	var out string
	f.until(func() bool {
		for _, p := range f.s.Players {
			if p.Status == Out && p.ID == p.Entrant {
				out = p.ID
				return true
			}
		}
		return false
	})
	if f.s.Level(f.now) > 3 {
		t.Skip("registration closed before anyone busted")
	}
	if err := f.s.VerifyRegister(RegisterRequest{ReEntryOf: out}, f.now); err != nil {
		t.Fatal(err)
	}
	id := f.s.Register(RegisterRequest{ReEntryOf: out})
	if id != out+"#2" || f.s.Entries.ReEntries != 1 {
		t.Errorf("re-entry %q, %d re-entries", id, f.s.Entries.ReEntries)
	}
	f.flush()
	f.until(func() bool { return f.s.player(id).Status == Seated || f.s.player(id).Status == Out })
	f.until(func() bool { return f.s.Level(f.now) > 3 || f.s.player(id).Status == Out })
	if f.s.player(id).Status == Out && f.s.Level(f.now) <= 3 {
		if err := f.s.VerifyRegister(RegisterRequest{ReEntryOf: out}, f.now); ruleOf(err) != "R1" {
			t.Errorf("a second re-entry over the limit of 1: %v", err)
		}
	}
	f.until(func() bool { return f.s.Level(f.now) > 3 })
	if err := f.s.VerifyRegister(RegisterRequest{Player: "too-late"}, f.now); ruleOf(err) != "R1" {
		t.Errorf("registration after level 3: %v", err)
	}
	f.run(200000)
	res, err := f.s.Result()
	if err != nil {
		t.Fatal(err)
	}
	var paid int64
	for _, p := range res.Places {
		paid += p.Prize
	}
	if len(res.Places) != len(f.s.Field) || paid != res.PrizePool {
		t.Errorf("%d places for %d entries, %d paid of %d", len(res.Places), len(f.s.Field), paid, res.PrizePool)
	}
}

// TestRebuy: a rebuy puts the chips in front of the player when his table's hand ends, the ledger
// counts them, the pool grows, and the limit holds (R1, 003 r18).
func TestRebuy(t *testing.T) {
	spec := simSpec(20)
	spec.Rebuys, spec.RebuyLevel = 1, 50
	f := newFloorSim(t, spec, 9)
	f.flush()
	var who string
	f.until(func() bool {
		for _, p := range f.s.Players {
			if p.Status == Seated && !p.Leaving && p.Stack < spec.Structure.StartingStack {
				who = p.ID
				return true
			}
		}
		return false
	})
	pool := f.s.Payouts.Pool
	if err := f.s.VerifyRebuy(RebuyRequest{Player: who}, f.now); err != nil {
		t.Fatal(err)
	}
	_ = f.s.Rebuy(RebuyRequest{Player: who})
	if err := f.s.VerifyRebuy(RebuyRequest{Player: who}, f.now); ruleOf(err) != "R1" {
		t.Errorf("a second rebuy over the limit: %v", err)
	}
	if f.s.Payouts.Pool != pool+spec.BuyIn {
		t.Errorf("pool %d, was %d", f.s.Payouts.Pool, pool)
	}
	f.flush()
	f.until(func() bool { return f.s.Ledger.RebuyChips > 0 || f.s.player(who).Status == Out })
	if f.s.Ledger.RebuyChips > 0 && f.s.Ledger.RebuyChips != spec.Structure.StartingStack {
		t.Errorf("ledger rebuy chips %d", f.s.Ledger.RebuyChips)
	}
	f.run(200000) // every step checks the chips against the ledger
}

// TestDealAtTheFinalTable: an ICM deal approved by the director pays the players in it their
// amounts whatever their places, and the prizes still add up to the pool (R6).
func TestDealAtTheFinalTable(t *testing.T) {
	spec := simSpec(30)
	spec.Batch = 1 // a hand a report: few hands go by while the pause reaches the tables
	f := newFloorSim(t, spec, 4)
	f.flush()
	f.until(func() bool { return f.s.Left() <= 5 })
	terms := floor.DealTerms{Reserve: 100}
	if err := f.s.VerifyDeal(DealRequest{Method: "icm", Terms: terms}); ruleOf(err) != "P6" {
		t.Errorf("a deal with no approver: %v", err)
	}
	if err := f.s.VerifyDeal(DealRequest{Method: "split", ApprovedBy: "td"}); err == nil {
		t.Error("an unknown deal method accepted")
	}
	// A deal is quoted on the stacks after the last hand: the tables stopped, the clock paused.
	if _, err := f.s.Quote(terms); ruleOf(err) != "P6" {
		t.Errorf("a quote while the tables play: %v", err)
	}
	f.s.Clock(ClockRequest{Kind: floor.ClockPause, By: "td", Reason: "a deal"}, f.now)
	f.flush()
	f.deliverAll() // near the bubble the tables deal on without waiting for a grant (slide) until the pause reaches them
	if _, err := f.s.Quote(terms); ruleOf(err) != "P6" {
		t.Errorf("a quote before the tables stopped: %v", err)
	}
	f.until(func() bool { _, err := f.s.Quote(terms); return err == nil })
	if f.s.Left() < 2 {
		t.Fatal("the tournament ended before the tables stopped")
	}
	q, err := f.s.Quote(terms)
	if err != nil {
		t.Fatal(err)
	}
	// The quote's stacks are the tables' own, as they stand.
	for i, id := range q.Players {
		var stack int64 = -1
		for _, tb := range f.tables {
			if k := tb.st.playerIndex(id); k >= 0 {
				stack = tb.st.Seats[k].Stack
			}
		}
		if stack != q.Stacks[i] {
			t.Errorf("the quote gives %s %d chips, his table holds %d", id, q.Stacks[i], stack)
		}
	}
	if err := f.s.VerifyDeal(DealRequest{Method: "icm", Terms: terms, ApprovedBy: "td"}); err != nil {
		t.Fatal(err)
	}
	d := f.s.MakeDeal(DealRequest{Method: "icm", Terms: terms, ApprovedBy: "td"}, f.now)
	f.s.Clock(ClockRequest{Kind: floor.ClockResume, By: "td", Reason: "deal made"}, f.now)
	f.flush()
	var sum, prizes int64
	for i := range d.Players {
		sum += d.Amounts[i]
		prizes += q.Prizes[i]
	}
	if sum != prizes-terms.Reserve {
		t.Errorf("the deal shares %d of %d less the reserve %d", sum, prizes, terms.Reserve)
	}
	if err := f.s.VerifyDeal(DealRequest{Method: "chip-chop", ApprovedBy: "td"}); err == nil {
		t.Error("a second deal accepted")
	}
	f.run(200000)
	res, err := f.s.Result()
	if err != nil {
		t.Fatal(err)
	}
	var paid int64
	for _, p := range res.Places {
		paid += p.Prize
		if k := indexOf(d.Players, p.Player); k >= 0 {
			want := d.Amounts[k]
			if p.Place == 1 {
				want += terms.Reserve
			}
			if p.Prize != want {
				t.Errorf("%s (place %d) paid %d, the deal says %d", p.Player, p.Place, p.Prize, want)
			}
		}
	}
	if paid != res.PrizePool {
		t.Errorf("paid %d of %d", paid, res.PrizePool)
	}
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

// TestSanctionRules: a sanction records who and why (P6), a repeat is heavier (P1), nothing follows
// a disqualification (P4).
func TestSanctionRules(t *testing.T) {
	f := newFloorSim(t, simSpec(18), 2)
	now := f.now
	if err := f.s.VerifySanction(SanctionRequest{Player: "p0001", Kind: floor.Warning, Reason: "slow"}, now); ruleOf(err) != "P6" {
		t.Errorf("no giver: %v", err)
	}
	if err := f.s.VerifySanction(SanctionRequest{Player: "nobody", Kind: floor.Warning, Reason: "x", By: "td"}, now); err == nil {
		t.Error("a sanction on nobody")
	}
	warn := SanctionRequest{Player: "p0001", Kind: floor.Warning, Rule: "P7", Reason: "abuse", By: "td"}
	if err := f.s.VerifySanction(warn, now); err != nil {
		t.Fatal(err)
	}
	f.s.GiveSanction(warn, now)
	if err := f.s.VerifySanction(warn, now); ruleOf(err) != "P1" {
		t.Errorf("a second warning: %v", err)
	}
	excl := SanctionRequest{Player: "p0001", Kind: floor.Exclusion, Rounds: 1, Rule: "P7", Reason: "abuse again", By: "td"}
	if err := f.s.VerifySanction(excl, now); err != nil {
		t.Fatal(err)
	}
	dq := SanctionRequest{Player: "p0002", Kind: floor.Disqualification, Rule: "P7", Reason: "collusion", By: "td"}
	f.s.GiveSanction(dq, now)
	f.flush()
	f.until(func() bool { return f.s.Sanctions[1].Applied })
	if f.s.player("p0002").Status != Out || f.s.Ledger.Disqualified == 0 || f.s.Sanctions[1].Sanction.Chips != f.s.Ledger.Disqualified {
		t.Errorf("disqualification: %+v, ledger %+v", f.s.Sanctions[1], f.s.Ledger)
	}
	if err := f.s.VerifySanction(SanctionRequest{Player: "p0002", Kind: floor.Warning, Reason: "x", By: "td"}, now); err == nil {
		t.Error("a sanction after a disqualification")
	}
	if !f.s.Sanctions[0].Applied || f.s.Sanctions[0].Sanction.GivenBy != "td" || !strings.Contains(f.s.Sanctions[0].Sanction.Reason, "abuse") {
		t.Errorf("warning record %+v", f.s.Sanctions[0])
	}
}

// TestExclusionServedAcrossTables: an exclusion is counted in hands dealt at whatever table the
// player sits (P2, P3): the hands left go with him when he moves.
func TestExclusionServedAcrossTables(t *testing.T) {
	src, dst := threePlayers(), threePlayers()
	dst.ID, dst.Number = "t/table-002", 2
	dst.Seats = []TableSeat{{Seat: 0, Player: "x", Stack: 1000}, {Seat: 1, Player: "y", Stack: 1000}}
	var ev TableEvent
	src.AddOrders([]Order{{Seq: 1, Sanction: &SanctionOrder{Ref: 0, Player: "b", Kind: floor.Exclusion, Rounds: 2}}})
	src.ApplyOrders(&ev)
	if a := ev.Sanctions[0]; a.Hands != 6 || a.PlayersAtTable != 3 || src.Seats[1].State != engine.Penalised {
		t.Fatalf("applied %+v, seat %+v", a, src.Seats[1])
	}
	// Two hands at the first table, then b moves.
	for n := int64(1); n <= 2; n++ {
		h := hand(n, stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000), stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000))
		if err := src.ApplyResults([]report.HandResult{h}, &ev); err != nil {
			t.Fatal(err)
		}
	}
	src.AddOrders([]Order{{Seq: 2, MoveOut: &MoveOutOrder{Ref: 1, Player: "b", To: 2, ToSeat: 3, Reason: floor.MoveBreak}}})
	ev = TableEvent{}
	src.ApplyOrders(&ev)
	if len(ev.Out) != 1 || ev.Out[0].Away != 4 {
		t.Fatalf("moved out %+v", ev.Out)
	}
	dst.AddOrders([]Order{{Seq: 1, Seat: &SeatOrder{Player: "b", Seat: 3, Stack: 1000, Away: ev.Out[0].Away, Reason: floor.MoveBreak}}})
	dst.ApplyOrders(&ev)
	if s := dst.Seats[dst.playerIndex("b")]; s.State != engine.Penalised || s.Away != 4 {
		t.Fatalf("seated %+v", s)
	}
	if st := dst.Next(&ev, true); st.Batch != 1 {
		t.Errorf("batch %d across the end of an exclusion", st.Batch)
	}
}

// TestLateEntryWhenEveryTableIsFull: an entry when every seat is taken opens a new table; the floor
// balances players into it (R3) and it draws its button among them before its first hand (T3),
// and the tournament goes on to the end with every floor plan accepted.
func TestLateEntryWhenEveryTableIsFull(t *testing.T) { // rules R1, R3, T3
	spec := simSpec(18)
	spec.LateRegistrationLevel = 3
	f := newFloorSim(t, spec, 7)
	if n := f.s.OpenTables(); n != 2 {
		t.Fatalf("%d tables for 18 players at 9-max", n)
	}
	if err := f.s.VerifyRegister(RegisterRequest{Player: "late"}, f.now); err != nil {
		t.Fatal(err)
	}
	f.s.Register(RegisterRequest{Player: "late"})
	f.flush()
	tr := f.s.Table(3)
	if tr == nil || f.s.player("late").Table != 3 {
		t.Fatalf("the late entry sits at table %d", f.s.player("late").Table)
	}
	st := f.tables[3].st
	f.until(func() bool { return st.Positions.Played || f.s.Table(3).Closed })
	if !st.Positions.Played {
		t.Fatal("table 3 closed before dealing a hand")
	}
	if b := st.Positions.Button; b < 0 || b >= spec.TableSize {
		t.Errorf("table 3's first hand had the button in seat %d", b)
	}
	f.run(200000) // fails on any refused floor plan (ChipErrors)
	res, err := f.s.Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Places) != 19 {
		t.Errorf("%d places for 19 entries", len(res.Places))
	}
}

// TestDirectorActionsAppliedOnce: a director's action retried with the same idempotency key (the
// Update ID) is accepted and answered as the first time, and applied once, also by a run that
// continued as new (the state through JSON): an entry, a re-entry, a rebuy, a sanction, a clock
// action (P6, R1).
func TestDirectorActionsAppliedOnce(t *testing.T) { // rules P6, R1
	spec := simSpec(30)
	spec.LateRegistrationLevel, spec.ReEntries, spec.Rebuys, spec.RebuyLevel = 5, 2, 2, 5
	f := newFloorSim(t, spec, 4)
	f.s.Step(f.now)
	f.flush()
	again := func() {
		// A continue-as-new between the first try and the retry.
		b, err := json.Marshal(f.s)
		if err != nil {
			t.Fatal(err)
		}
		var s TournamentState
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		s.Trace = f.s.Trace
		*f.s = s
	}
	reg := RegisterRequest{Player: "late", Key: "upd-1"}
	for range 2 {
		if err := f.s.VerifyRegister(reg, f.now); err != nil {
			t.Fatalf("retried entry refused: %v", err)
		}
		if id := f.s.Register(reg); id != "late" {
			t.Fatalf("entry %q", id)
		}
		again()
	}
	if f.s.Entries.Entries != 31 || f.s.Ledger.Entries != 31 {
		t.Errorf("%d entries, ledger %d, want 31 after one entry sent twice", f.s.Entries.Entries, f.s.Ledger.Entries)
	}
	f.flush()
	var out string
	f.until(func() bool {
		for _, p := range f.s.Players {
			if p.Status == Out && p.ID == p.Entrant {
				out = p.ID
				return true
			}
		}
		return false
	})
	re := RegisterRequest{ReEntryOf: out, Key: "upd-2"}
	for range 2 {
		if err := f.s.VerifyRegister(re, f.now); err != nil {
			t.Fatalf("retried re-entry refused: %v", err)
		}
		if id := f.s.Register(re); id != out+"#2" {
			t.Fatalf("re-entry %q, want %s#2", id, out)
		}
		again()
	}
	if f.s.Entries.ReEntries != 1 {
		t.Errorf("%d re-entries, want 1", f.s.Entries.ReEntries)
	}
	var who string
	for _, p := range f.s.Players {
		if p.Status == Seated && !p.Leaving && p.Stack <= spec.Structure.StartingStack {
			who = p.ID
			break
		}
	}
	rb := RebuyRequest{Player: who, Key: "upd-3"}
	for range 2 {
		if err := f.s.VerifyRebuy(rb, f.now); err != nil {
			t.Fatalf("retried rebuy refused: %v", err)
		}
		_ = f.s.Rebuy(rb)
		again()
	}
	if p := f.s.player(who); p.Rebuys != 1 || f.s.Entries.Rebuys != 1 {
		t.Errorf("rebuys %d (entries %d), want 1", p.Rebuys, f.s.Entries.Rebuys)
	}
	sc := SanctionRequest{Player: who, Kind: floor.Warning, Reason: "slow roll", By: "td", Key: "upd-4"}
	refs := map[int]bool{}
	for range 2 {
		if err := f.s.VerifySanction(sc, f.now); err != nil {
			t.Fatalf("retried sanction refused: %v", err)
		}
		refs[f.s.GiveSanction(sc, f.now)] = true
		again()
	}
	if len(f.s.Sanctions) != 1 || len(refs) != 1 {
		t.Errorf("%d sanctions, refs %v, want one", len(f.s.Sanctions), refs)
	}
	pause := ClockRequest{Kind: floor.ClockPause, By: "td", Key: "upd-5"}
	for range 2 {
		if err := f.s.VerifyClock(pause); err != nil {
			t.Fatalf("retried pause refused: %v", err)
		}
		f.s.Clock(pause, f.now)
		again()
	}
	if len(f.s.ClockEvents) != 1 {
		t.Errorf("%d clock events, want 1", len(f.s.ClockEvents))
	}
	// A new key is a new action, checked as ever.
	if err := f.s.VerifyRegister(RegisterRequest{Player: "late", Key: "upd-6"}, f.now); err == nil {
		t.Error("a second registration of the same player under a new key was accepted")
	}
}

// TestRebuyCheckedOnTheStackAfterTheLastHand: the "at or below the starting stack" limit of a
// rebuy is checked by the table on the stack after its last hand, not on the tournament's count,
// which may be many hands old: a player who has won since is refused and refunded (R1).
func TestRebuyCheckedOnTheStackAfterTheLastHand(t *testing.T) { // rule R1
	spec := simSpec(40)
	spec.Rebuys, spec.RebuyLevel = 1, 10
	f := newFloorSim(t, spec, 6)
	f.s.Step(f.now)
	f.flush()
	// A player whose table holds more than the starting stack for him, while the tournament's count
	// (as of an older report) says he has no more than it. He may move or bust before the order
	// reaches his table: then another is tried.
	pool := f.s.Payouts.Pool
	var rec RebuyRecord
	tried := map[string]bool{}
	for attempt := 0; attempt < 20 && !strings.Contains(rec.Refused, "R1"); attempt++ {
		var who string
		f.until(func() bool {
			for _, id := range sortedIDs(f.tables) {
				for _, seat := range f.tables[id].st.Seats {
					if p := f.s.player(seat.Player); !tried[seat.Player] && seat.Stack > spec.Structure.StartingStack && p.Status == Seated && !p.Leaving {
						who = seat.Player
						return true
					}
				}
			}
			return false
		})
		tried[who] = true
		f.s.player(who).Stack = spec.Structure.StartingStack // stale, as between two reports
		if err := f.s.VerifyRebuy(RebuyRequest{Player: who}, f.now); err != nil {
			t.Fatal(err)
		}
		ref := f.s.Rebuy(RebuyRequest{Player: who})
		f.flush()
		f.until(func() bool { return f.s.RebuyLog[ref].Done })
		rec = f.s.RebuyLog[ref]
	}
	if !strings.Contains(rec.Refused, "R1") || rec.Chips != 0 {
		t.Fatalf("rebuy record %+v, want refused by R1", rec)
	}
	// A player tried before may have lost down to the starting stack before his order arrived: his
	// rebuy was taken, and counts; every refused one is refunded.
	var chips int64
	taken := 0
	for _, r := range f.s.RebuyLog {
		if r.Done && r.Refused == "" {
			chips += r.Chips
			taken++
		}
	}
	if f.s.Ledger.RebuyChips != chips || f.s.Entries.Rebuys != taken || (taken == 0) != (f.s.Payouts.Pool == pool) {
		t.Errorf("refused rebuys not refunded: ledger %d, rebuys %d, pool %d (was %d); %d rebuys taken for %d chips", f.s.Ledger.RebuyChips, f.s.Entries.Rebuys, f.s.Payouts.Pool, pool, taken, chips)
	}
	f.run(200000) // chips conserved at every step
}

// TestSilentTableIsReplaced: a table that stops reporting is noticed when its deadline passes
// (the others, reporting, tell at least every quarter of it) and its host is replaced; a
// tournament never waits forever on one table.
func TestSilentTableIsReplaced(t *testing.T) {
	spec := simSpec(45)
	spec.TableDeadline = time.Minute
	f := newFloorSim(t, spec, 8)
	f.s.Step(f.now)
	f.flush()
	replaced := map[floor.TableID]int{}
	silent := floor.TableID(1)
	for k := 0; k < 200; k++ { // 200 seconds of the tournament's clock
		f.deliver()
		for _, id := range sortedIDs(f.tables) {
			if id != silent {
				f.report(f.tables[id])
			}
		}
		f.step()
		for _, id := range f.s.Replacing {
			replaced[id]++
		}
		f.s.Replacing = nil
	}
	if replaced[silent] < 2 || len(replaced) != 1 {
		t.Errorf("hosts replaced %v in 200 s, want table %d's only, every minute or so", replaced, silent)
	}
	if tr := f.s.Table(silent); tr.Replaced != replaced[silent] {
		t.Errorf("table record counts %d replacements, %d made", tr.Replaced, replaced[silent])
	}
}

// TestDeadlineFollowsTheField: when every table is heard from less often than its deadline (a
// server that is the bottleneck: each table's report waits its turn), no table alive is replaced
// for silence, and one that stops is still replaced, once it has been silent several of the
// field's intervals (PaceFieldDeadline). Before that pace, the tables alive were replaced too:
// the storm of the 100,000-entry run of 6 December.
func TestDeadlineFollowsTheField(t *testing.T) {
	for _, tc := range []struct {
		pace      int
		liveSpare bool
	}{{PaceLatest, true}, {PaceFieldDeadline - 1, false}} {
		t.Run(fmt.Sprintf("pace %d", tc.pace), func(t *testing.T) {
			spec := simSpec(450)
			spec.TableDeadline = time.Minute
			f := newFloorSim(t, spec, 3)
			f.s.Pace = tc.pace
			f.s.Step(f.now)
			f.flush()
			// The tables report each second at first; from the second minute the interval grows
			// to 150 s (about the 100,000-entry run's 4 to 12 minutes against its 5) and stays.
			every := func(k int) time.Duration {
				return time.Duration(min(150, max(1, (k-60)/4))) * time.Second
			}
			next := map[floor.TableID]time.Time{}
			silent, stopAt, stopped := floor.TableID(2), 20*60, time.Time{}
			replaced := map[floor.TableID][]time.Duration{}
			for k := 0; k < 45*60 && !f.s.Finished; k++ {
				f.deliver()
				for _, id := range sortedIDs(f.tables) {
					if id == silent && k >= stopAt {
						continue
					}
					if n, ok := next[id]; ok && f.now.Before(n) {
						continue
					}
					f.report(f.tables[id])
					jitter := time.Duration(f.rng.IntN(41)-20) * every(k) / 100
					next[id] = f.now.Add(every(k) + jitter)
				}
				if k == stopAt {
					stopped = f.now
				}
				f.step()
				for _, id := range f.s.Replacing {
					replaced[id] = append(replaced[id], f.now.Sub(stopped))
				}
				f.s.Replacing = nil
			}
			if f.s.Finished || f.s.Table(silent).Closed {
				t.Fatalf("the field finished or closed table %d: make it longer", silent)
			}
			live := 0
			for id, at := range replaced {
				if id != silent {
					live += len(at)
				}
			}
			if tc.liveSpare {
				at := replaced[silent]
				if live > 0 || len(at) == 0 {
					t.Fatalf("hosts replaced %v (time after table %d stopped); want table %d's only", replaced, silent, silent)
				}
				// Heard about every 150 s, the field's deadline is about 4 of them, from the table's
				// last news, up to 180 s before it stopped.
				if at[0] < 6*time.Minute || at[0] > 12*time.Minute {
					t.Errorf("table %d replaced %v after it stopped; want after 6 to 12 minutes (4 of the field's intervals, average %v, from its last news)", silent, at[0], f.s.NewsEvery)
				}
				t.Logf("table %d replaced %v after it stopped; the field heard every %v on average", silent, at, f.s.NewsEvery)
			} else if live == 0 {
				t.Fatalf("before PaceFieldDeadline the tables alive should have been replaced (the storm); none were: %v", replaced)
			}
		})
	}
}
