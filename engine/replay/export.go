package replay

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/eval"
)

// SittingOutField is the user field (PHH keys beginning with "_") listing the players, 1-based,
// whose hands were dealt and killed because they sat out or were penalised (T4, T5, P3): the actions
// write each kill as the player's fold at his first turn, and the engine, told by this field, kills
// the hand itself when it replays it.
const SittingOutField = "_sitting_out"

// ShortOpenField is the user field that names the A10 policy a hand was played under. The rule
// book's (ShortOpenDoubleBlind, "double-blind") is the default of a replay, so a file without the
// field follows RULES.md; "plus-blind" (ShortOpenPlusBlind, PokerKit's reading) must be said.
const ShortOpenField = "_short_open"

// ShortOpenField's values.
const (
	shortOpenDoubleBlind = "double-blind"
	shortOpenPlusBlind   = "plus-blind"
)

// RuleDifferencesField is the user field listing the rules (RULES.md IDs) by which this hand's
// result differs on purpose from what a PHH reader that follows PokerKit computes: A9 (callers put in
// the full big blind over a short big blind), B2 (the big-blind ante posted after the big blind, by a
// stack short of both), S2 (odd chips one at a time from the first seat after the button, where
// PokerKit gives them all to the first winner), A10 (the smallest raise over a short opening all-in
// is twice the big blind, not the all-in plus the big blind), P3 (a killed hand, T4, T5, P3, or a
// dead one, L8, that has no turn at which PHH could fold it: all-in, or left alone against one live
// player, who then wins before it is asked),
// S3 (chips of folded players that no player left could win go back to them; PokerKit makes a pot
// that nobody may win).
// Our reader ignores it; the other tools' results differ
// exactly for these hands.
const RuleDifferencesField = "_rule_differences"

// LiveProceduresField is the user field listing, in order, the dealing procedures a live table's
// hand went through (RULES.md L2-L8: exposed, extra or early cards, a redealt flop, a burn error, a
// dead hand), each as "L4 flop redealt: 7h8h9hTh". The actions hold the cards as finally dealt.
const LiveProceduresField = "_live_procedures"

func liveText(e engine.Event, p int) string {
	s := e.Proc.Rule() + " " + strings.TrimSuffix(e.Proc.String(), " (rule "+e.Proc.Rule()+")")
	if e.Proc == engine.ProcPassedCards || e.Proc == engine.ProcExposedCard || e.Proc == engine.ProcExposedReplaced {
		s += fmt.Sprintf(", p%d", p)
	}
	if e.N > 0 && e.Proc != engine.ProcExposedReplaced {
		s += ": " + eval.CardsString(e.CardList())
	}
	return s
}

// Export writes the hand last played on t (complete) as a PHH hand history: the players dealt in,
// in PHH order (from the first seat after the button; heads-up the big blind first), their starting
// and finishing stacks, the forced bets and every action. Replaying it gives the same hand, here and
// in a reader that follows the PHH standard as PokerKit does: heads-up, the blind and ante arrays are
// written small blind first and reverse-assigned (p1, the big blind, posts the second value); a hand
// killed at the deal (T4, T5, P3) is written as that player's fold at his first turn, besides
// SittingOutField for our reader; every check is explicit.
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
	var killed [engine.MaxSeats]bool // by PHH player index
	for i, s := range order[:n] {
		p := hd.Seats[s]
		h.StartingStacks[i] = p.Stack
		h.FinishingStacks[i] = t.Stack(s)
		h.Players[i] = p.ID
		h.Seats[i] = s + 1
		if cfg.AnteMode == engine.AnteEveryone {
			h.Antes[i] = hd.Level.Ante
		}
	}
	for _, e := range t.Log() {
		if st := hd.Seats[e.Seat].State; e.Kind == engine.EvKill && (st == engine.SittingOut || st == engine.Penalised) {
			killed[index[e.Seat]] = true
			absent = append(absent, int64(index[e.Seat]+1))
		}
	}
	if cfg.AnteMode == engine.AnteBigBlind {
		h.Antes[index[hd.BigBlind]] = hd.Level.Ante
	}
	if hd.SmallBlind >= 0 {
		h.BlindsOrStraddles[index[hd.SmallBlind]] = hd.Level.SmallBlind
	}
	h.BlindsOrStraddles[index[hd.BigBlind]] = hd.Level.BigBlind
	if n == 2 {
		// PHH heads-up: the arrays are written as with more players, small blind first, and
		// reverse-assigned to p1 (the big blind) and p2 (the button).
		h.Antes[0], h.Antes[1] = h.Antes[1], h.Antes[0]
		h.BlindsOrStraddles[0], h.BlindsOrStraddles[1] = h.BlindsOrStraddles[1], h.BlindsOrStraddles[0]
	}
	h.Extra = map[string]any{}
	if len(absent) > 0 {
		h.Extra[SittingOutField] = absent
	}
	if cfg.ShortOpen == engine.ShortOpenPlusBlind {
		h.Extra[ShortOpenField] = shortOpenPlusBlind
	}
	act := func(a phh.Action) { h.ParsedActions = append(h.ParsedActions, a) }
	for i, s := range order[:n] {
		hc := t.HoleCards(s)
		act(phh.Action{Kind: phh.DealHole, Player: i + 1, Cards: []eval.Card{hc[0], hc[1]}})
	}
	var procs []any // the live dealing procedures (L), in order, for LiveProceduresField
	for _, e := range t.Log() {
		p := index[e.Seat] + 1
		switch e.Kind {
		case engine.EvLive:
			procs = append(procs, liveText(e, p))
			if e.Proc == engine.ProcBurnReshuffled && len(h.ParsedActions) > 0 && h.ParsedActions[len(h.ParsedActions)-1].Kind == phh.DealBoard {
				h.ParsedActions = h.ParsedActions[:len(h.ParsedActions)-1] // that flop went back into the stub
			}
		case engine.EvFold:
			act(phh.Action{Kind: phh.Fold, Player: p})
		case engine.EvKill:
			if !allInAtDeal(t, int(e.Seat)) && !allInKilled(t, e.Seat) { // killed at his turn: a fold there
				act(phh.Action{Kind: phh.Fold, Player: p})
			}
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
	if len(procs) > 0 {
		h.Extra[LiveProceduresField] = procs
	}
	if d := differences(t, hd); len(d) > 0 {
		h.Extra[RuleDifferencesField] = d
	}
	if len(h.Extra) == 0 {
		h.Extra = nil
	}
	return h, nil
}

// allInKilled reports whether seat s's hand was declared dead (L8) while he was all-in: he had no
// turn to fold at.
func allInKilled(t *engine.Table, s int8) bool {
	v := t.View(engine.FullView)
	return v.Seats[s].AllIn
}

// folded reports whether seat s folded or was killed in the hand of log.
func folded(log []engine.Event, s int8) bool {
	for _, e := range log {
		if e.Seat == s && (e.Kind == engine.EvFold || e.Kind == engine.EvKill) {
			return true
		}
	}
	return false
}

// allInAtDeal reports whether seat s had no chips left after its forced bets: such a player has no
// turn in PHH, so his killed hand cannot be written as a fold.
func allInAtDeal(t *engine.Table, s int) bool {
	for _, e := range t.Log() {
		if int(e.Seat) == s && e.AllIn && (e.Kind == engine.EvAnte || e.Kind == engine.EvSmallBlind || e.Kind == engine.EvBigBlind) {
			return true
		}
	}
	return false
}

// differences lists the rules by which the hand's result differs on purpose from a PokerKit reading
// of the exported file (see RuleDifferencesField), in the order of RULES.md.
func differences(t *engine.Table, hd engine.Header) []any {
	lv := hd.Level
	log := t.Log()
	var a9, b2, s2, s3, a10, p3 bool
	var bbPosted int64
	for _, e := range log {
		if e.Kind == engine.EvBigBlind {
			bbPosted = e.Amount
		}
	}
	shortOpen := false // the round opened with an all-in bet below the big blind
	for _, e := range log {
		switch e.Kind {
		case engine.EvFold, engine.EvCheck, engine.EvCall, engine.EvBet, engine.EvRaise:
			if e.Round == engine.Preflop && bbPosted < lv.BigBlind {
				// Every player who enters puts in the full big blind over a short one: the amounts,
				// and who still has a decision to make, are not PokerKit's.
				a9 = true
			}
			if e.Kind == engine.EvRaise && shortOpen && t.Config().ShortOpen == engine.ShortOpenDoubleBlind {
				a10 = true
			}
			if e.Kind == engine.EvBet {
				shortOpen = e.To < lv.BigBlind
			}
		case engine.EvBoard:
			shortOpen = false
		case engine.EvKill:
			if allInAtDeal(t, int(e.Seat)) || allInKilled(t, e.Seat) || e.Amount == 1 {
				p3 = true // a killed or dead hand that PHH cannot fold at its turn
			}
		case engine.EvUncalled:
			if folded(log, e.Seat) {
				s3 = true // folded chips nobody left could win went back (PokerKit has a pot for nobody)
			}
		}
	}
	if t.Config().AnteMode == engine.AnteBigBlind && lv.Ante > 0 && hd.Seats[hd.BigBlind].Stack < lv.BigBlind+lv.Ante {
		b2 = true // the big blind posted before its ante, from a stack short of both
	}
	r := t.Result()
	for i := 0; i < r.NPots; i++ {
		if k := int64(bits.OnesCount16(r.Pots[i].Winners)); k > 2 && r.Pots[i].Amount%k >= 2 {
			s2 = true // more than one odd chip: one each from the first winner after the button
		}
	}
	var out []any
	for _, d := range []struct {
		on   bool
		rule string
	}{{a9, "A9"}, {a10, "A10"}, {b2, "B2"}, {p3, "P3"}, {s2, "S2"}, {s3, "S3"}} {
		if d.on {
			out = append(out, d.rule)
		}
	}
	return out
}
