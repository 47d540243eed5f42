package controllers

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	eventsv1 "k8s.io/api/events/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The director's records on the operator path: a real API server authenticating the director and
// the registrar (config/rbac's roles, config/admission's policies recording who issued what), the
// manager's reconcilers, a real Temporal server running the tournament, and the table Pods'
// processes dealing. Each record is applied once by its UID, its status says what the tournament
// did or which rule refused it, and a record reconciled again from scratch changes nothing.

// recordsFixture is the operator with a director (floor-ann) and a registrar (cashier-bob).
type recordsFixture struct {
	*operator
	ctx      context.Context
	admin    client.Client
	ann, bob client.Client
	names    int
}

func startRecordsFixture(t *testing.T) *recordsFixture {
	// The whole test plays a tournament for minutes on a loaded machine: a deadline only for a
	// hung test.
	ctx, cancel := context.WithTimeout(context.Background(), 4*finishDeadline)
	t.Cleanup(cancel)
	o := startOperator(t, ctx, false)
	installManifests(t, ctx, o.api, filepath.Join("..", "config", "rbac", "roles.yaml"))
	installManifests(t, ctx, o.api, filepath.Join("..", "config", "admission", "*.yaml"))
	bindRole(t, ctx, o.api, "floor-ann", "pokerfloor-director")
	bindRole(t, ctx, o.api, "cashier-bob", "pokerfloor-registrar")
	return &recordsFixture{operator: o, ctx: ctx, admin: o.api.client,
		ann: userClient(t, o.api, "floor-ann"), bob: userClient(t, o.api, "cashier-bob")}
}

// create creates obj as c once the admission policies have loaded: until the API server records
// the authenticated user in the issued-by annotation, each try is a new object (name-N), which the
// manager refuses for want of an issuer.
func (f *recordsFixture) create(t *testing.T, c client.Client, user string, obj client.Object) {
	t.Helper()
	base := obj.GetName()
	err := eventually(func() error {
		f.names++
		o := obj.DeepCopyObject().(client.Object)
		o.SetName(fmt.Sprintf("%s-%d", base, f.names))
		if err := c.Create(f.ctx, o); err != nil {
			return err
		}
		if got := issuedBy(o); got != user {
			return fmt.Errorf("%s stored as issued by %q, want %q", o.GetName(), got, user)
		}
		obj.SetName(o.GetName())
		obj.SetUID(o.GetUID())
		return nil
	})
	if err != nil {
		t.Fatalf("creating %s as %s: %v", base, user, err)
	}
}

// decided waits for the record's phase to leave Pending and reads it back into obj.
func (f *recordsFixture) decided(t *testing.T, obj client.Object, phase func() string) {
	t.Helper()
	f.decidedWithin(t, obj, stepDeadline, phase)
}

// decidedWithin is decided with its own deadline, for a record of many entries.
func (f *recordsFixture) decidedWithin(t *testing.T, obj client.Object, deadline time.Duration, phase func() string) {
	t.Helper()
	waitFor(t, obj.GetName()+" decided", deadline, func() error {
		if err := f.admin.Get(f.ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		if p := phase(); p == "" || p == "Pending" {
			return fmt.Errorf("phase %q", p)
		}
		return nil
	})
}

// floorAction creates a FloorAction as the director and returns it decided.
func (f *recordsFixture) floorAction(t *testing.T, tournament, name string, spec pokerv1.FloorActionSpec) *pokerv1.FloorAction {
	t.Helper()
	spec.Tournament = tournament
	a := &pokerv1.FloorAction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace}, Spec: spec}
	f.create(t, f.ann, "floor-ann", a)
	f.decided(t, a, func() string { return string(a.Status.Phase) })
	t.Logf("%s %s: %s: %s", a.Name, a.Spec.Action, a.Status.Phase, a.Status.Message)
	return a
}

// wantRecord checks a decided record's phase, its message and its Applied condition.
func wantRecord(t *testing.T, name, phase, wantPhase, message string, conds []metav1.Condition, wants ...string) {
	t.Helper()
	if phase != wantPhase {
		t.Errorf("%s: phase %s (%s), want %s", name, phase, message, wantPhase)
	}
	for _, w := range wants {
		if !strings.Contains(message, w) {
			t.Errorf("%s: message %q does not say %q", name, message, w)
		}
	}
	c := meta.FindStatusCondition(conds, pokerv1.RecordApplied)
	wantStatus := metav1.ConditionFalse
	if wantPhase == "Applied" {
		wantStatus = metav1.ConditionTrue
	}
	if c == nil || c.Status != wantStatus || c.Message == "" {
		t.Errorf("%s: condition %+v, want Applied %s with a message", name, c, wantStatus)
	}
}

// clearStatus wipes a record's status, as if the manager had died after applying it and before
// writing it down: the reconciler applies it again, with the same Update IDs.
func (f *recordsFixture) clearStatus(t *testing.T, obj client.Object) {
	t.Helper()
	if err := f.admin.Get(f.ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		t.Fatal(err)
	}
	switch o := obj.(type) {
	case *pokerv1.Sanction:
		o.Status = pokerv1.SanctionStatus{}
	case *pokerv1.EntryBatch:
		o.Status = pokerv1.EntryBatchStatus{}
	case *pokerv1.FloorAction:
		o.Status = pokerv1.FloorActionStatus{}
	}
	if err := f.admin.Status().Update(f.ctx, obj); err != nil {
		t.Fatal(err)
	}
}

// running creates the tournament and waits for its workflow to run; it returns the workflow's ID.
func (f *recordsFixture) running(t *testing.T, tm *pokerv1.Tournament) string {
	t.Helper()
	if err := f.admin.Create(f.ctx, tm); err != nil {
		t.Fatal(err)
	}
	var id string
	waitFor(t, tm.Name+" running", stepDeadline, func() error {
		var got pokerv1.Tournament
		if err := f.admin.Get(f.ctx, client.ObjectKeyFromObject(tm), &got); err != nil {
			return err
		}
		if got.Status.WorkflowID == "" || (got.Status.Phase != pokerv1.TournamentRunning && got.Status.Phase != pokerv1.TournamentPaused) {
			return fmt.Errorf("status %+v", got.Status)
		}
		id = got.Status.WorkflowID
		return nil
	})
	return id
}

// stopped waits until the tournament's clock is paused and every table has stopped after its hand
// (the workflow quotes a deal only then).
func (f *recordsFixture) stopped(t *testing.T, wf *workflows.Tournament) {
	t.Helper()
	waitFor(t, "every table of "+wf.ID+" stopped", stepDeadline, func() error {
		_, err := wf.DealQuote(f.ctx, workflows.DealRequest{})
		if err != nil && strings.Contains(err.Error(), "R6") {
			return nil // stopped, and no deal for this many players
		}
		return err
	})
}

// settled waits until no player is on his way between tables (a table broken at the pause sends
// its players on while nobody deals) and returns the open tables, at least two. A table held
// short (its players on their way when the clock stopped) is open: the director may move a
// player to it, and it may be the only one with a free seat (a clean clone's CI run paused at
// 9, 9 and 3 held, and a move between the two full tables was refused by R3).
func (f *recordsFixture) settled(t *testing.T, id string) []workflows.TableView {
	t.Helper()
	var open, all []workflows.TableView
	left := 0
	waitFor(t, "the players of "+id+" seated", stepDeadline, func() error {
		v, err := f.temporal.QueryWorkflow(f.ctx, id, "", workflows.StateQuery)
		if err != nil {
			return err
		}
		var st director.TournamentState
		if err := v.Get(&st); err != nil {
			return err
		}
		if st.MovesPending() {
			return fmt.Errorf("players are moving")
		}
		open, all, left = nil, st.TablesView(), st.Left()
		for _, tv := range all {
			if !tv.Closed && !tv.Breaking && tv.Players > 0 {
				open = append(open, tv)
			}
		}
		return nil
	})
	if len(open) < 2 {
		t.Fatalf("%d open tables after the pause, want two or more for a move and a break; %d players left, the tables: %+v", len(open), left, all)
	}
	return open
}

// playOn resumes the paused tournament at key until a player is out (a free seat), and the caller
// pauses it again. A table hears the pause when it next reports: within the table process's
// --report-after (5 s) of bots thinking, not after its batch of twenty hands (at two batches a
// table, a CI run went from two full tables to one: 18 players to 9).
func (f *recordsFixture) playOn(t *testing.T, wf *workflows.Tournament, key client.ObjectKey) {
	t.Helper()
	before := answer(t, "the progress", func() (workflows.Progress, error) { return wf.Progress(f.ctx) })
	setPausedSpec(t, f.ctx, f.admin, key, false)
	waitFor(t, "a player out", stepDeadline, func() error {
		p, err := wf.Progress(f.ctx)
		if err != nil {
			return err
		}
		if p.PlayersLeft >= before.PlayersLeft {
			return fmt.Errorf("%d players left after %d hands, want fewer than %d", p.PlayersLeft, p.HandsPlayed, before.PlayersLeft)
		}
		return nil
	})
}

// hasBalanceSeat says whether a moved player may be seated at v (R3: floor.BalanceSeat).
func hasBalanceSeat(v workflows.TableView) bool {
	ft := floor.Table{ID: v.ID, Seats: make([]floor.PlayerID, len(v.Seats)), Button: v.Button, BigBlind: v.BigBlind}
	for i, p := range v.Seats {
		ft.Seats[i] = floor.PlayerID(p)
	}
	return floor.BalanceSeat(ft) != 0
}

func (f *recordsFixture) event(t *testing.T, name, reason string) {
	t.Helper()
	waitFor(t, "a "+reason+" event about "+name, stepDeadline, func() error {
		var evs eventsv1.EventList
		if err := f.admin.List(f.ctx, &evs, client.InNamespace(testNamespace)); err != nil {
			return err
		}
		for _, e := range evs.Items {
			if e.Regarding.Name == name && e.Reason == reason && e.Note != "" {
				return nil
			}
		}
		return fmt.Errorf("none among %d events", len(evs.Items))
	})
}

// TestOperatorAppliesRecords: Sanctions, an EntryBatch and FloorActions of each kind reach a
// running tournament's workflow by the user the API server authenticated, applied once by their
// UIDs, or refused with the rule that forbids them.
func TestOperatorAppliesRecords(t *testing.T) {
	t.Parallel()
	f := startRecordsFixture(t)
	ctx := f.ctx
	// A record for a tournament that does not exist is refused, saying which and where (and the
	// admission policies are loaded once it is created).
	absent := f.floorAction(t, "absent", "probe", pokerv1.FloorActionSpec{Action: pokerv1.FloorAddTime, AddTime: &pokerv1.AddTimeAction{Seconds: 60}})
	wantRecord(t, absent.Name, string(absent.Status.Phase), "Refused", absent.Status.Message, absent.Status.Conditions,
		`no Tournament "absent" in namespace `+testNamespace)

	tm := simulationTournament("floor", 18)
	tm.Spec.TablePods.Template.Env[0].Value = "200ms"
	// Bots that play their cards: random ones shove every few hands, and a play-on of five hands
	// under two suites side by side took the field from two full tables to one (18 to 8 players).
	tm.Spec.TablePods.Template.Env = append(tm.Spec.TablePods.Template.Env, pokerv1.EnvVar{Name: "POKERFLOOR_TABLE_BOT_STRATEGY", Value: "strength"})
	// Deep stacks (a hundred times the turbo's): two tables or more are left when it pauses
	// below, however fast the machine deals (with 10,000 chips a quiet machine had busted 12 of 21
	// players onto one table by then, at hand 40).
	tm.Spec.StartingStack = 1_000_000
	// No hand-for-hand round (R7) stands in the way of a move when the bubble nears.
	tm.Spec.HandForHand = &pokerv1.HandForHand{Disabled: true}
	tm.Spec.LateRegistration = &pokerv1.LateRegistration{UntilLevel: 40}
	// TDA 2007's threshold (R3): a move from the fullest table to the emptiest keeps the balance
	// whatever the counts at the pause (within two of each other, each side one off).
	tm.Spec.BalanceThreshold = 3
	// Paused from the start, but for the deal refused on a running clock: the tables deal at the
	// bots' pace (a sleep, as fast on a loaded machine) in batches of hands, each played to its
	// end before a pause stops it, and a simulation's field lives so many hands. Hands dealt while
	// a slow machine decided the records were busts nobody waited for: a run had one table left
	// at the pause ("1 open tables after the pause"). A paused table takes its orders at once (a
	// running one at the end of its batch: the sanction waited a minute for it).
	tm.Spec.Paused = true
	id := f.running(t, tm)
	wf := workflows.GetTournament(f.temporal, id)

	t.Run("SanctionAppliedByTheAuthenticatedUser", func(t *testing.T) {
		// A player who busts before his table applies the sanction voids it (the workflow's rule,
		// refused here with its reason): then it is given again, to the chip leader of the moment,
		// a few times at most.
		var s *pokerv1.Sanction
		var leader string
		for try := 1; ; try++ {
			standings := answer(t, "the standings", func() ([]workflows.Standing, error) { return wf.Standings(ctx) })
			i := slices.IndexFunc(standings, func(p workflows.Standing) bool { return p.Status == director.Seated })
			if i < 0 {
				t.Fatalf("nobody seated: %+v", standings)
			}
			leader = standings[i].Player
			s = &pokerv1.Sanction{ObjectMeta: metav1.ObjectMeta{Name: "warn", Namespace: testNamespace},
				Spec: pokerv1.SanctionSpec{Tournament: "floor", Player: leader, Kind: pokerv1.SanctionWarning, Rule: "A14", Reason: "acted out of turn"}}
			f.create(t, f.ann, "floor-ann", s)
			f.decided(t, s, func() string { return string(s.Status.Phase) })
			if s.Status.Phase != pokerv1.SanctionRefused || !strings.Contains(s.Status.Message, "the player was out before the sanction could apply") || try == 5 {
				break
			}
			t.Logf("%s busted before his table applied %s: %s", leader, s.Name, s.Status.Message)
		}
		wantRecord(t, s.Name, string(s.Status.Phase), "Applied", s.Status.Message, s.Status.Conditions, "warning for "+leader, "given by floor-ann")
		st := s.Status
		if st.IssuedBy != "floor-ann" || st.Table < 1 || st.StartsAtHand < 1 || st.DecidedAt == nil || st.ObservedGeneration != s.Generation {
			t.Errorf("status %+v, want issued by floor-ann, a table, the hand it starts at, decidedAt", st)
		}
		recs := answer(t, "the sanctions", func() ([]workflows.SanctionRecord, error) { return wf.Sanctions(ctx) })
		applied := slices.DeleteFunc(slices.Clone(recs), func(r workflows.SanctionRecord) bool { return !r.Applied })
		if len(applied) != 1 || applied[0].Sanction.GivenBy != "floor-ann" || string(applied[0].Sanction.Player) != leader ||
			int32(applied[0].Sanction.Table) != st.Table || int64(applied[0].Sanction.StartsAtHand) != st.StartsAtHand {
			t.Errorf("the workflow's sanctions %+v, want one applied, given by floor-ann to %s as the status says", recs, leader)
		}
		f.event(t, s.Name, "Applied")

		// Reconciled again from nothing (the manager lost what it wrote): the workflow answers
		// from its record, and there is still one sanction.
		f.clearStatus(t, s)
		f.decided(t, s, func() string { return string(s.Status.Phase) })
		if s.Status.Phase != pokerv1.SanctionApplied || s.Status.Table != st.Table || s.Status.StartsAtHand != st.StartsAtHand {
			t.Errorf("reconciled again: status %+v, want the same as %+v", s.Status, st)
		}
		if again := answer(t, "the sanctions", func() ([]workflows.SanctionRecord, error) { return wf.Sanctions(ctx) }); len(again) != len(recs) {
			t.Errorf("reconciled again, the workflow holds %d sanctions, want %d", len(again), len(recs))
		}
	})

	t.Run("SanctionRefusedWithTheRule", func(t *testing.T) {
		s := &pokerv1.Sanction{ObjectMeta: metav1.ObjectMeta{Name: "ghost", Namespace: testNamespace},
			Spec: pokerv1.SanctionSpec{Tournament: "floor", Player: "ghost", Kind: pokerv1.SanctionExclusion, Rounds: 1, Reason: "abuse"}}
		f.create(t, f.ann, "floor-ann", s)
		f.decided(t, s, func() string { return string(s.Status.Phase) })
		wantRecord(t, s.Name, string(s.Status.Phase), "Refused", s.Status.Message, s.Status.Conditions, "rule P6", `no player "ghost"`)
		if s.Status.IssuedBy != "floor-ann" || s.Status.DecidedAt == nil {
			t.Errorf("status %+v, want issued by floor-ann and decidedAt", s.Status)
		}
		f.event(t, s.Name, "Refused")
	})

	t.Run("EntryBatchRegistersOnce", func(t *testing.T) {
		before := answer(t, "the progress", func() (workflows.Progress, error) { return wf.Progress(ctx) })
		b := validEntryBatch("late", "late1", "late2", "late3", "p02")
		b.Spec.Tournament = "floor"
		// A player's entries go in the batch's order: his rebuy after his entry, so that it is
		// refused by the rebuy rules (none in this event, or not seated yet), never as an unknown
		// player.
		b.Spec.Entries = slices.Insert(b.Spec.Entries, 1, pokerv1.Entry{Player: "late1", Kind: pokerv1.EntryRebuy})
		f.create(t, f.bob, "cashier-bob", b)
		f.decided(t, b, func() string { return string(b.Status.Phase) })
		check := func(when string) {
			t.Helper()
			st := b.Status
			if st.Phase != pokerv1.EntryBatchPartlyRefused || st.Accepted != 3 || st.RefusedCount != 2 || len(st.Refused) != 2 ||
				st.Refused[0].Player != "late1" || st.Refused[0].Kind != pokerv1.EntryRebuy || !strings.Contains(st.Refused[0].Reason, "late1") ||
				strings.Contains(st.Refused[0].Reason, "no player") ||
				st.Refused[1].Player != "p02" || !strings.Contains(st.Refused[1].Reason, `"p02" is registered already`) ||
				st.RegisteredBy != "cashier-bob" || st.AppliedAt == nil {
				t.Errorf("%s: status %+v, want 3 accepted, late1's rebuy refused by the rebuy rules and p02 as registered already, registered by cashier-bob", when, st)
			}
			p := answer(t, "the progress", func() (workflows.Progress, error) { return wf.Progress(ctx) })
			if p.Entries != before.Entries+3 {
				t.Errorf("%s: %d entries, want %d", when, p.Entries, before.Entries+3)
			}
		}
		check("applied")
		f.clearStatus(t, b)
		f.decided(t, b, func() string { return string(b.Status.Phase) })
		check("reconciled again")
	})

	t.Run("DealRefusedOnARunningClock", func(t *testing.T) {
		setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), false)
		waitFor(t, "the clock running", stepDeadline, func() error {
			p, err := wf.Progress(ctx)
			if err == nil && p.Paused {
				err = fmt.Errorf("paused")
			}
			return err
		})
		a := f.floorAction(t, "floor", "deal-running", pokerv1.FloorActionSpec{Action: pokerv1.FloorDeal, Deal: &pokerv1.DealAction{Method: "chipChop"}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "rule P6", "pause it first")
	})

	// The floor's actions, on a paused clock so that the tables stand still.
	// The move below needs a free seat: when the busts left every open table full (two of nine
	// at 18 players, seen in a run), play on a few hands and pause again.
	var open []workflows.TableView
	for try := 1; ; try++ {
		setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), true)
		f.stopped(t, wf)
		open = f.settled(t, id)
		if slices.ContainsFunc(open, hasBalanceSeat) || try == 10 {
			break
		}
		t.Logf("every open table is full at the pause (%d tables): playing on: %+v", len(open), open)
		f.playOn(t, wf, client.ObjectKeyFromObject(tm))
	}

	t.Run("ABatchOfAThousandDecidedEntryByEntry", func(t *testing.T) {
		// A thousand rebuys for players who never entered, in one RebuyBatch Update: each one
		// refused with its reason, on the paused clock. (One Update each, eight in flight, took
		// over ten minutes with two suites side by side, load 13; alone 0.9 s now.)
		var players []string
		for i := 1; i <= pokerv1.MaxEntriesPerBatch; i++ {
			players = append(players, fmt.Sprintf("ghost-%04d", i))
		}
		b := validEntryBatch("rebuys", players...)
		b.Spec.Tournament = "floor"
		for i := range b.Spec.Entries {
			b.Spec.Entries[i].Kind = pokerv1.EntryRebuy
		}
		start := time.Now()
		f.create(t, f.bob, "cashier-bob", b)
		f.decidedWithin(t, b, finishDeadline, func() string { return string(b.Status.Phase) })
		t.Logf("%d entries decided in %v", len(b.Spec.Entries), time.Since(start).Round(time.Millisecond))
		st := b.Status
		if st.Phase != pokerv1.EntryBatchRefused || st.Accepted != 0 || st.RefusedCount != pokerv1.MaxEntriesPerBatch || len(st.Refused) != pokerv1.MaxEntriesPerBatch {
			t.Fatalf("phase %s, %d accepted, %d refused (%d listed), want all %d refused", st.Phase, st.Accepted, st.RefusedCount, len(st.Refused), pokerv1.MaxEntriesPerBatch)
		}
		for i, r := range st.Refused {
			if r.Player != players[i] || r.Kind != pokerv1.EntryRebuy || r.Reason != fmt.Sprintf("no player %q", players[i]) {
				t.Fatalf("refused[%d] = %+v, want %s's rebuy refused as no such player", i, r, players[i])
			}
		}
	})
	t.Run("AddTimeRefusedInASimulation", func(t *testing.T) {
		a := f.floorAction(t, "floor", "add-time", pokerv1.FloorActionSpec{Action: pokerv1.FloorAddTime, AddTime: &pokerv1.AddTimeAction{Seconds: 120}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "rule B3", "simulation")
	})
	// Before the move below: once it is ordered its player is on his way until his table has
	// dealt, and every other move waits for that (R3).
	t.Run("MoveRefusedWithTheRule", func(t *testing.T) {
		// A player seated at the pause (late1, a late entry, may have busted by then: the move
		// would be refused for him, not for the table).
		player := ""
		for _, v := range open {
			for _, p := range v.Seats {
				if p != "" && player == "" {
					player = p
				}
			}
		}
		a := f.floorAction(t, "floor", "move-nowhere", pokerv1.FloorActionSpec{Action: pokerv1.FloorMove,
			Move: &pokerv1.MoveAction{Player: player, ToTable: 99}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "rule R3", "table 99 does not exist")
	})
	t.Run("MoveApplied", func(t *testing.T) {
		// From the fullest table to the emptiest that has R3's seat free (the free seat left of
		// the big blind: a table whose only free seat is the next small blind's takes nobody).
		tables := slices.Clone(open)
		slices.SortFunc(tables, func(a, b workflows.TableView) int { return b.Players - a.Players })
		var from, to workflows.TableView
		for _, v := range tables {
			if hasBalanceSeat(v) {
				to = v // the last one with the seat free: the emptiest
			}
		}
		for _, v := range tables {
			if v.ID != to.ID {
				from = v // the first other: the fullest
				break
			}
		}
		t.Logf("tables at the pause: %+v", tables)
		player := ""
		for _, p := range from.Seats {
			if p != "" {
				player = p
				break
			}
		}
		a := f.floorAction(t, "floor", "move", pokerv1.FloorActionSpec{Action: pokerv1.FloorMove, Reason: "balance by hand",
			Move: &pokerv1.MoveAction{Player: player, ToTable: int32(to.ID)}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Applied", a.Status.Message, a.Status.Conditions,
			fmt.Sprintf("%s moves from table %d seat %d to table %d seat ", player, from.ID, slices.Index(from.Seats, player)+1, to.ID))
		tools := answer(t, "the tools", func() (workflows.ToolsState, error) { return wf.Tools(ctx) })
		if len(tools.Moves) != 1 || tools.Moves[0].By != "floor-ann" || string(tools.Moves[0].Move.Player) != player ||
			!strings.Contains(a.Status.Message, fmt.Sprintf("to table %d seat %d ", to.ID, tools.Moves[0].Move.ToSeat)) {
			t.Errorf("the workflow's moves %+v, want the one the status says, by floor-ann", tools.Moves)
		}
		msg := a.Status.Message
		f.clearStatus(t, a)
		f.decided(t, a, func() string { return string(a.Status.Phase) })
		if tools := answer(t, "the tools", func() (workflows.ToolsState, error) { return wf.Tools(ctx) }); len(tools.Moves) != 1 || a.Status.Message != msg {
			t.Errorf("reconciled again: %d moves, message %q", len(tools.Moves), a.Status.Message)
		}
	})
	t.Run("BreakTableApplied", func(t *testing.T) {
		n := open[0].ID
		a := f.floorAction(t, "floor", "break", pokerv1.FloorActionSpec{Action: pokerv1.FloorBreakTable, BreakTable: &pokerv1.BreakTableAction{Table: int32(n)}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Applied", a.Status.Message, a.Status.Conditions, fmt.Sprintf("table %d breaks next", n))
		tools := answer(t, "the tools", func() (workflows.ToolsState, error) { return wf.Tools(ctx) })
		broken := slices.ContainsFunc(tools.Breaks, func(b floor.TableBreak) bool { return b.Table == n && b.By == "floor-ann" })
		if next := tools.BreakNext; !broken && (next == nil || next.Table != n || next.By != "floor-ann") {
			t.Errorf("the workflow's breaks %+v and next %+v, want table %d by floor-ann", tools.Breaks, next, n)
		}
	})
	t.Run("UnregisterRefusedAfterTheStart", func(t *testing.T) {
		a := f.floorAction(t, "floor", "unregister", pokerv1.FloorActionSpec{Action: pokerv1.FloorUnregister, Unregister: &pokerv1.UnregisterAction{Player: "late2"}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "rule R1", "the tournament has started")
	})
	t.Run("RemoveNoShowsRefusedWithoutNoShowTime", func(t *testing.T) {
		a := f.floorAction(t, "floor", "no-shows", pokerv1.FloorActionSpec{Action: pokerv1.FloorRemoveNoShows,
			RemoveNoShows: &pokerv1.RemoveNoShowsAction{Players: []string{"late3"}}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "rule T4")
	})
	t.Run("DealApplied", func(t *testing.T) {
		six := simulationTournament("six-deal", 6)
		six.Spec.Paused = true // paused before its tables deal much: six players stay for the deal
		sixWF := workflows.GetTournament(f.temporal, f.running(t, six))
		var quote workflows.DealQuote
		terms := floor.DealTerms{Reserve: 500}
		waitFor(t, "the six-player tournament stopped for a deal", stepDeadline, func() (err error) {
			quote, err = sixWF.DealQuote(ctx, workflows.DealRequest{Terms: terms})
			return err
		})
		a := f.floorAction(t, "six-deal", "deal", pokerv1.FloorActionSpec{Action: pokerv1.FloorDeal,
			Deal: &pokerv1.DealAction{Method: "chipChop", LeaveForWinnerCents: 500}})
		var prizes []string
		var total int64
		for i, p := range quote.Players {
			prizes = append(prizes, fmt.Sprintf("%s %s", p, money(quote.ChipChop[i], "EUR")))
			total += quote.ChipChop[i]
		}
		wantRecord(t, a.Name, string(a.Status.Phase), "Applied", a.Status.Message, a.Status.Conditions,
			"deal by chip chop approved by floor-ann: "+strings.Join(prizes, ", ")+"; EUR 5.00 left to play for")
		// Money is exact: the deal and the reserve are the prizes still to be won, to the cent.
		var pool int64
		for _, p := range quote.Prizes {
			pool += p
		}
		if total+500 != pool {
			t.Errorf("the deal shares %d cents and keeps 500, the prizes left are %d", total, pool)
		}
		again := f.floorAction(t, "six-deal", "deal-again", pokerv1.FloorActionSpec{Action: pokerv1.FloorDeal, Deal: &pokerv1.DealAction{Method: "icm"}})
		wantRecord(t, again.Name, string(again.Status.Phase), "Refused", again.Status.Message, again.Status.Conditions, "rule P6", "a deal was made already")
		f.event(t, a.Name, "Applied")
		f.event(t, again.Name, "Refused")
	})
	f.event(t, absent.Name, "Refused")

	t.Run("TakenInATournamentOfSections", func(t *testing.T) {
		// The API has no setting for small sections: the test starts the workflow itself, as the
		// manager would (same ID, same spec) but split into sections of one table, while the
		// Tournament waits for its start time.
		big := simulationTournament("sections", 18)
		big.Spec.LateRegistration = &pokerv1.LateRegistration{UntilLevel: 40}
		big.Spec.StartTime = &metav1.Time{Time: time.Now().Add(24 * time.Hour)}
		if err := f.admin.Create(ctx, big); err != nil {
			t.Fatal(err)
		}
		spec, err := workflowSpec(big)
		if err != nil {
			t.Fatal(err)
		}
		spec.SectionTables = 1
		if !spec.Sectioned() {
			t.Fatalf("spec %+v is not split into sections", spec)
		}
		if _, err := workflows.StartTournament(ctx, f.temporal, tournamentWorkflowID(big), "", spec); err != nil {
			t.Fatal(err)
		}
		// A tournament of sections takes the records for its players in their sections: a late
		// entry through the tournament (one RegisterBatch Update), seated by a section; a move by
		// hand stays in the player's section (R3: the tournament balances the sections itself).
		b := validEntryBatch("sections-late", "late9")
		b.Spec.Tournament = "sections"
		f.create(t, f.bob, "cashier-bob", b)
		f.decided(t, b, func() string { return string(b.Status.Phase) })
		if b.Status.Phase != pokerv1.EntryBatchApplied || b.Status.Accepted != 1 || len(b.Status.Refused) != 0 {
			t.Errorf("status %+v, want late9's entry accepted by the tournament of sections", b.Status)
		}
		a := f.floorAction(t, "sections", "move-across", pokerv1.FloorActionSpec{Action: pokerv1.FloorMove,
			Move: &pokerv1.MoveAction{Player: "p03", ToTable: 99}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "rule R3")
	})

	t.Run("AddTimeAppliedNoShowsTooEarly", func(t *testing.T) {
		live := validTournament("live")
		live.Spec.Players = append(live.Spec.Players, "eve", "fay", "gus", "hal", "ida", "jon")
		live.Spec.NoShow = &pokerv1.NoShow{AfterMinutes: 60}
		liveWF := workflows.GetTournament(f.temporal, f.running(t, live))
		early := f.floorAction(t, "live", "no-shows-early", pokerv1.FloorActionSpec{Action: pokerv1.FloorRemoveNoShows,
			RemoveNoShows: &pokerv1.RemoveNoShowsAction{Players: []string{"jon"}}})
		wantRecord(t, early.Name, string(early.Status.Phase), "Refused", early.Status.Message, early.Status.Conditions,
			"rule T4", "an absent player is late, not a no-show: he is removed after 1h0m0s")
		a := f.floorAction(t, "live", "add-time", pokerv1.FloorActionSpec{Action: pokerv1.FloorAddTime, Reason: "a dispute at table 1",
			AddTime: &pokerv1.AddTimeAction{Seconds: 120}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Applied", a.Status.Message, a.Status.Conditions, "added 2m0s to level 1: ", " left in it")
		off := f.floorAction(t, "live", "take-time", pokerv1.FloorActionSpec{Action: pokerv1.FloorAddTime, AddTime: &pokerv1.AddTimeAction{Seconds: -60}})
		wantRecord(t, off.Name, string(off.Status.Phase), "Applied", off.Status.Message, off.Status.Conditions, "took 1m0s off level 1: ")
		clock := answer(t, "the clock", func() (workflows.ClockView, error) { return liveWF.Clock(ctx) })
		var added []time.Duration
		for _, e := range clock.Events {
			if e.Kind == floor.ClockAddTime && e.By == "floor-ann" {
				added = append(added, e.Add)
			}
		}
		if !slices.Equal(added, []time.Duration{2 * time.Minute, -time.Minute}) {
			t.Errorf("the clock's events %+v, want 2m added and 1m taken off by floor-ann", clock.Events)
		}
		// The level's 20 minutes, 2 added, 1 taken off: whatever has run since, never more than 21.
		if r := clock.State.Remaining; r > 21*time.Minute || r <= 0 {
			t.Errorf("%v left in level 1, want at most 21m", r)
		}
	})

	t.Run("RefusedForATournamentThatCannotStart", func(t *testing.T) {
		// The API server accepts a bounty; the workflows do not play one yet (controllers/spec.go).
		never := validTournament("addon-event")
		never.Spec.Players = append(never.Spec.Players, "eve", "fay", "gus", "hal", "ida", "jon")
		never.Spec.Bounty = &pokerv1.Bounty{AmountCents: 500}
		if err := f.admin.Create(ctx, never); err != nil {
			t.Fatal(err)
		}
		const why = "spec.bounty is not played by this version of the tournament workflows"
		waitFor(t, "the add-on event failed as InvalidSpec", stepDeadline, func() error {
			var got pokerv1.Tournament
			if err := f.admin.Get(ctx, client.ObjectKeyFromObject(never), &got); err != nil {
				return err
			}
			c := meta.FindStatusCondition(got.Status.Conditions, pokerv1.TournamentWorkflowRunning)
			if got.Status.Phase != pokerv1.TournamentFailed || c == nil || c.Reason != "InvalidSpec" || !strings.Contains(c.Message, why) {
				return fmt.Errorf("phase %s, condition %+v", got.Status.Phase, c)
			}
			return nil
		})
		f.event(t, never.Name, "InvalidSpec")
		a := f.floorAction(t, "addon-event", "add-time-never", pokerv1.FloorActionSpec{Action: pokerv1.FloorAddTime, AddTime: &pokerv1.AddTimeAction{Seconds: 60}})
		wantRecord(t, a.Name, string(a.Status.Phase), "Refused", a.Status.Message, a.Status.Conditions, "Tournament addon-event never started: ", why)
	})
}
