package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestTournamentLarge plays a field of 1,000 (POKERFLOOR_PLAYERS for another size) at full speed on
// a real server, to the end: chips conserved at every hand, no error at any table. With
// POKERFLOOR_TRACE=file every table event the tournament takes is written to file, a JSON line each.
func TestTournamentLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and 112 tables")
	}
	players := 1000
	if v := os.Getenv("POKERFLOOR_PLAYERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 {
			t.Fatalf("POKERFLOOR_PLAYERS=%q: expected a number of players, 2 or more", v)
		}
		players = n
	}
	if path := os.Getenv("POKERFLOOR_TRACE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		var mu sync.Mutex
		traceEvents = func(ev director.TableEvent) {
			mu.Lock()
			defer mu.Unlock()
			b, _ := json.Marshal(ev)
			_, _ = f.Write(append(b, '\n'))
		}
		defer func() { traceEvents = nil }()
	}
	c, host, check := startServer(t, nil)
	st, err := floor.BuiltinStructure(floor.StructureStandard)
	if err != nil {
		t.Fatal(err)
	}
	spec := TournamentSpec{Name: "large", PlayerCount: players, TableSize: 9, Structure: st, Seed: 1, Simulation: true, BuyIn: 10000}
	// A deadline for a machine far slower than this one (it takes about a minute here when the
	// machine is quiet; 8 minutes was too short at a load of 20): only a stall reaches it.
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	start := time.Now()
	tour, err := StartTournament(ctx, c, "large", "", spec)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	stalled := make(chan string, 1)
	go func() {
		hands, since := int64(-1), time.Now()
		for {
			select {
			case <-done:
				return
			case <-time.After(3 * time.Second):
			}
			// A query that failed (-1) says nothing: a stalled tournament's may fail or not.
			if n := logProgress(ctx, t, tour, spec.Sectioned(), start); n > hands {
				hands, since = n, time.Now()
			} else if time.Since(since) > stallAfter {
				stalled <- fmt.Sprintf("no hand played for %v (%d played)", stallAfter, hands)
				cancel()
				return
			}
		}
	}()
	res, err := tour.Result(ctx)
	close(done)
	if err != nil {
		select {
		case why := <-stalled:
			t.Errorf("stalled: %s", why)
			dumpGoroutines(t)
		default:
			t.Error(err)
		}
		dumpFailures(t, c, tour.ID)
		ids := dumpState(t, tour)
		keepHistories(t, c, append([]string{tour.ID}, ids...)...)
		t.FailNow()
	}
	runs, events := runsOf(ctx, t, c, tour.ID)
	t.Logf("%d players: %d hands at %d tables in %v; winner %s; %d hand-for-hand rounds; the tournament ran %d times, %d events",
		players, res.HandsPlayed, res.Tables, time.Since(start).Round(time.Millisecond), res.Places[0].Player, res.HandForHandRounds, runs, events)
	if len(res.ChipErrors) > 0 || len(check.errs) > 0 || host.Err() != nil {
		t.Errorf("errors: %v %v %v", res.ChipErrors, check.errs, host.Err())
	}
	kept := players
	if spec.Sectioned() {
		kept = min(players, director.KeepPlaces) // the rest are written out as they are given
	}
	checkBestPlaces(t, res, players, kept, int64(players)*spec.BuyIn)
}

// stallAfter is how long TestTournamentLarge waits for a hand before it calls the tournament
// stalled: a table plays a hand in milliseconds, and 1,000 players at a load of 20 played on.
const stallAfter = 5 * time.Minute

// logProgress logs where tour stands (its sections too when sectioned: StateQuery answers a
// TopState then) and returns the hands it has played, -1 when its state cannot be read.
func logProgress(ctx context.Context, t *testing.T, tour *Tournament, sectioned bool, start time.Time) int64 {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	since := time.Since(start).Round(time.Second)
	if sectioned {
		var top director.TopState
		if err := tour.query(ctx, StateQuery, &top); err != nil {
			return -1
		}
		t.Logf("%v: %d left, %d tables, level %d, %d hands, settled %v, in transit %d, h4h %+v", since, top.Left, top.Tables(), top.Period+1, top.HandsPlayed(), top.Settled(), len(top.InTransit), top.HandForHand)
		for _, r := range top.Sections {
			if r.Phase != director.SectionClosed {
				t.Logf("  section %d %s: %d players %d tables settled %v acked %d/%d round %d hands %d", r.Number, r.Phase, r.Last.Players, r.Last.Tables, r.Last.Settled, r.Orders.Acked, r.Orders.Sent, r.Last.RoundDone, r.Last.MedianHands)
			}
		}
		return top.HandsPlayed()
	}
	var s director.TournamentState
	if err := tour.query(ctx, StateQuery, &s); err != nil {
		return -1
	}
	t.Logf("%v: %d left, %d tables, level %d, %d hands, moves pending %v, h4h on %v round %d", since, s.Left(), s.OpenTables(), s.Period+1, s.HandsPlayed(), s.MovesPending(), s.HandForHand.On, s.HandForHand.Round)
	return s.HandsPlayed()
}

// dumpGoroutines writes every goroutine's stack to a file (in POKERFLOOR_KEEP_HISTORIES when set)
// and logs its path: where the tables' processes wait when a tournament stalls.
func dumpGoroutines(t *testing.T) {
	dir := os.Getenv("POKERFLOOR_KEEP_HISTORIES")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, fmt.Sprintf("goroutines-%s.txt", time.Now().UTC().Format("150405")))
	f, err := os.Create(path)
	if err != nil {
		t.Log(err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("goroutine").WriteTo(f, 2); err != nil {
		t.Log(err)
		return
	}
	t.Logf("goroutines written to %s", path)
}

// dumpState logs what holds a stalled tournament up, and returns the workflow IDs of its open
// tables.
func dumpState(t *testing.T, tour *Tournament) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var s director.TournamentState
	if err := tour.query(ctx, StateQuery, &s); err != nil {
		t.Logf("state: %v", err)
		return nil
	}
	t.Logf("left %d, movesPending %v, h4h %+v, outbox %d", s.Left(), s.MovesPending(), s.HandForHand, len(s.Outbox))
	var ids []string
	for _, tr := range s.Tables {
		if tr.Closed {
			continue
		}
		ids = append(ids, tr.WorkflowID)
		dumpTable(t, tour.client, tr)
		t.Logf("table %d: seats %v sent %d acked %d arriving %+v held %v breaking %v closing %v round %d hand %d early %d started %v",
			tr.ID, tr.Seats, tr.Sent, tr.Acked, tr.Arriving, tr.Held, tr.Breaking, tr.Closing, tr.RoundDone, tr.Hand, len(tr.Early), tr.Started)
	}
	for _, p := range s.Players {
		if p.Status == director.Moving || p.Leaving || p.Status == director.Waiting {
			t.Logf("player %+v", p)
		}
	}
	return ids
}

// dumpTable logs the table workflow's own view of tr, with its own deadline: a table that does not
// answer does not silence the rest.
func dumpTable(t *testing.T, c client.Client, tr director.TableRecord) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ts, err := queryTableState(ctx, c, tr.WorkflowID)
	if err != nil {
		t.Logf("table %d: %v", tr.ID, err)
		return
	}
	var seqs []int
	for _, o := range ts.Pending {
		seqs = append(seqs, o.Seq)
	}
	if ts.Acked < tr.Sent {
		t.Logf("table %d signalled orders: %v", tr.ID, signalledSeqs(ctx, c, tr.WorkflowID))
		dumpFailures(t, c, tr.WorkflowID)
	}
	t.Logf("table %d workflow: acked %d pending %v event seq %d hand %d closing %v paused %v held %v break %v h4h %d/%d",
		tr.ID, ts.Acked, seqs, ts.EventSeq, ts.HandNumber, ts.Closing, ts.Paused, ts.Held, ts.OnBreak, ts.RoundPlayed, ts.HandForHand)
}

// signalledSeqs lists, run by run (the latest first), the Seq of every order signalled to a
// workflow and, for a run that continued as new, the Acked and pending Seqs it handed on.
func signalledSeqs(ctx context.Context, c client.Client, id string) []string {
	var out []string
	run := ""
	for k := 0; k < 20; k++ {
		it := c.GetWorkflowHistory(ctx, id, run, false, 0)
		var seqs []int
		var tail []string
		prev, end := "", ""
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				break
			}
			desc := ev.GetEventType().String()
			if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a != nil && a.GetSignalName() == OrdersSignal {
				var orders []director.Order
				_ = converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &orders)
				for _, o := range orders {
					desc += fmt.Sprintf(":%d", o.Seq)
				}
			}
			tail = append(tail, desc)
			if len(tail) > 25 {
				tail = tail[1:]
			}
			if a := ev.GetWorkflowExecutionStartedEventAttributes(); a != nil {
				prev = a.GetContinuedExecutionRunId()
			}
			if a := ev.GetWorkflowExecutionSignaledEventAttributes(); a != nil && a.GetSignalName() == OrdersSignal {
				var orders []director.Order
				if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &orders); err == nil {
					for _, o := range orders {
						seqs = append(seqs, o.Seq)
					}
				}
			}
			if a := ev.GetWorkflowExecutionContinuedAsNewEventAttributes(); a != nil {
				var st director.TableState
				if err := converter.GetDefaultDataConverter().FromPayloads(a.GetInput(), &st); err == nil {
					var p []int
					for _, o := range st.Pending {
						p = append(p, o.Seq)
					}
					end = fmt.Sprintf(" -> continued with acked %d pending %v", st.Acked, p)
				}
			}
		}
		out = append(out, fmt.Sprintf("run %d: signals %v%s", k, seqs, end))
		if end != "" {
			out = append(out, fmt.Sprintf("  tail %v", tail))
		}
		if prev == "" {
			break
		}
		run = prev
	}
	return out
}
