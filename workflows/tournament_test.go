package workflows

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// clockStructure: levels of 10 minutes, a 5-minute break after the second.
func clockStructure() floor.Structure {
	return floor.Structure{Name: "clock-test", StartingStack: 10000, Levels: []floor.Level{
		{SmallBlind: 25, BigBlind: 50, Minutes: 10},
		{SmallBlind: 50, BigBlind: 100, Minutes: 10},
		{Break: true, Minutes: 5},
		{SmallBlind: 75, BigBlind: 150, Minutes: 10},
		{SmallBlind: 100, BigBlind: 200, Ante: 25, Minutes: 10},
	}}
}

func clockSpec() TournamentSpec {
	return TournamentSpec{Name: "clock", PlayerCount: 18, TableSize: 9, Structure: clockStructure(), Seed: 3, BuyIn: 1000}
}

// testWorkflowID is the ID the test environment gives the workflow under test.
const testWorkflowID = "default-test-workflow-id"

// newQuietEnv is a test workflow environment whose SDK logs nothing (quietSDKLogger).
func newQuietEnv() *testsuite.TestWorkflowEnvironment {
	var ts testsuite.WorkflowTestSuite
	ts.SetLogger(quietSDKLogger())
	return ts.NewTestWorkflowEnvironment()
}

func newTournamentEnv(t *testing.T) *testsuite.TestWorkflowEnvironment {
	env := newQuietEnv()
	// A workflow task that the machine does not run for a second (a load of 20 from other builds)
	// is not a deadlock: the SDK's one-second detector failed this test 2 runs in 5 then.
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	env.SetDetachedChildWait(false)
	env.RegisterWorkflow(TournamentWorkflow)
	env.RegisterWorkflow(TableWorkflow)
	env.RegisterActivity(&TableActivities{})
	env.RegisterActivityWithOptions((&placeActivities{}).RecordPlaces, activity.RegisterOptions{Name: RecordPlacesActivity})
	env.RegisterActivityWithOptions(ReportTableEvents, activity.RegisterOptions{Name: ReportTableEventsActivity})
	env.OnActivity(CreateTableActivity, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(CreateTablesActivity, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(DeleteTableActivity, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(ReplaceTableActivity, mock.Anything, mock.Anything).Return(nil)
	// The tables' events go to the tournament as its Update, as ReportTableEvents gives them,
	// and its answer back to the table.
	env.OnActivity(ReportTableEventsActivity, mock.Anything, mock.Anything, mock.Anything).Return(
		func(_ context.Context, _ string, batch []director.TableEvent) ([]director.Order, error) {
			return updateTournament(t, env, batch)
		})
	return env
}

// updateTournament gives the tournament a table's events as ReportTableEvents does, and returns
// its answer once it has taken them.
func updateTournament(t *testing.T, env *testsuite.TestWorkflowEnvironment, batch []director.TableEvent) ([]director.Order, error) {
	type answer struct {
		orders []director.Order
		err    error
	}
	done := make(chan answer, 1)
	env.UpdateWorkflow(TableEventsUpdate, "", &testsuite.TestUpdateCallback{
		OnReject: func(err error) {
			t.Errorf("the tables' events refused: %v", err)
			done <- answer{err: err}
		},
		OnComplete: func(result any, err error) {
			orders, _ := result.([]director.Order)
			done <- answer{orders, err}
		},
	}, batch)
	a := <-done
	return a.orders, a.err
}

// at runs f on the workflow's clock, d after the start.
func at(env *testsuite.TestWorkflowEnvironment, d time.Duration, f func()) {
	env.RegisterDelayedCallback(f, d)
}

func clockAction(t *testing.T, env *testsuite.TestWorkflowEnvironment, r ClockRequest) {
	env.UpdateWorkflow(ClockUpdate, "", &testsuite.TestUpdateCallback{
		OnReject: func(err error) { t.Errorf("%s refused: %v", r.Kind, err) },
		OnComplete: func(_ any, err error) {
			if err != nil {
				t.Errorf("%s failed: %v", r.Kind, err)
			}
		},
	}, r)
}

// TestClockLevelsAtScheduledTimes: levels change at exactly the times the published schedule gives
// once pauses, resumes, added time and a break are counted (B3, R2), and every table is told.
func TestClockLevelsAtScheduledTimes(t *testing.T) {
	env := newTournamentEnv(t)
	start := env.Now()
	m := time.Minute
	// Level 1 from 0; paused from 3 to 5: level 2 at 12; 3 minutes added at 14: the break at 25;
	// paused on the break from 27 to 28: level 3 at 31; level 4 at 41, the last, to the end.
	at(env, 3*m, func() { clockAction(t, env, ClockRequest{Kind: floor.ClockPause, By: "td"}) })
	at(env, 5*m, func() { clockAction(t, env, ClockRequest{Kind: floor.ClockResume, By: "td"}) })
	at(env, 14*m, func() {
		clockAction(t, env, ClockRequest{Kind: floor.ClockAddTime, Add: 3 * m, By: "td", Reason: "a long hand"})
	})
	at(env, 27*m, func() { clockAction(t, env, ClockRequest{Kind: floor.ClockPause, By: "td"}) })
	at(env, 28*m, func() { clockAction(t, env, ClockRequest{Kind: floor.ClockResume, By: "td"}) })
	at(env, 4*m, func() {
		if st := tableState(t, env, 1); !st.Paused {
			t.Error("table 1 not paused at 4 minutes")
		}
	})
	at(env, 26*m, func() {
		if st := tableState(t, env, 2); !st.OnBreak || st.Level != (engine.Level{SmallBlind: 75, BigBlind: 150}) {
			t.Errorf("table 2 at 26 minutes: break %v, level %+v", st.OnBreak, st.Level)
		}
	})
	var clock ClockView
	at(env, 45*m, func() {
		v, err := env.QueryWorkflow(ClockQuery)
		if err != nil {
			t.Fatal(err)
		}
		if err := v.Get(&clock); err != nil {
			t.Fatal(err)
		}
		if st := tableState(t, env, 1); st.OnBreak || st.Paused || st.Level != (engine.Level{SmallBlind: 100, BigBlind: 200, Ante: 25}) || st.LevelNumber != 4 {
			t.Errorf("table 1 at 45 minutes: %+v", st)
		}
		env.CancelWorkflow()
	})
	env.ExecuteWorkflow(TournamentWorkflow, TournamentInput{Spec: clockSpec()})
	var canceled *temporal.CanceledError
	if err := env.GetWorkflowError(); !errors.As(err, &canceled) {
		t.Fatalf("workflow ended with %v", err)
	}

	want := []struct {
		period int
		at     time.Duration
	}{{0, 0}, {1, 12 * m}, {2, 25 * m}, {3, 31 * m}, {4, 41 * m}}
	if len(clock.Changes) != len(want) {
		t.Fatalf("level changes %+v", clock.Changes)
	}
	for i, w := range want {
		c := clock.Changes[i]
		if c.Period != w.period || !c.At.Equal(start.Add(w.at)) {
			t.Errorf("change %d: period %d at %v, want period %d at %v", i, c.Period, c.At.Sub(start), w.period, w.at)
		}
	}
	if clock.State.Level != 4 || clock.State.Remaining != 6*m {
		t.Errorf("clock at the end: %+v", clock.State)
	}
}

func tableState(t *testing.T, env *testsuite.TestWorkflowEnvironment, id floor.TableID) director.TableState {
	t.Helper()
	v, err := env.QueryWorkflowByID(director.TableWorkflowID(testWorkflowID, id), TableStateQuery)
	if err != nil {
		t.Fatal(err)
	}
	var st director.TableState
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	// Orders apply between hands, when the table reports; nobody deals here, so apply them as the
	// next report would.
	st.ApplyOrders(&director.TableEvent{})
	return st
}

// TestSectionsRefuseWhatNoSectionHolds: a tournament of several sections, through the client API
// on a real server, takes clock actions and late entries (each seated by its section), and
// refuses, with an error naming the action and why, what no section can take: a re-entry of an
// entrant no section holds a busted entry of, a deal while the players are spread over several
// sections (saying how many and where), an action on a player sent to the tournament instead of
// his section; nothing refused is recorded.
func TestSectionsRefuseWhatNoSectionHolds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c := idleServer(t) // the tables deal nothing: the state stands still
	spec := clockSpec()
	spec.PlayerCount, spec.Players, spec.SectionTables = 40, nil, 2 // 5 tables in 3 sections
	spec.LateRegistrationLevel, spec.ReEntries = 2, 1
	if !spec.Sectioned() {
		t.Fatal("the spec plays as one tournament")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tour, err := StartTournament(ctx, c, "refusals", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tour.ClockAction(ctx, ClockRequest{Kind: floor.ClockPause, By: "td", Reason: "a dispute"}); err != nil {
		t.Fatalf("pause: %v", err)
	}
	if id, err := tour.Register(ctx, RegisterRequest{Player: "late"}); err != nil || id != "late" {
		t.Errorf("a late entry: %q, %v", id, err)
	}
	_, errReEntry := tour.Register(ctx, RegisterRequest{ReEntryOf: "p001"})
	_, errDeal := tour.Deal(ctx, DealRequest{Method: "icm", ApprovedBy: "td"})
	_, errQuote := tour.DealQuote(ctx, DealRequest{Method: "icm"})
	errRebuy := tour.update(ctx, RebuyUpdate, "", nil, RebuyRequest{Player: "p0001"}) // to the tournament, not his section
	for _, c := range []struct {
		err        error
		name, want string
	}{
		{errReEntry, "re-entry", "R1: no section holds a busted entry of p001: only a busted player re-enters"},
		{errDeal, "deal", "deal refused: the 41 players left are in 3 sections (section 1: "},
		{errQuote, "deal quote", "deal refused: the 41 players left are in 3 sections (section 1: "},
		{errRebuy, "rebuy sent to the tournament", "a rebuy refused: the player's record (stack, table, rebuys, sanctions) is in his section's workflow: send it there"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, c.err, c.want)
		}
	}
	var p Progress
	for p.Entries != 41 && ctx.Err() == nil { // the entry's section tells the tournament
		if p, err = tour.Progress(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p.Entries != 41 || p.PlayersLeft != 41 || !p.Paused {
		t.Errorf("progress %+v: want 41 entries, 41 left, paused (the refusals recorded nothing, the pause and the entry took)", p)
	}
	// The players' records are in the sections: the standings gather them, each player once.
	standings, err := tour.Standings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	in, chips := map[string]bool{}, int64(0)
	for _, st := range standings {
		if st.Place != 0 || in[st.Player] || st.Table == 0 && st.Player != "late" { // late is on his way to his seat
			t.Errorf("standing %+v: want each of the 41 players once, in, at a table", st)
		}
		in[st.Player] = true
		chips += st.Stack
	}
	if len(in) != 41 || !in["late"] || chips != 41*spec.Structure.StartingStack {
		t.Errorf("standings: %d players in with %d chips, want 41 (late among them) with %d", len(in), chips, 41*spec.Structure.StartingStack)
	}
	if err := c.CancelWorkflow(ctx, tour.ID, ""); err != nil {
		t.Fatal(err)
	}
}
