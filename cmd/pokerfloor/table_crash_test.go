package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// noTables is a TableHost that starts nothing: the test runs the table's process itself.
type noTables struct{}

func (noTables) CreateTable(context.Context, workflows.HostedTable) error  { return nil }
func (noTables) DeleteTable(context.Context, string) error                 { return nil }
func (noTables) ReplaceTable(context.Context, workflows.HostedTable) error { return nil }

// crashTournament stands in for the TournamentWorkflow of the table's events (eliminations): it
// takes them and keeps nothing, so that the table's workflow has someone to tell.
func crashTournament(ctx workflow.Context) error {
	one, batches := workflow.GetSignalChannel(ctx, workflows.TableEventSignal), workflow.GetSignalChannel(ctx, workflows.TableEventsSignal)
	// A table's events come as an Update of its section's (workflows.TableEventsUpdate) from its
	// marker event-updates: taken, with no orders in the answer, as a section takes them (before,
	// the table's activity tried them in vain beside the deal).
	if err := workflow.SetUpdateHandler(ctx, workflows.TableEventsUpdate, func(workflow.Context, []director.TableEvent) ([]director.Order, error) {
		return nil, nil
	}); err != nil {
		return err
	}
	s := workflow.NewSelector(ctx)
	s.AddReceive(one, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, new(director.TableEvent)) })
	s.AddReceive(batches, func(c workflow.ReceiveChannel, _ bool) { c.Receive(ctx, new([]director.TableEvent)) })
	for {
		s.Select(ctx)
	}
}

// tableProcess is one `pokerfloor table` process of the crash test, and what it said on stderr.
type tableProcess struct {
	cmd    *exec.Cmd
	lines  chan string // stderr lines, as they come
	mu     sync.Mutex
	all    []string
	done   chan struct{} // stderr closed
	loaded int64         // the hand the state it loaded was as of
	dealt  []int64       // the hands it dealt, in order
}

var (
	stateLoadedLine = regexp.MustCompile(`msg="state loaded" .*\bhand=(\d+) players=(\d+)`)
	handDealtLine   = regexp.MustCompile(`msg="hand dealt" .*\bhand=(\d+)`)
)

func startTableProcess(t *testing.T, args ...string) *tableProcess {
	t.Helper()
	p := &tableProcess{lines: make(chan string, 4096), done: make(chan struct{}), loaded: -1}
	p.cmd = exec.Command(os.Args[0], args...)
	p.cmd.Env = append(os.Environ(), asMainEnv+"=1")
	p.cmd.Stdout = io.Discard
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			p.mu.Lock()
			p.all = append(p.all, sc.Text())
			p.mu.Unlock()
			select { // all keeps every line; a reader past thousands of lines behind misses some
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	return p
}

// waitFor reads stderr until a line matches re, and returns its submatches; nil when the process
// ended first or the deadline passed.
func (p *tableProcess) waitFor(re *regexp.Regexp, deadline <-chan time.Time) []string {
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				return nil
			}
			if m := re.FindStringSubmatch(l); m != nil {
				return m
			}
		case <-p.done:
			// Lines may still be queued behind the close.
			select {
			case l := <-p.lines:
				if m := re.FindStringSubmatch(l); m != nil {
					return m
				}
				continue
			default:
			}
			return nil
		case <-deadline:
			return nil
		}
	}
}

// kill ends the process with SIGKILL and reads what it wrote: the state it loaded and the hands it
// dealt. It fails the test if the process had ended before the kill.
func (p *tableProcess) kill(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
	err := p.cmd.Wait()
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the table process ended before it was killed (%v):\n%s", err, p.stderr())
	}
	p.parse(t)
}

func (p *tableProcess) parse(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.all {
		if m := stateLoadedLine.FindStringSubmatch(l); m != nil {
			p.loaded, _ = strconv.ParseInt(m[1], 10, 64)
		}
		if m := handDealtLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			p.dealt = append(p.dealt, n)
		}
	}
}

func (p *tableProcess) stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := ""
	for _, l := range p.all[max(0, len(p.all)-30):] {
		out += l + "\n"
	}
	return out
}

// queryTable asks the table's workflow for its state, again while the query times out and ctx
// lasts: a query waits for the worker to answer it, and on a loaded machine (two test suites on
// 2 cores, load 13) the first one timed out, 65 s into TestTableSurvivesKills (7 December).
func queryTable(ctx context.Context, c client.Client, id string) (director.TableState, error) {
	for {
		var st director.TableState
		v, err := c.QueryWorkflow(ctx, id, "", workflows.TableStateQuery)
		if err == nil {
			err = v.Get(&st)
		}
		var timeout *serviceerror.DeadlineExceeded
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) && !errors.As(err, &timeout) {
			return st, err
		}
		time.Sleep(time.Second)
	}
}

// TestTableSurvivesKills runs the real `pokerfloor table` process (this test binary running main)
// against a real Temporal server with the table's real TableWorkflow, kills it with SIGKILL at
// random points 100 times and starts it again each time. Nine in-process bots (--bots all) play:
// they are reborn with the process, so every restart deals at once, and what is tested is the
// table's state across kills rather than the players' reconnects (tableserver's tests cover those).
// The bots take 2 ms a decision, so that a hand lasts long enough for kills to land in the middle
// of it as well as between hands and during reports.
//
// What the processes said (the state each loaded, every hand each dealt, from their logs) and what
// the workflow acknowledged (every accepted report, from its history) must agree: the acknowledged
// hands are numbered 1, 2, 3... with none missing and none twice, none void; each starts from the
// stacks the last one ended with and conserves chips; every process deals from the hand after the
// one it loaded, each hand one more than the last; a hand a killed process dealt that the workflow
// had not acknowledged is dealt again by the next process under the same number (it is void, D4,
// and counts nowhere); the final stacks add up to the chips of the entries seated: the nine at the
// start, and the players the test seats again between two processes when busts leave fewer than
// five (a table of one deals nothing).
//
// Nothing depends on the machine's speed: each kill waits for what the process says (its state
// loaded, a hand dealt) and then a random delay, whose length only moves where the kill lands.
func TestTableSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and 101 table processes")
	}
	const (
		kills   = 100
		players = 9
		stack   = 1_000_000 // 10,000 big blinds: the bots bust one another rarely, and the table lasts
		tableID = "crash/table-001"
	)
	srv := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(client.Options{Logger: sdkLogger(nil)}))
	c := srv.GetDefaultClient()
	// temporaltest fails a workflow whose task the deadlock detector stops (FailWorkflow), and the
	// detector counts wall time (the SDK's default: 1 s): five minutes, so that a loaded machine's stall
	// is not taken for a hang.
	srv.NewWorkerWithOptions(workflows.TaskQueue, func(r worker.Registry) {
		workflows.Register(r, noTables{})
		r.RegisterWorkflowWithOptions(crashTournament, workflow.RegisterOptions{Name: "crashTournament"})
	}, workflows.WorkerOptions(worker.Options{DeadlockDetectionTimeout: 5 * time.Minute}))
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if _, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "crash", TaskQueue: workflows.TaskQueue}, "crashTournament"); err != nil {
		t.Fatal(err)
	}
	start := workflows.TableState{Tournament: "crash", ID: tableID, Number: 1, Config: engine.Config{Seats: players},
		Positions: engine.Positions{Button: 0, SmallBlind: -1, BigBlind: -1}, DrawnBigBlind: 3,
		Level: engine.Level{SmallBlind: 50, BigBlind: 100}, LevelNumber: 1, ReportedLevel: 1, Batch: 1, MaxWait: time.Second}
	for i := range players {
		start.Seats = append(start.Seats, director.TableSeat{Seat: i, Player: fmt.Sprintf("p%d", i+1), Stack: stack})
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: tableID, TaskQueue: workflows.TaskQueue}, workflows.TableWorkflow, start)
	if err != nil {
		t.Fatal(err)
	}

	keyFile := filepath.Join(t.TempDir(), "key")
	if err := os.WriteFile(keyFile, []byte("crash-test-signing-key-0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"table", "--table", tableID, "--temporal-address", srv.GetFrontendHostPort(),
		"--namespace", srv.GetDefaultNamespace(), "--key-file", keyFile, "--listen", "127.0.0.1:0",
		"--bots", "all", "--bot-think", "2ms", "--log-level", "debug"}
	// A step's deadline is minutes where it takes milliseconds: it only turns a hang into a failure.
	const stepDeadline = 2 * time.Minute
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	var procs []*tableProcess
	entries, seq := players, 0
	// The bots bust one another now and then (5 of 9 in 60 hands in one run); a table of one
	// deals nothing. Between two processes, when nobody deals, players who busted re-enter with a
	// new stack (a SeatOrder, as the tournament sends), keeping at least five at the table.
	reentered := map[string]int64{} // the re-entries not yet seen in a hand, with their stacks
	reenter := func() {
		st, err := queryTable(ctx, c, tableID)
		if err != nil {
			t.Fatal(err)
		}
		for n := len(st.Seats); n < 5; n++ {
			seq++
			entries++
			name := fmt.Sprintf("p%d", entries)
			o := director.Order{Seq: seq, Seat: &director.SeatOrder{Player: name, Stack: stack, NewEntry: true}}
			if err := c.SignalWorkflow(ctx, tableID, "", workflows.OrdersSignal, []director.Order{o}); err != nil {
				t.Fatal(err)
			}
			reentered[name] = stack
		}
	}
	for k := 0; k <= kills; k++ {
		reenter()
		p := startTableProcess(t, args...)
		procs = append(procs, p)
		m := p.waitFor(stateLoadedLine, time.After(stepDeadline))
		if m == nil {
			_ = p.cmd.Process.Kill()
			t.Fatalf("process %d loaded no state:\n%s", k+1, p.stderr())
		}
		if n, _ := strconv.Atoi(m[2]); n < 2 {
			t.Fatalf("after %d kills the table has %d players: it cannot deal any more", k, n)
		}
		if k == kills {
			break // the last process plays on to the end below
		}
		// Where the kill lands: one in ten during or right after the first report, the others
		// after the first deal, from its first action to a hand or two later.
		if rng.IntN(10) == 0 {
			time.Sleep(time.Duration(rng.IntN(5000)) * time.Microsecond)
		} else {
			if p.waitFor(handDealtLine, time.After(stepDeadline)) == nil {
				_ = p.cmd.Process.Kill()
				t.Fatalf("process %d dealt no hand:\n%s", k+1, p.stderr())
			}
			time.Sleep(time.Duration(rng.IntN(80_000)) * time.Microsecond)
		}
		p.kill(t)
	}
	// The last process deals a few hands and is stopped in order (SIGTERM: the hand in progress
	// finishes and is reported), so that the end is a state the workflow acknowledged.
	last := procs[len(procs)-1]
	for range 3 {
		if last.waitFor(handDealtLine, time.After(stepDeadline)) == nil {
			t.Fatalf("the last process stopped dealing:\n%s", last.stderr())
		}
	}
	_ = last.cmd.Process.Signal(syscall.SIGTERM)
	<-last.done
	if err := last.cmd.Wait(); err != nil {
		t.Fatalf("the last process, stopped by SIGTERM: %v\n%s", err, last.stderr())
	}
	last.parse(t)

	// What the processes said.
	interrupted := 0
	for i, p := range procs {
		if p.loaded < 0 {
			t.Fatalf("process %d: no state loaded", i+1)
		}
		for j, n := range p.dealt {
			if n != p.loaded+1+int64(j) {
				t.Fatalf("process %d loaded the state as of hand %d and dealt hands %v: not each the one after the last", i+1, p.loaded, p.dealt)
			}
		}
		if i == len(procs)-1 {
			break
		}
		next := procs[i+1].loaded
		top := p.loaded
		if len(p.dealt) > 0 {
			top = p.dealt[len(p.dealt)-1]
		}
		switch {
		case next < p.loaded || next > top:
			t.Fatalf("process %d loaded hand %d and dealt up to %d; the next one loaded hand %d", i+1, p.loaded, top, next)
		case next == top-1 && next >= p.loaded:
			// The last hand it dealt was interrupted (or finished and not acknowledged): the next
			// process deals it again under the same number.
			interrupted++
			if d := procs[i+1].dealt; len(d) > 0 && d[0] != top {
				t.Fatalf("hand %d was interrupted by kill %d; the next process dealt %d first", top, i+1, d[0])
			}
		}
	}

	// What the workflow acknowledged: every accepted report in its history, in order.
	acked := acceptedResults(ctx, t, c, tableID, run.GetRunID())
	stacks := map[string]int64{}
	for _, s := range start.Seats {
		stacks[s.Player] = s.Stack
	}
	var hand int64
	for _, r := range acked {
		for _, s := range r.Start {
			if st, ok := reentered[s.Player]; ok {
				stacks[s.Player] = st // seated since the last hand
				delete(reentered, s.Player)
			}
		}
		if r.HandNumber <= hand {
			t.Fatalf("hand %d acknowledged again after hand %d", r.HandNumber, hand)
		}
		if r.HandNumber != hand+1 {
			t.Fatalf("hand %d acknowledged after hand %d: hand numbers not contiguous", r.HandNumber, hand)
		}
		if r.Voided {
			t.Fatalf("hand %d acknowledged as void: only interrupted hands are void, and they are never reported", r.HandNumber)
		}
		var in, out int64
		for _, s := range r.Start {
			if stacks[s.Player] != s.Stack {
				t.Fatalf("hand %d: %s started with %d, the last hand left him %d", r.HandNumber, s.Player, s.Stack, stacks[s.Player])
			}
			in += s.Stack
		}
		if len(r.Start) != len(stacks) {
			t.Fatalf("hand %d started with %d players, %d are seated", r.HandNumber, len(r.Start), len(stacks))
		}
		for _, s := range r.End {
			out += s.Stack
			stacks[s.Player] = s.Stack
			if s.Stack == 0 {
				delete(stacks, s.Player)
			}
		}
		if in != out {
			t.Fatalf("hand %d: %d chips at the start, %d at the end", r.HandNumber, in, out)
		}
		hand = r.HandNumber
	}
	if top := last.dealt[len(last.dealt)-1]; hand != top {
		t.Fatalf("the workflow acknowledged hands up to %d; the last process, stopped in order, dealt up to %d", hand, top)
	}
	final, err := queryTable(ctx, c, tableID)
	if err != nil {
		t.Fatal(err)
	}
	for p, st := range reentered { // seated after the last hand
		stacks[p] = st
	}
	var sum int64
	for _, s := range final.Seats {
		sum += s.Stack
		if stacks[s.Player] != s.Stack {
			t.Errorf("%s holds %d at the end; the acknowledged hands left him %d", s.Player, s.Stack, stacks[s.Player])
		}
	}
	if len(final.Seats) != len(stacks) || final.HandNumber != hand {
		t.Errorf("the table ends with %d players at hand %d; the acknowledged hands leave %d at hand %d", len(final.Seats), final.HandNumber, len(stacks), hand)
	}
	if sum != int64(entries)*stack {
		t.Errorf("the stacks add up to %d at the end; %d entries of %d chips were seated", sum, entries, stack)
	}
	if interrupted == 0 {
		t.Errorf("none of %d kills interrupted a hand: the kills landed only between hands", kills)
	}
	t.Logf("%d kills: %d hands acknowledged, %d interrupted hands dealt again under the same number, %d entries (%d re-entries), %d players left, %d chips",
		kills, hand, interrupted, entries, entries-players, len(final.Seats), sum)
}

// acceptedResults returns the results of every report the table's workflow accepted, in the order
// it accepted them, following its runs across continue-as-new.
func acceptedResults(ctx context.Context, t *testing.T, c client.Client, id, runID string) []report.HandResult {
	t.Helper()
	var out []report.HandResult
	dc := converter.GetDefaultDataConverter()
	for runID != "" {
		it := c.GetWorkflowHistory(ctx, id, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		next := ""
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if a := ev.GetWorkflowExecutionUpdateAcceptedEventAttributes(); a != nil {
				in := a.GetAcceptedRequest().GetInput()
				if in.GetName() != workflows.ReportUpdate {
					continue
				}
				var req director.ReportRequest
				if err := dc.FromPayloads(in.GetArgs(), &req); err != nil {
					t.Fatal(err)
				}
				out = append(out, req.Results...)
			}
			if a := ev.GetWorkflowExecutionContinuedAsNewEventAttributes(); a != nil {
				next = a.GetNewExecutionRunId()
			}
		}
		runID = next
	}
	if !slices.IsSortedFunc(out, func(a, b report.HandResult) int { return int(a.HandNumber - b.HandNumber) }) {
		t.Log("results accepted out of hand order")
	}
	return out
}
