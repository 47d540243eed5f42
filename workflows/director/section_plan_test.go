package director

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// planWatch follows a section simulation step by step, from the tournament's side: the tables
// the split of the field among its sections costs beyond R4's need, the players the tournament
// ordered from one section to another, the steps a section held one player alone, and how often
// some section had a move of its own under way.
type planWatch struct {
	size    int
	steps   int
	moving  int // steps at which some section in play had a move of its own under way
	sent    int // players ordered from one section to another
	seen    map[[2]int]bool
	split   []int // Σ ceil(players/size) over the sections, less ceil(field/size), a step
	excess  []int // tables open less those R4 needs for the field, a step
	aloneAt map[int]int
	alone   int // most steps a section held one player alone while another section had seats
}

func newPlanWatch(size int) *planWatch {
	return &planWatch{size: size, seen: map[[2]int]bool{}, aloneAt: map[int]int{}}
}

// orders counts the players the tournament orders out of a section (each SendOut once, however
// often it is resent).
func (w *planWatch) orders(top *TopState) {
	for i := range top.Sections {
		r := &top.Sections[i]
		for _, m := range r.Orders.Unacked {
			if o := m.Msg.SendOut; o != nil && !w.seen[[2]int{r.Number, m.Seq}] {
				w.seen[[2]int{r.Number, m.Seq}] = true
				w.sent += o.Players
			}
		}
	}
}

// look takes one step's counts from the sections' own states; measured says the step counts in
// the figures (the field's first busts and the hand-for-hand rounds do not).
func (w *planWatch) look(sim *sectionSim, measured bool) {
	w.steps++
	left := sim.top.Left
	need := (left + w.size - 1) / w.size
	open, split, seats, moving := 0, 0, 0, false
	for _, n := range sortedKeys(sim.sections) {
		f := sim.sections[n]
		if f.s.Finished {
			continue
		}
		open += f.s.OpenTables()
		split += (f.s.Left() + w.size - 1) / w.size
		seats += f.s.OpenTables()*w.size - f.s.Left()
		moving = moving || f.s.MovesPending()
	}
	for _, n := range sortedKeys(sim.sections) {
		f := sim.sections[n]
		others := seats - (f.s.OpenTables()*w.size - f.s.Left())
		if !f.s.Finished && f.s.Left() == 1 && left > 1 && others > 0 {
			if _, ok := w.aloneAt[n]; !ok {
				w.aloneAt[n] = w.steps
			}
			w.alone = max(w.alone, w.steps-w.aloneAt[n])
		} else {
			delete(w.aloneAt, n)
		}
	}
	if !measured {
		return
	}
	if moving {
		w.moving++
	}
	w.split = append(w.split, split-need)
	w.excess = append(w.excess, open-need)
}

func mean[T int | float64](xs []T) float64 {
	var sum T
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(max(len(xs), 1))
}

func quantile(xs []int, q float64) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(int(float64(len(s))*q), len(s)-1)]
}

// TestSectionsPlanBesideTheirOwnMoves: 2,000 entries in twelve sections of 20 tables, every
// message between the layers late, reordered or repeated, the sections' tables reporting at random
// so that at nearly every step some section has a move of its own under way. The tournament
// planned between its sections only when every section was settled at once, which almost never
// held: the sections kept the players the field's first busts left them, a section's few players
// stayed apart on tables of their own (a lone player for a hundred steps and more: R4, a table of
// one cannot play), and the field's tables were split three to four more than R4 needs at the
// median (3.4 to 3.9 on average). Now it plans whenever nobody is on his way between two sections, every order is applied
// and no section owes players to another: transfers are ordered, the split costs a table or two
// (1.4 to 1.8 on average), a lone player goes at once, and chips, places and prizes hold (R1, R5, R6, R7).
func TestSectionsPlanBesideTheirOwnMoves(t *testing.T) { // rules R3, R4
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			spec := simSpec(2000)
			spec.SectionTables = 20
			sim := newSectionSim(t, spec, seed)
			if n := len(sim.top.Sections); n != 12 {
				t.Fatalf("%d sections, want 12", n)
			}
			w := newPlanWatch(spec.TableSize)
			for k := 0; !sim.top.Finished; k++ {
				if k == 200000 {
					t.Fatalf("not finished: %d left", sim.top.Left)
				}
				w.orders(sim.top)
				sim.once()
				w.look(sim, sim.top.Left < spec.PlayerCount*6/10 && !sim.top.HandForHand.On)
			}
			playToEnd(t, sim) // the sections close; every place once, the prizes the pool
			t.Logf("%d steps, %d measured (%d with a section's own move under way); %d players sent between sections; "+
				"tables beyond R4's need: the split %.2f (median %d, p90 %d), open %.2f (median %d, p90 %d); a lone player at most %d steps",
				w.steps, len(w.split), w.moving, w.sent, mean(w.split), quantile(w.split, 0.5), quantile(w.split, 0.9),
				mean(w.excess), quantile(w.excess, 0.5), quantile(w.excess, 0.9), w.alone)
			// 89.7 % to 98 % over seeds 1 to 12 once sections' tables took no level orders in a
			// simulation (PaceSectionLevels: fewer orders to apply, moves done sooner); 84.7 % at
			// seed 2 once they dealt batches in the approach (PaceSlideBatch).
			if w.moving*100 < len(w.split)*80 {
				t.Errorf("a section's own move under way at %d of %d steps: the simulation does not keep the sections moving", w.moving, len(w.split))
			}
			if w.sent == 0 {
				t.Error("no player was sent from one section to another")
			}
			if m := mean(w.split); m > 2.5 || quantile(w.split, 0.5) > 2 {
				t.Errorf("the split of the field among its sections costs %.2f tables beyond R4's need on average (median %d): want at most 2.5 (2): "+
					"the tournament does not plan between its sections while they move (R4)", m, quantile(w.split, 0.5))
			}
			if w.alone > 20 {
				t.Errorf("a section held a lone player for %d steps while others had seats: want at most 20 (R4: a table of one cannot play)", w.alone)
			}
		})
	}
}

// topEvents feeds section events to a TopState by hand, each the next of its section, and steps
// the tournament.
type topEvents struct {
	t   *testing.T
	top *TopState
	seq map[int]int
}

func newTopEvents(t *testing.T, players, sectionTables int) *topEvents {
	spec := simSpec(players)
	spec.SectionTables = sectionTables
	spec.HandForHandBefore = -1 // no bubble's approach or rounds: the plan alone
	top, _, err := NewTopState("plan", spec, 1, 0, simStart)
	if err != nil {
		t.Fatal(err)
	}
	top.Tick(simStart)
	return &topEvents{t: t, top: top, seq: map[int]int{}}
}

// send is section n's next event: every order sent to it applied, the counts given.
func (e *topEvents) send(n int, ev SectionEvent) {
	e.seq[n]++
	ev.Section, ev.Acked = n, e.top.Section(n).Orders.Sent
	e.top.OnEvents(n, []Numbered[SectionEvent]{{Seq: e.seq[n], Msg: ev}})
	e.top.Step(simStart)
}

// sendOuts are the SendOut orders queued for section n and not yet acknowledged.
func (e *topEvents) sendOuts(n int) []SendOutOrder {
	return unackedOrders(e, n, func(o SectionOrder) *SendOutOrder { return o.SendOut })
}

// rounds are the hand-for-hand rounds ordered to section n and not yet acknowledged.
func (e *topEvents) rounds(n int) []SectionRound {
	return unackedOrders(e, n, func(o SectionOrder) *SectionRound { return o.HandForHand })
}

// unackedOrders are the parts of the orders queued for section n and not yet acknowledged that
// part picks (nil: an order of another kind).
func unackedOrders[T any](e *topEvents, n int, part func(SectionOrder) *T) []T {
	var out []T
	for _, m := range e.top.Section(n).Orders.Unacked {
		if p := part(m.Msg); p != nil {
			out = append(out, *p)
		}
	}
	return out
}

// TestTopPlansBesideSectionsOwnMoves: three sections, each with a move of its own under way
// (not settled), none owing and every order applied: the tournament plans between them (R3, R4),
// where it waited for every section to be settled at once before. It does not plan while a
// section owes players to another, while an order is not yet applied, or while a player is on his
// way between two: the counts would not be the sections' own.
func TestTopPlansBesideSectionsOwnMoves(t *testing.T) { // rules R3, R4
	e := newTopEvents(t, 54, 2) // three sections of two tables, 18 players each
	if n := len(e.top.Sections); n != 3 {
		t.Fatalf("%d sections, want 3", n)
	}
	// Section 1 lost 8 players (10 on two tables), the others none; all three moving inside.
	e.send(1, SectionEvent{Players: 10, Tables: 2, Owing: 0})
	e.send(2, SectionEvent{Players: 18, Tables: 2})
	e.send(3, SectionEvent{Players: 17, Tables: 2, Owing: 1}) // owes one to another section
	if out := append(e.sendOuts(1), e.sendOuts(2)...); len(out) > 0 {
		t.Fatalf("planned while section 3 owes a player: %+v", out)
	}
	e.send(3, SectionEvent{Players: 17, Tables: 2}) // its SendOut done, moves of its own still under way
	var sent int
	for n := 1; n <= 3; n++ {
		for _, o := range e.sendOuts(n) {
			if !o.Beside {
				t.Errorf("section %d told to send %+v once its own moves are done: want beside them", n, o)
			}
			sent += o.Players
		}
	}
	// 45 players need 5 tables of 9 (R4): one section keeps one table, and section 1 (10 players
	// on two tables) is short of its share.
	if sent == 0 {
		t.Fatalf("no plan between sections moving inside (every section unsettled): orders %+v %+v %+v", e.sendOuts(1), e.sendOuts(2), e.sendOuts(3))
	}
	// While the plan's orders are on their way, no other plan.
	before := e.top.Section(1).Orders.Sent + e.top.Section(2).Orders.Sent + e.top.Section(3).Orders.Sent
	e.send(2, SectionEvent{Players: 16, Tables: 2, Acked: 0})
	if after := e.top.Section(1).Orders.Sent + e.top.Section(2).Orders.Sent + e.top.Section(3).Orders.Sent; after != before {
		t.Errorf("planned again before the last plan's orders were applied: %d orders, %d before", after, before)
	}
}

// TestLonePlayerInASectionMovesAtOnce: a section with one player left, whose table cannot deal
// (R4: a table of one cannot play), sends him to another section at once, though the other
// sections are not plannable (one owes players, another has moves of its own under way), and
// drains; once empty it closes. A section whose few players the others cannot seat stays.
func TestLonePlayerInASectionMovesAtOnce(t *testing.T) { // rule R4
	e := newTopEvents(t, 54, 2)
	e.send(2, SectionEvent{Players: 15, Tables: 2})           // moving inside
	e.send(3, SectionEvent{Players: 14, Tables: 2, Owing: 2}) // owes two to another section
	e.send(1, SectionEvent{Players: 1, Tables: 1, Last: "p0001", Settled: true})
	out := e.sendOuts(1)
	if len(out) != 1 || out[0].Players != 1 || out[0].To != 2 || !out[0].Beside {
		t.Fatalf("the lone player's section was told %+v: want him sent at once to section 2 (the fullest with seats free)", out)
	}
	if p := e.top.Section(1).Phase; p != SectionDraining {
		t.Fatalf("the lone player's section is %s, want draining", p)
	}
	e.send(1, SectionEvent{Players: 1, Tables: 1, Last: "p0001", Owing: 1})
	if len(e.sendOuts(1)) != 0 {
		t.Fatalf("sent twice: %+v", e.sendOuts(1))
	}
	e.send(1, SectionEvent{Players: 0, Tables: 1, Settled: true, Out: []Transfer{{Player: "p0001", Stack: 3000, From: 1, To: 2}}})
	if p := e.top.Section(1).Phase; p != SectionClosing {
		t.Errorf("the emptied section is %s, want closing", p)
	}
	if len(e.top.InTransit) != 1 || e.top.InTransit[0].To != 2 {
		t.Errorf("in transit %+v, want the lone player on his way to section 2", e.top.InTransit)
	}

	// Four players in a section while the other sections' seats are all taken: they play on there.
	f := newTopEvents(t, 54, 2)
	f.send(2, SectionEvent{Players: 18, Tables: 2})
	f.send(3, SectionEvent{Players: 18, Tables: 2, Owing: 1})
	f.send(1, SectionEvent{Players: 4, Tables: 1, Settled: true})
	if out := f.sendOuts(1); len(out) > 0 || f.top.Section(1).Phase != SectionOpen {
		t.Errorf("a section's four players sent %+v (phase %s) where no other section has a seat", out, f.top.Section(1).Phase)
	}
}

// TestTopOpensTheNextRoundBesideSectionsOwnMoves: in the hand-for-hand rounds (R7), once every
// section has dealt a round and the field between them is planned, the tournament orders the next
// round though the sections' own moves are under way (each opens it once its moves are made:
// TestSectionOpensAWaitingRoundOnceItsMovesAreMade); not while a section owes players to another,
// and a tournament started before PlanRoundBeside waits for every section to be settled.
func TestTopOpensTheNextRoundBesideSectionsOwnMoves(t *testing.T) { // rule R7
	for _, plan := range []int{PlanRoundBeside, PlanNear} {
		e := newTopEvents(t, 54, 2) // three sections of two tables, 18 players each
		e.top.Plan = plan
		e.top.Spec.HandForHandBefore = 0
		h := &e.top.HandForHand
		h.On, h.Round, h.Grouped = true, 4, true // in the rounds, the fourth dealt
		e.send(1, SectionEvent{Players: 18, Tables: 2, RoundDone: 4})
		e.send(2, SectionEvent{Players: 18, Tables: 2, RoundDone: 4, Owing: 1})
		e.send(3, SectionEvent{Players: 18, Tables: 2, RoundDone: 4})
		if r := e.rounds(1); len(r) > 0 {
			t.Fatalf("plan %d: round ordered while section 2 owes a player to another: %+v", plan, r)
		}
		e.send(2, SectionEvent{Players: 18, Tables: 2, RoundDone: 4}) // sent; its own moves under way
		got := e.rounds(1)
		if plan < PlanRoundBeside {
			if len(got) > 0 {
				t.Fatalf("plan %d: round ordered before every section was settled: %+v", plan, got)
			}
			for n := 1; n <= 3; n++ {
				e.send(n, SectionEvent{Players: 18, Tables: 2, RoundDone: 4, Settled: true})
			}
			got = e.rounds(1)
		}
		if len(got) != 1 || got[0].Round != 5 || got[0].Skip || !got[0].Grouped {
			t.Fatalf("plan %d: section 1 was ordered %+v, want the fifth round, grouped", plan, got)
		}
		for n := 2; n <= 3; n++ {
			if r := e.rounds(n); len(r) != 1 || r[0].Round != 5 {
				t.Errorf("plan %d: section %d was ordered %+v, want the fifth round", plan, n, r)
			}
		}
	}
}

// TestSectionOpensAWaitingRoundOnceItsMovesAreMade: a hand-for-hand round ordered while the
// section's own moves are under way waits until they are made, so that no player moved between
// two rounds misses the next (R7), and then opens at every table; a barrier (Skip) opens at once.
func TestSectionOpensAWaitingRoundOnceItsMovesAreMade(t *testing.T) { // rule R7
	spec := simSpec(360)
	spec.SectionTables = 20
	_, secs, err := NewTopState("wait", spec, 3, 0, simStart)
	if err != nil {
		t.Fatal(err)
	}
	s, err := secs[0].State(simStart)
	if err != nil {
		t.Fatal(err)
	}
	f := &floorSim{t: t, s: s, tables: map[floor.TableID]*simTable{}, rng: rand.New(rand.NewPCG(3, 1)), now: simStart}
	f.openTables()
	order := func(r SectionRound) {
		s.OnOrders([]Numbered[SectionOrder]{{Seq: s.Section.Orders.Last + 1, Msg: SectionOrder{HandForHand: &r}}})
	}
	h := &s.HandForHand
	round := 0
	for k := 0; ; k++ {
		if k == 50 {
			t.Fatal("no round ended with the section's moves under way in 50 rounds")
		}
		// The barrier opens at once, moves under way or not, and stops every table after its hand.
		f.until(s.MovesPending)
		round++
		order(SectionRound{Round: round, Skip: true})
		if !h.Open || h.Round != round || h.Waiting != nil {
			t.Fatalf("a barrier with moves under way: open %v round %d waiting %+v; want it open at once", h.Open, h.Round, h.Waiting)
		}
		f.until(func() bool { return s.Section.RoundDone == round })
		if s.MovesPending() {
			break // the moves planned at the barrier: the next round waits for them
		}
	}
	round++
	order(SectionRound{Round: round, Grouped: true})
	if h.Open || h.Waiting == nil || h.Waiting.Round != round {
		t.Fatalf("a round ordered with moves under way: open %v, waiting %+v; want it waiting", h.Open, h.Waiting)
	}
	f.until(func() bool { return h.Open })
	if s.MovesPending() || h.Round != round || !h.Grouped || h.Waiting != nil {
		t.Fatalf("the round opened with moves pending %v, round %d grouped %v, waiting %+v", s.MovesPending(), h.Round, h.Grouped, h.Waiting)
	}
	f.until(func() bool { return s.Section.RoundDone == round })
}
