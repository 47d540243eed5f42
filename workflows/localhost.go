package workflows

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// LocalReportsAccepting is how many of a LocalTableHost's reports may wait at once for the tables'
// worker to take them in (NewLocalTableReporter): a few times its sticky pollers
// (WorkflowTaskPollers), so that the worker never waits for reports, and few enough that its
// sticky queue drains in well under the five seconds after which the server moves a task to the
// normal queue, where it costs a replay of the workflow's history. Measured at 10,000 and 1,000
// entries against 8, 16 and 64 (docs/design.md, "The stall at 10,000 entries").
const LocalReportsAccepting = 32

// RunTable runs one table's process until the table closes or ctx ends: in the local run and in
// tests, the engine/host runner with bots, reporting through c. It returns nil when the table
// was told to close.
type RunTable func(ctx context.Context, t HostedTable, c report.Reporter) error

// LocalTableHost is a TableHost that runs each table in a goroutine of this process: the stand-in
// for table pods in the local run and in tests. Creating a table that runs, or ran, does nothing;
// deleting one that is gone does nothing.
type LocalTableHost struct {
	reporter report.Reporter
	run      RunTable

	mu     sync.Mutex
	tables map[string]*localTable
	errs   []error
	wg     sync.WaitGroup
	ctx    context.Context
	stop   context.CancelFunc
}

type localTable struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// NewLocalTableHost returns a host whose tables report through reporter (NewTableReporter in
// production, any report.Reporter in tests) and run with run.
func NewLocalTableHost(reporter report.Reporter, run RunTable) *LocalTableHost {
	ctx, stop := context.WithCancel(context.Background())
	return &LocalTableHost{reporter: reporter, run: run, tables: map[string]*localTable{}, ctx: ctx, stop: stop}
}

// CreateTable starts the table's goroutine unless it exists.
func (h *LocalTableHost) CreateTable(_ context.Context, t HostedTable) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ctx.Err() != nil {
		return errors.New("the table host is stopped")
	}
	if _, ok := h.tables[t.ID]; ok {
		return nil
	}
	// The table outlives the activity that created it.
	ctx, cancel := context.WithCancel(h.ctx)
	lt := &localTable{cancel: cancel, done: make(chan struct{})}
	h.tables[t.ID] = lt
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer close(lt.done)
		if err := h.run(ctx, t, h.reporter); err != nil && ctx.Err() == nil {
			h.mu.Lock()
			h.errs = append(h.errs, err)
			h.mu.Unlock()
		}
	}()
	return nil
}

// DeleteTable stops the table's goroutine, if it still runs, and waits for it.
func (h *LocalTableHost) DeleteTable(ctx context.Context, id string) error {
	h.mu.Lock()
	lt, ok := h.tables[id]
	h.mu.Unlock()
	if !ok {
		return nil
	}
	lt.cancel()
	select {
	case <-lt.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ReplaceTable stops the table's goroutine, if it still runs, and starts a new one, which takes
// up from the table's workflow (the hand the old one was dealing is void, D4).
func (h *LocalTableHost) ReplaceTable(ctx context.Context, t HostedTable) error {
	if err := h.DeleteTable(ctx, t.ID); err != nil {
		return err
	}
	h.mu.Lock()
	delete(h.tables, t.ID)
	h.mu.Unlock()
	return h.CreateTable(ctx, t)
}

// Running is the number of tables whose goroutine runs.
func (h *LocalTableHost) Running() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, lt := range h.tables {
		select {
		case <-lt.done:
		default:
			n++
		}
	}
	return n
}

// Err returns the errors the tables stopped with, other than being told to stop.
func (h *LocalTableHost) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return errors.Join(h.errs...)
}

// Close stops every table and waits for them.
func (h *LocalTableHost) Close() {
	h.mu.Lock()
	h.stop()
	h.mu.Unlock()
	h.wg.Wait()
}

// BotTables returns a RunTable that plays every seat with bots of the kinds given (engine/bot;
// Random when none): the local run's tables and the tests'. A table with a DeckSeed deals from a
// seeded deck and seeds its bots from it, so a seeded tournament's tables play the same hands
// every time they are dealt the same way; otherwise the deck is crypto/rand's (D1). logger may be
// nil.
func BotTables(logger *slog.Logger, kinds ...bot.Kind) RunTable {
	return func(ctx context.Context, t HostedTable, c report.Reporter) error {
		return RunBots(ctx, t, c, host.Options{Logger: logger}, kinds...)
	}
}

// RunBots plays table t with bots of kinds at every seat (engine/bot's default with none), through
// c, with opt and the table's own deck seed (a seeded deck where it has one) and pace.
func RunBots(ctx context.Context, t HostedTable, c report.Reporter, opt host.Options, kinds ...bot.Kind) error {
	opt.Pace = t.Pace
	seed := t.DeckSeed
	if seed != 0 {
		opt.Deck = engine.NewSeededDeck(seed)
	} else {
		seed = uint64(t.Number)
	}
	return host.NewRunner(t.ID, c, bot.Players(seed, kinds...), opt).Run(ctx)
}
