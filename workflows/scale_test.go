package workflows

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"errors"
	"net/http"
	_ "net/http/pprof"
	"slices"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/proto"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// The walls the design keeps clear of (ARCHITECTURE.md, Scale): Temporal refuses a payload over
// 2 MB and fails a task past 2,000 pending children, activities or signals; the design keeps to
// an eighth and a half of them. A run takes at most 2,000 Updates (history.maxTotalUpdates): a
// run that accepts more than that is refused the rest.
const (
	maxContinueAsNewInput = 256 << 10
	maxPending            = 1000
	maxRunUpdates         = 2000
)

// countingSink counts the places written out.
type countingSink struct {
	mu     sync.Mutex
	places map[int]Place // by index among the places written
}

func (s *countingSink) RecordPlaces(_ context.Context, _ string, from int, places []Place) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range places {
		s.places[from+i] = p
	}
	return nil
}

// runLimits is what one run's history shows against Temporal's limits.
type runLimits struct {
	id, run, kind    string
	prev             string // the run this one continued
	input            int    // the size of the run's input (its first event's), bytes
	continueAsNew    int    // the size of the input it continued as new with (0: it did not)
	children, acts   int    // the most pending at once
	signals          int
	starts           int // the most child workflows whose start was under way at once
	taskFailed       int
	unhandled        int            // tasks refused because a message came in as the run continued as new
	unhandledBy      map[string]int // what came in during those tasks: signals by name (their sender's kind), other events by type
	failure          string         // the last task failure's cause
	continuedAsNewOK bool
	completed        bool // the run ended (a table closed): a refused task then was its end's, not a continue-as-new
	// buffered is the most events that came in during one workflow task (written after its
	// completion, before the next task's scheduling): the server fails a task past
	// history.maximumBufferedEventsBatch (100). offSticky counts the tasks after the run's first
	// that went to the task queue, not the worker's sticky queue: each replays the whole history
	// (a sticky task not started in time, or a worker gone). slowest is the longest a task ran
	// (started to completed or failed).
	buffered   int
	bufferedBy map[string]int // what came in during that task, by event type (signals by name)
	offSticky  int
	slowest    time.Duration
	timedOut   map[string]int // workflow tasks timed out, by timeout type
	// refused describes what came in during each refused continue-as-new (orders by Seq).
	refused []string
	// updates counts the Updates the run accepted (the server takes at most
	// history.maxTotalUpdates, 2,000, in a run); reportSignals the sections' reports that came as
	// signals (none from director.PaceReportUpdate: they are Updates, never buffered).
	updates, reportSignals int
	// sectionOrders counts the tournament's order signals a section's run took.
	sectionOrders int
	// orderCommands counts the order signals to tables the run sent as commands of its own
	// (every one from director.PaceCommandSignals; from a local activity, SignalOrders, between
	// director.PaceLocalSignals and it); eventActivities a table's events sent by an activity
	// (ReportTableEvents); locals the local activities' markers (none: a local activity's side
	// effect leaves before the task that decided it is recorded).
	orderCommands, eventActivities, locals int
	// replies counts the Updates of a table's events the run answered with orders
	// (director.PaceOrdersInReply).
	replies int
	// reports, reportWait and slowestReport: a section's reports (ReportSection activities) and
	// how long they took from their scheduling to their completion, in all and the longest.
	reports                   int
	reportWait, slowestReport time.Duration
}

// limitsOf reads one run's history from the server and computes its high-water marks: pending
// child workflows (initiated, not yet closed), activities (scheduled, not yet closed) and signals
// to other workflows (initiated, not yet delivered or failed).
func limitsOf(ctx context.Context, c client.Client, id, run string) (runLimits, error) {
	l := runLimits{id: id, run: run, unhandledBy: map[string]int{}, timedOut: map[string]int{}}
	var children, acts, signals, starts int
	afterUnhandled := false         // the events after a task refused for UnhandledCommand: what came in
	afterTask, buffered := false, 0 // after a task's completion or failure: what came in during it
	by := map[string]int{}
	tasks := 0
	var started time.Time
	timers := map[string]string{}      // a timer's ID: its duration and when it started, for what came in
	var recent []string                // the last events, for the story of a refused task
	reportsAt := map[int64]time.Time{} // a ReportSection activity's scheduling event: its time
	it := c.GetWorkflowHistory(ctx, id, run, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return l, err
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
			if afterTask && buffered > l.buffered {
				l.buffered, l.bufferedBy = buffered, by
			}
			afterTask, buffered, by = false, 0, map[string]int{}
			if tasks++; tasks > 1 && ev.GetWorkflowTaskScheduledEventAttributes().GetTaskQueue().GetKind() == enumspb.TASK_QUEUE_KIND_NORMAL {
				l.offSticky++
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			started = ev.GetEventTime().AsTime()
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT:
			a := ev.GetWorkflowTaskTimedOutEventAttributes()
			what := a.GetTimeoutType().String()
			if a.GetTimeoutType() == enumspb.TIMEOUT_TYPE_START_TO_CLOSE {
				what += fmt.Sprintf(" after %v", ev.GetEventTime().AsTime().Sub(started).Round(time.Second))
			}
			l.timedOut[what]++
			afterTask, buffered, by = true, 0, map[string]int{}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
			l.slowest = max(l.slowest, ev.GetEventTime().AsTime().Sub(started))
			afterTask, buffered, by = true, 0, map[string]int{}
		default:
			if afterTask && comesIn(ev.GetEventType()) {
				buffered++
				what := ev.GetEventType().String()
				if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a != nil {
					what = "signal " + a.GetSignalName()
				}
				by[what]++
			}
		}
		recent = append(recent, fmt.Sprintf("%d %s", ev.GetEventId(), strings.TrimPrefix(ev.GetEventType().String(), "EVENT_TYPE_")))
		if len(recent) > 14 {
			recent = recent[1:]
		}
		if a := ev.GetTimerStartedEventAttributes(); a != nil {
			timers[a.GetTimerId()] = fmt.Sprintf("%v, started at event %d", a.GetStartToFireTimeout().AsDuration(), ev.GetEventId())
		}
		if a := ev.GetTimerFiredEventAttributes(); a != nil && afterUnhandled {
			l.refused = append(l.refused, fmt.Sprintf("event %d: timer %s fired (%s)", ev.GetEventId(), a.GetTimerId(), timers[a.GetTimerId()]))
		}
		if afterUnhandled && ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED {
			a := ev.GetWorkflowExecutionSignaledEventAttributes()
			what := a.GetSignalName()
			if what == OrdersSignal {
				var orders []director.Order
				if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &orders); err == nil {
					for _, o := range orders {
						what += fmt.Sprintf(" %d", o.Seq)
						if o.Continue != nil {
							what += "(continue)"
						}
					}
				}
			}
			if what == SectionOrdersSignal {
				var orders []director.Numbered[director.SectionOrder]
				if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &orders); err == nil {
					for _, o := range orders {
						what += fmt.Sprintf(" %d", o.Seq)
					}
				}
			}
			var told []director.TableEvent
			switch what {
			case TableEventSignal:
				var te director.TableEvent
				if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &te); err == nil {
					told = append(told, te)
				}
			case TableEventsSignal:
				_ = converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &told)
			}
			for _, te := range told {
				what += fmt.Sprintf(" (table %d, event %d, acked %d, quiet %d, resumed %v, continuing %v, closed %v, %d busts)",
					te.Table, te.Seq, te.Acked, te.Quiet, te.Resumed, te.Continuing, te.Closed, len(te.Busts))
			}
			l.refused = append(l.refused, fmt.Sprintf("event %d: %s", ev.GetEventId(), what))
		}
		if afterUnhandled {
			switch ev.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED:
				afterUnhandled = false
			case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
				l.unhandledBy["signal "+ev.GetWorkflowExecutionSignaledEventAttributes().GetSignalName()]++
			default:
				l.unhandledBy[ev.GetEventType().String()]++
			}
		}
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			a := ev.GetWorkflowExecutionStartedEventAttributes()
			l.kind = a.GetWorkflowType().GetName()
			l.input = proto.Size(a.GetInput())
			l.prev = a.GetContinuedExecutionRunId()
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			l.completed = true
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
			l.updates++
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED:
			// A table's events answered with orders (director.PaceOrdersInReply): a JSON list,
			// not null.
			if p := ev.GetWorkflowExecutionUpdateCompletedEventAttributes().GetOutcome().GetSuccess().GetPayloads(); len(p) > 0 && bytes.HasPrefix(p[0].GetData(), []byte("[")) {
				l.replies++
			}

		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			switch ev.GetWorkflowExecutionSignaledEventAttributes().GetSignalName() {
			case SectionEventsSignal:
				l.reportSignals++
			case SectionOrdersSignal:
				l.sectionOrders++
			}
		case enumspb.EVENT_TYPE_MARKER_RECORDED:
			if ev.GetMarkerRecordedEventAttributes().GetMarkerName() == localActivityMarker {
				l.locals++
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
			l.continueAsNew = proto.Size(ev.GetWorkflowExecutionContinuedAsNewEventAttributes().GetInput())
			l.continuedAsNewOK = true
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
			a := ev.GetWorkflowTaskFailedEventAttributes()
			if a.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND {
				// A signal came in while the task completed the run (continue-as-new): the server
				// refuses the completion and the next task takes the signal. The events that
				// follow the failure, up to the next task, are those that came in: counted.
				l.unhandled++
				afterUnhandled = true
				l.refused = append(l.refused, "before: "+strings.Join(recent, ", "))
				continue
			}
			l.taskFailed++
			l.failure = fmt.Sprintf("%s: %s", a.GetCause(), a.GetFailure().GetMessage())
		case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
			children++
			starts++
		case enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED:
			starts--
		case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED:
			children--
			starts--
		case enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED,
			enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED,
			enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED:
			children--
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			acts++
			switch ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() {
			case ReportSectionActivity:
				reportsAt[ev.GetEventId()] = ev.GetEventTime().AsTime()
			case ReportTableEventsActivity:
				l.eventActivities++
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
			enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
			acts--
			if at, ok := reportsAt[ev.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()]; ok {
				d := ev.GetEventTime().AsTime().Sub(at)
				l.reports++
				l.reportWait += d
				l.slowestReport = max(l.slowestReport, d)
			}
		case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
			signals++
			if ev.GetSignalExternalWorkflowExecutionInitiatedEventAttributes().GetSignalName() == OrdersSignal {
				l.orderCommands++
			}
		case enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED:
			signals--
		}
		l.children, l.acts, l.signals, l.starts = max(l.children, children), max(l.acts, acts), max(l.signals, signals), max(l.starts, starts)
	}
	return l, nil
}

// comesIn says an event of type t is written for something from outside the run's own task
// (a signal, a timer, an activity's or child's or outgoing signal's outcome): one that came in
// during a task waits in the server's buffer until the task ends.
func comesIn(t enumspb.EventType) bool {
	switch t {
	case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_TIMER_FIRED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
		enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
		enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED, enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT,
		enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED,
		enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED,
		enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCEL_REQUESTED:
		return true
	}
	return false
}

// recordingHost is a TableHost that notes every table it was asked to host: the test reads the
// history of each.
type recordingHost struct {
	TableHost
	mu  sync.Mutex
	ids map[string]bool
}

func (h *recordingHost) CreateTable(ctx context.Context, t HostedTable) error {
	h.mu.Lock()
	h.ids[t.ID] = true
	h.mu.Unlock()
	return h.TableHost.CreateTable(ctx, t)
}

// dealingReporter notes each table whose process has reported a hand, for the test's phases.
type dealingReporter struct {
	report.Reporter
	mu    sync.Mutex
	dealt map[string]bool
}

func (r *dealingReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	if len(results) > 0 {
		r.mu.Lock()
		r.dealt[tableID] = true
		r.mu.Unlock()
	}
	return r.Reporter.Report(ctx, tableID, results)
}

func (r *dealingReporter) tables() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.dealt)
}

// phases notes when each phase of the test was first reached, and logs it then.
type phases struct {
	t     *testing.T
	start time.Time
	names []string
	at    map[string]time.Duration
}

func newPhases(t *testing.T) *phases {
	return &phases{t: t, start: time.Now(), at: map[string]time.Duration{}}
}

// reached notes phase name now, the first time it is reached.
func (p *phases) reached(name string) {
	if _, ok := p.at[name]; ok {
		return
	}
	d := time.Since(p.start).Round(100 * time.Millisecond)
	p.at[name], p.names = d, append(p.names, name)
	p.t.Logf("phase %q at %v", name, d)
}

func (p *phases) String() string {
	var b []byte
	for i, n := range p.names {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = fmt.Appendf(b, "%s %v", n, p.at[n])
	}
	return string(b)
}

// historyReaders is how many histories the test reads at once: reading 11,000 of them one after
// the other waits mostly on the round trips.
const historyReaders = 16

// readAttempts bounds the reads of one run's history. Each request of a read gets at most 10 s
// from the SDK (its maxRPCTimeout, whatever the context's deadline), and a server made slow by
// the machine runs past that: with a second suite beside it (7 December, AMD EPYC family 25
// model 1, 2 vCPUs) seven reads in a row ran out at once, and the test failed on its own
// instrument, not on a run it read. A read that fails is made again, after 1, 2, 4 and 8 s, while
// the test's context lasts; a workflow that is not there (NotFound) is an answer, not a failure.
const readAttempts = 5

// limitsRetried is limitsOf, made again (readAttempts) when it fails; again says how many times.
func limitsRetried(ctx context.Context, c client.Client, id, run string) (l runLimits, again int, err error) {
	delay := time.Second
	for attempt := 1; ; attempt++ {
		l, err = limitsOf(ctx, c, id, run)
		var nf *serviceerror.NotFound
		if err == nil || errors.As(err, &nf) || ctx.Err() != nil || attempt == readAttempts {
			return l, attempt - 1, err
		}
		select {
		case <-ctx.Done():
			return l, attempt - 1, err
		case <-time.After(delay):
		}
		delay *= 2
	}
}

// runsLimits reads the history of every run of each workflow in ids (from the current run back
// through the runs it continued), a few at a time; again counts the reads made again
// (readAttempts).
func runsLimits(ctx context.Context, c client.Client, ids []string) (_ []runLimits, notStarted, again int, _ error) {
	var (
		mu   sync.Mutex
		out  []runLimits
		errs []error
		wg   sync.WaitGroup
		next = make(chan string)
	)
	for range historyReaders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range next {
				for run := ""; ; {
					l, n, err := limitsRetried(ctx, c, id, run)
					mu.Lock()
					again += n
					var nf *serviceerror.NotFound
					if errors.As(err, &nf) && run == "" {
						notStarted++
						mu.Unlock()
						break
					}
					if err != nil {
						errs = append(errs, fmt.Errorf("%s run %q: %w", id, run, err))
					} else {
						out = append(out, l)
					}
					mu.Unlock()
					if err != nil || l.prev == "" {
						break
					}
					run = l.prev
				}
			}
		}()
	}
	for _, id := range ids {
		next <- id
	}
	close(next)
	wg.Wait()
	return out, notStarted, again, errors.Join(errs...)
}

// continuedOfType counts the runs of workflows of type kind that continued as new.
func continuedOfType(ctx context.Context, c client.Client, kind string) (int64, error) {
	return countRuns(ctx, c, fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'ContinuedAsNew'", kind))
}

// countRuns counts the runs that query selects (visibility).
func countRuns(ctx context.Context, c client.Client, query string) (int64, error) {
	resp, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Query: query})
	return resp.GetCount(), err
}

// startedOfType counts the workflows of type kind that have started: their runs less those
// that continued (each continued run has a run after it).
func startedOfType(ctx context.Context, c client.Client, kind string) (int64, error) {
	all, err := countRuns(ctx, c, fmt.Sprintf("WorkflowType = '%s'", kind))
	if err != nil {
		return 0, err
	}
	continued, err := continuedOfType(ctx, c, kind)
	return all - continued, err
}

// TestHundredThousandEntriesWithinTemporalsLimits starts a tournament of 100,000 entries (11,112
// tables of 9, in 112 sections) on a real Temporal server, plays until every table is hosted and
// the tournament, a section and a table have each continued as new (the thresholds lowered for
// it), then reads the server's history of every run and checks it against Temporal's limits:
// every continue-as-new input at most 256 KB, never more than 1,000 pending children,
// activities or signals in a run, no workflow task failed, and no run's continue-as-new (or a
// table's end) refused for what came in during its task (UnhandledCommand): a table continues as
// new by a handshake with its section, a section's and a tournament's tables keep quiet as it
// does, and a section's tournament holds its orders (director's link.go, "A section's quiet").
// What came in during a refused task is logged. It logs where its time goes, phase by phase.
// POKERFLOOR_SECTION_TABLES=12000 runs the same test on one section (the shape before sections),
// which fails it; POKERFLOOR_SCALE_ENTRIES=20000 on a smaller field, to try a change first.
func TestHundredThousandEntriesWithinTemporalsLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and 11,112 tables")
	}
	playWithinLimits(t, limitsRun{
		entries:       envAtLeast(t, "POKERFLOOR_SCALE_ENTRIES", 100000, 2, "entries"),
		sectionTables: envAtLeast(t, "POKERFLOOR_SECTION_TABLES", 0, 1, "tables"),
		sectionRuns:   1, sectionAfter: 400,
	})
}

// TestSectionsContinueAsNewWithTheirTablesQuiet plays 3,000 entries in 11 sections of 32 tables
// that continue as new every 300 events, until the sections have done so 30 times, and checks
// every run's history as TestHundredThousandEntriesWithinTemporalsLimits does: above all, that
// no section's continue-as-new was refused for a table's event that came in during its task
// (its tables keep quiet as it continues as new: director's link.go, "Quiet"; before, about one
// in ten of them was at 100,000 entries).
func TestSectionsContinueAsNewWithTheirTablesQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and 334 tables")
	}
	playWithinLimits(t, limitsRun{entries: 3000, sectionTables: 32, sectionRuns: 30, sectionAfter: 300})
}

// TestSectionsContinueAsNewWhileTheirOrdersHeld plays 1,500 entries in 11 sections of 16 tables
// that continue as new every 200 events, while the director pauses and resumes the clock every
// 50 ms (each a Pause order the tournament signals to every section), until the sections have
// continued as new 40 times, and checks every run's history as
// TestHundredThousandEntriesWithinTemporalsLimits does: above all, that no section's
// continue-as-new was refused for the tournament's orders that came in during its task (its
// tournament holds them while it continues as new: director's link.go, "A section's quiet"),
// and that the orders went on arriving.
func TestSectionsContinueAsNewWhileTheirOrdersHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and 167 tables")
	}
	playWithinLimits(t, limitsRun{entries: 1500, sectionTables: 16, sectionRuns: 40, sectionAfter: 200, clockEvery: 50 * time.Millisecond})
}

// limitsRun is one play of playWithinLimits: the field, its sections' size (0: the default),
// how many times the sections must have continued as new (in all) before the play stops, and
// after how many events they do; clockEvery, if set, is how often the director pauses or resumes
// the clock during the play, so that the tournament's orders to its sections keep coming.
type limitsRun struct {
	entries, sectionTables, sectionRuns, sectionAfter int
	clockEvery                                        time.Duration
}

// playWithinLimits starts a tournament of run.entries on a real Temporal server, plays it until
// every table is hosted and each kind of workflow has continued as new (the sections
// run.sectionRuns times), then reads every run's history and checks it against Temporal's
// limits (TestHundredThousandEntriesWithinTemporalsLimits).
func playWithinLimits(t *testing.T, run limitsRun) {
	entries, sectionTables := run.entries, run.sectionTables
	if addr := os.Getenv("POKERFLOOR_PPROF"); addr != "" {
		// Go's profiles of the whole test process (the server, the workers, the tables) while
		// it plays: POKERFLOOR_PPROF=127.0.0.1:6061.
		go func() { t.Log(http.ListenAndServe(addr, nil)) }()
	}
	phase := newPhases(t)
	srv := newTestServer(t)
	c := srv.GetDefaultClient()
	// The tables report as those of `pokerfloor run` do, all of them hosted in this process: at
	// most LocalReportsAccepting reports wait at once to be taken in. Unbounded, every table's
	// report is a request the frontend holds while the table waits to deal, and it holds at most
	// 1,200 of one API at once for a namespace (frontend.namespaceCount): at 2 minutes 9,823 of
	// the 11,112 tables were in the client's backoff after a refusal, their retries 16 % of the
	// process's CPU, on a machine whose sections' tasks then ran slow (docs/design.md, "The
	// tables' reports and the frontend's long requests").
	dealing := &dealingReporter{Reporter: NewLocalTableReporter(c, LocalReportsAccepting), dealt: map[string]bool{}}
	local := NewLocalTableHost(dealing, BotTables(nil))
	host := &recordingHost{TableHost: local, ids: map[string]bool{}}
	sink := &countingSink{places: map[int]Place{}}
	// More pollers than the default two: 11,112 tables' tasks wait on the round trips otherwise.
	srv.NewWorkerWithOptions(TaskQueue, func(r worker.Registry) { Register(r, host, sink) }, testWorkerOptions(worker.Options{}))
	srv.NewWorkerWithOptions(TableTaskQueue(TaskQueue), func(r worker.Registry) { Register(r, host, sink) },
		testWorkerOptions(worker.Options{WorkflowTaskPollerBehavior: worker.NewPollerBehaviorAutoscaling(worker.PollerBehaviorAutoscalingOptions{
			InitialNumberOfPollers: 8, MinimumNumberOfPollers: 8, MaximumNumberOfPollers: 8,
		})}))
	defer local.Close()
	phase.reached("server up")

	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{Name: "100k", PlayerCount: entries, TableSize: 9, Structure: turbo, Seed: 7, Simulation: true, BuyIn: 100,
		ContinueAsNewAfter: 400, SectionContinueAsNewAfter: run.sectionAfter, TableContinueAsNewAfter: 40, SectionTables: sectionTables}
	tables := floor.TableCount(spec.PlayerCount, spec.TableSize)
	if sectionTables == 0 {
		sectionTables = director.DefaultSectionTables
	}
	sections := 0
	if tables > sectionTables {
		sections = (tables + sectionTables - 1) / sectionTables
	}
	// A deadline that holds on a machine five times slower than this one: it takes 3 to 6 minutes
	// alone or beside one other package (Intel Xeon family 6 model 207, 2 December), and with a
	// second suite beside its own it had 9,700 and 10,800 of the 11,112 tables hosted at 30
	// minutes (load 8-16). The package's timeout (the Makefile's TEST_TIMEOUT) is above it.
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Minute)
	defer cancel()
	start := time.Now()
	tour, err := StartTournament(ctx, c, "100k", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	phase.reached(fmt.Sprintf("%d entries registered (the tournament started)", entries))
	clockActions := 0
	stopClock := func() {}
	if run.clockEvery > 0 {
		// The director pauses and resumes the clock, again and again: each action is a Pause
		// order to every section, so that orders come in while the sections continue as new.
		cctx, ccancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			paused := false
			for cctx.Err() == nil {
				kind := floor.ClockPause
				if paused {
					kind = floor.ClockResume
				}
				if _, err := tour.ClockAction(cctx, ClockRequest{Kind: kind, By: "test", Reason: "orders to the sections"}); err == nil {
					paused = !paused
					clockActions++
				}
				select {
				case <-cctx.Done():
				case <-time.After(run.clockEvery):
				}
			}
		}()
		stopClock = func() { ccancel(); <-done }
	}
	kinds := []string{"TournamentWorkflow", "SectionWorkflow", "TableWorkflow"}
	if sections == 0 {
		kinds = []string{"TournamentWorkflow", "TableWorkflow"}
	}
	for {
		done := true
		var counts []int64
		for _, k := range kinds {
			n, err := continuedOfType(ctx, c, k)
			if err != nil && ctx.Err() != nil {
				t.Fatal(err)
			} else if err != nil {
				t.Logf("visibility, not read this time: %v", err) // a server too busy to answer in time
			}
			counts = append(counts, n)
			done = done && n > 0 && (k != "SectionWorkflow" || n >= int64(run.sectionRuns))
			if n > 0 {
				phase.reached("first continue-as-new of a " + k)
			}
		}
		if sections > 0 {
			if n, err := startedOfType(ctx, c, "SectionWorkflow"); err == nil && n >= int64(sections) {
				phase.reached(fmt.Sprintf("every section's workflow started (%d)", sections))
			}
		}
		started, serr := startedOfType(ctx, c, "TableWorkflow")
		if serr == nil && started >= int64(tables) {
			phase.reached(fmt.Sprintf("every table's workflow started (%d)", tables))
		}
		host.mu.Lock()
		hosted := len(host.ids)
		host.mu.Unlock()
		if hosted > 0 {
			phase.reached("the first table hosted")
		}
		if hosted >= tables {
			phase.reached(fmt.Sprintf("every table hosted (%d)", tables))
		}
		dealt := dealing.tables()
		if dealt > 0 {
			phase.reached("the first hand reported")
		}
		if dealt >= tables {
			phase.reached(fmt.Sprintf("every table has reported a hand (%d)", tables))
		}
		qctx, qcancel := context.WithTimeout(ctx, 5*time.Second)
		p, err := tour.Progress(qctx)
		qcancel()
		d, derr := c.DescribeWorkflowExecution(ctx, tour.ID, "")
		t.Logf("%v: continued as new %v %v; table workflows %d (%v), hosted %d, dealt %d; %d left at %d tables, %d hands (%v); tournament: %d events, %d pending children (%v)",
			time.Since(start).Round(time.Second), kinds, counts, started, serr, hosted, dealt,
			p.PlayersLeft, p.Tables, p.HandsPlayed, err, d.GetWorkflowExecutionInfo().GetHistoryLength(), len(d.GetPendingChildren()), derr)
		if done && hosted >= tables {
			break
		}
		if os.Getenv("POKERFLOOR_DEBUG") != "" {
			if h, err := historyOf(ctx, c, tour.ID); err == nil {
				for _, ev := range h.Events[max(0, len(h.Events)-6):] {
					t.Logf("  %d %s %v", ev.GetEventId(), ev.GetEventType(), ev.GetEventTime().AsTime().Format("15:04:05.000"))
				}
			}
		}
		if failed := taskFailures(ctx, t, c, tour.ID); failed > 0 {
			t.Errorf("the tournament's workflow task failed %d times", failed)
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("not every table hosted and every kind of workflow continued as new: %v (phases: %v)", ctx.Err(), phase)
		case <-time.After(2 * time.Second):
		}
	}
	stopClock()
	if run.clockEvery > 0 {
		t.Logf("%d clock actions (each a Pause order to every section)", clockActions)
	}
	local.Close() // the tables stop dealing: the histories stand still while they are read
	phase.reached("the tables stopped")
	ids := []string{tour.ID}
	// Every table of the draw (section n has tables (n-1)*sectionTables+1 on), and every table the
	// sections opened since (the host was asked for each).
	drawn := map[string]bool{}
	for id := 1; id <= tables; id++ {
		owner := tour.ID
		if sections > 0 {
			owner = director.SectionWorkflowID(tour.ID, (id-1)/sectionTables+1)
		}
		drawn[director.TableWorkflowID(owner, floor.TableID(id))] = true
	}
	for n := 1; n <= sections; n++ {
		ids = append(ids, director.SectionWorkflowID(tour.ID, n))
	}
	host.mu.Lock()
	for id := range host.ids {
		drawn[id] = true
	}
	host.mu.Unlock()
	for id := range drawn {
		ids = append(ids, id)
	}
	slices.Sort(ids[1:])
	runs, notStarted, again, err := runsLimits(ctx, c, ids)
	if err != nil {
		t.Fatal(err)
	}
	phase.reached(fmt.Sprintf("%d runs' histories read (%d reads made again)", len(runs), again))
	var largest, largestCAN runLimits
	unhandled := 0
	unhandledBy := map[string]int{} // receiver kind <- signal name
	var most runLimits
	byKind := map[string]int{}
	canByKind := map[string]int{} // the largest continue-as-new input of each kind, bytes
	bufferedByKind, offStickyByKind := map[string]int{}, map[string]int{}
	bufferedWhat := map[string]map[string]int{} // what came in during each kind's fullest task
	slowestByKind := map[string]time.Duration{}
	timedOut := map[string]int{} // kind: timeout type
	var refused []string
	sectionOrders := 0                // the tournament's order signals the sections' runs took
	updatesByKind := map[string]int{} // the most Updates one run of each kind accepted
	reportSignals := 0
	var orderCommands, eventActivities, locals, replies int
	var reports runLimits // the sections' reports: their count, time in all, the slowest
	for _, l := range runs {
		reports.reports += l.reports
		reports.reportWait += l.reportWait
		reports.slowestReport = max(reports.slowestReport, l.slowestReport)
		byKind[l.kind]++
		updatesByKind[l.kind] = max(updatesByKind[l.kind], l.updates)
		reportSignals += l.reportSignals
		orderCommands, eventActivities, locals = orderCommands+l.orderCommands, eventActivities+l.eventActivities, locals+l.locals
		replies += l.replies
		if l.updates > maxRunUpdates {
			t.Errorf("%s run %s accepted %d Updates (the server takes at most %d in a run)", l.id, l.run, l.updates, maxRunUpdates)
		}
		if l.buffered > bufferedByKind[l.kind] {
			bufferedByKind[l.kind], bufferedWhat[l.kind] = l.buffered, l.bufferedBy
		}
		offStickyByKind[l.kind] += l.offSticky
		slowestByKind[l.kind] = max(slowestByKind[l.kind], l.slowest)
		for k, n := range l.timedOut {
			timedOut[l.kind+": "+k] += n
		}
		canByKind[l.kind] = max(canByKind[l.kind], l.continueAsNew)
		if l.continueAsNew > maxContinueAsNewInput {
			t.Errorf("%s run %s continued as new with an input of %d bytes (at most %d)", l.id, l.run, l.continueAsNew, maxContinueAsNewInput)
		}
		if l.starts > sectionsStarting {
			t.Errorf("%s run %s had %d child workflows' starts under way at once (at most %d: each start's completion comes in during whatever task runs)", l.id, l.run, l.starts, sectionsStarting)
		}
		if l.children > maxPending || l.acts > maxPending || l.signals > maxPending {
			t.Errorf("%s run %s had %d pending children, %d activities, %d signals at once (at most %d each)", l.id, l.run, l.children, l.acts, l.signals, maxPending)
		}
		unhandled += l.unhandled
		for name, n := range l.unhandledBy {
			unhandledBy[l.kind+" <- "+name] += n
		}
		sectionOrders += l.sectionOrders
		if l.unhandled > 0 {
			// Nothing may come in during the task that continues a run as new, or ends a table's:
			// a table continues as new by its handshake with its section (director.ContinueStep)
			// and ends after its Close (director.PaceClosed); a section's or tournament's tables
			// keep quiet as it continues as new (director.PaceQuiet), and a section's tournament
			// holds its orders (director.PaceSectionQuiet). Told after the summary, so that the
			// end of the output (all CI keeps of a long one) has the story.
			end := "continue-as-new"
			if l.completed {
				end = "end"
			}
			var why []string
			if l.kind == "TableWorkflow" {
				why = append(why, "the table's section holds its orders")
			}
			if l.unhandledBy["signal "+TableEventSignal]+l.unhandledBy["signal "+TableEventsSignal] > 0 {
				why = append(why, "its tables keep quiet as it continues as new")
			}
			if l.unhandledBy["signal "+SectionOrdersSignal] > 0 {
				why = append(why, "its tournament holds its orders as it continues as new")
			}
			refused = append(refused, fmt.Sprintf("%s run %s: %d completions of its %s refused for what came in during the task (%v: %v); expected none (%s)",
				l.id, l.run, l.unhandled, end, l.unhandledBy, l.refused, strings.Join(why, "; ")))
		}
		if l.taskFailed > 0 {
			t.Errorf("%s run %s: %d workflow tasks failed (the last: %s)", l.id, l.run, l.taskFailed, l.failure)
		}
		if l.input > largest.input {
			largest = l
		}
		if l.continueAsNew > largestCAN.continueAsNew {
			largestCAN = l
		}
		most.children, most.acts, most.signals = max(most.children, l.children), max(most.acts, l.acts), max(most.signals, l.signals)
	}
	if notStarted > 0 {
		t.Errorf("%d of the workflows the tournament drew or hosted never started", notStarted)
	}
	if reportSignals > 0 {
		t.Errorf("%d sections' reports came to the tournament as signals; expected every one an Update (director.PaceReportUpdate)", reportSignals)
	}
	if orderCommands == 0 || locals > 0 {
		t.Errorf("%d order signals sent to tables as commands, %d local activities: expected every order a command and no local activity (director.PaceCommandSignals)",
			orderCommands, locals)
	}
	if tables := (entries + 8) / 9; replies == 0 && tables > director.BarrierTables {
		// Without barriers (a seeded field of more than BarrierTables tables) a table's credit,
		// its seats and moves are often decided on its own events. At barriers the orders come
		// with the horizon, on news from the whole field, and go as signals.
		t.Errorf("no table's events answered with orders in a field of %d tables; expected the orders that may go to a table at once to go so (director.PaceOrdersInReply)", tables)
	}
	t.Logf("%d runs read (%v), %d workflows not started; the most Updates in one run %v; %d local activities, %d tables' events sent by activities, %d answered with orders, %d order signals",
		len(runs), byKind, notStarted, updatesByKind, locals, eventActivities, replies, orderCommands)
	if reports.reports > 0 {
		t.Logf("%d sections' reports taken by the tournament, each %v on average from its sending to its taking in, at most %v",
			reports.reports, (reports.reportWait / time.Duration(reports.reports)).Round(time.Millisecond), reports.slowestReport.Round(time.Millisecond))
	}
	t.Logf("largest continue-as-new input: %d bytes (%s, %s), by kind %v; largest input: %d bytes (%s); most pending at once: %d children, %d activities, %d signals",
		largestCAN.continueAsNew, largestCAN.kind, largestCAN.id, canByKind, largest.input, largest.id, most.children, most.acts, most.signals)
	t.Logf("by kind: the most events that came in during one task %v (the server fails a task past 100: %v), tasks off the sticky queue %v, the slowest task %v, tasks timed out %v",
		bufferedByKind, bufferedWhat, offStickyByKind, slowestByKind, timedOut)
	// Every refusal fails the test (below); what came in during them is counted, by receiver and
	// signal, for the log.
	t.Logf("%d continue-as-new completions refused for what came in during the task (UnhandledCommand, retried by the next task), by receiver <- what: %v",
		unhandled, unhandledBy)
	t.Logf("%d order signals of the tournament's taken by its sections' runs", sectionOrders)
	if run.clockEvery > 0 && sectionOrders < run.sectionRuns {
		t.Errorf("the sections took %d of the tournament's order signals while they continued as new %d times: expected the clock's orders to keep coming", sectionOrders, run.sectionRuns)
	}
	sink.mu.Lock()
	t.Logf("%d places written out", len(sink.places))
	sink.mu.Unlock()
	t.Logf("phases: %v", phase)
	for _, r := range refused {
		t.Error(r)
	}
}

// envAtLeast reads the number in environment variable name, at least least (of what), or def when
// it is unset.
func envAtLeast(t *testing.T, name string, def, least int, what string) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < least {
		t.Fatalf("%s=%q: expected a number of %s, %d or more", name, v, what, least)
	}
	return n
}

// taskFailures counts the failed workflow tasks of the current run of workflow id (but those
// refused for a signal that came in, which the next task takes: see limitsOf). A server too busy to
// answer in time is no failure of the workflow's: it says so and counts none (the test reads every
// run's history at the end).
func taskFailures(ctx context.Context, t *testing.T, c client.Client, id string) int {
	h, err := historyOf(ctx, c, id)
	if err != nil {
		if ctx.Err() != nil {
			t.Fatal(err)
		}
		t.Logf("%s's history, not read this time: %v", id, err)
		return 0
	}
	n := 0
	for _, ev := range h.Events {
		if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED &&
			ev.GetWorkflowTaskFailedEventAttributes().GetCause() != enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND {
			n++
		}
	}
	return n
}

// localActivityMarker is the name of the marker that records a local activity's result in the
// history (the Go SDK's).
const localActivityMarker = "LocalActivity"
