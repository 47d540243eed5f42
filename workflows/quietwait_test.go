package workflows

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSectionWaitsForTheQuietOfTablesAskedLate: a section due to continue as new asks each of
// its tables to keep quiet once the table has started, and continues as new once every one has
// answered or its wait for them (QuietWait, from its first ask) is over. Here the section is due
// from its first task and its tables' start (their StartTables activity) ends late; the tables
// do not say they are up (director.PaceQuietStart) and are asked once it is done. From
// director.PaceQuietFromAsk a table that starts after the wait is over is not asked, and one
// asked just before it is given QuietAnswerWait to answer from the ask's delivery. Before, the section asked them all
// the same and continued as new as soon as the asks were delivered, the answers coming in during
// that task (CI's 100,000-entry test, 5 December: section 1 refused for table 47's answer,
// "event 3, acked 0, quiet 1").
func TestSectionWaitsForTheQuietOfTablesAskedLate(t *testing.T) {
	justBefore := QuietWait - 10*time.Second
	const answerAfter = 20 * time.Second
	const slowSignal = 40 * time.Second
	for _, c := range []struct {
		name       string
		startTook  time.Duration
		signalTook time.Duration // an order signal's delivery
		silent     bool          // the second table never answers
		wantAsked  bool
		wantEnd    time.Duration
	}{
		{"started after the wait", QuietWait + time.Minute, 0, false, false, QuietWait + time.Minute},
		{"started just before its end, every table answers", justBefore, 0, false, true, justBefore + answerAfter},
		{"started just before its end, a table never answers", justBefore, 0, true, true, justBefore + QuietAnswerWait},
		{"started just before its end, asked slowly, a table never answers", justBefore, slowSignal, true, true, justBefore + slowSignal + QuietAnswerWait},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, start0, first := newSectionEnv(t, 2)
			env.OnActivity(ReportSectionActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
			inputs := map[floor.TableID]director.TableState{} // each table as the section starts it
			for _, tr := range first.Tables {
				inputs[tr.ID] = first.TableInput(tr.ID)
			}
			start := env.Now()
			env.OnActivity(StartTablesActivity, mock.Anything, mock.Anything, mock.Anything).After(c.startTook).Return(nil)
			asked := map[floor.TableID]int{} // a table's Order.Quiet's Seq
			askedAt := map[floor.TableID]time.Duration{}
			mu := onOrders(env, c.signalTook, func(table string, orders []director.Order) {
				for _, o := range orders {
					if o.Quiet != nil && *o.Quiet {
						n := tableOf(t, inputs, table)
						asked[n], askedAt[n] = o.Seq, env.Now().Sub(start)
					}
				}
			})
			// answer signals table n's answer to its Order.Quiet seq: its first event (it does
			// not say it is up: TableState.QuietStart).
			answer := func(n floor.TableID, seq int) {
				st := inputs[n]
				if !st.QuietStart {
					t.Errorf("table %d starts saying it is up (QuietStart false)", n)
				}
				st.Quiet, st.QuietOwed = seq, true
				ev := director.TableEvent{CanQuiet: true}
				if !st.Event(&ev, st.Acked, env.Now()) || ev.Seq != 1 || ev.Quiet != seq {
					t.Fatalf("table %d: answer %+v, expected its first event, answering Quiet %d", n, ev, seq)
				}
				env.SignalWorkflow(TableEventSignal, ev)
			}
			env.RegisterDelayedCallback(func() {
				mu.Lock()
				now := maps.Clone(asked)
				mu.Unlock()
				for n, seq := range now {
					if !c.silent || n != 2 {
						answer(n, seq)
					}
				}
			}, c.startTook+answerAfter)

			env.SetCurrentHistoryLength(51) // due to continue as new from its first task
			env.ExecuteWorkflow(SectionWorkflow, TournamentInput{Section: &start0})
			mu.Lock()
			defer mu.Unlock()
			ended := env.Now().Sub(start)
			var can *workflow.ContinueAsNewError
			if err := env.GetWorkflowError(); !errors.As(err, &can) {
				t.Fatalf("the section ended at %v with %v, expected it to continue as new", ended, err)
			}
			switch {
			case !c.wantAsked && len(asked) > 0:
				t.Errorf("tables asked to keep quiet at %v, after the wait was over (%v)", askedAt, QuietWait)
			case c.wantAsked && len(asked) != 2:
				t.Errorf("tables asked to keep quiet: %v (at %v), expected both", asked, askedAt)
			}
			for n, at := range askedAt {
				if at != c.startTook+c.signalTook {
					t.Errorf("table %d asked at %v, expected once its start was done and the signal delivered (%v)", n, at, c.startTook+c.signalTook)
				}
			}
			if ended != c.wantEnd {
				t.Errorf("the section continued as new at %v (tables started at %v, asked at %v), expected at %v",
					ended, c.startTook, askedAt, c.wantEnd)
			}
		})
	}
}

// newSectionEnv is a test environment for section 1 of two, of tables full tables each, due to
// continue as new past 50 events: what the section starts from, and its first state. The hosts'
// calls are done at once; the caller mocks the reports to its tournament, the tables' starts and
// their order signals.
func newSectionEnv(t *testing.T, tables int) (*testsuite.TestWorkflowEnvironment, director.SectionStart, *director.TournamentState) {
	env := newQuietEnv()
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
	env.RegisterWorkflow(SectionWorkflow)
	env.RegisterActivity(&TableActivities{})
	env.RegisterActivityWithOptions(ReportSection, activity.RegisterOptions{Name: ReportSectionActivity})
	env.RegisterActivityWithOptions((&placeActivities{}).RecordPlaces, activity.RegisterOptions{Name: RecordPlacesActivity})
	for _, a := range []string{DeleteTablesActivity, ReplaceTablesActivity} {
		env.OnActivity(a, mock.Anything, mock.Anything).Return(nil)
	}
	spec := clockSpec()
	spec.PlayerCount, spec.Players, spec.SectionTables = 2*tables*spec.TableSize, nil, tables
	spec.ContinueAsNewAfter = 50
	_, sections, err := director.NewTopState("quiet", spec, 3, tables, env.Now())
	if err != nil {
		t.Fatal(err)
	}
	first, err := sections[0].State(env.Now())
	if err != nil {
		t.Fatal(err)
	}
	return env, sections[0], first
}

// TestSectionEndingWhileQuietEndsItsTablesQuiet: a section due to continue as new asks its
// tables to keep quiet, a closing table's Close going with its Order.Quiet in one signal; the
// table answers and closes keeping its news, its close among it, until the quiet ends
// (TestTableClosedWhileQuietTellsItsClose). The section's tournament ends it before it has
// continued as new: it ends its tables' quiet as it closes them (director.PaceQuietEndsAtEnd), so
// the closing table tells its close and the section ends with every table closed. Before, nothing
// ended that table's quiet, and the section waited out closeWait and ended "closing", its last
// events untold (TestBountiesAndSatellitesInSectionsEndToEnd, under load, 5 December).
func TestSectionEndingWhileQuietEndsItsTablesQuiet(t *testing.T) {
	env, _, first := newSectionEnv(t, 2)
	// The section's first report to the tournament, its ask to hold its orders, takes a minute:
	// the section does not continue as new before its tournament ends it. The others are taken
	// at once.
	env.OnActivity(ReportSectionActivity, mock.Anything, mock.Anything, mock.Anything).After(time.Minute).Return(nil).Once()
	env.OnActivity(ReportSectionActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(StartTablesActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	tables := map[floor.TableID]*director.TableState{} // each table's side: what it has been told
	for _, tr := range first.Tables {
		first.TableStarted(tr.ID)
		in := first.TableInput(tr.ID)
		tables[tr.ID] = &in
	}
	closing := first.Tables[1].ID
	tr := first.Table(closing)
	tr.Sent++
	tr.Closing = true
	first.Outbox = append(first.Outbox, director.TableOrders{Table: closing, Orders: []director.Order{{Seq: tr.Sent, Close: &director.CloseTableOrder{}}}})
	inputs := map[floor.TableID]director.TableState{}
	for n, st := range tables {
		inputs[n] = *st
	}
	start := env.Now()
	var toClosing [][]director.Order
	mu := onOrders(env, 0, func(table string, orders []director.Order) {
		n := tableOf(t, inputs, table)
		if tables[n] == nil {
			return
		}
		if n == closing {
			toClosing = append(toClosing, orders)
		}
		st := tables[n]
		st.NoteQuiet(orders)
		st.AddOrders(orders)
	})
	// tell signals table n's event, as the table's run would: the answer to its Order.Quiet, or
	// its close once it may tell it.
	told := map[floor.TableID]int{}
	tell := func(n floor.TableID) {
		mu.Lock() // the orders' mocks write the tables' states
		st := tables[n]
		var ev director.TableEvent
		acked := st.Acked
		if !st.QuietOwed && st.Closed() && !st.Silent() { // the answer goes first, alone
			st.ApplyOrders(&ev)
			ev.Closed = true
		}
		ev.CanQuiet = true
		news := st.Event(&ev, acked, env.Now())
		mu.Unlock()
		if news {
			env.SignalWorkflow(TableEventSignal, ev)
			told[n]++
		}
	}
	for _, at := range []time.Duration{10 * time.Second, 30 * time.Second} {
		env.RegisterDelayedCallback(func() {
			for n := range tables {
				tell(n)
			}
		}, at)
	}
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SectionOrdersSignal, []director.Numbered[director.SectionOrder]{{Seq: 1, Msg: director.SectionOrder{Close: true}}})
	}, 20*time.Second)
	env.SetCurrentHistoryLength(51) // due to continue as new from its first task
	env.ExecuteWorkflow(SectionWorkflow, TournamentInput{State: first})
	mu.Lock()
	defer mu.Unlock()
	ended := env.Now().Sub(start)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("the section ended at %v with %v, expected it to end", ended, err)
	}
	if len(toClosing) == 0 || !slices.ContainsFunc(toClosing[0], func(o director.Order) bool { return o.Close != nil }) ||
		!slices.ContainsFunc(toClosing[0], func(o director.Order) bool { return o.Quiet != nil && *o.Quiet }) {
		t.Fatalf("orders to the closing table %v: expected its Close and its Order.Quiet in the first signal", toClosing)
	}
	if st := tables[closing]; st.Silent() || told[closing] != 2 {
		t.Errorf("the closing table told %d events, silent %v at the end (orders %v): expected its answer, then its close once its quiet ended",
			told[closing], st.Silent(), toClosing)
	}
	if ended >= 20*time.Second+closeWait {
		t.Errorf("the section ended at %v, after waiting out closeWait (%v) for a table", ended, closeWait)
	}
}

// TestSectionAsksItsTablesQuietWithinTheSignalCap: a section of 20 tables due to continue as
// new asks them to keep quiet at most signalsInFlight (16) at a time, the rest as the signals
// are delivered (director.PaceQuietFromAsk): each delivery comes in to the section, and a
// hundred asks at once had 51 of them come in during one slow task of a section's at 100,000
// entries, two suites side by side (the server fails a task past 100). Every table is asked.
func TestSectionAsksItsTablesQuietWithinTheSignalCap(t *testing.T) {
	env, start0, first := newSectionEnv(t, 20)
	env.OnActivity(ReportSectionActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(StartTablesActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	inputs := map[floor.TableID]director.TableState{}
	for _, tr := range first.Tables {
		inputs[tr.ID] = first.TableInput(tr.ID)
	}
	if len(inputs) != 20 {
		t.Fatalf("%d tables in the section, expected 20", len(inputs))
	}
	start := env.Now()
	// Every signal takes 5 s to be delivered: the asks delivered at one time went together.
	delivered := map[time.Duration]int{}
	asked := map[floor.TableID]bool{}
	mu := onOrders(env, 5*time.Second, func(table string, orders []director.Order) {
		for _, o := range orders {
			if o.Quiet != nil && *o.Quiet {
				asked[tableOf(t, inputs, table)] = true
				delivered[env.Now().Sub(start)]++
			}
		}
	})
	env.SetCurrentHistoryLength(51) // due to continue as new from its first task
	env.ExecuteWorkflow(SectionWorkflow, TournamentInput{Section: &start0})
	mu.Lock()
	defer mu.Unlock()
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("the section ended with %v, expected it to continue as new", err)
	}
	if len(asked) != len(inputs) {
		t.Errorf("%d of the %d tables asked to keep quiet", len(asked), len(inputs))
	}
	for at, n := range delivered {
		if n > signalsInFlight {
			t.Errorf("%d asks to keep quiet delivered together at %v (sent together), expected at most %d", n, at, signalsInFlight)
		}
	}
}

// tableOf is the number of the table whose workflow is id.
func tableOf(t *testing.T, inputs map[floor.TableID]director.TableState, id string) floor.TableID {
	for n, st := range inputs {
		if st.Number == n && director.TableWorkflowID(st.Tournament, n) == id {
			return n
		}
	}
	t.Errorf("orders to %s, not a table started", id)
	return 0
}

// onOrders has the orders a section (or a tournament of one) signals its tables taken by took,
// each delivered after on the workflow's clock. The test suite runs each signal's mock in a
// goroutine of its own, so took is called under the mutex returned, which a reader of what took
// writes holds too: two signals' calls at once wrote one map together and the package's tests
// died ("concurrent map writes", TestSectionWaitsForTheQuietOfTablesAskedLate beside a second
// suite, 7 December).
func onOrders(env *testsuite.TestWorkflowEnvironment, after time.Duration, took func(table string, orders []director.Order)) *sync.Mutex {
	var mu sync.Mutex
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", OrdersSignal, mock.Anything).After(after).Return(nil).
		Run(func(args mock.Arguments) {
			mu.Lock()
			defer mu.Unlock()
			took(args.String(1), args.Get(4).([]director.Order))
		})
	return &mu
}
