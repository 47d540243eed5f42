package workflows

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// TestTableContinuesAsNewOnlyWhenItsSectionHolds: a table due to continue as new asks its
// section (an event with Continuing) and goes on until the section's Order.Continue has come
// with every order before it: a signal that comes in during the task that continues a run as
// new has the server refuse that task (UnhandledCommand), and the section's orders came in
// whenever they were sent (at 10,000 entries, 5 refused, all a table's for an order). Here the
// section's orders 1 and 3 (its Order.Continue) come, order 2 only later: the table continues
// as new once it has order 2, not before, and not before it has asked.
func TestTableContinuesAsNewOnlyWhenItsSectionHolds(t *testing.T) {
	env := newQuietEnv()
	env.RegisterWorkflow(TableWorkflow)
	asked := time.Duration(-1)
	start := env.Now()
	onTableEvents(env, func(ev director.TableEvent) {
		if ev.Continuing && asked < 0 {
			asked = env.Now().Sub(start)
		}
	})
	one, yes := 2, true
	at := func(d time.Duration, o director.Order) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(OrdersSignal, []director.Order{o}) }, d)
	}
	at(time.Minute, director.Order{Seq: 1, Batch: &one})
	at(2*time.Minute, director.Order{Seq: 3, Continue: &yes})
	at(5*time.Minute, director.Order{Seq: 2, Batch: &one})
	st := threePlayers()
	st.ContinueAsNewAfter = 100
	env.SetCurrentHistoryLength(101) // due from its first task on
	env.ExecuteWorkflow(TableWorkflow, st)
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("the table ended at %v (asked at %v) with %v, expected it to continue as new", env.Now().Sub(start), asked, err)
	}
	if asked < 0 || asked >= time.Minute {
		t.Errorf("the table asked its section at %v, expected before the first order (1m)", asked)
	}
	if ended := env.Now().Sub(start); ended < 5*time.Minute {
		t.Errorf("the table continued as new at %v, expected once it had order 2 (5m)", ended)
	}
	var next director.TableState
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if len(next.Pending) != 3 {
		t.Errorf("the next run takes %d orders in, expected the 3 sent", len(next.Pending))
	}
}

// TestTableKeepsQuietWhileItsSectionContinues: a table told Order.Quiet (its section is about
// to continue as new) answers with one event at once and sends nothing more, whatever its hands
// bring, until an order past the Quiet comes (the section's next run): then what it kept goes,
// in sequence. Its first event says it can keep quiet.
func TestTableKeepsQuietWhileItsSectionContinues(t *testing.T) {
	env, told := newTellingTable()
	yes, no := true, false
	at := func(d time.Duration, o director.Order) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(OrdersSignal, []director.Order{o}) }, d)
	}
	send := func(d time.Duration, id string, rs ...report.HandResult) {
		env.RegisterDelayedCallback(func() {
			env.UpdateWorkflow(ReportUpdate, id, &testsuite.TestUpdateCallback{
				OnReject:   func(e error) { t.Errorf("report %s refused: %v", id, e) },
				OnComplete: func(any, error) {},
			}, director.ReportRequest{Results: rs})
		}, d)
	}
	h1 := hand(1, stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000), stacks(0, "a", 2000, 1, "b", 1000, 2, "c", 0),
		engine.Elimination{Seat: 2, ID: "c", StartingStack: 1000})
	h2 := hand(2, stacks(0, "a", 2000, 1, "b", 1000), stacks(0, "a", 2500, 1, "b", 500))
	at(time.Minute, director.Order{Seq: 1, Quiet: &yes})
	send(2*time.Minute, testTable+"/1", h1) // c busts: news, kept
	send(3*time.Minute, testTable+"/2", h2)
	at(4*time.Minute, director.Order{Seq: 1, Quiet: &yes}) // a repeat: nothing
	at(5*time.Minute, director.Order{Seq: 2, Quiet: &no})  // the section's next run
	at(6*time.Minute, director.Order{Seq: 3, Close: &director.CloseTableOrder{}})
	env.ExecuteWorkflow(TableWorkflow, threePlayers())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	events := *told
	for i, e := range events {
		t.Logf("event %d at %v: seq %d, quiet %d, busts %d, closed %v", i+1, e.at, e.ev.Seq, e.ev.Quiet, len(e.ev.Busts), e.ev.Closed)
		if e.ev.Seq != i+1 {
			t.Errorf("event %d signalled as %d-th: expected in sequence", e.ev.Seq, i+1)
		}
	}
	if len(events) < 4 {
		t.Fatalf("%d events, expected the first, the answer, the bust kept and the close", len(events))
	}
	if first := events[0].ev; !first.Resumed || !first.CanQuiet {
		t.Errorf("the first event: resumed %v, can keep quiet %v; expected both", first.Resumed, first.CanQuiet)
	}
	answer := events[1]
	if answer.ev.Quiet != 1 || answer.at != time.Minute {
		t.Errorf("the second event answers Quiet %d at %v, expected Quiet 1 at 1m", answer.ev.Quiet, answer.at)
	}
	busts := 0
	for _, e := range events[2:] {
		if e.at < 5*time.Minute {
			t.Errorf("event %d went at %v, while the table kept quiet (until 5m)", e.ev.Seq, e.at)
		}
		if e.ev.Quiet != 0 {
			t.Errorf("event %d answers a Quiet again", e.ev.Seq)
		}
		busts += len(e.ev.Busts)
	}
	if busts != 1 || !events[len(events)-1].ev.Closed {
		t.Errorf("%d busts told after the quiet, last event closed %v; expected c's, then the close", busts, events[len(events)-1].ev.Closed)
	}
}

// TestTableStartedQuietSaysNothingUntilAsked: a table whose section marks it started once its
// start is done (TableState.QuietStart, director.PaceQuietStart) does not say it is up: its first
// event is its first news, here the answer to its section's Order.Quiet. Without QuietStart its
// first event says it is up, at once. A hundred tables' first events, told while their section's
// one slow task ran, had the server fail that task at 100,000 entries (ForceCloseCommand).
func TestTableStartedQuietSaysNothingUntilAsked(t *testing.T) {
	for _, quietStart := range []bool{true, false} {
		env, told := newTellingTable()
		yes := true
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 1, Quiet: &yes}}) }, time.Minute)
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 2, Close: &director.CloseTableOrder{}}})
		}, 2*time.Minute)
		st := threePlayers()
		st.QuietStart = quietStart
		env.ExecuteWorkflow(TableWorkflow, st)
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		events := *told
		if len(events) == 0 {
			t.Fatalf("quiet start %v: no event told", quietStart)
		}
		first := events[0]
		switch {
		case quietStart && (first.at != time.Minute || first.ev.Seq != 1 || first.ev.Quiet != 1 || first.ev.Resumed || !first.ev.CanQuiet):
			t.Errorf("quiet start: first event at %v: %+v; expected the answer to Quiet 1 at 1m, seq 1, not saying it is up", first.at, first.ev)
		case !quietStart && (first.at != 0 || first.ev.Seq != 1 || !first.ev.Resumed):
			t.Errorf("no quiet start: first event at %v: %+v; expected it to say it is up at once", first.at, first.ev)
		}
	}
}

// TestTableClosedWhileQuietTellsItsClose: a table whose Close comes with its section's
// Order.Quiet in one signal (the section due to continue as new) answers the Quiet and closes
// keeping its news, its close among it: it does not end then, but once the section's next run
// ends the quiet, telling its close. Before (no marker closeTells) it ended at once with the
// close untold, and its section waited closeWait for it at the tournament's end. Left without
// the end of the quiet, it ends after quietCloseWait.
func TestTableClosedWhileQuietTellsItsClose(t *testing.T) {
	for _, quietEnds := range []bool{true, false} {
		env, told := newTellingTable()
		start := env.Now()
		yes, no := true, false
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 1, Close: &director.CloseTableOrder{}}, {Seq: 2, Quiet: &yes}})
		}, time.Minute)
		if quietEnds {
			env.RegisterDelayedCallback(func() { env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 3, Quiet: &no}}) }, 2*time.Minute)
		}
		env.ExecuteWorkflow(TableWorkflow, threePlayers())
		if err := env.GetWorkflowError(); err != nil {
			t.Fatal(err)
		}
		ended := env.Now().Sub(start)
		events := *told
		for i, e := range events {
			t.Logf("quiet ends %v: event %d at %v: seq %d, quiet %d, closed %v", quietEnds, i+1, e.at, e.ev.Seq, e.ev.Quiet, e.ev.Closed)
		}
		want := time.Minute + quietCloseWait
		if quietEnds {
			want = 2 * time.Minute
		}
		if ended < want || ended > want+time.Second {
			t.Errorf("quiet ends %v: the table ended at %v, expected at %v", quietEnds, ended, want)
		}
		if len(events) < 2 || events[1].ev.Quiet != 2 || events[1].at != time.Minute {
			t.Fatalf("quiet ends %v: %d events; expected the first, then the Quiet's answer at 1m", quietEnds, len(events))
		}
		closes := 0
		for _, e := range events[2:] {
			if e.ev.Closed {
				closes++
				if e.at < 2*time.Minute {
					t.Errorf("the close told at %v, while the table kept quiet (until 2m)", e.at)
				}
			}
		}
		if want := map[bool]int{true: 1, false: 0}[quietEnds]; closes != want {
			t.Errorf("quiet ends %v: the close told %d times, expected %d", quietEnds, closes, want)
		}
	}
}

// toldEvent is an event a table told its section, and when (from the workflow's start).
type toldEvent struct {
	at time.Duration
	ev director.TableEvent
}

// newTellingTable is a test environment for a TableWorkflow whose events to its section ("t")
// are kept, in the order told.
func newTellingTable() (*testsuite.TestWorkflowEnvironment, *[]toldEvent) {
	env := newQuietEnv()
	env.RegisterWorkflow(TableWorkflow)
	var events []toldEvent
	start := env.Now()
	onTableEvents(env, func(ev director.TableEvent) { events = append(events, toldEvent{env.Now().Sub(start), ev}) })
	return env, &events
}

// onTableEvents has a test table's batches of events to its section ("t") taken
// (ReportTableEvents, the table's marker eventUpdates), and hands told each event they carry, in
// order.
func onTableEvents(env *testsuite.TestWorkflowEnvironment, told func(director.TableEvent)) {
	onTableEventsAfter(env, 0, func(batch []director.TableEvent) {
		for _, ev := range batch {
			told(ev)
		}
	})
}

// onTableEventsAfter has a test table's first failures batches to its section ("t") fail (the
// section unreachable: each is an attempt of ReportTableEvents), and hands took each batch taken
// after them.
func onTableEventsAfter(env *testsuite.TestWorkflowEnvironment, failures int, took func([]director.TableEvent)) {
	env.RegisterActivityWithOptions(ReportTableEvents, activity.RegisterOptions{Name: ReportTableEventsActivity})
	if failures > 0 {
		env.OnActivity(ReportTableEventsActivity, mock.Anything, "t", mock.Anything).Return(nil, errors.New("unavailable")).Times(failures)
	}
	env.OnActivity(ReportTableEventsActivity, mock.Anything, "t", mock.Anything).Return(nil, nil).Run(func(args mock.Arguments) {
		took(args.Get(2).([]director.TableEvent))
	})
}
