package engine

import "github.com/pokerfloor/pokerfloor/eval"

// NoCard stands for a card not shown (a burned card in a player's or spectator's log).
const NoCard eval.Card = 0xff

// Viewers other than a seat.
const (
	Spectator = -1 // sees no hole cards until they are shown
	FullView  = -2 // sees every dealt card: for the hand history, never for a player
)

// SeatView is one seat as a viewer sees it.
type SeatView struct {
	Seat     int
	ID       string
	Occupied bool
	State    PlayerState
	Stack    int64 // chips in front of the player
	Dealt    bool  // dealt in this hand
	InHand   bool  // dealt in and not folded (A16: who is in the hand)
	Folded   bool
	AllIn    bool
	Bet      int64 // chips bet in the current round
	Put      int64 // chips put in the pot this hand (live antes and bets)
	Cards    [2]eval.Card
	Known    bool // Cards are shown to this viewer
	Shown    bool // the player showed them to the table (S4, S6, S7)
}

// View is the table as one viewer may see it. A16: who is in the hand, every stack, the amount to
// call, the minimum raise and whether the bet in front reopens the betting, for the player to act.
type View struct {
	Viewer     int
	Phase      Phase
	HandNumber int64
	Level      Level
	Round      Round
	Button     int
	SmallBlind int // -1 when the small blind is dead
	BigBlind   int
	Board      [5]eval.Card
	NBoard     int
	Pot        int64 // every chip in the middle, bets of this round included (after the hand: the pot pushed)
	Seats      [MaxSeats]SeatView
	NSeats     int

	ToAct      int   // -1 when nobody is to act
	CurrentBet int64 // the bet to match in this round
	ToCall     int64 // what the player to act must add to call
	MinRaiseTo int64 // the smallest bet or raise of the player to act, as a total
	MaxRaiseTo int64 // all-in
	Reopens    bool  // the bet in front lets the player to act raise (A7)
	Legal      Legal // what the player to act may do
}

// View returns the table as seen by viewer: a seat number (its own hole cards only), Spectator
// (no hole cards until shown) or FullView (every dealt card). No view ever holds a card that was not
// dealt, nor a burned card (D5).
func (t *Table) View(viewer int) View {
	h := &t.h
	v := View{Viewer: viewer, Phase: h.phase, HandNumber: t.HandNumber(), Level: t.Level(), Round: h.round,
		Button: t.Button(), SmallBlind: -1, BigBlind: -1, ToAct: -1, NSeats: int(t.n)}
	inHand := h.phase != NoHand
	if inHand {
		v.BigBlind = int(h.bb)
		if h.sbLive {
			v.SmallBlind = int(h.sb)
		}
		v.Board, v.NBoard = h.board, int(h.nBoard)
		v.Pot = h.potTotal()
	}
	for s := 0; s < int(t.n); s++ {
		p := &t.seats[s]
		sv := SeatView{Seat: s, ID: p.id, Occupied: p.occupied, State: p.state, Stack: p.stack}
		if inHand && h.dealt[s] {
			sv.Dealt, sv.Folded, sv.AllIn = true, h.folded[s], h.allIn[s]
			sv.InHand = !h.folded[s]
			sv.Bet, sv.Put = h.bet[s], h.put[s]+h.deadAnte[s]
			sv.Shown = h.shown[s]
			if sv.Shown || viewer == FullView || viewer == s {
				sv.Cards, sv.Known = h.hole[s], true
			}
		}
		v.Seats[s] = sv
	}
	if h.phase == Betting && h.toAct >= 0 {
		s := h.toAct
		v.ToAct = int(s)
		v.CurrentBet = h.currentBet
		v.ToCall = min(h.currentBet-h.bet[s], t.seats[s].stack)
		v.Legal = t.LegalActions()
		v.Reopens = v.Legal.Reopened
		v.MinRaiseTo, v.MaxRaiseTo = v.Legal.MinTo, v.Legal.MaxTo
		if !v.Legal.Bet && !v.Legal.Raise {
			v.MinRaiseTo, v.MaxRaiseTo = 0, 0
		}
	}
	return v
}

// EventsFor appends to dst the hand's log as viewer may see it: other players' hole cards are
// hidden until shown, burned cards are never shown to a player or spectator (D5).
func (t *Table) EventsFor(viewer int, dst []Event) []Event {
	for _, e := range t.log {
		switch {
		case viewer == FullView:
		case e.Kind == EvBoard:
			e.Burn = NoCard
		case e.Kind == EvHole && int(e.Seat) != viewer:
			e.N, e.Cards = 0, [5]eval.Card{}
		case e.Kind == EvLive && e.Proc == ProcExposedReplaced && int(e.Seat) != viewer:
			e.N, e.Cards = 0, [5]eval.Card{} // the replacement is the player's own card
		}
		dst = append(dst, e)
	}
	return dst
}
