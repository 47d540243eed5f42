// Package report holds what a table and its tournament tell each other between hands: the
// table's State before the next hand (seats, stacks, level, button, and what to do: play, wait or
// close), the HandResult of each hand played, and the Reporter through which a table sends its
// results and hears what comes next. A TableWorkflow is the Reporter in production and in the local
// run (package workflows implements it, cmd wires it in); host.LocalReporter is one for a table on
// its own.
//
// It is plain data with no behaviour beyond its checks, so that the table runtime (engine/host),
// the WebSocket server and the workflows share one definition and none imports another.
package report

import (
	"context"
	"fmt"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
)

// Directive says what a table does next.
type Directive uint8

const (
	// Play deals the next hand (or the next Batch of hands).
	Play Directive = iota
	// Wait deals nothing for now: the tournament is paused or on a break, or the table waits for the
	// others in hand-for-hand play. Ask again after State.WaitFor.
	Wait
	// Close ends the table: it was broken, or the tournament is over.
	Close
)

var directiveNames = [...]string{"play", "wait", "close"}

func (d Directive) String() string {
	if int(d) < len(directiveNames) {
		return directiveNames[d]
	}
	return "unknown"
}

// SeatState is one occupied seat between hands.
type SeatState struct {
	Seat   int                `json:"seat"` // 0-based
	Player string             `json:"player"`
	Stack  int64              `json:"stack"`
	State  engine.PlayerState `json:"state"`
}

// State is a table as the tournament holds it before the next hand.
type State struct {
	TableID    string        `json:"tableID"`
	Directive  Directive     `json:"directive"`
	WaitFor    time.Duration `json:"waitFor,omitempty"`
	HandNumber int64         `json:"handNumber"` // of the last hand acknowledged; the next is one more
	Level      engine.Level  `json:"level"`      // applies from the next hand (rule B3)
	Config     engine.Config `json:"config"`
	Seats      []SeatState   `json:"seats"`
	// Button is the seat the button was on in the last hand acknowledged, or, before the first
	// hand, the seat the draw gave it (rule T3).
	Button int `json:"button"`
	// FirstHand is true until the table has played a hand: the button stays where it was drawn.
	FirstHand bool `json:"firstHand"`
	// Positions are the button and blinds of the last hand acknowledged, as its HandResult gave
	// them: the next hand's follow from them by rules B4–B6. Under the dead-button rule (B5) the
	// next big blind follows the last big blind, which Button alone does not tell once players near
	// the blinds have gone; a table rebuilt from this State (after a restart) continues exactly. A
	// reporter that does not keep them leaves Played false, and the table derives the blinds from
	// Button (exact unless players around the blinds left since).
	Positions engine.Positions `json:"positions"`
	// Batch is how many hands the table may play before it reports: 1 in live play; more in a
	// simulation at full speed, where a crash voids the hands not yet reported.
	Batch int `json:"batch"`
	// Levels, in a simulation (whose clock is the hands dealt), are the levels that start during
	// the batch, in order: each applies from hand From on (B3), so that a batch may cross a level
	// change at the exact hand the schedule says. Level is the first hand's.
	Levels []LevelFrom `json:"levels,omitempty"`
	// Credit, when not 0, is the last hand the table may deal in the batch, and Slide moves it on
	// past every hand in which nobody was eliminated: a simulation near the bubble deals on
	// through the hands that leave the field as the floor knows it, up to Batch of them, and
	// stops after the first hand with an elimination past its credit, the news the floor must
	// hear before the table deals on (Go says whether to deal the next hand).
	Credit int64 `json:"credit,omitempty"`
	Slide  bool  `json:"slide,omitempty"`
	// BustHands counts the hands with an elimination the table has dealt before the batch, and
	// BustCredit how many of them it may have dealt and still slide on past one (0: none): far
	// from the bubble the floor lets a table deal on past an elimination while it hears of it.
	BustHands  int64 `json:"bustHands,omitempty"`
	BustCredit int64 `json:"bustCredit,omitempty"`
}

// Go says whether the table, having dealt hand n of a batch (eliminated: somebody was eliminated
// in it), may deal the next hand as far as the credit goes: with Slide a hand without an
// elimination moves the credit on by one, and so does one with an elimination while the hands
// with one are within BustCredit. Batch bounds the batch apart from this.
func (s *State) Go(n int64, eliminated bool) bool {
	if eliminated {
		s.BustHands++
	}
	if s.Credit == 0 {
		return true
	}
	if s.Slide && (!eliminated || s.BustHands <= s.BustCredit) {
		s.Credit = max(s.Credit, n+1)
	}
	return n < s.Credit
}

// LevelFrom is a level that applies from hand number From on.
type LevelFrom struct {
	From  int64        `json:"from"`
	Level engine.Level `json:"level"`
}

// SeatStack is a player's stack at a seat.
type SeatStack struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Stack  int64  `json:"stack"`
}

// HandResult is what one hand changed at a table.
type HandResult struct {
	TableID    string       `json:"tableID"`
	HandNumber int64        `json:"handNumber"`
	Voided     bool         `json:"voided,omitempty"` // rule D4: every chip went back
	Button     int          `json:"button"`
	Level      engine.Level `json:"level"`
	Start      []SeatStack  `json:"start"` // stacks before the hand, every seat dealt in or not
	End        []SeatStack  `json:"end"`   // stacks after it
	// Eliminated lists the players left with no chips, with their stacks at the start of the hand
	// (rule R7 places them by it).
	Eliminated []engine.Elimination `json:"eliminated,omitempty"`
	// Knockouts says, for each player eliminated, who won his last chips: the winners of the pot
	// holding the top of his stack (engine.Table.LastChipsWinners), which a progressive knockout
	// pays his bounty to.
	Knockouts []Knockout `json:"knockouts,omitempty"`
	// Absent are the players of the hand who have not come to the table (T4): their seat is
	// played by no bot and no connection of theirs has joined the table's process. Only a served
	// table (engine/tableserver) knows; a table of bots lists nobody.
	Absent []string `json:"absent,omitempty"`
	// History is the hand in PHH, for the record; empty where the tournament does not keep them.
	History string `json:"history,omitempty"`
	// Positions are the button and blinds the next hand moves from (B4–B6): keep them and give
	// them back in State.Positions. A void hand leaves them as they were.
	Positions engine.Positions `json:"positions"`
}

// Knockout is one player eliminated and the players who won his last chips, in S2's order from
// the first seat after the button (several when they split that pot).
type Knockout struct {
	Player string   `json:"player"`
	By     []string `json:"by"`
}

// Reporter is the tournament's side of a table: a TableWorkflow behind a Temporal Update in
// production and in the local run; a plain in-memory director for a table on its own (host.LocalReporter).
type Reporter interface {
	// Report acknowledges the hands played since the last call (none on the first call, nor after a
	// restart) and returns the table's State for what comes next. Reporting a hand twice is
	// harmless: the reporter keys results by (table, hand number). A void hand (rule D4) keeps its
	// number: the hand dealt again after it carries the same one.
	//
	// The table reuses results and the slices in them once Report returns: a reporter copies what
	// it keeps. An error the table should not retry (the results contradict the reporter's
	// records) is a *RejectedError; any other error is retried with backoff.
	Report(ctx context.Context, tableID string, results []HandResult) (State, error)
}

// RejectedError is a reporter's refusal of a report that no retry can fix: the results contradict
// what the reporter holds (chips created or lost, a hand number skipped, a player who is not
// there). The reporter changed nothing; the table stops rather than play on from a state the
// tournament does not share.
type RejectedError struct {
	TableID    string
	HandNumber int64
	Reason     string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("table %s: hand %d rejected: %s", e.TableID, e.HandNumber, e.Reason)
}
