package protocol

import (
	"fmt"
	"slices"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/eval"
)

// TableView is the table as one connection may see it (rule A16): who is in the hand, every stack and
// bet, the board, the pots, and for the player to act what he owes, the smallest and largest bet or
// raise and whether the bet in front reopens the betting. A seat's Cards are present only where that
// connection may see them: its own seat, or a hand shown to the table (S4, S6, S7).
type TableView struct {
	Table      string     `json:"table"`
	Hand       int64      `json:"hand"`
	Phase      string     `json:"phase"` // "no hand", "betting", "complete", "voided"
	Round      string     `json:"round"` // "preflop", "flop", "turn", "river"
	Level      Level      `json:"level"`
	Button     int        `json:"button"`
	SmallBlind int        `json:"smallBlind"` // -1 when dead (rule B5)
	BigBlind   int        `json:"bigBlind"`
	Board      []string   `json:"board"`
	Pot        int64      `json:"pot"`  // every chip in the middle, this round's bets included
	Pots       []Pot      `json:"pots"` // the main pot and side pots as they stand (S3)
	Seats      []SeatView `json:"seats"`
	Viewer     int        `json:"viewer"` // the connection's seat, -1 for a spectator

	ToAct      int    `json:"toAct"` // -1 when nobody is to act
	CurrentBet int64  `json:"currentBet"`
	ToCall     int64  `json:"toCall"`
	MinRaiseTo int64  `json:"minRaiseTo"` // 0 when no bet or raise is allowed
	MaxRaiseTo int64  `json:"maxRaiseTo"`
	Reopens    bool   `json:"reopens"` // A7: the bet in front lets the player to act raise
	Legal      *Legal `json:"legal,omitempty"`
}

// Level is a blind level (rule B3).
type Level struct {
	SmallBlind int64 `json:"smallBlind"`
	BigBlind   int64 `json:"bigBlind"`
	Ante       int64 `json:"ante"`
}

// SeatView is one seat.
type SeatView struct {
	Seat     int      `json:"seat"`
	Player   string   `json:"player,omitempty"`
	Occupied bool     `json:"occupied"`
	State    string   `json:"state,omitempty"` // "active", "sitting out", ...
	Stack    int64    `json:"stack"`
	Dealt    bool     `json:"dealt"`
	InHand   bool     `json:"inHand"`
	Folded   bool     `json:"folded"`
	AllIn    bool     `json:"allIn"`
	Bet      int64    `json:"bet"` // in this round
	Put      int64    `json:"put"` // in the pot this hand
	Cards    []string `json:"cards,omitempty"`
	Shown    bool     `json:"shown,omitempty"`
	// Connected is false while the player is away (disconnected): set by the server.
	Connected bool `json:"connected"`
}

// Legal is what the player to act may do (rule A3).
type Legal struct {
	Fold       bool  `json:"fold"`
	Check      bool  `json:"check"`
	Call       bool  `json:"call"`
	Bet        bool  `json:"bet"`
	Raise      bool  `json:"raise"`
	AllIn      bool  `json:"allIn"`
	CallAmount int64 `json:"callAmount"`
	MinTo      int64 `json:"minTo"`
	MaxTo      int64 `json:"maxTo"`
}

// Pot is a main or side pot and the seats that may win it (S3); after a hand, who won it.
type Pot struct {
	Amount   int64 `json:"amount"`
	Eligible []int `json:"eligible"`
	Winners  []int `json:"winners,omitempty"`
}

// Cards returns the cards' names ("Ah").
func Cards(cs []eval.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// ParseCardList reads card names back.
func ParseCardList(names []string) ([]eval.Card, error) {
	out := make([]eval.Card, len(names))
	for i, n := range names {
		c, err := eval.ParseCard(n)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// ViewOf converts a viewer's engine view. It copies exactly the cards v holds for the viewer
// (v.Seats[s].Known): the engine decides what a viewer may see.
func ViewOf(tableID string, v *engine.View) TableView {
	tv := TableView{Table: tableID, Hand: v.HandNumber, Phase: v.Phase.String(), Round: v.Round.String(),
		Level:  Level{SmallBlind: v.Level.SmallBlind, BigBlind: v.Level.BigBlind, Ante: v.Level.Ante},
		Button: v.Button, SmallBlind: v.SmallBlind, BigBlind: v.BigBlind, Board: Cards(v.Board[:v.NBoard]),
		Pot: v.Pot, Viewer: v.Viewer, ToAct: v.ToAct, CurrentBet: v.CurrentBet, ToCall: v.ToCall,
		MinRaiseTo: v.MinRaiseTo, MaxRaiseTo: v.MaxRaiseTo, Reopens: v.Reopens}
	if tv.Viewer < 0 {
		tv.Viewer = -1
	}
	tv.Seats = make([]SeatView, v.NSeats)
	for s := 0; s < v.NSeats; s++ {
		p := &v.Seats[s]
		sv := SeatView{Seat: s, Player: p.ID, Occupied: p.Occupied, Stack: p.Stack, Dealt: p.Dealt,
			InHand: p.InHand, Folded: p.Folded, AllIn: p.AllIn, Bet: p.Bet, Put: p.Put, Shown: p.Shown,
			Connected: true}
		if p.Occupied {
			sv.State = p.State.String()
		}
		if p.Known && p.Dealt {
			sv.Cards = Cards(p.Cards[:])
		}
		tv.Seats[s] = sv
	}
	if v.Phase == engine.Betting {
		tv.Pots = SidePots(tv.Seats)
	}
	if v.ToAct >= 0 && v.ToAct == v.Viewer {
		l := v.Legal
		tv.Legal = &Legal{Fold: l.Fold, Check: l.Check, Call: l.Call, Bet: l.Bet, Raise: l.Raise, AllIn: l.AllIn,
			CallAmount: l.CallAmount, MinTo: l.MinTo, MaxTo: l.MaxTo}
	}
	return tv
}

// SidePots splits the chips put in (Put) into the main pot and the side pots as they stand (S3): a
// pot at each all-in level of the players still in, the rest above the last. Folded chips count in
// the pots they reach but their seats are not eligible.
func SidePots(seats []SeatView) []Pot {
	var levels []int64
	var top int64
	for _, s := range seats {
		if s.Dealt && s.InHand {
			if s.AllIn {
				levels = append(levels, s.Put)
			}
			top = max(top, s.Put)
		}
	}
	for _, s := range seats {
		top = max(top, s.Put) // an uncalled excess not yet returned stays counted
	}
	levels = append(levels, top)
	slices.Sort(levels)
	levels = slices.Compact(levels)
	var pots []Pot
	var prev int64
	for _, l := range levels {
		p := Pot{Eligible: []int{}}
		for _, s := range seats {
			p.Amount += min(s.Put, l) - min(s.Put, prev)
			if s.Dealt && s.InHand && (s.Put >= l || !s.AllIn) { // a player with chips can still match it
				p.Eligible = append(p.Eligible, s.Seat)
			}
		}
		prev = l
		if p.Amount > 0 {
			pots = append(pots, p)
		}
	}
	return pots
}

// EngineView rebuilds an engine.View from a TableView: for a bot playing over the network, which
// decides from the same view a bot in process gets. Cards not in the TableView stay unknown.
func (tv *TableView) EngineView() (engine.View, error) {
	v := engine.View{Viewer: tv.Viewer, HandNumber: tv.Hand, Button: tv.Button, SmallBlind: tv.SmallBlind,
		BigBlind: tv.BigBlind, Pot: tv.Pot, ToAct: tv.ToAct, CurrentBet: tv.CurrentBet, ToCall: tv.ToCall,
		MinRaiseTo: tv.MinRaiseTo, MaxRaiseTo: tv.MaxRaiseTo, Reopens: tv.Reopens,
		Level: engine.Level{SmallBlind: tv.Level.SmallBlind, BigBlind: tv.Level.BigBlind, Ante: tv.Level.Ante}}
	var ok bool
	if v.Phase, ok = parsePhase(tv.Phase); !ok {
		return v, fmt.Errorf("protocol: unknown phase %q", tv.Phase)
	}
	if v.Round, ok = parseRound(tv.Round); !ok {
		return v, fmt.Errorf("protocol: unknown round %q", tv.Round)
	}
	if len(tv.Board) > 5 || len(tv.Seats) > engine.MaxSeats {
		return v, fmt.Errorf("protocol: %d board cards and %d seats: at most 5 and %d", len(tv.Board), len(tv.Seats), engine.MaxSeats)
	}
	board, err := ParseCardList(tv.Board)
	if err != nil {
		return v, err
	}
	v.NBoard = copy(v.Board[:], board)
	v.NSeats = len(tv.Seats)
	for i, s := range tv.Seats {
		sv := engine.SeatView{Seat: i, ID: s.Player, Occupied: s.Occupied, Stack: s.Stack, Dealt: s.Dealt,
			InHand: s.InHand, Folded: s.Folded, AllIn: s.AllIn, Bet: s.Bet, Put: s.Put, Shown: s.Shown}
		if len(s.Cards) == 2 {
			cs, err := ParseCardList(s.Cards)
			if err != nil {
				return v, err
			}
			sv.Cards, sv.Known = [2]eval.Card{cs[0], cs[1]}, true
		}
		v.Seats[i] = sv
	}
	v.Legal = engine.Legal{Seat: -1}
	if tv.Legal != nil {
		l := tv.Legal
		v.Legal = engine.Legal{Seat: tv.ToAct, Fold: l.Fold, Check: l.Check, Call: l.Call, Bet: l.Bet,
			Raise: l.Raise, AllIn: l.AllIn, CallAmount: l.CallAmount, MinTo: l.MinTo, MaxTo: l.MaxTo, Reopened: tv.Reopens}
	}
	return v, nil
}

func parsePhase(s string) (engine.Phase, bool) {
	for p := engine.NoHand; p <= engine.Voided; p++ {
		if p.String() == s {
			return p, true
		}
	}
	return 0, false
}

func parseRound(s string) (engine.Round, bool) {
	for r := engine.Preflop; r <= engine.River; r++ {
		if r.String() == s {
			return r, true
		}
	}
	return 0, false
}

// ParseAction reads an action's name.
func ParseAction(s string) (engine.Action, bool) {
	switch s {
	case ActFold:
		return engine.Fold, true
	case ActCheck:
		return engine.Check, true
	case ActCall:
		return engine.Call, true
	case ActBet:
		return engine.Bet, true
	case ActRaise:
		return engine.Raise, true
	case ActAllIn:
		return engine.AllIn, true
	}
	return 0, false
}

// ActionName is the wire name of an engine action.
func ActionName(a engine.Action) string {
	switch a {
	case engine.Fold:
		return ActFold
	case engine.Check:
		return ActCheck
	case engine.Call:
		return ActCall
	case engine.Bet:
		return ActBet
	case engine.Raise:
		return ActRaise
	case engine.AllIn:
		return ActAllIn
	}
	return ""
}

// ParseAdvance reads an advance action's name (rule A14); AdvCancel reads as 0.
func ParseAdvance(s string) (engine.AdvanceAction, bool) {
	switch s {
	case AdvCheckFold:
		return engine.AdvanceCheckFold, true
	case AdvCall:
		return engine.AdvanceCall, true
	case AdvFold:
		return engine.AdvanceFold, true
	case AdvCancel:
		return 0, true
	}
	return 0, false
}

// Result is a hand's end, sent to everyone: the pots and their winners, the board, the final stacks
// and the hands shown at the showdown. A mucked hand is never in it (S6), nor a card not dealt (D5).
type Result struct {
	Hand    int64       `json:"hand"`
	Voided  bool        `json:"voided,omitempty"` // rule D4: every chip went back
	Board   []string    `json:"board"`
	Pots    []Pot       `json:"pots"`
	Shown   []ShownHand `json:"shown"`
	Won     []Win       `json:"won"`
	Stacks  []SeatStack `json:"stacks"`
	Mucked  []int       `json:"mucked,omitempty"` // seats that mucked at the showdown (their cards never shown)
	Deal    *DealProof  `json:"deal,omitempty"`   // the provably fair deal's seeds, revealed
	Summary string      `json:"summary"`          // one line for the last hands list
}

// ShownHand is a hand shown to the table.
type ShownHand struct {
	Seat   int      `json:"seat"`
	Player string   `json:"player"`
	Cards  []string `json:"cards"`
}

// Win is what a seat took from the pots.
type Win struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Amount int64  `json:"amount"`
}

// SeatStack is a seat's stack after the hand.
type SeatStack struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Stack  int64  `json:"stack"`
}

// DealProof is what a player needs to check a deal (engine/fairdeal): the commitment published
// before it, the server seed revealed after it, and the client seeds mixed in, by player.
type DealProof struct {
	Commitment  string   `json:"commitment"`
	ServerSeed  string   `json:"serverSeed"`
	SeedPlayers []string `json:"seedPlayers"`
	ClientSeeds []string `json:"clientSeeds"`
}

// ResultOf builds the Result of the hand just finished on t (Complete or Voided). Only hands shown to
// the table are included (S6); mucked seats are listed without cards.
func ResultOf(t *engine.Table) Result {
	v := t.View(engine.Spectator)
	res := Result{Hand: v.HandNumber, Voided: v.Phase == engine.Voided, Board: Cards(v.Board[:v.NBoard]),
		Pots: []Pot{}, Shown: []ShownHand{}, Won: []Win{}}
	for s := 0; s < v.NSeats; s++ {
		p := &v.Seats[s]
		if !p.Occupied {
			continue
		}
		res.Stacks = append(res.Stacks, SeatStack{Seat: s, Player: p.ID, Stack: p.Stack})
		if p.Dealt && p.Shown && p.Known {
			res.Shown = append(res.Shown, ShownHand{Seat: s, Player: p.ID, Cards: Cards(p.Cards[:])})
		}
	}
	for _, e := range t.Log() {
		if e.Kind == engine.EvMuck {
			res.Mucked = append(res.Mucked, int(e.Seat))
		}
	}
	if res.Voided {
		res.Summary = fmt.Sprintf("hand %d void (rule D4): every chip went back", res.Hand)
		return res
	}
	r := t.Result()
	for i := 0; i < r.NPots; i++ {
		p := r.Pots[i]
		res.Pots = append(res.Pots, Pot{Amount: p.Amount, Eligible: seatsOf(p.Eligible), Winners: seatsOf(p.Winners)})
	}
	summary := fmt.Sprintf("hand %d:", res.Hand)
	for s := 0; s < v.NSeats; s++ {
		if r.Won[s] > 0 {
			res.Won = append(res.Won, Win{Seat: s, Player: v.Seats[s].ID, Amount: r.Won[s]})
			summary += fmt.Sprintf(" %s wins %d", v.Seats[s].ID, r.Won[s])
		}
	}
	for _, sh := range res.Shown {
		summary += fmt.Sprintf("; %s shows %s %s", sh.Player, sh.Cards[0], sh.Cards[1])
	}
	res.Summary = summary
	return res
}

func seatsOf(mask uint16) []int {
	out := []int{}
	for s := 0; s < engine.MaxSeats; s++ {
		if mask>>uint(s)&1 != 0 {
			out = append(out, s)
		}
	}
	return out
}
