package engine

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/eval"
)

// EventKind says what happened.
type EventKind uint8

const (
	EvHandStart   EventKind = iota + 1 // Amount: hand number; Seat: the button's seat
	EvAnte                             // Seat posts an ante of Amount (dead money under AnteBigBlind)
	EvSmallBlind                       // Seat posts the small blind, Amount
	EvBigBlind                         // Seat posts the big blind, Amount
	EvHole                             // Seat was dealt Cards[:2] face down, one at a time in two rounds (D2)
	EvKill                             // Seat's hand is killed at its first turn (at the deal when all-in; Amount 1: before its turn, every live opponent gone): sitting out (T4, T5), penalised (P3), passed (L8)
	EvFold                             // Seat folds
	EvCheck                            // Seat checks
	EvCall                             // Seat calls Amount; To is the seat's bet in the round
	EvBet                              // Seat bets To (Amount chips)
	EvRaise                            // Seat raises to To (Amount chips more)
	EvUncalled                         // Amount of Seat's bet that nobody called goes back to it
	EvBoard                            // board cards for Round: Cards[:N], after burning Burn (D3; Burn in the full log only)
	EvShow                             // Seat shows Cards[:2]
	EvMuck                             // Seat mucks (rule S6)
	EvWin                              // Seat wins Amount from pot number Pot
	EvEliminated                       // Seat is eliminated; Amount: its stack at the start of the hand (R7)
	EvHandEnd                          // the hand is over and the pot pushed
	EvVoid                             // the hand is void (rule D4): every chip went back
	EvTimeExpired                      // Seat's clock expired (rule A15); the fold or check follows
	EvOutOfTurn                        // Seat declared Action(Amount) (to To for a bet or raise) out of turn at a live table (rule A14)
	EvLive                             // a live dealing procedure Proc (RULES.md L), about Seat and Cards[:N]
)

var eventNames = [...]string{"", "hand", "ante", "small blind", "big blind", "hole", "kill",
	"fold", "check", "call", "bet", "raise", "uncalled", "board", "show", "muck", "win",
	"eliminated", "end", "void", "time expired", "out of turn", "live procedure"}

func (k EventKind) String() string {
	if int(k) < len(eventNames) && k != 0 {
		return eventNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is one entry of a hand's log. The log, with the table's state before the hand, is enough to
// replay the hand exactly (see Replay). Events are plain values; the log reuses its buffer hand to
// hand.
type Event struct {
	Kind   EventKind
	Seat   int8 // 0 for the events of no seat (hand start's is the button, board, end, void)
	Round  Round
	AllIn  bool
	N      uint8 // number of Cards used
	Pot    uint8
	Proc   Procedure // EvLive: the procedure applied
	Burn   eval.Card // EvBoard: the card burned before it (D3); NoCard when hidden
	Cards  [5]eval.Card
	Amount int64
	To     int64
}

// CardList returns the event's cards.
func (e Event) CardList() []eval.Card { return e.Cards[:e.N] }

func (e Event) String() string {
	allIn := ""
	if e.AllIn {
		allIn = " all-in"
	}
	switch e.Kind {
	case EvHandStart:
		return fmt.Sprintf("hand #%d, button seat %d", e.Amount, e.Seat)
	case EvAnte, EvSmallBlind, EvBigBlind:
		return fmt.Sprintf("seat %d posts %s %d%s", e.Seat, e.Kind, e.Amount, allIn)
	case EvHole:
		if e.N == 0 {
			return fmt.Sprintf("seat %d is dealt two cards", e.Seat)
		}
		return fmt.Sprintf("seat %d is dealt %s", e.Seat, eval.CardsString(e.CardList()))
	case EvKill:
		return fmt.Sprintf("seat %d's hand is killed (absent or dead)", e.Seat)
	case EvFold, EvCheck, EvMuck, EvTimeExpired:
		return fmt.Sprintf("seat %d: %s", e.Seat, e.Kind)
	case EvCall:
		return fmt.Sprintf("seat %d calls %d%s", e.Seat, e.Amount, allIn)
	case EvBet:
		return fmt.Sprintf("seat %d bets %d%s", e.Seat, e.To, allIn)
	case EvRaise:
		return fmt.Sprintf("seat %d raises to %d%s", e.Seat, e.To, allIn)
	case EvUncalled:
		return fmt.Sprintf("%d uncalled returned to seat %d", e.Amount, e.Seat)
	case EvBoard:
		return fmt.Sprintf("%s: %s", e.Round, eval.CardsString(e.CardList()))
	case EvShow:
		return fmt.Sprintf("seat %d shows %s", e.Seat, eval.CardsString(e.CardList()))
	case EvWin:
		return fmt.Sprintf("seat %d wins %d from pot %d", e.Seat, e.Amount, e.Pot)
	case EvEliminated:
		return fmt.Sprintf("seat %d is eliminated (started the hand with %d)", e.Seat, e.Amount)
	case EvOutOfTurn:
		if e.To > 0 {
			return fmt.Sprintf("seat %d declares %v %d out of turn", e.Seat, Action(e.Amount), e.To)
		}
		return fmt.Sprintf("seat %d declares %v out of turn", e.Seat, Action(e.Amount))
	case EvLive:
		if e.N > 0 {
			return fmt.Sprintf("%v: seat %d, %s", e.Proc, e.Seat, eval.CardsString(e.CardList()))
		}
		return fmt.Sprintf("%v: seat %d", e.Proc, e.Seat)
	case EvHandEnd:
		return "hand over"
	case EvVoid:
		return "hand void, every chip returned"
	}
	return e.Kind.String()
}
