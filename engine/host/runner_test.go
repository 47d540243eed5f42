package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/eval"
)

// Six bots play to one winner under the LocalReporter; every hand conserves chips (the
// reporter refuses any that does not, and the ledger checks again), and hand numbers run 1, 2, 3, ….
func TestSixBotsPlayToOneWinner(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kinds []bot.Kind
		batch int
	}{
		{"random", []bot.Kind{bot.KindRandom}, 1},
		{"strength", []bot.Kind{bot.KindStrength}, 1},
		{"mixed batch 10", []bot.Kind{bot.KindRandom, bot.KindStrength}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 5; seed++ {
				var l ledger
				c := newLocal(t, 6, tc.batch, &l)
				clock := host.NewFakeClock(epoch)
				r := host.NewRunner("t1", c, bot.Players(seed, tc.kinds...), options(seed, clock))
				if err := r.Run(context.Background()); err != nil {
					t.Fatal(err)
				}
				l.check(t)
				winner, ok := c.Winner()
				if !ok {
					t.Fatal("the table closed without a winner")
				}
				st := c.State()
				if st.Directive != report.Close || len(st.Seats) != 1 || st.Seats[0].Stack != 6*1500 {
					t.Fatalf("final state %+v", st)
				}
				if p := c.Placements(); len(p) != 5 {
					t.Fatalf("%d players placed, want 5: %+v", len(p), p)
				}
				s := r.Stats()
				if s.Illegal != 0 || s.TimedOut != 0 || s.Interrupted != 0 {
					t.Errorf("stats %+v: bots act legally and at once", s)
				}
				last, _ := c.Hands()
				if last != s.Hands || last > 2000 {
					t.Errorf("%d hands accepted, %d played: a table of bots should end in a few hundred", last, s.Hands)
				}
				t.Logf("seed %d: %s wins after %d hands, %d reports", seed, winner, last, s.Reports)
			}
		})
	}
}

// The same seeds give the same tournament: bots and deck are deterministic.
func TestRunnerDeterministic(t *testing.T) {
	play := func() ([]host.Placement, int64) {
		c := newLocal(t, 6, 3, nil)
		r := host.NewRunner("t1", c, bot.Players(7, bot.KindRandom, bot.KindStrength), options(7, host.NewFakeClock(epoch)))
		if err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		last, _ := c.Hands()
		return c.Placements(), last
	}
	p1, n1 := play()
	p2, n2 := play()
	if n1 != n2 || len(p1) != len(p2) {
		t.Fatalf("%d hands then %d", n1, n2)
	}
	for i := range p1 {
		if p1[i] != p2[i] {
			t.Fatalf("placement %d: %+v then %+v", i, p1[i], p2[i])
		}
	}
}

// Rule D4: a runner cancelled in the middle of a batch loses the hands not yet reported; a new
// runner started from the reporter's state continues with the next hand number, and no chip is
// lost or made.
func TestRunnerRestartContinues(t *testing.T) {
	for _, batch := range []int{1, 10} {
		var l ledger
		c := newLocal(t, 6, batch, &l)
		clock := host.NewFakeClock(epoch)
		ctx, cancel := context.WithCancel(context.Background())
		played := 0
		opt := options(1, clock)
		opt.OnHand = func(*report.HandResult) {
			if played++; played == 17 {
				cancel()
			}
		}
		r1 := host.NewRunner("t1", c, bot.Players(1), opt)
		if err := r1.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("batch %d: first runner returned %v, want context.Canceled", batch, err)
		}
		acked, _ := c.Hands()
		if want := int64((17 - 1) / batch * batch); acked != want { // the batch of hand 17 is never reported
			t.Fatalf("batch %d: %d hands acknowledged, want %d (the rest of the batch is lost)", batch, acked, want)
		}
		// In a batch, the next hand starts and is interrupted; alone, the cancel comes before the
		// report.
		if want := int64(min(batch-1, 1)); r1.Stats().Interrupted != want {
			t.Errorf("batch %d: stats %+v: want %d interrupted", batch, r1.Stats(), want)
		}
		// A new process: a new runner, a new deck.
		r2 := host.NewRunner("t1", c, bot.Players(2), options(2, clock))
		if err := r2.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		l.check(t)
		if _, ok := c.Winner(); !ok {
			t.Fatal("no winner")
		}
		if l.hands() <= int(acked) {
			t.Fatalf("batch %d: the second runner played no hand", batch)
		}
	}
}

// flaky fails the first reports that carry results: the first after the reporter took them (the
// answer was lost), the second before.
type flaky struct {
	inner *host.LocalReporter
	fails int
	calls int
}

func (f *flaky) Report(ctx context.Context, id string, results []report.HandResult) (report.State, error) {
	f.calls++
	if len(results) > 0 && f.fails < 2 {
		f.fails++
		if f.fails == 1 {
			if _, err := f.inner.Report(ctx, id, results); err != nil {
				return report.State{}, err
			}
			return report.State{}, errors.New("connection reset after the update was applied")
		}
		return report.State{}, errors.New("connection refused")
	}
	return f.inner.Report(ctx, id, results)
}

// A report that fails twice and then succeeds counts each hand once; the runner backs off between
// attempts on its clock.
func TestReportRetriedCountsOnce(t *testing.T) {
	for _, batch := range []int{1, 5} {
		var l ledger
		f := &flaky{inner: newLocal(t, 6, batch, &l)}
		clock := host.NewFakeClock(epoch)
		r := host.NewRunner("t1", f, bot.Players(3), options(3, clock))
		if err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		l.check(t)
		if s := r.Stats(); s.Retries != 2 {
			t.Errorf("batch %d: %d retries, want 2", batch, s.Retries)
		}
		if slept, n := clock.Slept(); n != 2 || slept != 150*time.Millisecond {
			t.Errorf("batch %d: slept %v in %d sleeps, want 50ms then 100ms", batch, slept, n)
		}
		last, _ := f.inner.Hands()
		if int64(l.hands()) != last {
			t.Errorf("batch %d: %d results accepted for %d hands", batch, l.hands(), last)
		}
	}
}

// A reporter's rejection is not retried: the runner stops with it.
func TestRejectedReportStops(t *testing.T) {
	c := newLocal(t, 3, 1, nil)
	reject := reporterFunc(func(ctx context.Context, id string, res []report.HandResult) (report.State, error) {
		if len(res) > 0 {
			res[0].End[0].Stack++ // a chip out of nowhere
		}
		return c.Report(ctx, id, res)
	})
	r := host.NewRunner("t1", reject, bot.Players(1), options(1, host.NewFakeClock(epoch)))
	var rej *report.RejectedError
	if err := r.Run(context.Background()); !errors.As(err, &rej) || !strings.Contains(rej.Reason, "conserved") {
		t.Fatalf("Run returned %v, want a rejection for chips not conserved", err)
	}
	if last, _ := c.Hands(); last != 0 {
		t.Fatalf("the rejected hand was counted: %d", last)
	}
}

type reporterFunc func(ctx context.Context, id string, res []report.HandResult) (report.State, error)

func (f reporterFunc) Report(ctx context.Context, id string, res []report.HandResult) (report.State, error) {
	return f(ctx, id, res)
}

// Rule D4: a hand interrupted by the context's end is void: every chip bet in it goes back, and it
// is not reported.
func TestInterruptedHandIsVoid(t *testing.T) {
	c := newLocal(t, 4, 1, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var potAtCancel int64
	d := decideFunc(func(v *engine.View) engine.Decision {
		if v.HandNumber == 3 && v.Round == engine.Flop && potAtCancel == 0 {
			potAtCancel = v.Pot
			cancel()
		}
		return caller(v)
	})
	r := host.NewRunner("t1", c, all(d), options(1, host.NewFakeClock(epoch)))
	if err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v", err)
	}
	if potAtCancel == 0 {
		t.Fatal("no chips were in the pot when the hand was interrupted")
	}
	tb := r.Table()
	if tb.Phase() != engine.Voided {
		t.Fatalf("the hand is %v, want voided", tb.Phase())
	}
	st := c.State()
	if st.HandNumber != 2 {
		t.Fatalf("the reporter is at hand %d, want 2: the interrupted hand is not reported", st.HandNumber)
	}
	for _, s := range st.Seats {
		if got := tb.Stack(s.Seat); got != s.Stack {
			t.Errorf("seat %d holds %d after the void, had %d before the hand", s.Seat, got, s.Stack)
		}
	}
	if tb.TotalChips() != c.TotalChips() {
		t.Errorf("%d chips at the table, want %d", tb.TotalChips(), c.TotalChips())
	}
	if s := r.Stats(); s.Interrupted != 1 || s.Hands != 2 {
		t.Errorf("stats %+v", s)
	}
}

// Rule D5 (the no-leak rule): every view a decider is given shows its own hole cards and nobody
// else's.
func TestViewsHoldOnlyOwnCards(t *testing.T) {
	views := 0
	var failed string
	watch := func(d engine.Decider) engine.Decider {
		return decideFunc(func(v *engine.View) engine.Decision {
			views++
			if failed == "" {
				failed = leak(v)
			}
			dec, _ := d.Decide(context.Background(), v)
			return dec
		})
	}
	bots := bot.Players(5, bot.KindRandom, bot.KindStrength)
	ps := engine.PlayersFunc(func(p string) engine.Decider { return watch(bots.Decider(p)) })
	for _, batch := range []int{1, 7} {
		r := host.NewRunner("t1", newLocal(t, 9, batch, nil), ps, options(5, host.NewFakeClock(epoch)))
		if err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if failed != "" {
		t.Fatal(failed)
	}
	if views < 1000 {
		t.Fatalf("only %d views checked", views)
	}
}

// leak says what is wrong with a seat's view, or "".
func leak(v *engine.View) string {
	me := v.ToAct
	if v.Viewer != me || me < 0 {
		return "a view for a seat other than the one to act"
	}
	for s := 0; s < v.NSeats; s++ {
		sv := v.Seats[s]
		switch {
		case s == me && (!sv.Known || !sv.Cards[0].Valid() || !sv.Cards[1].Valid() || sv.Cards[0] == sv.Cards[1]):
			return "a player does not see his own cards"
		case s != me && (sv.Known || sv.Shown || sv.Cards != [2]eval.Card{}):
			return "a view holds another player's hole cards"
		}
	}
	return ""
}

// With Batch > 1 the runner reports once a batch.
func TestBatchReportsOncePerBatch(t *testing.T) {
	var l ledger
	c := newLocal(t, 6, 20, &l)
	r := host.NewRunner("t1", c, bot.Players(9), options(9, host.NewFakeClock(epoch)))
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.check(t)
	s := r.Stats()
	// One report before the first hand, one per full batch, one for the last (short) batch.
	if max := s.Hands/20 + 2; s.Reports > max {
		t.Fatalf("%d reports for %d hands in batches of 20, want at most %d", s.Reports, s.Hands, max)
	}
}

// waitFirst tells the table to wait n times before it plays.
type waitFirst struct {
	inner report.Reporter
	n     int
}

func (w *waitFirst) Report(ctx context.Context, id string, res []report.HandResult) (report.State, error) {
	st, err := w.inner.Report(ctx, id, res)
	if err == nil && w.n > 0 {
		w.n--
		st.Directive, st.WaitFor = report.Wait, 5*time.Minute
	}
	return st, err
}

// Wait then Play: the runner sleeps what it is told on its clock, then plays.
func TestWaitThenPlay(t *testing.T) {
	var l ledger
	clock := host.NewFakeClock(epoch)
	r := host.NewRunner("t1", &waitFirst{inner: newLocal(t, 6, 1, &l), n: 2}, bot.Players(4), options(4, clock))
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.check(t)
	if slept, n := clock.Slept(); slept != 10*time.Minute || n != 2 {
		t.Fatalf("slept %v in %d sleeps, want 10m in 2", slept, n)
	}
	if r.Stats().Waits != 2 || l.hands() == 0 {
		t.Fatalf("stats %+v", r.Stats())
	}
	// The waits went by on the fake clock (it moved 10 minutes), not on the wall clock: the test would
	// otherwise take 10 minutes and time out.
	if moved := clock.Now().Sub(epoch); moved < 10*time.Minute {
		t.Fatalf("the fake clock moved %v, want at least the 10 minutes slept", moved)
	}
}

// A paused LocalReporter tells the table to wait; resumed, to play.
func TestLocalPause(t *testing.T) {
	c := newLocal(t, 3, 1, nil)
	c.Pause()
	if st := c.State(); st.Directive != report.Wait || st.WaitFor != time.Second {
		t.Fatalf("paused: %v %v", st.Directive, st.WaitFor)
	}
	c.Resume()
	if st := c.State(); st.Directive != report.Play {
		t.Fatalf("resumed: %v", st.Directive)
	}
}

// slow is a decider that is not Instant: it lets think pass on the clock, then answers, or, past
// the turn time, waits for the runner to end its turn.
type slow struct {
	clock *host.FakeClock
	think time.Duration
}

func (s slow) Decide(ctx context.Context, v *engine.View) (engine.Decision, error) {
	s.clock.Advance(s.think)
	if s.think > 100*time.Second {
		<-ctx.Done()
		return engine.Decision{}, ctx.Err()
	}
	return caller(v), nil
}

// Rule A15: a player who does not answer within the turn time (Think + Clock + Countdown) is folded,
// or checked under checkWhenFree when nothing is owed; one who answers in time acts.
func TestRuleA15ActionClock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		expiry engine.ClockExpiry
		think  time.Duration
		want   []engine.EventKind // the big blind's turn preflop, after the small blind called
	}{
		{"expired, fold", engine.ExpireFold, 2 * time.Minute, []engine.EventKind{engine.EvTimeExpired, engine.EvFold}},
		{"expired, check when free", engine.ExpireCheckWhenFree, 2 * time.Minute, []engine.EventKind{engine.EvTimeExpired, engine.EvCheck}},
		{"in time", engine.ExpireFold, 10 * time.Second, []engine.EventKind{engine.EvCheck}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 2, Expiry: tc.expiry},
				Levels: levels, Players: []string{"sb", "bb"}, Stack: 1000, Button: 0})
			if err != nil {
				t.Fatal(err)
			}
			clock := host.NewFakeClock(epoch)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ps := engine.PlayersFunc(func(p string) engine.Decider {
				if p == "bb" {
					return slow{clock: clock, think: tc.think}
				}
				return caller
			})
			opt := options(1, clock)
			var got []engine.EventKind
			var r *host.Runner
			opt.OnHand = func(*report.HandResult) {
				seen := false
				for _, e := range r.Table().Log() {
					if e.Kind == engine.EvCall {
						seen = true // the small blind called; the big blind's turn follows
						continue
					}
					if seen && e.Seat == 1 && len(got) < len(tc.want) {
						got = append(got, e.Kind)
					}
				}
				cancel()
			}
			r = host.NewRunner("t1", c, ps, opt)
			if err := r.Run(ctx); !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("the big blind's turn: %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("the big blind's turn: %v, want %v", got, tc.want)
				}
			}
			if expired := tc.think > 100*time.Second; (r.Stats().TimedOut > 0) != expired {
				t.Errorf("stats %+v", r.Stats())
			}
		})
	}
}

// learner raises to 1 chip first; told why that is refused, it checks or calls instead.
type learner struct {
	told  []error
	wrong bool // the next answer is the illegal one
}

func (l *learner) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	if l.wrong {
		l.wrong = false
		return engine.Decision{Action: engine.Raise, To: 1}, nil
	}
	l.wrong = true
	return caller(v), nil
}
func (l *learner) Instant()                             {}
func (l *learner) Refused(_ engine.Decision, err error) { l.told = append(l.told, err) }

// playAgainstBots plays a four-handed table to its end with p1 decided by d and bots in the other
// seats, checks the chips after every hand, and returns the runner's stats.
func playAgainstBots(t *testing.T, d engine.Decider) host.Stats {
	t.Helper()
	var l ledger
	c := newLocal(t, 4, 1, &l)
	bots := bot.Players(2)
	ps := engine.PlayersFunc(func(p string) engine.Decider {
		if p == "p1" {
			return d
		}
		return bots.Decider(p)
	})
	r := host.NewRunner("t1", c, ps, options(2, host.NewFakeClock(epoch)))
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.check(t)
	return r.Stats()
}

// rule A15: an illegal decision is refused with the engine's error, naming the rule and the amounts,
// and the player is asked again; it never becomes a check or a fold by itself.
func TestIllegalDecisionIsToldAndAskedAgain(t *testing.T) {
	p1 := &learner{wrong: true}
	st := playAgainstBots(t, p1)
	if st.Illegal == 0 || int64(len(p1.told)) != st.Illegal || st.TimedOut != 0 {
		t.Fatalf("stats %+v, %d refusals told", st, len(p1.told))
	}
	for _, err := range p1.told {
		var small engine.ErrRaiseTooSmall
		var reopened engine.ErrNotReopened
		var none engine.ErrNoOpponent
		var chips engine.ErrNotEnoughChips
		var noBet engine.ErrNoBetToRaise
		if !errors.As(err, &small) && !errors.As(err, &reopened) && !errors.As(err, &none) && !errors.As(err, &chips) && !errors.As(err, &noBet) {
			t.Fatalf("told %T %v, want an engine error naming the rule", err, err)
		}
		if !strings.Contains(err.Error(), "(rule ") {
			t.Fatalf("the error names no rule: %v", err)
		}
	}
}

// rule A15: a player who keeps answering illegally is asked MaxRefusals times, then his turn ends as
// when the clock runs out; the table never loops.
func TestIllegalDecisionsEndTheTurnLikeTheClock(t *testing.T) {
	asked := 0
	cheat := decideFunc(func(*engine.View) engine.Decision { asked++; return engine.Decision{Action: engine.Raise, To: 1} })
	st := playAgainstBots(t, cheat)
	if st.TimedOut == 0 || st.Illegal != int64(asked) || int64(asked) != host.MaxRefusals*st.TimedOut {
		t.Fatalf("asked %d times, stats %+v: want %d refusals a turn, then the clock's end", asked, st, host.MaxRefusals)
	}
}

// A player nobody acts for (no Decider) has every turn expire at once.
func TestAbsentPlayerTimesOut(t *testing.T) {
	var l ledger
	c := newLocal(t, 3, 1, &l)
	bots := bot.Players(2)
	ps := engine.PlayersFunc(func(p string) engine.Decider {
		if p == "p2" {
			return nil
		}
		return bots.Decider(p)
	})
	r := host.NewRunner("t1", c, ps, options(2, host.NewFakeClock(epoch)))
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.check(t)
	if r.Stats().TimedOut == 0 {
		t.Fatal("no turn expired")
	}
}

// With History the results carry each hand in PHH.
func TestHistoryAttached(t *testing.T) {
	c := newLocal(t, 3, 1, nil)
	ctx, cancel := context.WithCancel(context.Background())
	opt := options(1, host.NewFakeClock(epoch))
	opt.History = true
	var hist string
	opt.OnHand = func(h *report.HandResult) { hist = h.History; cancel() }
	r := host.NewRunner("t1", c, bot.Players(1), opt)
	if err := r.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if !strings.Contains(hist, "variant = 'NT'") {
		t.Fatalf("history %q", hist)
	}
}

// badDeck deals a card twice in its first few hands, then deals well.
type badDeck struct {
	bad   int
	hands int
	good  *engine.SeededDeck
	last  eval.Card
}

func (d *badDeck) Shuffle() { d.hands++; d.good.Shuffle() }

func (d *badDeck) Draw() eval.Card {
	if d.hands <= d.bad && d.last != 0 {
		return d.last // the same card again: an irregular deck
	}
	d.last = d.good.Draw()
	return d.last
}

// Rule D4: a hand void for an irregular deck is reported void, with every chip back; the hand dealt
// again carries the same number.
func TestIrregularDeckVoidsAndReports(t *testing.T) {
	var l ledger
	c := newLocal(t, 6, 1, &l)
	opt := options(1, host.NewFakeClock(epoch))
	opt.Deck = &badDeck{bad: 3, good: engine.NewSeededDeck(1)}
	r := host.NewRunner("t1", c, bot.Players(1), opt)
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.check(t)
	if _, voided := c.Hands(); voided != 3 || r.Stats().Voided != 3 || l.voided != 3 {
		t.Fatalf("%d void hands at the reporter, stats %+v, want 3", voided, r.Stats())
	}
	if l.numbers[0] != 1 || l.numbers[3] != 1 || l.numbers[4] != 2 {
		t.Fatalf("hand numbers %v: the void hand is dealt again with its number", l.numbers[:5])
	}
}

// A reporter that keeps only the button (no Positions) still gets a table that plays on: the
// runner derives the blinds from the button.
func TestStateWithoutPositions(t *testing.T) {
	var l ledger
	c := newLocal(t, 6, 1, &l)
	strip := reporterFunc(func(ctx context.Context, id string, res []report.HandResult) (report.State, error) {
		st, err := c.Report(ctx, id, res)
		st.Positions = engine.Positions{}
		return st, err
	})
	r := host.NewRunner("t1", strip, bot.Players(6), options(6, host.NewFakeClock(epoch)))
	if err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	l.check(t)
	if _, ok := c.Winner(); !ok {
		t.Fatal("no winner")
	}
}

// slowLearner thinks on the clock before each answer of its first turn, and its first answer is
// illegal; past the turn time it waits for the runner to end the turn. Later turns it answers at once.
// Its counters are atomic: a Decide past the turn time may still be running when the next begins.
type slowLearner struct {
	clock  *host.FakeClock
	think  time.Duration
	spent  *atomic.Int64
	answer *atomic.Int32
	done   *atomic.Bool
}

func (s slowLearner) Decide(ctx context.Context, v *engine.View) (engine.Decision, error) {
	if s.done.Load() {
		return caller(v), nil
	}
	if time.Duration(s.spent.Add(int64(s.think))) >= 100*time.Second {
		s.done.Store(true) // before the clock moves: the runner may start the next turn at once
		s.clock.Advance(s.think)
		<-ctx.Done()
		return engine.Decision{}, ctx.Err()
	}
	s.clock.Advance(s.think)
	if s.answer.Add(1) == 1 {
		return engine.Decision{Action: engine.Raise, To: 1}, nil
	}
	s.done.Store(true)
	return caller(v), nil
}

// Rule A15: the action clock runs once for a whole turn, however many illegal answers the player
// gives: two answers 40 seconds apart are in time, two 60 seconds apart are not (the turn is 100 s).
func TestRuleA15OneClockAcrossRefusals(t *testing.T) {
	for _, tc := range []struct {
		think   time.Duration
		want    []engine.EventKind
		expired bool
	}{
		{40 * time.Second, []engine.EventKind{engine.EvCheck}, false},
		{60 * time.Second, []engine.EventKind{engine.EvTimeExpired, engine.EvFold}, true},
	} {
		t.Run(tc.think.String(), func(t *testing.T) {
			c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 2},
				Levels: levels, Players: []string{"sb", "bb"}, Stack: 1000, Button: 0})
			if err != nil {
				t.Fatal(err)
			}
			clock := host.NewFakeClock(epoch)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var spent atomic.Int64
			var answers atomic.Int32
			var done atomic.Bool
			ps := engine.PlayersFunc(func(p string) engine.Decider {
				if p == "bb" {
					return slowLearner{clock: clock, think: tc.think, spent: &spent, answer: &answers, done: &done}
				}
				return caller
			})
			opt := options(1, clock)
			var got []engine.EventKind
			var r *host.Runner
			opt.OnHand = func(*report.HandResult) {
				seen := false
				for _, e := range r.Table().Log() {
					if e.Kind == engine.EvCall {
						seen = true
						continue
					}
					if seen && e.Seat == 1 && len(got) < len(tc.want) {
						got = append(got, e.Kind)
					}
				}
				cancel()
			}
			r = host.NewRunner("t1", c, ps, opt)
			if err := r.Run(ctx); !errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || r.Stats().Illegal != 1 || (r.Stats().TimedOut > 0) != tc.expired {
				t.Fatalf("the big blind's turn: %v, want %v; stats %+v", got, tc.want, r.Stats())
			}
		})
	}
}

// A simulation at a set speed deals at the clock's pace (Options.Pace): one hand a Pace, batches
// of any size, and the same hands as at full speed.
func TestRunnerPace(t *testing.T) {
	play := func(pace time.Duration) (starts []time.Time, winner string, hands int64) {
		c := newLocal(t, 6, 10, nil)
		clock := host.NewFakeClock(epoch)
		opt := options(3, clock)
		opt.Pace = pace
		opt.OnHand = func(*report.HandResult) { starts = append(starts, clock.Now()) }
		r := host.NewRunner("t1", c, bot.Players(3, bot.KindRandom, bot.KindStrength), opt)
		if err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		winner, _ = c.Winner()
		return starts, winner, r.Stats().Hands
	}
	fast, fastWinner, fastHands := play(0)
	paced, pacedWinner, pacedHands := play(time.Second)
	if fastWinner != pacedWinner || fastHands != pacedHands {
		t.Fatalf("paced: %s wins after %d hands; at full speed %s after %d: the pace changed the play",
			pacedWinner, pacedHands, fastWinner, fastHands)
	}
	if !fast[len(fast)-1].Equal(epoch) {
		t.Errorf("at full speed the last hand ended at %v, want %v: no waits", fast[len(fast)-1], epoch)
	}
	if len(paced) < 20 {
		t.Fatalf("%d hands: too few to see batches of 10", len(paced))
	}
	for i := 1; i < len(paced); i++ {
		if gap := paced[i].Sub(paced[i-1]); gap != time.Second {
			t.Fatalf("hands %d and %d ended %v apart, want the pace, 1s", i, i+1, gap)
		}
	}
}

// reportSizes records how many hands each report carries.
type reportSizes struct {
	inner report.Reporter
	sizes []int
}

func (r *reportSizes) Report(ctx context.Context, id string, res []report.HandResult) (report.State, error) {
	r.sizes = append(r.sizes, len(res))
	return r.inner.Report(ctx, id, res)
}

// A batch whose hands are slow ends once Options.ReportAfter has gone (a table of thinking bots
// hears a pause within seconds, not after its twenty hands), and the hands are the same.
func TestRunnerReportAfter(t *testing.T) {
	play := func(after time.Duration) (sizes []int, winner string, hands int64) {
		// One level throughout: LocalReporter moves its levels at reports, which would differ.
		l := ledger{total: 6 * 1500}
		c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 9}, Levels: levels[:1],
			Players: players(6), Stack: 1500, Button: 5, Batch: 20, Observe: l.observe})
		if err != nil {
			t.Fatal(err)
		}
		rep := &reportSizes{inner: c}
		opt := options(3, host.NewFakeClock(epoch))
		opt.Pace, opt.ReportAfter = time.Second, after
		r := host.NewRunner("t1", rep, bot.Players(3, bot.KindRandom, bot.KindStrength), opt)
		if err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		l.check(t)
		winner, _ = c.Winner()
		return rep.sizes, winner, r.Stats().Hands
	}
	whole, wholeWinner, wholeHands := play(0)
	short, shortWinner, shortHands := play(3 * time.Second)
	if shortWinner != wholeWinner || shortHands != wholeHands {
		t.Fatalf("reporting after 3s: %s wins after %d hands; in whole batches %s after %d: the reports changed the play",
			shortWinner, shortHands, wholeWinner, wholeHands)
	}
	if wholeHands < 30 {
		t.Fatalf("%d hands: too few to see batches of 20", wholeHands)
	}
	if m := slices.Max(whole); m != 20 {
		t.Errorf("without ReportAfter the largest report holds %d hands, want the batch, 20", m)
	}
	// One hand a second: the hand that starts 3 s after the batch's first is its last.
	if m := slices.Max(short); m != 4 {
		t.Errorf("reporting after 3s at a hand a second, the largest report holds %d hands, want 4 (%v)", m, short)
	}
}
