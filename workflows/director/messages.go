package director

import (
	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Order is one instruction from the tournament to a table, applied between hands, in Seq order.
// Exactly one of the pointer fields is set.
type Order struct {
	// Seq numbers the orders to one table from 1; the table acknowledges the last applied in every
	// TableEvent, and applies each once whatever the delivery order.
	Seq         int               `json:"seq"`
	Seat        *SeatOrder        `json:"seat,omitempty"`
	MoveOut     *MoveOutOrder     `json:"moveOut,omitempty"`
	Level       *LevelOrder       `json:"level,omitempty"`
	Pause       *bool             `json:"pause,omitempty"`
	Hold        *bool             `json:"hold,omitempty"`
	Batch       *int              `json:"batch,omitempty"`  // hands between reports from now on
	Credit      *int64            `json:"credit,omitempty"` // the last hand the table may deal (a simulation)
	Last        *bool             `json:"last,omitempty"`   // the table is the last and nobody can join it (a simulation)
	HandForHand *HandForHandOrder `json:"handForHand,omitempty"`
	Sanction    *SanctionOrder    `json:"sanction,omitempty"`
	Rebuy       *RebuyOrder       `json:"rebuy,omitempty"`
	ColorUp     *ColorUpOrder     `json:"colorUp,omitempty"`
	Close       *CloseTableOrder  `json:"close,omitempty"`
	Tool        *ToolOrder        `json:"tool,omitempty"` // a director's tool (tools.go)

	// Slide: the credit runs on past every hand in which nobody was eliminated (a simulation near
	// the bubble), so that only a hand with an elimination waits for the floor.
	Slide *bool `json:"slide,omitempty"`
	// BustCredit: with a sliding credit, the table deals on past a hand with an elimination
	// while the hands with one it has dealt (TableState.BustHands) are at most this many (0:
	// none; a simulation far from the rounds, TournamentState.approachSpare).
	BustCredit *int64 `json:"bustCredit,omitempty"`
	// Continue answers a table that asked to continue as new (TableEvent.Continuing): this is
	// the last order its section signals it until its next run says it is up (TableEvent.Resumed),
	// so that no signal comes in while the table continues as new (link.go). It changes nothing
	// at the table.
	Continue *bool `json:"continue,omitempty"`
	// Quiet asks the table to send nothing more (from PaceQuiet): its section is about to continue
	// as new, which the server refuses while a signal comes in during that task. The table
	// answers with one event (TableEvent.Quiet) and then keeps its news until an order past this
	// one comes (the section's next run sends one at once: Quiet false). It changes nothing at the
	// table (link.go, "Quiet").
	Quiet *bool `json:"quiet,omitempty"`
}

// SeatOrder seats a player who arrives at the table: moved in (R3, R4) or newly registered.
type SeatOrder struct {
	Player string           `json:"player"`
	Seat   floor.Seat       `json:"seat"` // the seat the floor chose
	Stack  int64            `json:"stack"`
	Away   int              `json:"away,omitempty"` // hands of an exclusion still to serve (P2)
	Reason floor.MoveReason `json:"reason,omitempty"`
	// NewEntry marks a player registered during late registration, not moved.
	NewEntry bool `json:"newEntry,omitempty"`
}

// MoveOutOrder takes a player off the table, to seat him at another (R3, R4).
type MoveOutOrder struct {
	// Ref identifies the move from the order to the seat kept at the other table.
	Ref    int    `json:"ref"`
	Player string `json:"player"`
	// NextBigBlind: the player due the big blind next moves, whoever that is when the order is
	// applied (R3); Player is the floor's guess, which the table's hands may have made stale.
	NextBigBlind bool             `json:"nextBigBlind,omitempty"`
	To           floor.TableID    `json:"to"`
	ToSeat       floor.Seat       `json:"toSeat"`
	Reason       floor.MoveReason `json:"reason"`
	// Section, when not 0, sends the player to another section of the tournament (To is then 0):
	// that section seats him.
	Section int `json:"section,omitempty"`
}

// LevelOrder sets the blinds from the next hand (B3), or holds the table on a break.
type LevelOrder struct {
	Number  int          `json:"number"`
	Level   engine.Level `json:"level"`
	OnBreak bool         `json:"onBreak,omitempty"`
}

// HandForHandOrder lets the table deal one hand of round Round (R7); Round 0 ends hand-for-hand.
type HandForHandOrder struct {
	Round int `json:"round"`
	// Skip: the table deals no hand in this round (it waits for players, TablesToHold).
	Skip bool `json:"skip,omitempty"`
}

// SanctionOrder applies a sanction the director gave (P1-P5) from the next hand.
type SanctionOrder struct {
	Ref    int                `json:"ref"` // index of the record in the tournament's sanctions
	Player string             `json:"player"`
	Kind   floor.SanctionKind `json:"kind"`
	Rounds int                `json:"rounds,omitempty"`
}

// RebuyOrder puts chips bought in front of a player at once (R1 policy, 003 r18).
type RebuyOrder struct {
	Ref    int    `json:"ref"` // the index of the record in the tournament's RebuyLog
	Player string `json:"player"`
	Chips  int64  `json:"chips"`
	// MaxStack is the most chips the player may have for the rebuy (R1: at or below the starting
	// stack); the table checks it on the stack after its last hand, which only it knows.
	MaxStack int64 `json:"maxStack,omitempty"`
	// Refused, in a TableEvent, says why the table did not put the chips in front of the player
	// (Chips is then 0): he was gone, or had too many chips.
	Refused string `json:"refused,omitempty"`
}

// ColorUpOrder colours the table up between hands (R8): the chips of Removed leave play, Next is
// the smallest left; the odd chips are raced with a deck shuffled from Seed.
type ColorUpOrder struct {
	Removed int64  `json:"removed"`
	Next    int64  `json:"next"`
	Seed    uint64 `json:"seed"`
}

// AppliedColorUp is a colour-up as a table made it: the chips the race added (negative: removed),
// who won a chip, who was given one (nobody is raced out), or why it could not be made.
type AppliedColorUp struct {
	Removed int64            `json:"removed"`
	Next    int64            `json:"next"`
	Hand    int64            `json:"hand"`
	Added   int64            `json:"added,omitempty"`
	Winners []floor.PlayerID `json:"winners,omitempty"`
	Saved   []floor.PlayerID `json:"saved,omitempty"`
	Error   string           `json:"error,omitempty"`
}

// CloseTableOrder ends the table: it was broken, or the tournament is over.
type CloseTableOrder struct{}

// TableEvent is what a table tells the tournament: only what changes the tournament (players,
// eliminations, moves, sanctions applied), with the table's layout as it stands, so that the
// tournament's view of every table is never older than the table's last news.
type TableEvent struct {
	Table floor.TableID `json:"table"`
	// Seq numbers a table's events from 1, so that the tournament takes them in order.
	Seq int `json:"seq"`
	// Acked is the Seq of the last order applied.
	Acked       int   `json:"acked"`
	Hand        int64 `json:"hand"`        // the last hand acknowledged
	HandsPlayed int64 `json:"handsPlayed"` // hands dealt at this table (void ones excluded)
	Level       int   `json:"level"`       // the number of the level the next hand plays
	// Seats is the layout now: Seats[i] is seat i+1's player or "", Stacks their chips.
	Seats     []string          `json:"seats"`
	Stacks    []int64           `json:"stacks"`
	Button    floor.Seat        `json:"button"`
	BigBlind  floor.Seat        `json:"bigBlind"`
	Busts     []BustGroup       `json:"busts,omitempty"`
	Out       []MovedOut        `json:"out,omitempty"`
	Gone      []MoveOutOrder    `json:"gone,omitempty"` // moves whose player was no longer here
	Seated    []string          `json:"seated,omitempty"`
	Refused   []RefusedSeat     `json:"refused,omitempty"`
	Sanctions []AppliedSanction `json:"sanctions,omitempty"`
	Rebuys    []RebuyOrder      `json:"rebuys,omitempty"`
	ColorUps  []AppliedColorUp  `json:"colorUps,omitempty"`
	Tools     []ToolDone        `json:"tools,omitempty"`
	// Absent are the players who have not come to the table since they sat here (T4: the served
	// table's results list them), told once; Arrived those of them who have come since.
	Absent  []string `json:"absent,omitempty"`
	Arrived []string `json:"arrived,omitempty"`
	// HandForHand is the last hand-for-hand round this table has played (or skipped).
	HandForHand int  `json:"handForHand,omitempty"`
	Closed      bool `json:"closed,omitempty"`

	// Credit, while the table's credit slides (Order.Slide), is the last hand it may deal now.
	Credit int64 `json:"credit,omitempty"`
	// BustHands counts the hands with an elimination the table has dealt (TableState.BustHands).
	BustHands int64 `json:"bustHands,omitempty"`
	// Continuing: the table's run is due to continue as new and waits for its section's
	// Order.Continue to do so; Resumed: this run (a first one, or the one that continued it) is
	// up, and the section's orders may come (again; link.go).
	Continuing bool `json:"continuing,omitempty"`
	Resumed    bool `json:"resumed,omitempty"`
	// CanQuiet says the table's run keeps quiet when its section asks (Order.Quiet); Quiet is
	// the Seq of the Quiet order this event answers: the table sends nothing after it until an
	// order past that one comes.
	CanQuiet bool `json:"canQuiet,omitempty"`
	Quiet    int  `json:"quiet,omitempty"`
	// Replies says the table's run takes the orders its section answers its events' Update with
	// (from PaceOrdersInReply; the workflows' TableEventsUpdate).
	Replies bool `json:"replies,omitempty"`
	// Gap is the Seq of the first order the table holds past one it never received (0: none):
	// the orders from Acked+1 to Gap-1 are missing, and the table applies nothing until they come
	// (TournamentState.resendGaps sends them again).
	Gap int `json:"gap,omitempty"`
}

// BustGroup is the players one hand eliminated, with their stacks at its start (R7).
type BustGroup struct {
	Hand       int64               `json:"hand"`
	Round      int                 `json:"round,omitempty"` // the hand-for-hand round of the hand, if any
	Eliminated []floor.Elimination `json:"eliminated"`
	// Knockouts are who won each eliminated player's last chips (a PKO's bounties, bounties.go).
	Knockouts []report.Knockout `json:"knockouts,omitempty"`
}

// MovedOut is a player who left the table on the tournament's order, with his chips.
type MovedOut struct {
	Ref    int              `json:"ref,omitempty"` // the MoveOutOrder's
	Player string           `json:"player"`
	Stack  int64            `json:"stack"`
	Away   int              `json:"away,omitempty"`
	To     floor.TableID    `json:"to"`
	ToSeat floor.Seat       `json:"toSeat"`
	Reason floor.MoveReason `json:"reason"`
	// Section: he left for another section (MoveOutOrder.Section).
	Section int `json:"section,omitempty"`
}

// RefusedSeat is an arrival the table could not seat (no free seat): the player is still the
// tournament's to place, with his chips.
type RefusedSeat struct {
	Player string `json:"player"`
	Stack  int64  `json:"stack"`
	Away   int    `json:"away,omitempty"`
}

// AppliedSanction is a sanction as the table applied it, with the facts it rests on (P2, P4, P5).
type AppliedSanction struct {
	Ref            int    `json:"ref"`
	Player         string `json:"player"`
	Missing        bool   `json:"missing,omitempty"` // the player was not at the table
	Hand           int64  `json:"hand"`
	PlayersAtTable int    `json:"playersAtTable"`
	Hands          int    `json:"hands,omitempty"`
	Chips          int64  `json:"chips,omitempty"`
}
