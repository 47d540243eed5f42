package director

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// floorSim plays a tournament through TournamentState and TableState alone, with no Temporal and
// no engine: each "hand" moves chips between two players at a table and sometimes busts one. The
// orders and events go through queues that deliver them late, out of order and twice, as signals
// may be; tables report at random moments, as table processes do.
type floorSim struct {
	t      *testing.T
	s      *TournamentState
	tables map[floor.TableID]*simTable
	rng    *rand.Rand
	now    time.Time
	events []TableEvent
	orders []TableOrders
	hands  int
	// grants counts the credit orders the tournament sent: each the end of a trip from a table
	// to the floor and back (a table out of credit waits for it).
	grants int
	// stops counts the batches a table stopped short of for its credit (it waits for the floor's
	// grant), busts the hands with an elimination dealt.
	stops, busts int
	// onFlush, when set, sees every table's orders as the tournament sends them.
	onFlush func(TableOrders)
	// slow, when set, makes one table in ten (by number) report only one round in slow, as the
	// tables of a busy machine that start late or wait long for their reports do.
	slow int
	// byHand, when set, deals each hand from its own generator, keyed by the spec's seed, the
	// table and the hand number, not from rng: the same hands whatever the order of delivery.
	byHand bool
	dealt  func(report.HandResult) // sees every hand dealt, if set
	// lose, when set, says which batches of orders are lost on their way (a signal that failed
	// every attempt): they never reach their table.
	lose func(TableOrders) bool
	// absent, when set, says which players have not come to their table at a hand: the results
	// list them (as a served table's do), and they neither win nor lose a pot.
	absent func(player string, hand int64) bool
}

type simTable struct {
	st    *TableState
	batch []report.HandResult
}

// simStart is when the simulated tournaments start.
var simStart = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

// sortedIDs are the tables' numbers in order (map order must decide nothing).
func sortedIDs(tables map[floor.TableID]*simTable) []floor.TableID {
	ids := make([]floor.TableID, 0, len(tables))
	for id := range tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func newFloorSim(t *testing.T, spec TournamentSpec, seed uint64) *floorSim {
	now := simStart
	s, err := NewTournamentState("sim", spec, seed, now)
	if err != nil {
		t.Fatal(err)
	}
	sim := &floorSim{t: t, s: s, tables: map[floor.TableID]*simTable{}, rng: rand.New(rand.NewPCG(seed, 7)), now: now}
	sim.openTables()
	return sim
}

func (f *floorSim) openTables() {
	for _, id := range f.s.NewTables {
		st := f.s.TableInput(id)
		f.tables[id] = &simTable{st: &st}
		f.s.Table(id).Started = true
	}
	f.s.NewTables = nil
}

// flush takes the tournament's outbox into the delivery queue.
func (f *floorSim) flush() {
	f.openTables()
	for _, b := range f.s.Outbox {
		for _, o := range b.Orders {
			if o.Credit != nil {
				f.grants++
			}
		}
	}
	// As the workflow's send: what is signalled is unapplied until a table's event acknowledges it.
	for _, b := range f.s.Outbox {
		if tr := f.s.Table(b.Table); tr != nil {
			tr.Unacked = append(tr.Unacked, b.Orders...)
		}
		if f.onFlush != nil {
			f.onFlush(b)
		}
	}
	f.orders = append(f.orders, f.s.Outbox...)
	f.s.Outbox = nil
	f.s.Deleting = nil
}

// deliver hands some queued orders to their tables, in any order, some twice.
func (f *floorSim) deliver() {
	f.rng.Shuffle(len(f.orders), func(i, j int) { f.orders[i], f.orders[j] = f.orders[j], f.orders[i] })
	n := f.rng.IntN(len(f.orders) + 1)
	for _, b := range f.orders[:n] {
		if f.lose != nil && f.lose(b) {
			continue
		}
		if t := f.tables[b.Table]; t != nil {
			t.st.AddOrders(b.Orders)
			if f.rng.IntN(10) == 0 {
				t.st.AddOrders(b.Orders)
			}
		}
	}
	f.orders = f.orders[n:]
}

// deliverAll hands every queued order to its table, as signals sent at once arrive on a machine
// that is not busy.
func (f *floorSim) deliverAll() {
	for _, b := range f.orders {
		if t := f.tables[b.Table]; t != nil {
			t.st.AddOrders(b.Orders)
		}
	}
	f.orders = nil
}

// report is one table's report: its hands since the last, then the orders, then what it does next.
func (f *floorSim) report(t *simTable) {
	var ev TableEvent
	acked := t.st.Acked
	if err := t.st.Clone().ApplyResults(t.batch, &TableEvent{}); err != nil {
		f.t.Fatalf("table %d refused its own hands: %v", t.st.Number, err)
	}
	if err := t.st.ApplyResults(t.batch, &ev); err != nil {
		f.t.Fatal(err)
	}
	t.batch = nil
	t.st.ApplyOrders(&ev)
	next := t.st.Next(&ev, true)
	if next.Directive == report.Close {
		ev.Closed = true
	}
	if t.st.Event(&ev, acked, f.now) {
		f.events = append(f.events, ev)
		if f.rng.IntN(20) == 0 {
			f.events = append(f.events, ev) // a signal retried
		}
	}
	if next.Directive == report.Close {
		delete(f.tables, t.st.Number)
		return
	}
	if next.Directive == report.Play && t.st.HandForHand > 0 {
		f.seatedForRound(t)
	}
	if next.Directive == report.Play {
		for range next.Batch {
			if !f.deal(t) {
				break
			}
			if r := t.batch[len(t.batch)-1]; !next.Go(r.HandNumber, len(r.Eliminated) > 0) {
				f.stops++
				break // as the runner: the credit ends here
			}
		}
	}
}

// deal plays a made-up hand at t from its state as the last State gave it (with the hands of the
// batch so far): a random pot between two players, all-in one time in five.
func (f *floorSim) deal(t *simTable) bool {
	seats := t.st.Seats
	if len(t.batch) > 0 {
		seats = nil
		for _, s := range t.batch[len(t.batch)-1].End {
			if s.Stack > 0 {
				seats = append(seats, TableSeat{Seat: s.Seat, Player: s.Player, Stack: s.Stack})
			}
		}
	}
	if len(seats) < 2 {
		return false
	}
	n := t.st.HandNumber + int64(len(t.batch)) + 1
	r := report.HandResult{TableID: t.st.ID, HandNumber: n}
	for _, s := range seats {
		r.Start = append(r.Start, report.SeatStack{Seat: s.Seat, Player: s.Player, Stack: s.Stack})
	}
	r.End = slices.Clone(r.Start)
	var present []int // the seats' indexes of the players at the table
	if f.absent != nil {
		for i, s := range r.Start {
			if f.absent(s.Player, n) {
				r.Absent = append(r.Absent, s.Player)
			} else {
				present = append(present, i)
			}
		}
		if len(present) < 2 {
			t.batch = append(t.batch, r) // nobody plays a pot
			f.hands++
			bb := r.Start[int(n)%len(seats)].Seat
			t.batch[len(t.batch)-1].Positions = engine.Positions{Button: bb, SmallBlind: bb, BigBlind: bb, Played: true}
			return true
		}
	}
	a, b := f.rng.IntN(len(seats)), f.rng.IntN(len(seats)-1)
	if b >= a {
		b++
	}
	if present != nil {
		ai, bi := f.rng.IntN(len(present)), f.rng.IntN(len(present)-1)
		if bi >= ai {
			bi++
		}
		a, b = present[ai], present[bi]
	}
	rng := f.rng
	if f.byHand {
		rng = rand.New(rand.NewPCG(f.s.Spec.Seed^uint64(t.st.Number), uint64(n)))
		a, b = rng.IntN(len(seats)), rng.IntN(len(seats)-1)
		if b >= a {
			b++
		}
	}
	amount := min(r.End[a].Stack, r.End[b].Stack, int64(1+rng.IntN(2000)))
	if rng.IntN(5) == 0 {
		amount = min(r.End[a].Stack, r.End[b].Stack)
	}
	r.End[a].Stack -= amount
	r.End[b].Stack += amount
	if r.End[a].Stack == 0 {
		r.Eliminated = []engine.Elimination{{Seat: r.Start[a].Seat, ID: r.Start[a].Player, StartingStack: r.Start[a].Stack}}
		r.Knockouts = []report.Knockout{{Player: r.Start[a].Player, By: []string{r.Start[b].Player}}}
	}
	bb := r.Start[int(n)%len(seats)].Seat
	r.Positions = engine.Positions{Button: bb, SmallBlind: bb, BigBlind: bb, Played: true}
	t.batch = append(t.batch, r)
	if len(r.Eliminated) > 0 {
		f.busts++
	}
	if f.dealt != nil {
		f.dealt(r)
	}
	f.hands++
	return true
}

// once is one round of the simulation: orders delivered, tables reporting, the tournament stepping.
func (f *floorSim) once() {
	f.deliver()
	ids := make([]floor.TableID, 0, len(f.tables))
	for id := range f.tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if f.rng.IntN(3) > 0 && (f.slow == 0 || id%10 != 0 || f.rng.IntN(f.slow) == 0) {
			f.report(f.tables[id])
		}
	}
	f.step()
	if len(f.s.ChipErrors) > 0 {
		f.t.Fatalf("%v", f.s.ChipErrors)
	}
}

// seatedForRound fails the test if table t deals its hand of a hand-for-hand round while a player
// the floor moved to it has left his table and is not seated at t: he would miss the round (R7:
// every player moved between two rounds is seated before the next round's hand).
func (f *floorSim) seatedForRound(t *simTable) {
	rec := f.s.Table(t.st.Number)
	if rec == nil {
		return
	}
	for _, a := range rec.Arriving {
		if a.Sent && !slices.ContainsFunc(t.st.Seats, func(s TableSeat) bool { return s.Player == a.Player }) {
			f.t.Fatalf("rule R7: table %d deals round %d while %s, moved to it, is on his way (%s)",
				t.st.Number, t.st.HandForHand, a.Player, a.Reason)
		}
	}
}

// until runs rounds until cond holds.
func (f *floorSim) until(cond func() bool) {
	for k := 0; !cond(); k++ {
		if k == 100000 || f.s.Finished {
			f.t.Fatalf("condition not reached (finished %v, %d left)", f.s.Finished, f.s.Left())
		}
		f.once()
	}
}

// step lets the tournament take some events, in any order.
func (f *floorSim) step() {
	f.rng.Shuffle(len(f.events), func(i, j int) { f.events[i], f.events[j] = f.events[j], f.events[i] })
	n := f.rng.IntN(len(f.events) + 1)
	for _, ev := range f.events[:n] {
		f.s.OnEvent(ev)
	}
	f.events = f.events[n:]
	f.now = f.now.Add(time.Second)
	f.s.Step(f.now)
	f.flush()
}

func (f *floorSim) run(maxSteps int) {
	f.s.Step(f.now)
	f.flush()
	for k := 0; !f.s.Finished; k++ {
		if k == maxSteps {
			f.t.Fatalf("not finished after %d steps: %d left, %d tables, moves pending %v, h4h %+v",
				k, f.s.Left(), f.s.OpenTables(), f.s.MovesPending(), f.s.HandForHand)
		}
		f.once()
	}
	// The tables close and say so.
	for k := 0; len(f.tables) > 0 && k < 100; k++ {
		f.deliver()
		for _, t := range f.tables {
			f.report(t)
		}
		for _, ev := range f.events {
			f.s.OnEvent(ev)
		}
		f.events = nil
	}
}

func simSpec(players int) TournamentSpec {
	turbo, _ := floor.BuiltinStructure(floor.StructureTurbo)
	return TournamentSpec{PlayerCount: players, TableSize: 9, Structure: turbo, Simulation: true, Batch: 10, BuyIn: 1000}
}

// TestFloorSimulation plays whole tournaments through the tournament's and the tables' decisions
// with every delivery out of order: chips are conserved at every step (R1), every entry gets one
// place (R5, R7), the prizes add up to the pool (R6), hand-for-hand is dealt on the bubble (R7).
func TestFloorSimulation(t *testing.T) {
	for _, players := range []int{2, 10, 27, 100, 250} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%d players seed %d", players, seed), func(t *testing.T) {
				f := newFloorSim(t, simSpec(players), seed)
				// R7: the hand that bursts the bubble is dealt in a round, every table waiting for
				// it, unless one table is left (it plays one hand at a time by itself).
				burst := ""
				f.s.Trace = func(ev TableEvent) {
					left, paid := f.s.Left(), len(f.s.Payouts.Prizes)
					for _, g := range ev.Busts {
						if left > paid && left-len(g.Eliminated) <= paid && (g.Round == 0 || !f.s.HandForHand.On) && !f.s.alone() && burst == "" {
							burst = fmt.Sprintf("the bubble burst at table %d hand %d out of the rounds (%d left, %d paid)", ev.Table, g.Hand, left, paid)
						}
						left -= len(g.Eliminated)
					}
				}
				f.run(200000)
				if burst != "" && players > 2 {
					t.Error(burst)
				}
				res, err := f.s.Result()
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Places) != players {
					t.Fatalf("%d places for %d players", len(res.Places), players)
				}
				var paid int64
				for _, p := range res.Places {
					paid += p.Prize
				}
				if paid != res.PrizePool {
					t.Errorf("prizes %d, pool %d", paid, res.PrizePool)
				}
				if len(f.tables) > 0 {
					t.Errorf("%d tables still open", len(f.tables))
				}
				t.Logf("%d hands, %d tables, %d hand-for-hand rounds", f.hands, res.Tables, res.HandForHandRounds)
			})
		}
	}
}

// TestRuleR7LoneTableDealsInBatches: once one table is left and nobody is on his way to it, no
// hand-for-hand round opens (R7 keeps several tables in step; a table alone plays one hand at a
// time by itself) and its credit is the batches' window, not the bubble's one hand, so it deals
// in batches instead of waiting for the tournament between hands. Every entry still gets one
// place and the prizes add up to the pool.
func TestRuleR7LoneTableDealsInBatches(t *testing.T) {
	for _, players := range []int{10, 27, 100} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%d players seed %d", players, seed), func(t *testing.T) {
				f := newFloorSim(t, simSpec(players), seed)
				f.s.Step(f.now)
				f.flush()
				lone, rounds := false, 0
				for k := 0; !f.s.Finished; k++ {
					if k == 200000 {
						t.Fatalf("not finished: %d left, %d tables", f.s.Left(), f.s.OpenTables())
					}
					f.once()
					h := f.s.HandForHand
					if !f.s.alone() || f.s.Finished {
						lone = false
						continue
					}
					if h.Approach {
						t.Fatalf("one table left (%d players), yet the bubble's one-hand credit", f.s.Left())
					}
					if w := f.s.creditWindow(); w != creditBatches*int64(f.s.Spec.Batch) {
						t.Fatalf("one table left: credit window %d, want %d", w, creditBatches*f.s.Spec.Batch)
					}
					if h.Open {
						continue // a round opened while other tables played ends first
					}
					if lone && h.Round != rounds {
						t.Fatalf("one table left (%d players): hand-for-hand round %d opened after %d", f.s.Left(), h.Round, rounds)
					}
					lone, rounds = true, h.Round
				}
				res, err := f.s.Result()
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Places) != players {
					t.Fatalf("%d places for %d players", len(res.Places), players)
				}
				var paid int64
				for _, p := range res.Places {
					paid += p.Prize
				}
				if paid != res.PrizePool {
					t.Errorf("prizes %d, pool %d", paid, res.PrizePool)
				}
				if len(res.ChipErrors) > 0 {
					t.Errorf("chips not conserved: %v", res.ChipErrors)
				}
			})
		}
	}
}

// TestPacedSimulationHoldsNoTable: a simulation paced by the clock (Spec.Pace) holds no table
// short of players from PacePacedHoldsNone, as a seeded one at full speed holds none (its
// barriers); the same field unpaced, or paced before PacePacedHoldsNone, holds tables while their
// players are on their way (TDA). Every entry still gets one place and the prizes add up to the
// pool (R5, R6).
func TestPacedSimulationHoldsNoTable(t *testing.T) { // rules R3, R5, R6
	for _, c := range []struct {
		pace  time.Duration
		ver   int
		holds bool
	}{{0, PaceLatest, true}, {time.Second, PacePacedHoldsNone - 1, true}, {time.Second, PaceLatest, false}} {
		t.Run(fmt.Sprintf("pace %v version %d", c.pace, c.ver), func(t *testing.T) {
			held := 0
			for seed := uint64(1); seed <= 3; seed++ {
				spec := simSpec(250)
				spec.Pace = c.pace
				f := newFloorSim(t, spec, seed)
				f.s.Pace = c.ver
				f.onFlush = func(b TableOrders) {
					for _, o := range b.Orders {
						if o.Hold != nil && *o.Hold {
							held++
						}
					}
				}
				finish(t, f)
			}
			if (held > 0) != c.holds {
				t.Errorf("%d tables held over seeds 1-3, want holds %v", held, c.holds)
			}
		})
	}
}

// TestHoldRidesOnTheAnswer: a table three players short of the fullest is held (TDA) with the
// answer to its next events when it takes answers (PaceLazyHold), not by a signal of its own,
// and not at all if it is short no more by then; a table that takes no answers is held at once,
// and a held table is released at once. Before the pace every hold went at once.
func TestHoldRidesOnTheAnswer(t *testing.T) { // rule R3
	holds := func(s *TournamentState) map[floor.TableID]bool {
		return sentOf(s, func(o Order) *bool { return o.Hold })
	}
	// Five tables of nine; the tables at the indexes in short have three players fewer.
	field := func(pace int, short ...int) *TournamentState {
		s := approachOf(t, pace, func(tr *TableRecord) { tr.Started, tr.Replies = true, true })
		s.HandForHand.Approach = false
		s.Tables[4].Replies = false // a table recorded before the answers: signalled
		for _, k := range short {
			clear(s.Tables[k].Seats[:3])
		}
		return s
	}
	refill := func(s *TournamentState, k int) {
		for i := range 3 {
			s.Tables[k].Seats[i] = fmt.Sprintf("back%d", i)
		}
	}
	answerHold := func(s *TournamentState, id floor.TableID) {
		answerWith(s, id, func() { s.hold(simStart) })
	}
	s := field(PaceLatest, 2, 4)
	a, b := s.Tables[2].ID, s.Tables[4].ID
	s.hold(simStart)
	if got := holds(s); len(got) != 1 || !got[b] {
		t.Fatalf("tables %d and %d short: holds %v, want table %d's alone (it takes no answers)", a, b, got, b)
	}
	if tr := s.Table(a); !tr.HoldOwed || tr.Held {
		t.Fatalf("table %d: owed %v, held %v; want its hold owed, not told", a, tr.HoldOwed, tr.Held)
	}
	answerHold(s, s.Tables[0].ID)
	if got := holds(s); len(got) != 0 {
		t.Fatalf("another table answered: holds %v, want none", got)
	}
	answerHold(s, a)
	if got := holds(s); len(got) != 1 || !got[a] || s.Table(a).HoldOwed {
		t.Fatalf("table %d answered: holds %v (owed %v), want its hold, told", a, got, s.Table(a).HoldOwed)
	}
	refill(s, 2)
	refill(s, 4)
	s.hold(simStart)
	if got := holds(s); len(got) != 2 || got[a] || got[b] {
		t.Fatalf("short no more: holds %v, want both released at once", got)
	}

	s = field(PaceLatest, 2)
	s.hold(simStart)
	refill(s, 2)
	answerHold(s, a)
	if got := holds(s); len(got) != 0 || s.Table(a).HoldOwed || s.Table(a).Held {
		t.Fatalf("short no more before its answer: holds %v (owed %v, held %v), want nothing told", got, s.Table(a).HoldOwed, s.Table(a).Held)
	}

	s = field(PaceLazyHold-1, 2, 4)
	s.hold(simStart)
	if got := holds(s); len(got) != 2 || !got[a] || !got[b] {
		t.Fatalf("before PaceLazyHold: holds %v, want both at once", got)
	}
}
