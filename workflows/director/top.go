package director

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// KeepPlaces is how many of the best places a tournament of sections keeps in its state (and in
// its result); every place is also written out as it is given (TopState.Unwritten, through an
// activity to a sink), so that 100,000 places never sit in one payload.
const KeepPlaces = 1000

// SectionPhase is where a section is in its life.
type SectionPhase string

// The phases of a section, in order.
const (
	SectionOpen     SectionPhase = "open"     // dealing
	SectionDraining SectionPhase = "draining" // losing every table: its players go to the others
	SectionClosing  SectionPhase = "closing"  // told to close
	SectionClosed   SectionPhase = "closed"   // its tables closed, its workflow ended
)

// SectionRecord is one section as the tournament sees it.
type SectionRecord struct {
	Number     int          `json:"number"`
	WorkflowID string       `json:"workflowID"`
	Phase      SectionPhase `json:"phase"`
	// Orders go down in sequence; Events come up in sequence.
	Orders Link[SectionOrder]  `json:"orders"`
	Events Inbox[SectionEvent] `json:"events"`
	// Last is the section's counts as of its last event (its news taken out).
	Last SectionEvent `json:"last"`
	// From the section's PaceSectionQuiet (link.go, "A section's quiet"): Run is the latest of
	// the section's runs the tournament has heard from; QuietRun the last run that asked for its
	// orders to be held while it continues as new, and Quiet that they are held, since QuietSince.
	Run        int       `json:"run,omitempty"`
	QuietRun   int       `json:"quietRun,omitempty"`
	Quiet      bool      `json:"quiet,omitempty"`
	QuietSince time.Time `json:"quietSince,omitzero"`
}

// TopHandForHand is the bubble's play across the sections (R7): every section's tables deal one
// hand of a round, and the round's eliminations are one group.
type TopHandForHand struct {
	On           bool                `json:"on,omitempty"`
	Approach     bool                `json:"approach,omitempty"`
	Near         bool                `json:"near,omitempty"` // the sections told SectionOrder.Near
	Open         bool                `json:"open,omitempty"`
	Grouped      bool                `json:"grouped,omitempty"`
	Round        int                 `json:"round,omitempty"`
	Rounds       int                 `json:"rounds,omitempty"` // grouped rounds dealt
	Participants []int               `json:"participants,omitempty"`
	Group        []floor.Elimination `json:"group,omitempty"`
}

// TopState is a tournament of sections as its TournamentWorkflow holds it: counts, the clock, the
// payouts, the best places and the sections, never a record a player or a table, so that it is
// the same size at 100,000 entries as at 1,000.
type TopState struct {
	ID   string         `json:"id"`
	Spec TournamentSpec `json:"spec"`
	Seed uint64         `json:"seed"`

	Started     time.Time          `json:"started"`
	Ended       time.Time          `json:"ended,omitzero"`
	SimHands    int64              `json:"simHands,omitempty"`
	ClockEvents []floor.ClockEvent `json:"clockEvents,omitempty"`
	Period      int                `json:"period"`
	OnBreak     bool               `json:"onBreak,omitempty"`
	Paused      bool               `json:"paused,omitempty"`
	LevelLog    []LevelChange      `json:"levelLog,omitempty"`

	Entries floor.Entries    `json:"entries"`
	Payouts floor.Payouts    `json:"payouts"`
	Ledger  floor.ChipLedger `json:"ledger"`
	// AddOns counts the add-ons paid in every section (their money is in the pool).
	AddOns int `json:"addOns,omitempty"`
	// A PKO's bounties as the sections told: the cash paid for knockouts, the unclaimed.
	BountyPaidCents      int64 `json:"bountyPaidCents,omitempty"`
	BountyUnclaimedCents int64 `json:"bountyUnclaimedCents,omitempty"`
	// Held are the elimination groups not yet placed: the field was still open (fieldOpen). They
	// are the busts of the late registration period (about 50 bytes each).
	Held [][]floor.Elimination `json:"held,omitempty"`
	// PoolFinal: no rebuy or add-on can come in or go back any more (closePool).
	PoolFinal bool `json:"poolFinal,omitempty"`
	// Entering are the late entries sent to a section and not yet answered to the director.
	Entering []PendingEntry `json:"entering,omitempty"`
	// NamedDraw: the draw's players are PlayerNames(Spec.PlayerCount), so a late entry of one of
	// those IDs is refused here (the draw put him in any section).
	NamedDraw bool `json:"namedDraw,omitempty"`
	// TablesOpened counts the tables of the draw (the sections open a few more for late arrivals).
	TablesOpened int `json:"tablesOpened"`

	Sections []SectionRecord `json:"sections"`
	// InTransit are the players between two sections: left one, not yet in the other's count.
	InTransit []Transfer `json:"inTransit,omitempty"`
	// Left is the players still in.
	Left int `json:"left"`
	// Places are the best places given so far (at most KeepPlaces), best first; Unwritten those
	// not yet written out.
	Places    []Place `json:"places,omitempty"`
	Unwritten []Place `json:"unwritten,omitempty"`
	Written   int     `json:"written,omitempty"`

	HandForHand TopHandForHand `json:"handForHand"`
	Finished    bool           `json:"finished,omitempty"`
	ChipErrors  []string       `json:"chipErrors,omitempty"`
	// Actions are the clock actions (and the deal) applied, by idempotency key.
	Actions map[string]string `json:"actions,omitempty"`
	// Tools are the director's tools the tournament keeps itself: the deal (section_money.go).
	Tools TopTools `json:"tools,omitzero"`
	// Plan is the version of the planning between sections the run was started with (the
	// workflow's version marker "plan", so that a history recorded before keeps its commands when
	// replayed): from PlanBeside the tournament plans beside the moves under way inside the
	// sections (plannable) and moves a section's few players out at once (drainShort); below it,
	// only when every section is settled.
	Plan int `json:"plan,omitempty"`
	// A seeded simulation from PlanBarriers keeps barriers across its sections (stepBarriers):
	// Horizon is the hand every table of the field may deal up to, Decided the last horizon the
	// tournament has placed the eliminations at and Planned the last it has planned at, Unplaced
	// the eliminations the sections told since, placed at the next barrier in the order of their
	// hands, then tables.
	Horizon  int64        `json:"horizon,omitempty"`
	Decided  int64        `json:"decided,omitempty"`
	Planned  int64        `json:"planned,omitempty"`
	Unplaced []TableBusts `json:"unplaced,omitempty"`
}

// PlanBeside is the Plan from which the tournament plans between its sections whenever the counts
// it reads are the sections' own (plannable), whatever moves are under way inside them;
// PlanNear the one from which it tells its sections when the approach comes within three times the
// rounds' margin of them (SectionOrder.Near, bubble.near), where their tables go back to one hand
// a report; PlanRoundBeside the one from which it orders the next hand-for-hand round once the
// field between its sections is planned (plannable) rather than once every section has told it
// its own moves are made (settled): each section opens the round when its moves are made
// (HandForHandState.Waiting), and a round costs a report's round trip less; PlanSignalCap the
// one from which the tournament's workflow has a bounded number of order signals to its sections
// on their way at once (the workflow's signalsInFlight); PlanOutwaitsSections the one from
// which its end waits for its sections' close longer than a section waits for its tables'
// (the workflow's sectionsCloseWait): both waited closeWait, and a section whose table never
// answered told its close just after its tournament had stopped listening; PlanBarriers the one
// from which a seeded simulation keeps barriers across its sections (stepBarriers), so that it
// plays the same whatever the scheduling of its tables, as a tournament of one section does;
// PlanBarrierCounts the one from which its plan at a barrier counts each section's tables as those
// it keeps once it has balanced and broken its own (R4 inside it: enough for its players), not the
// tables it stopped at; PlanBarriersAtMaxSpeed the one from which only a simulation at full speed
// keeps barriers, not one paced by the clock (Spec.Pace): at a barrier every table waits for the
// slowest and for the field's moves, and a paced 10,000 at x60 stood still 15-30 s at each (hands
// 22,240 at 0:46, 22,296 at 1:16), level 6 at 2:26 against 1:11 live; its runs need not repeat
// (two runs with one seed at full speed do), and without barriers level 5 came at 1:26.
// PlanNearFollowsTables the one from which a field without barriers is near the rounds by the
// tables it has in play now (bubble.nearNow), not by those it had when it came near: the floor
// breaks the approach's short tables while the field nears, and the field goes back to its
// approach's batches until it is near the fewer tables' rounds.
// PlanOwnEventCount the one from which the tournament's run takes Temporal's suggestion to
// continue as new for its event count alone only at workflows.RunEvents, as its sections do from
// PaceOwnEventCount: at 100,000 entries (7 December) its runs went every 32 seconds in the
// field's first ten minutes, each at 4,105-4,111 events (about 720 of the sections' reports,
// 300 activities writing places out), its orders to the sections held while it drained and sent
// again by the next run.
// PlanKeptTables the one from which a field without barriers counts each section's tables for
// its plan as a barrier's plan does (PlanBarrierCounts): those the section keeps once it has
// broken its own down to what its players fill, not those it has not broken yet. A section's
// breaks lag its eliminations (each is a move of every player at the table), and the field's
// count of tables with them: a 30,000-entry run (7 December) drained 13 of its 34 sections at
// once, 12,288 players left on 2,466 tables where 1,366 would seat them.
// PlanLatest is the Plan of a run started now.
const (
	PlanBeside             = 1
	PlanNear               = 2
	PlanRoundBeside        = 3
	PlanSignalCap          = 4
	PlanOutwaitsSections   = 5
	PlanBarriers           = 6
	PlanBarrierCounts      = 7
	PlanBarriersAtMaxSpeed = 8
	PlanNearFollowsTables  = 9
	PlanOwnEventCount      = 10
	PlanKeptTables         = 11
	PlanLatest             = PlanKeptTables
)

// SectionStart is what a section's workflow starts from: its number, the tables the draw gave it
// (about 11 KB for 100 tables), and the tournament's spec (its names dropped) and seed. The
// section builds its state from it (NewSectionState) in its own first task.
type SectionStart struct {
	Parent string         `json:"parent"`
	Number int            `json:"number"`
	Spec   TournamentSpec `json:"spec"`
	Seed   uint64         `json:"seed"`
	Tables []floor.Table  `json:"tables"`
	// Elsewhere are the players of an explicit list drawn into other sections whose late entry
	// would come here (TopState.drawnElsewhere), sorted.
	Elsewhere []string `json:"elsewhere,omitempty"`
	// Horizon, in a seeded simulation from PlanBarriers, is the first barrier: the section keeps
	// the tournament's barriers (SectionRole.Lockstep), its tables dealing up to this hand first.
	Horizon int64 `json:"horizon,omitempty"`
}

// State is the section's first state, its clock started at now.
func (st SectionStart) State(now time.Time) (*TournamentState, error) {
	s, err := NewSectionState(st.Parent, st.Number, st.Spec, st.Tables, st.Seed, now)
	if err == nil {
		s.Tools.Elsewhere = st.Elsewhere
		if st.Horizon > 0 {
			s.Horizon, s.Section.Lockstep = st.Horizon, true
		}
	}
	return s, err
}

// NewTopState draws the seats and buttons of the whole field (T2, T3) and gives each section
// sectionTables of the tables (0: the spec's). It returns what the sections start from, for their
// workflows' inputs: the tournament keeps none of it.
func NewTopState(id string, spec TournamentSpec, seed uint64, sectionTables int, now time.Time) (*TopState, []SectionStart, error) {
	named := len(spec.Players) == 0
	spec = spec.withDefaults()
	if err := spec.Validate(); err != nil {
		return nil, nil, err
	}
	if sectionTables < 0 {
		return nil, nil, fmt.Errorf("%d tables a section: at least 1 (0: the spec's)", sectionTables)
	}
	field := make([]floor.PlayerID, len(spec.Players))
	for i, p := range spec.Players {
		field[i] = floor.PlayerID(p)
	}
	probe := &TournamentState{Seed: seed}
	tables, err := floor.DrawSeats(field, spec.TableSize, probe.rand())
	if sectionTables == 0 {
		sectionTables = spec.SectionTables
	}
	if err != nil {
		return nil, nil, err
	}
	t := &TopState{ID: id, Spec: spec, Seed: seed, Started: now, Period: -1, Left: len(field), TablesOpened: len(tables), NamedDraw: named, Plan: PlanLatest}
	t.Spec.Players = nil
	t.Ledger = floor.ChipLedger{StartingStack: spec.Structure.StartingStack, Entries: len(field)}
	t.Entries = spec.entries(len(field), 0, 0)
	if t.Payouts, err = t.Spec.payoutsFor(t.buyIns(t.Entries)); err != nil {
		return nil, nil, err
	}
	var sections []SectionStart
	for n := 0; n*sectionTables < len(tables); n++ {
		part := tables[n*sectionTables : min((n+1)*sectionTables, len(tables))]
		sections = append(sections, SectionStart{Parent: id, Number: n + 1, Spec: t.Spec, Seed: seed, Tables: part})
		players := 0
		for _, ft := range part {
			players += ft.Players()
		}
		rec := SectionRecord{Number: n + 1, WorkflowID: SectionWorkflowID(id, n+1), Phase: SectionOpen}
		rec.Last = SectionEvent{Section: n + 1, Players: players, Tables: len(part), Chips: int64(players) * spec.Structure.StartingStack}
		t.Sections = append(t.Sections, rec)
	}
	t.drawnElsewhere(named, sections)
	t.SetPlan(PlanLatest, sections)
	return t, sections, nil
}

// SetPlan sets the version of the planning between sections the run keeps (the workflow's
// marker "plan"), and the barriers of a seeded simulation of at most BarrierTables tables in the
// sections' starts from PlanBarriers (from PlanBarriersAtMaxSpeed at full speed only).
func (t *TopState) SetPlan(plan int, starts []SectionStart) {
	t.Plan, t.Horizon = plan, 0
	paced := plan >= PlanBarriersAtMaxSpeed && t.Spec.Pace > 0
	if plan >= PlanBarriers && t.Spec.Simulation && !paced && t.Spec.Seed != 0 && t.TablesOpened <= BarrierTables {
		t.Horizon = t.window()
	}
	for i := range starts {
		starts[i].Horizon = t.Horizon
	}
}

// BarrierTables is the most tables a seeded simulation of sections keeps barriers across its
// sections with (18,000 entries at tables of 9). A larger field plays as before PlanBarriers: the
// same seed, other runs. At 100,000 entries (11,112 tables), measured twice:
//   - At PlanBarriers the first barrier, 20 hands in, came after 10 minutes, and the field, from
//     100,000 down to 61,416 on the same 11,112 tables, then waited on the plan's transfers
//     between its sections, 20,940 of them still leaving their tables after 5 minutes: the plan
//     counted each section's tables as those it stopped at, so it closed whole sections.
//   - At PlanBarrierCounts the same barrier (8:41) planned 491 transfers and moved the horizon on
//     4.5 minutes later; 3 minutes after that no table had dealt again: every section was still
//     making the moves of its 20-hand window's breaks (4,000 tables break at once where they
//     break one by one without barriers), with 100 orders and more unacknowledged in a section,
//     while the 11,112 stopped tables each waited in a report of DefaultTableMaxWait (20 s):
//     555 Updates a second, a timer each, which the embedded server was busy with.
const BarrierTables = 2000

// barriers says the tournament keeps barriers across its sections (stepBarriers).
func (t *TopState) barriers() bool { return t.Horizon > 0 }

// window is how many hands past a barrier the next is: a batch, and nearer the hand-for-hand
// rounds before the bubble as few hands as the tables would take the players left before the
// rounds out in at one elimination a table every bustRate hands, four times the pace of a 10,000-
// entry field on its way to the money (0.06 a table a hand at the start, 0.25 on average over the
// whole tournament, the short tables of its end included); the rounds themselves start a table's
// worth of players early (bubble.rounds). Past the bubble, a batch again. Every barrier costs each
// table a report and an order, and the whole field waits for its slowest table at each: one hand
// of window for each elimination a table could make in it (a tournament of one section's
// creditWindow) made a 10,000-entry field stop every 5 to 7 hands from its start.
func (t *TopState) window() int64 {
	batch := int64(max(t.Spec.Batch, 1))
	paid := len(t.Payouts.Prizes)
	if t.Spec.HandForHandBefore < 0 || t.Left <= paid {
		return batch
	}
	tables := max(t.Tables(), 1)
	toRounds := t.Left - (paid + max(t.Spec.HandForHandBefore, 1) + tables + 2)
	return min(max(int64(bustRate*toRounds/tables), 1), batch)
}

// bustRate is the hands window counts for one elimination a table: four.
const bustRate = 4

// Section is section n's record, or nil.
func (t *TopState) Section(n int) *SectionRecord {
	if n < 1 || n > len(t.Sections) {
		return nil
	}
	return &t.Sections[n-1]
}

// SectionsInPlay are the workflow IDs of the sections not closed, in order: the players' records
// are there.
func (t *TopState) SectionsInPlay() []string {
	var ids []string
	for _, r := range t.Sections {
		if r.Phase != SectionClosed {
			ids = append(ids, r.WorkflowID)
		}
	}
	return ids
}

// open lists the sections in play.
func (t *TopState) open() []*SectionRecord {
	var out []*SectionRecord
	for i := range t.Sections {
		if r := &t.Sections[i]; r.Phase == SectionOpen || r.Phase == SectionDraining {
			out = append(out, r)
		}
	}
	return out
}

// order queues an order for section n.
func (t *TopState) order(n int, o SectionOrder) int {
	r := t.Section(n)
	if r == nil || r.Phase == SectionClosed {
		return 0
	}
	return r.Orders.Send(o)
}

// broadcast queues an order for every section in play.
func (t *TopState) broadcast(o SectionOrder) {
	for _, r := range t.open() {
		r.Orders.Send(o)
	}
}

// Resend queues again every order not acknowledged: a run that continued as new does not know
// whether they arrived.
func (t *TopState) Resend() {
	for i := range t.Sections {
		t.Sections[i].Orders.Resend()
	}
}

// OnEvents takes section n's events in, each once and in sequence.
func (t *TopState) OnEvents(n int, msgs []Numbered[SectionEvent]) {
	r := t.Section(n)
	if r == nil {
		return
	}
	for _, ev := range r.Events.Add(msgs...) {
		t.apply(r, ev)
	}
}

func (t *TopState) apply(r *SectionRecord, ev SectionEvent) {
	r.Orders.Ack(ev.Acked)
	t.addMoney(r.Number, ev.Money)
	for _, e := range ev.Entered {
		t.entered(e)
	}
	if ev.Deal != nil {
		t.dealDone(r.Number, *ev.Deal)
	}
	if ev.HandOn != nil {
		t.handOn(r.Number, *ev.HandOn)
	}
	for _, g := range ev.Busts {
		t.place(g)
	}
	t.Unplaced = append(t.Unplaced, ev.Unplaced...)
	if h := &t.HandForHand; ev.RoundDone == h.Round && h.Open {
		h.Group = append(h.Group, ev.Group...)
	} else if len(ev.Group) > 0 {
		t.place(ev.Group) // a round the tournament closed already: its own group
	}
	// Players who left for another section: on their way until it has applied the order that
	// carries them there.
	if t.barriers() {
		// On their way, sent on at once with every other transfer of the barrier (sendArrivals).
		t.InTransit = append(t.InTransit, ev.Out...)
	} else {
		t.sendOn(ev.Out)
	}
	t.InTransit = slices.DeleteFunc(t.InTransit, func(tr Transfer) bool {
		return tr.To == r.Number && tr.Seq <= ev.Acked && (tr.Seq > 0 || !t.barriers())
	})
	for _, e := range ev.ChipErrors {
		if len(t.ChipErrors) < 100 {
			t.ChipErrors = append(t.ChipErrors, fmt.Sprintf("section %d: %s", r.Number, e))
		}
	}
	ev.Busts, ev.Out, ev.Group, ev.ChipErrors, ev.Money, ev.Entered, ev.Deal, ev.Unplaced = nil, nil, nil, nil, SectionMoney{}, nil, nil, nil
	r.Last = ev
	if ev.Closed {
		r.Phase = SectionClosed
	}
	t.checkChips(r.Number)
}

// checkChips is the conservation invariant across the sections: the chips each section last
// counted, and those of the players between two sections, are the ledger's.
func (t *TopState) checkChips(section int) {
	if t.Finished {
		return
	}
	var sum int64
	for _, r := range t.Sections {
		if r.Phase != SectionClosed {
			sum += r.Last.Chips
		}
	}
	for _, tr := range t.InTransit {
		sum += tr.Stack
	}
	if want := t.Ledger.Total(); sum != want && len(t.ChipErrors) < 100 {
		t.ChipErrors = append(t.ChipErrors, fmt.Sprintf("after an event of section %d: %d chips in play, the ledger says %d", section, sum, want))
	}
}

// place gives one elimination group its places (R5, R7) and prizes (R6).
func (t *TopState) place(group []floor.Elimination) {
	t.Left -= len(group)
	if t.fieldOpen() || len(t.Held) > 0 {
		// The field may still grow or shrink (R1): a place counts the field as it ends.
		t.Held = append(t.Held, group)
		return
	}
	t.award(t.Left+len(group), group)
}

// fieldOpen: entries may still come in or be withdrawn (late registration, an entry on its way
// to its section, a withdrawal not yet done) or the pool change (a rebuy its table may still
// refuse, the pool not yet final), so no place can be given yet.
func (t *TopState) fieldOpen() bool {
	if len(t.Entering) > 0 || t.Spec.LateRegistrationLevel > 0 && t.levelNumber() <= t.Spec.LateRegistrationLevel || t.poolOpen() {
		return true
	}
	for _, r := range t.open() {
		if r.Last.Withdrawing > 0 || r.Last.RebuysPending > 0 {
			return true
		}
	}
	return false
}

// levelNumber is the number of the level the clock is in (1 before the first).
func (t *TopState) levelNumber() int {
	if t.Period < 0 {
		return 1
	}
	return max(t.Spec.clockStructure().LevelNumber(t.Period), 1)
}

// placeHeld gives the groups held while the field was open their places, in the order they
// busted, counting the field as it is now (R5, R7).
func (t *TopState) placeHeld() {
	left := t.Left
	for _, g := range t.Held {
		left += len(g)
	}
	for _, g := range t.Held {
		t.award(left, g)
		left -= len(g)
	}
	t.Held = nil
}

// award gives one elimination group, busted with left players in, its places and prizes (R6).
func (t *TopState) award(left int, group []floor.Elimination) {
	standings, err := floor.PlaceGroup(left, group)
	if err != nil {
		t.ChipErrors = append(t.ChipErrors, "places: "+err.Error())
		return
	}
	t.record(floor.AwardPrizes(standings, t.Payouts.Prizes, t.Spec.Payouts.Unit))
}

// record keeps the best places and queues every one to be written out; a deal's players are
// paid its amounts.
func (t *TopState) record(awards []floor.Award) {
	for _, a := range t.Tools.Deal.pay(awards) {
		pl := Place{Place: a.Place, Player: string(a.Player), Prize: a.Prize}
		if a.Shared > 1 {
			pl.Shared = a.Shared
		}
		t.Unwritten = append(t.Unwritten, pl)
		if pl.Place <= KeepPlaces {
			t.Places = append(t.Places, pl)
		}
	}
	slices.SortStableFunc(t.Places, func(a, b Place) int { return a.Place - b.Place })
}

// WroteOut notes that the first n places of Unwritten were written out.
func (t *TopState) WroteOut(n int) {
	n = min(n, len(t.Unwritten))
	t.Unwritten = slices.Delete(t.Unwritten, 0, n)
	t.Written += n
	if len(t.Unwritten) == 0 {
		t.Unwritten = nil
	}
}

// Settled reports whether the sections are settled (see settled).
func (t *TopState) Settled() bool { return t.settled() }

// settled: every section has applied every order and reported no move under way, and nobody is
// between two sections: the counts are the sections' own.
func (t *TopState) settled() bool {
	if len(t.InTransit) > 0 {
		return false
	}
	for _, r := range t.open() {
		if r.Orders.Pending() || !r.Last.Settled {
			return false
		}
	}
	return true
}

// plannable: the counts the plan between sections reads are the sections' own for the
// tournament's orders: nobody is between two sections, every section in play has applied every
// order sent to it, and none still owes players to another (its SendOut done). Moves inside a
// section do not change its count of players, so they do not hold the plan up: a section of a
// hundred tables nearly always has one of its own under way, and waiting for every section to be
// settled at once left the field unplanned for minutes (300 entries in four sections went from
// 282 to 52 left with no transfer; at 10,000, sections of one player each). A run started before
// PlanBeside plans only when the sections are settled.
func (t *TopState) plannable() bool {
	if t.Plan < PlanBeside {
		return t.settled()
	}
	if len(t.InTransit) > 0 {
		return false
	}
	for _, r := range t.open() {
		if r.Orders.Pending() || r.Last.Owing > 0 {
			return false
		}
	}
	return true
}

// quiet: section r has applied every order sent to it, owes nobody, and nobody is on his way to it:
// its count is its own.
func (t *TopState) quiet(r *SectionRecord) bool {
	return !r.Orders.Pending() && r.Last.Owing == 0 && !slices.ContainsFunc(t.InTransit, func(tr Transfer) bool { return tr.To == r.Number })
}

// Tables is the number of tables in play.
func (t *TopState) Tables() int {
	n := 0
	for _, r := range t.open() {
		n += r.Last.Tables
	}
	return n
}

// HandsPlayed is the hands dealt in every section, as far as their news tells.
func (t *TopState) HandsPlayed() int64 {
	var n int64
	for _, r := range t.Sections {
		n += r.Last.HandsPlayed
	}
	return n
}

// Step is the tournament's work after the sections' news: the end (R5), the hand-for-hand round
// (R7), moving players between sections (R3, R4 for the whole field), closing empty sections.
func (t *TopState) Step(now time.Time) {
	if t.Finished {
		return
	}
	if t.barriers() {
		t.stepBarriers(now)
		return
	}
	h := &t.HandForHand
	t.closeRound()
	if t.settlePool(now) {
		return
	}
	for _, r := range t.open() {
		if (r.Phase == SectionDraining || r.Last.Tables == 0) && r.Last.Players == 0 && !r.Orders.Pending() && r.Last.Settled {
			r.Phase = SectionClosing
			r.Orders.Send(SectionOrder{Close: true})
		}
	}
	if !h.Open && t.Plan >= PlanBeside {
		t.drainShort()
	}
	if !h.Open && t.plannable() {
		t.planSections()
	}
	bubble := t.approachBubble(func(tables int) bool { return tables == 1 && t.settled() })
	if h.Open {
		return
	}
	lockstep, grouped := bubble.rounds(h.On)
	switch {
	case lockstep && !h.On:
		h.On = true
		t.openRound(false, true)
	case lockstep && (t.settled() || t.Plan >= PlanRoundBeside && t.plannable()):
		t.openRound(grouped, false)
	case !lockstep && h.On:
		h.On = false
		t.broadcast(SectionOrder{HandForHand: &SectionRound{Round: 0}})
	}
}

// approachBubble is where the whole field stands against the money (alone says, of the tables
// in play, whether one table is left by itself), and tells the sections when the approach and
// its last stretch begin or end.
func (t *TopState) approachBubble(alone func(tables int) bool) bubble {
	h := &t.HandForHand
	tables := t.Tables()
	margin := tables
	if t.Plan >= PlanBeside && tables > 1 && len(t.open()) == 1 {
		// The bubble's margins (the approach, the rounds) count the tables in play, and the
		// tournament hears of the busts a section's event late while the section grants its
		// tables their hands. Planned beside the sections' moves the field merges into one
		// section sooner, and with the whole field in it the margins count twice its tables: at
		// its tables alone that section's order of the approach came late and its tables busted
		// the field from 202 over the bubble (1,000 entries, TestSectionsSmallField seed 43).
		// Twice the tables of a large field would put it in the approach from its start (one
		// hand a grant: a 10,000-entry run dealt a fifth of the hands).
		margin = 2 * tables
	}
	b := t.Spec.bubble(t.Left, len(t.Payouts.Prizes), margin, alone(tables))
	if approach := b.approach(h.Approach); approach != h.Approach {
		h.Approach = approach
		t.broadcast(SectionOrder{Approach: &approach})
	}
	near := b.near(h.Approach, h.Near)
	if t.Plan >= PlanNearFollowsTables && !t.barriers() {
		near = b.nearNow(h.Approach, h.Near)
	}
	if t.Plan >= PlanNear && near != h.Near {
		h.Near = near
		t.broadcast(SectionOrder{Near: &near})
	}
	return b
}

// stepBarriers is Step in a seeded simulation from PlanBarriers, which must play the same whatever
// the scheduling of its tables and sections, as a tournament of one section does at its barriers
// (TournamentState.barriers). Every table of the field deals up to the same hand, the horizon,
// and stops; each section tells when all of its tables have (SectionEvent.Barrier). Once every
// section has, the tournament decides as the floor does at a barrier: it places the
// eliminations told since the last in the order of their hands, then tables (R5, R7 within one
// hand), moves the clock, and plans the field between its sections (R3, R4). The players a
// section sends out leave their tables at the barrier's hand; once every one has left, they are
// sent on to their sections in one order each, in the order of the sections they come from
// (sendArrivals). Once every section has seated them, the tournament moves the horizon on (each
// section then balances its own tables: stepLockstep) and opens the hand-for-hand round, if one is
// due. No decision waits on the order the news comes in.
func (t *TopState) stepBarriers(now time.Time) {
	h := &t.HandForHand
	t.closeRound()
	if h.Open {
		return
	}
	if t.Decided < t.Horizon {
		for _, r := range t.open() {
			if r.Last.Barrier < t.Horizon {
				return
			}
		}
		t.Decided = t.Horizon
		t.placeUnplaced()
		t.tick(now)
		if t.settlePool(now) {
			return
		}
	}
	if t.Planned < t.Decided {
		// The plan once the counts are the sections' own for every order sent (a level's, say);
		// the places did not wait for it, so that a run due to continue as new, which sends no
		// order until it has, carries no eliminations over (TopRun's quiet).
		if !t.plannable() {
			return
		}
		t.Planned = t.Decided
		t.drainShort()
		if t.plannable() {
			t.planSections()
		}
	}
	t.sendArrivals()
	if !t.plannable() {
		return
	}
	for _, r := range t.open() {
		if (r.Phase == SectionDraining || r.Last.Tables == 0) && r.Last.Players == 0 {
			r.Phase = SectionClosing
			r.Orders.Send(SectionOrder{Close: true})
		}
	}
	bubble := t.approachBubble(func(tables int) bool { return tables == 1 })
	lockstep, grouped := bubble.rounds(h.On)
	if !lockstep && h.On {
		h.On = false
		t.broadcast(SectionOrder{HandForHand: &SectionRound{Round: 0}})
	}
	// The round first: a section takes it up when the horizon moves (stepLockstep).
	switch {
	case lockstep && !h.On:
		h.On = true
		t.openRound(false, true)
	case lockstep:
		t.openRound(grouped, false)
	}
	horizon := t.Decided + t.window()
	t.Horizon = horizon
	t.broadcast(SectionOrder{Horizon: &horizon})
}

// placeUnplaced places the eliminations the sections told since the last barrier: by hand, then
// table.
func (t *TopState) placeUnplaced() {
	slices.SortStableFunc(t.Unplaced, func(a, b TableBusts) int {
		return cmp.Or(cmp.Compare(a.Hand, b.Hand), cmp.Compare(a.Table, b.Table))
	})
	for _, g := range t.Unplaced {
		t.place(slices.Clone(g.Eliminated))
	}
	t.Unplaced = nil
}

// sendArrivals sends the players on their way between two sections to the sections they go to,
// once every section has sent out all it was told to: one order a section, the players in the
// order of the sections they left, then their IDs, whatever order they left their tables in.
func (t *TopState) sendArrivals() {
	if !slices.ContainsFunc(t.InTransit, func(tr Transfer) bool { return tr.Seq == 0 }) {
		return
	}
	for _, r := range t.open() {
		if r.Orders.Pending() || r.Last.Owing > 0 {
			return
		}
	}
	var unsent []Transfer
	t.InTransit = slices.DeleteFunc(t.InTransit, func(tr Transfer) bool {
		if tr.Seq == 0 {
			unsent = append(unsent, tr)
		}
		return tr.Seq == 0
	})
	slices.SortStableFunc(unsent, func(a, b Transfer) int {
		return cmp.Or(cmp.Compare(a.From, b.From), strings.Compare(a.Player, b.Player))
	})
	t.sendOn(unsent)
}

// sendOn sends players who left their sections on to the sections they go to: one order a
// section, in the order of the sections' numbers, each with its players in the order given. They
// are on their way until it has applied the order.
func (t *TopState) sendOn(transfers []Transfer) {
	byDest := map[int][]Transfer{}
	var dests []int
	for _, tr := range transfers {
		if _, ok := byDest[tr.To]; !ok {
			dests = append(dests, tr.To)
		}
		byDest[tr.To] = append(byDest[tr.To], tr)
	}
	slices.Sort(dests)
	for _, d := range dests {
		trs := byDest[d]
		d = t.arrivalSection(d)
		seq := t.order(d, SectionOrder{Arrivals: trs})
		for _, tr := range trs {
			tr.To, tr.Seq = d, seq
			t.InTransit = append(t.InTransit, tr)
		}
	}
}

// settlePool closes the pool once it is final, places the groups held while the field was open,
// and ends the tournament when one player is left (R5), which it reports.
func (t *TopState) settlePool(now time.Time) (finished bool) {
	t.closePool()
	if len(t.Held) > 0 && (!t.fieldOpen() || t.Left <= 1) {
		t.placeHeld()
	}
	if t.Left <= 1 {
		t.Finish(now)
		return true
	}
	return false
}

// closeRound places the hand-for-hand round's eliminations, one group (R7), once every section
// has dealt it.
func (t *TopState) closeRound() {
	h := &t.HandForHand
	if !h.Open || !t.roundDone() {
		return
	}
	if len(h.Group) > 0 {
		t.place(h.Group)
	}
	if h.Grouped {
		h.Rounds++
	}
	h.Open, h.Group, h.Participants = false, nil, nil
}

// arrivalSection is the section that takes players sent to section d: d, or the lowest open
// section when d no longer is (the plan sends players only to open sections; one closed since
// takes none).
func (t *TopState) arrivalSection(d int) int {
	if dest := t.Section(d); dest != nil && dest.Phase == SectionOpen {
		return d
	}
	for _, o := range t.open() {
		if o.Phase == SectionOpen {
			return o.Number
		}
	}
	return d
}

func (t *TopState) openRound(grouped, skip bool) {
	h := &t.HandForHand
	h.Open, h.Grouped = true, grouped
	h.Round++
	h.Participants = nil
	for _, r := range t.open() {
		h.Participants = append(h.Participants, r.Number)
		r.Orders.Send(SectionOrder{HandForHand: &SectionRound{Round: h.Round, Grouped: grouped, Skip: skip}})
	}
}

func (t *TopState) roundDone() bool {
	for _, n := range t.HandForHand.Participants {
		r := t.Section(n)
		if (r.Phase == SectionOpen || r.Phase == SectionDraining) && r.Last.RoundDone < t.HandForHand.Round {
			return false
		}
	}
	return true
}

// planSections moves players between the sections so that the whole field keeps R3 and R4
// (floor.PlanSections); a section that keeps no table drains into the others.
func (t *TopState) planSections() {
	var counts []floor.SectionCount
	for _, r := range t.open() {
		if r.Phase != SectionOpen {
			continue
		}
		c := floor.SectionCount{ID: r.Number, Players: r.Last.Players, Tables: r.Last.Tables}
		switch {
		case t.Plan >= PlanBarrierCounts && t.barriers(), t.Plan >= PlanKeptTables:
			// At a barrier no section has broken a table since the last (its own plan comes with
			// the next horizon): counted at the tables it stopped at, every section would look
			// as empty as the field has become, and the plan would close whole sections and move
			// their players (at 18,000 entries, 14 % of the field at the first barrier) where
			// each section breaks its own tables down to what its players fill. Without
			// barriers (from PlanKeptTables) the same holds for the tables a section has not
			// yet broken: its breaks lag its eliminations (at 30,000 entries, 2,059 tables kept
			// for 1,366 needed), and counted at those the plan closed 13 of 34 sections at once.
			c.Tables = floor.TableCount(r.Last.Players, t.Spec.TableSize)
		case t.Plan >= PlanBeside:
			// The tables it keeps: those it is breaking take no arrival (their players are on their
			// way to its other tables), and a plan counting them would send players it must open
			// new tables for.
			c.Tables = max(r.Last.Tables-r.Last.Breaking, floor.TableCount(r.Last.Players, t.Spec.TableSize))
		}
		counts = append(counts, c)
	}
	if t.Plan >= PlanBeside {
		t.drainLeftovers()
	}
	if len(counts) < 2 {
		return
	}
	plan, err := floor.PlanSections(counts, t.Spec.TableSize)
	if err != nil {
		t.ChipErrors = append(t.ChipErrors, "section plan: "+err.Error())
		return
	}
	for _, tr := range plan.Transfers {
		t.order(tr.From, SectionOrder{SendOut: &SendOutOrder{To: tr.To, Players: tr.Players, Beside: t.Plan >= PlanBeside}})
	}
	for _, n := range plan.Closing {
		t.Section(n).Phase = SectionDraining
	}
}

// drainShort moves out at once the players of a section who cannot fill one table while the other
// sections have the seats to take them (R4 for the whole field): above all a lone player, who
// cannot play (a table of one deals no hand). It does not wait for the whole field to be
// plannable, only for that section's count to be its own (quiet); the section drains, and
// closes once empty. Another section's free seats are counted from its last event, less the
// players on their way to it.
func (t *TopState) drainShort() {
	size := t.Spec.TableSize
	for _, r := range t.open() {
		if r.Phase != SectionOpen || r.Last.Players == 0 || r.Last.Players >= size || !t.quiet(r) {
			continue
		}
		type dest struct{ n, free, players int }
		var dests []dest
		free := 0
		for _, o := range t.open() {
			if o == r || o.Phase != SectionOpen || o.Last.Players == 0 {
				continue
			}
			f := (o.Last.Tables-o.Last.Breaking)*size - o.Last.Players
			for _, tr := range t.InTransit {
				if tr.To == o.Number {
					f--
				}
			}
			if f > 0 {
				dests = append(dests, dest{o.Number, f, o.Last.Players})
				free += f
			}
		}
		if free < r.Last.Players {
			continue // the others cannot take them: the section plays on, and the plan balances it
		}
		// The fullest sections first, so that the players reach the tables that deal.
		slices.SortStableFunc(dests, func(a, b dest) int { return b.players - a.players })
		left := r.Last.Players
		for _, d := range dests {
			n := min(left, d.free)
			if n == 0 {
				break
			}
			t.order(r.Number, SectionOrder{SendOut: &SendOutOrder{To: d.n, Players: n, Beside: true}})
			left -= n
		}
		r.Phase = SectionDraining
	}
}

// drainLeftovers sends the players a draining section still holds once it has sent what it was
// told (late entries it seated after its SendOut, players who arrived before the tournament
// marked it draining) to the open section with the most free seats: a draining section is left
// out of the plan, and its players would play there apart from the field to the end.
func (t *TopState) drainLeftovers() {
	for _, r := range t.open() {
		if r.Phase != SectionDraining || r.Last.Players == 0 || !t.quiet(r) {
			continue
		}
		best, most := 0, 0
		for _, o := range t.open() {
			if o.Phase != SectionOpen {
				continue
			}
			if f := (o.Last.Tables-o.Last.Breaking)*t.Spec.TableSize - o.Last.Players; best == 0 || f > most {
				best, most = o.Number, f
			}
		}
		if best != 0 {
			t.order(r.Number, SectionOrder{SendOut: &SendOutOrder{To: best, Players: r.Last.Players, Beside: true}})
		}
	}
}

// Finish ends the tournament (R5): the last player wins, every section closes.
func (t *TopState) Finish(now time.Time) {
	t.Finished, t.Ended = true, now
	if t.Left == 1 {
		// The winner is a section's last player, or the one player on his way between two (he
		// left his table for another section after the hand that busted the last but him).
		winner := ""
		for _, r := range t.Sections {
			if r.Last.Players == 1 && r.Last.Last != "" {
				winner = r.Last.Last
				break
			}
		}
		if winner == "" && len(t.InTransit) == 1 {
			winner = t.InTransit[0].Player
		}
		if winner != "" {
			t.record(floor.AwardPrizes([]floor.Standing{{Player: floor.PlayerID(winner), Place: 1, Shared: 1}}, t.Payouts.Prizes, t.Spec.Payouts.Unit))
		} else {
			t.ChipErrors = append(t.ChipErrors, "the winner: one player left, in no section's count and not between two")
		}
	}
	for _, r := range t.open() {
		r.Phase = SectionClosing
		r.Orders.Send(SectionOrder{Close: true})
	}
}

// ClockAt is the published schedule's state at now (B3, R2); in a simulation the clock is the
// hands dealt (the median of the sections' medians), HandTime each.
func (t *TopState) ClockAt(now time.Time) (floor.ClockState, error) {
	if t.Spec.Simulation {
		at := t.Started.Add(time.Duration(t.simHands()) * t.Spec.HandTime)
		cs, err := floor.Clock(t.Spec.clockStructure(), t.Started, nil, at)
		cs.Paused = t.Paused
		return cs, err
	}
	return floor.Clock(t.Spec.Structure, t.Started, t.ClockEvents, now)
}

func (t *TopState) simHands() int64 {
	var hands []int64
	for _, r := range t.open() {
		if r.Last.Tables > 0 {
			hands = append(hands, r.Last.MedianHands)
		}
	}
	if len(hands) == 0 {
		return t.SimHands
	}
	slices.Sort(hands)
	return max(t.SimHands, hands[len(hands)/2])
}

// Tick tells the sections the period the clock is in, if it changed (B3).
func (t *TopState) Tick(now time.Time) {
	if t.barriers() && t.Period >= 0 {
		return // the clock moves at the barriers, on the hands every table has dealt (stepBarriers)
	}
	t.tick(now)
}

func (t *TopState) tick(now time.Time) {
	if t.Finished {
		return
	}
	if t.Spec.Simulation {
		t.SimHands = t.simHands()
	}
	cs, err := t.ClockAt(now)
	if err != nil {
		t.ChipErrors = append(t.ChipErrors, "clock: "+err.Error())
		return
	}
	if cs.Period == t.Period {
		return
	}
	t.Period, t.OnBreak = cs.Period, cs.OnBreak
	l := engineLevel(cs.Blinds)
	t.LevelLog = append(t.LevelLog, LevelChange{Period: cs.Period, Number: cs.Level, Level: l, OnBreak: cs.OnBreak, At: now, Hands: t.SimHands})
	t.broadcast(SectionOrder{Period: cs.Period, Level: &LevelOrder{Number: cs.Level, Level: l, OnBreak: cs.OnBreak}})
}

// VerifyClock says why the clock action cannot be taken now, or returns nil.
func (t *TopState) VerifyClock(r ClockRequest) error {
	if _, ok := t.Actions[r.Key]; ok && r.Key != "" {
		return nil
	}
	probe := TournamentState{Spec: t.Spec, Finished: t.Finished, Paused: t.Paused}
	return probe.VerifyClock(r)
}

// Clock records the clock action at now and tells the sections (P6: who and why).
func (t *TopState) Clock(r ClockRequest, now time.Time) {
	if _, ok := t.Actions[r.Key]; ok && r.Key != "" {
		return
	}
	if r.Key != "" {
		if t.Actions == nil {
			t.Actions = map[string]string{}
		}
		t.Actions[r.Key] = ""
	}
	t.ClockEvents = append(t.ClockEvents, floor.ClockEvent{At: now, Kind: r.Kind, Add: r.Add, By: r.By, Reason: r.Reason})
	if r.Kind == floor.ClockPause || r.Kind == floor.ClockResume {
		t.Paused = r.Kind == floor.ClockPause
		p := t.Paused
		t.broadcast(SectionOrder{Pause: &p})
	}
	t.Tick(now)
}

// ErrSections is the answer to a director's action a tournament of sections does not take itself.
var ErrSections = errors.New("a tournament of several sections takes the clock, late entries, batches and deals itself; an action on a player goes to his section")

// ErrNotInSections is a director's action the tournament of sections refuses, and why.
type ErrNotInSections struct {
	Action string // "re-entry", "rebuy", "sanction", "deal", ...
	Why    string
}

func (e ErrNotInSections) Error() string {
	return fmt.Sprintf("%s refused: %s", e.Action, e.Why)
}

// Unwrap makes every refusal an ErrSections.
func (e ErrNotInSections) Unwrap() error { return ErrSections }

// whyRouted is why a tournament of sections refuses an action on a player sent to it.
const whyRouted = "the player's record (stack, table, rebuys, sanctions) is in his section's workflow: send it there " +
	"(workflows.Tournament finds his section; the sections query lists them)"

// RefuseOnPlayer is the answer of the tournament to an action on a player sent to it instead of
// his section.
func (t *TopState) RefuseOnPlayer(action string) error {
	return ErrNotInSections{Action: action, Why: whyRouted}
}

// PendingEntry is a late entry sent to a section, until the director has its answer.
type PendingEntry struct {
	Key       string `json:"key"`
	Player    string `json:"player"`
	ReEntryOf string `json:"reEntryOf,omitempty"`
	Section   int    `json:"section"`
	Answered  bool   `json:"answered,omitempty"`
	Refused   string `json:"refused,omitempty"`
}

// Level is the number of the level being played.
func (t *TopState) Level(now time.Time) int {
	cs, err := t.ClockAt(now)
	if err != nil {
		return 0
	}
	return cs.Level
}

// VerifyRegister says why a late entry cannot be taken (R1: registration closed; R6: the payouts
// cannot take it; a re-entry), or returns nil. The section it goes to refuses an ID it knows.
func (t *TopState) VerifyRegister(r RegisterRequest, now time.Time) error {
	switch {
	case t.Finished:
		return errors.New("the tournament is over")
	case r.ReEntryOf != "":
		return t.verifyReEntry(r, now)
	case r.Player == "":
		return errors.New("an entry needs a player ID")
	case strings.Contains(r.Player, ReEntryMark):
		return errReEntryMark(r.Player)
	}
	if l := t.Level(now); l > t.Spec.LateRegistrationLevel {
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("registration closed after level %d; this is level %d", t.Spec.LateRegistrationLevel, l)}
	}
	if t.inDraw(r.Player) {
		return fmt.Errorf("%q is registered already (one of the %d entries of the draw)", r.Player, t.Spec.PlayerCount)
	}
	pending := 0
	for _, e := range t.Entering {
		if e.Answered {
			continue
		}
		if e.Player == r.Player && e.Key != r.Key {
			return fmt.Errorf("%q is being registered already", r.Player)
		}
		pending++
	}
	if t.EntrySection(r.Player) == 0 {
		return errors.New("no section is open to seat a late entry")
	}
	e := t.Entries
	e.Entries += 1 + pending
	if _, err := t.Spec.payoutsFor(t.buyIns(e)); err != nil {
		return fmt.Errorf("the payouts cannot take it (tell the director to change the payout structure): %w", err)
	}
	return nil
}

// inDraw reports whether id is one of the names the draw gave (NamedDraw).
func (t *TopState) inDraw(id string) bool {
	n := t.Spec.PlayerCount
	width := max(len(strconv.Itoa(n)), 4)
	if !t.NamedDraw || len(id) != width+1 || id[0] != 'p' {
		return false
	}
	k, err := strconv.Atoi(id[1:])
	return err == nil && k >= 1 && k <= n
}

// Register sends the late entry to its section (EntrySection), which seats him and answers
// (Entry); the entry counts in the pool once it has (its event's Money).
func (t *TopState) Register(r RegisterRequest) {
	if k := slices.IndexFunc(t.Entering, func(e PendingEntry) bool { return e.Key == r.Key }); k >= 0 && r.Key != "" {
		return
	}
	n := t.entrySection(r)
	t.Entering = append(t.Entering, PendingEntry{Key: r.Key, Player: r.Player, ReEntryOf: r.ReEntryOf, Section: n})
	o := EntryOrder{Key: r.Key, Player: r.Player, ReEntryOf: r.ReEntryOf}
	// The entries of one task to one section go in one order (a batch is one order a section).
	if rec := t.Section(n); rec != nil {
		if q := rec.Orders.LastQueued(); q != nil && len(q.Entries) > 0 {
			q.Entries = append(q.Entries, o)
			return
		}
	}
	t.order(n, SectionOrder{Entries: []EntryOrder{o}})
}

// entered takes a section's answer to a late entry.
func (t *TopState) entered(d EntryDone) {
	k := slices.IndexFunc(t.Entering, func(e PendingEntry) bool { return e.Key == d.Key && !e.Answered })
	if k < 0 {
		return // answered already, or its director's call gave up waiting: the section has it
	}
	e := &t.Entering[k]
	e.Answered, e.Player, e.Refused = true, d.Player, d.Refused
}

// Entry is the late entry with key key, and whether its section has answered.
func (t *TopState) Entry(key string) (PendingEntry, bool) {
	k := slices.IndexFunc(t.Entering, func(e PendingEntry) bool { return e.Key == key })
	if k < 0 {
		return PendingEntry{}, false
	}
	return t.Entering[k], t.Entering[k].Answered
}

// TakeEntry forgets the late entry with key key once the director has its answer (a retry of
// the key later is answered by its section, which keeps it).
func (t *TopState) TakeEntry(key string) {
	t.Entering = slices.DeleteFunc(t.Entering, func(e PendingEntry) bool { return e.Key == key })
	if len(t.Entering) == 0 {
		t.Entering = nil
	}
}

// Progress reports the tournament at now.
func (t *TopState) Progress(now time.Time) Progress {
	p := Progress{Name: t.Spec.Name, Entries: t.Entries.Field(), PlayersLeft: t.Left, Tables: t.Tables(), HandsPlayed: t.HandsPlayed(),
		HandForHand: t.HandForHand.On, PrizePool: t.Payouts.Pool, Paid: len(t.Payouts.Prizes), Finished: t.Finished, Paused: t.Paused}
	for _, g := range t.Unplaced {
		p.PlayersLeft -= len(g.Eliminated) // out, their places given at the next barrier
	}
	at := now
	if t.Finished {
		at = t.Ended
	}
	if cs, err := t.ClockAt(at); err == nil {
		p.Level, p.Blinds, p.OnBreak = cs.Level, engineLevel(cs.Blinds), cs.OnBreak
		p.NextLevelIn = t.Spec.nextLevelIn(cs)
	}
	return p
}

// ClockView reports the clock at now.
func (t *TopState) ClockView(now time.Time) ClockView {
	v := ClockView{Simulation: t.Spec.Simulation, Started: t.Started, Events: t.ClockEvents, Changes: t.LevelLog}
	v.State, _ = t.ClockAt(now)
	return v
}

// StandingsView is the places kept so far, best first (the whole list is written out).
func (t *TopState) StandingsView() []Standing {
	out := make([]Standing, 0, len(t.Places))
	for _, p := range t.Places {
		out = append(out, Standing{Player: p.Player, Place: p.Place, Shared: p.Shared, Prize: p.Prize, Status: Out})
	}
	return out
}

// PayoutsView reports the payouts and the places kept.
func (t *TopState) PayoutsView() PayoutsView {
	v := PayoutsView{Payouts: t.Payouts, Entries: t.Entries}
	for _, p := range t.Places {
		v.Awards = append(v.Awards, floor.Award{Standing: floor.Standing{Player: floor.PlayerID(p.Player), Place: p.Place, Shared: max(p.Shared, 1)}, Prize: p.Prize})
	}
	return v
}

// Result is the tournament's result: the places kept, best first (every place was written out).
func (t *TopState) Result() (TournamentResult, error) {
	if !t.Finished {
		return TournamentResult{}, errors.New("the tournament is not over")
	}
	return TournamentResult{Name: t.Spec.Name, Places: slices.Clone(t.Places), PrizePool: t.Payouts.Pool, Entries: t.Entries.Field(),
		HandsPlayed: t.HandsPlayed(), Tables: t.TablesOpened, HandForHandRounds: t.HandForHand.Rounds, Started: t.Started, Ended: t.Ended,
		Ledger: t.Ledger, ChipErrors: t.ChipErrors, Bounties: t.BountyResult(), Deal: t.Tools.Deal}, nil
}

// Redacted is the state without the seed, for the State query.
func (t *TopState) Redacted() *TopState {
	c := *t
	c.Seed, c.Spec.Seed = 0, 0
	return &c
}
