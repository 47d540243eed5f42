package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/localtemporal"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows"
	"go.temporal.io/api/serviceerror"
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
// worker with the tournament workflows and activities, and the tournament itself, or takes up the
// one s.Resume names (run_resume.go). A new tournament starts from an empty database.
func startLocalTournament(ctx context.Context, s runSettings, logs io.Writer) (_ tournament, _ func(), err error) {
	tel, err := startTelemetry(ctx, s) // nil when nothing reads it (run_telemetry.go)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil && tel != nil {
			_ = tel.Shutdown(context.Background())
		}
	}()
	srv, err := localtemporal.Start(localtemporal.Options{DataDir: s.DataDir, Log: logs, Reset: s.Resume == ""})
	if inUse := (*localtemporal.InUseError)(nil); errors.As(err, &inUse) {
		return nil, nil, usageErrorf("--data-dir %s is in use by another pokerfloor run: wait for it, or give another folder", s.DataDir)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("embedded temporal server: %w", err)
	}
	if s.Resume == "" {
		// The database is new: what the folder said of an earlier tournament no longer holds.
		if err := clearSavedRun(s.DataDir); err != nil {
			_ = srv.Stop()
			return nil, nil, fmt.Errorf("data dir: %w", err)
		}
	}
	if logs != nil {
		fmt.Fprintf(logs, "temporal frontend at %s, namespace %s, database %s\n", srv.HostPort(), srv.Namespace(), srv.DatabasePath())
	}
	c, err := srv.Dial(temporalOptions(tel, client.Options{Logger: sdkLogger(logs)})) // run_telemetry.go
	if err != nil {
		_ = srv.Stop()
		return nil, nil, fmt.Errorf("connect to the embedded temporal server: %w", err)
	}
	var tableLog *slog.Logger
	if logs != nil {
		tableLog = slog.New(slog.NewTextHandler(logs, nil))
	}
	// The tables' reports bounded, so that the tables' worker drains its sticky queue
	// (docs/design.md, "The stall at 10,000 entries").
	var reporter report.Reporter = workflows.NewLocalTableReporter(c, workflows.LocalReportsAccepting)
	tournaments := &tableTournaments{}
	reporter = instrumentReporter(tel, reporter, tournaments) // run_telemetry.go
	if !s.MaxSpeed && !s.pacedSimulation() {
		reporter = newPacedReporter(reporter, s.handPace())
	}
	tables := workflows.BotTables(tableLog)
	var histories *historyReporter
	if s.HandHistories != "" {
		histories = &historyReporter{inner: reporter, dir: s.HandHistories, log: discardIfNil(tableLog)}
		reporter = histories
		tables = historyTables(tableLog)
	}
	tables, served := servedTables(s, tables, tableLog) // --play or --web: every table served (run_web.go)
	tables = instrumentTables(tel, tables, served, s.HandHistories != "", tournaments, tableLog)
	host := workflows.NewLocalTableHost(reporter, tables)
	recorder, err := newRecordingHost(host, s.DataDir)
	if err != nil {
		c.Close()
		_ = srv.Stop()
		return nil, nil, err
	}
	places, err := openPlaceFile(s.DataDir)
	if err != nil {
		c.Close()
		_ = srv.Stop()
		_ = recorder.Close()
		return nil, nil, err
	}
	// Two workers: the tournament's and the tables' (their task queue apart, so that the tables'
	// reports never hold the tournament's tasks up), with every run of the tournament in their cache.
	worker.SetStickyWorkflowCacheSize(workflows.WorkflowCacheFor(s.Players, s.TableSize))
	workers := workflows.NewWorkers(c, workflows.TaskQueue, worker.Options{StickyScheduleToStartTimeout: localStickyTimeout}, recorder, places)
	stop := func() {
		host.Close() // tables first: they report through the worker's workflows
		for _, w := range workers {
			w.Stop()
		}
		c.Close()
		stopServer(srv, s.DataDir)
		_ = recorder.Close()
	}
	for _, w := range workers {
		if err := w.Start(); err != nil {
			stop()
			return nil, nil, fmt.Errorf("start the worker: %w", err)
		}
	}
	if s.Resume != "" {
		t, err := resumeTournament(ctx, c, s, host, histories)
		if err != nil {
			stop()
			return nil, nil, err
		}
		return &localTournament{t: t, c: c, host: host}, s.Web.serve(s, t, served, tel, s.Metrics.serveMetrics(tel, t, stop, tableLog), tableLog), nil
	}
	spec := s.tournamentSpec()
	started := time.Now().UTC()
	id := "run-" + started.Format("20060102-150405.000")
	t, err := workflows.StartTournament(ctx, c, id, workflows.TaskQueue, spec)
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("start the tournament: %w", err)
	}
	if err := writeSavedRun(s.DataDir, savedRun{TournamentID: id, Started: started, Settings: saveSettings(s)}); err != nil {
		stop()
		return nil, nil, fmt.Errorf("record the tournament in the data dir: %w", err)
	}
	return &localTournament{t: t, c: c, host: host}, s.Web.serve(s, t, served, tel, s.Metrics.serveMetrics(tel, t, stop, tableLog), tableLog), nil
}

// tournamentSpec is the tournament the settings start: at max speed, or paced by the clock
// (pacedSimulation), a simulation.
func (s runSettings) tournamentSpec() workflows.TournamentSpec {
	spec := workflows.TournamentSpec{
		Name:        "pokerfloor run",
		PlayerCount: s.Players,
		TableSize:   s.TableSize,
		Structure:   s.Structure,
		Seed:        s.Seed,
		Simulation:  s.MaxSpeed || s.pacedSimulation(),
		BuyIn:       localBuyIn,
		Fee:         localFee,
		Bounty:      s.Bounty,
		Satellite:   s.Satellite,
	}
	if s.pacedSimulation() {
		spec.Pace = s.handPace()
		// A table tells its news, and that it is alive, when it reports: at a slow pace fewer hands
		// a report, so that it still reports every pacedReportEvery at most.
		spec.Batch = max(1, min(workflows.DefaultBatch, int(pacedReportEvery/spec.Pace)))
	}
	return spec
}

// pacedReportEvery is how long a table of a paced simulation deals between reports at most: well
// within the quarter of TableDeadline after which a table tells that it is alive.
const pacedReportEvery = 20 * time.Second

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
// terminates the tournament, which no process will deal for any more. A wait a signal interrupts
// leaves it running in the database, for the next run to resume.
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
	if interruption(ctx) != nil {
		return res, err // kept, to be resumed
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

// localStickyTimeout is how long a task waits for the local run's worker on its sticky queue
// before the server moves it to the task queue, where the worker takes it after a replay of the
// run's history: the shared workers' 30 s (workflows.StickyTimeout). Five minutes (3 December:
// at 100,000 entries sections' tasks waited up to 28 s for the busy worker, and each one moved
// made the worker slower still) held a killed run's tasks that long on the dead worker's sticky
// queue after a restart, and the tournament's queries as long (the server tries a sticky query
// for the whole timeout): with two test suites side by side the resumed run could not say where
// it was within a minute (TestRunInterruptThenResume, TestRunResumesAfterKills, 4 December).
const localStickyTimeout = workflows.StickyTimeout
