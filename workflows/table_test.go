package workflows

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

const testTable = "t/table-001"

// threePlayers is a 6-seat table of a, b and c in seats 0 to 2 with 1,000 chips each, button drawn
// in seat 0, not yet dealt.
func threePlayers() director.TableState {
	return director.TableState{
		Tournament: "t", ID: testTable, Number: 1, Config: engine.Config{Seats: 6},
		Seats: []director.TableSeat{
			{Seat: 0, Player: "a", Stack: 1000},
			{Seat: 1, Player: "b", Stack: 1000},
			{Seat: 2, Player: "c", Stack: 1000},
		},
		Positions: engine.Positions{Button: 0, SmallBlind: -1, BigBlind: -1},
		Level:     engine.Level{SmallBlind: 10, BigBlind: 20}, LevelNumber: 1, ReportedLevel: 1,
		Batch: 1, MaxWait: time.Second, DrawnBigBlind: 2,
	}
}

func stacks(kv ...any) []report.SeatStack {
	var out []report.SeatStack
	for i := 0; i < len(kv); i += 3 {
		out = append(out, report.SeatStack{Seat: kv[i].(int), Player: kv[i+1].(string), Stack: int64(kv[i+2].(int))})
	}
	return out
}

func hand(n int64, start, end []report.SeatStack, elim ...engine.Elimination) report.HandResult {
	return report.HandResult{TableID: testTable, HandNumber: n, Start: start, End: end, Eliminated: elim,
		Positions: engine.Positions{Button: int(n) % 3, SmallBlind: (int(n) + 1) % 3, BigBlind: (int(n) + 2) % 3, Played: true}}
}

// reportAt sends the table a report of rs at at on the workflow's clock, under update ID id;
// its refusal or failure fails t.
func reportAt(t *testing.T, env *testsuite.TestWorkflowEnvironment, at time.Duration, id string, rs ...report.HandResult) {
	env.RegisterDelayedCallback(func() { sendReport(t, env, id, rs...) }, at)
}

// sendReport sends the table a report of rs now, under update ID id; its refusal or failure
// fails t.
func sendReport(t *testing.T, env *testsuite.TestWorkflowEnvironment, id string, rs ...report.HandResult) {
	env.UpdateWorkflow(ReportUpdate, id, &testsuite.TestUpdateCallback{
		OnReject: func(e error) { t.Errorf("report %s refused: %v", id, e) },
		OnComplete: func(_ any, e error) {
			if e != nil {
				t.Errorf("report %s: %v", id, e)
			}
		},
	}, director.ReportRequest{Results: rs})
}

// reply is the outcome of one report.
type reply struct {
	st  report.State
	err error
}

// reports sends the reports one at a time, a second apart on the workflow's clock, then closes
// the table; it returns the replies in order.
func reports(env *testsuite.TestWorkflowEnvironment, reqs []reportReq) []reply {
	out := make([]reply, len(reqs))
	for i, r := range reqs {
		env.RegisterDelayedCallback(func() {
			env.UpdateWorkflow(ReportUpdate, r.id, &testsuite.TestUpdateCallback{
				OnReject: func(e error) { out[i].err = e },
				OnComplete: func(v any, e error) {
					if e != nil {
						out[i].err = e
						return
					}
					if ans, ok := v.(director.ReportAnswer); ok {
						out[i].st = ans.State
					}
				},
			}, director.ReportRequest{Results: r.results})
		}, time.Duration(i+1)*time.Second)
	}
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 1, Close: &director.CloseTableOrder{}}})
	}, time.Duration(len(reqs)+1)*time.Second)
	return out
}

type reportReq struct {
	id      string
	results []report.HandResult
}

// TestTableWorkflowReports: a report is counted once whether Temporal dedupes it (same update ID)
// or the workflow does (a hand number acknowledged already); malformed reports are rejected by the
// validator with a reason; eliminations reach the tournament with their starting stacks (R7).
func TestTableWorkflowReports(t *testing.T) {
	env := newQuietEnv()
	env.RegisterWorkflow(TableWorkflow)
	var events []director.TableEvent
	onTableEvents(env, func(ev director.TableEvent) { events = append(events, ev) })

	h1 := hand(1, stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000), stacks(0, "a", 1200, 1, "b", 800, 2, "c", 1000))
	// R7: c busts with 1,000 at the start of hand 2.
	h2 := hand(2, stacks(0, "a", 1200, 1, "b", 800, 2, "c", 1000), stacks(0, "a", 2200, 1, "b", 800, 2, "c", 0),
		engine.Elimination{Seat: 2, ID: "c", StartingStack: 1000})
	bad := []struct {
		name   string
		result report.HandResult
		want   string
	}{
		{"chips created", hand(2, stacks(0, "a", 1200, 1, "b", 800, 2, "c", 1000), stacks(0, "a", 1300, 1, "b", 800, 2, "c", 1000)), "chips not conserved"},
		{"unknown player", hand(2, stacks(0, "a", 1200, 1, "zed", 800, 2, "c", 1000), stacks(0, "a", 1200, 1, "zed", 800, 2, "c", 1000)), "unknown player"},
		{"hand skipped", hand(3, stacks(0, "a", 1200, 1, "b", 800, 2, "c", 1000), stacks(0, "a", 1200, 1, "b", 800, 2, "c", 1000)), "out of order"},
		{"wrong stack", hand(2, stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000), stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000)), "started the hand with"},
		{"bust not listed", hand(2, stacks(0, "a", 1200, 1, "b", 800, 2, "c", 1000), stacks(0, "a", 2200, 1, "b", 800, 2, "c", 0)), "not listed as eliminated"},
	}
	reqs := []reportReq{
		{id: testTable + "/next/1"},
		{id: testTable + "/1", results: []report.HandResult{h1}},
		{id: testTable + "/1", results: []report.HandResult{h1}},                       // Temporal's dedupe
		{id: testTable + "/1/after-continue-as-new", results: []report.HandResult{h1}}, // the workflow's
		{id: testTable + "/1/and-again", results: []report.HandResult{h1, h1}},         // out of order in itself
	}
	for _, b := range bad {
		reqs = append(reqs, reportReq{id: testTable + "/2/" + b.name, results: []report.HandResult{b.result}})
	}
	reqs = append(reqs, reportReq{id: testTable + "/2", results: []report.HandResult{h2}})
	out := reports(env, reqs)
	env.ExecuteWorkflow(TableWorkflow, threePlayers())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}

	if st, err := out[0].st, out[0].err; err != nil || st.Directive != report.Play || st.HandNumber != 0 || len(st.Seats) != 3 || !st.FirstHand || st.Batch != 1 {
		t.Errorf("first report: %+v, %v", st, err)
	}
	for i := 1; i <= 3; i++ {
		if st, err := out[i].st, out[i].err; err != nil || st.HandNumber != 1 || st.Seats[0].Stack != 1200 || st.Seats[1].Stack != 800 {
			t.Errorf("report %s: %+v, %v", reqs[i].id, st, err)
		}
	}
	if err := out[4].err; err == nil || !strings.Contains(err.Error(), "out of order") {
		t.Errorf("a report with hand 1 twice: %v", err)
	}
	for i, b := range bad {
		if err := out[5+i].err; err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want %q", b.name, err, b.want)
		}
	}
	if st, err := out[len(out)-1].st, out[len(out)-1].err; err != nil || st.HandNumber != 2 || len(st.Seats) != 2 || st.Positions != h2.Positions || st.FirstHand {
		t.Errorf("hand 2: %+v, %v", st, err)
	}
	var busts []director.BustGroup
	for _, ev := range events {
		busts = append(busts, ev.Busts...)
	}
	if len(busts) != 1 || busts[0].Hand != 2 || len(busts[0].Eliminated) != 1 || busts[0].Eliminated[0] != (floor.Elimination{Player: "c", Stack: 1000}) {
		t.Errorf("busts told: %+v", busts)
	}
	if len(events) == 0 {
		t.Fatal("no events")
	}
	last := events[len(events)-1]
	if !last.Closed || last.HandsPlayed != 2 || last.Seats[0] != "a" || last.Stacks[0] != 2200 || last.Seats[2] != "" {
		t.Errorf("last event %+v", last)
	}
}

// TestTableEventsSurviveFailedSignals: an event whose delivery fails every attempt (the tournament
// unreachable for minutes) is kept and sent again before the next one, so that the tournament,
// which takes a table's events in sequence, gets every one and never waits on a gap.
func TestTableEventsSurviveFailedSignals(t *testing.T) {
	env := newQuietEnv()
	env.RegisterWorkflow(TableWorkflow)
	var seqs []int
	onTableEventsAfter(env, maxSignalAttempts, func(batch []director.TableEvent) {
		for _, ev := range batch {
			seqs = append(seqs, ev.Seq)
		}
	})
	h1 := hand(1, stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000), stacks(0, "a", 2000, 1, "b", 1000, 2, "c", 0),
		engine.Elimination{Seat: 2, ID: "c", StartingStack: 1000})
	h2 := hand(2, stacks(0, "a", 2000, 1, "b", 1000), stacks(0, "a", 3000, 1, "b", 0),
		engine.Elimination{Seat: 1, ID: "b", StartingStack: 1000})
	// Event 1 is the table's first (it is up: Resumed), and its delivery fails every attempt.
	reportAt(t, env, time.Second, testTable+"/1", h1)    // event 2
	reportAt(t, env, 30*time.Minute, testTable+"/2", h2) // event 3, long after the attempts ran out
	env.RegisterDelayedCallback(func() {                 // event 4: closed
		env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 1, Close: &director.CloseTableOrder{}}})
	}, 31*time.Minute)
	env.ExecuteWorkflow(TableWorkflow, threePlayers())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(seqs)
	if !slices.Equal(seqs, []int{1, 2, 3, 4}) {
		t.Errorf("the tournament got events %v, want 1 to 4 (the first, up, sent again after its failed attempts)", seqs)
	}
}

// TestTableSendsItsEventsInBatchesOneAtATime: a table's events go to its section in batches, one
// on its way at a time (deliverBatch), so that a burst of them is one Update of the section's and
// not one each. Here the first batch fails for a while (the section busy or between runs) as six
// reports each apply an order and tell it: the events told meanwhile wait, and go together after
// it.
func TestTableSendsItsEventsInBatchesOneAtATime(t *testing.T) {
	env := newQuietEnv()
	env.RegisterWorkflow(TableWorkflow)
	const failures = 20 // about half a minute of the activity's backoff
	var batches [][]int
	onTableEventsAfter(env, failures, func(batch []director.TableEvent) { batches = append(batches, seqsOf(batch)) })
	same := stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000)
	one := 1
	for k := 1; k <= 6; k++ {
		env.RegisterDelayedCallback(func() {
			env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: k, Batch: &one}})
			sendReport(t, env, fmt.Sprintf("%s/%d", testTable, k), hand(int64(k), same, same))
		}, time.Duration(k)*time.Second)
	}
	env.RegisterDelayedCallback(func() { // the last event: closed
		env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 7, Close: &director.CloseTableOrder{}}})
	}, 10*time.Minute)
	env.ExecuteWorkflow(TableWorkflow, threePlayers())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	// Event 1 is the table's first (it is up: Resumed), 2 to 7 the orders' acknowledgements, 8 the close.
	want := [][]int{{1}, {2, 3, 4, 5, 6, 7}, {8}}
	if !reflect.DeepEqual(batches, want) {
		t.Errorf("the section got the events in batches %v, want %v: the first, the six told while it was on its way, the close", batches, want)
	}
}

// A host that delivers (director.ReportRequest.Delivers, from the table's eventsByHost) is
// handed the table's undelivered events in its report's answer, recorded as the Update's
// result before they leave the workflow, and no activity sends them; its next report brings
// back what the section took (dropped from those undelivered) and the orders it answered with
// (taken and applied). A table that waits for orders answers at once when it has events to hand
// out; the table's close goes by the activity (its section deletes the host once it has it).
func TestTableHandsItsEventsToAHostThatDelivers(t *testing.T) {
	env := newQuietEnv()
	env.RegisterWorkflow(TableWorkflow)
	var byActivity [][]int
	onTableEventsAfter(env, 0, func(batch []director.TableEvent) { byActivity = append(byActivity, seqsOf(batch)) })
	var answers []director.ReportAnswer
	send := func(at time.Duration, id string, req director.ReportRequest) {
		env.RegisterDelayedCallback(func() {
			env.UpdateWorkflow(ReportUpdate, id, &testsuite.TestUpdateCallback{
				OnReject: func(e error) { t.Errorf("report %s refused: %v", id, e) },
				OnComplete: func(v any, e error) {
					if e != nil {
						t.Errorf("report %s: %v", id, e)
						return
					}
					answers = append(answers, v.(director.ReportAnswer))
				},
			}, req)
		}, at)
	}
	start := stacks(0, "a", 1000, 1, "b", 1000, 2, "c", 1000)
	h1 := hand(1, start, stacks(0, "a", 2000, 1, "b", 1000, 2, "c", 0), engine.Elimination{Seat: 2, ID: "c", StartingStack: 1000})
	h2 := hand(2, stacks(0, "a", 2000, 1, "b", 1000), stacks(0, "a", 2500, 1, "b", 500))
	send(time.Second, testTable+"/1", director.ReportRequest{Results: []report.HandResult{h1}, Delivers: true})
	// The host gave the section events up to the first answer's last and was answered with an
	// order seating d.
	env.RegisterDelayedCallback(func() {
		if len(answers) != 1 || answers[0].Deliver == nil {
			t.Fatalf("answers %+v: want the first to hand the host the table's events", answers)
		}
		d := answers[0].Deliver
		last := d.Events[len(d.Events)-1].Seq
		send(0, testTable+"/2", director.ReportRequest{Results: []report.HandResult{h2}, Delivers: true, Taken: last,
			Replies: []director.Order{{Seq: 1, Seat: &director.SeatOrder{Player: "d", Stack: 1000}}}})
	}, 2*time.Second)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(OrdersSignal, []director.Order{{Seq: 2, Close: &director.CloseTableOrder{}}})
	}, time.Minute)
	env.ExecuteWorkflow(TableWorkflow, threePlayers())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(answers) != 2 {
		t.Fatalf("%d answers, want 2", len(answers))
	}
	first := answers[0].Deliver
	if first.Section != "t" || !slices.ContainsFunc(first.Events, func(ev director.TableEvent) bool { return len(ev.Busts) > 0 }) {
		t.Errorf("the first answer handed out %+v; want the table's events to section t, c's bust among them", first)
	}
	// The seat order came in the second report: d is seated for the next hand.
	if !slices.ContainsFunc(answers[1].Seats, func(s report.SeatState) bool { return s.Player == "d" }) {
		t.Errorf("the second answer's seats %+v; want d seated by the order the host brought back", answers[1].Seats)
	}
	// The events the host delivered never went by the activity: the table's first (it is up),
	// before any report, and its close did.
	handed := seqsOf(first.Events)
	for _, b := range byActivity {
		for _, seq := range b {
			if slices.Contains(handed, seq) {
				t.Errorf("the activity sent event %d, which the host had delivered (%v)", seq, handed)
			}
		}
	}
	if len(byActivity) < 2 {
		t.Errorf("the activity sent %v; want the table's first event and its close", byActivity)
	}
}

func seqsOf(batch []director.TableEvent) []int {
	var seqs []int
	for _, ev := range batch {
		seqs = append(seqs, ev.Seq)
	}
	return seqs
}
