package floor

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// The record's bounds: what it keeps does not grow with the field, so that it fits in a workflow's
// state (and its continue-as-new input) at 100,000 entries.
const (
	// MaxStackSamples is how many chip-leader and average-stack samples the record keeps: when
	// full, every other one is dropped and samples are taken half as often, so the kept ones stay
	// evenly spread over the whole tournament.
	MaxStackSamples = 128
	// MaxRecordLevels bounds the levels the record counts eliminations, breaks and moves in.
	MaxRecordLevels = 1000
	// MaxPayoutBands is how many bands of equal prizes, from first place down, the summary lists
	// before the last band (the min cash); each place's share is in its PlaceRow.
	MaxPayoutBands = 20
	// MaxRecentBreaks and MaxDirectorMoves are how many of the last table breaks and of the
	// director's moves by hand the record lists (it counts them all).
	MaxRecentBreaks  = 16
	MaxDirectorMoves = 32
)

// Bust is one player eliminated, as the table reports it.
type Bust struct {
	Player PlayerID `json:"player"`
	// Stack is his stack at the start of the hand that busted him (R7 places by it).
	Stack int64   `json:"stack"`
	Table TableID `json:"table"`
	Hand  int64   `json:"hand"` // the table's hand number
	// Eliminators are the players who won his last chips (several when they split that pot).
	Eliminators []PlayerID `json:"eliminatedBy,omitempty"`
	// BountyPaidCents is the cash his knockout paid (PKO events: the shares' CashCents; the rest
	// of his bounty went onto the eliminators' heads); BountiesWonCents is the cash he won in
	// bounties over the tournament, for his row.
	BountyPaidCents  int64 `json:"bountyPaidCents,omitempty"`
	BountiesWonCents int64 `json:"bountiesWonCents,omitempty"`
}

// BustGroup is the players eliminated together: in one hand, or in one hand-for-hand round (R7).
type BustGroup struct {
	Level       int    `json:"level"`
	HandForHand bool   `json:"handForHand,omitempty"`
	Busts       []Bust `json:"busts"`
}

// PlaceRow is one finishing place, as the record streams it to its caller: the whole list of
// 100,000 places is never kept.
type PlaceRow struct {
	Place  int      `json:"place"`
	Shared int      `json:"shared,omitempty"` // how many share the places from Place (R7)
	Player PlayerID `json:"player"`
	// PrizeCents is his prize, and PercentOfPool its share of the prize pool, to 1/100 of a percent.
	PrizeCents    int64   `json:"prizeCents"`
	PercentOfPool float64 `json:"percentOfPool,omitempty"`
	// Where and how he went out; the winner's row has the last hand's level and his final stack.
	Level            int        `json:"level"`
	Table            TableID    `json:"table,omitempty"`
	Hand             int64      `json:"hand,omitempty"`
	Eliminators      []PlayerID `json:"eliminatedBy,omitempty"`
	Stack            int64      `json:"stack"` // at the start of his last hand; the winner's at the end
	HandForHand      bool       `json:"handForHand,omitempty"`
	BountiesWonCents int64      `json:"bountiesWonCents,omitempty"`
}

// LevelRecord is what happened in one blind level.
type LevelRecord struct {
	Level      int   `json:"level"`
	SmallBlind int64 `json:"smallBlind,omitempty"`
	BigBlind   int64 `json:"bigBlind,omitempty"`
	Ante       int64 `json:"ante,omitempty"`
	// StartedAtHand is the hands played in the tournament when it began; PlayersAtStart the
	// players left then.
	StartedAtHand  int64 `json:"startedAtHand"`
	PlayersAtStart int   `json:"playersAtStart,omitempty"`
	Eliminations   int   `json:"eliminations"`
	TablesBroken   int   `json:"tablesBroken,omitempty"`
	Moves          int   `json:"moves,omitempty"`
}

// StackSample is the field's chips at one moment: the chip leader and the average stack.
type StackSample struct {
	Hand        int64    `json:"hand"` // hands played in the tournament
	Level       int      `json:"level"`
	PlayersLeft int      `json:"playersLeft"`
	Chips       int64    `json:"chips"` // in play
	Leader      PlayerID `json:"leader"`
	LeaderStack int64    `json:"leaderStack"`
	// Average is Chips / PlayersLeft, rounded down (the record works it out).
	Average int64     `json:"average"`
	At      time.Time `json:"at,omitzero"`
}

// BubbleRecord is the player who finished on the bubble, the first place out of the money, with
// the hand and the hand-for-hand rounds played (R7). Players are several when they shared it
// (busted in one hand-for-hand round with equal stacks); Table and Hand are then the first's.
type BubbleRecord struct {
	Players           []PlayerID `json:"players"`
	Place             int        `json:"place"`
	Level             int        `json:"level"`
	Table             TableID    `json:"table"`
	Hand              int64      `json:"hand"`
	HandForHandRounds int        `json:"handForHandRounds"`
}

// FinalTableSeat is one seat of the final table as it formed.
type FinalTableSeat struct {
	Seat   Seat     `json:"seat"`
	Player PlayerID `json:"player"`
	Chips  int64    `json:"chips"`
}

// FinalTableRecord is the final table's line-up when it formed.
type FinalTableRecord struct {
	Level int              `json:"level"`
	Hand  int64            `json:"hand"` // hands played in the tournament then
	Seats []FinalTableSeat `json:"seats"`
}

// MoveCounts counts the players moved, by reason.
type MoveCounts struct {
	Balance  int `json:"balance"`
	Break    int `json:"break"`
	Director int `json:"director"`
}

// PayoutBand is places From to To paying the same prize each.
type PayoutBand struct {
	From          int     `json:"from"`
	To            int     `json:"to"`
	PrizeCents    int64   `json:"prizeCents"`
	PercentOfPool float64 `json:"percentOfPool"` // of one place
}

// TournamentRecord is the director's record of a tournament, built from its events: a bust, a
// table break, a move, a level change, a stack sample. It keeps the aggregate parts (the bubble,
// the final table, eliminations, breaks and moves by level, the chip leader and the average stack
// over time, hands, the money) in memory bounded whatever the field, and streams each place's row
// to its caller as the place is decided. It is plain data: a workflow keeps it in its state and
// passes it on when it continues as new. Amounts are integer cents, in fields ending in Cents.
type TournamentRecord struct {
	Entries     int   `json:"entries"` // first entries and re-entries
	PlayersLeft int   `json:"playersLeft"`
	HandsPlayed int64 `json:"handsPlayed"`
	// PayoutUnitCents is the currency unit shared places are split to (PayoutStructure.Unit).
	PayoutUnitCents int64 `json:"payoutUnitCents,omitempty"`

	Level  int           `json:"level"` // the level running, or the last one once Finished
	Levels []LevelRecord `json:"levels"`

	HandForHandRounds int               `json:"handForHandRounds"`
	Bubble            *BubbleRecord     `json:"bubble,omitempty"`
	FinalTable        *FinalTableRecord `json:"finalTable,omitempty"`
	TablesBroken      int               `json:"tablesBroken"`
	RecentBreaks      []TableBreak      `json:"recentBreaks,omitempty"`
	Moves             MoveCounts        `json:"moves"`
	DirectorMoves     []MoveRecord      `json:"directorMoves,omitempty"`

	Samples      []StackSample `json:"samples"`
	SampleStride int64         `json:"sampleStride"` // samples are kept one in SampleStride
	SamplesSeen  int64         `json:"samplesSeen"`
	LastSample   *StackSample  `json:"lastSample,omitempty"`

	BountiesPaidCents int64 `json:"bountiesPaidCents,omitempty"`

	Finished bool     `json:"finished"`
	Winner   PlayerID `json:"winner,omitempty"`
}

// NewTournamentRecord starts the record of a tournament of entries first entries.
func NewTournamentRecord(entries int, payoutUnitCents int64) *TournamentRecord {
	return &TournamentRecord{Entries: entries, PlayersLeft: entries, PayoutUnitCents: payoutUnitCents, SampleStride: 1}
}

// Enter counts entries that join after the start (late registration, re-entries: each a new
// entry and a new player left).
func (r *TournamentRecord) Enter(n int) error {
	switch {
	case r.Finished:
		return ruleErr("R1", "%d entries joining a finished tournament: entries join before the end", n)
	case n < 0:
		return ruleErr("R1", "%d entries joining: expected 0 or more", n)
	}
	r.Entries += n
	r.PlayersLeft += n
	return nil
}

// Withdraw takes out entries refunded (unregistered, or no-shows removed): they take no place.
func (r *TournamentRecord) Withdraw(n int) error {
	if n < 0 || n > r.PlayersLeft-2 {
		return ruleErr("R5", "withdrawing %d of %d players left: expected at most %d, a tournament needs two", n, r.PlayersLeft, r.PlayersLeft-2)
	}
	r.Entries -= n
	r.PlayersLeft -= n
	return nil
}

// level returns the record of level n, adding the levels up to it.
func (r *TournamentRecord) level(n int) (*LevelRecord, error) {
	if err := checkLevel(n); err != nil {
		return nil, err
	}
	for len(r.Levels) < n {
		r.Levels = append(r.Levels, LevelRecord{Level: len(r.Levels) + 1, StartedAtHand: r.HandsPlayed})
	}
	return &r.Levels[n-1], nil
}

func checkLevel(n int) error {
	if n < 1 || n > MaxRecordLevels {
		return ruleErr("B3", "level %d: expected a level number from 1 to %d", n, MaxRecordLevels)
	}
	return nil
}

// LevelStarted records level n's start, at the blinds of l (B3).
func (r *TournamentRecord) LevelStarted(n int, l Level) error {
	lr, err := r.level(n)
	if err != nil {
		return err
	}
	lr.SmallBlind, lr.BigBlind, lr.Ante = l.SmallBlind, l.BigBlind, l.Ante
	lr.StartedAtHand, lr.PlayersAtStart = r.HandsPlayed, r.PlayersLeft
	r.Level = max(r.Level, n)
	return nil
}

// HandsDealt counts hands played.
func (r *TournamentRecord) HandsDealt(n int64) {
	if n > 0 {
		r.HandsPlayed += n
	}
}

// HandForHandRound counts one hand-for-hand round played on the bubble (R7).
func (r *TournamentRecord) HandForHandRound() { r.HandForHandRounds++ }

// TableBreak is a table closed (R4), by the floor's rule or by the director's hand.
type TableBreak struct {
	Level   int     `json:"level"`
	Table   TableID `json:"table"`
	Players int     `json:"players"` // the players it sent to other tables
	Hand    int64   `json:"hand"`    // hands played in the tournament then (the record fills it)
	// By and Reason are the director's, for a table he broke by hand (P6).
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// MoveRecord is a player moved, with who ordered it and why when the director did (P6).
type MoveRecord struct {
	Level  int    `json:"level"`
	Move   Move   `json:"move"`
	Hand   int64  `json:"hand"` // hands played in the tournament then (the record fills it)
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// TableBroken records a table closed; the last MaxRecentBreaks are kept, with the count of all.
func (r *TournamentRecord) TableBroken(b TableBreak) error {
	if b.Players < 0 || b.Players > MaxTableSize {
		return ruleErr("R4", "table %d broke with %d players: expected 0 to %d", b.Table, b.Players, MaxTableSize)
	}
	lr, err := r.level(b.Level)
	if err != nil {
		return err
	}
	b.Hand = r.HandsPlayed
	lr.TablesBroken++
	r.TablesBroken++
	r.RecentBreaks = appendRecent(r.RecentBreaks, b, MaxRecentBreaks)
	return nil
}

// appendRecent appends x, dropping the oldest beyond n.
func appendRecent[T any](xs []T, x T, n int) []T {
	if len(xs) >= n {
		xs = append(xs[:0], xs[len(xs)-n+1:]...)
	}
	return append(xs, x)
}

// Moved records a player moved; the director's moves (few, by hand) are kept, the last
// MaxDirectorMoves of them, and every move is counted by reason and level.
func (r *TournamentRecord) Moved(m MoveRecord) error {
	if err := checkLevel(m.Level); err != nil {
		return err
	}
	switch m.Move.Reason {
	case MoveBalance:
		r.Moves.Balance++
	case MoveBreak:
		r.Moves.Break++
	case MoveDirector:
		r.Moves.Director++
		m.Hand = r.HandsPlayed
		r.DirectorMoves = appendRecent(r.DirectorMoves, m, MaxDirectorMoves)
	default:
		return ruleErr("R3", "move reason %q: expected %q, %q or %q", m.Move.Reason, MoveBalance, MoveBreak, MoveDirector)
	}
	lr, _ := r.level(m.Level)
	lr.Moves++
	return nil
}

// FinalTableFormed records the final table's line-up with its chips, when it forms.
func (r *TournamentRecord) FinalTableFormed(level int, seats []FinalTableSeat) error {
	if len(seats) < 2 || len(seats) > MaxTableSize {
		return ruleErr("T1", "a final table of %d players: expected 2 to %d", len(seats), MaxTableSize)
	}
	if len(seats) != r.PlayersLeft {
		return ruleErr("R4", "a final table of %d players with %d left: every player left sits at it", len(seats), r.PlayersLeft)
	}
	ft := &FinalTableRecord{Level: level, Hand: r.HandsPlayed, Seats: slices.Clone(seats)}
	slices.SortFunc(ft.Seats, func(a, b FinalTableSeat) int { return cmp.Compare(a.Seat, b.Seat) })
	r.FinalTable = ft
	return nil
}

// Sample records the field's chips: the leader and the average, kept evenly over time within
// MaxStackSamples.
func (r *TournamentRecord) Sample(s StackSample) error {
	if s.PlayersLeft < 1 || s.Chips < 0 || s.LeaderStack < 0 || s.LeaderStack > s.Chips {
		return ruleErr("R1", "a stack sample of %d chips among %d players, leader %d: expected players, and a leader within the chips", s.Chips, s.PlayersLeft, s.LeaderStack)
	}
	s.Average = s.Chips / int64(s.PlayersLeft)
	last := s
	r.LastSample = &last
	if r.SampleStride < 1 {
		r.SampleStride = 1
	}
	if r.SamplesSeen%r.SampleStride == 0 {
		if len(r.Samples) == MaxStackSamples {
			kept := r.Samples[:0]
			for i := 0; i < len(r.Samples); i += 2 {
				kept = append(kept, r.Samples[i])
			}
			r.Samples = kept
			r.SampleStride *= 2
		}
		if r.SamplesSeen%r.SampleStride == 0 {
			r.Samples = append(r.Samples, s)
		}
	}
	r.SamplesSeen++
	return nil
}

// Bust records a group of players eliminated together and streams their rows to emit, placed by
// R7 (the group takes the worst places left; a larger stack at the start of the hand places
// higher; equal stacks share places) and paid from pay (shared places split their prizes,
// AwardPrizes). pay is the payouts now, so late registration's changes are followed.
func (r *TournamentRecord) Bust(g BustGroup, pay Payouts, emit func(PlaceRow)) error {
	if r.Finished {
		return ruleErr("R5", "a bust after the tournament ended")
	}
	k := len(g.Busts)
	switch {
	case k == 0:
		return ruleErr("R7", "an elimination group with nobody in it")
	case k >= r.PlayersLeft:
		return ruleErr("R5", "%d players busted of %d left: one must win the hand", k, r.PlayersLeft)
	}
	if err := checkLevel(g.Level); err != nil {
		return err
	}
	busts := slices.Clone(g.Busts)
	for i, b := range busts {
		switch {
		case b.Player == "":
			return ruleErr("R7", "bust %d names no player", i+1)
		case b.Stack <= 0:
			return ruleErr("R7", "%s had %d chips at the start of his last hand: expected a positive stack", b.Player, b.Stack)
		case slices.Contains(b.Eliminators, b.Player):
			return ruleErr("R7", "%s is listed as his own eliminator", b.Player)
		case slices.ContainsFunc(busts[:i], func(o Bust) bool { return o.Player == b.Player }):
			return ruleErr("R7", "%s busts twice in one group", b.Player)
		}
	}
	lr, err := r.level(g.Level)
	if err != nil {
		return err
	}
	slices.SortFunc(busts, func(a, b Bust) int { return cmp.Or(cmp.Compare(b.Stack, a.Stack), cmp.Compare(a.Player, b.Player)) })
	best := r.PlayersLeft - k + 1
	standings := make([]Standing, k)
	for i := 0; i < k; {
		j := i
		for j < k && busts[j].Stack == busts[i].Stack {
			j++
		}
		for m := i; m < j; m++ {
			standings[m] = Standing{Player: busts[m].Player, Place: best + i, Shared: j - i}
		}
		i = j
	}
	awards := AwardPrizes(standings, pay.Prizes, r.PayoutUnitCents)
	paid := len(pay.Prizes)
	for i, b := range busts {
		a := awards[i]
		row := PlaceRow{Place: a.Place, Player: b.Player, PrizeCents: a.Prize, PercentOfPool: percentOf(a.Prize, pay.Pool),
			Level: g.Level, Table: b.Table, Hand: b.Hand, Eliminators: slices.Clone(b.Eliminators), Stack: b.Stack,
			HandForHand: g.HandForHand, BountiesWonCents: b.BountiesWonCents}
		if a.Shared > 1 {
			row.Shared = a.Shared
		}
		if paid > 0 && a.Place <= paid+1 && paid+1 < a.Place+max(a.Shared, 1) {
			if r.Bubble == nil || r.Bubble.Place != paid+1 {
				r.Bubble = &BubbleRecord{Place: paid + 1, Level: g.Level, Table: b.Table, Hand: b.Hand, HandForHandRounds: r.HandForHandRounds}
			}
			r.Bubble.Players = append(r.Bubble.Players, b.Player)
		}
		r.BountiesPaidCents += b.BountyPaidCents
		emit(row)
	}
	lr.Eliminations += k
	r.PlayersLeft -= k
	r.Level = max(r.Level, g.Level)
	return nil
}

// Win is the winner's facts at the end: his chips (every chip in play), the level of the last
// hand, the bounty cash he is paid at the end (his own and the unclaimed, PKO: BountyBoard.Finish),
// and the bounty cash he won in all, that included.
type Win struct {
	Player           PlayerID `json:"player"`
	Chips            int64    `json:"chips"`
	Level            int      `json:"level"`
	BountyPaidCents  int64    `json:"bountyPaidCents,omitempty"`
	BountiesWonCents int64    `json:"bountiesWonCents,omitempty"`
}

// Finish records the winner, the last player left (R5), and streams his row.
func (r *TournamentRecord) Finish(w Win, pay Payouts, emit func(PlaceRow)) error {
	switch {
	case r.Finished:
		return ruleErr("R5", "the tournament has already ended")
	case r.PlayersLeft != 1:
		return ruleErr("R5", "%s cannot win with %d players left: the tournament ends when one is left", w.Player, r.PlayersLeft)
	case w.Player == "" || w.Chips <= 0:
		return ruleErr("R5", "the winner %q with %d chips: expected a player with every chip", w.Player, w.Chips)
	}
	if _, err := r.level(w.Level); err != nil {
		return err
	}
	var prize int64
	if len(pay.Prizes) > 0 {
		prize = pay.Prizes[0]
	}
	r.Finished, r.Winner, r.Level = true, w.Player, max(r.Level, w.Level)
	r.BountiesPaidCents += w.BountyPaidCents
	emit(PlaceRow{Place: 1, Player: w.Player, PrizeCents: prize, PercentOfPool: percentOf(prize, pay.Pool), Level: w.Level, Stack: w.Chips,
		BountiesWonCents: w.BountiesWonCents})
	return nil
}

// RecordSummary is the director's end-of-run list, less the per-place rows (streamed): the money,
// the payouts' shares, the bubble, the final table, eliminations, breaks and moves by level, the
// chip leader and the average stack over time, and where the tournament ended. Amounts are
// integer cents, in fields ending in Cents.
type RecordSummary struct {
	Entries           int   `json:"entries"`
	HandsPlayed       int64 `json:"handsPlayed"`
	PaidInCents       int64 `json:"paidInCents"`
	FeesCents         int64 `json:"feesCents"`
	PrizePoolCents    int64 `json:"prizePoolCents"`
	BountyPoolCents   int64 `json:"bountyPoolCents,omitempty"`
	BountiesPaidCents int64 `json:"bountiesPaidCents,omitempty"`
	// ChipsBought is the chips the entries, rebuys and add-ons bought.
	ChipsBought int64        `json:"chipsBought"`
	PaidPlaces  int          `json:"paidPlaces"`
	PayoutBands []PayoutBand `json:"payoutBands"`

	Bubble            *BubbleRecord     `json:"bubble,omitempty"`
	HandForHandRounds int               `json:"handForHandRounds"`
	FinalTable        *FinalTableRecord `json:"finalTable,omitempty"`
	// Levels has each level's blinds and its eliminations, table breaks and moves.
	Levels        []LevelRecord `json:"levels"`
	TablesBroken  int           `json:"tablesBroken"`
	RecentBreaks  []TableBreak  `json:"recentBreaks,omitempty"` // the last MaxRecentBreaks
	Moves         MoveCounts    `json:"moves"`
	DirectorMoves []MoveRecord  `json:"directorMoves,omitempty"` // the last MaxDirectorMoves
	// Stacks is the chip leader and the average stack over time, the last sample last.
	Stacks []StackSample `json:"stacks"`

	EndedAtLevel  int         `json:"endedAtLevel"`
	EndedAtBlinds LevelRecord `json:"endedAtBlinds"`
	Finished      bool        `json:"finished"`
	Winner        PlayerID    `json:"winner,omitempty"`
}

// Summary is the record's end-of-run list with the money of p and the payouts pay. It copies
// what it shows, so the record may go on.
func (r *TournamentRecord) Summary(p Purse, pay Payouts) RecordSummary {
	s := RecordSummary{
		Entries: r.Entries, HandsPlayed: r.HandsPlayed, PaidInCents: p.PaidInCents, FeesCents: p.FeesCents, PrizePoolCents: p.PrizePoolCents,
		BountyPoolCents: p.BountyPoolCents, BountiesPaidCents: r.BountiesPaidCents, ChipsBought: p.Chips,
		PaidPlaces: len(pay.Prizes), PayoutBands: PayoutBands(pay), Bubble: r.Bubble, HandForHandRounds: r.HandForHandRounds,
		FinalTable: r.FinalTable, Levels: slices.Clone(r.Levels), TablesBroken: r.TablesBroken, Moves: r.Moves,
		RecentBreaks: slices.Clone(r.RecentBreaks), DirectorMoves: slices.Clone(r.DirectorMoves),
		Stacks: slices.Clone(r.Samples), EndedAtLevel: r.Level, Finished: r.Finished, Winner: r.Winner,
	}
	if r.LastSample != nil && (len(s.Stacks) == 0 || s.Stacks[len(s.Stacks)-1] != *r.LastSample) {
		s.Stacks = append(s.Stacks, *r.LastSample)
	}
	if r.Level >= 1 && r.Level <= len(r.Levels) {
		s.EndedAtBlinds = r.Levels[r.Level-1]
	}
	return s
}

func percentOf(x, pool int64) float64 {
	if pool <= 0 || x <= 0 {
		return 0
	}
	return math.Round(10000*float64(x)/float64(pool)) / 100
}

// PayoutBands lists the prizes in bands of equal prizes from first place: the first
// MaxPayoutBands bands, then the last band (the min cash) when there are more.
func PayoutBands(pay Payouts) []PayoutBand {
	var bands []PayoutBand
	for i := 0; i < len(pay.Prizes); {
		j := i
		for j < len(pay.Prizes) && pay.Prizes[j] == pay.Prizes[i] {
			j++
		}
		band := PayoutBand{From: i + 1, To: j, PrizeCents: pay.Prizes[i], PercentOfPool: percentOf(pay.Prizes[i], pay.Pool)}
		if len(bands) < MaxPayoutBands || j == len(pay.Prizes) {
			bands = append(bands, band)
		}
		i = j
	}
	return bands
}
