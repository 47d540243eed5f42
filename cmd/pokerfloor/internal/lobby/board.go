package lobby

import (
	"slices"
	"strconv"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Board is what the page shows, as one JSON document: the clock, the field, the money, the tables
// and the latest eliminations. Durations are in milliseconds and money in cents, for the page's
// JavaScript.
type Board struct {
	Name string `json:"name"`
	// At is when the board was read; the page counts the clock down from it.
	At          time.Time `json:"at"`
	Finished    bool      `json:"finished,omitempty"`
	Paused      bool      `json:"paused,omitempty"`
	OnBreak     bool      `json:"onBreak,omitempty"`
	HandForHand bool      `json:"handForHand,omitempty"`
	// Simulation: the levels go by hands, not by the clock, and there are no breaks.
	Simulation bool `json:"simulation,omitempty"`

	Level  int    `json:"level"`
	Blinds Blinds `json:"blinds"`
	// NextLevelMs is the clock time to the next period (0: not timed, or the last level);
	// NextBreakMs to the start of the next break (0: none to come, or not timed).
	NextLevelMs int64 `json:"nextLevelMs"`
	// PeriodMs is the whole length of the period running (0: not timed).
	PeriodMs    int64    `json:"periodMs"`
	NextBreakMs int64    `json:"nextBreakMs"`
	Upcoming    []Period `json:"upcoming"`

	Entries      int   `json:"entries"`
	PlayersLeft  int   `json:"playersLeft"`
	Tables       int   `json:"tables"`
	HandsPlayed  int64 `json:"handsPlayed"`
	ChipsInPlay  int64 `json:"chipsInPlay"`
	AverageStack int64 `json:"averageStack"`

	PrizePool int64    `json:"prizePool"`
	Paid      int      `json:"paid"`
	Payouts   []Payout `json:"payouts"`

	TableList    []Table       `json:"tableList"`
	MoreTables   int           `json:"moreTables,omitempty"` // open tables left off the list
	Eliminations []Elimination `json:"eliminations"`
	// Stale says the last reading of the tournament failed; the board is the one before.
	Stale string `json:"stale,omitempty"`
}

// Blinds are a level's blinds and ante.
type Blinds struct {
	Small int64 `json:"small"`
	Big   int64 `json:"big"`
	Ante  int64 `json:"ante"`
}

// Period is one level or break of the schedule.
type Period struct {
	Level   int    `json:"level,omitempty"` // 0 on a break
	Break   bool   `json:"break,omitempty"`
	Blinds  Blinds `json:"blinds"`
	Minutes int    `json:"minutes"`
	// ColorUp lists the chips coloured up when the period starts (R8).
	ColorUp []int64 `json:"colorUp,omitempty"`
}

// Payout is what a place, or a band of places paying the same, pays; Player once it is given.
type Payout struct {
	Places string `json:"places"` // "1", "10-18"
	Prize  int64  `json:"prize"`
	Player string `json:"player,omitempty"`
}

// Table is one open table.
type Table struct {
	Number int      `json:"number"`
	Hand   int64    `json:"hand"`
	Seats  []Seat   `json:"seats"`
	Watch  string   `json:"watch,omitempty"` // the spectator's page, when the table is served
	Flags  []string `json:"flags,omitempty"` // held, breaking
}

// Seat is a player at a table.
type Seat struct {
	Seat   int    `json:"seat"` // 1-based, as the room numbers them
	Player string `json:"player"`
	Stack  int64  `json:"stack"`
}

// Elimination is a player out, with his place and prize.
type Elimination struct {
	Place  int    `json:"place"`
	Player string `json:"player"`
	Prize  int64  `json:"prize,omitempty"`
}

// Limits of the board, so that a field of 100,000 still makes a page a browser draws at once.
const (
	maxTables       = 48
	maxEliminations = 8
	maxUpcoming     = 5
	maxPayoutRows   = 12
)

// Reading is one reading of the tournament through its client API.
type Reading struct {
	Progress  workflows.Progress
	Clock     workflows.ClockView
	Tables    []workflows.TableView
	Standings []workflows.Standing
	Payouts   workflows.PayoutsView
}

// BuildBoard makes the board from a reading at now. structure is the published schedule;
// watch, if set, gives a table's spectator page ("" when it has none).
func BuildBoard(r Reading, structure floor.Structure, watch func(table int) string, now time.Time) Board {
	p := r.Progress
	b := Board{Name: p.Name, At: now, Finished: p.Finished, Paused: p.Paused, OnBreak: p.OnBreak, HandForHand: p.HandForHand,
		Simulation: r.Clock.Simulation, Level: p.Level, Blinds: Blinds{p.Blinds.SmallBlind, p.Blinds.BigBlind, p.Blinds.Ante},
		Entries: p.Entries, PlayersLeft: p.PlayersLeft, Tables: p.Tables, HandsPlayed: p.HandsPlayed,
		PrizePool: p.PrizePool, Paid: p.Paid, Payouts: []Payout{}, TableList: []Table{}, Eliminations: []Elimination{}, Upcoming: []Period{}}
	if !b.Finished {
		b.NextLevelMs = p.NextLevelIn.Milliseconds() // 0 at full speed: the levels go by hands
	}

	// The schedule: the period running is found by its level number (a simulation's clock runs
	// a schedule of its own without breaks, whose period indexes differ from the published one's).
	cur := currentPeriod(structure, p.Level, p.OnBreak)
	if cur >= 0 && !b.Finished && b.NextLevelMs > 0 {
		b.PeriodMs = structure.Duration(cur).Milliseconds()
	}
	if cur >= 0 && !b.Finished {
		toBreak := p.NextLevelIn
		for i := cur + 1; i < len(structure.Levels); i++ {
			l := structure.Levels[i]
			if l.Break && b.NextBreakMs == 0 && !b.Simulation && p.NextLevelIn > 0 {
				b.NextBreakMs = toBreak.Milliseconds()
			}
			if len(b.Upcoming) < maxUpcoming && !(b.Simulation && l.Break) {
				per := Period{Break: l.Break, Minutes: l.Minutes, ColorUp: l.ColorUp}
				if !l.Break {
					per.Level, per.Blinds = structure.LevelNumber(i), Blinds{l.SmallBlind, l.BigBlind, l.Ante}
				}
				b.Upcoming = append(b.Upcoming, per)
			}
			toBreak += structure.Duration(i)
		}
	}

	// The field: chips and stacks from the standings, eliminations most recent first.
	var out []Elimination
	for _, s := range r.Standings {
		if s.Status == director.Out {
			if s.Place > 0 {
				out = append(out, Elimination{Place: s.Place, Player: s.Player, Prize: s.Prize})
			}
			continue
		}
		b.ChipsInPlay += s.Stack
	}
	if b.PlayersLeft > 0 {
		b.AverageStack = b.ChipsInPlay / int64(b.PlayersLeft)
	}
	slices.SortFunc(out, func(a, c Elimination) int { return a.Place - c.Place })
	if b.Finished && len(out) > 0 && out[0].Place == 1 {
		out = out[1:] // the winner is no elimination
	}
	b.Eliminations = append(b.Eliminations, out[:min(len(out), maxEliminations)]...)

	// The money: places paying the same are one row, and each place given names its player.
	winner := map[int]string{}
	for _, a := range r.Payouts.Awards {
		if a.Shared <= 1 {
			winner[a.Place] = string(a.Player)
		}
	}
	prizes := r.Payouts.Prizes
	for i := 0; i < len(prizes) && len(b.Payouts) < maxPayoutRows; {
		j := i + 1
		for j < len(prizes) && prizes[j] == prizes[i] && winner[i+1] == "" && winner[j+1] == "" {
			j++
		}
		places := strconv.Itoa(i + 1)
		if j-i > 1 {
			places += "-" + strconv.Itoa(j)
		}
		b.Payouts = append(b.Payouts, Payout{Places: places, Prize: prizes[i], Player: winner[i+1]})
		i = j
	}

	// The tables, by number.
	tables := slices.Clone(r.Tables)
	slices.SortFunc(tables, func(a, c workflows.TableView) int { return int(a.ID) - int(c.ID) })
	for _, t := range tables {
		if t.Closed || t.Players == 0 {
			continue
		}
		if len(b.TableList) == maxTables {
			b.MoreTables++
			continue
		}
		tb := Table{Number: int(t.ID), Hand: t.Hand, Seats: []Seat{}}
		for i, pl := range t.Seats {
			if pl == "" {
				continue
			}
			var stack int64
			if i < len(t.Stacks) {
				stack = t.Stacks[i]
			}
			tb.Seats = append(tb.Seats, Seat{Seat: i + 1, Player: pl, Stack: stack})
		}
		if t.Held {
			tb.Flags = append(tb.Flags, "held")
		}
		if t.Breaking {
			tb.Flags = append(tb.Flags, "breaking")
		}
		if watch != nil {
			tb.Watch = watch(tb.Number)
		}
		b.TableList = append(b.TableList, tb)
	}
	return b
}

// currentPeriod is the index in s of blind level number level, or of the break before it, or -1.
func currentPeriod(s floor.Structure, level int, onBreak bool) int {
	for i, l := range s.Levels {
		if s.LevelNumber(i) != level {
			continue
		}
		if l.Break == onBreak {
			return i
		}
	}
	return -1
}
