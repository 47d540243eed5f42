package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/localtemporal"
	"github.com/pokerfloor/pokerfloor/engine/table"
	"github.com/pokerfloor/pokerfloor/workflows"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
)

// The local run's money, in cents: a $110 entry of which $10 is the fee, so the pool is $100 an entry.
const (
	localBuyIn = 11000
	localFee   = 1000
)

// startTournament is the local runtime `pokerfloor run` uses; the tests replace it to see the
// settings without starting anything.
var startTournament startTournamentFunc = startLocalTournament

// startLocalTournament starts the embedded Temporal server on s.DataDir, the in-process tables, a
// worker with the tournament workflows and activities, and the tournament itself.
func startLocalTournament(ctx context.Context, s runSettings, logs io.Writer) (tournament, func(), error) {
	srv, err := localtemporal.Start(localtemporal.Options{DataDir: s.DataDir, Log: logs})
	if err != nil {
		return nil, nil, fmt.Errorf("embedded temporal server: %w", err)
	}
	if logs != nil {
		fmt.Fprintf(logs, "temporal frontend at %s, namespace %s, database %s\n", srv.HostPort(), srv.Namespace(), srv.DatabasePath())
	}
	c, err := srv.Dial(client.Options{Logger: sdkLogger(logs)})
	if err != nil {
		_ = srv.Stop()
		return nil, nil, fmt.Errorf("connect to the embedded temporal server: %w", err)
	}
	var tableLog *slog.Logger
	if logs != nil {
		tableLog = slog.New(slog.NewTextHandler(logs, nil))
	}
	var controller table.Controller = workflows.NewTableController(c)
	if !s.MaxSpeed {
		controller = newPacedController(controller, workflows.DefaultHandTime/time.Duration(max(s.Structure.Speed, 1)))
	}
	host := workflows.NewLocalTableHost(controller, workflows.BotTables(tableLog))
	w := worker.New(c, workflows.TaskQueue, worker.Options{})
	workflows.Register(w, host)
	stop := func() {
		host.Close() // tables first: they report through the worker's workflows
		w.Stop()
		c.Close()
		_ = srv.Stop()
	}
	if err := abandonEarlierRuns(ctx, c); err != nil {
		stop()
		return nil, nil, err
	}
	if err := w.Start(); err != nil {
		stop()
		return nil, nil, fmt.Errorf("start the worker: %w", err)
	}
	spec := workflows.TournamentSpec{
		Name:        "pokerfloor run",
		PlayerCount: s.Players,
		TableSize:   s.TableSize,
		Structure:   s.Structure,
		Seed:        s.Seed,
		Simulation:  s.MaxSpeed,
		BuyIn:       localBuyIn,
		Fee:         localFee,
	}
	id := "run-" + time.Now().UTC().Format("20060102-150405.000")
	t, err := workflows.StartTournament(ctx, c, id, workflows.TaskQueue, spec)
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("start the tournament: %w", err)
	}
	return &localTournament{t: t, c: c, host: host}, stop, nil
}

// abandonEarlierRuns terminates whatever an earlier run left running in the database (it was
// interrupted, or killed): its tables are gone with its process, and its workflows would otherwise
// wake up in this run's worker. A killed 1,000-player run leaves over a hundred table workflows, so
// they are terminated a few at a time.
func abandonEarlierRuns(ctx context.Context, c client.Client) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		errs  []error
		slots = make(chan struct{}, 8)
	)
	terminate := func(id, runID string) {
		defer wg.Done()
		defer func() { <-slots }()
		err := c.TerminateWorkflow(ctx, id, runID, "abandoned: the pokerfloor run that started it has ended")
		if err != nil && !isNotFound(err) {
			mu.Lock()
			errs = append(errs, fmt.Errorf("terminate %s, left by an earlier run: %w", id, err))
			mu.Unlock()
		}
	}
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: "ExecutionStatus = 'Running'", NextPageToken: token,
		})
		if err != nil {
			wg.Wait()
			return fmt.Errorf("list the workflows an earlier run left: %w", err)
		}
		for _, e := range resp.GetExecutions() {
			slots <- struct{}{}
			wg.Add(1)
			go terminate(e.GetExecution().GetWorkflowId(), e.GetExecution().GetRunId())
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	wg.Wait()
	return errors.Join(errs...)
}

// localTournament is a tournament on the embedded server, with its tables in this process.
type localTournament struct {
	t    *workflows.Tournament
	c    client.Client
	host *workflows.LocalTableHost
}

func (l *localTournament) ID() string { return l.t.ID }

func (l *localTournament) Progress(ctx context.Context) (workflows.Progress, error) {
	return l.t.Progress(ctx)
}

// Result waits for the tournament's end. A table that stops with an error (it cannot report, or its
// hands break a rule) would leave the tournament waiting for ever, so that ends the wait too, and
// an interrupted wait terminates the tournament, which no process will deal for any more.
func (l *localTournament) Result(ctx context.Context) (workflows.TournamentResult, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if err := l.host.Err(); err != nil {
					cancel(fmt.Errorf("a table stopped: %w", err))
					return
				}
			}
		}
	}()
	res, err := l.t.Result(ctx)
	if err == nil {
		return res, nil
	}
	if cause := context.Cause(ctx); cause != nil {
		err = cause
	}
	stopCtx, stopCancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer stopCancel()
	_ = l.c.TerminateWorkflow(stopCtx, l.t.ID, "", fmt.Sprintf("pokerfloor run ended: %v", err))
	return res, err
}

// isNotFound reports whether err says the workflow is already gone.
func isNotFound(err error) bool {
	var nf *serviceerror.NotFound
	return errors.As(err, &nf)
}

// sdkLogger is the Temporal SDK's logger: quiet unless --verbose asks for the logs.
func sdkLogger(logs io.Writer) sdklog.Logger {
	if logs == nil {
		return sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	}
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(logs, nil)))
}
