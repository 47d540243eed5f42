package director

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TournamentSpec is a tournament as the organiser publishes it: the field, the tables, the blind
// structure, the money and the floor's policies.
type TournamentSpec struct {
	// Name is shown in standings; the workflow ID names the tournament for Temporal.
	Name string `json:"name,omitempty"`
	// Players are the entrants registered at the start, by ID; PlayerCount, when Players is empty,
	// registers that many named p0001, p0002, ...
	Players     []string `json:"players,omitempty"`
	PlayerCount int      `json:"playerCount,omitempty"`
	// TableSize is the seats at a table (T1, 2 to 10); 0 means 9.
	TableSize int             `json:"tableSize,omitempty"`
	Structure floor.Structure `json:"structure"`
	// Seed makes every draw reproducible (seats, buttons, tables' decks in a simulation); 0 draws
	// a seed from crypto/rand once (T2, T3), recorded in the history, and the tables deal from
	// crypto/rand (D1).
	Seed uint64 `json:"seed,omitempty"`
	// Simulation plays at full speed: the blind levels change by hands dealt at each table rather
	// than by the clock (a hand stands for HandTime of a level), breaks are skipped, and tables
	// report Batch hands at once.
	Simulation bool          `json:"simulation,omitempty"`
	HandTime   time.Duration `json:"handTime,omitempty"` // 0 means DefaultHandTime
	Batch      int           `json:"batch,omitempty"`    // 0 means DefaultBatch
	// Pace, in a simulation, is the wall time a table takes for a hand at least (a clock sped up:
	// HandTime of a level in Pace), while the tables still report Batch hands at once; 0 deals as
	// fast as the tables can.
	Pace time.Duration `json:"pace,omitempty"`
	// Live: a card room's tables, dealt with physical chips: a colour-up (a period's ColorUp)
	// races the odd chips of the denomination leaving play (R8). Online tables (the default) keep
	// integer chip counts and never race.
	Live bool `json:"live,omitempty"`
	// BuyIn and Fee are in currency minor units (R1, R6); Payouts shares the pool.
	BuyIn   int64                 `json:"buyIn,omitempty"`
	Fee     int64                 `json:"fee,omitempty"`
	Payouts floor.PayoutStructure `json:"payouts,omitempty"`
	// Balance holds the balancing threshold (R3).
	Balance floor.Policy `json:"balance,omitempty"`
	// Table holds the tables' policies (B2 ante mode, B5 button rule, A10, A15); Seats is set from
	// TableSize.
	Table engine.Config `json:"table,omitempty"`
	// HandForHandBefore is how many players before the money hand-for-hand starts (R7): 1 is the
	// bubble (the default), -1 never.
	HandForHandBefore int `json:"handForHandBefore,omitempty"`
	// LateRegistrationLevel is the last level in which players may register (and re-enter): 0 closes
	// registration at the start (freezeout). ReEntries is how many times one player may re-enter
	// after busting; Rebuys how many rebuys one entry may make, until RebuyLevel (R1 policies).
	LateRegistrationLevel int   `json:"lateRegistrationLevel,omitempty"`
	ReEntries             int   `json:"reEntries,omitempty"`
	Rebuys                int   `json:"rebuys,omitempty"`
	RebuyLevel            int   `json:"rebuyLevel,omitempty"`
	RebuyChips            int64 `json:"rebuyChips,omitempty"` // 0 means the starting stack
	// AddOn, when set, sells add-ons at the break that ends the rebuy period (after level
	// RebuyLevel; a simulation, which skips breaks, sells them in the level after it).
	AddOn *floor.AddOn `json:"addOn,omitempty"`
	// NoShow, when set, lets the director remove the players who never sat down once After of
	// clock time has run (T4), refunded (less the fee when KeepFee), the payouts recomputed.
	NoShow *floor.NoShowRule `json:"noShow,omitempty"`
	// Satellite, when set, pays seats in a target event (SatellitePayout) instead of Payouts:
	// as many equal seats as the prize pool buys, and the remainder in cash to the next place.
	Satellite *floor.Satellite `json:"satellite,omitempty"`
	// Bounty, when set, makes the event a progressive knockout (bounties.go): StartCents of each
	// entry's buy-in is his bounty, paid to whoever wins his last chips.
	Bounty *floor.Bounty `json:"bounty,omitempty"`
	// ContinueAsNewAfter is the history length after which the tournament continues as new, when
	// Temporal has not suggested it sooner; 0 means DefaultContinueAsNewAfter.
	ContinueAsNewAfter int `json:"continueAsNewAfter,omitempty"`
	// TableContinueAsNewAfter is the same for the tables (0: when Temporal suggests it).
	TableContinueAsNewAfter int `json:"tableContinueAsNewAfter,omitempty"`
	// TableDeadline is how long the tournament waits for news from a table (the tables tell at
	// least every quarter of it) before it has the table's host replaced and the hand in progress
	// voided (D4), at least: longer when the tables are heard from less often than that (a
	// server that is the bottleneck; DeadlineIntervals). 0 means DefaultTableDeadline, -1 never.
	TableDeadline time.Duration `json:"tableDeadline,omitempty"`
	// TableMaxWait is how long a table's report waits for leave to deal; 0 means DefaultTableMaxWait.
	TableMaxWait time.Duration `json:"tableMaxWait,omitempty"`
	// SectionTables is the most tables a section starts with: a field of more tables is split into
	// sections (see SectionRole); 0 means DefaultSectionTables.
	SectionTables int `json:"sectionTables,omitempty"`
	// SectionContinueAsNewAfter is ContinueAsNewAfter for the sections (0: the same).
	SectionContinueAsNewAfter int `json:"sectionContinueAsNewAfter,omitempty"`
}

// Sectioned reports whether the field is split into sections: it needs more than OneSectionTables
// tables (or SectionTables, when set higher).
func (s TournamentSpec) Sectioned() bool {
	n, size, most := s.PlayerCount, s.TableSize, max(s.SectionTables, OneSectionTables)
	if len(s.Players) > 0 {
		n = len(s.Players)
	}
	if size == 0 {
		size = DefaultTableSize
	}
	if s.SectionTables > 0 && s.SectionTables < OneSectionTables {
		most = s.SectionTables // a spec that asks for small sections gets them (tests)
	}
	return n >= 2 && size >= 2 && floor.TableCount(n, size) > most
}

// OneSectionTables is the most tables a field plays on as one tournament, with no sections (1,152
// players at tables of 9): the shape every tournament had before sections, which the tests of
// whole tournaments up to 1,000 players keep on. Its state, which keeps every player and table,
// is what bounds it: at 200 tables (1,800 entries) the continue-as-new input reached 308 KB
// near the end, over the 256 KB the design allows; at 128 at most 212 KB
// (TestOneSectionContinueAsNewInput).
const OneSectionTables = 128

// Defaults.
const (
	DefaultTableSize          = 9
	DefaultHandTime           = time.Minute // about 60 hands an hour: an online table's pace
	DefaultBatch              = 20
	DefaultContinueAsNewAfter = 10000
	// DefaultTableMaxWait is how long a report waits in the TableWorkflow for the table to be
	// allowed to deal (a break, a pause, hand-for-hand, players to arrive) before it answers Wait.
	DefaultTableMaxWait = 20 * time.Second
	// DefaultTableDeadline: a table silent for 5 minutes (it tells every 75 seconds at least) has
	// stopped.
	DefaultTableDeadline = 5 * time.Minute
)

// withDefaults fills in what the spec leaves to the defaults.
func (s TournamentSpec) withDefaults() TournamentSpec {
	if s.TableSize == 0 {
		s.TableSize = DefaultTableSize
	}
	if len(s.Players) == 0 {
		s.Players = PlayerNames(s.PlayerCount)
	}
	s.PlayerCount = len(s.Players)
	if s.HandTime <= 0 {
		s.HandTime = DefaultHandTime
	}
	if s.Batch <= 0 {
		s.Batch = DefaultBatch
	}
	if !s.Simulation {
		s.Batch = 1
	}
	if s.HandForHandBefore == 0 {
		s.HandForHandBefore = 1
	}
	if s.ContinueAsNewAfter <= 0 {
		s.ContinueAsNewAfter = DefaultContinueAsNewAfter
	}
	if s.TableDeadline == 0 {
		s.TableDeadline = DefaultTableDeadline
	}
	if s.TableMaxWait <= 0 {
		s.TableMaxWait = DefaultTableMaxWait
	}
	if s.SectionTables <= 0 {
		s.SectionTables = DefaultSectionTables
	}
	if s.SectionContinueAsNewAfter <= 0 {
		s.SectionContinueAsNewAfter = s.ContinueAsNewAfter
	}
	if s.RebuyChips <= 0 {
		s.RebuyChips = s.Structure.StartingStack
	}
	s.Table.Seats = s.TableSize
	return s
}

// PlayerNames names n players p0001, p0002, ... (wider for fields of 10,000 and more).
func PlayerNames(n int) []string {
	width := max(len(fmt.Sprint(n)), 4)
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%0*d", width, i+1)
	}
	return out
}

// Validate returns every problem of the spec, or nil.
func (s TournamentSpec) Validate() error {
	s = s.withDefaults()
	var errs []error
	if len(s.Players) < 2 {
		errs = append(errs, fmt.Errorf("a tournament needs at least 2 players, not %d", len(s.Players)))
	}
	ids := make([]floor.PlayerID, len(s.Players))
	for i, p := range s.Players {
		ids[i] = floor.PlayerID(p)
	}
	if err := floor.VerifySeatDraw(ids, s.TableSize); err != nil {
		errs = append(errs, err)
	}
	sorted := slices.Clone(s.Players)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			errs = append(errs, fmt.Errorf("player %q is registered twice", sorted[i]))
		}
	}
	if err := s.Structure.Validate(); err != nil {
		errs = append(errs, err)
	}
	if s.BuyIn < 0 || s.Fee < 0 || s.Fee > s.BuyIn {
		errs = append(errs, fmt.Errorf("buy-in %d and fee %d: the fee is a part of the buy-in (R6)", s.BuyIn, s.Fee))
	}
	if s.Satellite != nil {
		if _, err := floor.SatellitePayout(s.entries(len(s.Players), 0, 0), *s.Satellite); err != nil {
			errs = append(errs, err)
		}
	} else if _, err := floor.ComputePayouts(s.entries(len(s.Players), 0, 0), s.Payouts); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, s.validateTools()...)
	if s.ReEntries < 0 || s.Rebuys < 0 || s.LateRegistrationLevel < 0 || s.RebuyLevel < 0 {
		errs = append(errs, errors.New("re-entries, rebuys and their levels cannot be negative"))
	}
	if s.Pace < 0 || s.Pace > 0 && !s.Simulation {
		errs = append(errs, fmt.Errorf("pace %v: a simulation's time a hand, 0 or more (a tournament by the clock deals at its players' pace)", s.Pace))
	}
	if s.Balance.BalanceThreshold != 0 && s.Balance.BalanceThreshold != 2 && s.Balance.BalanceThreshold != 3 {
		errs = append(errs, fmt.Errorf("balance threshold %d: 2 (rule book) or 3 (TDA 2007)", s.Balance.BalanceThreshold))
	}
	return errors.Join(errs...)
}

// nextLevelIn is the time to the next period that a Progress shows at clock state cs: the clock's
// in a tournament by the clock; in a simulation at a Pace, the hands left in the level at that pace;
// 0 at full speed, where the levels go by hands only, and in the last level.
func (s TournamentSpec) nextLevelIn(cs floor.ClockState) time.Duration {
	switch {
	case cs.Final:
		return 0
	case !s.Simulation:
		return cs.Remaining
	case s.Pace > 0 && s.HandTime > 0:
		hands := (cs.Remaining + s.HandTime - 1) / s.HandTime
		return time.Duration(hands) * s.Pace
	}
	return 0
}

// entries is what the field paid in, for the prize pool (R6).
func (s TournamentSpec) entries(entries, reEntries, rebuys int) floor.Entries {
	return floor.Entries{Entries: entries, ReEntries: reEntries, Rebuys: rebuys, BuyIn: s.BuyIn, Fee: s.Fee}
}

// clockStructure is the structure the clock runs: a simulation's has no breaks and no speed (its
// clock is the tables' hands, HandTime each).
func (s TournamentSpec) clockStructure() floor.Structure {
	st := s.Structure
	if !s.Simulation {
		return st
	}
	st.Speed = 0
	st.Levels = nil
	for _, l := range s.Structure.Levels {
		if !l.Break {
			l.ColorUp = nil
			st.Levels = append(st.Levels, l)
		}
	}
	return st
}

func engineLevel(l floor.Level) engine.Level {
	return engine.Level{SmallBlind: l.SmallBlind, BigBlind: l.BigBlind, Ante: l.Ante}
}
