// Package replay plays PHH hand histories (package phh) through the engine, and writes the hands the
// engine plays as PHH.
//
// Replaying a hand sets up a table from the history's starting stacks, blinds and antes, deals the
// cards it names (through a scripted deck, in the engine's own dealing order), and sends each action
// through the engine's rules: an action the rule book forbids is an error. The engine then decides
// the pots, and Check compares its final stacks with the history's finishing stacks. A history is
// read as the PHH standard writes it (heads-up arrays small blind first and reverse-assigned,
// ante_trimming_status false when absent) and replayed by RULES.md unless a user field says the
// hand was played otherwise (ShortOpenField for A10).
//
// Export writes a hand so that PHH readers that follow PokerKit play the same hand: every action
// explicit, killed and dead hands as folds at their turn, and RuleDifferencesField naming the rules
// by which the rule book's result differs on purpose from PokerKit's for that hand.
//
// The package does no I/O: callers read the files.
package replay

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/eval"
)

// Error says which action of a history the engine refused, or what else does not fit.
type Error struct {
	Action int    // index in the history's actions, -1 for the setup
	Text   string // the action as written
	Err    error
}

func (e *Error) Error() string {
	if e.Action < 0 {
		return "replay: " + e.Err.Error()
	}
	return fmt.Sprintf("replay: action %d %q: %v", e.Action+1, e.Text, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Replayer replays hands one after another, reusing its table and buffers: no allocation per hand
// once warm. The zero value is ready. It is not safe for concurrent use.
type Replayer struct {
	table  *engine.Table
	deck   engine.ScriptedDeck
	holes  [engine.MaxSeats][2]eval.Card
	known  [engine.MaxSeats]bool
	board  []eval.Card
	seen   []eval.Card
	sb, bb int
	blinds [engine.MaxSeats]int64
	antes  [engine.MaxSeats]int64
	killed [engine.MaxSeats]bool // killed at the deal (SittingOutField): their folds are the kill
}

// Table returns the table of the last hand replayed: its stacks, log and result.
func (r *Replayer) Table() *engine.Table { return r.table }

// Replay plays h through the engine. After it the table holds the final stacks.
func (r *Replayer) Replay(h *phh.Hand) error {
	if err := r.setup(h); err != nil {
		return &Error{Action: -1, Err: err}
	}
	t := r.table
	if err := t.StartHandAt(t.Config().Seats-1, r.sb, r.bb); err != nil {
		return &Error{Action: -1, Err: err}
	}
	if t.Phase() == engine.Voided {
		return &Error{Action: -1, Err: fmt.Errorf("the deck is irregular (rule D4): a card appears twice")}
	}
	nboard := 0
	for i, a := range h.ParsedActions {
		var err error
		switch a.Kind {
		case phh.NoOp, phh.DealHole:
			continue
		case phh.DealBoard:
			r.seen = t.AppendBoard(r.seen[:0])
			v := r.seen
			for _, c := range a.Cards {
				if nboard >= len(v) || v[nboard] != c {
					err = fmt.Errorf("the engine's board is %s at this point", eval.CardsString(v))
					break
				}
				nboard++
			}
		case phh.Fold:
			if p := a.Player - 1; p >= 0 && p < len(r.killed) && r.killed[p] && killedAtDeal(t, p) {
				r.killed[p] = false // the PHH fold of a hand the engine killed at the deal
				continue
			}
			_, err = t.Fold(a.Player - 1)
		case phh.CheckCall:
			if t.CanCheck(a.Player - 1) {
				_, err = t.Check(a.Player - 1)
			} else {
				_, err = t.Call(a.Player - 1)
			}
		case phh.CompleteBetRaise:
			if t.LegalActions().Bet {
				_, err = t.Bet(a.Player-1, a.Amount)
			} else {
				_, err = t.RaiseTo(a.Player-1, a.Amount)
			}
		case phh.ShowMuck:
			// The engine shows winners and mucks losers itself (S4–S6); a shown hand must be the
			// one dealt.
			if t.Phase() == engine.Betting {
				err = fmt.Errorf("the engine has not reached the showdown")
			} else if len(a.Cards) == 2 && !a.Unknown {
				hc := t.HoleCards(a.Player - 1)
				if !(hc[0] == a.Cards[0] && hc[1] == a.Cards[1] || hc[0] == a.Cards[1] && hc[1] == a.Cards[0]) {
					err = fmt.Errorf("shows %s but was dealt %s", eval.CardsString(a.Cards), eval.CardsString(hc[:]))
				}
			}
		}
		if err != nil {
			return &Error{Action: i, Text: actionText(h, i), Err: err}
		}
	}
	if t.Phase() != engine.Complete {
		return &Error{Action: len(h.ParsedActions) - 1, Text: actionText(h, len(h.ParsedActions)-1),
			Err: fmt.Errorf("the history ends before the hand does (the engine is at %v, seat %d to act)", t.Round(), t.ToAct())}
	}
	return nil
}

// killedAtDeal reports whether the engine killed seat s's hand at the deal (T4, T5, P3).
func killedAtDeal(t *engine.Table, s int) bool {
	for _, e := range t.Log() {
		if e.Kind == engine.EvKill && int(e.Seat) == s {
			return true
		}
	}
	return false
}

func actionText(h *phh.Hand, i int) string {
	if i >= 0 && i < len(h.Actions) {
		return h.Actions[i]
	}
	if i >= 0 && i < len(h.ParsedActions) {
		return h.ParsedActions[i].String()
	}
	return ""
}

// FinishingStacks appends the final stacks of the last hand, in the history's player order.
func (r *Replayer) FinishingStacks(dst []int64) []int64 {
	n := r.table.Config().Seats
	for s := 0; s < n; s++ {
		dst = append(dst, r.table.Stack(s))
	}
	return dst
}

// Check replays h and compares the engine's final stacks with h's finishing stacks.
func (r *Replayer) Check(h *phh.Hand) error {
	if err := r.Replay(h); err != nil {
		return err
	}
	if len(h.FinishingStacks) == 0 {
		return &Error{Action: -1, Err: fmt.Errorf("the history has no finishing_stacks to check")}
	}
	for s, want := range h.FinishingStacks {
		if got := r.table.Stack(s); got != want {
			var buf [engine.MaxSeats]int64
			return &Error{Action: -1, Err: fmt.Errorf("finishing stacks %v, the history says %v", r.FinishingStacks(buf[:0]), h.FinishingStacks)}
		}
	}
	return nil
}

// setup prepares the table and the deck for h. Player pN sits in seat N-1 and the button on the last
// seat: with three or more players p1 is the small blind, heads-up p1 is the big blind and p2 the
// button, as PHH orders them.
func (r *Replayer) setup(h *phh.Hand) error {
	n := h.NumPlayers()
	if h.Variant != "" && h.Variant != phh.Variant {
		return fmt.Errorf("variant %q: only No-Limit Texas Hold'em (NT) is played", h.Variant)
	}
	if n < 2 || n > engine.MaxSeats {
		return fmt.Errorf("%d players: a table seats 2 to %d", n, engine.MaxSeats)
	}
	if len(h.BlindsOrStraddles) != n || len(h.Antes) != n {
		return fmt.Errorf("blinds_or_straddles and antes need one value a player")
	}
	// Each player's blind and ante. Heads-up, PHH writes the arrays small blind first, as with more
	// players, and assigns them reversed: p1 (the big blind) posts the second value (phh-std).
	blinds := r.blinds[:n]
	antes := r.antes[:n]
	copy(blinds, h.BlindsOrStraddles)
	copy(antes, h.Antes)
	if n == 2 {
		blinds[0], blinds[1] = blinds[1], blinds[0]
		antes[0], antes[1] = antes[1], antes[0]
	}
	sbAt, bbAt := 0, 1
	switch {
	case n == 2:
		sbAt, bbAt = 1, 0
	case blinds[1] == 0:
		sbAt, bbAt = -1, 0 // no small blind (a dead one, rule B5): p1 is the big blind
	}
	lv := engine.Level{BigBlind: blinds[bbAt]}
	if sbAt >= 0 {
		lv.SmallBlind = blinds[sbAt]
	} else {
		lv.SmallBlind = lv.BigBlind / 2 // not posted
	}
	for i, b := range blinds {
		if b != 0 && i != sbAt && i != bbAt {
			return fmt.Errorf("straddles are not played (blinds_or_straddles %v)", h.BlindsOrStraddles)
		}
	}
	if bb := lv.BigBlind; h.MinBet != bb {
		if n == 2 {
			return fmt.Errorf("min_bet %d differs from the big blind %d (rule A4; heads-up, blinds_or_straddles is written small blind first: [%d, %d])",
				h.MinBet, bb, lv.SmallBlind, lv.BigBlind)
		}
		return fmt.Errorf("min_bet %d differs from the big blind %d (rule A4)", h.MinBet, bb)
	}
	// A10: the rule book's reading unless the file says it was played otherwise.
	cfg := engine.Config{Seats: n, ShortOpen: engine.ShortOpenDoubleBlind}
	if v, ok := h.Extra[ShortOpenField]; ok {
		switch v {
		case shortOpenDoubleBlind:
		case shortOpenPlusBlind:
			cfg.ShortOpen = engine.ShortOpenPlusBlind
		default:
			return fmt.Errorf("%s = %v: the values are %q (rule A10, the default) and %q", ShortOpenField, v, shortOpenDoubleBlind, shortOpenPlusBlind)
		}
	}
	uniform, bbOnly := true, true
	for i, a := range antes {
		if a != antes[0] {
			uniform = false
		}
		if i != bbAt && a != 0 {
			bbOnly = false
		}
	}
	switch {
	case uniform:
		lv.Ante = antes[0]
		// ante_trimming_status false (the standard's default) makes the antes dead money in the main
		// pot; the rule book's antes are live chips (B2, S3). The two give the same pots unless a
		// player cannot pay the whole ante: only then is the file refused.
		if lv.Ante > 0 && !h.AnteTrimmingStatus {
			for i, st := range h.StartingStacks {
				if st < lv.Ante {
					return fmt.Errorf("ante_trimming_status is false (antes as dead money) and p%d's stack %d is short of the ante %d: "+
						"the pots differ from the rule book's, where antes are live chips (rule B2, S3); write ante_trimming_status = true to replay it by the rule book", i+1, st, lv.Ante)
				}
			}
		}
	case bbOnly:
		lv.Ante = antes[bbAt]
		cfg.AnteMode = engine.AnteBigBlind
		if h.AnteTrimmingStatus {
			return fmt.Errorf("ante_trimming_status true with a big-blind ante: PHH trims it back to the next largest ante, 0, so no ante is played; " +
				"the rule book's big-blind ante is dead money in the pot (rule B2): write ante_trimming_status = false")
		}
	default:
		return fmt.Errorf("antes %v: either everyone antes the same or only the big blind does (rule B2)", h.Antes)
	}
	if r.table == nil {
		t, err := engine.NewTable(cfg, lv, &r.deck)
		if err != nil {
			return err
		}
		r.table = t
	} else if err := r.table.Reset(cfg, lv); err != nil {
		return err
	}
	t := r.table
	for i, st := range h.StartingStacks {
		id := ""
		if i < len(h.Players) {
			id = h.Players[i]
		}
		if err := t.Sit(i, id, st, engine.Active); err != nil {
			return err
		}
	}
	r.killed = [engine.MaxSeats]bool{}
	if v, ok := h.Extra[SittingOutField].([]any); ok {
		for _, x := range v {
			p, ok := x.(int64)
			if !ok || p < 1 || int(p) > n {
				return fmt.Errorf("%s: %v is not a player number", SittingOutField, x)
			}
			if err := t.SetState(int(p-1), engine.SittingOut); err != nil {
				return err
			}
			r.killed[p-1] = true
		}
	}
	r.sb, r.bb = sbAt, bbAt
	return r.script(h, n)
}

// script lays the deck in the engine's dealing order: hole cards one at a time from the small blind
// (D2), then a burn before the flop, the turn and the river (D3). Cards the history does not name
// (burns, unknown hole cards, an unfinished board) are filled with cards it does not use.
func (r *Replayer) script(h *phh.Hand, n int) error {
	var used eval.CardSet
	r.board = r.board[:0]
	for i := 0; i < n; i++ {
		r.known[i] = false
	}
	take := func(c eval.Card) error {
		if used.Has(c) {
			return fmt.Errorf("card %s appears twice (rule D4)", c)
		}
		used = used.Add(c)
		return nil
	}
	for _, a := range h.ParsedActions {
		switch {
		case a.Kind == phh.DealHole && len(a.Cards) == 2 && !a.Unknown, a.Kind == phh.ShowMuck && len(a.Cards) == 2 && !a.Unknown:
			p := a.Player - 1
			if p < 0 || p >= n {
				return fmt.Errorf("no player p%d", a.Player)
			}
			if r.known[p] {
				if a.Kind == phh.ShowMuck {
					continue // checked against the deal when replayed
				}
				return fmt.Errorf("p%d is dealt twice", a.Player)
			}
			r.holes[p] = [2]eval.Card{a.Cards[0], a.Cards[1]}
			r.known[p] = true
			for _, c := range a.Cards {
				if err := take(c); err != nil {
					return err
				}
			}
		case a.Kind == phh.DealBoard:
			for _, c := range a.Cards {
				if err := take(c); err != nil {
					return err
				}
				r.board = append(r.board, c)
			}
		}
	}
	if len(r.board) > 5 {
		return fmt.Errorf("%d board cards", len(r.board))
	}
	next := 0
	spare := func() eval.Card {
		for ; next < eval.NumCards; next++ {
			if c := eval.CardFromIndex(next); !used.Has(c) {
				used = used.Add(c)
				return c
			}
		}
		return 0xff
	}
	for p := 0; p < n; p++ {
		if !r.known[p] {
			r.holes[p] = [2]eval.Card{spare(), spare()}
		}
	}
	cards := r.deck.Cards[:0]
	first := 0
	if n == 2 {
		first = 1 // heads-up the button is the small blind and is dealt first
	}
	for round := 0; round < 2; round++ {
		for k := 0; k < n; k++ {
			cards = append(cards, r.holes[(first+k)%n][round])
		}
	}
	b := 0
	for _, street := range [3]int{3, 1, 1} {
		cards = append(cards, spare())
		for j := 0; j < street; j++ {
			if b < len(r.board) {
				cards = append(cards, r.board[b])
				b++
			} else {
				cards = append(cards, spare())
			}
		}
	}
	r.deck.Cards = cards
	return nil
}
