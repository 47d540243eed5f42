// Package phh reads and writes hand histories in PHH, the TOML-based Poker Hand History format of the
// phh-std specification (University of Toronto Computer Poker Research Group), for No-Limit Texas
// Hold'em (variant "NT"), the only variant pokerfloor plays.
//
// Parse turns a file into a Hand: its forced bets, stacks, players, optional fields such as the event
// and the finishing stacks, its user-defined fields (keys beginning with "_"), and its actions both as
// written and parsed into Actions (deal hole cards, deal the board, fold, check or call, bet or raise
// to, show or muck). Marshal writes a Hand back as canonical PHH that Parse reads to an equal Hand.
//
// Every error names the line, the field and what was expected. Nothing in a corrupt file makes the
// package panic. Parsing is fast: hand histories in the common subset of TOML that PHH files use are
// read by a hand-written scanner, and anything else goes to a full TOML library (go-toml); both paths
// give the same Hand. To read many hands, reuse a Parser and a Hand with ParseInto: about two
// allocations a hand.
//
// Besides the notation, Parse checks what a file alone can show: one value per player in every
// per-player array, players that exist, no card dealt twice, shown cards that are the ones dealt. It
// never plays the hand: whether the actions are legal by the rules (who is to act, the minimum raise,
// the pots) is for the engine that replays it (package engine/replay). It does no I/O but ParseFile's.
package phh

import "strconv"

// Variant is the only variant code this package reads: No-Limit Texas Hold'em.
const Variant = "NT"

// Hand is one hand history. Player i (0-based here, "p<i+1>" in actions) is the i-th position in
// dealing order: with 3 or more players the first is the small blind and the last the button;
// heads-up the first is the big blind and the second the button (PHH reverses heads-up arrays).
//
// Amounts are whole chips. Optional fields are zero (nil, "", 0, false) when absent; a zero written in
// the file for day, month, year, level, seat_count or time_limit reads as absent and is not written
// back.
type Hand struct {
	// Required fields.
	Variant            string  // "NT"
	AnteTrimmingStatus bool    // ante_trimming_status (optional in the spec; written always)
	Antes              []int64 // one per player, may be 0
	BlindsOrStraddles  []int64 // one per player, may be 0
	MinBet             int64   // min_bet, positive
	StartingStacks     []int64 // one per player, positive
	// Actions holds the action strings as written, with their commentary. ParsedActions holds the
	// same actions parsed, index for index (a no-op string parses to a NoOp action).
	Actions       []string
	ParsedActions []Action

	// Optional fields of the specification, in its order.
	Author               string
	Event                string
	URL                  string
	Venue                string
	Address              string
	City                 string
	Region               string
	PostalCode           string
	Country              string
	Time                 string // a TOML local time, "19:05:00" or "19:05:00.250"
	TimeZone             string // IANA name, "America/Toronto"
	TimeZoneAbbreviation string // "EDT"
	Day                  int
	Month                int
	Year                 int
	Hand                 Label // the hand's number or name
	Level                int
	Seats                []int // seat number of each player
	SeatCount            int
	Table                Label    // the table's number or name
	Players              []string // one name per player, "" when unknown
	FinishingStacks      []int64
	Winnings             []int64
	Currency             string  // ISO 4217 code
	CurrencySymbol       string  // "$"
	TimeLimit            float64 // seconds per action; may be +Inf
	TimeBanks            []float64

	// Extra holds the user-defined fields (keys beginning with "_") and any field of a later version
	// of the specification that this package does not know, as the TOML library decodes them
	// (int64, float64, string, bool, []any, map[string]any, or a TOML date or time). Marshal writes
	// them back after the known fields.
	Extra map[string]any
}

// NumPlayers returns the number of players in the hand: the length of StartingStacks.
func (h *Hand) NumPlayers() int { return len(h.StartingStacks) }

// Label is a value that PHH lets be a string or an integer: the hand and table fields.
type Label struct {
	Number int64  // the value, when it is an integer
	Text   string // the value, when it is a string
	IsText bool   // the value is the string Text rather than the integer Number
	Set    bool   // the field is present
}

// NumberLabel returns a Label holding the integer n.
func NumberLabel(n int64) Label { return Label{Number: n, Set: true} }

// TextLabel returns a Label holding the string s.
func TextLabel(s string) Label { return Label{Text: s, IsText: true, Set: true} }

// String returns the label's text or number, "" when it is not set.
func (l Label) String() string {
	switch {
	case !l.Set:
		return ""
	case l.IsText:
		return l.Text
	default:
		return strconv.FormatInt(l.Number, 10)
	}
}
