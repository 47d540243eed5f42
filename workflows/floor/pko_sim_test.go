package floor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// rules R5, R6, R7 over random PKO tournaments with rebuys and add-ons, the pure parts together
// as a workflow will drive them: the money paid in is fees, prize pool and bounty pool to the
// cent; the places streamed pay the prize pool exactly; the bounty cash paid (the record's count,
// the board's and the players' rows alike) is the bounty share of the buy-ins exactly.
func TestPKOTournamentPropertyR6(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	for game := 0; game < 200; game++ {
		n := 20 + rng.IntN(400)
		b := BuyIns{
			Entries:       Entries{Entries: n, Rebuys: rng.IntN(n), BuyIn: 1100 + rng.Int64N(10000), Fee: 100},
			AddOns:        rng.IntN(n),
			AddOn:         AddOn{Chips: 10000, PriceCents: 1000, FeeCents: rng.Int64N(100)},
			StartingStack: 10000,
		}
		b.Bounty = Bounty{StartCents: 1 + rng.Int64N(b.Entries.BuyIn-b.Entries.Fee-1), CashPercent: []int{0, 50, 25, 100}[rng.IntN(4)]}
		if rng.IntN(2) == 0 {
			b.Bounty.Split = BountyChipsWon
		}
		purse, err := b.Purse()
		if err != nil {
			t.Fatal(err)
		}
		if purse.FeesCents+purse.PrizePoolCents+purse.BountyPoolCents != purse.PaidInCents {
			t.Fatalf("purse %+v does not add up", purse)
		}
		pay, err := b.Payouts(PayoutStructure{})
		if err != nil {
			t.Fatal(err)
		}
		board, err := NewBountyBoard(b.Bounty)
		if err != nil {
			t.Fatal(err)
		}
		var in []PlayerID
		for i := range n {
			p := PlayerID(fmt.Sprintf("p%d", i))
			if err := board.Enter(p); err != nil {
				t.Fatal(err)
			}
			in = append(in, p)
		}
		rec := NewTournamentRecord(n, 0)
		won := map[PlayerID]int64{}
		var prizes, rowBounties int64
		rows := 0
		emit := func(r PlaceRow) { prizes += r.PrizeCents; rowBounties += r.BountiesWonCents; rows++ }
		level := 1
		for len(in) > 1 {
			rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
			k := min(1+rng.IntN(2), len(in)-1)
			victims, survivors := in[:k], slices.Clone(in[k:])
			g := BustGroup{Level: level}
			for _, v := range victims {
				var takers []BountyTaker
				for _, j := range rng.Perm(len(survivors))[:1+rng.IntN(min(2, len(survivors)))] {
					takers = append(takers, BountyTaker{Player: survivors[j], ChipsWon: 1 + rng.Int64N(5000), LastChips: true})
				}
				ko, err := board.Knockout(Knockout{Player: v, Takers: takers})
				if err != nil {
					t.Fatal(err)
				}
				var cash int64
				var by []PlayerID
				for _, s := range ko.Shares {
					cash += s.CashCents
					won[s.Player] += s.CashCents
					by = append(by, s.Player)
				}
				g.Busts = append(g.Busts, Bust{Player: v, Stack: 1 + rng.Int64N(3), Eliminators: by, BountyPaidCents: cash, BountiesWonCents: won[v]})
			}
			if err := rec.Bust(g, pay, emit); err != nil {
				t.Fatal(err)
			}
			in = survivors
			if rng.IntN(20) == 0 {
				level++
			}
		}
		final, err := board.Finish(in[0])
		if err != nil {
			t.Fatal(err)
		}
		won[in[0]] += final
		if err := rec.Finish(Win{Player: in[0], Chips: purse.Chips, Level: level, BountyPaidCents: final, BountiesWonCents: won[in[0]]}, pay, emit); err != nil {
			t.Fatal(err)
		}
		if rows != n || prizes != purse.PrizePoolCents {
			t.Fatalf("%d rows, prizes %d, pool %d", rows, prizes, purse.PrizePoolCents)
		}
		if rec.BountiesPaidCents != purse.BountyPoolCents || board.PaidCents != purse.BountyPoolCents || rowBounties != purse.BountyPoolCents {
			t.Fatalf("bounties paid: record %d, board %d, rows %d; the buy-ins' bounty share %d", rec.BountiesPaidCents, board.PaidCents, rowBounties, purse.BountyPoolCents)
		}
	}
}
