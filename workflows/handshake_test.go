package workflows

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

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
	env.OnSignalExternalWorkflow(mock.Anything, "t", "", TableEventSignal, mock.Anything).Return(nil).Run(func(args mock.Arguments) {
		if ev := args.Get(4).(director.TableEvent); ev.Continuing && asked < 0 {
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
