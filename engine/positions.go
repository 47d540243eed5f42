package engine

// Positions are where the button and blinds were in the last hand a table completed, from which rules
// B4–B6 place the next hand's; before the first hand, only the drawn button (rule T3, Played false).
//
// A table rebuilt between hands from the tournament's records (a table process restarted after a
// crash, rule D4) continues exactly only if these come back too: under the dead-button rule (B5) the
// next big blind is the player after the last big blind, which the button alone does not tell once
// players around the blinds have gone, and under ButtonSeed000 the button may be held for a hand.
type Positions struct {
	Button     int  // the button's seat; -1 before it was placed
	SmallBlind int  // the small blind's seat (under B5 possibly a seat now empty); -1 before any hand
	BigBlind   int  // the big blind's seat; -1 before any hand
	Played     bool // the positions are a completed hand's; false: the button was drawn, no hand yet
	HoldButton bool // ButtonSeed000: the button stays where it is for the next hand
}

// Positions returns the positions the next hand starts from: those of the last completed hand (a
// void hand, rule D4, moves nothing), or the drawn button before the first hand.
func (t *Table) Positions() Positions {
	p := Positions{Button: int(t.button), SmallBlind: int(t.sbSeat), BigBlind: int(t.bbSeat), Played: t.played, HoldButton: t.holdButton}
	if !p.Played {
		p.SmallBlind, p.BigBlind, p.HoldButton = -1, -1, false
	}
	return p
}

// SetPositions restores the positions saved with Positions, between hands. With Played false it is
// SetButton: the next hand is dealt with the button where it is (rule T3).
func (t *Table) SetPositions(p Positions) error {
	if t.h.phase == Betting {
		return ErrHandInProgress{Rule: "B5"}
	}
	if !p.Played {
		return t.SetButton(p.Button)
	}
	for _, s := range [...]int{p.Button, p.SmallBlind, p.BigBlind} {
		if !t.validSeat(s) {
			return ErrBadSeat{Seat: s, Reason: "no such seat for the button or a blind"}
		}
	}
	t.button, t.sbSeat, t.bbSeat = int8(p.Button), int8(p.SmallBlind), int8(p.BigBlind)
	t.played, t.holdButton = true, p.HoldButton
	return nil
}
