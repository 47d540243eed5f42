package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/replay"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// Options tune a Runner. The zero value is live play: a crypto deck, the wall clock, no logging.
type Options struct {
	// Deck deals the cards: nil for crypto/rand (rule D1); an engine.SeededDeck only for tests and
	// simulations.
	Deck engine.DeckSource
	// Clock keeps time: nil for the wall clock; a FakeClock to skip waits and backoffs.
	Clock Clock
	// Logger receives errors (a hand that did not conserve chips, a report retried); nil discards.
	Logger *slog.Logger
	// History attaches each complete hand's PHH history to its HandResult.
	History bool
	// TurnTime is how long a player that is not Instant has for a decision before the action clock
	// expires (rule A15). Zero: the table's ClockPolicy, Think + Clock + Countdown (online, the
	// clock is called on every player who uses up his think time).
	TurnTime time.Duration
	// Retry is the backoff between failed reports; the zero value is DefaultRetry.
	Retry Retry
	// IdleWait is how long the table waits when told to Play with fewer than two players who can
	// be dealt in, before it asks again. Zero: one second.
	IdleWait time.Duration
	// OnHand, if set, sees each hand played (void ones too) once its result is made, before it is
	// reported. The result and the runner's Table are valid during the call only.
	OnHand func(*report.HandResult)
	// Observe, if set, sees the table once the hand is dealt and after every action (see observe.go).
	Observe func(*engine.Table)
	// Pace, in a simulation played at a set speed, is the least time from the start of one hand to
	// the start of the next: the table deals at the clock's pace whatever the size of its batches.
	// Zero deals each hand as soon as the last is done.
	Pace time.Duration
	// ReportAfter, in a simulation (batches of hands), is the most time a batch deals before it
	// reports: the batch ends after the hand that reaches it, so that a table whose hands are slow
	// (bots that think) hears a pause, a level or an order within about this long rather than
	// after its whole batch. Zero: the batch's size alone bounds it.
	ReportAfter time.Duration
}

// Retry is the backoff between attempts to report: Initial, doubling to Max. Attempts bounds the
// attempts (0: until the context ends, as in production, where the reporter comes back).
type Retry struct {
	Initial, Max time.Duration
	Attempts     int
}

// DefaultRetry starts at 50 ms and doubles up to 5 s, forever.
var DefaultRetry = Retry{Initial: 50 * time.Millisecond, Max: 5 * time.Second}

// Stats counts what a Runner did. Fields are read with atomic loads: a progress display may read
// them while the table plays.
type Stats struct {
	Hands       int64 // hands played to the end and reported or waiting to be
	Voided      int64 // hands void (rule D4): an irregular deck, or chips not conserved
	Interrupted int64 // hands void because the context ended in the middle (never reported)
	Illegal     int64 // decisions refused by the engine (each told to the player, who is asked again)
	TimedOut    int64 // turns the action clock ended (rule A15), errors and absent players included
	Reports     int64 // successful reports
	Retries     int64 // failed reports that were retried
	Waits       int64 // Wait directives obeyed
}

// Runner plays one table: it asks its Reporter what to do, deals hands with the engine, asks each
// player's Decider for their actions, and reports the results. It keeps one engine.Table for its
// life and brings it in line with every State the reporter sends, so that a new Runner started
// after a crash continues from the last acknowledged hand exactly.
//
// A Runner is driven by one goroutine, in Run; Stats may be read from others.
type Runner struct {
	id       string
	reporter report.Reporter
	players  engine.Players
	opt      Options
	clock    Clock
	log      *slog.Logger

	tbl   *engine.Table
	seats [engine.MaxSeats]seatPlayer
	view  engine.View // the buffer each Instant decider reads

	results []report.HandResult
	stacks  []report.SeatStack // backing store of the results' Start and End, reused after each report

	hands, voided, interrupted, illegal, timedOut, reports, retries, waits atomic.Int64

	dealt time.Time // when the last hand started, for Options.Pace
}

// seatPlayer is the Decider of the player in a seat.
type seatPlayer struct {
	id      string
	d       engine.Decider
	instant bool
}

// NewRunner returns a runner for table tableID, reporting to reporter, with players' decisions from
// players.
func NewRunner(tableID string, reporter report.Reporter, players engine.Players, opt Options) *Runner {
	r := &Runner{id: tableID, reporter: reporter, players: players, opt: opt, clock: opt.Clock, log: opt.Logger}
	if r.clock == nil {
		r.clock = RealClock{}
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.opt.Deck == nil {
		r.opt.Deck = &engine.CryptoDeck{}
	}
	if r.opt.Retry == (Retry{}) {
		r.opt.Retry = DefaultRetry
	}
	if r.opt.IdleWait <= 0 {
		r.opt.IdleWait = time.Second
	}
	return r
}

// Stats returns the counts so far.
func (r *Runner) Stats() Stats {
	return Stats{Hands: r.hands.Load(), Voided: r.voided.Load(), Interrupted: r.interrupted.Load(),
		Illegal: r.illegal.Load(), TimedOut: r.timedOut.Load(), Reports: r.reports.Load(),
		Retries: r.retries.Load(), Waits: r.waits.Load()}
}

// Table returns the runner's engine table, nil before the first hand: for inspection from OnHand or
// after Run returns, never while Run is dealing.
func (r *Runner) Table() *engine.Table { return r.tbl }

// Run plays until the reporter closes the table (it returns nil), ctx ends (it returns ctx.Err()),
// or something no retry can fix (a *RejectedError, a State the engine cannot set up). A hand in
// progress when ctx ends is void (rule D4): every chip goes back, and it is not reported; hands of
// a batch played but not yet reported are lost with it, and the reporter's state, which does not
// have them, stays the truth. (Run called again on the same Runner reports them first; the
// reporter skips any it has from another runner since, by hand number.)
func (r *Runner) Run(ctx context.Context) error {
	for {
		st, err := r.report(ctx)
		if err != nil {
			return err
		}
		switch st.Directive {
		case report.Close:
			return nil
		case report.Wait:
			// WaitFor 0 asks again at once: a reporter that waits itself (the TableWorkflow holds
			// the Update until something changes) answers Wait only when its own wait ran out.
			r.waits.Add(1)
			if err := r.clock.Sleep(ctx, st.WaitFor); err != nil {
				return err
			}
		case report.Play:
			if err := r.load(&st); err != nil {
				return fmt.Errorf("table %s: setting up hand %d: %w", r.id, st.HandNumber+1, err)
			}
			if err := r.playBatch(ctx, &st); err != nil {
				return err
			}
		default:
			return fmt.Errorf("table %s: unknown directive %v", r.id, st.Directive)
		}
	}
}

// report sends the results played since the last report, retrying with backoff, and returns the
// State for what comes next.
func (r *Runner) report(ctx context.Context) (report.State, error) {
	delay := r.opt.Retry.Initial
	for attempt := 1; ; attempt++ {
		st, err := r.reporter.Report(ctx, r.id, r.results)
		if err == nil {
			r.reports.Add(1)
			r.results, r.stacks = r.results[:0], r.stacks[:0]
			return st, nil
		}
		if ctx.Err() != nil {
			return report.State{}, ctx.Err()
		}
		if rej := (*report.RejectedError)(nil); errors.As(err, &rej) {
			return report.State{}, err
		}
		if r.opt.Retry.Attempts > 0 && attempt >= r.opt.Retry.Attempts {
			return report.State{}, fmt.Errorf("table %s: report failed %d times: %w", r.id, attempt, err)
		}
		r.retries.Add(1)
		r.log.Warn("report failed; retrying", "table", r.id, "results", len(r.results), "attempt", attempt, "in", delay, "err", err)
		if err := r.clock.Sleep(ctx, delay); err != nil {
			return report.State{}, err
		}
		delay = min(2*delay, r.opt.Retry.Max)
	}
}

// load brings the engine table in line with st: configuration, level, seats, stacks, states, the
// hand number and the positions the next hand moves from. Everything is set from st, the truth, even
// where the table already agrees.
func (r *Runner) load(st *report.State) error {
	cfg := st.Config
	if cfg.Clock == (engine.ClockPolicy{}) {
		cfg.Clock = engine.DefaultClock // as the engine normalises it
	}
	switch {
	case r.tbl == nil:
		t, err := engine.NewTable(cfg, st.Level, r.opt.Deck)
		if err != nil {
			return err
		}
		r.tbl = t
	case r.tbl.Config() != cfg:
		if err := r.tbl.Reset(cfg, st.Level); err != nil {
			return err
		}
	}
	t := r.tbl
	if t.Phase() == engine.Betting { // cannot happen: a hand never outlives playHand
		if err := t.Void(); err != nil {
			return err
		}
	}
	if t.Level() != st.Level {
		if err := t.SetLevel(st.Level); err != nil {
			return err
		}
	}
	var want [engine.MaxSeats]*report.SeatState
	for i := range st.Seats {
		s := &st.Seats[i]
		if s.Seat < 0 || s.Seat >= cfg.Seats {
			return engine.ErrBadSeat{Seat: s.Seat, Reason: "no such seat at this table"}
		}
		if want[s.Seat] != nil {
			return engine.ErrBadSeat{Seat: s.Seat, Reason: "two players in one seat"}
		}
		want[s.Seat] = s
	}
	for s := 0; s < cfg.Seats; s++ {
		w, p := want[s], t.Player(s)
		if p.Occupied && (w == nil || w.Player != p.ID) {
			if err := t.Unseat(s); err != nil {
				return err
			}
			p.Occupied = false
		}
		switch {
		case w == nil:
			r.seats[s] = seatPlayer{}
			continue
		case !p.Occupied:
			if err := t.Sit(s, w.Player, w.Stack, w.State); err != nil {
				return err
			}
		default:
			if p.Stack != w.Stack {
				if err := t.SetStack(s, w.Stack); err != nil {
					return err
				}
			}
			if p.State != w.State {
				if err := t.SetState(s, w.State); err != nil {
					return err
				}
			}
		}
		if sp := &r.seats[s]; sp.id != w.Player || sp.d == nil && r.players != nil {
			*sp = seatPlayer{id: w.Player}
			if r.players != nil {
				sp.d = r.players.Decider(w.Player)
			}
			_, sp.instant = sp.d.(engine.Instant)
		}
	}
	for s := cfg.Seats; s < engine.MaxSeats; s++ {
		r.seats[s] = seatPlayer{}
	}
	if err := t.SetHandNumber(st.HandNumber); err != nil {
		return err
	}
	return t.SetPositions(r.positions(st))
}

// positions returns where the next hand's button and blinds move from, by st.
func (r *Runner) positions(st *report.State) engine.Positions {
	switch {
	case st.FirstHand:
		return engine.Positions{Button: st.Button} // the drawn button (T3)
	case st.Positions.Played:
		return st.Positions
	}
	// A reporter that kept only the button: the blinds were the next two players after it then.
	// It is exact unless players around the blinds have left since.
	p := engine.Positions{Button: st.Button, SmallBlind: -1, BigBlind: -1, Played: true}
	n := st.Config.Seats
	for k := 1; k <= n && p.BigBlind < 0; k++ {
		s := (st.Button + k) % n
		if pl := r.tbl.Player(s); pl.Occupied && pl.Stack > 0 {
			if p.SmallBlind < 0 {
				p.SmallBlind = s
			} else {
				p.BigBlind = s
			}
		}
	}
	if p.BigBlind < 0 { // heads-up or fewer: the button is the small blind (B6)
		p.BigBlind, p.SmallBlind = p.SmallBlind, st.Button
	}
	if p.BigBlind < 0 {
		return engine.Positions{Button: st.Button}
	}
	r.log.Debug("state without positions: blinds derived from the button", "table", r.id, "positions", p)
	return p
}

// playBatch plays up to st.Batch hands, keeping their results for the next report.
func (r *Runner) playBatch(ctx context.Context, st *report.State) error {
	n := max(st.Batch, 1)
	start := r.clock.Now()
	for i := 0; i < n; i++ {
		if err := r.levelFor(st); err != nil {
			return fmt.Errorf("table %s: setting the level of hand %d: %w", r.id, r.tbl.HandNumber()+1, err)
		}
		if err := r.pace(ctx); err != nil {
			return err
		}
		played, err := r.playHand(ctx)
		if err != nil {
			return err
		}
		if !played {
			if i == 0 {
				// Told to play with nobody to play against: wait rather than spin.
				r.log.Warn("told to play with fewer than two players who can be dealt in", "table", r.id, "hand", st.HandNumber+1)
				return r.clock.Sleep(ctx, r.opt.IdleWait)
			}
			return nil
		}
		last := &r.results[len(r.results)-1]
		if !st.Go(last.HandNumber, len(last.Eliminated) > 0) {
			return nil // the credit ends here: the floor hears this hand first
		}
		if r.opt.ReportAfter > 0 && r.clock.Now().Sub(start) >= r.opt.ReportAfter {
			return nil // the rest of the batch after a report: the floor may have news
		}
	}
	return nil
}

// pace waits, with Options.Pace, until a Pace has gone since the last hand started. Time spent
// waiting for the reporter counts: a table that waited longer than a hand deals at once.
func (r *Runner) pace(ctx context.Context) error {
	if r.opt.Pace <= 0 {
		return nil
	}
	if !r.dealt.IsZero() {
		if wait := r.dealt.Add(r.opt.Pace).Sub(r.clock.Now()); wait > 0 {
			if err := r.clock.Sleep(ctx, wait); err != nil {
				return err
			}
		}
	}
	r.dealt = r.clock.Now()
	return nil
}

// levelFor sets the level of the next hand from st.Levels, the levels a simulation's schedule
// starts during the batch (B3: a level applies from the hand its schedule names).
func (r *Runner) levelFor(st *report.State) error {
	next := r.tbl.HandNumber() + 1
	l, ok := st.Level, false
	for _, lf := range st.Levels {
		if lf.From <= next {
			l, ok = lf.Level, true
		}
	}
	if !ok || r.tbl.Level() == l {
		return nil
	}
	return r.tbl.SetLevel(l)
}

// playHand deals one hand and plays it to the end, or voids it when ctx ends. It reports false when
// no hand could start (fewer than two players).
func (r *Runner) playHand(ctx context.Context) (bool, error) {
	t := r.tbl
	before := t.TotalChips()
	pos := t.Positions()
	if err := t.StartHand(); err != nil {
		if errors.As(err, new(engine.ErrTooFewPlayers)) {
			return false, nil
		}
		return false, fmt.Errorf("table %s: dealing hand %d: %w", r.id, t.HandNumber()+1, err)
	}
	if r.log.Enabled(ctx, slog.LevelDebug) { // no allocation for the arguments when it is off
		r.log.Debug("hand dealt", "table", r.id, "hand", t.HandNumber())
	}
	r.observe()
	done := ctx.Done()
	for t.Phase() == engine.Betting {
		select {
		case <-done:
			if err := t.Void(); err != nil {
				return false, err
			}
			r.interrupted.Add(1)
			return false, ctx.Err()
		default:
		}
		if err := r.turn(ctx); err != nil {
			return false, err
		}
		r.observe()
	}
	r.record(before, pos)
	return true, nil
}

// MaxRefusals bounds the illegal decisions a player may give in one turn (rule A15): each is
// refused with the engine's VerifyX error and the player asked again; after this many the turn ends
// as when the action clock runs out, so a player who keeps answering illegally never holds the table.
const MaxRefusals = 3

// turn asks the player to act for a decision and applies it. A decision the engine refuses is told to
// the player (Refusals) with the error naming the rule and the amounts, and the player is asked again
// under the same action clock; only the clock folds (or checks, under checkWhenFree).
func (r *Runner) turn(ctx context.Context) error {
	t := r.tbl
	seat := t.ToAct()
	sp := &r.seats[seat]
	_, since := t.Clock()
	var expired <-chan time.Time // one clock for the whole turn, however many times the player answers
	if sp.d != nil && !sp.instant {
		expired = r.clock.After(r.turnTime())
	}
	for refused := 0; ; refused++ {
		var d engine.Decision
		var err error
		switch {
		case sp.d == nil:
			err = errNobody
		case refused == MaxRefusals:
			err = errRefused
		case sp.instant:
			r.view = t.View(seat)
			d, err = sp.d.Decide(ctx, &r.view)
		default:
			d, err = r.timedDecision(ctx, sp.d, seat, expired)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil // the hand is voided by the caller
			}
			r.timedOut.Add(1)
			_, err := t.TimeExpired(seat, since)
			return err
		}
		_, err = t.Act(seat, d.Action, d.To)
		if err == nil {
			return nil
		}
		// A refused action changes nothing (the turn and its clock are the same): tell the player
		// why and ask again.
		r.illegal.Add(1)
		r.log.Debug("illegal action refused", "table", r.id, "seat", seat, "player", sp.id, "action", d.Action, "to", d.To, "err", err)
		if l, ok := sp.d.(engine.Refusals); ok {
			l.Refused(d, err)
		}
	}
}

var errNobody = errors.New("nobody acts for this player")

// errExpired is the action clock's end (rule A15).
var errExpired = errors.New("the action clock expired")

// errRefused ends a turn after MaxRefusals illegal decisions, as the clock would.
var errRefused = errors.New("too many illegal decisions in one turn")

// turnTime is the action clock of one turn.
func (r *Runner) turnTime() time.Duration {
	if r.opt.TurnTime > 0 {
		return r.opt.TurnTime
	}
	c := r.tbl.Config().Clock
	return c.Think + c.Clock + c.Countdown
}

// timedDecision runs a Decider that may block, under the action clock: it answers before expired
// fires or the turn expires.
func (r *Runner) timedDecision(ctx context.Context, d engine.Decider, seat int, expired <-chan time.Time) (engine.Decision, error) {
	v := r.tbl.View(seat) // a copy of its own: the decider may still read it after the turn ended
	dctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		d   engine.Decision
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		d, err := d.Decide(dctx, &v)
		ch <- answer{d, err}
	}()
	select {
	case a := <-ch:
		return a.d, a.err
	case <-expired:
		return engine.Decision{}, errExpired
	case <-ctx.Done():
		return engine.Decision{}, ctx.Err()
	}
}

// record makes the result of the hand just played, checks that it conserved chips, and unseats the
// players it eliminated (the reporter unseats them too).
func (r *Runner) record(before int64, pos engine.Positions) {
	t := r.tbl
	hd := t.Header()
	res := report.HandResult{TableID: r.id, HandNumber: hd.Number, Button: hd.Button, Level: hd.Level,
		Voided: t.Phase() == engine.Voided}
	first := len(r.stacks)
	var sumStart, sumEnd int64
	for s := 0; s < hd.Config.Seats; s++ {
		if p := hd.Seats[s]; p.Occupied {
			r.stacks = append(r.stacks, report.SeatStack{Seat: s, Player: p.ID, Stack: p.Stack})
			sumStart += p.Stack
		}
	}
	mid := len(r.stacks)
	for s := 0; s < hd.Config.Seats; s++ {
		if p := hd.Seats[s]; p.Occupied {
			stack := t.Stack(s)
			r.stacks = append(r.stacks, report.SeatStack{Seat: s, Player: p.ID, Stack: stack})
			sumEnd += stack
		}
	}
	res.Start = r.stacks[first:mid:mid]
	res.End = r.stacks[mid:len(r.stacks):len(r.stacks)]

	if sumStart != before || sumEnd != before {
		// The engine lost or made chips: undo the hand (D4) and say so loudly.
		r.log.Error("chips not conserved: hand void", "table", r.id, "hand", hd.Number,
			"before", before, "start", sumStart, "end", sumEnd)
		for s := 0; s < hd.Config.Seats; s++ {
			if p := hd.Seats[s]; p.Occupied {
				_ = t.SetStack(s, p.Stack)
				_ = t.SetState(s, p.State)
			}
		}
		_ = t.SetPositions(pos)
		_ = t.SetHandNumber(hd.Number - 1)
		copy(res.End, res.Start)
		res.Voided = true
	}
	res.Positions = t.Positions()
	if res.Voided {
		r.voided.Add(1)
	} else {
		r.hands.Add(1)
		out := t.Result()
		if out.NEliminated > 0 {
			res.Eliminated = append([]engine.Elimination(nil), out.Eliminated[:out.NEliminated]...)
			res.Knockouts = knockouts(t, hd, res.Eliminated)
		}
		if r.opt.History {
			res.History = r.history()
		}
	}
	r.results = append(r.results, res)
	if r.opt.OnHand != nil {
		r.opt.OnHand(&r.results[len(r.results)-1])
	}
	for _, e := range res.Eliminated {
		_ = t.Unseat(e.Seat)
	}
}

// history is the hand just played in PHH, or "" when it cannot be written (logged).
func (r *Runner) history() string {
	h, err := replay.Export(r.tbl)
	if err == nil {
		var b []byte
		if b, err = h.Marshal(); err == nil {
			return string(b)
		}
	}
	r.log.Error("hand history not written", "table", r.id, "hand", r.tbl.HandNumber(), "err", err)
	return ""
}
