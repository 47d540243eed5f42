package workflows

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"errors"
	"slices"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/server/temporaltest"
	"google.golang.org/protobuf/proto"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// The walls the design keeps clear of (ARCHITECTURE.md, Scale): Temporal refuses a payload over
// 2 MB and fails a task past 2,000 pending children, activities or signals; the design keeps to
// an eighth and a half of them.
const (
	maxContinueAsNewInput = 256 << 10
	maxPending            = 1000
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
	taskFailed       int
	unhandled        int            // tasks refused because a message came in as the run continued as new
	unhandledBy      map[string]int // what came in during those tasks: signals by name (their sender's kind), other events by type
	failure          string         // the last task failure's cause
	continuedAsNewOK bool
}

// limitsOf reads one run's history from the server and computes its high-water marks: pending
// child workflows (initiated, not yet closed), activities (scheduled, not yet closed) and signals
// to other workflows (initiated, not yet delivered or failed).
func limitsOf(ctx context.Context, c client.Client, id, run string) (runLimits, error) {
	l := runLimits{id: id, run: run, unhandledBy: map[string]int{}}
	var children, acts, signals int
	afterUnhandled := false // the events after a task refused for UnhandledCommand: what came in
	it := c.GetWorkflowHistory(ctx, id, run, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return l, err
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
				continue
			}
			l.taskFailed++
			l.failure = fmt.Sprintf("%s: %s", a.GetCause(), a.GetFailure().GetMessage())
		case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
			children++
		case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_COMPLETED,
			enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_FAILED, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED,
			enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TIMED_OUT, enumspb.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_TERMINATED:
			children--
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			acts++
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
			enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
			acts--
		case enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
			signals++
		case enumspb.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, enumspb.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED:
			signals--
		}
		l.children, l.acts, l.signals = max(l.children, children), max(l.acts, acts), max(l.signals, signals)
	}
	return l, nil
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

// runsLimits reads the history of every run of each workflow in ids (from the current run back
// through the runs it continued), a few at a time.
func runsLimits(ctx context.Context, c client.Client, ids []string) (_ []runLimits, notStarted int, _ error) {
	var (
		mu   sync.Mutex
		out  []runLimits
		errs []error
		wg   sync.WaitGroup
		next = make(chan string)
	)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range next {
				for run := ""; ; {
					l, err := limitsOf(ctx, c, id, run)
					mu.Lock()
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
	return out, notStarted, errors.Join(errs...)
}

// continuedOfType counts the runs of workflows of type kind that continued as new.
func continuedOfType(ctx context.Context, c client.Client, kind string) (int64, error) {
	resp, err := c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{
		Query: fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'ContinuedAsNew'", kind),
	})
	return resp.GetCount(), err
}

// TestHundredThousandEntriesWithinTemporalsLimits starts a tournament of 100,000 entries (11,112
// tables of 9, in 112 sections) on a real Temporal server, plays until the tournament, a section
// and a table have each continued as new (the thresholds lowered for it), then reads the server's
// history of every run and checks it against Temporal's limits: every continue-as-new input at
// most 256 KB, never more than 1,000 pending children, activities or signals in a run, no
// workflow task failed but the continue-as-new completions refused for what came in during their
// task (UnhandledCommand), which it counts by what came in. It logs where its time goes (every
// table hosted, each kind's first continue-as-new, the histories read).
// POKERFLOOR_SECTION_TABLES=12000 runs the same test on one section (the shape before sections),
// which fails it; POKERFLOOR_SCALE_ENTRIES=20000 on a smaller field, to try a change first.
func TestHundredThousandEntriesWithinTemporalsLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and 11,112 tables")
	}
	sectionTables := envAtLeast(t, "POKERFLOOR_SECTION_TABLES", 0, 1, "tables")
	entries := envAtLeast(t, "POKERFLOOR_SCALE_ENTRIES", 100000, 2, "entries")
	srv := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: quietSDKLogger()}))
	c := srv.GetDefaultClient()
	local := NewLocalTableHost(NewTableReporter(c), BotTables(nil))
	host := &recordingHost{TableHost: local, ids: map[string]bool{}}
	sink := &countingSink{places: map[int]Place{}}
	// More pollers than the default two: 11,112 tables' tasks wait on the round trips otherwise.
	srv.NewWorkerWithOptions(TaskQueue, func(r worker.Registry) { Register(r, host, sink) }, WorkerOptions(worker.Options{}))
	srv.NewWorkerWithOptions(TableTaskQueue(TaskQueue), func(r worker.Registry) { Register(r, host, sink) },
		WorkerOptions(worker.Options{MaxConcurrentWorkflowTaskPollers: 8}))
	defer local.Close()

	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{Name: "100k", PlayerCount: entries, TableSize: 9, Structure: turbo, Seed: 7, Simulation: true, BuyIn: 100,
		ContinueAsNewAfter: 400, SectionContinueAsNewAfter: 400, TableContinueAsNewAfter: 40, SectionTables: sectionTables}
	// A deadline that holds on a machine five times slower than this one (it takes about ? here).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	start := time.Now()
	tour, err := StartTournament(ctx, c, "100k", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	kinds := []string{"TournamentWorkflow", "SectionWorkflow", "TableWorkflow"}
	if sectionTables >= 11112 {
		kinds = []string{"TournamentWorkflow", "TableWorkflow"}
	}
	// Where the time goes: when every table was hosted, and when each kind first continued as new.
	var hostedAt time.Duration
	canAt := map[string]time.Duration{}
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
			done = done && n > 0
			if _, seen := canAt[k]; n > 0 && !seen {
				canAt[k] = time.Since(start).Round(time.Second)
			}
		}
		qctx, qcancel := context.WithTimeout(ctx, 5*time.Second)
		p, err := tour.Progress(qctx)
		qcancel()
		d, derr := c.DescribeWorkflowExecution(ctx, tour.ID, "")
		t.Logf("%v: continued as new %v %v; %d left at %d tables, %d hands (%v); tournament: %d events, %d pending children (%v)", time.Since(start).Round(time.Second), kinds, counts,
			p.PlayersLeft, p.Tables, p.HandsPlayed, err, d.GetWorkflowExecutionInfo().GetHistoryLength(), len(d.GetPendingChildren()), derr)
		host.mu.Lock()
		hosted := len(host.ids)
		host.mu.Unlock()
		t.Logf("  %d tables hosted", hosted)
		if hostedAt == 0 && hosted >= floor.TableCount(spec.PlayerCount, spec.TableSize) {
			hostedAt = time.Since(start).Round(time.Second)
		}
		if done && hosted >= floor.TableCount(spec.PlayerCount, spec.TableSize) {
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
			t.Fatalf("not every kind of workflow continued as new: %v", ctx.Err())
		case <-time.After(5 * time.Second):
		}
	}
	local.Close() // the tables stop dealing: the histories stand still while they are read
	t.Logf("every table hosted at %v; first continue-as-new of each kind at %v; histories read from %v", hostedAt, canAt, time.Since(start).Round(time.Second))
	ids := []string{tour.ID}
	if sectionTables == 0 {
		sectionTables = director.DefaultSectionTables
	}
	// Every table of the draw (section n has tables (n-1)*sectionTables+1 on), and every table the
	// sections opened since (the host was asked for each).
	tables := floor.TableCount(spec.PlayerCount, spec.TableSize)
	drawn := map[string]bool{}
	for id := 1; id <= tables; id++ {
		owner := tour.ID
		if tables > sectionTables {
			owner = director.SectionWorkflowID(tour.ID, (id-1)/sectionTables+1)
		}
		drawn[director.TableWorkflowID(owner, floor.TableID(id))] = true
	}
	if tables > sectionTables {
		for n := 1; (n-1)*sectionTables < tables; n++ {
			ids = append(ids, director.SectionWorkflowID(tour.ID, n))
		}
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
	runs, notStarted, err := runsLimits(ctx, c, ids)
	if err != nil {
		t.Fatal(err)
	}
	var largest, largestCAN runLimits
	unhandled := 0
	unhandledBy := map[string]int{} // receiver kind <- signal name
	var most runLimits
	byKind := map[string]int{}
	canByKind := map[string]int{} // the largest continue-as-new input of each kind, bytes
	for _, l := range runs {
		byKind[l.kind]++
		canByKind[l.kind] = max(canByKind[l.kind], l.continueAsNew)
		if l.continueAsNew > maxContinueAsNewInput {
			t.Errorf("%s run %s continued as new with an input of %d bytes (at most %d)", l.id, l.run, l.continueAsNew, maxContinueAsNewInput)
		}
		if l.children > maxPending || l.acts > maxPending || l.signals > maxPending {
			t.Errorf("%s run %s had %d pending children, %d activities, %d signals at once (at most %d each)", l.id, l.run, l.children, l.acts, l.signals, maxPending)
		}
		unhandled += l.unhandled
		for name, n := range l.unhandledBy {
			unhandledBy[l.kind+" <- "+name] += n
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
	t.Logf("%d runs read (%v), %d workflows not started, in %v", len(runs), byKind, notStarted, time.Since(start).Round(time.Second))
	t.Logf("largest continue-as-new input: %d bytes (%s, %s), by kind %v; largest input: %d bytes (%s); most pending at once: %d children, %d activities, %d signals",
		largestCAN.continueAsNew, largestCAN.kind, largestCAN.id, canByKind, largest.input, largest.id, most.children, most.acts, most.signals)
	// Not yet a failure: while the workflows message each other by signals, a signal that comes in
	// during the task that continues a run as new has the server refuse it (the next task takes
	// it). What came in is logged, by receiver and signal, to find the senders.
	t.Logf("%d continue-as-new completions refused for what came in during the task (UnhandledCommand, retried by the next task), by receiver <- what: %v",
		unhandled, unhandledBy)
	sink.mu.Lock()
	t.Logf("%d places written out", len(sink.places))
	sink.mu.Unlock()
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
