package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// checkingController stands between the tables and the TableWorkflows and checks every hand on the
// way: chips conserved, and the hands each player was dealt while excluded (P3).
type checkingController struct {
	inner report.Reporter
	// places is the sink the worker writes places out to (RecordPlaces).
	places *countingSink

	mu        sync.Mutex
	hands     int64
	errs      []string
	state     map[string]report.State // the last State each table got
	penalised map[string]int          // hands dealt to each player while Penalised

	// gate, when set, holds every report once the tables have dealt gateAt hands, until the test
	// opens it: the tournament's view stands still while the test looks at it and acts on it.
	gateAt int64
	gate   chan struct{}
}

// holdAt makes the tables stop reporting once they have dealt hands hands; the returned function
// lets them go on.
func (c *checkingController) holdAt(hands int64) (release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	gate := make(chan struct{})
	c.gateAt, c.gate = hands, gate
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.gate == gate {
				c.gate = nil
			}
			close(gate)
		})
	}
}

// held reports whether the gate is holding the tables.
func (c *checkingController) held() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gate != nil && c.hands >= c.gateAt
}

func (c *checkingController) wait(ctx context.Context) error {
	c.mu.Lock()
	gate := c.gate
	if gate == nil || c.hands < c.gateAt {
		gate = nil
	}
	c.mu.Unlock()
	if gate == nil {
		return nil
	}
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func newCheckingController(inner report.Reporter) *checkingController {
	return &checkingController{inner: inner, state: map[string]report.State{}, penalised: map[string]int{}}
}

func (c *checkingController) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	if err := c.wait(ctx); err != nil {
		return report.State{}, err
	}
	st, err := c.inner.Report(ctx, tableID, results)
	if err != nil {
		return st, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	before := c.state[tableID]
	for _, r := range results {
		var in, out int64
		for _, s := range r.Start {
			in += s.Stack
		}
		for _, s := range r.End {
			out += s.Stack
		}
		if in != out {
			c.errs = append(c.errs, fmt.Sprintf("table %s hand %d: %d chips in, %d out", tableID, r.HandNumber, in, out))
		}
		if r.Voided {
			continue
		}
		c.hands++
		for _, s := range before.Seats {
			if s.State == engine.Penalised && slices.ContainsFunc(r.Start, func(x report.SeatStack) bool { return x.Player == s.Player }) {
				c.penalised[s.Player]++
			}
		}
	}
	c.state[tableID] = st
	return st, nil
}

func quietSDKLogger() sdklog.Logger {
	if os.Getenv("POKERFLOOR_SDK_LOG") != "" {
		return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	}
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// startServer starts a real Temporal server in the process, with a worker running the workflows
// and bot tables.
func startServer(t *testing.T, ctrl func(client.Client) report.Reporter) (client.Client, *LocalTableHost, *checkingController) {
	t.Helper()
	return startServerRunning(t, ctrl, BotTables(nil))
}

// startServerRunning is startServer with the tables' processes run by run.
func startServerRunning(t *testing.T, ctrl func(client.Client) report.Reporter, run RunTable) (client.Client, *LocalTableHost, *checkingController) {
	t.Helper()
	srv := newTestServer(t)
	c := srv.GetDefaultClient()
	var inner report.Reporter = NewTableReporter(c)
	if ctrl != nil {
		inner = ctrl(c)
	}
	check := newCheckingController(inner)
	check.places = &countingSink{places: map[int]Place{}}
	host := NewLocalTableHost(check, run)
	t.Cleanup(host.Close)
	srv.NewWorkerWithOptions(TaskQueue, func(r worker.Registry) { Register(r, host, check.places) }, testWorkerOptions(worker.Options{}))
	srv.NewWorkerWithOptions(TableTaskQueue(TaskQueue), func(r worker.Registry) { Register(r, host, check.places) }, testWorkerOptions(worker.Options{}))
	return c, host, check
}

// testDeadlockTimeout is the deadlock detector's timeout for the workers of these tests.
// temporaltest fails a workflow on the detector's panic (its WorkflowPanicPolicy is FailWorkflow,
// where a production worker retries the task), and the detector counts wall time: with a second
// suite beside this one, a step of a 36-player tournament of sections was not scheduled for 30 s
// (DeadlockDetectionTimeout) and the test failed. A true hang still ends the test, by its own
// deadline.
const testDeadlockTimeout = 5 * time.Minute

// testWorkerOptions is WorkerOptions for a worker of temporaltest's (testDeadlockTimeout).
func testWorkerOptions(opts worker.Options) worker.Options {
	if opts.DeadlockDetectionTimeout == 0 {
		opts.DeadlockDetectionTimeout = testDeadlockTimeout
	}
	return WorkerOptions(opts)
}

// playOut starts tournament id of spec and waits for its result; on a failure it says why the
// workflows failed.
func playOut(ctx context.Context, t *testing.T, c client.Client, id string, spec TournamentSpec) (*Tournament, TournamentResult) {
	t.Helper()
	tour, err := StartTournament(ctx, c, id, "", spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tour.Result(ctx)
	if err != nil {
		dumpFailures(t, c, tour.ID)
		t.Fatal(err)
	}
	return tour, res
}

// TestTournament100PlayersEndToEnd plays a 100-player tournament to the end on a real Temporal
// server with in-process tables and bots (rules R1, R3-R7, P2-P4).
func TestTournament100PlayersEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	if path := os.Getenv("POKERFLOOR_TRACE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var mu sync.Mutex
		traceEvents = func(ev director.TableEvent) {
			mu.Lock()
			defer mu.Unlock()
			b, _ := json.Marshal(ev)
			_, _ = f.Write(append(b, '\n'))
		}
		defer func() { traceEvents = nil }()
	}
	c, host, check := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{
		Name: "e2e", PlayerCount: 100, TableSize: 9, Structure: turbo, Seed: 20260501,
		Simulation: true, BuyIn: 11000, Fee: 1000,
		// Hand-for-hand from 5 before the money (R7), so that the bubble is dealt hand-for-hand
		// even when two players bust in the round before it.
		HandForHandBefore: 5,
		// Small histories, so that both kinds of workflow continue as new on the way.
		ContinueAsNewAfter: 600, TableContinueAsNewAfter: 150,
	}
	// A deadline for a machine many times slower than this one (the test takes seconds here); the
	// test never races the tables: it holds them while it looks and acts.
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	start := time.Now()
	release := check.holdAt(100)
	defer func() { release() }()
	tour, err := StartTournament(ctx, c, "e2e-100", "", spec)
	if err != nil {
		t.Fatal(err)
	}

	// Once play is under way (the tables are held after 100 hands, and again every 50 hands until
	// a chip leader has doubled up), the director pauses the clock, excludes a chip leader for 2
	// rounds (P2), disqualifies another player (P4), and resumes. A player may bust between the
	// standings and the sanction (a table finishes its hands before it pauses): then the next one
	// is taken.
	var st []Standing
	for {
		for !check.held() {
			if ctx.Err() != nil {
				dumpFailures(t, c, tour.ID)
				t.Fatal("the tables never reached the gate:", ctx.Err())
			}
			time.Sleep(20 * time.Millisecond)
		}
		var err error
		st, err = tour.Standings(ctx)
		if err != nil {
			dumpFailures(t, c, tour.ID)
			t.Fatal(err)
		}
		p, err := tour.Progress(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if p.PlayersLeft <= 30 {
			t.Fatalf("%d players left at %d hands, before any chip leader doubled up", p.PlayersLeft, p.HandsPlayed)
		}
		if st[0].Stack > 2*turbo.StartingStack {
			break
		}
		check.mu.Lock()
		next := check.hands + 50
		check.mu.Unlock()
		old := release
		release = check.holdAt(next)
		old()
	}
	// Paused while the tables are held: each stops at its next report.
	if _, err := tour.ClockAction(ctx, ClockRequest{Kind: floor.ClockPause, By: "director"}); err != nil {
		t.Fatal(err)
	}
	release()
	give := func(from int, r SanctionRequest) (string, SanctionRecord) {
		for i := from; i < len(st); i++ {
			if st[i].Status == director.Out {
				continue
			}
			r.Player = st[i].Player
			r.Key = fmt.Sprintf("%s-%s", r.Kind, r.Player) // the director's idempotency key
			rec, err := tour.Sanction(ctx, r)
			if err == nil && rec.Applied {
				// The director's tool retries (a lost answer): the same sanction, applied once (P6).
				again, err := tour.Sanction(ctx, r)
				if err != nil || again.Ref != rec.Ref {
					t.Errorf("the retried sanction on %s: %+v, %v; the first was %d", r.Player, again, err, rec.Ref)
				}
				return r.Player, rec
			}
			t.Logf("sanction on %s: %v %s", r.Player, err, rec.Error)
		}
		t.Fatal("nobody to sanction")
		return "", SanctionRecord{}
	}
	excluded, excl := give(0, SanctionRequest{Kind: floor.Exclusion, Rounds: 2, Rule: "P7", Reason: "abuse of the dealer", By: "floor-1"})
	disqualified, dq := give(len(st)/2, SanctionRequest{Kind: floor.Disqualification, Rule: "P7", Reason: "chip dumping", By: "floor-2"})
	if _, err := tour.ClockAction(ctx, ClockRequest{Kind: floor.ClockResume, By: "director"}); err != nil {
		t.Fatal(err)
	}
	if !excl.Applied || !dq.Applied {
		t.Fatalf("sanctions not applied: %+v %+v", excl, dq)
	}
	if _, err := tour.Sanction(ctx, SanctionRequest{Player: disqualified, Kind: floor.Warning, Reason: "again", By: "floor-2"}); err == nil {
		t.Error("a disqualified player was sanctioned again (P4)")
	}

	res, err := tour.Result(ctx)
	if err != nil {
		dumpFailures(t, c, tour.ID)
		dumpState(t, tour)
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	// The State query shows no seed nor draw counter (they predict every later draw).
	var shown director.TournamentState
	if err := tour.query(ctx, StateQuery, &shown); err != nil || shown.Seed != 0 || shown.Draws != 0 || shown.Spec.Seed != 0 {
		t.Errorf("the State query: seed %d, draws %d, spec seed %d (%v)", shown.Seed, shown.Draws, shown.Spec.Seed, err)
	}
	t.Logf("100 players: %d hands, %d tables, %d hand-for-hand rounds, in %v", res.HandsPlayed, res.Tables, res.HandForHandRounds, elapsed.Round(time.Millisecond))
	if res.HandForHandRounds == 0 {
		t.Error("no hand-for-hand round on the bubble (R7)")
		var st director.TournamentState
		if err := tour.query(ctx, StateQuery, &st); err == nil {
			t.Logf("h4h %+v, %d busts groups, paid %d, spec before %d", st.HandForHand, len(st.Busts), len(st.Payouts.Prizes), st.Spec.HandForHandBefore)
		}
		desc, _ := c.DescribeWorkflowExecution(ctx, tour.ID, "")
		t.Logf("run %s, history length %d", desc.GetWorkflowExecutionInfo().GetExecution().GetRunId(), desc.GetWorkflowExecutionInfo().GetHistoryLength())
	}
	// Both kinds of workflow continued as new on the way, and nothing was lost (the checks below).
	if runs, events := runsOf(ctx, t, c, tour.ID); runs < 2 {
		t.Errorf("%s never continued as new (%d events)", tour.ID, events)
	} else {
		t.Logf("the tournament ran %d times, %d history events in all", runs, events)
	}
	tablesContinued := 0
	for id := floor.TableID(1); id <= floor.TableID(res.Tables); id++ {
		if continued(ctx, t, c, director.TableWorkflowID(tour.ID, id)) {
			tablesContinued++
		}
	}
	if tablesContinued == 0 {
		t.Error("no table continued as new")
	}

	if len(res.ChipErrors) > 0 {
		t.Errorf("chip counts failed: %v", res.ChipErrors)
	}
	check.mu.Lock()
	if len(check.errs) > 0 {
		t.Errorf("hands that did not conserve chips: %v", check.errs)
	}
	served := check.penalised[excluded]
	check.mu.Unlock()
	if err := host.Err(); err != nil {
		t.Errorf("tables stopped with errors: %v", err)
	}

	checkPlaces(t, res, 100, 100*(11000-1000))
	checkRowsWritten(t, res, check.places)

	if len(res.Sanctions) != 2 {
		t.Errorf("%d sanctions recorded, want the exclusion and the disqualification once each", len(res.Sanctions))
	}
	// P2, P3: 2 rounds at a table of n are 2n hands, all dealt with the player away.
	var ex, dqr *floor.Sanction
	for i := range res.Sanctions {
		switch res.Sanctions[i].Kind {
		case floor.Exclusion:
			ex = &res.Sanctions[i]
		case floor.Disqualification:
			dqr = &res.Sanctions[i]
		}
	}
	if ex == nil || dqr == nil {
		t.Fatalf("sanctions recorded: %+v", res.Sanctions)
	}
	if ex.Hands != 2*ex.PlayersAtTable || ex.PlayersAtTable < 2 || ex.GivenBy != "floor-1" || ex.Reason == "" {
		t.Errorf("exclusion record %+v", *ex)
	}
	if served != ex.Hands {
		t.Errorf("%s was dealt %d hands away, the exclusion was %d hands (2 x %d players)", excluded, served, ex.Hands, ex.PlayersAtTable)
	}
	// P4: the disqualified player's chips left the tournament.
	if dqr.Chips <= 0 || res.Ledger.Disqualified != dqr.Chips {
		t.Errorf("disqualification removed %d chips, the ledger %d", dqr.Chips, res.Ledger.Disqualified)
	}
	if want := int64(100)*turbo.StartingStack - dqr.Chips; res.Ledger.Total() != want {
		t.Errorf("chips in play at the end %d, want %d", res.Ledger.Total(), want)
	}
	winner := res.Places[0]
	if winner.Place != 1 || winner.Player == disqualified {
		t.Errorf("winner %+v", winner)
	}
	st, err = tour.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st[0].Player != winner.Player || st[0].Stack != res.Ledger.Total() {
		t.Errorf("the winner %s holds %d chips, the ledger says %d", st[0].Player, st[0].Stack, res.Ledger.Total())
	}
}

// dumpFailures logs the failed workflow tasks of a workflow, to explain a test that hangs.
func dumpFailures(t *testing.T, c client.Client, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	it := c.GetWorkflowHistory(ctx, id, "", false, 0)
	n := 0
	for it.HasNext() && n < 5 {
		ev, err := it.Next()
		if err != nil {
			t.Logf("history of %s: %v", id, err)
			return
		}
		if f := ev.GetWorkflowTaskFailedEventAttributes(); f != nil {
			t.Logf("%s: workflow task failed (%v): %s", id, f.GetCause(), f.GetFailure().GetMessage())
			if st := f.GetFailure().GetStackTrace(); st != "" {
				t.Log(st)
			}
			n++
		}
		if f := ev.GetWorkflowExecutionFailedEventAttributes(); f != nil {
			t.Logf("%s: failed: %s", id, f.GetFailure().GetMessage())
			for c := f.GetFailure(); c != nil; c = c.GetCause() {
				t.Logf("  %s\n%s", c.GetMessage(), c.GetStackTrace())
			}
		}
	}
}

// continued reports whether the current run of workflow id continued an earlier one.
func continued(ctx context.Context, t *testing.T, c client.Client, id string) bool {
	it := c.GetWorkflowHistory(ctx, id, "", false, 0)
	if !it.HasNext() {
		return false
	}
	ev, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	return ev.GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId() != ""
}

// runsOf counts the runs of workflow id and their history events.
func runsOf(ctx context.Context, t *testing.T, c client.Client, id string) (runs, events int) {
	run := ""
	for {
		runs++
		prev := ""
		it := c.GetWorkflowHistory(ctx, id, run, false, 0)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			events++
			if a := ev.GetWorkflowExecutionStartedEventAttributes(); a != nil {
				prev = a.GetContinuedExecutionRunId()
			}
		}
		if prev == "" {
			return runs, events
		}
		run = prev
	}
}

// checkPlaces checks a finished tournament's places and prizes: places 1 to players, each given once
// (players sharing places cover their range, R5, R7), and prizes adding up to the pool (R6).
func checkPlaces(t *testing.T, res TournamentResult, players int, pool int64) {
	t.Helper()
	checkBestPlaces(t, res, players, players, pool)
}

// checkBestPlaces is checkPlaces for a result that keeps the best kept places of the players (a
// tournament of sections keeps director.KeepPlaces, and writes every place out as it is given):
// places 1 to kept each given once, the prizes the pool.
func checkBestPlaces(t *testing.T, res TournamentResult, players, kept int, pool int64) {
	t.Helper()
	if len(res.Places) != kept {
		t.Fatalf("%d places, want %d of %d players", len(res.Places), kept, players)
	}
	given := make([]int, kept+1)
	var paid int64
	for i, p := range res.Places {
		paid += p.Prize
		n := max(p.Shared, 1)
		if i > 0 && p.Shared > 1 && res.Places[i-1].Place == p.Place {
			continue // R7: the places a group shares are counted once
		}
		for k := p.Place; k < p.Place+n && k <= kept; k++ {
			given[k]++
		}
	}
	for k := 1; k <= kept; k++ {
		if given[k] != 1 {
			t.Errorf("place %d given %d times", k, given[k])
		}
	}
	if res.PrizePool != pool || paid != res.PrizePool {
		t.Errorf("prize pool %d (want %d), prizes paid %d", res.PrizePool, pool, paid)
	}
}

// checkRowsWritten: a tournament of one section wrote its record's rows out, every one once and in
// order, as places with their rows; at most director.KeepRows places, the result keeps them all
// (and the winner's, which is never written: the result has it).
func checkRowsWritten(t *testing.T, res TournamentResult, sink *countingSink) {
	t.Helper()
	if res.Record == nil || len(res.Record.Rows) == 0 || len(res.Record.Rows) > director.KeepRows {
		t.Fatalf("the record's rows: %+v", res.Record)
	}
	sink.mu.Lock()
	defer sink.mu.Unlock()
	var written []floor.PlaceRow
	for i := range len(sink.places) {
		p, ok := sink.places[i]
		if !ok || p.Row == nil || p.Row.Place != p.Place || string(p.Row.Player) != p.Player {
			t.Fatalf("place %d of %d written as %+v", i, len(sink.places), p)
		}
		written = append(written, *p.Row)
	}
	slices.SortStableFunc(written, func(a, b floor.PlaceRow) int { return a.Place - b.Place })
	kept := res.Record.Rows[1:] // the winner's row is the result's
	if !slices.EqualFunc(written, kept, func(a, b floor.PlaceRow) bool { return a.Place == b.Place && a.Player == b.Player }) {
		t.Errorf("%d rows written, the result has %d besides the winner's", len(written), len(kept))
	}
}
