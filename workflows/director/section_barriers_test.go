package director

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSeededSectionsIgnoreScheduling: a seeded simulation of sections plays the same tournament
// whatever the order in which its tables report and the orders and events between its tournament,
// sections and tables are delivered (late, out of order, twice): the same places and prizes, the
// same hands. The tournament keeps barriers across its sections (TopState.stepBarriers). Among
// the fields: sections of two to five tables, which drain and merge at nearly every barrier; a
// section of 56 tables beside one of 100; hand-for-hand rounds across sections at every bubble.
func TestSeededSectionsIgnoreScheduling(t *testing.T) { // rules R3, R4, R5, R7
	for _, c := range []struct {
		players, sectionTables int
		seed                   uint64
	}{{250, 2, 20}, {300, 5, 1}, {600, 10, 42}, {1000, 56, 7}, {2000, 20, 3}} {
		t.Run(fmt.Sprintf("%d players, %d tables a section, seed %d", c.players, c.sectionTables, c.seed), func(t *testing.T) {
			var first []Place
			var firstHands int
			for delivery := uint64(1); delivery <= 4; delivery++ {
				places, hands := playSeededSections(t, c.players, c.sectionTables, c.seed, delivery, PlanLatest)
				if first == nil {
					first, firstHands = places, hands
					t.Logf("%d places, %d hands; first %+v", len(places), hands, places[0])
					continue
				}
				if hands != firstHands || !reflect.DeepEqual(places, first) {
					t.Fatalf("delivery %d dealt %d hands and placed %v; delivery 1 dealt %d and placed %v",
						delivery, hands, places[:5], firstHands, first[:5])
				}
			}
		})
	}
}

// TestSectionsWithoutBarriersFollowScheduling: a run recorded before PlanBarriers keeps no barriers
// across its sections, and the scheduling changes its tournament: what the test above proves is
// the barriers' doing.
func TestSectionsWithoutBarriersFollowScheduling(t *testing.T) {
	first, firstHands := playSeededSections(t, 1000, 56, 7, 1, PlanOutwaitsSections)
	for delivery := uint64(2); delivery <= 4; delivery++ {
		places, hands := playSeededSections(t, 1000, 56, 7, delivery, PlanOutwaitsSections)
		if hands != firstHands || !reflect.DeepEqual(places, first) {
			return
		}
	}
	t.Fatalf("four deliveries without barriers played one tournament (%d hands): the scheduling decides nothing, and the test above proves nothing", firstHands)
}

// playSeededSections plays a seeded field of sections to its end with the tournament's planning
// at version plan and the scheduling drawn from delivery, and returns every place given (best
// first) and the hands dealt.
func playSeededSections(t *testing.T, players, sectionTables int, seed, delivery uint64, plan int) ([]Place, int) {
	t.Helper()
	spec := simSpec(players)
	spec.Seed = seed
	spec.SectionTables = sectionTables
	spec.Payouts = floor.PayoutStructure{PaidPercent: 15}
	sim := newSectionSimPlan(t, spec, seed, plan)
	if len(sim.top.Sections) < 2 || sim.top.barriers() != (plan >= PlanBarriers) {
		t.Fatalf("%d sections, barriers %v at plan %d: want several, with barriers from PlanBarriers", len(sim.top.Sections), sim.top.barriers(), plan)
	}
	sim.rng = rand.New(rand.NewPCG(delivery, 11))
	for n, f := range sim.sections {
		f.rng = rand.New(rand.NewPCG(delivery, 100+uint64(n)))
		f.byHand = true
	}
	playToEnd(t, sim)
	if sim.burst != "" {
		t.Fatalf("delivery %d: %s", delivery, sim.burst)
	}
	places := append(sim.written, sim.top.Unwritten...)
	hands := 0
	for _, f := range sim.sections {
		hands += f.hands
	}
	slices.SortFunc(places, func(a, b Place) int {
		return cmp.Or(cmp.Compare(a.Place, b.Place), strings.Compare(a.Player, b.Player))
	})
	return places, hands
}

// TestProgressCountsUnplacedEliminations: between two barriers the players the sections told out
// are out of the progress's count, though their places wait for the barrier (at 100,000 entries
// the first barrier is minutes away).
func TestProgressCountsUnplacedEliminations(t *testing.T) {
	spec := simSpec(2000)
	spec.Seed = 5
	spec.SectionTables = 20
	top, _, err := NewTopState("big", spec, 5, 0, simStart)
	if err != nil {
		t.Fatal(err)
	}
	top.Unplaced = []TableBusts{
		{Table: 3, BustGroup: BustGroup{Hand: 4, Eliminated: []floor.Elimination{{Player: "p0001"}}}},
		{Table: 90, BustGroup: BustGroup{Hand: 2, Eliminated: []floor.Elimination{{Player: "p0002"}, {Player: "p0003"}}}},
	}
	if p := top.Progress(simStart); p.PlayersLeft != 1997 || top.Left != 2000 {
		t.Fatalf("%d players left in the progress, %d in the count: want 1,997 and 2,000 (the places wait for the barrier)", p.PlayersLeft, top.Left)
	}
}

// TestBarriersUpToBarrierTables: a seeded simulation keeps barriers across its sections up to
// BarrierTables tables, and plays as before them above (a barrier held a 100,000-entry field still
// for minutes); an unseeded one never keeps them, nor from PlanBarriersAtMaxSpeed one paced by the
// clock.
func TestBarriersUpToBarrierTables(t *testing.T) {
	for _, c := range []struct {
		players, plan int
		seed          uint64
		pace          time.Duration
		want          bool
	}{{18000, PlanBarriers, 7, 0, true}, {18001, PlanBarriers, 7, 0, false}, {18000, PlanLatest, 7, 0, true},
		{18001, PlanLatest, 7, 0, false}, {100000, PlanLatest, 7, 0, false}, {10000, PlanLatest, 0, 0, false},
		{10000, PlanLatest, 7, time.Second, false}, {10000, PlanBarrierCounts, 7, time.Second, true}} {
		spec := simSpec(c.players)
		spec.Seed, spec.Pace = c.seed, c.pace
		top, starts, err := NewTopState("big", spec, 7, 0, simStart)
		if err != nil {
			t.Fatal(err)
		}
		top.SetPlan(c.plan, starts)
		if top.barriers() != c.want || (starts[0].Horizon > 0) != c.want {
			t.Errorf("%d players on %d tables, seed %d, pace %v, plan %d: barriers %v (the sections' first horizon %d), want %v",
				c.players, top.TablesOpened, c.seed, c.pace, c.plan, top.barriers(), starts[0].Horizon, c.want)
		}
	}
}

// TestBarrierPlanCountsTheTablesSectionsKeep: at a barrier no section has broken a table since the
// last, so the tournament's plan counts each section's tables as those it keeps once it has broken
// its own (enough for its players, R4 inside it), not the tables it stopped at. Counted at those,
// a field that lost 38 % in a window looks that empty in every section, and the plan closed whole
// sections and moved their players: at 100,000 entries 20,940 of 61,416, the field stopped for
// minutes on them. From PlanBarrierCounts the plan takes off only the tables the field holds beyond
// its players' need (about one a section, from the sections with the fewest: a few merge).
func TestBarrierPlanCountsTheTablesSectionsKeep(t *testing.T) { // rules R3, R4
	moved := func(plan int) (players, closing int) {
		// Every section at the barrier on its 20 tables with 110 to 114 players, 66 to 70 out since
		// the start (the field down to 11,200).
		return planOnce(t, 7, plan, true, func(i int, top *TopState) SectionEvent {
			return SectionEvent{Players: 20*9 - 66 - i%5, Tables: 20, Settled: true, Barrier: top.Horizon}
		})
	}
	players, closing := moved(PlanLatest)
	if field := 11200; players > field/20 || closing > 5 {
		t.Errorf("the plan at a barrier moved %d players of %d between the 100 sections and closed %d: want at most 5 %% of the field, 5 sections", players, field, closing)
	}
	before, closedBefore := moved(PlanBarriers)
	t.Logf("moved %d players, closed %d sections (PlanBarriers: %d, %d)", players, closing, before, closedBefore)
	if before <= 4*players {
		t.Errorf("PlanBarriers moved %d players, not four times the %d now: the test proves nothing", before, players)
	}
}

// TestPlanCountsTheTablesSectionsKeep: without barriers a section breaks its tables beside play,
// and its breaks lag its eliminations; the tournament's plan counts each section's tables as
// those it keeps once it has broken its own down to what its players fill (R4 inside it), as at a
// barrier, not those it has not broken yet. Counted at those (before PlanKeptTables), a field
// whose sections are all a few breaks behind looks short of players everywhere, and the plan
// closed whole sections and moved their players: a 30,000-entry run drained 13 of its 34 sections
// at once. Now it takes off only the tables the field holds beyond its players' need (about one a
// section, from the sections with the fewest).
func TestPlanCountsTheTablesSectionsKeep(t *testing.T) { // rules R3, R4
	moved := func(plan int) (players, closing int) {
		// Every section on its 20 tables with 110 to 114 players, breaking two, its moves under
		// way; no seed: no barriers.
		return planOnce(t, 0, plan, false, func(i int, _ *TopState) SectionEvent {
			return SectionEvent{Players: 20*9 - 66 - i%5, Tables: 20, Breaking: 2}
		})
	}
	players, closing := moved(PlanLatest)
	if field := 11200; players > field/20 || closing > 5 {
		t.Errorf("the plan moved %d players of %d between the 100 sections and closed %d: want at most 5 %% of the field, 5 sections", players, field, closing)
	}
	before, closedBefore := moved(PlanKeptTables - 1)
	t.Logf("moved %d players, closed %d sections (plan %d: %d, %d)", players, closing, PlanKeptTables-1, before, closedBefore)
	if before <= 4*players || closedBefore <= 4*closing {
		t.Errorf("plan %d moved %d players and closed %d sections, not four times the %d and %d now: the test proves nothing", PlanKeptTables-1, before, closedBefore, players, closing)
	}
}

// planOnce is the tournament's plan between the 100 sections of 20 tables of an 18,000-entry
// simulation of seed seed on plan, each section's counts from last, every order applied: the
// players it moves between sections and the sections it closes. barriers: the field keeps them.
func planOnce(t *testing.T, seed uint64, plan int, barriers bool, last func(i int, top *TopState) SectionEvent) (players, closing int) {
	t.Helper()
	spec := simSpec(18000)
	spec.Seed = seed
	spec.SectionTables = 20
	top, starts, err := NewTopState("big", spec, 7, 0, simStart)
	if err != nil {
		t.Fatal(err)
	}
	top.SetPlan(plan, starts)
	if top.barriers() != barriers {
		t.Fatalf("plan %d: barriers %v, want %v", plan, top.barriers(), barriers)
	}
	for i := range top.Sections {
		r := &top.Sections[i]
		r.Last = last(i, top)
		r.Last.Section = r.Number
		for r.Orders.Pending() {
			msgs := r.Orders.Take()
			r.Orders.Ack(msgs[len(msgs)-1].Seq)
		}
	}
	top.planSections()
	for i := range top.Sections {
		r := &top.Sections[i]
		for _, m := range r.Orders.Take() {
			if o := m.Msg.SendOut; o != nil {
				players += o.Players
			}
		}
		if r.Phase == SectionDraining {
			closing++
		}
	}
	return players, closing
}
