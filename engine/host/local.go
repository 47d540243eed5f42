package host

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// LocalConfig sets up a LocalReporter.
type LocalConfig struct {
	TableID string
	Config  engine.Config
	// Levels are the blind levels, the first from the start. With HandsPerLevel 0 the first stays
	// (a cash-like table); otherwise the level rises every HandsPerLevel hands and the last stays.
	Levels        []engine.Level
	HandsPerLevel int
	// Players are seated in order in Seats (or seats 0, 1, … when Seats is empty), each with Stack
	// chips, or Stacks[i] when given.
	Players []string
	Seats   []int
	Stack   int64
	Stacks  []int64
	// Button is the seat of the button for the first hand (rule T3: the caller draws it).
	Button int
	// Batch is how many hands the table plays between reports (1 in live play).
	Batch int
	// PollEvery is the wait a paused table is told to sleep between questions; zero: one second.
	PollEvery time.Duration
	// Observe, if set, sees every result the reporter accepts, in order, once (duplicates are not
	// shown again). It is called with the reporter's lock held: it must not call back.
	Observe func(report.HandResult)
}

// Placement is a player out of a LocalReporter's table, in the order they went.
type Placement struct {
	Player        string
	Hand          int64
	StartingStack int64 // at the start of the hand that eliminated him (rule R7)
}

// LocalReporter is a Reporter for one table on its own: it seats its players, keeps the blinds
// of its schedule, accepts hand results and closes the table when one player has every chip. It is a
// real director, not a stand-in: it accepts a hand only if it starts from the stacks it holds and
// conserves chips, keys results by hand number so that a report sent twice counts once, and refuses
// what contradicts its records with a *RejectedError. It is safe for concurrent use.
type LocalReporter struct {
	mu      sync.Mutex
	cfg     LocalConfig
	seats   []report.SeatState // by seat, players with chips only
	scratch []report.SeatState
	total   int64

	handNumber int64
	button     int
	positions  engine.Positions
	firstHand  bool
	paused     bool
	voided     int64
	reports    int64
	placed     []Placement
}

// NewLocalReporter seats the players and returns the reporter, or says what is wrong with cfg.
func NewLocalReporter(cfg LocalConfig) (*LocalReporter, error) {
	if cfg.Config.Seats < 2 || cfg.Config.Seats > engine.MaxSeats {
		return nil, fmt.Errorf("a table has 2 to %d seats, not %d (rule T1)", engine.MaxSeats, cfg.Config.Seats)
	}
	if len(cfg.Levels) == 0 {
		return nil, fmt.Errorf("a table needs at least one blind level")
	}
	for _, l := range cfg.Levels {
		if l.BigBlind <= 0 || l.SmallBlind < 0 || l.SmallBlind > l.BigBlind || l.Ante < 0 {
			return nil, fmt.Errorf("level %+v: a big blind above zero, a small blind no larger and an ante not negative", l)
		}
	}
	if len(cfg.Players) < 2 || len(cfg.Players) > cfg.Config.Seats {
		return nil, fmt.Errorf("%d players for %d seats: a table needs 2 to %d", len(cfg.Players), cfg.Config.Seats, cfg.Config.Seats)
	}
	if len(cfg.Seats) != 0 && len(cfg.Seats) != len(cfg.Players) || len(cfg.Stacks) != 0 && len(cfg.Stacks) != len(cfg.Players) {
		return nil, fmt.Errorf("the lists of seats and stacks, when given, have one entry a player")
	}
	if cfg.Button < 0 || cfg.Button >= cfg.Config.Seats {
		return nil, fmt.Errorf("the button's seat %d is not a seat of the table", cfg.Button)
	}
	c := &LocalReporter{cfg: cfg, button: cfg.Button, firstHand: true, positions: engine.Positions{Button: cfg.Button, SmallBlind: -1, BigBlind: -1}}
	taken := make(map[int]bool)
	ids := make(map[string]bool)
	for i, id := range cfg.Players {
		seat, stack := i, cfg.Stack
		if len(cfg.Seats) > 0 {
			seat = cfg.Seats[i]
		}
		if len(cfg.Stacks) > 0 {
			stack = cfg.Stacks[i]
		}
		switch {
		case seat < 0 || seat >= cfg.Config.Seats || taken[seat]:
			return nil, fmt.Errorf("player %q: seat %d is not a free seat of the table", id, seat)
		case ids[id] || id == "":
			return nil, fmt.Errorf("player %q: every player needs a name of his own", id)
		case stack <= 0:
			return nil, fmt.Errorf("player %q: a stack of %d; a seated player needs chips", id, stack)
		}
		taken[seat], ids[id] = true, true
		c.seats = append(c.seats, report.SeatState{Seat: seat, Player: id, Stack: stack, State: engine.Active})
		c.total += stack
	}
	sortSeats(c.seats)
	return c, nil
}

func sortSeats(s []report.SeatState) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Seat < s[j-1].Seat; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Report accepts the results in order and returns the State for the next hands. A result already
// accepted (by hand number) is skipped. Any result that contradicts the table's records rejects the
// whole report, which then changes nothing.
func (c *LocalReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	if err := ctx.Err(); err != nil {
		return report.State{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if tableID != c.cfg.TableID {
		return report.State{}, &report.RejectedError{TableID: tableID, Reason: fmt.Sprintf("this reporter directs table %q", c.cfg.TableID)}
	}
	// Apply to a copy, so that a rejected report changes nothing.
	c.scratch = append(c.scratch[:0], c.seats...)
	hand, pos, button, first := c.handNumber, c.positions, c.button, c.firstHand
	var voided int64
	placedFrom := len(c.placed)
	for i := range results {
		res := &results[i]
		switch {
		case res.TableID != c.cfg.TableID:
			return c.reject(res, placedFrom, fmt.Sprintf("a result of table %q", res.TableID))
		case res.HandNumber <= hand:
			continue // acknowledged already
		case res.HandNumber > hand+1:
			return c.reject(res, placedFrom, fmt.Sprintf("hand %d comes after hand %d: a hand is missing", res.HandNumber, hand))
		}
		if why := c.check(res); why != "" {
			return c.reject(res, placedFrom, why)
		}
		if res.Voided {
			voided++ // the hand is dealt again with the same number (D4)
			continue
		}
		c.scratch = c.scratch[:0]
		for _, e := range res.End {
			if e.Stack > 0 {
				c.scratch = append(c.scratch, report.SeatState{Seat: e.Seat, Player: e.Player, Stack: e.Stack, State: c.stateOf(e.Seat)})
			}
		}
		for _, e := range res.Eliminated {
			c.placed = append(c.placed, Placement{Player: e.ID, Hand: res.HandNumber, StartingStack: e.StartingStack})
		}
		hand, pos, button, first = res.HandNumber, res.Positions, res.Button, false
	}
	if c.cfg.Observe != nil {
		for i := range results {
			if results[i].HandNumber > c.handNumber {
				c.cfg.Observe(results[i])
			}
		}
	}
	c.seats, c.scratch = c.scratch, c.seats
	c.handNumber, c.positions, c.button, c.firstHand = hand, pos, button, first
	c.voided += voided
	c.reports++
	return c.state(), nil
}

// stateOf is the state of the player in seat s before the report (players keep theirs).
func (c *LocalReporter) stateOf(s int) engine.PlayerState {
	for _, p := range c.seats {
		if p.Seat == s {
			return p.State
		}
	}
	return engine.Active
}

func (c *LocalReporter) reject(res *report.HandResult, placedFrom int, why string) (report.State, error) {
	c.placed = c.placed[:placedFrom]
	return report.State{}, &report.RejectedError{TableID: c.cfg.TableID, HandNumber: res.HandNumber, Reason: why}
}

// check says what is wrong with the result of the next hand, or "": it starts from the stacks held
// (c.scratch), conserves chips, and eliminates exactly the players it leaves with none.
func (c *LocalReporter) check(res *report.HandResult) string {
	if len(res.Start) != len(c.scratch) || len(res.End) != len(res.Start) {
		return fmt.Sprintf("%d seats at the start and %d at the end; the table has %d players", len(res.Start), len(res.End), len(c.scratch))
	}
	var start, end int64
	for i, p := range c.scratch {
		s, e := res.Start[i], res.End[i]
		if s.Seat != p.Seat || s.Player != p.Player || s.Stack != p.Stack {
			return fmt.Sprintf("seat %d starts with %s holding %d; the table has %s holding %d", s.Seat, s.Player, s.Stack, p.Player, p.Stack)
		}
		if e.Seat != s.Seat || e.Player != s.Player || e.Stack < 0 {
			return fmt.Sprintf("seat %d ends with %s holding %d", e.Seat, e.Player, e.Stack)
		}
		start += s.Stack
		end += e.Stack
	}
	if start != c.total || end != c.total {
		return fmt.Sprintf("chips not conserved: %d at the start, %d at the end, %d at the table", start, end, c.total)
	}
	if res.Voided {
		for i := range res.Start {
			if res.Start[i] != res.End[i] {
				return fmt.Sprintf("a void hand (D4) gives every chip back, but seat %d went from %d to %d", res.Start[i].Seat, res.Start[i].Stack, res.End[i].Stack)
			}
		}
		return ""
	}
	out := 0
	for _, e := range res.End {
		if e.Stack == 0 {
			out++
			found := false
			for _, x := range res.Eliminated {
				found = found || x.ID == e.Player && x.Seat == e.Seat
			}
			if !found {
				return fmt.Sprintf("%s ends with no chips but is not eliminated", e.Player)
			}
		}
	}
	if out != len(res.Eliminated) {
		return fmt.Sprintf("%d players eliminated, %d left with no chips", len(res.Eliminated), out)
	}
	if p := res.Positions; !p.Played || p.Button != res.Button {
		return fmt.Sprintf("the positions after the hand (%+v) are not those of a hand with the button in seat %d", p, res.Button)
	}
	return ""
}

// state is the table's State now. The caller holds the lock.
func (c *LocalReporter) state() report.State {
	st := report.State{TableID: c.cfg.TableID, HandNumber: c.handNumber, Level: c.level(), Config: c.cfg.Config,
		Seats: append([]report.SeatState(nil), c.seats...), Button: c.button, FirstHand: c.firstHand,
		Positions: c.positions, Batch: max(c.cfg.Batch, 1)}
	switch {
	case len(c.seats) < 2:
		st.Directive = report.Close
	case c.paused:
		st.Directive = report.Wait
		st.WaitFor = c.cfg.PollEvery
		if st.WaitFor <= 0 {
			st.WaitFor = time.Second
		}
	default:
		st.Directive = report.Play
	}
	return st
}

// level is the level of the next hand: it rises every HandsPerLevel hands (rule B3).
func (c *LocalReporter) level() engine.Level {
	i := 0
	if c.cfg.HandsPerLevel > 0 {
		i = int(c.handNumber / int64(c.cfg.HandsPerLevel))
	}
	return c.cfg.Levels[min(i, len(c.cfg.Levels)-1)]
}

// State returns the table's State now, as Report would without results.
func (c *LocalReporter) State() report.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state()
}

// Pause makes the table wait after its current batch (a break); Resume lets it play again.
func (c *LocalReporter) Pause() { c.mu.Lock(); c.paused = true; c.mu.Unlock() }

// Resume ends a Pause.
func (c *LocalReporter) Resume() { c.mu.Lock(); c.paused = false; c.mu.Unlock() }

// TotalChips is every chip at the table: it never changes.
func (c *LocalReporter) TotalChips() int64 { return c.total }

// Hands returns the number of the last hand accepted and how many void hands were reported.
func (c *LocalReporter) Hands() (last, voided int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.handNumber, c.voided
}

// Placements returns the players out, in the order they went; players out in the same hand are
// listed in the engine's order and share the hand number (rule R7 places them by StartingStack).
func (c *LocalReporter) Placements() []Placement {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Placement(nil), c.placed...)
}

// Winner returns the player holding every chip, once the table is down to one.
func (c *LocalReporter) Winner() (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.seats) == 1 {
		return c.seats[0].Player, true
	}
	return "", false
}
