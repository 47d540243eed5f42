package engine

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/eval"
)

// A live table (Config.Live) is dealt from a physical deck by a human dealer, who reports every card
// from a tablet as it is dealt: the hole cards one at a time in dealing order (ReportHole), then the
// burn and cards of each street (ReportBoard). The engine checks the deck as it is reported and
// applies the misdeal procedures of RULES.md group L (seed 000, "Errori di distribuzione" and
// "Irregolarità"): each either voids the hand (D4, every chip back) or goes on exactly as the rule
// says, and is logged as an EvLive event naming its procedure.

// Awaiting says what a hand in progress waits for besides a player's action.
type Awaiting uint8

const (
	AwaitNothing   Awaiting = iota // a player is to act, or the hand is not in progress
	AwaitHoleCards                 // a live dealer is dealing the hole cards (ReportHole)
	AwaitBoard                     // a live dealer is to deal the next street (ReportBoard)
)

var awaitingNames = [...]string{"nothing", "the hole cards", "the board"}

func (a Awaiting) String() string {
	if int(a) < len(awaitingNames) {
		return awaitingNames[a]
	}
	return fmt.Sprintf("Awaiting(%d)", uint8(a))
}

// Awaiting returns what the hand waits for from a live dealer.
func (t *Table) Awaiting() Awaiting {
	if t.h.phase != Betting {
		return AwaitNothing
	}
	return t.h.await
}

// Procedure is a live dealing procedure of RULES.md group L, as logged in an EvLive event.
type Procedure uint8

const (
	ProcIrregularDeck   Procedure = iota + 1 // L1: a card twice, of another back, or missing: void
	ProcExposedMisdeal                       // L2: the first or second hole card, or a second card, exposed: void
	ProcExposedCard                          // L2: another hole card exposed: dealt on, replaced after the deal
	ProcExposedReplaced                      // L2, L7: the exposed card replaced (Cards[0] the new card, full view only)
	ProcExtraCard                            // L3: one extra card to the first player: the first burn card
	ProcExtraMisdeal                         // L3: more than one extra card: void
	ProcFlopRedealt                          // L4: too many flop cards: back into the stub, the flop again without a burn
	ProcBurnRestored                         // L5: a missing or double burn before the flop is exposed: corrected
	ProcBurnReshuffled                       // L5: the same found with the flop exposed, before anyone acted: the flop again
	ProcBurnGoesOn                           // L5: the same found after two players acted on the flop: the hand goes on
	ProcEarlyCard                            // L6: a turn or river dealt before its betting round ended: set aside
	ProcFaceUpInDeck                         // L7: a card face up in the deck: not used, the next card replaces it
	ProcPassedCards                          // L8: cards passed to another player: a dead hand
)

var procedureRules = [...]string{"", "L1", "L2", "L2", "L2", "L3", "L3", "L4", "L5", "L5", "L5", "L6", "L7", "L8"}

var procedureNames = [...]string{"", "irregular deck, hand void", "exposed card, misdeal",
	"exposed card, dealt on", "exposed card replaced", "extra card, the first burn card",
	"extra cards, misdeal", "flop redealt", "burn restored", "flop reshuffled", "burn error, hand goes on",
	"card dealt early, set aside", "card face up in the deck, not used", "cards passed, dead hand"}

// Rule returns the rule of RULES.md the procedure applies.
func (p Procedure) Rule() string {
	if int(p) < len(procedureRules) {
		return procedureRules[p]
	}
	return "L"
}

func (p Procedure) String() string {
	if int(p) < len(procedureNames) && p != 0 {
		return procedureNames[p] + " (rule " + p.Rule() + ")"
	}
	return fmt.Sprintf("Procedure(%d)", uint8(p))
}

// LiveCard is a card as the dealer reports it.
type LiveCard struct {
	Card      eval.Card
	FaceUp    bool // exposed as it was dealt (L2), or dealt face up under L7's exception (FromDeck)
	FromDeck  bool // with FaceUp: the card was face up in the deck, dealt because the next card was another player's (L7)
	OtherBack bool // a card with a back of another colour (L1)
}

// LiveBoard is a street as the dealer reports it: the cards burned before it and the cards turned.
type LiveBoard struct {
	Burns []eval.Card
	Cards []eval.Card
}

// liveDeal is the state of a live deal: the hole cards reported so far, the exposed cards waiting
// for their replacement, the burn already taken for the flop, and the board procedures under way.
type liveDeal struct {
	n         int8      // hole cards reported in the regular deal
	exposures int8      // hole cards exposed by the dealer's error (L2)
	pending   [2]int8   // deal positions of exposed cards to replace after the deal (L2, L7)
	nPending  int8      // how many
	exposedAt int8      // deal position of the dealer's exposed card, -1 for none
	firstBurn eval.Card // the flop's burn already on the table (L2, L3)
	burnTaken bool      // firstBurn is set
	noBurn    bool      // the next street is turned without a burn (L4, L5, L6)
	extras    int8      // extra hole cards (L3)
	setAside  eval.Card // a turn dealt early, shuffled back before the river (L6)
	hasAside  bool      // setAside is set
	mustFirst eval.Card // L5 double burn: the card burned second is the flop's first
	hasFirst  bool      // mustFirst is set
}

// ErrNotLive: the operation is a live dealer's, and the table is dealt by a DeckSource (or the hand
// does not wait for it now).
type ErrNotLive struct {
	Want, Awaiting Awaiting
	Rule           string
}

func (e ErrNotLive) Error() string {
	return fmt.Sprintf("the hand waits for %v, not %v (rule %s)", e.Awaiting, e.Want, e.Rule)
}

// ErrAwaitingDealer: nobody may act while a live dealer is dealing.
type ErrAwaitingDealer struct {
	Awaiting Awaiting
	Rule     string
}

func (e ErrAwaitingDealer) Error() string {
	return fmt.Sprintf("the dealer is dealing %v: nobody acts until it is dealt (rule %s)", e.Awaiting, e.Rule)
}

// ErrLiveCard: the dealer's report does not fit what is being dealt.
type ErrLiveCard struct {
	Reason string
	Rule   string
}

func (e ErrLiveCard) Error() string { return fmt.Sprintf("%s (rule %s)", e.Reason, e.Rule) }

func (t *Table) liveEvent(p Procedure, seat int8, cards ...eval.Card) *Event {
	e := t.ev(EvLive, seat, 0, 0)
	e.Proc = p
	e.N = uint8(copy(e.Cards[:], cards))
	return e
}

// liveVoid voids the hand by procedure p (L1, L2, L3).
func (t *Table) liveVoid(p Procedure, cards ...eval.Card) {
	t.liveEvent(p, 0, cards...)
	t.void()
}

// irregular reports whether c cannot be dealt now: not one of the 52, or already in the hand.
func (t *Table) irregular(c eval.Card) bool { return !c.Valid() || t.h.used.Has(c) }

// VerifyReportHole says why the dealer cannot report a hole card now, or nil.
func (t *Table) VerifyReportHole(c LiveCard) error {
	h := &t.h
	if !t.cfg.Live || h.phase != Betting || h.await != AwaitHoleCards {
		return ErrNotLive{Want: AwaitHoleCards, Awaiting: t.Awaiting(), Rule: "D2"}
	}
	if !c.Card.Valid() && !c.OtherBack {
		return ErrLiveCard{Reason: fmt.Sprintf("card %d is not one of the 52", c.Card), Rule: "D1"}
	}
	return nil
}

// CanReportHole reports whether the dealer may report a hole card now.
func (t *Table) CanReportHole(c LiveCard) bool { return t.VerifyReportHole(c) == nil }

// ReportHole takes the next hole card the dealer dealt, in dealing order (D2): the first card of each
// player from the small blind, then the second. A card seen twice or of another back voids the hand
// (L1). An exposed card (L2): the first or second dealt, or a second exposure, is a misdeal (the hand
// void, to be dealt again); any other is dealt on and, after the deal, replaced by the next card
// reported, the exposed card becoming the flop's burn. A card found face up in the deck and dealt
// because the next card was another player's (L7) is replaced the same way and discarded. The last
// card starts the betting.
func (t *Table) ReportHole(c LiveCard) (Event, error) {
	if err := t.VerifyReportHole(c); err != nil {
		return Event{}, err
	}
	h := &t.h
	l := &t.live
	i := len(t.log)
	switch {
	case c.OtherBack:
		t.liveVoid(ProcIrregularDeck, c.Card)
		return t.log[i], nil
	case h.used.Has(c.Card):
		t.liveVoid(ProcIrregularDeck, c.Card)
		return t.log[i], nil
	}
	h.used = h.used.Add(c.Card)
	n := 2 * h.nDealt
	if l.n < n { // the regular deal
		k := l.n
		s := h.order[k%h.nDealt]
		h.hole[s][k/h.nDealt] = c.Card
		l.n++
		if c.FaceUp {
			if !c.FromDeck {
				l.exposures++
				if k < 2 || l.exposures > 1 {
					t.liveVoid(ProcExposedMisdeal, c.Card)
					return t.log[i], nil
				}
				l.exposedAt = k
			}
			if l.nPending == int8(len(l.pending)) {
				t.liveVoid(ProcExposedMisdeal, c.Card)
				return t.log[i], nil
			}
			l.pending[l.nPending] = k
			l.nPending++
			t.liveEvent(ProcExposedCard, s, c.Card)
		}
	} else { // a replacement for an exposed card, after the deal
		k := l.pending[0]
		copy(l.pending[:], l.pending[1:])
		l.nPending--
		s := h.order[k%h.nDealt]
		old := h.hole[s][k/h.nDealt]
		h.hole[s][k/h.nDealt] = c.Card
		if k == l.exposedAt && !l.burnTaken {
			l.firstBurn, l.burnTaken = old, true // the exposed card is the first burn card (L2)
		}
		t.liveEvent(ProcExposedReplaced, s, c.Card)
	}
	if l.n == n && l.nPending == 0 {
		h.await = AwaitNothing
		t.holesDealt()
	}
	if len(t.log) > i {
		return t.log[i], nil
	}
	return Event{}, nil
}

// VerifyReportExtraCard says why an extra hole card cannot be reported now, or nil.
func (t *Table) VerifyReportExtraCard(c eval.Card) error {
	h := &t.h
	if !t.cfg.Live || h.phase != Betting || h.await != AwaitNothing || h.round != Preflop || h.nBoard > 0 {
		return ErrLiveCard{Reason: "an extra hole card is reported after the deal, before the flop", Rule: "L3"}
	}
	for s := range h.acted {
		if h.acted[s] {
			return ErrLiveCard{Reason: "the betting has begun: the floor decides (rule P6)", Rule: "L3"}
		}
	}
	if !c.Valid() {
		return ErrLiveCard{Reason: fmt.Sprintf("card %d is not one of the 52", c), Rule: "D1"}
	}
	return nil
}

// CanReportExtraCard reports whether an extra hole card may be reported now.
func (t *Table) CanReportExtraCard(c eval.Card) bool { return t.VerifyReportExtraCard(c) == nil }

// ReportExtraCard reports a card dealt to the first player after everyone had a starting hand (L3):
// the first goes back to the deck as the flop's burn card; a second is a misdeal (void).
func (t *Table) ReportExtraCard(c eval.Card) (Event, error) {
	if err := t.VerifyReportExtraCard(c); err != nil {
		return Event{}, err
	}
	h := &t.h
	l := &t.live
	i := len(t.log)
	if t.irregular(c) {
		t.liveVoid(ProcIrregularDeck, c)
		return t.log[i], nil
	}
	h.used = h.used.Add(c)
	l.extras++
	if l.extras > 1 || l.burnTaken {
		t.liveVoid(ProcExtraMisdeal, c)
		return t.log[i], nil
	}
	l.firstBurn, l.burnTaken = c, true
	t.liveEvent(ProcExtraCard, h.order[0])
	return t.log[i], nil
}

// wantBurns is how many burn cards the next street has: none after L4, L5 or L6, or when the flop's
// burn is already on the table (L2, L3); one otherwise (D3).
func (t *Table) wantBurns() int {
	l := &t.live
	if l.noBurn || t.h.round == Flop && l.burnTaken {
		return 0
	}
	return 1
}

// VerifyReportBoard says why the dealer cannot report this street now, or nil. Wrong numbers of
// cards are not errors: they are the procedures of L4 and L5.
func (t *Table) VerifyReportBoard(b LiveBoard) error {
	h := &t.h
	if !t.cfg.Live || h.phase != Betting || h.await != AwaitBoard {
		return ErrNotLive{Want: AwaitBoard, Awaiting: t.Awaiting(), Rule: "D3"}
	}
	want := 1
	if h.round == Flop {
		want = 3
	}
	if len(b.Cards) > want && h.round != Flop || len(b.Cards) > 5 || len(b.Burns) > 2 {
		return ErrLiveCard{Reason: fmt.Sprintf("%d cards and %d burns for the %v", len(b.Cards), len(b.Burns), h.round), Rule: "D3"}
	}
	if len(b.Cards) != 0 && len(b.Cards) < want {
		return ErrLiveCard{Reason: fmt.Sprintf("the %v has %d cards, %d reported", h.round, want, len(b.Cards)), Rule: "D3"}
	}
	if h.round != Flop && len(b.Burns) != t.wantBurns() {
		return ErrLiveCard{Reason: fmt.Sprintf("the %v is dealt after %d burn cards, %d reported", h.round, t.wantBurns(), len(b.Burns)), Rule: "D3"}
	}
	if h.round != Flop && len(b.Cards) == 0 {
		return ErrLiveCard{Reason: fmt.Sprintf("the %v has one card", h.round), Rule: "D3"}
	}
	return nil
}

// CanReportBoard reports whether the dealer may report this street now.
func (t *Table) CanReportBoard(b LiveBoard) bool { return t.VerifyReportBoard(b) == nil }

// ReportBoard takes the street the dealer dealt: its burn cards and its cards. The engine applies:
// L1 (a card twice: void); L4 (a flop of too many cards: they go back into the stub, the burns stay,
// and the flop is turned again without a burn); L5 (a missing or double burn before the flop: with
// no flop card turned the floor restores the correct burn and flop, the card burned second being the
// flop's first; with the flop turned the flop is reshuffled and turned again without a burn); then
// the street is dealt and the hand goes on.
func (t *Table) ReportBoard(b LiveBoard) (Event, error) {
	if err := t.VerifyReportBoard(b); err != nil {
		return Event{}, err
	}
	h := &t.h
	l := &t.live
	i := len(t.log)
	var seen eval.CardSet
	for _, c := range append(append([]eval.Card(nil), b.Burns...), b.Cards...) {
		if t.irregular(c) || seen.Has(c) {
			t.liveVoid(ProcIrregularDeck, c)
			return t.log[i], nil
		}
		seen = seen.Add(c)
	}
	if h.round == Flop {
		switch {
		case len(b.Cards) > 3: // L4: redealt, even when the extra card is known
			t.markUsed(b.Burns)
			l.noBurn = true
			t.liveEvent(ProcFlopRedealt, 0, b.Cards...)
			return t.log[i], nil
		case len(b.Burns) != t.wantBurns() && len(b.Cards) == 0: // L5, nothing turned: restored
			if len(b.Burns) == 2 {
				h.used = h.used.Add(b.Burns[0])
				l.mustFirst, l.hasFirst = b.Burns[1], true
				l.burnTaken, l.firstBurn = true, b.Burns[0]
			}
			t.liveEvent(ProcBurnRestored, 0)
			return t.log[i], nil
		case len(b.Burns) != t.wantBurns(): // L5, the flop turned: reshuffled
			t.markUsed(b.Burns)
			l.noBurn, l.hasFirst = true, false
			t.liveEvent(ProcBurnReshuffled, 0, b.Cards...)
			return t.log[i], nil
		case len(b.Cards) == 0:
			return Event{}, ErrLiveCard{Reason: "the flop has three cards", Rule: "D3"}
		case l.hasFirst && b.Cards[0] != l.mustFirst:
			return Event{}, ErrLiveCard{Reason: fmt.Sprintf("the restored flop begins with %v, the card burned second", l.mustFirst), Rule: "L5"}
		}
	}
	burn := NoCard
	switch {
	case len(b.Burns) == 1:
		burn = b.Burns[0]
	case h.round == Flop && l.burnTaken:
		burn = l.firstBurn
	}
	t.markUsed(b.Burns)
	t.markUsed(b.Cards)
	e := t.ev(EvBoard, 0, 0, 0)
	e.N, e.Burn = uint8(len(b.Cards)), burn
	for k, c := range b.Cards {
		e.Cards[k] = c
		h.board[int(h.nBoard)+k] = c
	}
	h.nBoard += int8(len(b.Cards))
	l.noBurn, l.hasFirst = false, false
	if h.round == Turn && l.hasAside {
		// L6: after the turn's round, the card set aside is shuffled back into the stub and the river
		// is dealt without a burn.
		h.used = h.used.Remove(l.setAside)
		l.hasAside = false
		l.noBurn = true
	}
	h.await = AwaitNothing
	t.streetDealt()
	return t.log[i], nil
}

func (t *Table) markUsed(cs []eval.Card) {
	for _, c := range cs {
		t.h.used = t.h.used.Add(c)
	}
}

// VerifyReportEarlyCard says why a card dealt early cannot be reported now, or nil.
func (t *Table) VerifyReportEarlyCard(c eval.Card) error {
	h := &t.h
	if !t.cfg.Live || h.phase != Betting || h.await != AwaitNothing || h.toAct < 0 || h.round != Flop && h.round != Turn {
		return ErrLiveCard{Reason: "a turn or river dealt early is reported during the flop's or the turn's betting", Rule: "L6"}
	}
	if t.live.hasAside {
		return ErrLiveCard{Reason: "a card is already set aside: the floor decides (rule P6)", Rule: "L6"}
	}
	if !c.Valid() {
		return ErrLiveCard{Reason: fmt.Sprintf("card %d is not one of the 52", c), Rule: "D1"}
	}
	return nil
}

// CanReportEarlyCard reports whether a card dealt early may be reported now.
func (t *Table) CanReportEarlyCard(c eval.Card) bool { return t.VerifyReportEarlyCard(c) == nil }

// ReportEarlyCard reports a turn card dealt before the flop's betting was over, or a river card
// before the turn's (L6). The turn is set aside: the dealer burns and deals the next card as the
// turn, and after the turn's round shuffles the set-aside card back into the stub and deals the river
// without a burn. An early river goes back into the stub at once, and the river is dealt the same way.
func (t *Table) ReportEarlyCard(c eval.Card) (Event, error) {
	if err := t.VerifyReportEarlyCard(c); err != nil {
		return Event{}, err
	}
	h := &t.h
	i := len(t.log)
	if t.irregular(c) {
		t.liveVoid(ProcIrregularDeck, c)
		return t.log[i], nil
	}
	if h.round == Flop {
		h.used = h.used.Add(c) // out of the deck until it is shuffled back before the river
		t.live.setAside, t.live.hasAside = c, true
	} else {
		t.live.noBurn = true // the river is reshuffled and dealt without a burn
	}
	t.liveEvent(ProcEarlyCard, 0, c)
	return t.log[i], nil
}

// VerifyReportFaceUpInDeck says why a card found face up in the deck cannot be reported now, or nil.
func (t *Table) VerifyReportFaceUpInDeck(c eval.Card) error {
	h := &t.h
	if !t.cfg.Live || h.phase != Betting || h.await == AwaitNothing {
		return ErrNotLive{Want: AwaitHoleCards, Awaiting: t.Awaiting(), Rule: "L7"}
	}
	if !c.Valid() {
		return ErrLiveCard{Reason: fmt.Sprintf("card %d is not one of the 52", c), Rule: "D1"}
	}
	return nil
}

// CanReportFaceUpInDeck reports whether a card found face up in the deck may be reported now.
func (t *Table) CanReportFaceUpInDeck(c eval.Card) bool { return t.VerifyReportFaceUpInDeck(c) == nil }

// ReportFaceUpInDeck reports a card found face up in the deck while dealing (L7): it is not used, and
// the next card reported takes its place. (When the next card was another player's, the dealer deals
// the face-up card instead: ReportHole with FaceUp and FromDeck.)
func (t *Table) ReportFaceUpInDeck(c eval.Card) (Event, error) {
	if err := t.VerifyReportFaceUpInDeck(c); err != nil {
		return Event{}, err
	}
	i := len(t.log)
	if t.irregular(c) {
		t.liveVoid(ProcIrregularDeck, c)
		return t.log[i], nil
	}
	t.h.used = t.h.used.Add(c)
	t.liveEvent(ProcFaceUpInDeck, 0, c)
	return t.log[i], nil
}

// VerifyReportBurnError says why a burn error on the flop cannot be reported now, or nil.
func (t *Table) VerifyReportBurnError() error {
	h := &t.h
	if !t.cfg.Live || h.phase != Betting || h.round != Flop || h.await != AwaitNothing {
		return ErrLiveCard{Reason: "a burn error found during the flop's betting is reported then", Rule: "L5"}
	}
	if n := t.actedOnFlop(); n == 1 {
		return ErrLiveCard{Reason: "one player has acted on the flop: the floor decides (rule P6)", Rule: "L5"}
	}
	return nil
}

func (t *Table) actedOnFlop() int {
	n := 0
	for s := range t.h.acted {
		if t.h.acted[s] {
			n++
		}
	}
	return n
}

// CanReportBurnError reports whether a burn error may be reported now.
func (t *Table) CanReportBurnError() bool { return t.VerifyReportBurnError() == nil }

// ReportBurnError reports a missing or double burn before the flop found during the flop's betting
// (L5): after at least two players acted the hand goes on; before anyone acted the flop goes back
// into the stub, is reshuffled and turned again without a burn.
func (t *Table) ReportBurnError() (Event, error) {
	if err := t.VerifyReportBurnError(); err != nil {
		return Event{}, err
	}
	h := &t.h
	i := len(t.log)
	if t.actedOnFlop() >= 2 {
		t.liveEvent(ProcBurnGoesOn, 0)
		return t.log[i], nil
	}
	t.liveEvent(ProcBurnReshuffled, 0, h.board[:3]...)
	for _, c := range h.board[:3] {
		h.used = h.used.Remove(c)
	}
	h.nBoard = 0
	h.toAct = -1
	t.live.noBurn = true
	h.await = AwaitBoard
	return t.log[i], nil
}

// VerifyKillPassedHand says why seat's hand cannot be declared dead for passed cards now, or nil.
func (t *Table) VerifyKillPassedHand(seat int) error {
	h := &t.h
	switch {
	case h.phase != Betting:
		return ErrNoHand{Phase: h.phase}
	case !t.validSeat(seat) || !h.dealt[seat]:
		return ErrBadSeat{Seat: seat, Reason: "not dealt in this hand"}
	case h.folded[seat]:
		return ErrBadSeat{Seat: seat, Reason: "has folded"}
	case h.inHand < 2:
		return ErrBadSeat{Seat: seat, Reason: "is the last player in the hand"}
	}
	return nil
}

// CanKillPassedHand reports whether seat's hand may be declared dead now.
func (t *Table) CanKillPassedHand(seat int) bool { return t.VerifyKillPassedHand(seat) == nil }

// KillPassedHand declares seat's hand dead because its cards were passed to another player, face down
// or face up (L8). A dead hand never wins: it is folded now if it is the player's turn (or he is
// all-in and has no turn), and otherwise when the turn reaches him, as a hand history writes a fold;
// he acts no more, and his chips stay in the pot.
func (t *Table) KillPassedHand(seat int) (Event, error) {
	if err := t.VerifyKillPassedHand(seat); err != nil {
		return Event{}, err
	}
	h := &t.h
	s := int8(seat)
	i := len(t.log)
	t.liveEvent(ProcPassedCards, s)
	switch {
	case h.toAct == s:
		h.killAtTurn &^= 1 << uint(s)
		t.foldSeat(s)
		t.ev(EvKill, s, 0, 0)
		t.advanceTurn(s)
	case h.allIn[s] || h.runout: // no turn will come: folded now
		h.killAtTurn &^= 1 << uint(s)
		t.foldSeat(s)
		t.ev(EvKill, s, 0, 0)
		if h.inHand == 1 && h.await != AwaitHoleCards {
			h.await = AwaitNothing
			t.finishUncontested() // the last live player takes the pot, whoever was to act
		}
	default:
		h.killAtTurn |= 1 << uint(s)
		h.settled &^= 1 << uint(s) // reached in turn even if he had matched the bet
		if h.await == AwaitNothing && h.toAct >= 0 {
			t.advanceTurn(h.toAct - 1) // only dead hands may be left against the player to act
			h.seq--                    // the same turn: advanceTurn counted a new one
		}
	}
	return t.log[i], nil
}

// VerifyReportMissingCards says why the dealer cannot report missing cards now, or nil.
func (t *Table) VerifyReportMissingCards() error {
	if !t.cfg.Live || t.h.phase != Betting {
		return ErrLiveCard{Reason: "missing cards are reported by a live dealer during a hand", Rule: "L1"}
	}
	return nil
}

// CanReportMissingCards reports whether the dealer may report missing cards now.
func (t *Table) CanReportMissingCards() bool { return t.VerifyReportMissingCards() == nil }

// ReportMissingCards reports that one or more cards are missing from the deck (L1): the hand is void,
// every chip back to whoever bet it (D4).
func (t *Table) ReportMissingCards() (Event, error) {
	if err := t.VerifyReportMissingCards(); err != nil {
		return Event{}, err
	}
	i := len(t.log)
	t.liveVoid(ProcIrregularDeck)
	return t.log[i], nil
}
