package workflows

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// hurries counts the tables a run hurried.
type hurries struct {
	n     atomic.Int32
	table atomic.Value
}

func (h *hurries) HurryTable(id string) { h.n.Add(1); h.table.Store(id) }

// TestTableHurriedForOrdersOthersWaitOn: a table's run tells its host's hurrier (the local run's
// bounded reporter) of an order that someone else waits on, whether it came in the answer to
// its events or by signal, when no report of the table's is in the workflow to apply it: a
// move out, a pause, a close. An order nobody waits on (a level) is not told, nor one that a
// report held in the workflow applies at once.
func TestTableHurriedForOrdersOthersWaitOn(t *testing.T) {
	env := newQuietEnv()
	h := &hurries{}
	env.RegisterWorkflowWithOptions(hurryingTableWorkflow(h), workflow.RegisterOptions{Name: TableWorkflowName})
	env.RegisterActivityWithOptions(ReportTableEvents, activity.RegisterOptions{Name: ReportTableEventsActivity})
	// The answer to the run's first events (it says it is up) moves b out.
	env.OnActivity(ReportTableEventsActivity, mock.Anything, "t", mock.Anything).Return(
		[]director.Order{{Seq: 1, MoveOut: &director.MoveOutOrder{Ref: 1, Player: "b", To: 2, ToSeat: 4, Reason: floor.MoveBreak}}}, nil).Once()
	env.OnActivity(ReportTableEventsActivity, mock.Anything, "t", mock.Anything).Return(nil, nil)

	signal := func(at time.Duration, o director.Order) {
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(OrdersSignal, []director.Order{o}) }, at)
	}
	told := map[time.Duration]int32{}
	look := func(at time.Duration) {
		env.RegisterDelayedCallback(func() { told[at] = h.n.Load() }, at)
	}
	pause := true
	look(500 * time.Millisecond)
	reportAt(t, env, time.Second, testTable+"/next/1") // applies the move out
	signal(2*time.Second, director.Order{Seq: 2, Level: &director.LevelOrder{Number: 2, Level: threePlayers().Level}})
	look(2500 * time.Millisecond)
	signal(3*time.Second, director.Order{Seq: 3, Pause: &pause})
	look(3500 * time.Millisecond)
	reportAt(t, env, 4*time.Second, testTable+"/next/2") // paused: held in the workflow up to MaxWait
	signal(4500*time.Millisecond, director.Order{Seq: 4, Seat: &director.SeatOrder{Player: "d", Seat: 3, Stack: 1000}})
	look(4800 * time.Millisecond)
	signal(7*time.Second, director.Order{Seq: 5, Close: &director.CloseTableOrder{}})

	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: testTable})
	env.ExecuteWorkflow(TableWorkflowName, threePlayers())
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := map[time.Duration]int32{
		500 * time.Millisecond:  1, // the move out in the answer, before any report
		2500 * time.Millisecond: 1, // the level: nobody waits on it
		3500 * time.Millisecond: 2, // the pause
		4800 * time.Millisecond: 2, // the seat, applied by the report held
	}
	for at, n := range want {
		if told[at] != n {
			t.Errorf("hurried %d times by %v, want %d (all: %v)", told[at], at, n, told)
		}
	}
	if got := h.n.Load(); got != 3 {
		t.Errorf("hurried %d times in all, want 3 (the close too)", got)
	}
	if got, _ := h.table.Load().(string); got != testTable {
		t.Errorf("hurried table %q, want %q", got, testTable)
	}
}

// TestReportGateHurriedFirst: the gate bounds the reports at once; a table hurried while it
// waits, or before it comes (owed), goes before the tables not hurried, in the order hurried;
// after hurriedRun hurried turns in a row the table that has waited longest unhurried goes; a
// table whose last turn was hurried is not hurried again before a turn in order; a table whose
// context ends leaves its place and loses no turn.
func TestReportGateHurriedFirst(t *testing.T) {
	g := newReportGate(1)
	if err := g.acquire(context.Background(), "holder"); err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 16)
	wait := func(table string) {
		go func() {
			if err := g.acquire(context.Background(), table); err != nil {
				t.Error(err)
				return
			}
			order <- table
		}()
		waitQueued(t, g, table)
	}
	for _, table := range []string{"p1", "p2"} {
		wait(table)
	}
	g.hurry("h1") // before it comes: owed
	for _, table := range []string{"h1", "h2", "h3", "h4", "h5"} {
		wait(table)
	}
	for _, table := range []string{"h2", "h3", "h4", "h5"} {
		g.hurry(table)
	}
	g.hurry("h2") // twice: no second place
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan error, 1)
	go func() { gone <- g.acquire(ctx, "gone") }()
	waitQueued(t, g, "gone")
	g.hurry("gone")
	cancel()
	if err := <-gone; err == nil {
		t.Fatal("a table whose context ended got a turn")
	}

	var got []string
	for range 7 {
		g.release()
		got = append(got, <-order)
	}
	want := []string{"h1", "h2", "h3", "h4", "p1", "h5", "p2"}
	if !equalStrings(got, want) {
		t.Errorf("turns %v, want %v", got, want)
	}
	// h1 had a hurried turn: hurried again, it waits in turn; after that turn it may be again.
	wait("h1")
	g.hurry("h1")
	wait("p3")
	got = nil
	for range 2 {
		g.release()
		got = append(got, <-order)
	}
	wait("p4")
	wait("h1")
	g.hurry("h1")
	for range 2 {
		g.release()
		got = append(got, <-order)
	}
	if want := []string{"h1", "p3", "h1", "p4"}; !equalStrings(got, want) {
		t.Errorf("turns after a hurried one %v, want %v", got, want)
	}
	g.release()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.free != 1 || len(g.waiting) != 0 || g.hurried.Len() != 0 || g.plain.Len() != 0 {
		t.Errorf("gate after every turn: free %d, waiting %d, hurried %d, plain %d; want 1 free and nobody waiting",
			g.free, len(g.waiting), g.hurried.Len(), g.plain.Len())
	}
}

// waitQueued waits until table waits at the gate.
func waitQueued(t *testing.T, g *reportGate, table string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		g.mu.Lock()
		_, ok := g.waiting[table]
		g.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("%s never waited at the gate", table)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
