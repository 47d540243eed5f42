package workflows

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// toolsRun drives one tournament for the director's tools: it stops the tables (held at a hand
// count, then paused, so that each waits after its hand and applies orders while it waits), acts,
// and lets them go on.
type toolsRun struct {
	t       *testing.T
	ctx     context.Context
	tour    *Tournament
	c       client.Client
	check   *checkingController
	release func()
}

// waitFor polls cond until it holds (the context's deadline is for a machine many times slower).
func (r *toolsRun) waitFor(what string, cond func() bool) {
	r.t.Helper()
	for !cond() {
		if r.ctx.Err() != nil {
			r.t.Fatalf("waiting for %s: %v", what, r.ctx.Err())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop holds the tables once they have dealt hands hands in all, pauses the clock, and lets the
// held reports through: each table stops at its next report, paused (B3).
func (r *toolsRun) stop(hands int64) {
	r.t.Helper()
	old := r.release
	r.release = r.check.holdAt(hands)
	old()
	r.waitFor("the gate", r.check.held)
	if _, err := r.tour.ClockAction(r.ctx, ClockRequest{Kind: floor.ClockPause, By: "td"}); err != nil {
		r.t.Fatal(err)
	}
	r.paused(true)
	r.release()
	r.paused(false)
	r.settle()
	// A simulation's paused clock counts the hands dealt before the pause, as the tables tell
	// them; it stands once every table has.
	r.waitFor("the clock to stand", func() bool {
		p, err := r.tour.Progress(r.ctx)
		return err == nil && !p.Stopping
	})
}

// paused waits until every open table has applied the pause (it deals no more); with told, until
// each has it, applied or to apply at its next report (before it deals again).
func (r *toolsRun) paused(told bool) {
	r.t.Helper()
	r.waitFor("the tables to pause", func() bool {
		tables, err := r.tour.Tables(r.ctx)
		if err != nil || len(tables) == 0 {
			return false
		}
		for _, tv := range tables {
			if tv.Closed {
				continue
			}
			ts, err := queryTableState(r.ctx, r.c, tv.Workflow)
			if err != nil {
				return false
			}
			pending := slices.ContainsFunc(ts.Pending, func(o director.Order) bool { return o.Pause != nil && *o.Pause })
			if !ts.Paused && !(told && pending) {
				return false
			}
		}
		return true
	})
}

// settle waits until no player is on his way between tables (the paused tables apply moves).
func (r *toolsRun) settle() {
	r.t.Helper()
	r.waitFor("the moves to end", func() bool {
		st := r.state()
		return !slices.ContainsFunc(st.Players, func(p director.PlayerRecord) bool { return p.Leaving || p.Status == director.Moving })
	})
}

// stopNext stops the tables after hands more hands and returns the level the tournament is in;
// a level past most fails the test (the stops passed the level they were looking for).
func (r *toolsRun) stopNext(hands int64, most int) int {
	r.t.Helper()
	r.stop(r.hands() + hands)
	p, err := r.tour.Progress(r.ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	if p.Level > most {
		r.t.Fatalf("level %d: the stops passed level %d", p.Level, most)
	}
	return p.Level
}

func (r *toolsRun) resume() {
	r.t.Helper()
	if _, err := r.tour.ClockAction(r.ctx, ClockRequest{Kind: floor.ClockResume, By: "td"}); err != nil {
		r.t.Fatal(err)
	}
}

func (r *toolsRun) state() director.TournamentState {
	r.t.Helper()
	var st director.TournamentState
	if err := r.tour.query(r.ctx, StateQuery, &st); err != nil {
		r.t.Fatal(err)
	}
	return st
}

func (r *toolsRun) hands() int64 {
	r.check.mu.Lock()
	defer r.check.mu.Unlock()
	return r.check.hands
}

// seatedWith is a seated player whose stack passes ok.
func seatedWith(st director.TournamentState, ok func(stack int64) bool) string {
	for _, p := range st.Players {
		if p.Status == director.Seated && !p.Leaving && p.Stack > 0 && ok(p.Stack) {
			return p.ID
		}
	}
	return ""
}

// TestDirectorToolsEndToEnd plays a tournament on a real Temporal server in which the director,
// through the client API, unregisters an entry before the first hand (R1: refunded, the payouts
// recomputed), moves a player by hand (R3's seat, refused with the rule otherwise), names the
// table to break (R4), takes a rebuy in the rebuy period, removes a no-show after the spec's time
// (T4), and sells an add-on at the add-on break (R1); retried updates are applied once. At the
// end every entry left has a place, the prizes add up to the pool, the pool is what was paid in
// less the fees, and the chips were conserved at every step.
func TestDirectorToolsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c, _, check := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{
		Name: "tools", PlayerCount: 27, TableSize: 9, Structure: turbo, Seed: 8, Simulation: true, Batch: 1,
		BuyIn: 11000, Fee: 1000, Rebuys: 1, RebuyLevel: 6, // turbo's first break follows level 6
		AddOn:  &floor.AddOn{Chips: 20000, PriceCents: 10000, FeeCents: 500},
		NoShow: &floor.NoShowRule{After: 5 * time.Minute}, // a simulation's hand is a minute
	}
	// Before the first hand: the tables are held at their first report, then paused.
	r := startPaused(t, c, check, "tools", spec)
	ctx, tour := r.ctx, r.tour
	before, err := tour.Payouts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w := unregisterBeforeStart(t, ctx, tour)
	after, err := tour.Payouts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Done || w.RefundCents != spec.BuyIn || w.Chips != turbo.StartingStack || after.Payouts.Pool != before.Payouts.Pool-(spec.BuyIn-spec.Fee) {
		t.Errorf("unregistered %+v; pool %d, was %d", w, after.Payouts.Pool, before.Payouts.Pool)
	}

	// Still before the first hand: a move by hand, from a full table to the one the unregistered
	// entry left short (R3's seat); refused to another seat and to a full table (R3).
	r.settle()
	tables, err := tour.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(tables, func(a, b TableView) int { return b.Players - a.Players })
	full, short := tables[0], tables[len(tables)-1]
	if full.Players != 9 || short.Players != 8 {
		t.Fatalf("tables of %d and %d players after the unregistration", full.Players, short.Players)
	}
	who := full.Seats[slices.IndexFunc(full.Seats, func(p string) bool { return p != "" })]
	if _, err := tour.Move(ctx, MoveRequest{Player: who, To: short.ID, Seat: 99, By: "td"}); err == nil || !strings.Contains(err.Error(), "R3") {
		t.Errorf("a move to seat 99: %v, want a refusal naming R3", err)
	}
	other := short.Seats[slices.IndexFunc(short.Seats, func(p string) bool { return p != "" })]
	if _, err := tour.Move(ctx, MoveRequest{Player: other, To: full.ID, By: "td"}); err == nil || !strings.Contains(err.Error(), "R3") {
		t.Errorf("a move to a full table: %v, want a refusal naming R3", err)
	}
	m := moveRetried(t, ctx, tour, MoveRequest{Player: who, To: short.ID, By: "td", Reason: "a seat by the door", Key: "move-1"})
	if m.ToSeat != floor.BalanceSeat(floor.Table{ID: short.ID, Seats: toPlayerIDs(short.Seats), Button: short.Button, BigBlind: short.BigBlind}) {
		t.Errorf("moved to seat %d of table %d: not R3's", m.ToSeat, short.ID)
	}
	r.settle()
	st := r.state()
	p := st.Players[slices.IndexFunc(st.Players, func(p director.PlayerRecord) bool { return p.ID == who })]
	if p.Table != short.ID || p.Status != director.Seated {
		t.Errorf("%s is %s at table %d, moved to %d", who, p.Status, p.Table, short.ID)
	}
	if len(st.Tools.Moves) != 1 || st.Tools.Moves[0].By != "td" {
		t.Errorf("moves by hand: %+v", st.Tools.Moves)
	}
	// The break order: the fullest table, not the floor's emptiest, breaks first (R4).
	if _, err := tour.BreakTable(ctx, BreakRequest{Table: full.ID, By: "td", Reason: "the TV table"}); err != nil {
		t.Fatal(err)
	}
	r.resume()

	// A no-show (T4: the spec's 5 minutes of clock have run), removed and refunded.
	r.stop(r.hands() + 24)
	st = r.state()
	absent := seatedWith(st, func(s int64) bool { return s <= turbo.StartingStack })
	if absent != "" {
		pool := st.Payouts.Pool
		ns, err := tour.RemoveNoShows(ctx, NoShowRequest{Players: []string{absent}, By: "td", Key: "no-show-1"})
		if err != nil {
			t.Fatal(err)
		}
		if len(ns) != 1 || !ns[0].Done || ns[0].RefundCents != spec.BuyIn {
			t.Errorf("no-show removed: %+v", ns)
		}
		if now := r.state(); now.Payouts.Pool != pool-(spec.BuyIn-spec.Fee) {
			t.Errorf("pool %d after the no-show, was %d", now.Payouts.Pool, pool)
		}
	} else {
		t.Error("no player at or below the starting stack to remove as a no-show")
	}
	// A rebuy in the rebuy period, beside the tools.
	st = r.state()
	if p := seatedWith(st, func(s int64) bool { return s <= turbo.StartingStack }); p != "" {
		if err := tour.Rebuy(ctx, RebuyRequest{Player: p, Key: "rebuy-" + p}); err != nil {
			t.Errorf("rebuy for %s: %v", p, err)
		}
	}
	r.resume()

	// At the add-on break (a simulation skips it: level 7, after the rebuy period), an add-on.
	// The level is the median table's: the stop waits for it to stand (every table has told the
	// hands it dealt before the pause), and the level it stands at is the one the sale is judged in.
	for r.stopNext(6, 7) != 7 {
		r.resume()
	}
	buyer := seatedWith(r.state(), func(int64) bool { return true })
	add := AddOnRequest{Player: buyer, Key: "add-on-" + buyer}
	a, err := tour.AddOn(ctx, add)
	if err != nil {
		p, _ := tour.Progress(ctx)
		t.Fatalf("an add-on at level 7, paused there (the clock now at level %d): %v", p.Level, err)
	}
	if a2, err := tour.AddOn(ctx, add); err != nil || a2.Ref != a.Ref {
		t.Errorf("the retried add-on: %+v, %v; the first %+v", a2, err, a)
	}
	if _, err := tour.AddOn(ctx, AddOnRequest{Player: buyer}); err == nil || !strings.Contains(err.Error(), "R1") {
		t.Errorf("a second add-on over the limit: %v", err)
	}
	if !a.Done || a.Chips != spec.AddOn.Chips {
		t.Errorf("add-on %+v", a)
	}
	r.resume()

	res, err := tour.Result(ctx)
	if err != nil {
		dumpFailures(t, c, tour.ID)
		t.Fatal(err)
	}
	end := r.state()
	if len(end.Tools.Breaks) != 1 || end.Tools.Breaks[0].Table != full.ID || end.Tools.Breaks[0].By != "td" {
		t.Errorf("breaks by hand: %+v, want table %d", end.Tools.Breaks, full.ID)
	}
	var paid int64
	for _, p := range res.Places {
		paid += p.Prize
	}
	if len(res.Places) != len(end.Field) || paid != res.PrizePool || len(res.ChipErrors) > 0 || len(check.errs) > 0 {
		t.Errorf("%d places for %d entries, %d paid of %d, chip errors %v %v", len(res.Places), len(end.Field), paid, res.PrizePool, res.ChipErrors, check.errs)
	}
	// The money: the pool is what the entries, rebuys and add-ons paid, less the fees, to the cent.
	e := end.Entries
	in := int64(e.Entries)*(spec.BuyIn-spec.Fee) + int64(e.Rebuys)*(spec.BuyIn-spec.Fee) + int64(end.Tools.AddOnsSold)*(spec.AddOn.PriceCents-spec.AddOn.FeeCents)
	if res.PrizePool != in || end.Tools.AddOnsSold != 1 {
		t.Errorf("pool %d, paid in less fees %d (%d entries, %d rebuys, %d add-ons)", res.PrizePool, in, e.Entries, e.Rebuys, end.Tools.AddOnsSold)
	}
	// Chips: the winner holds every chip the ledger counts (entries, rebuys, add-ons, less the
	// no-show's and the unregistered entry's).
	if res.Ledger.Total() != end.Ledger.Total() || end.Ledger.Entries != 26 {
		t.Errorf("ledger %+v (%d entries)", end.Ledger, end.Ledger.Entries)
	}
	var left int64
	for _, p := range end.Players {
		if p.Status == director.Seated || p.Status == director.Moving {
			left += p.Stack
		}
	}
	if left != end.Ledger.Total() {
		t.Errorf("the winner has %d chips, the ledger %d", left, end.Ledger.Total())
	}
}

// sectionStates are the states of the tournament's sections in play.
func (r *toolsRun) sectionStates() []director.TournamentState {
	r.t.Helper()
	ids, err := r.tour.sections(r.ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []director.TournamentState
	for _, id := range ids {
		v, err := r.c.QueryWorkflow(r.ctx, id, "", StateQuery)
		var st director.TournamentState
		if err != nil || v.Get(&st) != nil {
			r.t.Fatalf("state of section %s: %v", id, err)
		}
		out = append(out, st)
	}
	return out
}

// settleSections waits until no player is on his way between tables or sections.
func (r *toolsRun) settleSections() {
	r.t.Helper()
	r.waitFor("the moves to end", func() bool {
		var top director.TopState
		if err := r.tour.query(r.ctx, StateQuery, &top); err != nil || len(top.InTransit) > 0 {
			return false
		}
		for _, st := range r.sectionStates() {
			if slices.ContainsFunc(st.Players, func(p director.PlayerRecord) bool { return p.Leaving || p.Status == director.Moving }) {
				return false
			}
		}
		return true
	})
}

// TestDirectorToolsInSectionsEndToEnd plays a tournament of two sections on a real Temporal
// server with bot tables, in which the director, through the client API (each action on a player
// sent to his section, each keyed), unregisters an entry before the first hand (R1), moves a
// player by hand within his section (R3's seat; to another section's table refused, R3), names a
// table to break (R4), registers late entries in a batch through the tournament (R1, R6), takes a
// rebuy and gives a warning (P1), removes a no-show after the spec's time (T4) and sells an add-on
// at the add-on level (R1), re-enters a busted player at the section where he busted (R1), and
// makes a deal once the players left are in one section (refused while they are in two);
// retried updates are applied once. At the end every entry has a place, the deal's players its
// amounts, the prizes add up to the pool, the pool is what was paid in less the fees to the cent,
// and the chips were conserved at every hand, in every section and across them.
func TestDirectorToolsInSectionsEndToEnd(t *testing.T) { // rules R1, R3, R4, R6, P1, T4
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c, _, check := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{
		Name: "tools-sections", PlayerCount: 36, TableSize: 9, Structure: turbo, Seed: 8, Simulation: true, Batch: 1, SectionTables: 2,
		BuyIn: 11000, Fee: 1000, Rebuys: 1, RebuyLevel: 6, LateRegistrationLevel: 6, ReEntries: 1,
		AddOn:  &floor.AddOn{Chips: 20000, PriceCents: 10000, FeeCents: 500},
		NoShow: &floor.NoShowRule{After: 5 * time.Minute},
	}
	if !spec.Sectioned() {
		t.Fatal("the spec plays as one tournament")
	}
	r := startPaused(t, c, check, "tools-sections", spec)
	ctx, tour := r.ctx, r.tour

	// A deal while the players are in two sections: refused, saying where they are.
	if _, err := tour.Deal(ctx, DealRequest{Method: "icm", ApprovedBy: "td"}); err == nil || !strings.Contains(err.Error(), "players left are in 2 sections (section 1: ") {
		t.Errorf("a deal at the start: %v, want a refusal naming the two sections", err)
	}

	// Before the first hand: a no-show too early (T4); an unregistration, retried.
	if w := unregisterBeforeStart(t, ctx, tour); !w.Done || w.RefundCents != spec.BuyIn {
		t.Errorf("unregistered %+v", w)
	}
	r.settleSections()

	// A move by hand in p0005's section, from its full table to his (R3's seat); to a table of
	// the other section, refused (R3).
	tables, err := tour.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sectionOf := func(tv TableView) string { return tv.Workflow[:strings.LastIndex(tv.Workflow, "/")] }
	var short, full, other TableView
	for _, tv := range tables {
		if tv.Players == 8 {
			short = tv
		}
	}
	for _, tv := range tables {
		switch {
		case tv.Players == 9 && sectionOf(tv) == sectionOf(short):
			full = tv
		case sectionOf(tv) != sectionOf(short):
			other = tv
		}
	}
	if short.ID == 0 || full.ID == 0 || other.ID == 0 {
		t.Fatalf("tables after the unregistration: %+v", tables)
	}
	who := full.Seats[slices.IndexFunc(full.Seats, func(p string) bool { return p != "" })]
	if _, err := tour.Move(ctx, MoveRequest{Player: who, To: other.ID, By: "td"}); err == nil || !strings.Contains(err.Error(), "stays in his section") {
		t.Errorf("a move to another section's table: %v, want a refusal naming R3", err)
	}
	moveRetried(t, ctx, tour, MoveRequest{Player: who, To: short.ID, By: "td", Reason: "a seat by the door", Key: "move-1"})
	r.settleSections()
	// The break order: the table he left (R4: when the others can seat its players).
	if _, err := tour.BreakTable(ctx, BreakRequest{Table: full.ID, By: "td", Reason: "the TV table", Key: "break-1"}); err != nil {
		t.Fatal(err)
	}

	// Late entries in a batch, through the tournament; a rebuy and a warning, each retried.
	res, err := tour.RegisterBatch(ctx, RegisterBatchRequest{Key: "late", Entries: []BatchEntry{{Player: "late1"}, {Player: "late2"}, {Player: "p0007"}}})
	if err != nil || len(res) != 3 || res[0].Entry != "late1" || res[1].Entry != "late2" || !strings.Contains(res[2].Refused, "registered already") {
		t.Fatalf("late entries: %+v, %v", res, err)
	}
	rebuy := RebuyRequest{Player: "p0010", Key: "rebuy-p0010"}
	for range 2 {
		if err := tour.Rebuy(ctx, rebuy); err != nil {
			t.Fatalf("rebuy for p0010: %v", err)
		}
	}
	// Rebuys in a batch, each to the section that has its player, the batch retried: each
	// answered, taken (or refused by his table for a stack above the starting stack), once.
	batch := RebuyBatchRequest{Key: "cashier"}
	for _, st := range r.sectionStates() {
		for _, p := range st.Players {
			if p.Status == director.Seated && !p.Leaving && p.Stack > 0 && p.Stack <= turbo.StartingStack && p.ID != rebuy.Player && len(batch.Rebuys) < 2 {
				batch.Rebuys = append(batch.Rebuys, RebuyRequest{Player: p.ID})
			}
		}
	}
	if len(batch.Rebuys) < 2 {
		t.Fatalf("fewer than two players seated at the starting stack or below for a batch of rebuys: %+v", batch)
	}
	batchTaken := 0
	for k := range 2 {
		res, err := tour.RebuyBatch(ctx, batch)
		if err != nil || len(res) != 2 {
			t.Fatalf("rebuys in a batch: %+v, %v", res, err)
		}
		for i, r := range res {
			if r.Player != batch.Rebuys[i].Player || r.Key != fmt.Sprintf("cashier/%d", i) || r.Refused != "" && !strings.Contains(r.Refused, "R1") {
				t.Errorf("rebuy %d of the batch: %+v, want %s's taken or refused by R1", i, r, batch.Rebuys[i].Player)
			}
			if k == 0 && r.Refused == "" {
				batchTaken++
			}
		}
	}
	warn := SanctionRequest{Player: "p0011", Kind: floor.Warning, Reason: "slow play", By: "td", Key: "warn-p0011"}
	for range 2 {
		if rec, err := tour.Sanction(ctx, warn); err != nil || !rec.Applied {
			t.Fatalf("warning for p0011: %+v, %v", rec, err)
		}
	}
	sanctions, err := tour.Sanctions(ctx)
	if err != nil || len(sanctions) != 1 {
		t.Errorf("sanctions %+v, %v: want the warning once", sanctions, err)
	}
	r.resume()

	// A no-show once 5 minutes of his section's clock have run (T4: a simulation's are hands).
	for removed := false; !removed; {
		r.stop(r.hands() + 12)
		var absent string
		for _, st := range r.sectionStates() {
			for _, p := range st.Players { // not one who rebought: his chips were played for (R1)
				if absent == "" && p.Status == director.Seated && !p.Leaving && p.Stack > 0 && p.Stack <= turbo.StartingStack && p.Rebuys == 0 {
					absent = p.ID
				}
			}
		}
		ns, err := tour.RemoveNoShows(ctx, NoShowRequest{Players: []string{absent}, By: "td", Key: "no-show-" + absent})
		switch {
		case err != nil && strings.Contains(err.Error(), "T4: at "):
			// too early in his section: the next stop
		case err != nil || len(ns) != 1 || !ns[0].Done || ns[0].RefundCents != spec.BuyIn:
			t.Fatalf("no-show %s removed: %+v, %v", absent, ns, err)
		default:
			removed = true
		}
		r.resume()
	}

	// A re-entry of a busted player during late registration, through the tournament to the
	// section where he busted (R1), retried; another of him refused.
	var reEntry string
	for reEntry == "" {
		if level := r.stopNext(12, spec.LateRegistrationLevel); level > spec.LateRegistrationLevel {
			t.Fatal("no bust before late registration closed")
		}
		for _, st := range r.sectionStates() {
			if len(st.Tools.Busted) > 0 && reEntry == "" {
				b := st.Tools.Busted[0]
				re := RegisterRequest{ReEntryOf: b.Entrant, Key: "re-entry-" + b.Entrant}
				id, err := tour.Register(ctx, re)
				if again, err2 := tour.Register(ctx, re); err != nil || err2 != nil || id != b.Entrant+"#2" || again != id {
					t.Fatalf("re-entry of %s: %q, %v; retried %q, %v", b.Entrant, id, err, again, err2)
				}
				// Retried in a batch, with its key: the same entry (the client finds the section that took it).
				batch, err := tour.RegisterBatch(ctx, RegisterBatchRequest{Key: "re-batch", Entries: []BatchEntry{{ReEntryOf: b.Entrant, Key: re.Key}}})
				if err != nil || len(batch) != 1 || batch[0].Entry != id {
					t.Errorf("the re-entry of %s again in a batch: %+v, %v; want %s", b.Entrant, batch, err, id)
				}
				if _, err := tour.Register(ctx, RegisterRequest{ReEntryOf: b.Entrant, Key: "re-entry-2-" + b.Entrant}); err == nil || !strings.Contains(err.Error(), "R1") {
					t.Errorf("a second re-entry of %s with his first in play: %v, want refused (R1)", b.Entrant, err)
				}
				reEntry = id
			}
		}
		r.resume()
	}

	// At the add-on level (a simulation skips the break: level 7), an add-on.
	// Each stop tries every seated player of every section until one is sold an add-on: one may
	// be changing tables, his section may not have reached the add-on level yet.
	var sold AddOnRecord
	var refusals []string
	for sold.Ref == 0 {
		r.stop(r.hands() + 6)
		p, err := tour.Progress(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if p.Level > 8 {
			t.Fatalf("level %d: no add-on sold at level 7; refused: %s", p.Level, strings.Join(refusals, "; "))
		}
	sections:
		for _, st := range r.sectionStates() {
			for _, pl := range st.Players {
				if pl.Status != director.Seated || pl.Leaving || pl.Stack <= 0 {
					continue
				}
				a, err := tour.AddOn(ctx, AddOnRequest{Player: pl.ID, Key: "add-on-" + pl.ID})
				if err == nil {
					sold = a
					break sections
				}
				refusals = append(refusals, fmt.Sprintf("level %d %s: %v", p.Level, pl.ID, err))
				if len(refusals) > 40 {
					refusals = refusals[len(refusals)-40:]
				}
			}
		}
		r.resume()
	}
	if !sold.Done || sold.Chips != spec.AddOn.Chips {
		t.Errorf("add-on %+v", sold)
	}

	// A deal once the players left are in one section: quoted on their stacks after the last
	// hand (the tables paused), made there, paid by the tournament.
	var deal DealRecord
	var quote DealQuote
	for deal.ApprovedBy == "" {
		r.stop(r.hands() + 6)
		var q DealQuote
		var err error
		r.waitFor("the section's tables to stop", func() bool { // its tables' last news
			q, err = tour.DealQuote(ctx, DealRequest{Method: "chip-chop"})
			return err == nil || !strings.Contains(err.Error(), "has not stopped yet")
		})
		switch {
		case err != nil && (strings.Contains(err.Error(), "sections (") || strings.Contains(err.Error(), "a deal is for 2 to 10 players") ||
			strings.Contains(err.Error(), "prize pool is not final")):
			// spread over the sections, too many for a deal yet, or the add-on level not over: the next stop
		case err != nil:
			t.Fatalf("deal quote: %v", err)
		default:
			quote = q
			if deal, err = tour.Deal(ctx, DealRequest{Method: "chip-chop", ApprovedBy: "td", Key: "deal"}); err != nil {
				t.Fatalf("deal on quote %+v: %v", q, err)
			}
		}
		r.resume()
	}
	if !slices.Equal(deal.Players, quote.Players) || !slices.Equal(deal.Amounts, quote.ChipChop) || !slices.Equal(deal.Stacks, quote.Stacks) {
		t.Errorf("deal %+v, quoted %+v", deal, quote)
	}

	result, err := tour.Result(ctx)
	if err != nil {
		dumpFailures(t, c, tour.ID)
		t.Fatal(err)
	}
	if result.Deal == nil {
		t.Error("the result has no deal")
	}
	defer func() {
		if t.Failed() {
			t.Logf("deal %+v; quote %+v; places %+v", deal, quote, result.Places)
		}
	}()
	for _, p := range result.Places {
		if k := slices.Index(deal.Players, p.Player); k >= 0 && p.Prize != deal.Amounts[k] {
			t.Errorf("place %+v: the deal gives %s %d", p, p.Player, deal.Amounts[k])
		}
	}
	// 36 entries, less the unregistered and the no-show, and the two late ones and the re-entry;
	// one rebuy and the batch's taken; one add-on.
	field := 36 - 2 + 2 + 1
	var paid int64
	for _, p := range result.Places {
		paid += p.Prize
	}
	in := int64(field+1+batchTaken)*(spec.BuyIn-spec.Fee) + (spec.AddOn.PriceCents - spec.AddOn.FeeCents)
	if result.Entries != field || len(result.Places) != field || paid != result.PrizePool || result.PrizePool != in {
		t.Errorf("%d entries, %d places, %d paid of a pool of %d; paid in less fees %d", result.Entries, len(result.Places), paid, result.PrizePool, in)
	}
	l := result.Ledger
	if l.Entries != 36-1+2+1 || l.RebuyChips != int64(1+batchTaken)*turbo.StartingStack+spec.AddOn.Chips || len(result.ChipErrors) > 0 || len(check.errs) > 0 {
		t.Errorf("ledger %+v; chip errors %v %v", l, result.ChipErrors, check.errs)
	}
}

// startPaused starts the tournament with its tables held at their first report, pauses the
// clock and lets them report: they wait, paused, before their first hand, and apply orders.
func startPaused(t *testing.T, c client.Client, check *checkingController, id string, spec TournamentSpec) *toolsRun {
	t.Helper()
	// A deadline for a machine five times slower than one alone: the run in sections took 98 to
	// 280 s alone (its add-on attempts wait out toolWait), and 8 minutes ran out beside a second
	// suite (6 December, a clean clone's CI run beside make test).
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	t.Cleanup(cancel)
	r := &toolsRun{t: t, ctx: ctx, c: c, check: check, release: check.holdAt(0)}
	t.Cleanup(func() { r.release() })
	var err error
	if r.tour, err = StartTournament(ctx, c, id, "", spec); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tour.ClockAction(ctx, ClockRequest{Kind: floor.ClockPause, By: "td"}); err != nil {
		t.Fatal(err)
	}
	r.paused(true)
	r.release()
	r.paused(false)
	return r
}

// unregisterBeforeStart, before the first hand, asks for a no-show's removal too early (refused,
// T4) and unregisters p0005, then again with the same key: the same withdrawal, made once.
func unregisterBeforeStart(t *testing.T, ctx context.Context, tour *Tournament) WithdrawalRecord {
	t.Helper()
	if _, err := tour.RemoveNoShows(ctx, NoShowRequest{Players: []string{"p0009"}, By: "td"}); err == nil || !strings.Contains(err.Error(), "T4") {
		t.Errorf("a no-show removed before the rule's time: %v, want a refusal naming T4", err)
	}
	unreg := UnregisterRequest{Player: "p0005", By: "td", Key: "unregister-p0005"}
	w, err := tour.Unregister(ctx, unreg)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := tour.Unregister(ctx, unreg); err != nil || again != w {
		t.Errorf("the retried unregistration: %+v, %v; the first %+v", again, err, w)
	}
	return w
}

// moveRetried makes the move by hand, then again with the same key: the same move, made once.
func moveRetried(t *testing.T, ctx context.Context, tour *Tournament, move MoveRequest) floor.Move {
	t.Helper()
	m, err := tour.Move(ctx, move)
	if err != nil {
		t.Fatalf("moving %s to table %d: %v", move.Player, move.To, err)
	}
	if m2, err := tour.Move(ctx, move); err != nil || m2 != m {
		t.Errorf("the retried move: %+v, %v; the first %+v", m2, err, m)
	}
	return m
}

func toPlayerIDs(seats []string) []floor.PlayerID {
	out := make([]floor.PlayerID, len(seats))
	for i, p := range seats {
		out[i] = floor.PlayerID(p)
	}
	return out
}

// TestProgressiveKnockoutEndToEnd plays a PKO tournament with real tables (bots, the engine) on
// a real Temporal server: every bounty goes to who won the busted player's last chips, as the
// tables report; prizes plus bounty cash paid are the money paid in less the fees, to the cent,
// and the chips were conserved at every hand and every step (rule R6).
func TestProgressiveKnockoutEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c, _, check := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{
		Name: "pko", PlayerCount: 45, TableSize: 9, Structure: turbo, Seed: 11, Simulation: true,
		BuyIn: 11000, Fee: 1000, Bounty: &floor.Bounty{StartCents: 5000},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	tour, res := playOut(ctx, t, c, "pko", spec)
	b := res.Bounties
	if b == nil {
		t.Fatal("no bounties in the result")
	}
	var st director.TournamentState
	if err := tour.query(ctx, StateQuery, &st); err != nil {
		t.Fatal(err)
	}
	field := int64(st.Entries.Field())
	var cash int64
	knockouts := 0
	for _, w := range b.Won {
		cash += w.CashCents
		knockouts += w.Knockouts
	}
	var prizes int64
	for _, p := range res.Places {
		prizes += p.Prize
	}
	in := field*spec.BuyIn + int64(st.Entries.Rebuys)*spec.BuyIn
	fees := (field + int64(st.Entries.Rebuys)) * spec.Fee
	t.Logf("%d entries, %d rebuys, %d hands: prizes %d + bounties %d = %d paid in less %d fees; %d knockouts paid", field, st.Entries.Rebuys, res.HandsPlayed, prizes, cash, in, fees, knockouts)
	if b.PoolCents != field*5000 || b.PaidCents != b.PoolCents || cash != b.PaidCents || b.OnHeadsCents != 0 || len(b.Errors) > 0 {
		t.Errorf("bounties %+v for %d entries", b, field)
	}
	if prizes+cash != in-fees || res.PrizePool != prizes {
		t.Errorf("prizes %d + bounties %d = %d, paid in %d less fees %d = %d", prizes, cash, prizes+cash, in, fees, in-fees)
	}
	// Every bust but a disqualification paid its bounty to an eliminator: field-1 knockouts at least.
	if knockouts < int(field)-1 {
		t.Errorf("%d knockouts paid for %d busts", knockouts, field-1)
	}
	if rec := res.Record; rec == nil || len(rec.Errors) > 0 || rec.Summary.FinalTable == nil || len(rec.Summary.FinalTable.Seats) != spec.TableSize {
		t.Errorf("the record: %+v", rec)
		if rec != nil {
			t.Logf("the final table: %+v", rec.Summary.FinalTable)
		}
	}
	if len(res.Places) != int(field) || len(res.ChipErrors) > 0 || len(check.errs) > 0 {
		t.Errorf("%d places for %d entries; chip errors %v %v", len(res.Places), field, res.ChipErrors, check.errs)
	}
}

// TestBountiesAndSatellitesInSectionsEndToEnd plays two small fields split in three sections each
// on a real Temporal server with bot tables. A progressive knockout: every bust is paid by his
// section to who won his last chips, a bounty goes with a player the tournament moves to another
// section, and the knockouts' cash the sections paid plus the winner's own bounty is the bounty
// share of every buy-in, to the cent; the prize pool (the buy-ins less the fees and the bounties)
// is the tournament's and the prizes add up to it. A satellite: the pool pays as many equal seats
// as it buys and the rest in cash to the next place (R6).
func TestBountiesAndSatellitesInSectionsEndToEnd(t *testing.T) { // rule R6
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c, _, check := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	play := func(t *testing.T, spec TournamentSpec) (TournamentResult, director.TopState) {
		t.Helper()
		if !spec.Sectioned() {
			t.Fatal("the spec plays as one tournament")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		defer cancel()
		tour, err := StartTournament(ctx, c, spec.Name, "", spec)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if t.Failed() {
				describeSections(t, c, tour.ID)
				// The tables too: numbered across the tournament, each in one section (the
				// others' are not found, and not kept).
				ids := append([]string{tour.ID}, sectionIDs(tour.ID, 3)...)
				for _, sec := range sectionIDs(tour.ID, 3) {
					for k := 1; k <= spec.PlayerCount/spec.TableSize; k++ {
						ids = append(ids, director.TableWorkflowID(sec, floor.TableID(k)))
					}
				}
				keepHistories(t, c, ids...)
			}
		}()
		res, err := tour.Result(ctx)
		if err != nil {
			dumpFailures(t, c, tour.ID)
			t.Fatal(err)
		}
		var top director.TopState
		if err := tour.query(ctx, StateQuery, &top); err != nil {
			t.Fatal(err)
		}
		var prizes int64
		for _, p := range res.Places {
			prizes += p.Prize
		}
		if len(top.Sections) != 3 || len(res.Places) != res.Entries || prizes != res.PrizePool || len(res.ChipErrors) > 0 || len(check.errs) > 0 {
			t.Errorf("%d sections; %d places for %d entries, %d paid of %d; chip errors %v %v", len(top.Sections), len(res.Places), res.Entries, prizes, res.PrizePool, res.ChipErrors, check.errs)
		}
		if len(res.Places) != res.Entries {
			t.Logf("places %+v", res.Places)
		}
		// Every section told the tournament it closed (its last events all went up).
		for _, r := range top.Sections {
			if r.Phase != director.SectionClosed {
				t.Errorf("section %d is %s at the end: its last events did not reach the tournament", r.Number, r.Phase)
			}
		}
		return res, top
	}

	t.Run("progressive knockout", func(t *testing.T) {
		spec := TournamentSpec{Name: "pko-sections", PlayerCount: 45, TableSize: 9, Structure: turbo, Seed: 11, Simulation: true, SectionTables: 2,
			BuyIn: 11000, Fee: 1000, Bounty: &floor.Bounty{StartCents: 5000}}
		res, top := play(t, spec)
		// The knockouts' cash as each section paid it.
		var knockouts int64
		for _, r := range top.Sections {
			v, err := c.QueryWorkflow(context.Background(), r.WorkflowID, "", StateQuery)
			var st director.TournamentState
			if err != nil || v.Get(&st) != nil || st.Tools.Bounties == nil {
				t.Fatalf("section %d's bounties: %v", r.Number, err)
			}
			knockouts += st.Tools.Bounties.Board.PaidCents
			if errs := st.Tools.Bounties.Errors; len(errs) > 0 {
				t.Errorf("section %d: %v", r.Number, errs)
			}
		}
		b, field := res.Bounties, int64(res.Entries)
		if b == nil || len(b.Won) != 1 {
			t.Fatalf("bounties %+v", b)
		}
		t.Logf("%d entries, %d hands: knockouts paid %d by the sections, the winner %s %d; prize pool %d", field, res.HandsPlayed, knockouts, b.Won[0].Player, b.Won[0].CashCents, res.PrizePool)
		if b.PoolCents != field*5000 || b.PaidCents != b.PoolCents || knockouts != top.BountyPaidCents || knockouts+b.Won[0].CashCents != b.PoolCents ||
			b.Won[0].Player != res.Places[0].Player || b.Won[0].CashCents < 5000 {
			t.Errorf("bounties %+v: the sections paid %d for knockouts, the tournament heard %d", b, knockouts, top.BountyPaidCents)
		}
		if res.PrizePool+b.PoolCents != field*(spec.BuyIn-spec.Fee) {
			t.Errorf("prize pool %d and bounties %d, paid in less fees %d", res.PrizePool, b.PoolCents, field*(spec.BuyIn-spec.Fee))
		}
	})

	t.Run("satellite", func(t *testing.T) {
		spec := TournamentSpec{Name: "satellite-sections", PlayerCount: 45, TableSize: 9, Structure: turbo, Seed: 12, Simulation: true, SectionTables: 2,
			BuyIn: 11000, Fee: 1000, Satellite: &floor.Satellite{TicketCents: 105000}}
		res, _ := play(t, spec)
		// 45 × 100.00 = 4,500.00: four seats of 1,050.00, 300.00 in cash to 5th.
		var seats []int64
		for _, p := range res.Places {
			if p.Prize > 0 {
				seats = append(seats, p.Prize)
			}
		}
		if res.PrizePool != 450000 || !slices.Equal(seats, []int64{105000, 105000, 105000, 105000, 30000}) {
			t.Errorf("pool %d, prizes by place %v: want four seats of 105000 and 30000", res.PrizePool, seats)
		}
	})
}
