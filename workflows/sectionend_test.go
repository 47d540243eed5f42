package workflows

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSectionEndSendsACloseHeldBehindASignal: a section told to close while an order signal to
// one of its tables is on its way holds that table's Close behind it (one signal on its way a
// table) and sends it as soon as that signal is done, in its wait for the tables' close
// (director.PaceEndWakes). Before, that wait woke only for the tables' events: the Close waited
// out the whole closeWait, the table dealt on meanwhile, and the section ended "closing", its
// tournament gone before it (TestBountiesAndSatellitesInSectionsEndToEnd's satellite, on CI).
func TestSectionEndSendsACloseHeldBehindASignal(t *testing.T) {
	env, _, first := newSectionEnv(t, 2)
	env.OnActivity(ReportSectionActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	env.OnActivity(StartTablesActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
	inputs := map[floor.TableID]director.TableState{}
	for _, tr := range first.Tables {
		first.TableStarted(tr.ID)
		inputs[tr.ID] = first.TableInput(tr.ID)
	}
	// The first table has an order on its way when the section is told to close: its signal
	// takes 10 s.
	slow := first.Tables[0].ID
	tr := first.Table(slow)
	tr.Sent++
	batch := 5
	first.Outbox = append(first.Outbox, director.TableOrders{Table: slow, Orders: []director.Order{{Seq: tr.Sent, Batch: &batch}}})
	const signalTakes = 10 * time.Second
	start := env.Now()
	closedAt := map[floor.TableID]time.Duration{}
	record := func(args mock.Arguments) {
		n := tableOf(t, inputs, args.String(1))
		if slices.ContainsFunc(args.Get(4).([]director.Order), func(o director.Order) bool { return o.Close != nil }) {
			if _, ok := closedAt[n]; !ok {
				closedAt[n] = env.Now().Sub(start)
			}
		}
	}
	env.OnSignalExternalWorkflow(mock.Anything, director.TableWorkflowID(first.ID, slow), "", OrdersSignal, mock.Anything).
		After(signalTakes).Return(nil).Run(record).Once()
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", OrdersSignal, mock.Anything).Return(nil).Run(record)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SectionOrdersSignal, []director.Numbered[director.SectionOrder]{{Seq: 1, Msg: director.SectionOrder{Close: true}}})
	}, time.Second)
	env.ExecuteWorkflow(SectionWorkflow, TournamentInput{State: first})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("the section ended with %v, expected it to end", err)
	}
	at, ok := closedAt[slow]
	if !ok || at > signalTakes+5*time.Second {
		t.Errorf("the Close went to the table whose signal was on its way at %v (sent %v): expected it once that signal was done, %v in",
			at, ok, signalTakes)
	}
	if len(closedAt) != len(inputs) {
		t.Errorf("Closes sent to %v of %d tables", closedAt, len(inputs))
	}
}
