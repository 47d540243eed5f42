package floor_test

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// A $11 satellite ($1 fee) to a $215 event with 500 entries pays 23 seats and $55 in cash to 24th.
func ExampleSatellitePayout() {
	p, err := floor.SatellitePayout(floor.Entries{Entries: 500, BuyIn: 1100, Fee: 100}, floor.Satellite{TicketCents: 21500})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d seats of %d cents, %d cents cash to place %d\n", p.Seats, p.TicketCents, p.CashCents, p.Seats+1)
	// Output: 23 seats of 21500 cents, 5500 cents cash to place 24
}

// Two players split the pot holding the last chips of a player with a $10.01 bounty: each takes
// half of it, half in cash and half onto his own bounty; the odd cent goes to the first after the
// button and, as a cash share rounds down, onto his bounty.
func ExampleBounty_SplitKnockout() {
	shares, err := floor.Bounty{StartCents: 500}.SplitKnockout(floor.Knockout{Player: "v", BountyCents: 1001, Takers: []floor.BountyTaker{
		{Player: "a", ChipsWon: 2000, LastChips: true}, {Player: "b", ChipsWon: 2000, LastChips: true}, {Player: "c", ChipsWon: 500},
	}})
	if err != nil {
		panic(err)
	}
	for _, s := range shares {
		fmt.Printf("%s: %d cents cash, %d onto his bounty\n", s.Player, s.CashCents, s.HeadCents)
	}
	// Output:
	// a: 250 cents cash, 251 onto his bounty
	// b: 250 cents cash, 250 onto his bounty
}
