package engine

import (
	"fmt"
)

// Replay plays a hand again from its header and event log (see Header and Log) on a new table, and
// returns the table: its log equals the one given, event for event (advance actions, A14, replay as
// the actions they became). It is the proof that a log says
// everything about a hand, and the way to audit one: the deck is scripted from the dealt cards of the
// log, and every action goes through the rules again.
func Replay(hd Header, log []Event) (*Table, error) {
	// The deck in drawing order: the first hole card of each player, the second of each (D2), then
	// burns and boards as they came.
	if hd.Config.Live {
		return nil, fmt.Errorf("a live table's hand was dealt by its dealer's reports (rules D1, L): replay its PHH history")
	}
	var deck ScriptedDeck
	for round := 0; round < 2; round++ {
		for _, e := range log {
			if e.Kind == EvHole {
				deck.Cards = append(deck.Cards, e.Cards[round])
			}
		}
	}
	for _, e := range log {
		if e.Kind == EvBoard {
			deck.Cards = append(deck.Cards, e.Burn)
			deck.Cards = append(deck.Cards, e.Cards[:e.N]...)
		}
	}
	t, err := NewTable(hd.Config, hd.Level, &deck)
	if err != nil {
		return nil, err
	}
	for s, p := range hd.Seats[:hd.Config.Seats] {
		if p.Occupied {
			if err := t.Sit(s, p.ID, p.Stack, p.State); err != nil {
				return nil, err
			}
		}
	}
	t.handNumber = hd.Number - 1
	if err := t.StartHandAt(hd.Button, hd.SmallBlind, hd.BigBlind); err != nil {
		return nil, err
	}
	for i, e := range log {
		if i < len(t.log) {
			continue // the table made this event itself (a kill, an expiry's fold, a declaration done)
		}
		var err error
		switch e.Kind {
		case EvOutOfTurn:
			_, err = t.DeclareOutOfTurn(int(e.Seat), Action(e.Amount), e.To)
		case EvFold, EvCheck, EvCall, EvBet, EvRaise:
			if i > 0 && log[i-1].Kind == EvTimeExpired {
				continue // done by the expiry
			}
			var a Action
			switch e.Kind {
			case EvFold:
				a = Fold
			case EvCheck:
				a = Check
			case EvCall:
				a = Call
			case EvBet:
				a = Bet
			case EvRaise:
				a = Raise
			}
			_, err = t.Act(int(e.Seat), a, e.To)
		case EvTimeExpired:
			_, since := t.Clock()
			_, err = t.TimeExpired(int(e.Seat), since)
		case EvVoid:
			if t.Phase() == Betting {
				err = t.Void()
			}
		}
		if err != nil {
			return t, fmt.Errorf("event %d (%v): %w", i, e, err)
		}
	}
	if len(t.log) != len(log) {
		return t, fmt.Errorf("the replay has %d events, the log %d", len(t.log), len(log))
	}
	for i := range log {
		if t.log[i] != log[i] {
			return t, fmt.Errorf("event %d: replayed %v, logged %v", i, t.log[i], log[i])
		}
	}
	return t, nil
}
