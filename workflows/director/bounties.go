package director

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Progressive knockout bounties (spec Bounty). Each entry's buy-in pays his starting bounty,
// kept apart from the prize pool. When he busts, his bounty goes to whoever won his last chips:
// the winners of the pot holding the top of his stack, as the table's hand result says
// (report.HandResult.Knockouts), split equally when they split that pot, the odd cents to the
// first after the button (floor.BountyLastChips, the big sites' published rule). Of each share,
// CashPercent is paid in cash at once and the rest goes onto the eliminator's own bounty; the
// winner is paid his own bounty at the end. A disqualified player's bounty is unclaimed and goes
// to the winner; a withdrawn entry's is refunded with his buy-in.

// BountiesState is the bounties of the field (one section's field at most: 1,152 entries).
type BountiesState struct {
	Board *floor.BountyBoard `json:"board"`
	// CashCents is the bounty cash each player has won; Knockouts how many players he knocked out
	// (a shared knockout counts for each taker).
	CashCents map[string]int64 `json:"cashCents,omitempty"`
	Knockouts map[string]int   `json:"knockouts,omitempty"`
	// Errors lists knockouts that could not be paid as the rule says (their bounty went unclaimed,
	// to the winner): a table that reported no eliminator. Kept to a few.
	Errors []string `json:"errors,omitempty"`
}

// toolsEntered puts a new entry's starting bounty on his head (a PKO event).
func (s *TournamentState) toolsEntered(id string) {
	if s.Spec.Bounty == nil {
		return
	}
	if s.Tools.Bounties == nil {
		board, err := floor.NewBountyBoard(*s.Spec.Bounty)
		if err != nil {
			s.ChipErrors = append(s.ChipErrors, "bounties: "+err.Error())
			return
		}
		s.Tools.Bounties = &BountiesState{Board: board, CashCents: map[string]int64{}, Knockouts: map[string]int{}}
	}
	if err := s.Tools.Bounties.Board.Enter(floor.PlayerID(id)); err != nil {
		s.bountyError(err.Error())
	}
}

func (s *TournamentState) bountyError(msg string) {
	if b := s.Tools.Bounties; b != nil && len(b.Errors) < 20 {
		b.Errors = append(b.Errors, msg)
	}
}

// bountyArrived puts the bounty of a player who arrived from another section on his head there
// (addPlayer gave him a starting one, as a new entry: that is taken back).
func (s *TournamentState) bountyArrived(id string, cents int64) {
	if b := s.Tools.Bounties; b != nil {
		b.Board.Heads[floor.PlayerID(id)] = cents
		b.Board.Entries--
	}
}

// bountyLeft takes the bounty of a player who left for another section off this section's board,
// and returns it: it travels with him (Transfer.BountyCents).
func (s *TournamentState) bountyLeft(id string) int64 {
	b := s.Tools.Bounties
	if b == nil {
		return 0
	}
	h := b.Board.Heads[floor.PlayerID(id)]
	delete(b.Board.Heads, floor.PlayerID(id))
	return h
}

// bountyWithdrawn refunds a withdrawn entry's bounty with his buy-in (it was never played for).
func (s *TournamentState) bountyWithdrawn(id string) {
	if b := s.Tools.Bounties; b != nil {
		if _, err := b.Board.Withdraw(floor.PlayerID(id)); err != nil {
			s.bountyError(err.Error())
		}
	}
}

// knockoutsOf pays the knockouts of a table's news, first: an eliminator who left the table
// after his hand (for another section, with his bounty) is paid before he goes.
func (s *TournamentState) knockoutsOf(ev TableEvent) {
	if s.Tools.Bounties == nil {
		return
	}
	for _, g := range ev.Busts {
		for _, e := range g.Eliminated {
			s.payKnockout(e.Player, g.Knockouts)
		}
	}
}

// bountiesOf sets aside the bounties of the players disqualified (P4: unclaimed, to the winner).
func (s *TournamentState) bountiesOf(ev TableEvent) {
	b := s.Tools.Bounties
	if b == nil {
		return
	}
	for _, a := range ev.Sanctions {
		if a.Missing || a.Ref < 0 || a.Ref >= len(s.Sanctions) || s.Sanctions[a.Ref].Sanction.Kind != floor.Disqualification {
			continue
		}
		if _, in := b.Board.Heads[floor.PlayerID(a.Player)]; in {
			if err := b.Board.Forfeit(floor.PlayerID(a.Player)); err != nil {
				s.bountyError(err.Error())
			}
		}
	}
}

// payKnockout pays player's bounty to who won his last chips.
func (s *TournamentState) payKnockout(player floor.PlayerID, knockouts []report.Knockout) {
	b := s.Tools.Bounties
	if _, in := b.Board.Heads[player]; !in {
		return // paid already (a repeated event), or never had one
	}
	k := floor.Knockout{Player: player}
	if i := slices.IndexFunc(knockouts, func(k report.Knockout) bool { return k.Player == string(player) }); i >= 0 {
		for _, by := range knockouts[i].By {
			if _, in := b.Board.Heads[floor.PlayerID(by)]; in && by != string(player) {
				k.Takers = append(k.Takers, floor.BountyTaker{Player: floor.PlayerID(by), LastChips: true})
			}
		}
	}
	if len(k.Takers) == 0 {
		s.bountyError(fmt.Sprintf("%s busted with no eliminator reported: his bounty goes unclaimed, to the winner", player))
		_ = b.Board.Forfeit(player)
		return
	}
	paid, err := b.Board.Knockout(k)
	if err != nil {
		s.bountyError(err.Error())
		_ = b.Board.Forfeit(player)
		return
	}
	if b.CashCents == nil {
		b.CashCents = map[string]int64{} // empty maps do not survive a continue-as-new (omitempty)
	}
	if b.Knockouts == nil {
		b.Knockouts = map[string]int{}
	}
	for _, sh := range paid.Shares {
		b.CashCents[string(sh.Player)] += sh.CashCents
		b.Knockouts[string(sh.Player)]++
	}
}

// BountyResult is a PKO event's bounties: the pool (the bounty share of every buy-in), the cash
// paid, and each player's winnings. At the end the winner takes his own bounty and the unclaimed
// ones, and PaidCents equals PoolCents to the cent.
type BountyResult struct {
	PoolCents int64 `json:"poolCents"`
	PaidCents int64 `json:"paidCents"`
	// OnHeadsCents is what is still on the heads of the players in (before the end: 0 after it).
	OnHeadsCents int64       `json:"onHeadsCents"`
	Won          []BountyWon `json:"won,omitempty"`
	Errors       []string    `json:"errors,omitempty"`
}

// BountyWon is one player's bounty cash, his own bounty at the end included for the winner.
type BountyWon struct {
	Player    string `json:"player"`
	CashCents int64  `json:"cashCents"`
	Knockouts int    `json:"knockouts"`
}

// BountyResult reads the bounties (nil without them). It never writes: a query calls it.
func (s *TournamentState) BountyResult() *BountyResult {
	b := s.Tools.Bounties
	if b == nil {
		return nil
	}
	r := &BountyResult{PoolCents: b.Board.Rule.PoolCents(s.Entries), PaidCents: b.Board.PaidCents, Errors: b.Errors}
	won := make(map[string]int64, len(b.CashCents)+1)
	for p, c := range b.CashCents {
		won[p] = c
	}
	for p, h := range b.Board.Heads {
		r.OnHeadsCents += h
		if s.Finished && len(b.Board.Heads) == 1 {
			// The winner is paid his own bounty and the unclaimed ones (floor.BountyBoard.Finish).
			won[string(p)] += h + b.Board.UnclaimedCents
			r.PaidCents += h + b.Board.UnclaimedCents
			r.OnHeadsCents = 0
		}
	}
	for p, c := range won {
		r.Won = append(r.Won, BountyWon{Player: p, CashCents: c, Knockouts: b.Knockouts[p]})
	}
	slices.SortFunc(r.Won, func(x, y BountyWon) int {
		return cmp.Or(cmp.Compare(y.CashCents, x.CashCents), cmp.Compare(x.Player, y.Player))
	})
	return r
}
