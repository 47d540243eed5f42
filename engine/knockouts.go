package engine

import "math/bits"

// LastChipsWinners returns the seats that won the last chips of the player in seat, in the last
// completed hand: the winners of the highest pot he was eligible for, which holds the top of his
// stack (S3: each level of the players' contributions makes a pot, his last chips went into the
// highest he reached), in S2's order, from the first seat after the button. A progressive
// knockout pays its bounty to them (the big sites' "last chips" rule). A player in no pot at the
// end (he folded) lost his chips to the main pot: its winners are returned. It returns nil before
// a hand is complete, or when no pot has a winner.
func (t *Table) LastChipsWinners(seat int) []int {
	h := &t.h
	if h.phase != Complete || seat < 0 || seat >= MaxSeats {
		return nil
	}
	r := &h.result
	var winners uint16
	for i := r.NPots - 1; i >= 0; i-- {
		if r.Pots[i].Eligible&(1<<uint(seat)) != 0 {
			winners = r.Pots[i].Winners
			break
		}
	}
	if winners == 0 && r.NPots > 0 {
		winners = r.Pots[0].Winners
	}
	var out []int
	for m := clockwise(winners, h.button); m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m)%16)
	}
	return out
}
