package controllers

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestOperatorAppliesAddOns sells add-ons through EntryBatches on the operator path (real API
// server and users, real Temporal, the table Pods' processes dealing), as TestOperatorAppliesRecords
// does the other records: refused with R1 before the add-on break, taken at it (the prize pool grows
// by the price less the fee, to the cent), refused for an unknown player and for a second add-on
// (R1: one an entry).
func TestOperatorAppliesAddOns(t *testing.T) {
	t.Parallel()
	f := startRecordsFixture(t)
	ctx := f.ctx
	tm := simulationTournament("addons", 9)
	// Bots that only check or fold: nobody busts, so the field is whole when the add-ons are sold
	// however fast the tables deal beside the test. Random bots shove and bust the field in a
	// minute; bots that play their cards ("strength") at 200 ms a thought still played the nine
	// down to one before the pause once, on a loaded machine ("a deal needs two players left").
	tm.Spec.TablePods.Template.Env = append(tm.Spec.TablePods.Template.Env, pokerv1.EnvVar{Name: "POKERFLOOR_TABLE_BOT_STRATEGY", Value: "checkfold"})
	tm.Spec.TablePods.Template.Env[0].Value = "50ms" // a thought: level 1's 20 hands in about 10 s
	tm.Spec.Structure = pokerv1.BlindStructure{Levels: []pokerv1.Level{
		// A simulation counts a level in hands, one a minute, and skips breaks: the add-on is sold
		// in level 2, which lasts long enough for the test's batches.
		{SmallBlind: 25, BigBlind: 50, Minutes: 20}, {Break: true, Minutes: 10}, {SmallBlind: 50, BigBlind: 100, Minutes: 1000},
	}}
	tm.Spec.StartingStack = 1_000_000
	tm.Spec.AddOn = &pokerv1.AddOn{AfterLevel: 1, Chips: 50_000, PriceCents: 1000, FeeCents: 100}
	tm.Spec.Paused = true // level 1 while the first batch is decided
	id := f.running(t, tm)
	wf := workflows.GetTournament(f.temporal, id)
	batch := func(name string, players ...string) *pokerv1.EntryBatch {
		t.Helper()
		b := validEntryBatch(name)
		b.Spec.Tournament = tm.Name
		for _, p := range players {
			b.Spec.Entries = append(b.Spec.Entries, pokerv1.Entry{Player: p, Kind: pokerv1.EntryAddOn})
		}
		f.create(t, f.bob, "cashier-bob", b)
		f.decided(t, b, func() string { return string(b.Status.Phase) })
		t.Logf("%s: %s, %d accepted, refused %+v", b.Name, b.Status.Phase, b.Status.Accepted, b.Status.Refused)
		return b
	}
	refused := func(b *pokerv1.EntryBatch, player string, says ...string) {
		t.Helper()
		i := slices.IndexFunc(b.Status.Refused, func(r pokerv1.RefusedEntry) bool { return r.Player == player })
		if i < 0 {
			t.Errorf("%s: %s's add-on not refused: %+v", b.Name, player, b.Status)
			return
		}
		for _, s := range says {
			if !strings.Contains(b.Status.Refused[i].Reason, s) {
				t.Errorf("%s: %s's add-on refused with %q, want it to say %q", b.Name, player, b.Status.Refused[i].Reason, s)
			}
		}
	}

	early := batch("addon-early", "p03")
	if early.Status.Phase != pokerv1.EntryBatchRefused {
		t.Errorf("an add-on in level 1: %+v, want refused", early.Status)
	}
	refused(early, "p03", "rule R1", "add-ons are sold only at the break after level 1")

	setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), false)
	waitFor(t, "the add-on break (level 2 in a simulation)", finishDeadline, func() error {
		p, err := wf.Progress(ctx)
		if err != nil {
			return err
		}
		if p.Level < 2 {
			return fmt.Errorf("level %d", p.Level)
		}
		return nil
	})
	// The clock stops for the sale (the tables end their hands and wait), so that nobody busts,
	// moves or ends the tournament while the cashier's batches are decided on a loaded machine
	// (two suites side by side: the field played to its end during the batches once).
	setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), true)
	f.stopped(t, wf)
	before := answer(t, "the payouts", func() (workflows.PayoutsView, error) { return wf.Payouts(ctx) })
	// The biggest stacks first: the players likeliest to be in when their add-ons reach their
	// tables. Play goes on in a simulation's break, so a player may still bust or be moved while
	// his add-on is on its way: refused then ("has no chips", "is not at table"), he is sold one
	// again at his new table or the next stack is (seen with two suites side by side at load 11).
	standings := answer(t, "the standings", func() ([]workflows.Standing, error) { return wf.Standings(ctx) })
	if len(standings) < 2 {
		t.Fatalf("standings %+v: fewer than two players in", standings)
	}
	var sold []string
	soldTo := func(b *pokerv1.EntryBatch, players ...string) {
		for _, p := range players {
			if p != "ghost" && !slices.ContainsFunc(b.Status.Refused, func(r pokerv1.RefusedEntry) bool { return r.Player == p }) {
				sold = append(sold, p)
			}
		}
	}
	taken := batch("addon-break", standings[0].Player, standings[1].Player, "ghost")
	soldTo(taken, standings[0].Player, standings[1].Player)
	if int(taken.Status.Accepted) != len(sold) {
		t.Errorf("add-ons at the break: %+v, %d accepted, want %d (%v)", taken.Status, taken.Status.Accepted, len(sold), sold)
	}
	refused(taken, "ghost", `no player "ghost"`)
	tries := 0
	for _, r := range taken.Status.Refused {
		for r.Player != "ghost" && strings.Contains(r.Reason, "is not at table") && len(sold) < 2 && tries < 3 {
			tries++
			again := batch(fmt.Sprintf("addon-moved-%d", tries), r.Player)
			if soldTo(again, r.Player); again.Status.Accepted == 0 {
				r = again.Status.Refused[0]
			}
		}
	}
	for next := 2; len(sold) < 2 && next < len(standings) && next < 6; next++ {
		more := batch(fmt.Sprintf("addon-next-%d", next), standings[next].Player)
		soldTo(more, standings[next].Player)
	}
	if len(sold) != 2 {
		t.Fatalf("add-ons at the break sold to %v, want two players", sold)
	}
	again := batch("addon-again", sold[0])
	refused(again, sold[0], "rule R1", "at most 1 an entry")

	after := answer(t, "the payouts", func() (workflows.PayoutsView, error) { return wf.Payouts(ctx) })
	if grown := after.Payouts.Pool - before.Payouts.Pool; grown != 2*(1000-100) {
		t.Errorf("the prize pool grew by %d cents with two add-ons, want %d (the price less the fee, R6)", grown, 2*(1000-100))
	}
	setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), false)
	// The chips are the player's once his table has applied the add-on after its hand.
	var tools workflows.ToolsState
	waitFor(t, "the add-ons applied at the tables", stepDeadline, func() (err error) {
		if tools, err = wf.Tools(ctx); err != nil {
			return err
		}
		for _, a := range tools.AddOns {
			if !a.Done && a.Refused == "" {
				return fmt.Errorf("add-on %+v not applied yet", a)
			}
		}
		return nil
	})
	var applied []string
	for _, a := range tools.AddOns {
		if a.Refused == "" {
			applied = append(applied, a.Player)
			if !a.Done || a.Count != 1 || a.Chips != 50_000 {
				t.Errorf("add-on %+v, want one of 50,000 chips, done", a)
			}
		}
	}
	slices.Sort(applied)
	slices.Sort(sold)
	if !slices.Equal(applied, sold) {
		t.Errorf("the workflow sold add-ons to %v, want %v: %+v", applied, sold, tools.AddOns)
	}
	// Reconciled again from nothing: the workflow answers from its record, nobody buys twice.
	accepted := taken.Status.Accepted
	f.clearStatus(t, taken)
	f.decided(t, taken, func() string { return string(taken.Status.Phase) })
	if now := answer(t, "the tools", func() (workflows.ToolsState, error) { return wf.Tools(ctx) }); len(now.AddOns) != len(tools.AddOns) || taken.Status.Accepted != accepted {
		t.Errorf("reconciled again: %d add-ons recorded, want %d; %d accepted, want %d", len(now.AddOns), len(tools.AddOns), taken.Status.Accepted, accepted)
	}
}
