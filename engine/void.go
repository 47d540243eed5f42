package engine

// Void declares the hand in progress void (rule D4: an irregular deck, a misdeal, a crash): every
// chip goes back to whoever put it in, the button does not move, and the next StartHand deals the
// hand again with the same number.
func (t *Table) Void() error {
	if t.h.phase != Betting {
		return ErrNoHand{Phase: t.h.phase}
	}
	t.void()
	return nil
}

func (t *Table) void() {
	h := &t.h
	for s := int8(0); s < t.n; s++ {
		if h.dealt[s] || h.startState[s] != t.seats[s].state {
			t.seats[s].stack = h.startStack[s]
			t.seats[s].state = h.startState[s]
		}
		h.put[s], h.bet[s] = 0, 0
	}
	h.dead = 0
	h.phase = Voided
	h.toAct = -1
	t.ev(EvVoid, 0, 0, 0)
}
