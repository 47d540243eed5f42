package fairdeal

import (
	"encoding/hex"
	"fmt"

	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/eval"
)

// The PHH user fields (keys beginning with "_") that record a deal in a hand history.
const (
	FieldCommitment  = "_deal_commitment"   // hex SHA-256 of the server seed, published before the deal
	FieldServerSeed  = "_deal_server_seed"  // hex server seed, revealed after the hand
	FieldSeedPlayers = "_deal_seed_players" // players who gave a client seed, sorted by ID
	FieldClientSeeds = "_deal_client_seeds" // their client seeds, in the same order
	FieldAlgorithm   = "_deal_algorithm"    // "pokerfloor/fairdeal/v1"
)

// Annotate writes d into h's user fields.
func Annotate(h *phh.Hand, d Deal) {
	if h.Extra == nil {
		h.Extra = map[string]any{}
	}
	h.Extra[FieldAlgorithm] = domain
	h.Extra[FieldCommitment] = d.Commitment
	h.Extra[FieldServerSeed] = hex.EncodeToString(d.ServerSeed[:])
	h.Extra[FieldSeedPlayers] = append([]string{}, d.Players...)
	h.Extra[FieldClientSeeds] = append([]string{}, d.ClientSeeds...)
}

// DealOf reads the deal recorded in h's user fields.
func DealOf(h *phh.Hand) (Deal, error) {
	var d Deal
	if a, ok := h.Extra[FieldAlgorithm]; ok && a != domain {
		return d, fmt.Errorf("%s is %v: only %q is known", FieldAlgorithm, a, domain)
	}
	c, ok := h.Extra[FieldCommitment].(string)
	if !ok {
		return d, fmt.Errorf("the history has no %s: it was not dealt by a provably fair deck", FieldCommitment)
	}
	d.Commitment = c
	s, ok := h.Extra[FieldServerSeed].(string)
	if !ok {
		return d, fmt.Errorf("the history has no %s (the seed is revealed after the hand)", FieldServerSeed)
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != SeedSize {
		return d, fmt.Errorf("%s must be %d bytes in hex, not %q", FieldServerSeed, SeedSize, s)
	}
	copy(d.ServerSeed[:], b)
	if d.Players, err = stringList(h.Extra[FieldSeedPlayers], FieldSeedPlayers); err != nil {
		return d, err
	}
	if d.ClientSeeds, err = stringList(h.Extra[FieldClientSeeds], FieldClientSeeds); err != nil {
		return d, err
	}
	return d, d.check()
}

// stringList reads a user field that is a list of strings (absent: empty).
func stringList(v any, field string) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []string:
		return v, nil
	case []any:
		out := make([]string, len(v))
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s[%d] is %v, not a string", field, i, x)
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s is %v, not a list of strings", field, v)
}

// Mismatch is a card of the history that the deal did not deal.
type Mismatch struct {
	What      string // "p3's second hole card", "the flop's first card"
	History   eval.Card
	Derived   eval.Card
	DrawIndex int // the card's place in the deck's drawing order, from 0
}

func (m Mismatch) Error() string {
	return fmt.Sprintf("%s is %s in the history, but the seeds deal %s (draw %d)", m.What, m.History, m.Derived, m.DrawIndex+1)
}

// Verify re-derives every card of h from the deal recorded in it and compares the hole cards and the
// board the history shows, in the engine's dealing order (D2, D3; step 6 of the package doc). It
// returns the number of cards checked, or the first card that does not match (a Mismatch), or what
// else is wrong (no deal recorded, a seed that does not match its commitment).
func Verify(h *phh.Hand) (int, error) {
	d, err := DealOf(h)
	if err != nil {
		return 0, err
	}
	deck, err := d.Cards(eval.NumCards)
	if err != nil {
		return 0, err
	}
	n := h.NumPlayers()
	if n < 2 || n > 10 {
		return 0, fmt.Errorf("%d players: a table seats 2 to 10", n)
	}
	// Player p (0-based) is dealt k-th in each round of hole cards: from the small blind, which is
	// p1 with three players or more, and p2 (the button) heads-up.
	first := 0
	if n == 2 {
		first = 1
	}
	checked := 0
	var board []eval.Card
	for _, a := range h.ParsedActions {
		switch {
		case a.Kind == phh.DealHole && len(a.Cards) == 2 && !a.Unknown:
			p := a.Player - 1
			if p < 0 || p >= n {
				return checked, fmt.Errorf("a hole card dealt to p%d, who is not in the hand", a.Player)
			}
			k := (p - first + n) % n
			for round, c := range a.Cards {
				i := round*n + k
				if deck[i] != c {
					return checked, Mismatch{What: fmt.Sprintf("p%d's %s hole card", a.Player, ordinal(round)), History: c, Derived: deck[i], DrawIndex: i}
				}
				checked++
			}
		case a.Kind == phh.DealBoard && !a.Unknown:
			board = append(board, a.Cards...)
		}
	}
	// The board: a burn, the flop, a burn, the turn, a burn, the river (D3).
	pos := [5]int{1, 2, 3, 5, 7}
	names := [5]string{"the flop's first card", "the flop's second card", "the flop's third card", "the turn", "the river"}
	if len(board) > 5 {
		return checked, fmt.Errorf("%d board cards: at most 5", len(board))
	}
	for i, c := range board {
		at := 2*n + pos[i]
		if deck[at] != c {
			return checked, Mismatch{What: names[i], History: c, Derived: deck[at], DrawIndex: at}
		}
		checked++
	}
	return checked, nil
}

func ordinal(i int) string {
	if i == 0 {
		return "first"
	}
	return "second"
}
