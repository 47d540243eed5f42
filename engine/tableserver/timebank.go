package tableserver

import (
	"fmt"
	"time"
)

// ActionClock is the clock of rule A15 as a live table runs it, like the big sites: the think time,
// then the player's time bank, then the countdown; at its end the hand is folded (or checked when
// free, by the table's engine.Config.Expiry).
type ActionClock struct {
	Think     time.Duration
	Countdown time.Duration
	Bank      TimeBank
}

// TimeBank is the extra time each player may draw on when his think time is over. The tournament
// sets its size, what is added and when, and whether it resets.
type TimeBank struct {
	Initial time.Duration // each player's bank when he sits down
	// PerLevel is added to every bank when the blind level changes; with ResetEachLevel the bank is
	// set back to Initial instead.
	PerLevel       time.Duration
	ResetEachLevel bool
	// PerHands is added to every bank once every EveryHands hands (the table's hand numbers).
	PerHands   time.Duration
	EveryHands int
	// Max caps a bank (0: no cap).
	Max time.Duration
}

// DefaultActionClock: 30 seconds to think, a 30-second bank topped up by 10 seconds a level up to a
// minute, then a 10-second countdown.
var DefaultActionClock = ActionClock{Think: 30 * time.Second, Countdown: 10 * time.Second,
	Bank: TimeBank{Initial: 30 * time.Second, PerLevel: 10 * time.Second, Max: 60 * time.Second}}

// Check says what is wrong with the clock's settings.
func (c ActionClock) Check() error {
	b := c.Bank
	switch {
	case c.Think <= 0:
		return fmt.Errorf("action clock: the think time must be positive, not %v (rule A15)", c.Think)
	case c.Countdown < 0 || b.Initial < 0 || b.PerLevel < 0 || b.PerHands < 0 || b.Max < 0:
		return fmt.Errorf("action clock: the countdown and the time bank's amounts cannot be negative")
	case b.PerHands > 0 && b.EveryHands <= 0:
		return fmt.Errorf("time bank: %v added every %d hands: give a positive number of hands", b.PerHands, b.EveryHands)
	case b.Max > 0 && b.Initial > b.Max:
		return fmt.Errorf("time bank: the initial %v is over the cap of %v", b.Initial, b.Max)
	}
	return nil
}

// refill returns a bank after a hand starts: levelChanged when the level differs from the last hand's,
// hand the new hand's number.
func (b TimeBank) refill(bank time.Duration, levelChanged bool, hand int64) time.Duration {
	if levelChanged {
		if b.ResetEachLevel {
			bank = b.Initial
		} else {
			bank += b.PerLevel
		}
	}
	if b.EveryHands > 0 && hand > 0 && hand%int64(b.EveryHands) == 0 {
		bank += b.PerHands
	}
	if b.Max > 0 {
		bank = min(bank, b.Max)
	}
	return bank
}
