package engine

import (
	"math/bits"

	"github.com/pokerfloor/pokerfloor/eval"
)

type seat struct {
	id       string
	stack    int64
	state    PlayerState
	occupied bool
}

// Table is one table of a tournament: its seats, the button, the level and the hand in progress.
// It is not safe for concurrent use; one goroutine (the table's) drives it.
type Table struct {
	cfg   Config
	deck  DeckSource
	seats [MaxSeats]seat
	n     int8

	level        Level
	pendingLevel Level
	levelPending bool

	handNumber int64 // of the last completed hand

	// Positions of the last completed hand (B4, B5), or the drawn button before the first (T3).
	button, sbSeat, bbSeat int8
	played                 bool // positions above come from a completed hand
	holdButton             bool // ButtonSeed000: the button stays for the next hand
	nextHold               bool
	cands                  uint16 // the candidates for the hand being dealt

	h   hand
	log []Event

	// Kept beside the hand rather than in it, so that dealing a hand clears only what it uses.
	decl      [MaxSeats]declaration // declarations out of turn of the hand in progress (A14)
	declDirty bool                  // decl may hold a declaration
	live      liveDeal              // a live table's dealing procedures in the hand in progress (L)
}

// NewTable returns an empty table. deck may be nil for the production source (crypto/rand).
func NewTable(cfg Config, level Level, deck DeckSource) (*Table, error) {
	if cfg.Seats < 2 || cfg.Seats > MaxSeats {
		return nil, ErrBadConfig{Reason: "a table has 2 to 10 seats (rule T1)"}
	}
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	if deck == nil {
		deck = &CryptoDeck{}
	}
	if cfg.Clock == (ClockPolicy{}) {
		cfg.Clock = DefaultClock
	}
	t := &Table{cfg: cfg, deck: deck, n: int8(cfg.Seats), level: level, button: -1, sbSeat: -1, bbSeat: -1}
	t.h.toAct = -1
	t.log = make([]Event, 0, 64)
	return t, nil
}

func checkLevel(l Level) error {
	if l.BigBlind <= 0 || l.SmallBlind < 0 || l.Ante < 0 || l.SmallBlind > l.BigBlind {
		return ErrBadConfig{Reason: "a level needs a big blind above zero, a small blind no larger and a non-negative ante"}
	}
	return nil
}

// Config returns the table's configuration.
func (t *Table) Config() Config { return t.cfg }

// Level returns the level of the hand in progress, or of the next hand between hands.
func (t *Table) Level() Level {
	if t.levelPending && t.h.phase != Betting {
		return t.pendingLevel
	}
	if t.h.phase == Betting {
		return t.h.level
	}
	return t.level
}

// SetLevel sets the level for the next hand: a new level never applies to a hand in progress
// (rule B3).
func (t *Table) SetLevel(l Level) error {
	if err := checkLevel(l); err != nil {
		return err
	}
	t.pendingLevel, t.levelPending = l, true
	return nil
}

// Phase returns where the table is in its hand cycle.
func (t *Table) Phase() Phase { return t.h.phase }

// HandNumber returns the number of the hand in progress, or of the last completed hand between hands.
func (t *Table) HandNumber() int64 {
	if t.h.phase == Betting {
		return t.h.number
	}
	return t.handNumber
}

// SetHandNumber sets the number of the last completed hand (when a table is restored).
func (t *Table) SetHandNumber(n int64) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "B3"}
	}
	t.handNumber = n
	return nil
}

func (t *Table) validSeat(s int) bool { return s >= 0 && s < int(t.n) }

// Sit seats a player (rules T2, B7). A player who joins a table in progress should come in as
// WaitingForButton; the engine deals him in as soon as his seat is not between the button and the
// small blind.
func (t *Table) Sit(s int, id string, stack int64, state PlayerState) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "B7"}
	}
	if !t.validSeat(s) {
		return ErrBadSeat{Seat: s, Reason: "no such seat"}
	}
	if t.seats[s].occupied {
		return ErrBadSeat{Seat: s, Reason: "the seat is taken"}
	}
	if stack < 0 || (stack == 0 && state != Eliminated) {
		return ErrBadSeat{Seat: s, Reason: "a seated player needs chips"}
	}
	t.seats[s] = seat{id: id, stack: stack, state: state, occupied: true}
	return nil
}

// Unseat removes the player from a seat (moved, eliminated or disqualified).
func (t *Table) Unseat(s int) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "B8"}
	}
	if !t.validSeat(s) || !t.seats[s].occupied {
		return ErrBadSeat{Seat: s, Reason: "no player there"}
	}
	t.seats[s] = seat{}
	return nil
}

// SetState changes a seated player's state between hands: sitting out (T4, T5), back to active,
// penalised (P3).
func (t *Table) SetState(s int, state PlayerState) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "P5"}
	}
	if !t.validSeat(s) || !t.seats[s].occupied {
		return ErrBadSeat{Seat: s, Reason: "no player there"}
	}
	t.seats[s].state = state
	return nil
}

// SetStack changes a player's chips between hands (a rebuy, a restore).
func (t *Table) SetStack(s int, stack int64) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "R1"}
	}
	if !t.validSeat(s) || !t.seats[s].occupied || stack < 0 {
		return ErrBadSeat{Seat: s, Reason: "no player there, or a negative stack"}
	}
	t.seats[s].stack = stack
	return nil
}

// SetButton places the button before the first hand (rule T3, drawn by the caller). The first hand
// is dealt with the button there; later hands move it by B4–B6.
func (t *Table) SetButton(s int) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "T3"}
	}
	if !t.validSeat(s) {
		return ErrBadSeat{Seat: s, Reason: "no such seat"}
	}
	t.button, t.played, t.holdButton = int8(s), false, false
	return nil
}

// Button returns the button's seat (of the hand in progress, or the last hand), -1 before any.
func (t *Table) Button() int {
	if t.h.phase != NoHand {
		return int(t.h.button)
	}
	return int(t.button)
}

// Player describes a seat.
type Player struct {
	Seat     int
	ID       string
	Stack    int64
	State    PlayerState
	Occupied bool
}

// Player returns the player in seat s.
func (t *Table) Player(s int) Player {
	if !t.validSeat(s) {
		return Player{Seat: s}
	}
	p := t.seats[s]
	return Player{Seat: s, ID: p.id, Stack: p.stack, State: p.state, Occupied: p.occupied}
}

// Stack returns the chips in front of seat s (not counting its bets in the hand in progress).
func (t *Table) Stack(s int) int64 {
	if !t.validSeat(s) {
		return 0
	}
	return t.seats[s].stack
}

// TotalChips is every chip at the table: stacks plus everything in the pot of the hand in progress.
// It never changes during a hand (chip conservation).
func (t *Table) TotalChips() int64 {
	var sum int64
	for i := int8(0); i < t.n; i++ {
		sum += t.seats[i].stack
	}
	if t.h.phase == Betting {
		sum += t.h.potTotal()
	}
	return sum
}

// Log returns the events of the current (or last) hand. The slice is reused by the next hand: copy
// it to keep it.
func (t *Table) Log() []Event { return t.log }

// ev appends an event of kind for seat, in the current round, with its amounts, and returns it for
// the other fields to be set in place. Writing events in place rather than copying a built one is
// what keeps the log cheap in the hot path.
func (t *Table) ev(kind EventKind, seat int8, amount, to int64) *Event {
	n := len(t.log)
	if n == cap(t.log) {
		t.log = append(t.log, Event{})
	} else {
		t.log = t.log[:n+1]
		t.log[n] = Event{}
	}
	e := &t.log[n]
	e.Kind, e.Seat, e.Round, e.Amount, e.To = kind, seat, t.h.round, amount, to
	return e
}

// next returns the seat after s, clockwise.
func (t *Table) next(s int8) int8 {
	s++
	if s == t.n {
		return 0
	}
	return s
}

// candidate reports whether seat s holds a player who takes part in the positions of the next hand.
func (t *Table) candidate(s int8) bool {
	p := &t.seats[s]
	return p.occupied && p.state != Eliminated && p.stack > 0
}

// nextCandidate returns the first candidate after s, clockwise, or -1 (from t.cands, the mask
// positions computes once a hand).
func (t *Table) nextCandidate(s int8) int8 {
	m := t.cands
	if m == 0 {
		return -1
	}
	after := m >> uint(s+1) << uint(s+1)
	if after == 0 {
		after = m
	}
	return int8(bits.TrailingZeros16(after))
}

// candidateMask returns the seats that hold candidates, one bit each.
func (t *Table) candidateMask() uint16 {
	var m uint16
	for s := int8(0); s < t.n; s++ {
		if t.candidate(s) {
			m |= 1 << uint(s)
		}
	}
	return m
}

// between reports whether x lies strictly after a and strictly before b, clockwise.
func (t *Table) between(a, x, b int8) bool {
	d := func(from, to int8) int8 { return (to - from + t.n) % t.n }
	return x != a && d(a, x) < d(a, b) && x != b
}

// positions computes the button and blinds of the next hand by rules B4, B5 and B6.
func (t *Table) positions() (button, sb, bb int8, sbLive bool, err error) {
	t.cands = t.candidateMask()
	count := bits.OnesCount16(t.cands)
	if count < 2 {
		return 0, 0, 0, false, ErrTooFewPlayers{Players: count}
	}
	if t.button < 0 {
		return 0, 0, 0, false, ErrBadConfig{Reason: "the button was never placed (rule T3: SetButton before the first hand)"}
	}
	switch {
	case !t.played && count == 2: // first hand, heads-up: the button posts the small blind (B6)
		button = t.button
		if !t.candidate(button) {
			button = t.nextCandidate(button)
		}
		return button, button, t.nextCandidate(button), true, nil
	case !t.played:
		sb = t.nextCandidate(t.button)
		return t.button, sb, t.nextCandidate(sb), true, nil
	case count == 2: // heads-up: the big blind moves on, so nobody posts it twice in a row (B6)
		bb = t.nextCandidate(t.bbSeat)
		button = t.nextCandidate(bb)
		return button, button, bb, true, nil
	case t.cfg.ButtonRule == ButtonSeed000:
		return t.positionsSeed000()
	}
	// Dead button (B5 default): the big blind advances; the small blind and button follow it.
	bb = t.nextCandidate(t.bbSeat)
	sb = t.bbSeat
	button = t.sbSeat
	if !t.between(bb, button, sb) {
		// The seats moved under the blinds (players joined between them): the button sits just before
		// the small blind.
		for s := sb; ; {
			s = (s - 1 + t.n) % t.n
			if t.candidate(s) && s != bb {
				button = s
				break
			}
		}
	}
	return button, sb, bb, t.candidate(sb), nil
}

// positionsSeed000 moves the button by the rule book 000 (policy ButtonSeed000).
func (t *Table) positionsSeed000() (button, sb, bb int8, sbLive bool, err error) {
	sbGone := !t.candidate(t.sbSeat)
	bbGone := !t.candidate(t.bbSeat)
	stay := func() (int8, int8, int8, bool, error) {
		sb := t.nextCandidate(t.button)
		return t.button, sb, t.nextCandidate(sb), true, nil
	}
	switch {
	case t.holdButton || (sbGone && !bbGone) || (sbGone && bbGone):
		return stay()
	case bbGone:
		// The button moves, the hand has no small blind, the big blind is the next player; the next
		// hand the button stays.
		t.nextHold = true
		button = t.nextCandidate(t.button)
		return button, t.bbSeat, t.nextCandidate(t.bbSeat), false, nil
	}
	button = t.nextCandidate(t.button)
	sb = t.nextCandidate(button)
	return button, sb, t.nextCandidate(sb), true, nil
}

// hand is the state of the hand in progress. Everything is in fixed-size arrays indexed by seat, so
// a hand allocates nothing.
type hand struct {
	phase  Phase
	round  Round
	number int64
	level  Level

	button, sb, bb int8
	sbLive         bool
	holdNext       bool

	dealt      [MaxSeats]bool
	nDealt     int8
	startStack [MaxSeats]int64
	startState [MaxSeats]PlayerState

	folded   [MaxSeats]bool
	allIn    [MaxSeats]bool
	acted    [MaxSeats]bool
	actedTo  [MaxSeats]int64
	bet      [MaxSeats]int64 // in the current round
	put      [MaxSeats]int64 // live chips put in the pot this hand, current round included
	deadAnte [MaxSeats]int64 // antes that are dead money (AnteBigBlind)
	dead     int64

	hole   [MaxSeats][2]eval.Card
	shown  [MaxSeats]bool
	board  [5]eval.Card
	nBoard int8
	used   eval.CardSet

	currentBet    int64 // the bet to match in this round
	lastFullRaise int64 // the size of the last full bet or raise in this round (rule A5)
	toAct         int8
	aggressor     int8   // the last player to bet or raise in this round
	showFirst     int8   // where the showdown starts (rule S5)
	allShown      bool   // hands went face up when betting closed with an all-in (rule S4)
	runout        bool   // betting is over for the hand: the board is dealt to the showdown
	inHand        int8   // dealt in and not folded
	canAct        int8   // in hand and not all-in
	in, act       uint16 // the same as seat masks
	settled       uint16 // acted in this round and matched the bet since (A2)
	killAtTurn    uint16 // absent players whose hand is killed when the turn reaches them (T4, T5, P3)
	dealtM        uint16
	startOcc      uint16 // seats occupied when the hand started
	seq           int32

	advance  [MaxSeats]advance
	nAdvance int8

	order [MaxSeats]int8 // the seats dealt in, in dealing order from the small blind (D2)
	await Awaiting       // a live table waits for the dealer's cards

	nDeclared int8   // live declarations out of turn pending in Table.decl (A14)
	calledOOT uint16 // called out of turn and freed: no raise in this round (A14, seed 000)
	result    handResult
}

func (h *hand) potTotal() int64 {
	sum := h.dead
	for i := range h.put {
		sum += h.put[i]
	}
	return sum
}

// StartHand deals the next hand: who is dealt in (B7, T4, T5, P3), the button and blinds (B4–B6),
// antes and blinds (B1, B2, A9; a short stack posts all-in), two hole cards each from the small blind
// (D2). It returns the first event. The hand then waits for the first player to act, or ends at once
// if nobody can.
func (t *Table) StartHand() error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "B3"}
	}
	t.nextHold = false
	button, sb, bb, sbLive, err := t.positions()
	if err != nil {
		return err
	}
	return t.deal(button, sb, bb, sbLive)
}

// StartHandAt deals the next hand with the button and blinds given rather than moved by B4–B6: for
// replays of hand histories and for restoring a table. sb is -1 for a hand without a small blind.
func (t *Table) StartHandAt(button, sb, bb int) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "B3"}
	}
	if !t.validSeat(button) || !t.validSeat(bb) || !t.candidate(int8(bb)) || sb >= 0 && (!t.validSeat(sb) || !t.candidate(int8(sb))) {
		return ErrBadConfig{Reason: "the button and blinds must be seats, the blinds seats of players with chips"}
	}
	sbLive := sb >= 0
	if !sbLive {
		sb = button
	}
	t.cands = t.candidateMask()
	t.nextHold = false
	return t.deal(int8(button), int8(sb), int8(bb), sbLive)
}

// deal starts a hand with the positions decided.
func (t *Table) deal(button, sb, bb int8, sbLive bool) error {
	if t.levelPending {
		t.level, t.levelPending = t.pendingLevel, false
	}
	h := &t.h
	*h = hand{}
	if t.declDirty {
		t.decl, t.declDirty = [MaxSeats]declaration{}, false
	}
	h.phase = Betting
	h.number = t.handNumber + 1
	h.level = t.level
	h.button, h.sb, h.bb, h.sbLive = button, sb, bb, sbLive
	h.holdNext = t.nextHold
	h.toAct, h.aggressor, h.showFirst = -1, -1, -1
	t.log = t.log[:0]

	// Who is dealt in: every candidate but a newcomer between the button and the small blind (B7).
	gapEnd := sb
	if !sbLive {
		gapEnd = bb
	}
	for s := int8(0); s < t.n; s++ {
		h.startState[s] = t.seats[s].state
		h.startStack[s] = t.seats[s].stack
		if t.seats[s].occupied {
			h.startOcc |= 1 << uint(s)
		}
		if t.cands>>uint(s)&1 == 0 {
			continue
		}
		if t.seats[s].state == WaitingForButton {
			if t.between(button, s, gapEnd) {
				continue
			}
			t.seats[s].state = Active
		}
		h.dealt[s] = true
		h.in |= 1 << uint(s)
		h.nDealt++
	}
	h.inHand, h.canAct = h.nDealt, h.nDealt
	h.act, h.dealtM = h.in, h.in
	if h.nDealt == 2 && button != sb {
		// A newcomer was left out and two remain: play it heads-up (B6).
		for s := int8(0); s < t.n; s++ {
			if h.dealt[s] && s != bb {
				h.button, h.sb, h.sbLive = s, s, true
			}
		}
		if !h.dealt[bb] {
			h.bb = t.nextDealt(h.sb)
		}
	}

	t.ev(EvHandStart, h.button, h.number, 0)

	// Forced bets: antes then blinds (B2 everyone), or the big blind then its ante (B2 bigBlind).
	lv := h.level
	if lv.Ante > 0 && t.cfg.AnteMode == AnteEveryone {
		s := h.button
		for k := int8(0); k < t.n; k++ {
			if s = t.next(s); h.dealt[s] {
				amt := t.pay(s, lv.Ante)
				t.ev(EvAnte, s, amt, 0).AllIn = h.allIn[s]
			}
		}
		// Antes are not bets of the round.
		for s := range h.bet {
			h.bet[s] = 0
		}
	}
	if h.sbLive && h.dealt[h.sb] {
		amt := t.pay(h.sb, lv.SmallBlind)
		t.ev(EvSmallBlind, h.sb, amt, h.bet[h.sb]).AllIn = h.allIn[h.sb]
	}
	amt := t.pay(h.bb, lv.BigBlind)
	t.ev(EvBigBlind, h.bb, amt, h.bet[h.bb]).AllIn = h.allIn[h.bb]
	if lv.Ante > 0 && t.cfg.AnteMode == AnteBigBlind && !h.allIn[h.bb] {
		a := lv.Ante
		if a > t.seats[h.bb].stack {
			a = t.seats[h.bb].stack
		}
		t.seats[h.bb].stack -= a
		h.deadAnte[h.bb] = a
		h.dead += a
		if t.seats[h.bb].stack == 0 {
			h.allIn[h.bb] = true
			h.canAct--
			h.act &^= 1 << uint(h.bb)
		}
		t.ev(EvAnte, h.bb, a, 0).AllIn = h.allIn[h.bb]
	}
	// Every player who enters the pot puts in the full big blind, even over a short big blind (A9).
	h.currentBet = lv.BigBlind
	h.lastFullRaise = lv.BigBlind

	// Two hole cards each, one at a time, from the small blind (D2).
	first := h.sb
	if !h.sbLive || !h.dealt[first] {
		first = t.nextDealt(h.button)
	}
	s := first
	for k := int8(0); k < h.nDealt; k++ {
		h.order[k] = s
		s = t.nextDealt(s)
	}
	if t.cfg.Live {
		// A live dealer deals from a physical deck and reports each card (ReportHole).
		h.await = AwaitHoleCards
		t.live = liveDeal{exposedAt: -1}
		return nil
	}
	t.deck.Shuffle()
	var buf [2 * MaxSeats]eval.Card
	if !t.drawInto(buf[:2*h.nDealt]) {
		return nil
	}
	for k, s := range h.order[:h.nDealt] {
		h.hole[s] = [2]eval.Card{buf[k], buf[int(h.nDealt)+k]}
	}
	t.holesDealt()
	return nil
}

// holesDealt logs the hole cards, kills the absent players' hands and starts the betting.
func (t *Table) holesDealt() {
	h := &t.h
	absent := false
	for _, s := range h.order[:h.nDealt] {
		e := t.ev(EvHole, s, 0, 0)
		e.N, e.Cards[0], e.Cards[1] = 2, h.hole[s][0], h.hole[s][1]
		absent = absent || t.seats[s].state.absent()
	}
	// Absent players' hands are killed (T4, T5, P3): folded when the turn first reaches them, as a
	// hand history writes it, or at once when they are all-in on their forced bets and have no turn;
	// while someone is left to win the pot.
	if absent {
		for _, s := range h.order[:h.nDealt] {
			switch {
			case !t.seats[s].state.absent():
			case !h.allIn[s]:
				h.killAtTurn |= 1 << uint(s)
			case h.inHand > 1:
				t.foldSeat(s)
				t.ev(EvKill, s, 0, 0)
			}
		}
	}
	t.openRound()
	t.advanceTurn(h.bb)
}

// nextDealt returns the first seat dealt in after s, clockwise.
func (t *Table) nextDealt(s int8) int8 {
	m := t.h.dealtM
	after := m >> uint(s+1) << uint(s+1)
	if after == 0 {
		after = m
	}
	if after == 0 {
		return -1
	}
	return int8(bits.TrailingZeros16(after))
}

// drawInto takes the next len(dst) cards from the deck; an irregular card voids the hand (D4).
func (t *Table) drawInto(dst []eval.Card) bool {
	if sd, ok := t.deck.(*SeededDeck); ok { // the simulations' source: regular by construction
		if sd.drawInto(dst) {
			return true // no duplicate check: the seeded deck deals each card once by construction
		}
		t.void()
		return false
	}
	for i := range dst {
		c, ok := t.draw()
		if !ok {
			return false
		}
		dst[i] = c
	}
	return true
}

// draw takes the next card from the deck; an irregular card voids the hand (D4).
func (t *Table) draw() (eval.Card, bool) {
	c := t.deck.Draw()
	if !c.Valid() || t.h.used.Has(c) {
		t.void()
		return 0, false
	}
	t.h.used = t.h.used.Add(c)
	return c, true
}

// pay moves up to amount from seat s's stack into its bet; a short stack goes all-in.
func (t *Table) pay(s int8, amount int64) int64 {
	h := &t.h
	st := &t.seats[s].stack
	if amount >= *st {
		amount = *st
		if !h.allIn[s] {
			h.allIn[s] = true
			h.canAct--
			h.act &^= 1 << uint(s)
		}
	}
	*st -= amount
	h.bet[s] += amount
	h.put[s] += amount
	return amount
}

func (t *Table) foldSeat(s int8) {
	h := &t.h
	h.folded[s] = true
	h.inHand--
	h.in &^= 1 << uint(s)
	h.act &^= 1 << uint(s)
	if !h.allIn[s] {
		h.canAct--
	}
}

// Reset empties the table for a new configuration and level, keeping its deck source and buffers:
// a simulation or a replay reuses one Table for many tables without allocating.
func (t *Table) Reset(cfg Config, level Level) error {
	if cfg.Seats < 2 || cfg.Seats > MaxSeats {
		return ErrBadConfig{Reason: "a table has 2 to 10 seats (rule T1)"}
	}
	if err := checkLevel(level); err != nil {
		return err
	}
	if cfg.Clock == (ClockPolicy{}) {
		cfg.Clock = DefaultClock
	}
	log := t.log[:0]
	deck := t.deck
	*t = Table{cfg: cfg, deck: deck, n: int8(cfg.Seats), level: level, button: -1, sbSeat: -1, bbSeat: -1, log: log}
	t.h.toAct = -1
	return nil
}

// SetDeck changes the deck source from the next hand on.
func (t *Table) SetDeck(d DeckSource) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "D1"}
	}
	t.deck = d
	return nil
}

// Header is what a hand's log needs besides its events to be replayed: the table's configuration
// and level, and who sat where with what (Player events carry the stacks of those dealt in).
type Header struct {
	Config               Config
	Level                Level
	Number               int64
	Button               int
	SmallBlind, BigBlind int              // SmallBlind -1 when dead
	Seats                [MaxSeats]Player // as they were when the hand started
}

// Header returns the header of the hand in progress or last played. The players' IDs are those
// seated now: take it before seating others.
func (t *Table) Header() Header {
	h := &t.h
	hd := Header{Config: t.cfg, Level: h.level, Number: h.number, Button: int(h.button), SmallBlind: -1, BigBlind: int(h.bb)}
	if h.sbLive {
		hd.SmallBlind = int(h.sb)
	}
	for s := 0; s < int(t.n); s++ {
		hd.Seats[s] = Player{Seat: s, ID: t.seats[s].id, Stack: h.startStack[s], State: h.startState[s], Occupied: h.startOcc>>uint(s)&1 != 0}
	}
	return hd
}

// Dealt reports whether seat s was dealt in the hand in progress or last played.
func (t *Table) Dealt(s int) bool { return t.validSeat(s) && t.h.dealt[s] }

// HoleCards returns seat s's hole cards in the hand in progress or last played. It is for the full
// view and the hand history only: players see cards through View.
func (t *Table) HoleCards(s int) [2]eval.Card {
	if !t.validSeat(s) || !t.h.dealt[s] {
		return [2]eval.Card{}
	}
	return t.h.hole[s]
}
