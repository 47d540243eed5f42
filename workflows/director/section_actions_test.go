package director

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// seatedIn is a seated player of section f whose stack passes ok, not about to move.
func seatedIn(f *floorSim, ok func(stack int64) bool) string {
	for _, p := range f.s.Players {
		if p.Status == Seated && !p.Leaving && p.Stack > 0 && ok(p.Stack) {
			return p.ID
		}
	}
	return ""
}

// until runs the simulation until cond holds.
func (sim *sectionSim) until(what string, cond func() bool) {
	sim.t.Helper()
	for k := 0; !cond(); k++ {
		if k == 20000 || sim.top.Finished {
			sim.t.Fatalf("%s: not reached (finished %v, %d left)", what, sim.top.Finished, sim.top.Left)
		}
		sim.once()
	}
}

// enter takes late entries as the tournament's RegisterBatch update does: each checked and sent
// to its section, answered once the section has seated him (or refused).
func (sim *sectionSim) enter(reqs ...RegisterRequest) []PendingEntry {
	sim.t.Helper()
	for _, r := range reqs {
		if err := sim.top.VerifyRegister(r, simStart); err != nil {
			sim.t.Fatalf("entry %s: %v", r.Player, err)
		}
		sim.top.Register(r)
	}
	var out []PendingEntry
	for _, r := range reqs {
		sim.until("the answer to entry "+r.Key, func() bool { _, ok := sim.top.Entry(r.Key); return ok })
		e, _ := sim.top.Entry(r.Key)
		sim.top.TakeEntry(r.Key)
		out = append(out, e)
	}
	return out
}

// TestSectionsTakeDirectorsActions plays 300 entries in four sections (no Temporal, every
// message late, reordered or repeated) while the director acts on players where their records
// are: an entry unregistered before the first hand (R1), late entries through the tournament
// (R1, each seated by the section its ID goes to; a retry of a key taken once, a second entry of
// an ID refused), rebuys, a disqualification (P4), an add-on at the add-on level, a no-show (T4),
// a break by hand, a move to another section's table refused (R3). Each action's money reaches
// the tournament: at the end the pool is exactly what was paid in less the fees, the prizes add
// up to it, every entry in the field has one place, and the chips were conserved in every section
// and across them after every event.
func TestSectionsTakeDirectorsActions(t *testing.T) { // rules R1, R3, R4, R6, P4, T4
	for seed := uint64(1); seed <= 10; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { sectionActions(t, seed) })
	}
}

func sectionActions(t *testing.T, seed uint64) {
	spec := simSpec(300)
	spec.SectionTables = 10
	spec.Batch = 1 // a report a hand: the actions find the levels they need
	spec.BuyIn, spec.Fee = 1100, 100
	spec.Rebuys, spec.RebuyLevel, spec.LateRegistrationLevel = 1, 12, 12
	spec.AddOn = &floor.AddOn{Chips: 20000, PriceCents: 1000, FeeCents: 50}
	spec.NoShow = &floor.NoShowRule{After: 5 * time.Minute}
	spec.Payouts = floor.PayoutStructure{PaidPercent: 15}
	sim := newSectionSim(t, spec, seed)
	if len(sim.top.Sections) != 4 {
		t.Fatalf("%d sections, want 4", len(sim.top.Sections))
	}
	start := spec.Structure.StartingStack
	s1 := sim.sections[1]

	// Before the first hand: an entry of section 1 unregistered, refunded in full; its retry is
	// answered from the record.
	gone := s1.s.Players[0].ID
	unreg := UnregisterRequest{Player: gone, By: "td", Key: "unregister-1"}
	if err := s1.s.VerifyUnregister(unreg); err != nil {
		t.Fatal(err)
	}
	w := s1.s.Unregister(unreg)
	if again := s1.s.Unregister(unreg); again != w || w.RefundCents != spec.BuyIn {
		t.Errorf("unregistered %+v, its retry %+v", w, again)
	}

	// Late entries: each to the section its ID draws; a retried key answers the same entry and
	// counts it once; another entry of a registered ID is refused by his section.
	var late []RegisterRequest
	for i := range 10 {
		id := "late" + string(rune('a'+i))
		late = append(late, RegisterRequest{Player: id, Key: "entry-" + id})
	}
	for i, e := range sim.enter(late...) {
		if e.Refused != "" || e.Player != late[i].Player {
			t.Fatalf("entry %s: %+v", late[i].Player, e)
		}
	}
	// The unregistration is done, or refused when his table dealt before it took him off.
	sim.until("the entries counted", func() bool {
		w := s1.s.withdrawal(w.Ref)
		return w.Done && sim.top.Entries.Entries == 309 || w.Refused != "" && sim.top.Entries.Entries == 310
	})
	entries := sim.top.Entries.Entries
	if again := sim.enter(late[0]); again[0].Refused != "" || again[0].Player != "latea" {
		t.Errorf("the retried entry: %+v", again[0])
	}
	if twice := sim.enter(RegisterRequest{Player: "latea", Key: "entry-latea-again"}); !strings.Contains(twice[0].Refused, "registered already") {
		t.Errorf("a second entry of latea: %+v, want refused", twice[0])
	}
	sim.until("the sections' news", func() bool {
		return !slices.ContainsFunc(sim.top.Sections, func(r SectionRecord) bool { return r.Orders.Pending() })
	})
	if sim.top.Entries.Entries != entries {
		t.Errorf("%d entries after the retries, %d before", sim.top.Entries.Entries, entries)
	}
	if err := sim.top.VerifyRegister(RegisterRequest{ReEntryOf: gone}, simStart); err == nil || !strings.Contains(err.Error(), "re-entry") {
		t.Errorf("a re-entry at several sections: %v", err)
	}

	// A move by hand to a table of another section is refused (R3); a break by hand in a section.
	s2 := sim.sections[2]
	sim.until("section 1 settled", func() bool { return !s1.s.MovesPending() && !s1.s.HandForHand.Open })
	mover := seatedIn(s1, func(int64) bool { return true })
	if err := s1.s.VerifyMove(MoveRequest{Player: mover, To: s2.s.Tables[0].ID, By: "td"}); err == nil || !strings.Contains(err.Error(), "R3") || !strings.Contains(err.Error(), "stays in his section") {
		t.Errorf("a move to another section's table: %v", err)
	}
	open := s2.s.openTables()
	broken := open[len(open)-1].ID
	brk := BreakRequest{Table: broken, By: "td", Reason: "the TV table", Key: "break-1"}
	if err := s2.s.VerifyBreak(brk); err != nil {
		t.Fatal(err)
	}
	s2.s.BreakTable(brk)

	// After 5 minutes of clock (hands, in a simulation): a no-show, rebuys (one retried), a
	// disqualification.
	sim.until("hand 6", func() bool { return s1.s.medianHands() >= 6 && !s1.s.MovesPending() })
	absent := seatedIn(s1, func(s int64) bool { return s <= start })
	ns := NoShowRequest{Players: []string{absent}, By: "td", Key: "no-show-1"}
	if err := s1.s.VerifyNoShows(ns, s1.now); err != nil {
		t.Fatalf("no-show %s: %v", absent, err)
	}
	s1.s.RemoveNoShows(ns, s1.now)
	rebuys := 0
	for _, n := range sortedKeys(sim.sections) {
		f := sim.sections[n]
		p := seatedIn(f, func(s int64) bool { return s <= start })
		r := RebuyRequest{Player: p, Key: "rebuy-" + p}
		if p == "" || f.s.VerifyRebuy(r, f.now) != nil {
			continue
		}
		ref := f.s.Rebuy(r)
		if f.s.Rebuy(r) != ref {
			t.Errorf("the retried rebuy of %s took another", p)
		}
		rebuys++
	}
	if rebuys == 0 {
		t.Fatal("no rebuy taken")
	}
	s3 := sim.sections[3]
	cheat := seatedIn(s3, func(int64) bool { return true })
	dq := SanctionRequest{Player: cheat, Kind: floor.Disqualification, Reason: "collusion", By: "td", Key: "dq-1"}
	if err := s3.s.VerifySanction(dq, s3.now); err != nil {
		t.Fatal(err)
	}
	s3.s.GiveSanction(dq, s3.now)

	// At the add-on level (a simulation's: the level after the rebuy period), an add-on.
	addOns := 0
	sim.until("an add-on", func() bool {
		for _, n := range sortedKeys(sim.sections) {
			f := sim.sections[n]
			if f.s.Finished || f.s.levelNumber() != spec.RebuyLevel+1 {
				continue
			}
			p := seatedIn(f, func(int64) bool { return true })
			r := AddOnRequest{Player: p, Key: "add-on-" + p}
			if p != "" && f.s.VerifyAddOn(r, f.now) == nil {
				f.s.AddOn(r)
				addOns++
				return true
			}
		}
		return false
	})

	playToEnd(t, sim)
	top := sim.top
	if !slices.ContainsFunc(s2.s.Tools.Breaks, func(b floor.TableBreak) bool { return b.Table == broken && b.By == "td" }) {
		t.Errorf("section 2's breaks by hand: %+v, want table %d", s2.s.Tools.Breaks, broken)
	}
	// The money, to the cent: the entries (310 less the withdrawals made), the rebuys made and the
	// add-on.
	sold, withdrawn, unregistered, made := 0, 0, 0, 0
	for _, f := range sim.sections {
		sold += f.s.Tools.AddOnsSold
		for _, r := range f.s.RebuyLog {
			if r.Chips > 0 {
				made++
			}
		}
		for _, w := range f.s.Tools.Withdrawn {
			if w.Done {
				withdrawn++
				if !w.NoShow {
					unregistered++
				}
			}
		}
	}
	e := top.Entries
	in := int64(e.Entries+e.Rebuys)*(spec.BuyIn-spec.Fee) + int64(top.AddOns)*(spec.AddOn.PriceCents-spec.AddOn.FeeCents)
	if e.Entries != 310-withdrawn || e.Rebuys != made || top.AddOns != addOns || sold != addOns || top.Payouts.Pool != in {
		t.Errorf("pool %d, paid in less fees %d: %d entries, %d rebuys (%d asked), %d add-ons (%d sold, %d asked)",
			top.Payouts.Pool, in, e.Entries, e.Rebuys, rebuys, top.AddOns, sold, addOns)
	}
	// The chips: entries, the rebuys' and the add-on's, less the disqualified player's and the
	// no-show's, less the unregistered entry's (he never bought any).
	l := top.Ledger
	if l.Entries != 310-unregistered || l.Disqualified <= 0 || l.RebuyChips != int64(e.Rebuys)*top.Spec.RebuyChips+int64(sold)*spec.AddOn.Chips {
		t.Errorf("ledger %+v", l)
	}
	t.Logf("%d withdrawn (%d unregistered); %d entries, %d rebuys (%d asked), %d add-ons; pool %d; ledger %+v", withdrawn, unregistered, e.Entries, e.Rebuys, rebuys, top.AddOns, top.Payouts.Pool, l)
}

// TestSectionsPayBounties plays a progressive knockout of 300 entries in four sections (no
// Temporal, every message late, reordered or repeated), with a late entry and a disqualification:
// each bust is paid by his section to who won his last chips, a bounty goes with a player moved to
// another section, and at the end the cash the sections paid for knockouts plus the winner's own
// bounty (with the disqualified player's, unclaimed) is the bounty share of every buy-in to the
// cent; the prize pool is the buy-ins less the fees and the bounties, and the prizes add up to it.
func TestSectionsPayBounties(t *testing.T) { // rule R6
	for seed := uint64(1); seed <= 5; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			spec := simSpec(300)
			spec.SectionTables = 10
			spec.BuyIn, spec.Fee, spec.LateRegistrationLevel = 1100, 100, 3
			spec.Bounty = &floor.Bounty{StartCents: 500, CashPercent: 50}
			spec.Payouts = floor.PayoutStructure{PaidPercent: 15}
			sim := newSectionSim(t, spec, seed)
			if e := sim.enter(RegisterRequest{Player: "late", Key: "late"}); e[0].Refused != "" {
				t.Fatalf("late entry: %+v", e[0])
			}
			s3 := sim.sections[3]
			sim.until("section 3 settled", func() bool { return !s3.s.MovesPending() })
			cheat := seatedIn(s3, func(int64) bool { return true })
			dq := SanctionRequest{Player: cheat, Kind: floor.Disqualification, Reason: "collusion", By: "td", Key: "dq"}
			if err := s3.s.VerifySanction(dq, s3.now); err != nil {
				t.Fatal(err)
			}
			s3.s.GiveSanction(dq, s3.now)
			playToEnd(t, sim)

			top := sim.top
			var knockouts, unclaimed int64
			heads := map[floor.PlayerID]int64{}
			for _, f := range sim.sections {
				b := f.s.Tools.Bounties
				knockouts += b.Board.PaidCents
				unclaimed += b.Board.UnclaimedCents
				for p, h := range b.Board.Heads {
					heads[p] = h
				}
				for _, e := range b.Errors {
					t.Errorf("section %d: %s", f.s.Section.Number, e)
				}
			}
			res, err := top.Result()
			if err != nil {
				t.Fatal(err)
			}
			pool := int64(301) * spec.Bounty.StartCents
			b := res.Bounties
			winner := floor.PlayerID(res.Places[0].Player)
			if len(heads) != 1 || heads[winner] == 0 {
				t.Errorf("bounties left on heads %v, want the winner %s's only", heads, winner)
			}
			if b == nil || b.PoolCents != pool || b.PaidCents != pool || knockouts != top.BountyPaidCents ||
				len(b.Won) != 1 || b.Won[0].CashCents != heads[winner]+unclaimed || knockouts+heads[winner]+unclaimed != pool {
				t.Errorf("bounties %+v: pool %d, the sections paid %d for knockouts (the tournament heard %d), the winner's head %d, unclaimed %d",
					b, pool, knockouts, top.BountyPaidCents, heads[winner], unclaimed)
			}
			if in := int64(301) * (spec.BuyIn - spec.Fee); top.Payouts.Pool+pool != in {
				t.Errorf("prize pool %d and bounty pool %d, paid in less fees %d", top.Payouts.Pool, pool, in)
			}
			t.Logf("knockouts paid %d, winner %s %d (unclaimed %d); prize pool %d", knockouts, winner, heads[winner], unclaimed, top.Payouts.Pool)
		})
	}
}
