package floor

import (
	"math"
	"math/bits"
	"slices"
)

// MaxICMPlayers is the most players ICM takes: a final table. The work grows as 2^n * n^2.
const MaxICMPlayers = 10

// ICM is each player's expected prize by the Malmuth–Harville model: a player finishes first with
// probability his share of the chips, and, given who finished above, finishes next with his share
// of the chips still in play. prizes[k] is the prize for place k+1 among these players (missing
// places win nothing). The computation is exact (no sampling): the expectation for every subset of
// players still to be placed is worked out once, from the smallest subsets up, 2^n subsets.
func ICM(stacks, prizes []int64) ([]float64, error) {
	n := len(stacks)
	if err := verifyDeal(stacks, prizes); err != nil {
		return nil, err
	}
	prize := func(place int) float64 { // place from 0
		if place < len(prizes) {
			return float64(prizes[place])
		}
		return 0
	}
	// eq[mask*n+j]: player j's expected prize when the players in mask are left to take the
	// places n-|mask| (from 0) downwards.
	eq := make([]float64, (1<<n)*n)
	for mask := 1; mask < 1<<n; mask++ {
		var chips float64
		for i := range n {
			if mask&(1<<i) != 0 {
				chips += float64(stacks[i])
			}
		}
		place := n - bits.OnesCount(uint(mask))
		row := eq[mask*n : mask*n+n]
		for i := range n {
			if mask&(1<<i) == 0 {
				continue
			}
			p := float64(stacks[i]) / chips // i takes the best place left
			row[i] += p * prize(place)
			rest := eq[(mask&^(1<<i))*n:][:n]
			for j := range n {
				if j != i && mask&(1<<j) != 0 {
					row[j] += p * rest[j]
				}
			}
		}
	}
	return slices.Clone(eq[(1<<n-1)*n:]), nil
}

// DealTerms are the terms of a deal the players propose and the director approves.
type DealTerms struct {
	// Unit is the currency unit amounts are rounded to, in minor units; 0 means 1.
	Unit int64 `json:"unit,omitempty"`
	// Reserve is left out of the deal and played for: it comes off first prize before the deal and
	// goes to the winner of the play that continues for the title.
	Reserve int64 `json:"reserve,omitempty"`
}

// ICMDeal shares the prizes still to be won by ICM (see ICM), rounded to the unit and summing
// exactly to the prizes less the reserve: each amount is rounded down and the units left go to the
// largest fractions dropped (ties: the larger stack, then the earlier player).
func ICMDeal(stacks, prizes []int64, terms DealTerms) ([]int64, error) {
	prizes, err := dealPrizes(stacks, prizes, terms)
	if err != nil {
		return nil, err
	}
	eq, err := ICM(stacks, prizes)
	if err != nil {
		return nil, err
	}
	return apportion(eq, sum64(prizes), terms.Unit, stacks), nil
}

// ChipChop shares the prizes still to be won by chips: each player is sure of the lowest prize
// left, and the rest is shared in proportion to chips; rounded as ICMDeal rounds. Unlike ICM it
// can give a big chip leader more than first prize; the players see both before they agree.
func ChipChop(stacks, prizes []int64, terms DealTerms) ([]int64, error) {
	prizes, err := dealPrizes(stacks, prizes, terms)
	if err != nil {
		return nil, err
	}
	n := len(stacks)
	floor := int64(0)
	if len(prizes) == n {
		floor = prizes[n-1]
	}
	total := sum64(prizes)
	above := float64(total - int64(n)*floor)
	chips := float64(sum64(stacks))
	exact := make([]float64, n)
	for i, s := range stacks {
		exact[i] = float64(floor) + above*float64(s)/chips
	}
	return apportion(exact, total, terms.Unit, stacks), nil
}

func verifyDeal(stacks, prizes []int64) error {
	n := len(stacks)
	if n < 2 || n > MaxICMPlayers {
		return ruleErr("R6", "a deal is for 2 to %d players, not %d", MaxICMPlayers, n)
	}
	if len(prizes) > n {
		return ruleErr("R6", "%d prizes for %d players", len(prizes), n)
	}
	for i, s := range stacks {
		if s <= 0 {
			return ruleErr("R6", "player %d has %d chips: only players still in can deal", i+1, s)
		}
	}
	for k, p := range prizes {
		if p < 0 || (k > 0 && p > prizes[k-1]) {
			return ruleErr("R6", "prize for place %d (%d) is negative or above the place before", k+1, p)
		}
	}
	return nil
}

func dealPrizes(stacks, prizes []int64, terms DealTerms) ([]int64, error) {
	if err := verifyDeal(stacks, prizes); err != nil {
		return nil, err
	}
	if terms.Reserve == 0 {
		return prizes, nil
	}
	if len(prizes) == 0 || terms.Reserve < 0 || prizes[0]-terms.Reserve < secondPrize(prizes) {
		return nil, ruleErr("R6", "a reserve of %d would leave first prize below second", terms.Reserve)
	}
	prizes = slices.Clone(prizes)
	prizes[0] -= terms.Reserve
	return prizes, nil
}

func secondPrize(prizes []int64) int64 {
	if len(prizes) > 1 {
		return prizes[1]
	}
	return 0
}

func sum64(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// apportion rounds exact shares of total down to unit and gives the units left, one each, to the
// largest fractions dropped (ties: the larger stack, then the lower index); a part smaller than a
// unit goes to the largest stack. The result adds up to total exactly.
func apportion(exact []float64, total, unit int64, stacks []int64) []int64 {
	if unit <= 0 {
		unit = 1
	}
	out := make([]int64, len(exact))
	frac := make([]float64, len(exact))
	left := total
	for i, x := range exact {
		u := math.Floor(x / float64(unit))
		out[i] = int64(u) * unit
		frac[i] = x/float64(unit) - u
		left -= out[i]
	}
	order := make([]int, len(exact))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case frac[a] != frac[b]:
			if frac[a] > frac[b] {
				return -1
			}
			return 1
		case stacks[a] != stacks[b]:
			if stacks[a] > stacks[b] {
				return -1
			}
			return 1
		}
		return 0
	})
	for k := 0; left >= unit; k = (k + 1) % len(order) {
		out[order[k]] += unit
		left -= unit
	}
	if left != 0 {
		leader := 0
		for i, s := range stacks {
			if s > stacks[leader] {
				leader = i
			}
		}
		out[leader] += left
	}
	return out
}
