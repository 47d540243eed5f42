package replay

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/eval"
)

// SittingOutField is the user field (PHH keys beginning with "_") listing the players, 1-based,
// whose hands were dealt and killed at once because they sat out or were penalised (T4, T5, P3): PHH
// has no notation for it, and the engine folds them itself when it replays the hand.
const SittingOutField = "_sitting_out"

// ShortOpenField is the user field that records the engine's A10 policy when it is the rule book's
// (ShortOpenDoubleBlind): PHH's own software plays ShortOpenPlusBlind, the replay's default.
const ShortOpenField = "_short_open"

// shortOpenDoubleBlind is ShortOpenField's value for ShortOpenDoubleBlind.
const shortOpenDoubleBlind = "double-blind"

// Export writes the hand last played on t (complete) as a PHH hand history: the players dealt in,
// in PHH order (from the first seat after the button; heads-up the big blind first), their starting
// and finishing stacks, the forced bets and every action. Replaying it gives the same hand.
func Export(t *engine.Table) (*phh.Hand, error) {
	if t.Phase() != engine.Complete {
		return nil, fmt.Errorf("export: the hand is %v, not complete", t.Phase())
	}
	hd := t.Header()
	cfg := hd.Config
	var order [engine.MaxSeats]int
	var index [engine.MaxSeats]int
	n := 0
	for k := 1; k <= cfg.Seats; k++ {
		s := (hd.Button + k) % cfg.Seats
		if t.Dealt(s) {
			order[n], index[s] = s, n
			n++
		}
	}
	h := &phh.Hand{
		Variant:            phh.Variant,
		AnteTrimmingStatus: cfg.AnteMode == engine.AnteEveryone,
		Antes:              make([]int64, n),
		BlindsOrStraddles:  make([]int64, n),
		MinBet:             hd.Level.BigBlind,
		StartingStacks:     make([]int64, n),
		FinishingStacks:    make([]int64, n),
		Players:            make([]string, n),
		Seats:              make([]int, n),
		SeatCount:          cfg.Seats,
		Hand:               phh.NumberLabel(hd.Number),
	}
	var absent []any
	for i, s := range order[:n] {
		p := hd.Seats[s]
		h.StartingStacks[i] = p.Stack
		h.FinishingStacks[i] = t.Stack(s)
		h.Players[i] = p.ID
		h.Seats[i] = s + 1
		if cfg.AnteMode == engine.AnteEveryone {
			h.Antes[i] = hd.Level.Ante
		}
		if p.State == engine.SittingOut || p.State == engine.Penalised {
			absent = append(absent, int64(i+1))
		}
	}
	if cfg.AnteMode == engine.AnteBigBlind {
		h.Antes[index[hd.BigBlind]] = hd.Level.Ante
	}
	if hd.SmallBlind >= 0 {
		h.BlindsOrStraddles[index[hd.SmallBlind]] = hd.Level.SmallBlind
	}
	h.BlindsOrStraddles[index[hd.BigBlind]] = hd.Level.BigBlind
	if len(absent) > 0 || cfg.ShortOpen == engine.ShortOpenDoubleBlind {
		h.Extra = map[string]any{}
	}
	if len(absent) > 0 {
		h.Extra[SittingOutField] = absent
	}
	if cfg.ShortOpen == engine.ShortOpenDoubleBlind {
		h.Extra[ShortOpenField] = shortOpenDoubleBlind
	}

	act := func(a phh.Action) { h.ParsedActions = append(h.ParsedActions, a) }
	for i, s := range order[:n] {
		hc := t.HoleCards(s)
		act(phh.Action{Kind: phh.DealHole, Player: i + 1, Cards: []eval.Card{hc[0], hc[1]}})
	}
	for _, e := range t.Log() {
		p := index[e.Seat] + 1
		switch e.Kind {
		case engine.EvFold:
			act(phh.Action{Kind: phh.Fold, Player: p})
		case engine.EvCheck, engine.EvCall:
			act(phh.Action{Kind: phh.CheckCall, Player: p})
		case engine.EvBet, engine.EvRaise:
			act(phh.Action{Kind: phh.CompleteBetRaise, Player: p, Amount: e.To})
		case engine.EvBoard:
			act(phh.Action{Kind: phh.DealBoard, Cards: append([]eval.Card(nil), e.CardList()...)})
		case engine.EvShow:
			act(phh.Action{Kind: phh.ShowMuck, Player: p, Cards: append([]eval.Card(nil), e.CardList()...)})
		case engine.EvMuck:
			act(phh.Action{Kind: phh.ShowMuck, Player: p})
		}
	}
	return h, nil
}
