package workflows

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSectionWaitsForTheQuietOfTablesAskedLate: a section due to continue as new asks each of
// its tables to keep quiet once the table has started, and continues as new once every one has
// answered, or QuietWait after the last ask. Here the section is due from its first task and its
// tables' start (their StartTables activity) takes longer than QuietWait: the tables, which do
// not say they are up (director.PaceQuietStart), are asked once it is done, and the section
// waits for their answers (director.PaceQuietFromAsk). Before, the wait ran from the run's first
// ask (which asked no one: none had started), so the section continued as new as soon as the
// late asks were delivered and the answers came in during that task (CI's 100,000-entry test,
// 5 December: section 1 refused for table 47's answer, "event 3, acked 0, quiet 1"). A table
// that never answers holds the section QuietWait after its ask, no longer.
func TestSectionWaitsForTheQuietOfTablesAskedLate(t *testing.T) {
	startTook := QuietWait + time.Minute
	const answerAfter = 30 * time.Second
	for _, c := range []struct {
		name    string
		silent  bool // the second table never answers
		wantEnd time.Duration
	}{
		{"every table answers", false, startTook + answerAfter},
		{"a table never answers", true, startTook + QuietWait},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := newQuietEnv()
			env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: time.Minute})
			env.RegisterWorkflow(SectionWorkflow)
			env.RegisterActivity(&TableActivities{})
			env.RegisterActivityWithOptions(ReportSection, activity.RegisterOptions{Name: ReportSectionActivity})
			env.RegisterActivityWithOptions((&placeActivities{}).RecordPlaces, activity.RegisterOptions{Name: RecordPlacesActivity})
			env.OnActivity(ReportSectionActivity, mock.Anything, mock.Anything, mock.Anything).Return(nil)
			for _, a := range []string{DeleteTablesActivity, ReplaceTablesActivity} {
				env.OnActivity(a, mock.Anything, mock.Anything).Return(nil)
			}
			spec := clockSpec()
			spec.PlayerCount, spec.Players, spec.SectionTables = 36, nil, 2
			spec.ContinueAsNewAfter = 50
			_, sections, err := director.NewTopState("quiet", spec, 3, 2, env.Now())
			if err != nil {
				t.Fatal(err)
			}
			first, err := sections[0].State(env.Now())
			if err != nil {
				t.Fatal(err)
			}
			inputs := map[floor.TableID]director.TableState{} // each table as the section starts it
			for _, tr := range first.Tables {
				inputs[tr.ID] = first.TableInput(tr.ID)
			}
			start := env.Now()
			env.OnActivity(StartTablesActivity, mock.Anything, mock.Anything, mock.Anything).After(startTook).Return(nil)
			asked := map[floor.TableID]int{} // a table's Order.Quiet's Seq
			askedAt := map[floor.TableID]time.Duration{}
			env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", OrdersSignal, mock.Anything).Return(nil).
				Run(func(args mock.Arguments) {
					for _, o := range args.Get(4).([]director.Order) {
						if o.Quiet != nil && *o.Quiet {
							n := tableOf(t, inputs, args.String(1))
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
			answered := 0
			env.RegisterDelayedCallback(func() {
				for n, seq := range asked {
					if c.silent && n == 2 {
						continue
					}
					answer(n, seq)
					answered++
				}
			}, startTook+answerAfter)

			env.SetCurrentHistoryLength(51) // due to continue as new from its first task
			env.ExecuteWorkflow(SectionWorkflow, TournamentInput{Section: &sections[0]})
			ended := env.Now().Sub(start)
			var can *workflow.ContinueAsNewError
			if err := env.GetWorkflowError(); !errors.As(err, &can) {
				t.Fatalf("the section ended at %v with %v, expected it to continue as new", ended, err)
			}
			if len(asked) != 2 {
				t.Fatalf("tables asked to keep quiet: %v (at %v), expected both (the section continued as new at %v, its tables started %v)", asked, askedAt, ended, len(inputs))
			}
			for n, at := range askedAt {
				if at != startTook {
					t.Errorf("table %d asked at %v, expected once its start was done (%v)", n, at, startTook)
				}
			}
			if ended != c.wantEnd || answered == 0 {
				t.Errorf("the section continued as new at %v (tables asked at %v, %d answered at %v), expected at %v",
					ended, askedAt, answered, startTook+answerAfter, c.wantEnd)
			}
		})
	}
}

// tableOf is the number of the table whose workflow is id.
func tableOf(t *testing.T, inputs map[floor.TableID]director.TableState, id string) floor.TableID {
	for n, st := range inputs {
		if st.Number == n && director.TableWorkflowID(st.Tournament, n) == id {
			return n
		}
	}
	t.Fatalf("orders to %s, not a table started", id)
	return 0
}
