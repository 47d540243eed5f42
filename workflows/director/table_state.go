package director

import (
	"fmt"
	"slices"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TableState is a table between hands as its TableWorkflow holds it: the input of the workflow,
// and what it carries over when it continues as new. Everything in it is plain data; its methods
// are the table's decisions, deterministic, so that the workflow only sequences them.
type TableState struct {
	Tournament string        `json:"tournament"` // the TournamentWorkflow's ID
	ID         string        `json:"id"`         // the table's ID: its workflow ID, and report.State.TableID
	Number     floor.TableID `json:"number"`
	Config     engine.Config `json:"config"`
	// Seats holds the occupied seats, in seat order.
	Seats     []TableSeat      `json:"seats"`
	Positions engine.Positions `json:"positions"`
	// DrawnBigBlind is the floor's BigBlind before the first hand (floor.DrawButton's), so that
	// NextBigBlindSeat names the first big blind.
	DrawnBigBlind floor.Seat `json:"drawnBigBlind"`
	// ButtonSeed, when not 0, seeds the button draw still to be made (T3): the table opened with
	// one player, and draws when it has two, before its first hand.
	ButtonSeed  uint64       `json:"buttonSeed,omitempty"`
	HandNumber  int64        `json:"handNumber"`  // of the last hand acknowledged
	HandsPlayed int64        `json:"handsPlayed"` // hands dealt here, void ones excluded
	Level       engine.Level `json:"level"`
	LevelNumber int          `json:"levelNumber"`
	OnBreak     bool         `json:"onBreak,omitempty"`
	Paused      bool         `json:"paused,omitempty"`
	Held        bool         `json:"held,omitempty"`
	// Batch is the most hands the table plays between reports (1 in live play).
	Batch int `json:"batch"`
	// Schedule, in a simulation, is the published blind schedule counted in hands (B3, R2): the
	// table's clock is its own hand number, so each level starts at the hand the schedule says
	// whenever the tournament hears of it, and a batch may cross a level change. Level orders
	// are then only the tournament's news.
	Schedule []ScheduledLevel `json:"schedule,omitempty"`
	// Last, in a simulation, says the table is the tournament's last and nobody can join it: when
	// one player holds every chip it closes itself (R5), with no round trip to the tournament.
	Last bool `json:"last,omitempty"`
	// Credit, in a simulation, is the last hand the table may deal before the tournament has heard
	// from it (0: no limit). It keeps the tables from running ahead of the floor's decisions when
	// the machine is busy, and near the bubble makes them tell every hand.
	Credit int64 `json:"credit,omitempty"`
	// Slide: after a hand in which nobody was eliminated the credit runs on to the next hand, so
	// that near the bubble only a hand with an elimination (news the floor must hear before the
	// table deals on) waits for the tournament's grant.
	Slide bool `json:"slide,omitempty"`
	// BustHands counts the hands with an elimination the table has dealt; BustCredit, with a
	// sliding credit, is how many of them it may have dealt and still slide on past one (0:
	// none; Order.BustCredit): far from the rounds the floor lets a table deal on past an
	// elimination while it hears of it (TournamentState.approachSpare).
	BustHands  int64 `json:"bustHands,omitempty"`
	BustCredit int64 `json:"bustCredit,omitempty"`
	// HandForHand is the hand-for-hand round the table may deal (0: not hand-for-hand);
	// RoundPlayed the last round it dealt or skipped; RoundDealing the round of the hand the last
	// State let it deal.
	HandForHand  int  `json:"handForHand,omitempty"`
	RoundSkip    bool `json:"roundSkip,omitempty"`
	RoundPlayed  int  `json:"roundPlayed,omitempty"`
	RoundDealing int  `json:"roundDealing,omitempty"`
	// Acked is the Seq of the last order applied; Pending the orders received and not applied.
	Acked   int     `json:"acked"`
	Pending []Order `json:"pending,omitempty"`
	// EventSeq is the Seq of the last TableEvent sent; ReportedHands and ReportedLevel what it said.
	EventSeq      int   `json:"eventSeq"`
	ReportedHands int64 `json:"reportedHands"`
	ReportedLevel int   `json:"reportedLevel"`
	// Heartbeat: the table tells the tournament at least this often (workflow time) that it is
	// alive, so that its deadline notices one that stopped reporting (0: never); LastEventAt is
	// when it last told.
	Heartbeat   time.Duration `json:"heartbeat,omitempty"`
	LastEventAt time.Time     `json:"lastEventAt,omitzero"`
	// TellGaps: a gap in the orders (Gap) is news, told at once, so that the tournament sends the
	// missing ones again (set by tournaments from PaceResend; a table started before keeps its
	// events as they were); ReportedGap is the Gap the last event told.
	TellGaps    bool `json:"tellGaps,omitempty"`
	ReportedGap int  `json:"reportedGap,omitempty"`
	// Replying: an Update of the table's events that its section may answer with orders is on
	// its way (PaceOrdersInReply): a gap in its orders may be those, a signal sent after them
	// having come first, so it is not news until the answer is in.
	Replying bool `json:"replying,omitempty"`
	// SkipHeld: a hand-for-hand round the table is held in counts as skipped (set by tournaments
	// from PaceHeldSkip; a table started before waits for its release, as it did).
	SkipHeld bool `json:"skipHeld,omitempty"`
	// SlideBatch: with a sliding credit the table deals a whole batch through the hands in which
	// nobody is eliminated and stops after the first one with an elimination past its credit
	// (report.State.Go), rather than one hand a report (set by tournaments from PaceSlideBatch; a
	// table started before reports every hand, as it did). The hands it may deal are the same.
	SlideBatch bool `json:"slideBatch,omitempty"`
	// QuietStart: the table's first run does not say it is up (TableEvent.Resumed): its section
	// marks it started, and able to keep quiet, once its start is done (set by tournaments from
	// PaceQuietStart; a table started before says so, as it did). At 100,000 entries a section's
	// hundred tables said so while its tables' start was in one slow task of its, and their
	// events and the start activities' came to more than the server takes during one task.
	QuietStart bool `json:"quietStart,omitempty"`
	// Quiet is the Seq of the section's Order.Quiet in force (0: none): the table sends no event
	// until an order past it comes; QuietOwed: the event that answers it has not gone yet
	// (link.go, "Quiet").
	Quiet     int  `json:"quiet,omitempty"`
	QuietOwed bool `json:"quietOwed,omitempty"`
	// Undelivered are events whose signal failed every attempt: they go again, before the next,
	// so that the tournament never waits on a gap in the sequence.
	Undelivered []TableEvent `json:"undelivered,omitempty"`
	// ReportEvery: the table also tells the tournament its hand count every so many hands, for
	// progress, even when nothing else changed (0: never).
	ReportEvery int  `json:"reportEvery,omitempty"`
	Closing     bool `json:"closing,omitempty"`
	// ContinueAsNewAfter is the history length after which the workflow continues as new, when
	// Temporal has not suggested it sooner (0: only when suggested).
	ContinueAsNewAfter int `json:"continueAsNewAfter,omitempty"`
	// MaxWait is how long a report waits in the workflow for the table to be allowed to deal
	// before it answers Wait; WaitFor is what the Wait answer then asks.
	MaxWait time.Duration `json:"maxWait"`
}

// TableSeat is one occupied seat.
type TableSeat struct {
	Seat   int                `json:"seat"` // 0-based, as engine and table count
	Player string             `json:"player"`
	Stack  int64              `json:"stack"`
	State  engine.PlayerState `json:"state"`
	// Away is the hands of an exclusion left to serve (P2, P3); the seat is Penalised meanwhile.
	Away int `json:"away,omitempty"`
	// Came: a hand since he sat here had him at the table (not among its result's Absent);
	// Absent: the tournament was told he has not come (T4), and will be told when he does.
	Came   bool `json:"came,omitempty"`
	Absent bool `json:"absent,omitempty"`
}

// ScheduledLevel is a level of a simulation's schedule, dealt from hand number From on.
type ScheduledLevel struct {
	From   int64        `json:"from"`
	Number int          `json:"number"`
	Level  engine.Level `json:"level"`
}

// followSchedule sets the level of the next hand from the schedule (a simulation's clock).
func (t *TableState) followSchedule() {
	next := t.HandNumber + 1
	for _, l := range t.Schedule {
		if l.From > next {
			break
		}
		t.Level, t.LevelNumber = l.Level, l.Number
	}
}

// ReportRequest is the argument of ReportUpdate.
type ReportRequest struct {
	Results []report.HandResult `json:"results"`
	// Delivers says the host sends the batch of events its answer carries (ReportAnswer.Deliver)
	// to the table's section itself, and brings back what the section said in its next report:
	// Taken, the last of the table's events the section took (0: none since the last report),
	// and Replies, the orders it answered with (TableEvent.Replies).
	Delivers bool    `json:"delivers,omitempty"`
	Taken    int     `json:"taken,omitempty"`
	Replies  []Order `json:"replies,omitempty"`
}

// ReportAnswer is the result of ReportUpdate: the table's State, and for a host that delivers
// (ReportRequest.Delivers) the batch of events it is to give the section, recorded as the
// Update's result before it leaves the table's workflow.
type ReportAnswer struct {
	report.State
	Deliver *EventDelivery `json:"deliver,omitempty"`
}

// EventDelivery is a batch of a table's events for its section (Section, its workflow ID).
type EventDelivery struct {
	Section string       `json:"section"`
	Events  []TableEvent `json:"events"`
}

// Clone returns a deep copy (the validator works on one).
func (t *TableState) Clone() *TableState {
	c := *t
	c.Seats = slices.Clone(t.Seats)
	c.Pending = slices.Clone(t.Pending)
	c.Undelivered = slices.Clone(t.Undelivered)
	return &c
}

func (t *TableState) seatIndex(seat int) int {
	return slices.IndexFunc(t.Seats, func(s TableSeat) bool { return s.Seat == seat })
}

func (t *TableState) playerIndex(player string) int {
	return slices.IndexFunc(t.Seats, func(s TableSeat) bool { return s.Player == player })
}

// FloorTable is the table as the floor's decisions see it.
func (t *TableState) FloorTable() floor.Table {
	ft := floor.Table{ID: t.Number, Seats: make([]floor.PlayerID, t.Config.Seats)}
	for _, s := range t.Seats {
		ft.Seats[s.Seat] = floor.PlayerID(s.Player)
	}
	ft.Button = floor.Seat(t.Positions.Button + 1)
	ft.BigBlind = t.DrawnBigBlind
	if t.Positions.Played {
		ft.BigBlind = floor.Seat(t.Positions.BigBlind + 1)
	}
	return ft
}

// ApplyResults checks the results and applies the new ones (those after HandNumber) to the table,
// noting in ev what the tournament must hear. Results already applied are skipped: a retried
// report never counts a hand twice. On an error nothing may be kept: the caller works on a Clone
// in the validator, so the handler never sees one.
func (t *TableState) ApplyResults(results []report.HandResult, ev *TableEvent) error {
	var prev *report.HandResult
	for i := range results {
		r := &results[i]
		if prev != nil {
			want := prev.HandNumber + 1
			if prev.Voided {
				want = prev.HandNumber
			}
			if r.HandNumber != want {
				return fmt.Errorf("hand %d follows hand %d in the report: hand numbers out of order", r.HandNumber, prev.HandNumber)
			}
		}
		prev = r
		if r.HandNumber <= t.HandNumber {
			continue // acknowledged already (a retry)
		}
		if err := t.applyResult(r, ev); err != nil {
			return err
		}
	}
	return nil
}

func (t *TableState) applyResult(r *report.HandResult, ev *TableEvent) error {
	if r.TableID != t.ID {
		return fmt.Errorf("hand %d: a result of table %q reported to table %q", r.HandNumber, r.TableID, t.ID)
	}
	if r.HandNumber != t.HandNumber+1 {
		return fmt.Errorf("hand %d: the next hand at table %s is %d: hand numbers out of order", r.HandNumber, t.ID, t.HandNumber+1)
	}
	if err := t.checkStacks(r); err != nil {
		return fmt.Errorf("hand %d: %w", r.HandNumber, err)
	}
	if r.Voided {
		return nil // rule D4: every chip went back, the button did not move, the number is reused
	}
	for _, s := range []int{r.Positions.Button, r.Positions.BigBlind} {
		if s < 0 || s >= t.Config.Seats {
			return fmt.Errorf("hand %d: the button or big blind in seat %d of a %d-seat table", r.HandNumber, s, t.Config.Seats)
		}
	}
	// B7: a newcomer is dealt in once his seat is not between the button and the small blind (the
	// big blind when the small blind is dead); the engine did it, the record follows.
	gapEnd := r.Positions.SmallBlind
	if gapEnd < 0 || t.seatIndex(gapEnd) < 0 {
		gapEnd = r.Positions.BigBlind
	}
	var busted []floor.Elimination
	end := make(map[int]int64, len(r.End))
	for _, s := range r.End {
		end[s.Seat] = s.Stack
	}
	kept := t.Seats[:0]
	for _, s := range t.Seats {
		start := s.Stack
		s.Stack = end[s.Seat]
		switch {
		case s.State == engine.WaitingForButton && !between(t.Config.Seats, r.Positions.Button, s.Seat, gapEnd):
			s.State = engine.Active
		case s.State == engine.Penalised:
			s.Away--
			if s.Away <= 0 {
				s.Away, s.State = 0, engine.Active
			}
		}
		if s.Stack == 0 {
			busted = append(busted, floor.Elimination{Player: floor.PlayerID(s.Player), Stack: start})
			continue
		}
		kept = append(kept, s)
	}
	t.Seats = kept
	t.notePresence(r, ev)
	t.HandNumber = r.HandNumber
	t.HandsPlayed++
	t.Positions = r.Positions
	round := 0
	if t.RoundDealing > t.RoundPlayed {
		round = t.RoundDealing
		t.RoundPlayed = round
		ev.HandForHand = round
	}
	if len(busted) > 0 {
		ev.Busts = append(ev.Busts, BustGroup{Hand: r.HandNumber, Round: round, Eliminated: busted, Knockouts: r.Knockouts})
		t.BustHands++
	}
	if t.Slide && t.Credit > 0 && (len(busted) == 0 || t.BustHands <= t.BustCredit) {
		// Nobody out: the field is as the floor knows it; or an elimination the floor lets the
		// table deal on past while it hears of it (BustCredit). report.State.Go does the same.
		t.Credit = max(t.Credit, t.HandNumber+1)
	}
	return nil
}

// notePresence follows who has come to the table (T4): a player the result lists absent, who has
// not come since he sat here, is told absent once (TableEvent.Absent); when a hand has him at the
// table he has come, and if he was told absent he is told arrived (TableEvent.Arrived). A table
// of bots lists nobody absent: everyone comes at the first hand, and nothing is told.
func (t *TableState) notePresence(r *report.HandResult, ev *TableEvent) {
	for i := range t.Seats {
		s := &t.Seats[i]
		switch {
		case s.Came:
		case slices.Contains(r.Absent, s.Player):
			if !s.Absent {
				s.Absent = true
				ev.Absent = append(ev.Absent, s.Player)
			}
		case slices.ContainsFunc(r.Start, func(ss report.SeatStack) bool { return ss.Player == s.Player }):
			s.Came = true
			if s.Absent {
				s.Absent = false
				ev.Arrived = append(ev.Arrived, s.Player)
			}
		}
	}
}

// between reports whether seat x lies strictly between seats a and b going clockwise round a
// table of n seats (as the engine's dealing rule B7 reads it).
func between(n, a, x, b int) bool {
	d := func(from, to int) int { return ((to-from)%n + n) % n }
	return x != a && x != b && d(a, x) < d(a, b)
}

// checkStacks holds a result against the table as the tournament knows it: the same players in the
// same seats with the same chips at the start, no chip created or lost, eliminations exactly the
// players left with nothing, at their starting stacks (R7).
func (t *TableState) checkStacks(r *report.HandResult) error {
	if len(r.Start) != len(t.Seats) {
		return fmt.Errorf("%d seats at the start of the hand, the table has %d players", len(r.Start), len(t.Seats))
	}
	var in, out int64
	for _, s := range r.Start {
		i := t.seatIndex(s.Seat)
		if i < 0 || t.Seats[i].Player != s.Player {
			return fmt.Errorf("unknown player %q in seat %d", s.Player, s.Seat)
		}
		if t.Seats[i].Stack != s.Stack {
			return fmt.Errorf("%s started the hand with %d chips, the table holds %d", s.Player, s.Stack, t.Seats[i].Stack)
		}
		in += s.Stack
	}
	if len(r.End) != len(r.Start) {
		return fmt.Errorf("%d seats at the end of the hand, %d at its start", len(r.End), len(r.Start))
	}
	zero := 0
	for _, s := range r.End {
		i := t.seatIndex(s.Seat)
		if i < 0 || t.Seats[i].Player != s.Player {
			return fmt.Errorf("unknown player %q in seat %d at the end of the hand", s.Player, s.Seat)
		}
		if s.Stack < 0 {
			return fmt.Errorf("%s ended the hand with %d chips", s.Player, s.Stack)
		}
		if r.Voided && s.Stack != t.Seats[i].Stack {
			return fmt.Errorf("void hand (rule D4): %s ended with %d chips, started with %d", s.Player, s.Stack, t.Seats[i].Stack)
		}
		if s.Stack == 0 {
			zero++
			k := slices.IndexFunc(r.Eliminated, func(e engine.Elimination) bool { return e.ID == s.Player })
			if k < 0 {
				return fmt.Errorf("%s has no chips left and is not listed as eliminated", s.Player)
			}
			if e := r.Eliminated[k]; e.StartingStack != t.Seats[i].Stack || e.Seat != s.Seat {
				return fmt.Errorf("%s eliminated with a starting stack of %d in seat %d, the hand started with %d in seat %d (rule R7)", s.Player, e.StartingStack, e.Seat, t.Seats[i].Stack, s.Seat)
			}
		}
		out += s.Stack
	}
	if zero != len(r.Eliminated) {
		return fmt.Errorf("%d players eliminated, %d left with no chips", len(r.Eliminated), zero)
	}
	if in != out {
		return fmt.Errorf("chips not conserved: %d at the start of the hand, %d at its end", in, out)
	}
	return nil
}

// AddOrders takes orders in, whatever order they arrive in; those applied already are dropped.
func (t *TableState) AddOrders(orders []Order) {
	for _, o := range orders {
		if o.Seq <= t.Acked || slices.ContainsFunc(t.Pending, func(p Order) bool { return p.Seq == o.Seq }) {
			continue
		}
		t.Pending = append(t.Pending, o)
	}
	slices.SortFunc(t.Pending, func(a, b Order) int { return a.Seq - b.Seq })
}

// Ready reports whether an order is waiting to be applied (the next in sequence has arrived).
func (t *TableState) Ready() bool { return len(t.Pending) > 0 && t.Pending[0].Seq == t.Acked+1 }

// Gap is the Seq of the first order waiting past a missing one (0 when none is missing): the
// table holds it, and every later one, until the missing orders arrive.
func (t *TableState) Gap() int {
	if len(t.Pending) == 0 || t.Pending[0].Seq == t.Acked+1 {
		return 0
	}
	return t.Pending[0].Seq
}

// Closed reports whether the table has been told to close, applied or not.
func (t *TableState) Closed() bool {
	return t.Closing || slices.ContainsFunc(t.Pending, func(o Order) bool { return o.Close != nil })
}

// ApplyOrders applies the orders that are next in sequence, between hands.
func (t *TableState) ApplyOrders(ev *TableEvent) {
	for t.Ready() {
		o := t.Pending[0]
		t.Pending = t.Pending[1:]
		t.Acked = o.Seq
		t.applyOrder(o, ev)
	}
}

func (t *TableState) applyOrder(o Order, ev *TableEvent) {
	switch {
	case o.Seat != nil:
		t.seat(*o.Seat, ev)
	case o.MoveOut != nil:
		t.moveOut(*o.MoveOut, ev)
	case o.Level != nil && len(t.Schedule) == 0: // with a schedule the table keeps its own clock
		t.Level, t.LevelNumber = o.Level.Level, o.Level.Number
		t.OnBreak = o.Level.OnBreak
	case o.Last != nil:
		t.Last = *o.Last
	case o.Pause != nil:
		t.Paused = *o.Pause
	case o.Hold != nil:
		t.Held = *o.Hold
	case o.Batch != nil:
		t.Batch = max(*o.Batch, 1)
	case o.Credit != nil:
		// A sliding credit may have run past a grant sent before the table's last hands: a grant
		// never takes back hands the table was given (0 is no limit: a table alone).
		if t.Slide && *o.Credit != 0 && t.Credit != 0 {
			t.Credit = max(t.Credit, *o.Credit)
		} else {
			t.Credit = *o.Credit
		}
	case o.Slide != nil:
		t.Slide = *o.Slide
	case o.BustCredit != nil:
		t.BustCredit = *o.BustCredit
	case o.HandForHand != nil:
		t.HandForHand, t.RoundSkip = o.HandForHand.Round, o.HandForHand.Skip
		if t.HandForHand == 0 {
			t.RoundPlayed, t.RoundDealing = 0, 0
		}
	case o.Sanction != nil:
		t.sanction(*o.Sanction, ev)
	case o.Rebuy != nil:
		t.rebuy(*o.Rebuy, ev)
	case o.ColorUp != nil:
		t.colorUp(*o.ColorUp, ev)
	case o.Close != nil:
		t.Closing = true
	case o.Tool != nil:
		t.tool(*o.Tool, ev)
	}
}

// rebuy puts the chips bought in front of the player (R1, 003 r18) if his stack after the last
// hand allows it; otherwise the tournament hears why, and refunds it.
func (t *TableState) rebuy(o RebuyOrder, ev *TableEvent) {
	done := RebuyOrder{Ref: o.Ref, Player: o.Player}
	switch i := t.playerIndex(o.Player); {
	case i < 0:
		done.Refused = fmt.Sprintf("%s left table %s before the chips reached him", o.Player, t.ID)
	case o.MaxStack > 0 && t.Seats[i].Stack > o.MaxStack:
		done.Refused = fmt.Sprintf("rule R1: %s has %d chips after hand %d: a rebuy is for a stack at or below %d", o.Player, t.Seats[i].Stack, t.HandNumber, o.MaxStack)
	default:
		t.Seats[i].Stack += o.Chips
		done.Chips = o.Chips
	}
	ev.Rebuys = append(ev.Rebuys, done)
}

// colorUp races the odd chips of the denomination leaving play (R8), from seat 1, between hands;
// a table whose stacks are all whole numbers of the next chip needs no race.
func (t *TableState) colorUp(o ColorUpOrder, ev *TableEvent) {
	done := AppliedColorUp{Removed: o.Removed, Next: o.Next, Hand: t.HandNumber}
	racers := make([]floor.Racer, len(t.Seats))
	stacks := make([]int64, len(t.Seats))
	for i, s := range t.Seats { // Seats are in seat order: the race deals from seat 1
		racers[i] = floor.Racer{Seat: floor.Seat(s.Seat + 1), Player: floor.PlayerID(s.Player), Stack: s.Stack}
		stacks[i] = s.Stack
	}
	if floor.NeedsChipRace(true, stacks, o.Next) {
		res, err := floor.ChipRace(racers, o.Removed, o.Next, floor.NewSeededReader(o.Seed))
		if err != nil {
			done.Error = err.Error()
		} else {
			for i := range t.Seats {
				t.Seats[i].Stack = res.Stacks[i]
			}
			done.Added, done.Winners, done.Saved = res.Added, res.Winners, res.Saved
		}
	}
	ev.ColorUps = append(ev.ColorUps, done)
}

// seat seats an arrival (R3, R4, B7).
func (t *TableState) seat(o SeatOrder, ev *TableEvent) {
	seat := int(o.Seat) - 1
	if o.Reason == floor.MoveBalance || o.Reason == floor.MoveDirector {
		// R3: the seat closest to the left of the big blind as it is now, not as the floor last saw.
		if s := floor.BalanceSeat(t.FloorTable()); s > 0 {
			seat = int(s) - 1
		}
	}
	if seat < 0 || seat >= t.Config.Seats || t.seatIndex(seat) >= 0 {
		seat = -1
		for s := range t.Config.Seats {
			if t.seatIndex(s) < 0 {
				seat = s
				break
			}
		}
	}
	if seat < 0 || t.playerIndex(o.Player) >= 0 {
		ev.Refused = append(ev.Refused, RefusedSeat{Player: o.Player, Stack: o.Stack, Away: o.Away})
		return
	}
	st := engine.WaitingForButton // B7
	if !t.Positions.Played {
		st = engine.Active // the table has not dealt: nobody has a button to wait for
	}
	if o.Away > 0 {
		st = engine.Penalised // P3
	}
	t.Seats = append(t.Seats, TableSeat{Seat: seat, Player: o.Player, Stack: o.Stack, State: st, Away: o.Away})
	slices.SortFunc(t.Seats, func(a, b TableSeat) int { return a.Seat - b.Seat })
	ev.Seated = append(ev.Seated, o.Player)
}

// moveOut takes a player off the table for another (R3: the next big blind; R4: everyone).
func (t *TableState) moveOut(o MoveOutOrder, ev *TableEvent) {
	i := t.playerIndex(o.Player)
	if o.NextBigBlind {
		if s := floor.NextBigBlindSeat(t.FloorTable()); s > 0 {
			i = t.seatIndex(int(s) - 1)
		}
	}
	if i < 0 {
		ev.Gone = append(ev.Gone, o)
		return
	}
	s := t.Seats[i]
	t.Seats = slices.Delete(t.Seats, i, i+1)
	ev.Out = append(ev.Out, MovedOut{Ref: o.Ref, Player: s.Player, Stack: s.Stack, Away: s.Away, To: o.To, ToSeat: o.ToSeat, Reason: o.Reason, Section: o.Section})
}

// sanction applies a sanction from the next hand (P5): an exclusion of rounds of as many hands as
// there are players at the table, the excluded one included (P2), served away from the table with
// blinds and antes posted (P3); a disqualification removes the player and his chips (P4).
func (t *TableState) sanction(o SanctionOrder, ev *TableEvent) {
	// P2: the players at the table, the penalised one included; a table waiting for players
	// counts as two (a round is never shorter than heads-up).
	a := AppliedSanction{Ref: o.Ref, Player: o.Player, Hand: t.HandNumber, PlayersAtTable: max(len(t.Seats), 2)}
	i := t.playerIndex(o.Player)
	if i < 0 {
		a.Missing = true
		ev.Sanctions = append(ev.Sanctions, a)
		return
	}
	switch o.Kind {
	case floor.Exclusion:
		hands, err := floor.HandsOfExclusion(o.Rounds, a.PlayersAtTable)
		if err != nil {
			hands = o.Rounds * a.PlayersAtTable
		}
		a.Hands = hands
		t.Seats[i].State = engine.Penalised
		t.Seats[i].Away += hands
	case floor.Disqualification:
		a.Chips = t.Seats[i].Stack
		t.Seats = slices.Delete(t.Seats, i, i+1)
	}
	ev.Sanctions = append(ev.Sanctions, a)
}

// dealers is how many seated players have chips.
func (t *TableState) dealers() int {
	n := 0
	for _, s := range t.Seats {
		if s.Stack > 0 {
			n++
		}
	}
	return n
}

// Next is what the table does next, as the State the runner gets. It marks a hand-for-hand round
// the table cannot deal in as played (skipped), in ev.
func (t *TableState) Next(ev *TableEvent, canWait bool) report.State {
	t.followSchedule()
	if t.Last && t.dealers() < 2 && !t.Closing && len(t.Pending) == 0 {
		// R5: the last table has a winner; nobody can come (Last), so it closes now.
		t.Closing, ev.Closed = true, true
	}
	st := report.State{
		TableID:    t.ID,
		HandNumber: t.HandNumber,
		Level:      t.Level,
		Config:     t.Config,
		Button:     t.Positions.Button,
		FirstHand:  !t.Positions.Played,
		Positions:  t.Positions,
		Batch:      1,
	}
	for _, s := range t.Seats {
		st.Seats = append(st.Seats, report.SeatState{Seat: s.Seat, Player: s.Player, Stack: s.Stack, State: s.State})
	}
	t.drawButton()
	// A round the table cannot deal in is skipped: told so, short of players, or held (a hold
	// that came after the round opened is lifted only by the floor's next plan, after the round).
	if t.HandForHand > t.RoundPlayed && (t.RoundSkip || t.SkipHeld && t.Held || t.dealers() < 2) {
		t.RoundPlayed = t.HandForHand
		ev.HandForHand = t.HandForHand
	}
	switch {
	case t.Closing:
		st.Directive = report.Close
		return st
	case t.Paused || t.OnBreak || t.Held || t.dealers() < 2 || (t.HandForHand > 0 && t.RoundPlayed >= t.HandForHand) ||
		(t.Credit > 0 && t.HandNumber >= t.Credit):
		st.Directive = report.Wait
		st.WaitFor = 0
		if !canWait {
			st.WaitFor = 10 * time.Millisecond
		}
		return st
	}
	st.Directive = report.Play
	if t.HandForHand > 0 {
		t.RoundDealing = t.HandForHand
		return st // R7: one hand, then wait for the other tables
	}
	batch := max(t.Batch, 1)
	// A batch never crosses the end of an exclusion, which the table must make at an exact hand (P2),
	// nor the credit: a sliding one the runner follows hand by hand (report.State.Go).
	switch {
	case t.Credit > 0 && t.Slide && t.SlideBatch:
		st.Credit, st.Slide = t.Credit, true
		st.BustHands, st.BustCredit = t.BustHands, t.BustCredit
	case t.Credit > 0:
		batch = min(batch, int(t.Credit-t.HandNumber))
	}
	for _, s := range t.Seats {
		if s.Away > 0 {
			batch = min(batch, s.Away)
		}
	}
	st.Batch = max(batch, 1)
	for _, l := range t.Schedule {
		if l.From > t.HandNumber+1 && l.From <= t.HandNumber+int64(st.Batch) {
			st.Levels = append(st.Levels, report.LevelFrom{From: l.From, Level: l.Level})
		}
	}
	return st
}

// drawButton draws the button of a table opened with one player (T3), once it has two and before
// its first hand; the big blind of the draw is the first hand's small blind, as at the start.
func (t *TableState) drawButton() {
	if t.ButtonSeed == 0 || t.Positions.Played || t.dealers() < 2 {
		return
	}
	ft, err := floor.DrawButton(t.FloorTable(), floor.NewSeededReader(t.ButtonSeed))
	if err != nil {
		return // two players are there: the draw cannot fail
	}
	t.ButtonSeed = 0
	t.Positions = engine.Positions{Button: int(ft.Button) - 1, SmallBlind: -1, BigBlind: -1}
	t.DrawnBigBlind = ft.BigBlind
}

// Event fills in the layout and counters of ev and says whether it is worth sending: it carries
// news, acknowledges orders, or reports a level or hand count the tournament has not heard.
func (t *TableState) Event(ev *TableEvent, acked int, now time.Time) bool {
	news := len(ev.Busts)+len(ev.Out)+len(ev.Gone)+len(ev.Seated)+len(ev.Refused)+len(ev.Sanctions)+len(ev.Rebuys)+len(ev.ColorUps)+len(ev.Absent)+len(ev.Arrived) > 0 ||
		ev.HandForHand > 0 || ev.Closed || ev.Continuing || ev.Resumed || t.Acked != acked || t.LevelNumber != t.ReportedLevel ||
		(t.Heartbeat > 0 && !now.Before(t.LastEventAt.Add(t.Heartbeat))) || // alive: the tournament's deadline (Deadline)
		(t.ReportEvery > 0 && t.HandsPlayed-t.ReportedHands >= int64(t.ReportEvery)) ||
		(t.Credit > 0 && t.HandNumber >= t.Credit && t.HandsPlayed != t.ReportedHands) || // out of credit
		(t.TellGaps && !t.Replying && t.Gap() != t.ReportedGap) || t.QuietOwed
	if !news {
		return false
	}
	if t.QuietOwed {
		ev.Quiet, t.QuietOwed = t.Quiet, false
	}
	t.EventSeq++
	ev.Table, ev.Seq, ev.Acked, ev.Gap = t.Number, t.EventSeq, t.Acked, t.Gap()
	if t.Replying {
		ev.Gap = t.ReportedGap // a gap now may be the answer on its way: told once that is in
	}
	ev.Hand, ev.HandsPlayed, ev.Level = t.HandNumber, t.HandsPlayed, t.LevelNumber
	ft := t.FloorTable()
	ev.Seats = make([]string, len(ft.Seats))
	ev.Stacks = make([]int64, len(ft.Seats))
	for _, s := range t.Seats {
		ev.Seats[s.Seat], ev.Stacks[s.Seat] = s.Player, s.Stack
	}
	ev.Button, ev.BigBlind = ft.Button, ft.BigBlind
	if t.Slide {
		ev.Credit = t.Credit
	}
	ev.BustHands = t.BustHands
	t.ReportedHands, t.ReportedLevel, t.ReportedGap = t.HandsPlayed, t.LevelNumber, ev.Gap
	t.LastEventAt = now
	return true
}
