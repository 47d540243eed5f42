package workflows

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// SectionEvents is the payload of SectionEventsSignal: a section's events, numbered.
type SectionEvents struct {
	Section int                                        `json:"section"`
	Events  []director.Numbered[director.SectionEvent] `json:"events"`
	// From director.PaceSectionQuiet, Run is the section's run that sends the report (0 before);
	// Quiet asks the tournament to hold the section's orders while that run continues as new
	// (director's link.go, "A section's quiet"). Either may come with no events: the ask, and a
	// run's first report, which ends the quiet.
	Run   int  `json:"run,omitempty"`
	Quiet bool `json:"quiet,omitempty"`
}

// PlaceSink takes the places of a tournament of sections as they are given (its state keeps only
// the best director.KeepPlaces): the local run writes them to a file in its data dir. from is the
// index of places[0] among all the places written for the tournament, so that a retried call
// writes nothing twice.
type PlaceSink interface {
	RecordPlaces(ctx context.Context, tournament string, from int, places []Place) error
}

// placeActivities is the activity that writes places out to a PlaceSink (none: they are dropped).
type placeActivities struct{ sink PlaceSink }

// RecordPlaces is the activity.
func (a *placeActivities) RecordPlaces(ctx context.Context, tournament string, from int, places []Place) error {
	if a.sink == nil {
		return nil
	}
	return a.sink.RecordPlaces(ctx, tournament, from, places)
}

// RecordPlacesActivity is the activity's registered name.
const RecordPlacesActivity = "RecordPlaces"

// placesPerWrite bounds one activity's places, so that its input stays small; carryPlaces the
// places a run may hand on unwritten when it continues as new (about 25 KB), and the eliminations
// it may hand on unplaced in a seeded simulation (director.TopState.Unplaced, about 40 KB: at
// 100,000 entries several thousand come between two barriers; right after one there are none).
const (
	placesPerWrite = 2000
	carryPlaces    = 500
)

// topWorkflow is the TournamentWorkflow of a field split into sections: it draws the seats of the
// whole field (T2, T3), starts one SectionWorkflow per section (each starting its own tables),
// keeps the clock (B3), the payouts (R6) and the places (R5, R7, every one written out through
// RecordPlaces), moves players between sections so that R3 and R4 hold for the whole field, and
// deals hand-for-hand across the sections (R7). Its state (director.TopState) holds counts and
// sections, never a player's or a table's record.
func topWorkflow(ctx workflow.Context, in TournamentInput) (TournamentResult, error) {
	t := in.Top
	var first []director.SectionStart
	if t == nil {
		seed, err := drawSeed(ctx, in.Spec)
		if err != nil {
			return TournamentResult{}, err
		}
		t, first, err = director.NewTopState(workflow.GetInfo(ctx).WorkflowExecution.ID, in.Spec, seed, 0, workflow.Now(ctx))
		if err != nil {
			return TournamentResult{}, temporal.NewNonRetryableApplicationError(err.Error(), "InvalidSpec", err)
		}
		// The planning between sections beside their own moves (director.PlanBeside) and the
		// approach's last stretch told to the sections (director.PlanNear); a run recorded before
		// replays its commands as they were.
		// From director.PlanBarriers a seeded simulation keeps barriers across its sections.
		t.SetPlan(int(workflow.GetVersion(ctx, "plan", workflow.DefaultVersion, director.PlanLatest)), first)
		t.Tick(workflow.Now(ctx))
	} else {
		t.Resend()
	}
	w := &topRun{t: t, events: workflow.GetSignalChannel(ctx, SectionEventsSignal), signalling: map[int]bool{}, wait: newWaiter(ctx)}
	if err := w.register(ctx); err != nil {
		return TournamentResult{}, err
	}
	// From the marker section-starts at most sectionsStarting sections' starts are under way at
	// once; a run recorded before started them all at once.
	if len(first) > 0 && workflow.GetVersion(ctx, sectionStarts, workflow.DefaultVersion, 1) == 1 {
		w.toStart = first
	} else {
		for _, sec := range first {
			w.startSection(ctx, sec)
		}
	}
	for {
		w.startQueued(ctx)
		w.send(ctx)
		if t.Finished && w.allClosed() {
			break
		}
		if w.continueAsNewDue(ctx) && w.quiet(ctx) {
			w.process(ctx)
			if !t.Finished {
				w.clock.stop()
				w.quietEnd.stop()
				return TournamentResult{}, workflow.NewContinueAsNewError(ctx, TournamentWorkflow, TournamentInput{Spec: t.Spec, Top: t})
			}
			continue
		}
		w.armClock(ctx)
		w.quietEnd.armAt(ctx, workflow.Now(ctx), t.QuietEnds())
		w.wake = false
		var err error
		if t.Finished {
			// Over: the sections close their tables and say so; a section that does not within
			// sectionsCloseWait (closeWait before PlanOutwaitsSections) is not waited for.
			wait := closeWait
			if t.Plan >= director.PlanOutwaitsSections {
				wait = sectionsCloseWait
			}
			var ok bool
			ok, err = w.wait.within(ctx, wait, func() bool { return w.events.Len() > 0 || len(w.reports) > 0 || w.wake })
			if err == nil && !ok {
				if !t.EndQuiets() {
					break
				}
				// A quiet section's Close, held for its next run, goes now, and the end waits for
				// it once more.
			}
		} else {
			err = workflow.Await(ctx, func() bool {
				return w.events.Len() > 0 || len(w.reports) > 0 || w.wake || w.clockFired() || w.quietEnd.fired() ||
					w.continueAsNewDue(ctx) && w.quiet(ctx)
			})
		}
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			dctx, _ := workflow.NewDisconnectedContext(ctx)
			t.Finish(workflow.Now(dctx))
			t.EndQuiets() // every section takes its Close now: nothing of this run is left to send it
			w.send(dctx)
			_ = workflow.Await(dctx, func() bool { return len(w.signalling) == 0 })
			return TournamentResult{}, temporal.NewCanceledError()
		}
		w.process(ctx)
	}
	// Every place written out, then the result (the best places).
	for {
		w.send(ctx)
		if len(t.Unwritten) == 0 && !w.writing && len(w.signalling) == 0 {
			break
		}
		w.wake = false
		if err := workflow.Await(ctx, func() bool { return w.wake }); err != nil {
			return TournamentResult{}, err
		}
	}
	return t.Result()
}

type topRun struct {
	t      *director.TopState
	events workflow.ReceiveChannel
	// reports are the sections' reports taken in by SectionEventsUpdate, not yet processed (the
	// older runs' reports come by the events signal).
	reports []SectionEvents
	wake    bool
	// starting counts the sections whose workflow is being started; signalling the sections an
	// order signal is under way to (one at a time each); writing: places are being written out.
	starting   int
	signalling map[int]bool
	// turn is the index of the section whose orders go first at the next send, once the order
	// signals are capped (director.PlanSignalCap): the sections are served in turn.
	turn int
	// toStart are the sections whose start waits for a place among the sectionsStarting.
	toStart []director.SectionStart
	wait    waiter
	writing bool

	clock periodTimer
	// quietEnd runs to the end of the sections' quiet that began first (director.SectionQuietWait),
	// past which their held orders go.
	quietEnd periodTimer
}

func (w *topRun) continueAsNewDue(ctx workflow.Context) bool {
	info := workflow.GetInfo(ctx)
	return runDue(w.t.Plan >= director.PlanOwnEventCount, info.GetCurrentHistoryLength(), w.t.Spec.ContinueAsNewAfter,
		info.GetContinueAsNewSuggested(), info.GetContinueAsNewSuggestedReasons())
}

func (w *topRun) quiet(ctx workflow.Context) bool {
	return workflow.AllHandlersFinished(ctx) && w.starting == 0 && len(w.toStart) == 0 && len(w.signalling) == 0 && !w.writing &&
		len(w.t.Unwritten) <= carryPlaces && len(w.t.Unplaced) <= carryPlaces
}

// sectionsCloseWait is how long the tournament's end waits for news from its sections: a
// section waits closeWait for its tables, then tells its close, which takes a report's round
// trip (seconds on a busy machine).
const sectionsCloseWait = closeWait + 30*time.Second

func (w *topRun) allClosed() bool {
	for _, r := range w.t.Sections {
		if r.Phase != director.SectionClosed {
			return false
		}
	}
	return true
}

// process takes the sections' news in and does the tournament's work.
func (w *topRun) process(ctx workflow.Context) {
	for {
		var se SectionEvents
		if !w.events.ReceiveAsync(&se) {
			break
		}
		w.t.OnEvents(se.Section, se.Events)
	}
	for _, se := range w.reports {
		w.t.OnEvents(se.Section, se.Events)
	}
	w.reports = nil
	now := workflow.Now(ctx)
	for _, n := range w.t.EndLateQuiets(now) {
		workflow.GetLogger(ctx).Warn("section quiet past its wait (its next run has not reported): its orders go", "section", n, "wait", director.SectionQuietWait)
	}
	w.t.Tick(now)
	w.t.Step(now)
}

// sectionsStarting is the most sections whose workflow's start is under way at once. Each start
// that completes is an event that comes in to the tournament whatever its task is doing, and the
// server fails a task during which more than 100 came in (history.maximumBufferedEventsBatch):
// the 112 sections of 100,000 entries, started at once, had 52 of them come in during one task
// of the tournament's (5 December). Forty leave room for the sections' other news.
const sectionsStarting = 40

// sectionStarts is the marker from which the tournament starts at most sectionsStarting
// sections at once.
const sectionStarts = "section-starts"

// startQueued starts the sections waiting for a place among the sectionsStarting.
func (w *topRun) startQueued(ctx workflow.Context) {
	for len(w.toStart) > 0 && w.starting < sectionsStarting {
		w.startSection(ctx, w.toStart[0])
		w.toStart = w.toStart[1:]
	}
	if len(w.toStart) == 0 {
		w.toStart = nil
	}
}

// startSection starts a section's workflow, as a child that outlives this run (continue-as-new);
// a cancelled tournament does not cancel its sections: they take a Close order.
func (w *topRun) startSection(ctx workflow.Context, sec director.SectionStart) {
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	cctx := workflow.WithChildOptions(dctx, workflow.ChildWorkflowOptions{
		WorkflowID:          director.SectionWorkflowID(sec.Parent, sec.Number),
		ParentClosePolicy:   enumspb.PARENT_CLOSE_POLICY_ABANDON,
		WorkflowTaskTimeout: StateTaskTimeout,
	})
	child := workflow.ExecuteChildWorkflow(cctx, SectionWorkflow, TournamentInput{Section: &sec})
	w.starting++
	workflow.Go(ctx, func(gctx workflow.Context) {
		defer func() { w.starting--; w.wake = true }()
		if err := child.GetChildWorkflowExecution().Get(gctx, nil); err != nil {
			workflow.GetLogger(gctx).Error("section workflow did not start", "section", sec.Number, "error", err)
		}
	})
}

// send signals each section its queued orders (one signal at a time a section, all its queued
// orders in it), but a quiet one's (it continues as new: director's link.go, "A section's quiet"),
// and writes the places out.
func (w *topRun) send(ctx workflow.Context) {
	if w.starting > 0 || len(w.toStart) > 0 {
		return // the orders wait for every section to have started
	}
	draining := w.continueAsNewDue(ctx) && !w.t.Finished
	if draining {
		// No new order goes out while the run drains to continue as new (the next run resends
		// them); the places still go, so that no more than carryPlaces of them are carried.
		if len(w.t.Unwritten) > carryPlaces {
			w.writePlaces(ctx)
		}
		return
	}
	// From director.PlanSignalCap at most signalsInFlight order signals are on their way at once,
	// the sections served in turn: the delivery of each comes in to the run as an event, and a
	// clock action queued orders for all 112 sections of 100,000 entries at once, more than the
	// 100 events the server takes while one of the run's tasks runs.
	capped := w.t.Plan >= director.PlanSignalCap
	n, first := len(w.t.Sections), w.turn
	for k := range n {
		i := k
		if capped {
			i = (first + k) % n
		}
		r := &w.t.Sections[i]
		if w.signalling[r.Number] || r.Phase == director.SectionClosed || r.Holds() {
			continue
		}
		if capped && len(w.signalling) >= signalsInFlight {
			break
		}
		msgs := r.Orders.Take()
		if len(msgs) == 0 {
			continue
		}
		num, id := r.Number, r.WorkflowID
		w.signalling[num] = true
		w.turn = i + 1
		workflow.Go(ctx, func(ctx workflow.Context) {
			defer func() { delete(w.signalling, num); w.wake = true }()
			if !retrySignal(ctx, id, SectionOrdersSignal, msgs, nil) {
				if r := w.t.Section(num); r != nil {
					r.Orders.Resend()
				}
			}
		})
	}
	w.writePlaces(ctx)
}

// writePlaces writes the places given and not yet written out, one activity at a time.
func (w *topRun) writePlaces(ctx workflow.Context) {
	if len(w.t.Unwritten) == 0 || w.writing {
		return
	}
	w.writing = true
	writePlaces(ctx, w.t.ID, w.t.Written, w.t.Unwritten, w.t.WroteOut, func() { w.writing = false; w.wake = true })
}

// armClock keeps one timer on the end of the period running (B3).
func (w *topRun) armClock(ctx workflow.Context) {
	t := w.t
	if t.Spec.Simulation || t.Finished {
		return
	}
	now := workflow.Now(ctx)
	cs, err := t.ClockAt(now)
	w.clock.arm(ctx, now, cs, err == nil)
}

func (w *topRun) clockFired() bool { return w.clock.fired() }

// register sets the queries and the director's updates of a tournament of sections: the clock
// and the late entries (one by one or in batches) are its own; an action on a player goes to his
// section (the client finds it, WhereQuery), and one sent here is refused saying so.
func (w *topRun) register(ctx workflow.Context) error {
	t := w.t
	queries := map[string]any{
		ProgressQuery:  func() (Progress, error) { return t.Progress(workflow.Now(ctx)), nil },
		StandingsQuery: func() ([]Standing, error) { return t.StandingsView(), nil },
		TablesQuery:    func() ([]TableView, error) { return nil, nil },
		ClockQuery:     func() (ClockView, error) { return t.ClockView(workflow.Now(ctx)), nil },
		PayoutsQuery:   func() (PayoutsView, error) { return t.PayoutsView(), nil },
		SanctionsQuery: func() ([]SanctionRecord, error) { return nil, nil },
		DealQuoteQuery: func(floor.DealTerms) (DealQuote, error) { return t.QuoteAt() }, // the section holding them quotes the stacks
		StateQuery:     func() (*director.TopState, error) { return t.Redacted(), nil },
		SectionsQuery:  func() ([]string, error) { return t.SectionsInPlay(), nil },
		SeatQuery:      func(player string) (Seat, error) { return topSeatOf(t, player), nil },
		WhereQuery:     func(director.Where) (bool, error) { return false, nil }, // every record is a section's
		ToolsQuery:     func() (director.ToolsState, error) { return director.ToolsState{}, nil },
	}
	for name, h := range queries {
		if err := workflow.SetQueryHandler(ctx, name, h); err != nil {
			return err
		}
	}
	onPlayer := func(action string) func(any) error {
		return func(any) error { return t.RefuseOnPlayer(action) }
	}
	return errors.Join(
		// A section's report is taken in as it comes and processed with the rest (process); the
		// Update completes at once, which lets the section send its next. A report that asks for
		// the section's orders to be held (it continues as new once answered) makes it quiet:
		// send holds its orders from now on, and the answer waits until none of its order
		// signals is on its way, so that none can come in as the section continues as new.
		workflow.SetUpdateHandler(ctx, SectionEventsUpdate, func(ctx workflow.Context, se SectionEvents) error {
			w.reports = append(w.reports, se)
			w.wake = true
			if !t.Heard(se.Section, se.Run, se.Quiet, workflow.Now(ctx)) {
				return nil
			}
			return workflow.Await(ctx, func() bool { return !w.signalling[se.Section] })
		}),
		setKeyedUpdate(ctx, ClockUpdate,
			func(ctx workflow.Context, r ClockRequest) error { return t.VerifyClock(r) },
			func(ctx workflow.Context, r ClockRequest) (ClockView, error) {
				t.Clock(r, workflow.Now(ctx))
				w.wake = true
				return t.ClockView(workflow.Now(ctx)), nil
			}),
		setKeyedUpdate(ctx, RegisterUpdate,
			func(ctx workflow.Context, r RegisterRequest) error { return t.VerifyRegister(r, workflow.Now(ctx)) },
			func(ctx workflow.Context, r RegisterRequest) (string, error) {
				t.Register(r)
				res := w.enter(ctx, []RegisterRequest{r}, []BatchResult{{Key: r.Key, Player: r.Player}})[0]
				if res.Refused != "" {
					return "", temporal.NewNonRetryableApplicationError(res.Refused, "EntryRefused", nil)
				}
				return res.Entry, nil
			}),
		setKeyedUpdate(ctx, RegisterBatchUpdate,
			func(ctx workflow.Context, r RegisterBatchRequest) error { return director.VerifyBatch(r) },
			func(ctx workflow.Context, r RegisterBatchRequest) ([]BatchResult, error) {
				reqs := r.Requests()
				res := make([]BatchResult, len(reqs))
				var take []RegisterRequest
				var taken []BatchResult
				for i, q := range reqs {
					res[i] = BatchResult{Key: q.Key, Player: q.Player}
					if q.Key == "" {
						res[i].Refused = "an entry of a batch needs a key: the batch's Update ID, or its own"
					} else if err := t.VerifyRegister(q, workflow.Now(ctx)); err != nil {
						res[i].Refused = err.Error()
					} else {
						t.Register(q) // before the next entry's check: its payouts count this one
						take, taken = append(take, q), append(taken, res[i])
					}
				}
				done := w.enter(ctx, take, taken)
				for i, k := 0, 0; i < len(res) && k < len(done); i++ {
					if res[i].Refused == "" {
						res[i] = done[k]
						k++
					}
				}
				return res, nil
			}),
		setRefusedUpdate(ctx, SanctionUpdate, onPlayer("a sanction")),
		setRefusedUpdate(ctx, RebuyUpdate, onPlayer("a rebuy")),
		setRefusedUpdate(ctx, RebuyBatchUpdate, onPlayer("a batch of rebuys")),
		setRefusedUpdate(ctx, MoveUpdate, onPlayer("a move by hand")),
		setRefusedUpdate(ctx, BreakTableUpdate, onPlayer("a break by hand (its table is a section's)")),
		setRefusedUpdate(ctx, UnregisterUpdate, onPlayer("an unregistration")),
		setRefusedUpdate(ctx, NoShowUpdate, onPlayer("a no-show's removal")),
		setRefusedUpdate(ctx, AddOnUpdate, onPlayer("an add-on")),
		setKeyedUpdate(ctx, DealUpdate,
			func(ctx workflow.Context, r DealRequest) error { return t.VerifyDeal(r) },
			w.deal),
	)
}

// enter waits (a while) for the sections to seat the late entries sent to them (TopState.Register)
// and fills their answers in res.
// An entry its section has not answered yet is answered so: the section has it, and a retry with
// the same key is answered with its ID.
func (w *topRun) enter(ctx workflow.Context, reqs []RegisterRequest, res []BatchResult) []BatchResult {
	t := w.t
	w.wake = true
	_, _ = w.wait.within(ctx, toolWait, func() bool {
		for _, q := range reqs {
			if _, answered := t.Entry(q.Key); !answered {
				return false
			}
		}
		return true
	})
	for i, q := range reqs {
		e, answered := t.Entry(q.Key)
		t.TakeEntry(q.Key)
		switch {
		case !answered:
			res[i].Refused = fmt.Sprintf("section %d has not seated %s yet: send the entry again with the same key (it is taken once)", e.Section, q.Player)
		case e.Refused != "":
			res[i].Refused = e.Refused
		default:
			res[i].Entry = e.Player
		}
	}
	return res
}

// setRefusedUpdate sets update name to refuse every request, in its validator (nothing is
// recorded), with why.
func setRefusedUpdate(ctx workflow.Context, name string, why func(any) error) error {
	refuse := func(_ workflow.Context, r json.RawMessage) error {
		return temporal.NewNonRetryableApplicationError(why(r).Error(), "NotInSections", nil)
	}
	return workflow.SetUpdateHandlerWithOptions(ctx, name, func(ctx workflow.Context, r json.RawMessage) error { return refuse(ctx, r) },
		workflow.UpdateHandlerOptions{Validator: refuse})
}
