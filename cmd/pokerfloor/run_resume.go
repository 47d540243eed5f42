package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	"go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
)

// A run stopped before its tournament ends, by Ctrl-C or a kill, leaves the tournament in the data
// dir: its workflows in the database and current.json naming it. The next `pokerfloor run` with
// that data dir resumes it (the tournament's own settings, whatever the flags say; --fresh
// discards it instead): the worker takes the workflows up where their histories end, this
// process hosts the tables again from tables.jsonl, and each table starts from its TableWorkflow's
// state, the hand that was in progress void (rule D4).

// resumeSettingKeys are the settings a tournament keeps for its life: on resume, the saved ones
// apply and a different value given now is reported and ignored.
var resumeSettingKeys = []string{"players", "table-size", "structure", "speed", "seed"}

// prepareRun decides whether this run resumes the tournament in s.DataDir or starts a new one,
// and returns the settings it runs with. isSet tells which settings the user gave (viper's IsSet,
// keyed "run.<flag>"); notes receives what the user should know.
func prepareRun(s runSettings, isSet func(string) bool, notes io.Writer) (runSettings, error) {
	saved, err := readSavedRun(s.DataDir)
	if err != nil {
		if s.Fresh {
			return s, nil // --fresh discards a damaged record too
		}
		return s, err
	}
	if saved == nil {
		return s, nil
	}
	if s.Fresh {
		fmt.Fprintf(notes, "--fresh: discarding the unfinished tournament %s (started %s)\n",
			saved.TournamentID, saved.Started.Local().Format(time.DateTime))
		return s, nil
	}
	was := runSettings{Players: saved.Settings.Players, TableSize: saved.Settings.TableSize,
		Structure: saved.Settings.Structure, MaxSpeed: saved.Settings.MaxSpeed, Seed: saved.Settings.Seed}
	for _, key := range resumeSettingKeys {
		if !isSet("run." + key) {
			continue
		}
		now, then := settingString(s, key), settingString(was, key)
		if now != then {
			fmt.Fprintf(notes, "--%s %s ignored: resuming tournament %s, which plays with %s %s (--fresh starts a new one)\n",
				key, now, saved.TournamentID, key, then)
		}
	}
	s.Players, s.TableSize, s.Structure, s.MaxSpeed, s.Seed = was.Players, was.TableSize, was.Structure, was.MaxSpeed, was.Seed
	s.Resume, s.Started = saved.TournamentID, saved.Started
	return s, nil
}

// settingString is one of the kept settings as the user writes it.
func settingString(s runSettings, key string) string {
	switch key {
	case "players":
		return fmt.Sprint(s.Players)
	case "table-size":
		return fmt.Sprint(s.TableSize)
	case "structure":
		return s.Structure.Name
	case "speed":
		if s.MaxSpeed {
			return "max"
		}
		return fmt.Sprint(s.Structure.Speed)
	case "seed":
		return fmt.Sprint(s.Seed)
	}
	return ""
}

// resumeTournament takes up the tournament s.Resume on the embedded server: it must still be
// running (or have finished with nobody watching: its result is then read), and its tables are
// hosted again by host, as they were before the run stopped.
func resumeTournament(ctx context.Context, c client.Client, s runSettings, host workflows.TableHost, histories *historyReporter) (*workflows.Tournament, error) {
	d, err := c.DescribeWorkflowExecution(ctx, s.Resume, "")
	if err != nil {
		return nil, fmt.Errorf("tournament %s cannot be resumed (%v): run with --fresh to start a new one", s.Resume, err)
	}
	switch st := d.GetWorkflowExecutionInfo().GetStatus(); st {
	case enums.WORKFLOW_EXECUTION_STATUS_RUNNING, enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
	default:
		return nil, fmt.Errorf("tournament %s cannot be resumed: it is %s in the database; run with --fresh to start a new one",
			s.Resume, statusName(st))
	}
	tables, everID, err := hostedTables(s.DataDir)
	if err != nil {
		return nil, fmt.Errorf("read the tables the run hosted: %w", err)
	}
	if s.HandHistories != "" {
		// Before any table deals again: a .part file of the hand a table deals next is the old one.
		var later func(string, []int64)
		if histories != nil {
			later = histories.settleLater
		}
		if err := settleHistories(ctx, c, s.HandHistories, everID, later); err != nil {
			fmt.Fprintf(os.Stderr, "pokerfloor: %v\n", err)
		}
	}
	if err := rehostTables(ctx, c, tables, host); err != nil {
		return nil, err
	}
	return workflows.GetTournament(c, s.Resume), nil
}

func statusName(st enums.WorkflowExecutionStatus) string {
	switch st {
	case enums.WORKFLOW_EXECUTION_STATUS_TERMINATED:
		return "terminated"
	case enums.WORKFLOW_EXECUTION_STATUS_FAILED:
		return "failed"
	case enums.WORKFLOW_EXECUTION_STATUS_CANCELED:
		return "cancelled"
	case enums.WORKFLOW_EXECUTION_STATUS_TIMED_OUT:
		return "timed out"
	}
	return st.String()
}

// rehostTables hosts again every table tables.jsonl lists whose TableWorkflow still runs. The
// runner of each starts with an empty report, so the table deals on from its workflow's state.
func rehostTables(ctx context.Context, c client.Client, tables []workflows.HostedTable, host workflows.TableHost) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		errs  []error
		slots = make(chan struct{}, 8)
	)
	for _, t := range tables {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			d, err := c.DescribeWorkflowExecution(ctx, t.ID, "")
			if err != nil {
				if isNotFound(err) {
					return
				}
				mu.Lock()
				errs = append(errs, fmt.Errorf("table %s: %w", t.ID, err))
				mu.Unlock()
				return
			}
			if d.GetWorkflowExecutionInfo().GetStatus() != enums.WORKFLOW_EXECUTION_STATUS_RUNNING {
				return // closed: nothing to deal
			}
			if err := host.CreateTable(ctx, t); err != nil {
				mu.Lock()
				errs = append(errs, fmt.Errorf("host table %s again: %w", t.ID, err))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// announceResume says which tournament this run resumes, where it stands, and takes the clock off
// the pause an interrupted run put it on.
func announceResume(ctx context.Context, t tournament, s runSettings, w io.Writer) {
	p, err := progressSoon(ctx, t)
	if err != nil {
		fmt.Fprintf(w, "resuming tournament %s (started %s): %d players, data in %s\n",
			t.ID(), s.Started.Local().Format(time.DateTime), s.Players, s.DataDir)
		return
	}
	fmt.Fprintf(w, "resuming tournament %s (started %s): %s, %d of %d players left on %s, hands %d; data in %s (--fresh starts a new one)\n",
		t.ID(), s.Started.Local().Format(time.DateTime), levelString(p), p.PlayersLeft, p.Entries, plural(p.Tables, "table"), p.HandsPlayed, s.DataDir)
	if c, ok := t.(clockDirector); ok && p.Paused && !s.MaxSpeed {
		if err := c.ResumeClock(ctx); err != nil {
			fmt.Fprintf(w, "the clock stays paused: %v\n", err)
		}
	}
}

// plural is n things: 1 table, 5 tables.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// progressSoon asks for the progress until the worker answers: just after a start it may be
// replaying the tournament's history, and after a kill the tournament's query first waits for
// the dead worker's sticky queue (localStickyTimeout) before the server sends it to the task
// queue. Each ask has progressTry, so that one lost on its way is asked again rather than
// waited for to the end; progressWait in all, for a machine five times slower and busy (a
// resume beside two test suites once had no answer in two minutes of one ask).
func progressSoon(ctx context.Context, t tournament) (workflows.Progress, error) {
	ctx, cancel := context.WithTimeout(ctx, progressWait)
	defer cancel()
	for {
		tctx, tcancel := context.WithTimeout(ctx, progressTry)
		p, err := t.Progress(tctx)
		tcancel()
		if err == nil {
			return p, nil
		}
		select {
		case <-ctx.Done():
			return p, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// progressTry bounds one ask of progressSoon (more than localStickyTimeout, after which the server
// sends a query to the task queue), progressWait all of them.
const (
	progressTry  = localStickyTimeout + 15*time.Second
	progressWait = 4 * time.Minute
)

// levelString is the level as a person says it: level 7 (600/1200 ante 200), or a break.
func levelString(p workflows.Progress) string {
	switch {
	case p.Level == 0:
		return "not started"
	case p.OnBreak:
		return fmt.Sprintf("on the break before level %d", p.Level)
	}
	s := fmt.Sprintf("level %d (%d/%d", p.Level, p.Blinds.SmallBlind, p.Blinds.BigBlind)
	if p.Blinds.Ante > 0 {
		s += fmt.Sprintf(" ante %d", p.Blinds.Ante)
	}
	return s + ")"
}

// interruptedError is the cause of the run's context when a signal ends it.
type interruptedError struct {
	sig os.Signal
}

func (e interruptedError) Error() string { return fmt.Sprintf("interrupted (%v)", e.sig) }

// exitStatus is the shell's status for a process a signal ended: 128 + the signal's number (130
// for SIGINT).
func (e interruptedError) exitStatus() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// interruption returns the signal that ended ctx, or nil.
func interruption(ctx context.Context) *interruptedError {
	var ie interruptedError
	if errors.As(context.Cause(ctx), &ie) {
		return &ie
	}
	return nil
}

// clockDirector is the part of a tournament that pauses and resumes its clock (B3).
type clockDirector interface {
	PauseClock(ctx context.Context) error
	ResumeClock(ctx context.Context) error
}

// suspender stops the tables of a tournament that is interrupted, before the standings are read:
// the hands in progress are void (D4), and the standings are what the tournament holds.
type suspender interface {
	SuspendTables()
}

// standingsReader reads the standings so far.
type standingsReader interface {
	Standings(ctx context.Context) ([]workflows.Standing, error)
}

const clockBy = "pokerfloor run"

func (l *localTournament) PauseClock(ctx context.Context) error {
	_, err := l.t.ClockAction(ctx, workflows.ClockRequest{Kind: floor.ClockPause, By: clockBy,
		Reason: "the run was interrupted: no table deals until it is resumed"})
	return err
}

func (l *localTournament) ResumeClock(ctx context.Context) error {
	_, err := l.t.ClockAction(ctx, workflows.ClockRequest{Kind: floor.ClockResume, By: clockBy, Reason: "the run was resumed"})
	return err
}

func (l *localTournament) SuspendTables() { l.host.Close() }

func (l *localTournament) Standings(ctx context.Context) ([]workflows.Standing, error) {
	return l.t.Standings(ctx)
}

// interrupted ends a run that a signal stopped: the bar's line is ended, the tables stop (their
// hands in progress void), the clock is paused, the standings so far are printed, and the error
// says how to resume. The tournament stays in the data dir.
func interrupted(t tournament, s runSettings, d progressDisplay, sig *interruptedError, stdout, stderr io.Writer) error {
	d.Interrupt()
	// The run's own context is done: the last words get a fresh one, generous for a slow machine.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if sp, ok := t.(suspender); ok {
		sp.SuspendTables()
	}
	if c, ok := t.(clockDirector); ok && !s.MaxSpeed {
		_ = c.PauseClock(ctx) // a finished tournament has no clock to pause
	}
	p, perr := t.Progress(ctx)
	var standings []workflows.Standing
	serr := errors.New("not available")
	if r, ok := t.(standingsReader); ok {
		standings, serr = r.Standings(ctx)
	}
	if serr == nil {
		if err := writeStandings(stdout, t.ID(), s, p, standings); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stderr, "standings not available: %v\n", serr)
	}
	where := ""
	if perr == nil {
		where = fmt.Sprintf(" at %s with %d of %d players left", levelString(p), p.PlayersLeft, p.Entries)
	}
	resume := "pokerfloor run"
	if s.DataDir != "" {
		resume += " --data-dir " + s.DataDir
	}
	return &exitError{code: sig.exitStatus(), err: fmt.Errorf(
		"%v: tournament %s is kept in %s%s; run %q to resume it, or add --fresh to start a new one",
		*sig, t.ID(), filepath.Clean(s.DataDir), where, resume)}
}
