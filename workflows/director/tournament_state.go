package director

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TournamentState is everything the TournamentWorkflow knows: the input of a run that continues as
// new, and what the queries read. Its methods are the director's checklist, step by step; they
// call the floor's pure decisions and never Temporal, so they are deterministic and tested alone.
type TournamentState struct {
	ID   string         `json:"id"` // the workflow ID
	Spec TournamentSpec `json:"spec"`
	// Seed and Draws: every random draw reads a stream keyed by (Seed, Draws), so a run that
	// continues as new draws on where the last stopped.
	Seed  uint64 `json:"seed"`
	Draws uint64 `json:"draws"`

	Started time.Time `json:"started"` // when the clock started (B3)
	Ended   time.Time `json:"ended,omitzero"`
	// SimHands is a simulation's clock: the hands dealt at a table (the median), never going back.
	// Stood: paused, every table has told the hands it stopped at, and the clock stands there
	// until the resume (simHands).
	SimHands int64 `json:"simHands,omitempty"`
	Stood    bool  `json:"stood,omitempty"`
	// ClockEvents are the director's pauses, resumes and added time (floor.Clock reads them).
	ClockEvents []floor.ClockEvent `json:"clockEvents,omitempty"`
	// Period is the index of the period the tables were last told (-1: none yet).
	Period   int           `json:"period"`
	OnBreak  bool          `json:"onBreak,omitempty"`
	Paused   bool          `json:"paused,omitempty"`
	LevelLog []LevelChange `json:"levelLog,omitempty"`

	Field   []floor.PlayerID `json:"field"`
	Players []PlayerRecord   `json:"players"`
	Tables  []TableRecord    `json:"tables"`
	// Busts are the elimination groups so far, in order (R5, R7).
	Busts       [][]floor.Elimination `json:"busts,omitempty"`
	HandForHand HandForHandState      `json:"handForHand"`
	Sanctions   []SanctionRecord      `json:"sanctions,omitempty"`
	RebuyLog    []RebuyRecord         `json:"rebuyLog,omitempty"`
	Ledger      floor.ChipLedger      `json:"ledger"`
	Entries     floor.Entries         `json:"entries"`
	Payouts     floor.Payouts         `json:"payouts"`
	Deal        *DealRecord           `json:"deal,omitempty"`
	// ChipErrors lists every failed chip count (a bug if ever not empty).
	ChipErrors []string `json:"chipErrors,omitempty"`
	Finished   bool     `json:"finished,omitempty"`

	// Outbox holds the orders decided and not yet signalled; NewTables the tables to open,
	// Deleting the tables to take down. The workflow empties them after every step.
	Outbox    []TableOrders   `json:"outbox,omitempty"`
	NewTables []floor.TableID `json:"newTables,omitempty"`
	Deleting  []floor.TableID `json:"deleting,omitempty"`
	// Replacing are the tables whose host must be replaced: silent past their deadline.
	Replacing []floor.TableID `json:"replacing,omitempty"`
	// Answering is the table whose events the run is answering (the Update that carried them),
	// while it takes them in and steps; 0 otherwise. Not kept.
	Answering floor.TableID `json:"-"`
	// NewsEvery is how often, on average, the tables are heard from (from PaceFieldDeadline): a
	// table's deadline is never shorter than DeadlineIntervals of it (watchTables).
	NewsEvery time.Duration `json:"newsEvery,omitempty"`
	// Actions are the director's actions applied, by idempotency key (the Update ID that carried
	// each), with their results: a retry is answered from here and never applied twice (a re-entry
	// or a rebuy taken twice would be money taken twice).
	Actions map[string]string `json:"actions,omitempty"`
	// MoveRefs numbers the moves ordered.
	MoveRefs int `json:"moveRefs,omitempty"`
	// Tools records the director's tools by hand (tools.go).
	Tools ToolsState `json:"tools,omitzero"`
	// Unplaced, in a seeded simulation, are the eliminations heard since the last barrier, placed
	// at the next in the order of their hands (then tables), not of their arrival (see barriers).
	Unplaced []TableBusts `json:"unplaced,omitempty"`
	// Horizon, in a seeded simulation, is the hand every table may deal up to (see barriers).
	Horizon int64 `json:"horizon,omitempty"`
	// Pace is the version of a simulation's pacing the run was started with (the workflow's
	// version marker, so that a history recorded before keeps its commands when replayed): from
	// PaceSlide the tables' credit slides near the bubble (slide) and the floor plans beside the
	// moves under way (planWhileMoving); from PaceResend the orders a table misses are sent
	// again (resendGaps); from PaceHostEarly each table's process starts as its workflow does;
	// 0 does none of it.
	Pace int `json:"pace,omitempty"`
	// MovingSince is when the floor last found a move under way after it had found none (zero:
	// none under way): see planWhileMoving.
	MovingSince time.Time `json:"movingSince,omitzero"`

	// Section, when set, makes this the state of one section of a large tournament (see
	// SectionRole): its own tables and players, the clock and the places the tournament's.
	Section *SectionRole `json:"section,omitempty"`

	index map[string]int // player ID -> index in Players, rebuilt after a continue-as-new
	// Trace, when set (in tests), sees every event applied.
	Trace func(ev TableEvent) `json:"-"`
}

// TableOrders are orders for one table, signalled together.
type TableOrders struct {
	Table  floor.TableID `json:"table"`
	Orders []Order       `json:"orders"`
}

// LevelChange records when the tables were told a new period: the schedule as it was kept.
type LevelChange struct {
	// Period is the index of the period in the clock's structure (a simulation's has no breaks).
	Period  int          `json:"period"`
	Number  int          `json:"number"`
	Level   engine.Level `json:"level"`
	OnBreak bool         `json:"onBreak,omitempty"`
	At      time.Time    `json:"at"`
	// Hands is the median of the hands dealt at the tables then (a simulation's clock).
	Hands int64 `json:"hands,omitempty"`
}

// PlayerStatus is where an entry is.
type PlayerStatus string

// The statuses of an entry.
const (
	Seated  PlayerStatus = "seated"  // at a table (maybe told to move, not yet gone)
	Moving  PlayerStatus = "moving"  // off one table, on the way to another, chips in hand
	Out     PlayerStatus = "out"     // eliminated or disqualified
	Waiting PlayerStatus = "waiting" // registered, not yet at a table
)

// PlayerRecord is one entry.
type PlayerRecord struct {
	ID      string        `json:"id"`
	Entrant string        `json:"entrant"` // the person: re-entries share it
	Status  PlayerStatus  `json:"status"`
	Table   floor.TableID `json:"table,omitempty"`
	Seat    floor.Seat    `json:"seat,omitempty"`
	Stack   int64         `json:"stack"`
	Away    int           `json:"away,omitempty"`
	Rebuys  int           `json:"rebuys,omitempty"`
	// Leaving: told to move out of Table, not yet gone.
	Leaving bool `json:"leaving,omitempty"`
	// Absent: his table told he has not come (T4), and not that he has since: a no-show once the
	// spec's NoShow time has run. Came: a table told he came after it had told him absent.
	Absent bool `json:"absent,omitempty"`
	Came   bool `json:"came,omitempty"`
}

// TableRecord is one table as the tournament sees it: its last news, and what is on the way.
type TableRecord struct {
	ID         floor.TableID `json:"id"`
	WorkflowID string        `json:"workflowID"`
	Seats      []string      `json:"seats"`
	Stacks     []int64       `json:"stacks"`
	Button     floor.Seat    `json:"button"`
	BigBlind   floor.Seat    `json:"bigBlind"`
	Hand       int64         `json:"hand"`
	Hands      int64         `json:"hands"`
	Level      int           `json:"level"`
	// EventSeq is the last event taken; Early holds events that came before their turn.
	EventSeq int          `json:"eventSeq"`
	Early    []TableEvent `json:"early,omitempty"`
	// Sent is the Seq of the last order sent, Acked the last the table applied; Unacked the orders
	// signalled and not yet applied, sent again by a run that continues this one.
	Sent    int     `json:"sent"`
	Acked   int     `json:"acked"`
	Unacked []Order `json:"unacked,omitempty"`
	// Arriving are the players on their way here (seats kept for them).
	Arriving []Arrival `json:"arriving,omitempty"`
	// Credit is the last hand the table may deal (a simulation's flow control); Last says the
	// table was told it is the last (see lastTable).
	Credit int64 `json:"credit,omitempty"`
	// CreditSeq is the Seq of the last credit order sent; Slide what the table was told of its
	// credit sliding (Order.Slide). An event that acknowledges CreditSeq tells the table's credit
	// as it stands (a sliding credit runs past the grants).
	CreditSeq int  `json:"creditSeq,omitempty"`
	Slide     bool `json:"slide,omitempty"`
	// BustHands is the count of the table's hands with an elimination its last event told
	// (TableEvent.BustHands), BustCredit the last Order.BustCredit it was sent.
	BustHands  int64 `json:"bustHands,omitempty"`
	BustCredit int64 `json:"bustCredit,omitempty"`
	// NearOwed: the table has not been told its batch and spare since the approach came near
	// the rounds or left them (tellNear); they go with the answer to its next events.
	NearOwed bool `json:"nearOwed,omitempty"`
	Last     bool `json:"last,omitempty"`
	// Held: the table was told to hold (stop dealing until the players the floor sends it
	// arrive). HoldOwed: the floor would hold it, and tells it so with the answer to its next
	// events (from PaceLazyHold; hold says why).
	Held      bool `json:"held,omitempty"`
	HoldOwed  bool `json:"holdOwed,omitempty"`
	Breaking  bool `json:"breaking,omitempty"`
	Closing   bool `json:"closing,omitempty"`
	Closed    bool `json:"closed,omitempty"`
	RoundDone int  `json:"roundDone,omitempty"`
	// Started: the table's workflow and process were asked for.
	Started bool `json:"started,omitempty"`
	// LastNews is when the tournament last heard from the table (its deadline runs from it),
	// HeardSeq the event it had taken then; Replaced counts the table's hosts replaced because it
	// went silent.
	LastNews time.Time `json:"lastNews,omitzero"`
	HeardSeq int       `json:"heardSeq,omitempty"`
	// Replies: the table's last event said it takes the orders its section answers its events
	// with (TableEvent.Replies; from PaceLazyShrink).
	Replies bool `json:"replies,omitempty"`
	// Gap is the table's last event's Gap (orders it misses before those it holds); ResentAt when
	// the tournament last sent its unapplied orders again for it (resendGaps).
	Gap      int       `json:"gap,omitempty"`
	ResentAt time.Time `json:"resentAt,omitzero"`
	Replaced int       `json:"replaced,omitempty"`
	// Continue is where the table is in its continue-as-new handshake, ContinueSeq the Seq of
	// the Order.Continue it was sent (link.go).
	Continue    ContinueStep `json:"continue,omitempty"`
	ContinueSeq int          `json:"continueSeq,omitempty"`
	// From PaceLost, Lost: an order signal to the table failed every attempt and none went to it
	// since; OnlyLost: the Order.Continue went from PaceLost, so the orders up to it are sent
	// again only if one was lost (HoldsOrder).
	Lost     bool `json:"lost,omitempty"`
	OnlyLost bool `json:"onlyLost,omitempty"`
	// CloseSent: from PaceClosed, the table's Close was signalled (Signalled): nothing more goes
	// to it (Drops).
	CloseSent bool `json:"closeSent,omitempty"`
	// CanQuiet: the table's run keeps quiet when asked (its last event's CanQuiet); QuietSeq is the Seq
	// of the Order.Quiet signalled to it and in force (0: none: no order went after it), Quiet that
	// the table has answered it and sends nothing more (link.go, "Quiet").
	CanQuiet bool `json:"canQuiet,omitempty"`
	QuietSeq int  `json:"quietSeq,omitempty"`
	Quiet    bool `json:"quiet,omitempty"`
	// PauseSeq is the Seq of the pause order the table was sent while the clock is paused (0:
	// running): once it has acknowledged it, it deals no more and its stacks are final.
	PauseSeq int `json:"pauseSeq,omitempty"`
	// ButtonSeed, for a table opened with one player, seeds the button draw the table makes when
	// its second player arrives (T3).
	ButtonSeed uint64 `json:"buttonSeed,omitempty"`
}

// Arrival is a seat kept for a player on the way.
type Arrival struct {
	// Ref is the move's, from the MoveOutOrder (0 for a seat given otherwise).
	Ref    int              `json:"ref,omitempty"`
	Player string           `json:"player"`
	Seat   floor.Seat       `json:"seat"`
	Reason floor.MoveReason `json:"reason"`
	// Sent: the SeatOrder went (the player left his table, or is a new entry).
	Sent bool `json:"sent,omitempty"`
	// Held, in a seeded simulation, is the seat order kept until every player on the way to this
	// table has left his own: they then go in the order of the moves (grantHorizon).
	Held *SeatOrder `json:"held,omitempty"`
}

// HandForHandState is the bubble's play (R7): every table deals one hand of a round and waits.
//
// A simulation's tables deal many hands between reports, so there the floor slows them down as the
// bubble nears (Approach: one hand a report) and deals in rounds from a few players before it
// (Lockstep), so that it never passes the bubble between two reports; only the rounds dealt
// within HandForHandBefore of the money are hand-for-hand for the places (Grouped).
type HandForHandState struct {
	On       bool `json:"on,omitempty"`       // dealing in rounds
	Approach bool `json:"approach,omitempty"` // tables told to report every hand
	// Near: the approach within three times the rounds' margin of them (bubble.near); the tables deal
	// one hand a batch (tableBatch).
	Near         bool                `json:"near,omitempty"`
	Round        int                 `json:"round,omitempty"`
	Open         bool                `json:"open,omitempty"` // the round is being dealt
	Grouped      bool                `json:"grouped,omitempty"`
	Participants []floor.TableID     `json:"participants,omitempty"`
	Group        []floor.Elimination `json:"group,omitempty"`
	Rounds       int                 `json:"rounds,omitempty"` // hand-for-hand rounds dealt (grouped)
	// Waiting is a section's round the tournament ordered while the section's own moves were under
	// way: it opens once they are made (openWaitingRound, PaceRoundAfterMoves).
	Waiting *SectionRound `json:"waiting,omitempty"`
}

// SanctionRecord is a sanction given by the director: the floor's record once the table applied it.
type SanctionRecord struct {
	Ref      int            `json:"ref"`
	Sanction floor.Sanction `json:"sanction"`
	Sent     bool           `json:"sent,omitempty"`
	Applied  bool           `json:"applied,omitempty"`
	// Void: the player was out before the table could apply it.
	Void  bool   `json:"void,omitempty"`
	Error string `json:"error,omitempty"`
}

// DealRecord is a deal the director approved (ICM or chip-chop): these players take these prizes
// whatever their places, and play goes on for the places and the reserve.
type DealRecord struct {
	Method     string          `json:"method"`
	Players    []string        `json:"players"`
	Stacks     []int64         `json:"stacks"`
	Amounts    []int64         `json:"amounts"`
	Terms      floor.DealTerms `json:"terms"`
	ApprovedBy string          `json:"approvedBy"`
	At         time.Time       `json:"at"`
}

// NewTournamentState registers the field, draws the seats and the buttons (T2, T3) and opens the
// tables; the clock starts at now.
func NewTournamentState(id string, spec TournamentSpec, seed uint64, now time.Time) (*TournamentState, error) {
	spec = spec.withDefaults()
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	s := &TournamentState{ID: id, Spec: spec, Seed: seed, Started: now, Period: -1, Pace: PaceLatest}
	s.Ledger = floor.ChipLedger{StartingStack: spec.Structure.StartingStack}
	s.Entries = spec.entries(0, 0, 0)
	for _, p := range spec.Players {
		s.addPlayer(p, p)
	}
	tables, err := floor.DrawSeats(s.Field, spec.TableSize, s.rand())
	if err != nil {
		return nil, err
	}
	for _, ft := range tables {
		s.addTable(ft)
	}
	if err := s.computePayouts(); err != nil {
		return nil, err
	}
	// The names are the field's now: the spec does not carry them again through every
	// continue-as-new.
	s.Spec.Players = nil
	return s, nil
}

// rand is a fresh stream for one draw.
func (s *TournamentState) rand() io.Reader {
	s.Draws++
	return floor.NewSeededReader(mix(s.Seed, s.Draws))
}

// DeckSeed seeds table id's deck and bots in a reproducible simulation (a spec with a seed); 0
// means crypto/rand (D1: never a seeded deck in live play).
func (s *TournamentState) DeckSeed(id floor.TableID) uint64 {
	if s.Spec.Seed == 0 {
		return 0
	}
	return mix(s.Seed, 1<<40+uint64(id))
}

// mix is SplitMix64's finaliser over the seed and a counter: independent streams from one seed.
func mix(seed, n uint64) uint64 {
	z := seed + n*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (s *TournamentState) reindex() {
	s.index = make(map[string]int, len(s.Players))
	for i, p := range s.Players {
		s.index[p.ID] = i
	}
}

func (s *TournamentState) player(id string) *PlayerRecord {
	if s.index == nil {
		s.reindex()
	}
	i, ok := s.index[id]
	if !ok {
		return nil
	}
	return &s.Players[i]
}

// Table is the record of table id, or nil.
func (s *TournamentState) Table(id floor.TableID) *TableRecord {
	i, ok := slices.BinarySearchFunc(s.Tables, id, func(t TableRecord, id floor.TableID) int { return cmp.Compare(t.ID, id) })
	if !ok {
		return nil
	}
	return &s.Tables[i]
}

func (s *TournamentState) addPlayer(id, entrant string) *PlayerRecord {
	s.Field = append(s.Field, floor.PlayerID(id))
	s.Players = append(s.Players, PlayerRecord{ID: id, Entrant: entrant, Status: Waiting, Stack: s.Spec.Structure.StartingStack})
	if s.index != nil {
		s.index[id] = len(s.Players) - 1
	}
	s.Ledger.Entries++
	s.toolsEntered(id)
	if id == entrant {
		s.Entries.Entries++
	} else {
		s.Entries.ReEntries++
	}
	return s.player(id)
}

// TableWorkflowID names a table's workflow (and the table, for its process).
func TableWorkflowID(tournament string, id floor.TableID) string {
	return fmt.Sprintf("%s/table-%03d", tournament, id)
}

// addTable opens a table with the players the floor seated at it.
func (s *TournamentState) addTable(ft floor.Table) {
	tr := TableRecord{ID: ft.ID, WorkflowID: TableWorkflowID(s.ID, ft.ID), Seats: make([]string, ft.Size()), Stacks: make([]int64, ft.Size()),
		Button: ft.Button, BigBlind: ft.BigBlind}
	for i, p := range ft.Seats {
		if p == "" {
			continue
		}
		pr := s.player(string(p))
		pr.Status, pr.Table, pr.Seat = Seated, ft.ID, floor.Seat(i+1)
		tr.Seats[i], tr.Stacks[i] = string(p), pr.Stack
	}
	s.Tables = append(s.Tables, tr)
	slices.SortFunc(s.Tables, func(a, b TableRecord) int { return cmp.Compare(a.ID, b.ID) })
	s.NewTables = append(s.NewTables, ft.ID)
}

// TableInput is the first state of table id's workflow.
func (s *TournamentState) TableInput(id floor.TableID) TableState {
	tr := s.Table(id)
	st := TableState{
		Tournament: s.ID, ID: tr.WorkflowID, Number: id, Config: s.Spec.Table,
		Positions:          engine.Positions{Button: int(tr.Button) - 1, SmallBlind: -1, BigBlind: -1},
		DrawnBigBlind:      tr.BigBlind,
		Batch:              s.tableBatch(),
		MaxWait:            s.Spec.TableMaxWait,
		HandNumber:         s.tableClockHands(),
		ReportEvery:        s.reportEvery(),
		ContinueAsNewAfter: s.Spec.TableContinueAsNewAfter,
		ButtonSeed:         tr.ButtonSeed,
		TellGaps:           s.Pace >= PaceResend,
		SkipHeld:           s.Pace >= PaceHeldSkip,
		SlideBatch:         s.Pace >= PaceSlideBatch,
		QuietStart:         s.Pace >= PaceQuietStart,
	}
	if s.Spec.TableDeadline > 0 {
		st.Heartbeat = s.Spec.TableDeadline / 4
	}
	for i, p := range tr.Seats {
		if p != "" {
			st.Seats = append(st.Seats, TableSeat{Seat: i, Player: p, Stack: tr.Stacks[i], State: engine.Active})
		}
	}
	if s.Period >= 0 {
		st.LevelNumber = s.clock().LevelNumber(s.Period)
		st.OnBreak = s.OnBreak
		st.Level = engineLevel(s.blindsAt(s.Period))
		st.Paused = s.Paused
	} else {
		st.Level, st.LevelNumber = engineLevel(s.blindsAt(0)), 1
	}
	if s.Spec.Simulation {
		// The tournament's clock is the tables' hands, which they tell as their credit runs out.
		// A table opened late starts at the others' hand: its credit runs from there.
		tr.Hand = max(tr.Hand, st.HandNumber)
		tr.Credit = st.HandNumber + s.creditWindow()
		switch {
		case s.lockstep() && s.Section.Reached >= s.Horizon:
			// At a barrier (a table opened for the tournament's arrivals): it deals only once the
			// horizon moves, whenever its players come.
			tr.Credit = max(st.HandNumber, 1)
		case s.lockstep():
			tr.Credit = s.Horizon // the tournament's, the same in every section
		case s.barriers():
			s.Horizon = max(s.Horizon, tr.Credit)
			tr.Credit = s.Horizon
		}
		st.Credit = tr.Credit
		tr.Slide = s.slide()
		st.Slide = tr.Slide
		st.Schedule = s.handSchedule()
		st.followSchedule()
		if s.Section == nil && s.alone() && s.registrationOpen(s.Started) != nil {
			// The only table from its first hand (a final table's simulation): as lastTable and
			// grantCredit would tell it, but with no order to wait for.
			tr.Credit, tr.Last = 0, true
			st.Credit, st.Last, st.Batch = 0, true, s.loneBatch()
		}
	}
	st.ReportedLevel = st.LevelNumber
	return st
}

// handSchedule is a simulation's published schedule counted in hands (B3, R2): hand h is dealt
// at the level the clock shows after h-1 hands of HandTime each, as ClockAt reads the tables'
// hands.
func (s *TournamentState) handSchedule() []ScheduledLevel {
	st := s.clock()
	ht := s.Spec.HandTime
	var out []ScheduledLevel
	var start time.Duration
	for i, l := range st.Levels {
		// The first h with (h-1)*HandTime at or past the level's start.
		from := int64((start+ht-1)/ht) + 1
		out = append(out, ScheduledLevel{From: from, Number: st.LevelNumber(i), Level: engineLevel(l)})
		start += st.Duration(i)
	}
	return out
}

// tableClockHands is where a new table's hand count starts: in a simulation the hand count is the
// table's clock, so a table opened late starts where the others are.
func (s *TournamentState) tableClockHands() int64 {
	if !s.Spec.Simulation {
		return 0
	}
	var most int64
	for _, t := range s.Tables {
		most = max(most, t.Hand)
	}
	return most
}

// blindsAt is the blinds of period i of the clock, or of the level after it when it is a break.
func (s *TournamentState) blindsAt(i int) floor.Level {
	st := s.clock()
	for i < len(st.Levels)-1 && st.Levels[i].Break {
		i++
	}
	return st.Levels[i]
}

// clock is the structure the clock runs (see TournamentSpec.clockStructure).
func (s *TournamentState) clock() floor.Structure { return s.Spec.clockStructure() }

func (s *TournamentState) computePayouts() error {
	p, err := s.payoutsFor(s.buyIns())
	if err != nil {
		return err
	}
	s.Payouts = p
	return nil
}

// order queues an order for a table.
func (s *TournamentState) order(id floor.TableID, o Order) {
	tr := s.Table(id)
	if tr == nil || tr.Closed {
		return
	}
	tr.Sent++
	o.Seq = tr.Sent
	if k := slices.IndexFunc(s.Outbox, func(b TableOrders) bool { return b.Table == id }); k >= 0 {
		s.Outbox[k].Orders = append(s.Outbox[k].Orders, o)
		return
	}
	s.Outbox = append(s.Outbox, TableOrders{Table: id, Orders: []Order{o}})
}

// broadcast queues an order for every open table.
func (s *TournamentState) broadcast(o Order) {
	for _, t := range s.Tables {
		if !t.Closed && !t.Closing {
			s.order(t.ID, o)
		}
	}
}

// Left is the number of players still in (seated or moving).
func (s *TournamentState) Left() int {
	n := 0
	for _, p := range s.Players {
		if p.Status == Seated || p.Status == Moving {
			n++
		}
	}
	return n
}

// OpenTables is the number of tables in play.
func (s *TournamentState) OpenTables() int {
	n := 0
	for _, t := range s.Tables {
		if !t.Closed && !t.Closing {
			n++
		}
	}
	return n
}

// HandsPlayed is the hands dealt at every table, as far as their news tells.
func (s *TournamentState) HandsPlayed() int64 {
	var n int64
	if s.Section != nil {
		n = s.Section.ClosedHands
	}
	for _, t := range s.Tables {
		n += t.Hands
	}
	return n
}

// OnEvent takes a table's news, in each table's order.
func (s *TournamentState) OnEvent(ev TableEvent) {
	tr := s.Table(ev.Table)
	if tr == nil || ev.Seq <= tr.EventSeq {
		return
	}
	tr.Early = append(tr.Early, ev)
	slices.SortFunc(tr.Early, func(a, b TableEvent) int { return a.Seq - b.Seq })
	for len(tr.Early) > 0 && tr.Early[0].Seq <= tr.EventSeq+1 {
		e := tr.Early[0]
		tr.Early = tr.Early[1:]
		if e.Seq == tr.EventSeq+1 {
			s.apply(tr, e)
			tr = s.Table(ev.Table) // apply may append tables
		}
	}
	if len(tr.Early) == 0 {
		tr.Early = nil
	}
}

func (s *TournamentState) apply(tr *TableRecord, ev TableEvent) {
	if s.Trace != nil {
		s.Trace(ev)
	}
	tr.EventSeq = ev.Seq
	if s.Pace >= PaceLazyShrink {
		tr.Replies = ev.Replies
	}
	s.knockoutsOf(ev)
	for _, g := range ev.Busts {
		for _, e := range g.Eliminated {
			if p := s.player(string(e.Player)); p != nil {
				p.Status, p.Stack, p.Leaving = Out, 0, false
			}
		}
		switch h := s.HandForHand; {
		case g.Round > 0 && h.Open && h.Grouped && g.Round == h.Round:
			s.HandForHand.Group = append(s.HandForHand.Group, g.Eliminated...)
		case s.barriers():
			s.Unplaced = append(s.Unplaced, TableBusts{Table: tr.ID, BustGroup: g})
		default:
			s.Busts = append(s.Busts, slices.Clone(g.Eliminated))
		}
	}
	// The players the table seated since its last event, before those who left it: one seated
	// and moved on again before the table told (a section's SendOut) is in both, and taking the
	// seat after his leaving would put him back at the table, out of his chips.
	for _, id := range ev.Seated {
		tr.Arriving = slices.DeleteFunc(tr.Arriving, func(a Arrival) bool { return a.Player == id })
		if p := s.player(id); p != nil {
			p.Status, p.Table = Seated, tr.ID
		}
	}
	for _, m := range ev.Out {
		if m.Section > 0 && s.Section != nil {
			s.transferOut(m)
			continue
		}
		p := s.player(m.Player)
		p.Status, p.Stack, p.Away, p.Leaving, p.Table, p.Seat = Moving, m.Stack, m.Away, false, 0, 0
		dest := s.Table(m.To)
		k := slices.IndexFunc(dest.Arriving, func(a Arrival) bool { return a.Ref == m.Ref })
		if k < 0 {
			dest.Arriving = append(dest.Arriving, Arrival{Ref: m.Ref, Seat: m.ToSeat, Reason: m.Reason})
			k = len(dest.Arriving) - 1
		}
		// The table moved its next big blind, who may not be the floor's guess (R3): the guess stays.
		s.stays(dest.Arriving[k].Player)
		dest.Arriving[k].Player, dest.Arriving[k].Sent = m.Player, true
		seat := &SeatOrder{Player: m.Player, Seat: m.ToSeat, Stack: m.Stack, Away: m.Away, Reason: m.Reason}
		if s.barriers() {
			dest.Arriving[k].Held = seat
		} else {
			s.order(m.To, Order{Seat: seat})
		}
	}
	for _, o := range ev.Gone {
		s.stays(o.Player)
		if o.Section > 0 && s.Section != nil {
			s.sent(o.Ref, "")
			s.Section.Owed = append(s.Section.Owed, SendOutOrder{To: o.Section, Players: 1})
			continue
		}
		if dest := s.Table(o.To); dest != nil {
			dest.Arriving = slices.DeleteFunc(dest.Arriving, func(a Arrival) bool { return a.Ref == o.Ref && !a.Sent })
		}
	}
	for _, r := range ev.Refused {
		tr.Arriving = slices.DeleteFunc(tr.Arriving, func(a Arrival) bool { return a.Player == r.Player })
		p := s.player(r.Player)
		p.Status, p.Stack, p.Away = Moving, r.Stack, r.Away
		s.placeAnywhere(p, floor.MoveBalance)
	}
	for _, id := range ev.Absent {
		if p := s.player(id); p != nil && !p.Came {
			p.Absent = true
		}
	}
	for _, id := range ev.Arrived {
		if p := s.player(id); p != nil {
			p.Absent, p.Came = false, true
		}
	}
	for _, a := range ev.Sanctions {
		s.sanctionApplied(tr, a)
	}
	for _, r := range ev.Rebuys {
		s.rebuyDone(r)
	}
	s.toolsDone(tr, ev)
	for _, c := range ev.ColorUps {
		s.Ledger.ColorUp += c.Added // R8: the race's chips are in play
		if c.Error != "" {
			s.ChipErrors = append(s.ChipErrors, fmt.Sprintf("colour-up at table %d after hand %d: %s", tr.ID, c.Hand, c.Error))
		}
	}
	// The layout as it stands.
	tr.Seats, tr.Stacks = ev.Seats, ev.Stacks
	tr.Button, tr.BigBlind = ev.Button, ev.BigBlind
	tr.Hand, tr.Hands, tr.Level = ev.Hand, ev.HandsPlayed, ev.Level
	tr.Acked = max(tr.Acked, ev.Acked)
	tr.Unacked = slices.DeleteFunc(tr.Unacked, func(o Order) bool { return o.Seq <= tr.Acked })
	tr.Gap = ev.Gap
	tr.continueStep(ev)
	tr.RoundDone = max(tr.RoundDone, ev.HandForHand)
	if ev.Credit > 0 && tr.Credit > 0 && ev.Acked >= tr.CreditSeq {
		tr.Credit = ev.Credit // the table's credit slid past the last grant (Order.Slide)
	}
	tr.BustHands = max(tr.BustHands, ev.BustHands)
	for i, id := range ev.Seats {
		if id == "" {
			continue
		}
		if p := s.player(id); p != nil && p.Status != Out {
			p.Status, p.Table, p.Seat, p.Stack = Seated, tr.ID, floor.Seat(i+1), ev.Stacks[i]
		}
	}
	if ev.Closed {
		tr.Closed, tr.Closing = true, true
		s.Deleting = append(s.Deleting, tr.ID)
	}
	s.checkChips(ev)
}

// stays: the player a move named, who did not move, is no longer leaving.
func (s *TournamentState) stays(id string) {
	if p := s.player(id); p != nil && p.Status == Seated {
		p.Leaving = false
	}
}

// checkChips is the conservation invariant (R1, P4): the chips at the tables as they last told,
// plus those in the hands of moving players, are the ledger's. Once the tournament is over its
// tables close and tell no stacks: there is nothing left to check (as TopState.checkChips).
func (s *TournamentState) checkChips(ev TableEvent) {
	if s.Finished {
		return
	}
	sum := s.chipsInPlay()
	want := s.Ledger.Total()
	if s.Section != nil {
		want += s.Section.Transferred
	}
	if sum != want && len(s.ChipErrors) < 100 {
		s.ChipErrors = append(s.ChipErrors, fmt.Sprintf("after event %d of table %d (hand %d): %d chips in play, the ledger says %d", ev.Seq, ev.Table, ev.Hand, sum, want))
	}
}

// placeAnywhere seats a player who has no seat kept for him: at the table with the fewest players
// that has a free seat, in a seat drawn at random (R4's draw), or at a new table.
func (s *TournamentState) placeAnywhere(p *PlayerRecord, reason floor.MoveReason) {
	var best *TableRecord
	var bestN int
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || t.Breaking {
			continue
		}
		ft := s.view(t)
		if ft.Players() >= ft.Size() {
			continue
		}
		if best == nil || ft.Players() < bestN {
			best, bestN = t, ft.Players()
		}
	}
	if best == nil {
		id := floor.TableID(1)
		if n := len(s.Tables); n > 0 {
			id = s.Tables[n-1].ID + 1
		}
		if s.Section != nil {
			// A section's own tables are numbered apart from the draw's and the other sections'.
			id = max(id, s.Section.NextTable)
			s.Section.NextTable = id + 1
		}
		// Every table is full: a new one opens with him, and balancing (R3) brings it players. Its
		// button is drawn (T3) by the table once it has two, from a draw of the tournament's made
		// now; meanwhile his seat stands for the button and the big blind.
		ft := floor.Table{ID: id, Seats: make([]floor.PlayerID, s.Spec.TableSize), Button: 1, BigBlind: 1}
		ft.Seats[0] = floor.PlayerID(p.ID)
		p.Status = Seated
		s.addTable(ft)
		s.Table(id).ButtonSeed = mix(s.Seed, 1<<41+s.Draws)
		s.Draws++
		return
	}
	ft := s.view(best)
	var free []floor.Seat
	for i, q := range ft.Seats {
		if q == "" {
			free = append(free, floor.Seat(i+1))
		}
	}
	k, _ := floor.DrawIndex(s.rand(), len(free))
	seat := free[k]
	best.Arriving = append(best.Arriving, Arrival{Player: p.ID, Seat: seat, Reason: reason, Sent: true})
	s.order(best.ID, Order{Seat: &SeatOrder{Player: p.ID, Seat: seat, Stack: p.Stack, Away: p.Away, Reason: reason, NewEntry: p.Status == Waiting}})
	if p.Status == Waiting {
		p.Status = Moving
	}
}

// view is a table as the floor decides on it: its last layout, less the players told to leave,
// plus the seats kept for arrivals.
func (s *TournamentState) view(t *TableRecord) floor.Table {
	ft := floor.Table{ID: t.ID, Seats: make([]floor.PlayerID, len(t.Seats)), Button: t.Button, BigBlind: t.BigBlind}
	for i, p := range t.Seats {
		if p == "" {
			continue
		}
		if pr := s.player(p); pr != nil && pr.Leaving {
			continue
		}
		ft.Seats[i] = floor.PlayerID(p)
	}
	for _, a := range t.Arriving {
		if a.Seat >= 1 && int(a.Seat) <= len(ft.Seats) {
			name := a.Player
			if name == "" {
				name = "(arriving)"
			}
			ft.Seats[a.Seat-1] = floor.PlayerID(name)
		}
	}
	return ft
}

// Resend queues again the orders signalled and not yet applied: a run that continued as new does
// not know whether they arrived; a table applies each once.
func (s *TournamentState) Resend() {
	for i := range s.Tables {
		t := &s.Tables[i]
		if len(t.Unacked) == 0 || t.Closed {
			continue
		}
		s.Outbox = append(s.Outbox, TableOrders{Table: t.ID, Orders: t.Unacked})
		t.Unacked = nil
	}
}

// PaceSlide is the Pace from which the credit slides and the floor plans beside moves;
// PaceResend the one from which the orders a table says it misses are sent again (resendGaps);
// PaceHostEarly the one from which a table's process starts as soon as its workflow has
// (the workflows' startTables), not once every table started with it has; PaceLost the one
// from which a table told to continue as new is sent again only the orders of a signal that
// failed (TableRecord.Lost); PaceRebuys the one from which a section tells the tournament the
// rebuys its tables have not answered (SectionEvent.RebuysPending), so that the pool is final
// only once none can be refunded; PaceHandOn the one from which a section that empties during
// late registration tells the tournament the entries it knew of (SectionEvent.HandOn);
// PaceClosed the one from which nothing goes to a table once its Close was signalled, neither
// the Order.Continue it asked for nor an order sent again (TableRecord.Drops); PaceHostBatch the
// one from which the tables to take down or to replace (Deleting, Replacing) go to their hosts
// in batches, a few batches under way at a time, the rest kept queued in the state;
// PaceReportUpdate the one from which a section's news goes to the tournament as an Update (the
// server holds at most ten of a run's in flight, and none waits among the events buffered while a
// task of the tournament's runs), not as a signal; PaceHeldSkip the one from which a table held
// in a hand-for-hand round counts the round as skipped (TableState.SkipHeld); PaceQuiet the one
// from which a run due to continue as new first asks its tables to keep quiet (link.go, "Quiet");
// PaceOneSignal the one from which a run has at most one signal of orders on its way to a table
// and sends what was queued meanwhile in one signal after it (MergeOutbox); PaceSectionQuiet the
// one from which a section due to continue as new first asks its tournament to hold its orders
// (link.go, "A section's quiet"); PaceSignalCap the one from which at most signalsInFlight order
// signals are on their way at once (the workflows' tournament); PaceSectionLevels the one from
// which a section of a simulation passes no level change on to its tables, which keep the
// schedule by their own hands (TableState.Schedule) and took the order only to drop it (in the
// director's simulation of 2,000 entries in sections, 39 % of the order signals); PaceSlideBatch
// the one from which a table with a sliding credit deals a batch through the hands without an
// elimination (TableState.SlideBatch) rather than reporting every hand; PaceClockReports the one
// from which the tables of a simulation paced by the clock tell their hand count every batch
// rather than every 100 hands (reportEvery) and its one table left reports a batch at a time
// rather than five (loneBatch): a hand a second, the clock and the progress heard of the last
// tables once in 100 seconds; PaceQuietClosing the one from which the end of a quiet goes to a
// table whose Close went with its Order.Quiet (AfterClose); PaceRoundAfterMoves the one from
// which a section given a hand-for-hand round while its own moves are under way opens it once they
// are made (HandForHandState.Waiting), rather than at once: its tournament, from PlanRoundBeside,
// orders the round without waiting to hear that every section's moves are made;
// PaceQuietFromAsk the one from which a run due to continue as new asks no table to keep quiet
// once its wait for their quiet (the workflows' QuietWait) is over, and waits for the answer of
// the last it asked a while (QuietAnswerWait) whenever that wait ends: a table that started late
// was asked late, and its answer came in during the task that continued the run;
// PaceQuietStart the one from which a table's first run does not say it is up
// (TableState.QuietStart): the run marks it started, and able to keep quiet, once its start is
// done; PaceQuietEndsAtEnd the one from which a run that asked its tables to keep quiet and
// finishes instead of continuing as new ends their quiet (EndQuiet) as its next run would have;
// PaceEndWakes the one from which the end's wait for its tables' close also wakes when one of its
// order signals is done, so that the orders held behind it (one signal on its way a table) go:
// a table's Close waited so the whole closeWait, the table dealt on to its 20 s waits, and the
// section ended "closing", its tournament gone (TestBountiesAndSatellitesInSectionsEndToEnd's
// satellite, on CI on 1 and 5 December); PacePacedHoldsNone the one from which a simulation paced
// by the clock (Spec.Pace) holds no table short of players (hold), as a seeded one at full speed
// holds none: each hold and its release were an order signal, a table task and an event back,
// 40 % of a paced 10,000's order signals, and a held table deals nothing while its players' source
// tables finish their batch; PaceLocalSignals the one from which the run sends its tables' orders
// from a local activity through the client (SignalOrders) rather than as its own command: each
// signal sent as a command came back to the run as an event and a task of its own, and took its
// lock at the server twice; PaceCommandSignals the one from which they go as the run's commands
// again: a local activity's signal leaves before the task that decided it is recorded, and a run
// whose task is lost (its worker killed) decides again on other news and sends other orders under
// the same numbers, which the table, having applied the first, drops (TestRunResumesAfterKills
// stalled so on CI on 6 December: tables had applied order 9 of a tournament whose records said
// it had sent them 1); PaceOrdersInReply the one from which the orders a table may be sent when
// its events come in go back as the answer to the Update that carried them (the workflows'
// TableEventsUpdate), when the table says it takes them so (TableEvent.Replies) and no signal
// of orders to it is on its way: the answer leaves only once the task that decided it is
// recorded, and it saves the signal's command, the event and task it brought back to the run,
// and the table's task for it (a credit's round trip near the bubble was two tasks at each end).
const (
	PaceSlide           = 1
	PaceResend          = 2
	PaceHostEarly       = 3
	PaceLost            = 4
	PaceRebuys          = 5
	PaceHandOn          = 6
	PaceClosed          = 7
	PaceHostBatch       = 8
	PaceReportUpdate    = 9
	PaceHeldSkip        = 10
	PaceQuiet           = 11
	PaceOneSignal       = 12
	PaceSectionQuiet    = 13
	PaceSignalCap       = 14
	PaceSectionLevels   = 15
	PaceSlideBatch      = 16
	PaceClockReports    = 17
	PaceQuietClosing    = 18
	PaceRoundAfterMoves = 19
	PaceQuietFromAsk    = 20
	PaceQuietStart      = 21
	PaceQuietEndsAtEnd  = 22
	PaceEndWakes        = 23
	PacePacedHoldsNone  = 24
	PaceLocalSignals    = 25
	PaceCommandSignals  = 26
	PaceOrdersInReply   = 27
	PaceFieldDeadline   = 28
	PaceLazyShrink      = 29
	// PaceApproachSpare: far from the rounds, a table's sliding credit runs on past one hand
	// with an elimination while the floor hears of it (approachSpare).
	PaceApproachSpare = 30
	// PaceLazyNear: when the approach comes near the rounds, a table that takes answers is told
	// its batch and spare with the answer to its next events, not by a signal of its own
	// (tellNear).
	PaceLazyNear = 31
	// PaceLazyHold: a table that takes answers is told to hold with the answer to its next
	// events, not by a signal of its own, and not at all if it is no longer short by then (hold).
	PaceLazyHold = 32
	// PaceOwnEventCount: a run continues as new for its history's event count at RunEvents, not
	// when Temporal first suggests it (4,096 events by default); Temporal's suggestion for the
	// history's size or for its Updates still counts at once (workflows' runDue).
	PaceOwnEventCount = 33
	// PaceLatest is the pace of a run started now, and of a state made outside a workflow.
	PaceLatest = PaceOwnEventCount
)

// MergeOutbox gathers the orders queued for each table into one batch, in the order of their
// numbers, each once, the tables in the order they first appear: a run that has one signal on
// its way to a table (PaceOneSignal) sends all that was queued meanwhile, the orders a handler
// added, a resend for a gap, those a new run sends again, in one signal after it.
//
// Why: every order signal costs the server a transfer task, an event and a workflow task at the
// table and another event and workflow task at the section (the signal's completion), and signals
// on their way to one table at once arrive in any order, so that the table sees a gap in its
// orders, tells it, and is sent every unacknowledged order again. In the 100,000-entry local run
// (4 December) a held table, waiting its turn to report, was sent its hold and its release
// alternately and its whole growing list of unacknowledged orders again every 10 to 20 seconds,
// 14 signals in two minutes; the section's history was 38% order signals and their completions.
func MergeOutbox(out []TableOrders) []TableOrders {
	at := map[floor.TableID]int{}
	merged := out[:0:0]
	for _, b := range out {
		k, ok := at[b.Table]
		if !ok {
			k = len(merged)
			at[b.Table] = k
			merged = append(merged, TableOrders{Table: b.Table})
		}
		merged[k].Orders = append(merged[k].Orders, b.Orders...)
	}
	for i := range merged {
		orders := merged[i].Orders
		slices.SortStableFunc(orders, func(a, b Order) int { return cmp.Compare(a.Seq, b.Seq) })
		merged[i].Orders = slices.CompactFunc(orders, func(a, b Order) bool { return a.Seq == b.Seq })
	}
	return merged
}

// GapResendWait is how long the tournament lets a table wait on a gap in its orders (a signal
// still on its way may fill it) before it sends the table's unapplied orders again.
const GapResendWait = 5 * time.Second

// PlanWait is how long a simulation's floor waits for the moves under way before it plans the
// tables they do not touch (planWhileMoving).
const PlanWait = 3 * time.Second

// planWhileMoving says the floor plans while moves are under way: in a simulation without
// barriers, once they have been under way for PlanWait, the tables no move touches are planned
// among themselves (inMotion), the others once their moves are done. Waiting for every move to be
// done let one slow table (one that starts late, or whose reports wait on a busy machine) stop the
// breaking of all the others: they went on busting players, and the tables short of its fullest
// were held waiting for players that only a plan sends (10,000 entries: 332 players left on a
// section's 100 tables, 58 of them held). Planning while moves are under way at once breaks
// fewer tables than waiting a little: the tables receiving players are left out of the plan, and
// their free seats with them.
func (s *TournamentState) planWhileMoving(now time.Time) bool {
	return s.Pace >= PaceSlide && s.Spec.Simulation && !s.barriers() && !s.MovingSince.IsZero() && now.Sub(s.MovingSince) >= PlanWait
}

// noteMoving keeps MovingSince.
func (s *TournamentState) noteMoving(now time.Time) {
	switch moving := s.MovesPending(); {
	case !moving:
		s.MovingSince = time.Time{}
	case s.MovingSince.IsZero():
		s.MovingSince = now
	}
}

// inMotion: a player is on his way to table t, or told to leave it.
func (s *TournamentState) inMotion(t *TableRecord) bool {
	if len(t.Arriving) > 0 {
		return true
	}
	for _, id := range t.Seats {
		if p := s.player(id); id != "" && p != nil && p.Leaving {
			return true
		}
	}
	return false
}

// MovesPending: a player is on the way from one table to another, or told to go. The floor plans
// again only when every move it ordered is done, so that its view of the tables is theirs (less
// the hands played since their last news, which only take players away).
func (s *TournamentState) MovesPending() bool {
	for _, t := range s.Tables {
		if !t.Closed && len(t.Arriving) > 0 {
			return true
		}
	}
	for _, p := range s.Players {
		if p.Status == Moving || p.Leaving {
			return true
		}
	}
	return false
}

// Step is the floor's work after the news: places, hand-for-hand, breaking and balancing tables,
// holding short tables, closing empty ones, sanctions waiting for a seat, and the end (R5).
func (s *TournamentState) Step(now time.Time) {
	if s.Section != nil {
		s.stepSection(now)
		return
	}
	if s.Finished {
		return
	}
	defer s.recordNews() // the director's end-of-run list (record.go)
	s.sendSanctions()
	s.removeDueNoShows(now)
	h := &s.HandForHand
	if h.Open && s.roundDone() {
		s.placeUnplaced()
		if len(h.Group) > 0 {
			s.Busts = append(s.Busts, h.Group) // R7: one hand-for-hand round is one group
		}
		if h.Grouped {
			h.Rounds++
		}
		h.Open, h.Group, h.Participants = false, nil, nil
	}
	if s.Left() <= 1 {
		s.placeUnplaced()
		if len(h.Group) > 0 {
			s.Busts = append(s.Busts, h.Group)
			h.Group = nil
		}
		s.Finish(now)
		return
	}
	s.watchTables(now)
	s.closeEmptyTables()
	if s.barriers() && !s.atBarrier() {
		s.grantHorizon(s.creditWindow()) // the tables whose arrivals are now on their way
		return                           // a seeded simulation decides only at barriers
	}
	s.placeUnplaced()
	s.noteMoving(now)
	if !h.Open && (!s.MovesPending() || s.planWhileMoving(now)) {
		s.plan()
	}
	if !s.barriers() {
		// A seeded simulation needs no holding: the tables players move to wait at the barrier
		// until their seat orders go (grantHorizon).
		s.hold(now)
	}
	s.approachBubble()
	s.grantCredit()
	s.lastTable(now)
	if h.Open {
		return
	}
	lockstep, grouped := s.bubble().rounds(h.On)
	switch {
	case lockstep && !h.On:
		// A barrier first: every table stops when its hand ends, so that none deals on while the
		// moves ordered are made.
		h.On = true
		s.openRound(false, true)
	case lockstep && !s.MovesPending():
		s.openRound(grouped, false)
	case !lockstep && h.On:
		h.On = false
		s.broadcast(Order{HandForHand: &HandForHandOrder{Round: 0}})
	}
}

// openRound starts a hand-for-hand round: each open table deals one hand and waits (R7); skip
// makes it a barrier where no table deals.
func (s *TournamentState) openRound(grouped, skip bool) {
	h := &s.HandForHand
	h.Open, h.Grouped = true, grouped
	h.Round++
	h.Participants = nil
	for _, t := range s.Tables {
		if t.Closed || t.Closing {
			continue
		}
		h.Participants = append(h.Participants, t.ID)
		s.order(t.ID, Order{HandForHand: &HandForHandOrder{Round: h.Round, Skip: skip || t.Held}})
	}
}

// approachBubble notes when a simulation nears the bubble: from then on every table tells every
// hand (creditWindow), so that the floor sees the bubble come.
func (s *TournamentState) approachBubble() {
	b := s.bubble()
	s.HandForHand.Approach = b.approach(s.HandForHand.Approach)
	if s.Section == nil && s.Pace >= PaceSlideBatch {
		s.setNear(b.near(s.HandForHand.Approach, s.HandForHand.Near))
	}
}

// setNear notes whether the approach is near the rounds (bubble.near) and tells the tables their
// batch when it changes (tableBatch).
func (s *TournamentState) setNear(near bool) {
	if near == s.HandForHand.Near {
		return
	}
	s.HandForHand.Near = near
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || t.Credit == 0 {
			continue
		}
		if s.Pace >= PaceLazyNear && t.Replies {
			t.NearOwed = true // with the answer to its next events (tellNear)
			continue
		}
		s.tellNear(t)
	}
}

// tellNear tells table t its batch (tableBatch) and, near the rounds, that every hand with an
// elimination waits for the floor again (no spare, approachSpare).
//
// Why not every table at once (from PaceLazyNear): at 100,000 entries on 7 December the approach
// came near the rounds with 5,900 tables, and the sections signalled every one of them its batch
// and its spare within two minutes (5,888 batch orders): 4,108 tables' tasks waited out their
// sticky queue's 30 seconds in those minutes and were replayed from their histories, and the
// field stood still for a minute.
// Both orders matter only to a table that deals on, whose hands come to its section as its
// events: a table that takes answers (TableRecord.Replies) gets them with the answer to its next
// events. Until then it deals its batch as before, past at most one more hand with an
// elimination than the floor has heard, as in the approach: the rounds are still 3 players a
// table away.
func (s *TournamentState) tellNear(t *TableRecord) {
	t.NearOwed = false
	batch := s.tableBatch()
	s.order(t.ID, Order{Batch: &batch})
	if s.HandForHand.Near && t.BustCredit != 0 {
		var none int64
		t.BustCredit = 0
		s.order(t.ID, Order{BustCredit: &none})
	}
}

// tableBatch is the batch of a simulation's tables but the last alone: from PaceSlideBatch a
// table with a sliding credit deals its batch through the hands without an elimination, and near
// the rounds (HandForHandState.Near) one hand a batch, so that each hears of them after its next
// hand.
func (s *TournamentState) tableBatch() int {
	if s.HandForHand.Near && s.Pace >= PaceSlideBatch {
		return 1
	}
	return max(s.Spec.Batch, 1)
}

// bubble is where the field stands against the money.
func (s *TournamentState) bubble() bubble {
	return s.Spec.bubble(s.Left(), len(s.Payouts.Prizes), s.OpenTables(), s.alone())
}

// alone says one table is left in play and no player is on his way to it: there is no other
// table to keep in step with (R7), so it needs neither hand-for-hand rounds nor the bubble's
// one-hand credit, and reports its hands in batches.
func (s *TournamentState) alone() bool {
	return s.OpenTables() == 1 && !s.MovesPending()
}

// creditBatches is the credit window in batches: wide enough that a table seldom waits for its
// grant, narrow enough that the floor's view stays near the tables'.
const creditBatches = 5

// creditWindow is how many hands a simulation's table may deal beyond what the tournament has
// heard: creditBatches batches, one hand near the bubble.
func (s *TournamentState) creditWindow() int64 {
	if s.barriers() {
		// Every table stops at each barrier: one batch apart, so that the floor balances and
		// breaks as often as it would hear of the tables otherwise; nearer the rounds before the
		// bubble (Step's lockstep), as few hands as the tables could take players out in before
		// them, one each a hand. (Approach's one hand would make every table wait for every other
		// between hands long before that.)
		batch := int64(max(s.Spec.Batch, 1))
		if s.Spec.HandForHandBefore < 0 {
			return batch
		}
		tables := max(s.OpenTables(), 1)
		toRounds := s.Left() - (len(s.Payouts.Prizes) + max(s.Spec.HandForHandBefore, 1) + tables + 2)
		return min(max(int64(toRounds/tables), 1), batch)
	}
	if s.HandForHand.Approach {
		return 1
	}
	return int64(creditBatches * max(s.Spec.Batch, 1))
}

// TableBusts are the eliminations of one hand at one table.
type TableBusts struct {
	Table floor.TableID `json:"table"`
	BustGroup
}

// barriers says the tournament is a seeded simulation, which must play the same whatever the
// scheduling of its tables: it decides (balancing, breaking, holding, hand-for-hand, credit) only
// at barriers, where every table has dealt up to the same hand number (its credit, the horizon)
// and waits, so that every decision sees the same tables and every order takes effect at the
// hand the table stopped at; eliminations are placed in the order of their hands. The sections
// of a tournament started from PlanBarriers keep the tournament's barriers (lockstep); those of
// one started before keep none.
func (s *TournamentState) barriers() bool {
	return s.Spec.Simulation && s.Spec.Seed != 0 && (s.Section == nil || s.Section.Lockstep)
}

// lockstep says the state is a section that keeps its tournament's barriers: the horizon is the
// tournament's (SectionOrder.Horizon), and the section decides when it moves on (stepLockstep).
func (s *TournamentState) lockstep() bool {
	return s.Section != nil && s.Section.Lockstep
}

// atBarrier: no open table can deal before the tournament speaks: each has the horizon for credit
// and has dealt up to it, or cannot deal (held, fewer than two players, waiting for a hand-for-hand
// round), and no round is being dealt.
func (s *TournamentState) atBarrier() bool {
	if s.HandForHand.Open {
		return false
	}
	if s.alone() && !s.lockstep() {
		return true
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing {
			continue
		}
		if !t.Started || t.Credit > 0 && t.Credit < s.Horizon {
			return false // not started, or held back for players on their way to it
		}
		players := 0
		for _, p := range t.Seats {
			if p != "" {
				players++
			}
		}
		if t.Credit > 0 && t.Hand < t.Credit && players >= 2 && !t.Held && !s.HandForHand.On {
			return false
		}
	}
	return true
}

// grantHorizon moves a seeded simulation's horizon on at a barrier, window hands past the furthest
// table, and lets every table deal up to it, except those that players are moving to: each stays
// where it stopped until the seat orders of its arrivals go (they come from the tables the players
// leave, with their chips), so that the players sit down at the hand the floor decided at. The
// tables they leave take their move-out orders with the new credit, at that hand too.
func (s *TournamentState) grantHorizon(window int64) {
	if !s.lockstep() && s.atBarrier() {
		var furthest int64
		for _, t := range s.Tables {
			if !t.Closed && !t.Closing {
				furthest = max(furthest, t.Hand)
			}
		}
		s.Horizon = max(s.Horizon, furthest+window)
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || !t.Started || slices.ContainsFunc(t.Arriving, func(a Arrival) bool { return !a.Sent }) {
			continue
		}
		// The seats in the order of the moves, whatever order the players left their tables in:
		// the first seated takes the seat a balancing move gives (R3).
		slices.SortStableFunc(t.Arriving, func(a, b Arrival) int { return cmp.Compare(a.Ref, b.Ref) })
		for k := range t.Arriving {
			if a := &t.Arriving[k]; a.Held != nil {
				s.order(t.ID, Order{Seat: a.Held})
				a.Held = nil
			}
		}
		if t.Credit >= s.Horizon && t.Credit != 0 {
			continue
		}
		if t.Credit == 0 {
			batch := s.tableBatch() // alone no more
			s.order(t.ID, Order{Batch: &batch})
		}
		t.Credit = s.Horizon
		credit := s.Horizon
		s.order(t.ID, Order{Credit: &credit})
	}
}

// placeUnplaced places the eliminations heard since the last barrier: by hand, then table.
func (s *TournamentState) placeUnplaced() {
	if len(s.Unplaced) == 0 {
		return
	}
	slices.SortStableFunc(s.Unplaced, func(a, b TableBusts) int {
		return cmp.Or(cmp.Compare(a.Hand, b.Hand), cmp.Compare(a.Table, b.Table))
	})
	for _, g := range s.Unplaced {
		s.Busts = append(s.Busts, slices.Clone(g.Eliminated))
	}
	s.Unplaced = nil
}

// clockReports: a simulation paced by the clock, from PaceClockReports, whose tables report every
// batch (reportEvery, loneBatch).
func (s *TournamentState) clockReports() bool { return s.Spec.Pace > 0 && s.Pace >= PaceClockReports }

// reportEvery is how many hands a table deals at most before it tells its hand count, news or not
// (TableState.ReportEvery): 100, or a batch in a simulation paced by the clock (PaceClockReports),
// whose tables deal a hand a second.
func (s *TournamentState) reportEvery() int {
	if s.clockReports() {
		return max(s.Spec.Batch, 1)
	}
	return 100
}

// loneBatch is the batch of a simulation's table alone: with nobody to keep in step with, the
// only cost of a longer batch is the hands a crash voids (those not yet reported), and every
// report is a round trip through Temporal. A simulation paced by the clock keeps its batch (from
// PaceClockReports), a report every 20 seconds at most.
func (s *TournamentState) loneBatch() int {
	if s.clockReports() {
		return max(s.Spec.Batch, 1)
	}
	return creditBatches * max(s.Spec.Batch, 1)
}

// grantCredit lets the tables of a simulation deal on, as far as the window from the last hand
// they told of; the grant goes when half the window is used, so a table seldom waits for it.
func (s *TournamentState) grantCredit() {
	if !s.Spec.Simulation {
		return
	}
	w := s.creditWindow()
	// A section's one table is not the tournament's: the others are in other sections.
	alone := s.alone() && s.Section == nil
	if s.barriers() && !alone {
		s.grantHorizon(w)
		return
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if alone {
			// No other table to keep in step with: it deals on without asking (its schedule is
			// its clock), and tells its news as it goes.
			if !t.Closed && !t.Closing && t.Started && t.Credit != 0 {
				t.Credit = 0
				credit, batch := int64(0), s.loneBatch()
				s.order(t.ID, Order{Credit: &credit})
				t.CreditSeq = t.Sent
				s.order(t.ID, Order{Batch: &batch})
				s.slideCredit(t, false)
			}
			continue
		}
		if t.Credit == 0 && t.Started && !t.Closed && !t.Closing {
			// Alone no more (a late entry opened a table): back to the batches of many tables.
			batch := s.tableBatch()
			s.order(t.ID, Order{Batch: &batch})
		}
		// Refill when half the window is used; shrink it when the window closes in (the bubble).
		// A table not started yet takes its credit with its first state (TableInput): a grant
		// queued before it would be older than that, and stop it at once.
		if t.Closed || t.Closing || !t.Started || t.Credit-t.Hand > w/2 && t.Credit <= t.Hand+w {
			continue
		}
		if t.Credit > t.Hand+w && s.shrinksLater(t) {
			continue
		}
		t.Credit = t.Hand + w
		credit := t.Credit
		s.order(t.ID, Order{Credit: &credit})
		t.CreditSeq = t.Sent
		// After the credit: a shrinking grant (the approach begins) is applied before the credit
		// slides, and one that ends the approach while it still slides.
		s.slideCredit(t, s.slide())
	}
	for i := range s.Tables {
		if t := &s.Tables[i]; t.NearOwed && !t.Closed && !t.Closing && (!t.Replies || t.ID == s.Answering) {
			s.tellNear(t)
		}
	}
	if spare := s.approachSpare(); spare > 0 {
		for i := range s.Tables {
			s.spareBusts(&s.Tables[i], spare)
		}
	}
}

// approachSpare is how many hands with an elimination a table's sliding credit runs on past
// before the floor has heard of them (Order.BustCredit): one in the approach before it is near
// the rounds (from PaceApproachSpare), none elsewhere.
//
// Why: with a one-hand credit that slides only past hands without an elimination, every
// elimination of the approach stopped its table for a round trip of its host's report, the
// table's events and the section's answer, and at 100,000 entries the approach spans the field
// from 4 players a table above the rounds (44,000 left) to 3 (near, about 15,000): 29,000
// eliminations at about one a report, 41 of the run's 85 minutes on 6 December. With a spare, a
// table deals on past an elimination while its events go, and the answer (a new spare counted
// from the eliminations heard) comes back before its next one, as a rule: it stops only when
// it deals two before the floor has heard the first. The floor then sees at most two hands with
// an elimination a table late, about two players a table, against a margin of three a table
// or more until it is near; from there one, as before.
func (s *TournamentState) approachSpare() int64 {
	if s.Pace < PaceApproachSpare || !s.slide() || s.HandForHand.Near {
		return 0
	}
	return 1
}

// spareBusts lets table t deal on past spare hands with an elimination beyond those its events
// told (Order.BustCredit), once it has spent one: with the answer to its events when it takes
// them (TableRecord.Replies), so that no table is signalled for it alone.
func (s *TournamentState) spareBusts(t *TableRecord, spare int64) {
	if t.Closed || t.Closing || !t.Started || !t.Slide || t.Credit == 0 {
		return
	}
	want := t.BustHands + spare
	if t.BustCredit >= want || t.Replies && t.ID != s.Answering {
		return
	}
	t.BustCredit = want
	s.order(t.ID, Order{BustCredit: &want})
}

// shrinksLater says table t's credit, wider than the window now, shrinks with the answer to its
// next events rather than by a signal of its own (from PaceLazyShrink): a table that takes its
// orders so (TableRecord.Replies), whose events are not the ones being answered (Answering),
// before the approach is near the rounds (HandForHandState.Near).
//
// Why: the window closes in for every table at once when the approach begins, and at 100,000
// entries (6 December) the sections then signalled 8,000 tables a shrinking credit within a
// minute, on top of the 80 or so tasks a second the tables' worker keeps up with: 5,600 tables'
// tasks waited out their sticky queue's 30 seconds and were replayed from their histories, and
// the field stood still for three minutes. A shrink matters only to a table that deals on, and
// a table's hands come to the section as its events: the one with an elimination (the news that
// brings the bubble nearer) is answered with the shrink. Near the rounds every table is
// signalled, as before.
func (s *TournamentState) shrinksLater(t *TableRecord) bool {
	return s.Pace >= PaceLazyShrink && t.Replies && t.ID != s.Answering && !s.HandForHand.Near
}

// slide says the tables' credit slides (Order.Slide): a simulation near the bubble without
// barriers, where each table's credit is one hand (creditWindow). A table then waits for the
// floor only after a hand with an elimination, the one news that brings the bubble nearer: hands
// in which nobody was eliminated leave the field as the floor knows it, and cost no trip to the
// floor and back. The bubble is as safe as with one hand of credit: no table deals past a hand
// with an elimination before the floor has heard it (past one more, far from the rounds, from
// PaceApproachSpare: approachSpare).
func (s *TournamentState) slide() bool {
	return s.Pace >= PaceSlide && s.Spec.Simulation && !s.barriers() && s.HandForHand.Approach
}

// slideCredit tells table t whether its credit slides, if it was told otherwise. It goes with a
// credit order (grantCredit), so that no table is signalled for it alone.
func (s *TournamentState) slideCredit(t *TableRecord, on bool) {
	if t.Slide == on {
		return
	}
	t.Slide = on
	s.order(t.ID, Order{Slide: &on})
}

// lastTable tells a simulation's one table left that it is the last once nobody can join it
// (registration closed, nobody on the way): it then closes itself when it has a winner (R5), and
// the tournament hears the last elimination and the close in one event.
func (s *TournamentState) lastTable(now time.Time) {
	if !s.Spec.Simulation || s.Section != nil || !s.alone() || s.registrationOpen(now) == nil {
		return
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if !t.Closed && !t.Closing && t.Started && !t.Last {
			t.Last = true
			last := true
			s.order(t.ID, Order{Last: &last})
		}
	}
}

// roundDone: every table the round was opened at has dealt it, or closed. A section forgets a
// table once it has closed (compact), which may be during the round: a table no longer on the
// books has closed.
func (s *TournamentState) roundDone() bool {
	for _, id := range s.HandForHand.Participants {
		t := s.Table(id)
		if t != nil && !t.Closed && !t.Closing && t.RoundDone < s.HandForHand.Round {
			return false
		}
	}
	return true
}

// plan breaks and balances the tables (R3, R4) from the floor's view, when it is the tables' own.
// While moves are under way (planWhileMoving) it plans the tables no move touches.
func (s *TournamentState) plan() {
	moving := s.MovesPending()
	if moving && s.Tools.BreakNext != nil {
		return // the director's break waits for the whole floor's view (directorBreak)
	}
	var open []floor.Table
	for i := range s.Tables {
		t := &s.Tables[i]
		if !t.Closed && !t.Closing && !t.Breaking && (!moving || !s.inMotion(t)) {
			open = append(open, s.view(t))
		}
	}
	if len(open) == 0 {
		return
	}
	if plan, ok := s.directorBreak(open); ok {
		s.orderPlan(plan) // the director's break order first (tools.go)
		return
	}
	plan, err := floor.PlanTables(open, s.Spec.Balance, s.rand())
	if err != nil {
		s.ChipErrors = append(s.ChipErrors, "floor plan: "+err.Error())
		return
	}
	s.orderPlan(plan)
	s.recordPlan(plan, "", "")
}

// orderPlan orders the floor's plan: the broken tables marked, each player moved once.
func (s *TournamentState) orderPlan(plan floor.Plan) {
	for _, id := range plan.Broken {
		s.Table(id).Breaking = true
	}
	for _, d := range directMoves(plan.Moves) {
		m := d.Move
		p := s.player(string(m.Player))
		p.Leaving = true
		s.MoveRefs++
		dest := s.Table(m.To)
		dest.Arriving = append(dest.Arriving, Arrival{Ref: s.MoveRefs, Player: string(m.Player), Seat: m.ToSeat, Reason: m.Reason})
		s.order(m.From, Order{MoveOut: &MoveOutOrder{Ref: s.MoveRefs, Player: string(m.Player), NextBigBlind: d.nextBigBlind,
			To: m.To, ToSeat: m.ToSeat, Reason: m.Reason}})
	}
}

// directMove is a move as ordered: the plan's first leg's source, its last leg's destination.
type directMove struct {
	floor.Move
	nextBigBlind bool // the first leg balanced: the source's next big blind moves, whoever he is (R3)
}

// directMoves sends a player the plan moves twice (a broken table's player drawn into a table that
// breaks after it, R4) straight to where the plan leaves him: the tables count the same, and the
// seat he would have passed through stays free.
func directMoves(moves []floor.Move) []directMove {
	var out []directMove
	for _, m := range moves {
		if k := slices.IndexFunc(out, func(o directMove) bool { return o.Player == m.Player }); k >= 0 {
			out[k].To, out[k].ToSeat, out[k].Reason = m.To, m.ToSeat, m.Reason
			continue
		}
		out = append(out, directMove{Move: m, nextBigBlind: m.Reason == floor.MoveBalance})
	}
	return out
}

// watchTables runs each table's deadline: a table that told nothing for its deadline has stopped
// (its process hung or died with nobody to restart it); its host is replaced, and the new process
// takes up from the last hand acknowledged, the hand in progress void (D4). A tournament never
// waits forever on one table.
//
// The deadline is TableDeadline, or DeadlineIntervals times how often the tables are heard from
// (NewsEvery) if that is longer (from PaceFieldDeadline). Why: a table tells its news when its
// process reports, and when the server is the bottleneck every table's reports wait their turn.
// In the 100,000-entry local run (6 December) the tables' hosts could report 15-46 times a second
// for 11,000 tables, each table's turn coming every 4 to 12 minutes: past the 5-minute deadline,
// so that tables alive and waiting were replaced by the thousand, every replacement voiding a hand
// and adding work to a server that had none to spare. A table hung or dead stays silent however
// slow the others are, and is replaced once it is silent several of their intervals.
func (s *TournamentState) watchTables(now time.Time) {
	deadline := s.Spec.TableDeadline
	if s.Pace >= PaceFieldDeadline && deadline > 0 {
		deadline = max(deadline, DeadlineIntervals*s.NewsEvery)
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || !t.Started {
			continue
		}
		// News, or quiet as asked (a run continuing as new asks its tables to be: link.go).
		if t.LastNews.IsZero() || t.EventSeq != t.HeardSeq || t.Quiet {
			if s.Pace >= PaceFieldDeadline && !t.LastNews.IsZero() && !t.Quiet && t.EventSeq != t.HeardSeq {
				s.heard(now.Sub(t.LastNews))
			}
			t.LastNews, t.HeardSeq = now, t.EventSeq
			continue
		}
		if deadline > 0 && now.Sub(t.LastNews) > deadline {
			t.LastNews = now // another deadline for the new host
			t.Replaced++
			if !slices.Contains(s.Replacing, t.ID) { // still queued (PaceHostBatch): replaced once
				s.Replacing = append(s.Replacing, t.ID)
			}
		}
	}
	s.resendGaps(now)
}

// heard takes one interval between a table's news into the field's average (NewsEvery), which
// follows the last few dozen.
func (s *TournamentState) heard(interval time.Duration) {
	if s.NewsEvery == 0 {
		s.NewsEvery = interval
		return
	}
	s.NewsEvery += (interval - s.NewsEvery) / newsEveryWeight
}

// DeadlineIntervals is how many of the field's intervals between news (NewsEvery) a table may be
// silent before its host is replaced, when that is longer than its TableDeadline; newsEveryWeight
// is the weight of the average so far against one new interval.
const (
	DeadlineIntervals = 4
	newsEveryWeight   = 16
)

// resendGaps sends again the unapplied orders of every table whose last event said it misses
// some (TableEvent.Gap): a signal of orders that failed every attempt is not retried by its
// sender, and the table, which applies its orders in sequence, would hold every later one
// forever (its credit, its moves, hand-for-hand). The table applies each order once, so a
// resend that crosses a late signal costs nothing. At most once a GapResendWait a table.
func (s *TournamentState) resendGaps(now time.Time) {
	if s.Pace < PaceResend {
		return
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || !t.Started || t.Gap == 0 || t.Gap <= t.Acked+1 || len(t.Unacked) == 0 || now.Sub(t.ResentAt) < GapResendWait {
			continue
		}
		t.ResentAt = now
		s.Outbox = append(s.Outbox, TableOrders{Table: t.ID, Orders: t.Unacked})
		t.Unacked = nil
	}
}

// closeEmptyTables closes the tables that broke, once everyone has left them.
func (s *TournamentState) closeEmptyTables() {
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || !t.Breaking || t.Acked < t.Sent || len(t.Arriving) > 0 || slices.ContainsFunc(t.Seats, func(p string) bool { return p != "" }) {
			continue
		}
		s.order(t.ID, Order{Close: &CloseTableOrder{}})
		t.Closing = true
	}
}

// hold stops the tables short by HoldShortBy or more until their players arrive (TDA); a
// simulation paced by the clock holds none from PacePacedHoldsNone.
//
// From PaceLazyHold a table that takes answers (TableRecord.Replies) is told to hold with the
// answer to its next events (HoldOwed), and not at all if by then it is short no more; a release
// goes at once, since a held table deals nothing that would bring its events. Why: a dealing
// table takes its orders only at its next report, so a signal of its own holds it little sooner
// than the answer to its next events, and the floor's counts move under a table short by about
// HoldShortBy (a player out at the fullest table, one arriving): at 100,000 entries on 7
// December the sections' order signals carried 25,635 hold orders against 13,967 moves out and
// 11,284 seats (a table held, released and held again while one signal was on its way), and
// 7,836 of their 25,031 signals were holds alone, each a task at the table and one at the
// section for its completion.
func (s *TournamentState) hold(now time.Time) {
	if s.Pace >= PacePacedHoldsNone && s.Spec.Simulation && s.Spec.Pace > 0 {
		return
	}
	var open []floor.Table
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || t.Breaking {
			continue
		}
		ft := floor.Table{ID: t.ID, Seats: make([]floor.PlayerID, len(t.Seats))}
		for k, p := range t.Seats {
			ft.Seats[k] = floor.PlayerID(p)
		}
		open = append(open, ft)
	}
	held := floor.TablesToHold(open)
	if s.planWhileMoving(now) && s.MovesPending() {
		// Short against the tables no move touches (those the floor plans now, planWhileMoving):
		// the fullest table may be one whose players are told to leave and whose reports are slow,
		// and the tables short of it would wait for it, not for players on their way.
		most := 0
		for _, ft := range open {
			if t := s.Table(ft.ID); !s.inMotion(t) {
				most = max(most, ft.Players())
			}
		}
		held = held[:0]
		for _, ft := range open {
			if n := ft.Players(); n > 0 && n <= most-floor.HoldShortBy {
				held = append(held, ft.ID)
			}
		}
	}
	lazy := s.Pace >= PaceLazyHold
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing {
			continue
		}
		want := slices.Contains(held, t.ID)
		if lazy && t.Replies && want && !t.Held && t.ID != s.Answering {
			t.HoldOwed = true // told with the answer to its next events
			continue
		}
		t.HoldOwed = false
		if want != t.Held {
			t.Held = want
			s.order(t.ID, Order{Hold: &want})
		}
	}
}

// Finish ends the tournament (R5): the last player wins, every table closes.
func (s *TournamentState) Finish(now time.Time) {
	s.Finished, s.Ended = true, now
	if s.Spec.Simulation && s.Section == nil {
		// A simulation's clock stops at the last table's hands, not at the median of whichever
		// tables were open when the tournament last looked (which depends on the scheduling).
		for _, t := range s.Tables {
			s.SimHands = max(s.SimHands, t.Hands)
		}
	}
	for i := range s.Tables {
		t := &s.Tables[i]
		if !t.Closed && !t.Closing {
			s.order(t.ID, Order{Close: &CloseTableOrder{}})
			t.Closing = true
		}
	}
}

// ClockAt is the published schedule's state at now (B3, R2). In a simulation the clock is the
// hands dealt: the median of the open tables' counts, HandTime each, pauses excepted.
func (s *TournamentState) ClockAt(now time.Time) (floor.ClockState, error) {
	if s.Spec.Simulation {
		// Read only: queries and update validators call this, and neither is replayed. Tick keeps
		// SimHands.
		at := s.Started.Add(time.Duration(s.simHands()) * s.Spec.HandTime)
		cs, err := floor.Clock(s.clock(), s.Started, nil, at)
		cs.Paused = s.Paused
		return cs, err
	}
	return floor.Clock(s.Spec.Structure, s.Started, s.ClockEvents, now)
}

// simHands is a simulation's clock now: the median of the tables' hands, never going back
// (tables closing move the median). Paused, the clock counts the hands dealt before the pause:
// the tables tell them as their hands end (Stopping); once every open table has, it stands there
// (Stood) until the resume, as a live clock does, whatever changes the median meanwhile (a table
// broken while paused).
func (s *TournamentState) simHands() int64 {
	if s.Paused && s.Stood {
		return s.SimHands
	}
	return max(s.SimHands, s.medianHands())
}

// Stopping reports whether a simulation's clock is paused and a table has not yet told the
// hands it stopped at: the level may still move on (simHands).
func (s *TournamentState) Stopping() bool {
	if !s.Spec.Simulation || !s.Paused || s.Stood {
		return false
	}
	for _, t := range s.Tables {
		if !t.Closed && !t.Closing && t.Acked < t.PauseSeq {
			return true
		}
	}
	return false
}

// medianHands is the median of the hands dealt at the open tables, as they last told.
func (s *TournamentState) medianHands() int64 {
	var hands []int64
	for _, t := range s.Tables {
		if !t.Closed && !t.Closing {
			hands = append(hands, t.Hands)
		}
	}
	if len(hands) == 0 {
		return 0
	}
	slices.Sort(hands)
	return hands[len(hands)/2]
}

// Tick tells the tables the period the clock is in, if it changed (B3: a new level applies from
// the next hand at every table; a break starts at each table when its hand ends).
func (s *TournamentState) Tick(now time.Time) {
	if s.Finished {
		return
	}
	if s.Spec.Simulation {
		s.SimHands = s.simHands()
		s.Stood = s.Paused && !s.Stopping()
	}
	if s.Section != nil {
		return // the tournament keeps the clock and tells the section
	}
	cs, err := s.ClockAt(now)
	if err != nil {
		s.ChipErrors = append(s.ChipErrors, "clock: "+err.Error())
		return
	}
	if cs.Period == s.Period {
		return
	}
	colorUps := s.colorUps(s.Period, cs.Period)
	s.Period, s.OnBreak = cs.Period, cs.OnBreak
	l := engineLevel(cs.Blinds)
	s.LevelLog = append(s.LevelLog, LevelChange{Period: cs.Period, Number: cs.Level, Level: l, OnBreak: cs.OnBreak, At: now, Hands: s.SimHands})
	if !s.Spec.Simulation {
		// A simulation's tables keep the schedule by their own hands (TableState.Schedule).
		s.broadcast(Order{Level: &LevelOrder{Number: cs.Level, Level: l, OnBreak: cs.OnBreak}})
	}
	for _, c := range colorUps {
		for _, t := range s.Tables {
			if !t.Closed && !t.Closing {
				o := c
				o.Seed = mix(s.Seed, 1<<42+uint64(o.Removed)<<20+uint64(t.ID))
				s.order(t.ID, Order{ColorUp: &o})
			}
		}
	}
}

// colorUps are the chip races of the periods after from up to to (a worker that was down may skip
// periods: their colour-ups still happen), in order (R8). Only live tables race: online ones keep
// integer chip counts.
func (s *TournamentState) colorUps(from, to int) []ColorUpOrder {
	if !s.Spec.Live || s.Spec.Simulation {
		return nil
	}
	st := s.Spec.Structure
	chips := slices.Clone(st.Chips)
	var out []ColorUpOrder
	for i := 0; i <= to && i < len(st.Levels); i++ {
		for _, d := range st.Levels[i].ColorUp {
			if len(chips) < 2 || chips[0] != d {
				continue // Structure.Validate refuses such a schedule
			}
			chips = chips[1:]
			if i > from {
				out = append(out, ColorUpOrder{Removed: d, Next: chips[0]})
			}
		}
	}
	return out
}

// Level is the number of the level being played.
func (s *TournamentState) Level(now time.Time) int {
	if s.Section != nil {
		return s.levelNumber() // the tournament keeps the clock and tells the section its period
	}
	cs, err := s.ClockAt(now)
	if err != nil {
		return 0
	}
	return cs.Level
}

// Redacted is the state as the State query shows it: without the seed and the draw counter,
// which predict every later draw (seats, buttons, a simulation's decks).
func (s *TournamentState) Redacted() *TournamentState {
	c := *s
	c.Seed, c.Draws, c.Spec.Seed = 0, 0, 0
	c.Trace = nil
	return &c
}

// Standings are the places so far (R5, R7).
func (s *TournamentState) Standings() (floor.Result, error) {
	return floor.Places(s.Field, s.Busts)
}
