package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows"
	"go.temporal.io/sdk/client"
)

// `run --hand-histories DIR` writes every hand the tournament counts as a PHH file,
// DIR/<tournament>/table-NNN/hand-NNNNNN.phh, that `pokerfloor replay --check` replays. A hand
// counts once its TableWorkflow has acknowledged it: it is written as a .phh.part file before the
// report and renamed when the report is acknowledged. A kill between the two leaves the .part file;
// the run that resumes the tournament renames it if the table's workflow has the hand, and deletes
// it if not (the hand was void: its table deals that number again).

const (
	historyExt = ".phh"
	partExt    = ".part"
)

// checkHistoryDir makes sure dir is a folder this process can write, creating it if need be.
func checkHistoryDir(dir string) error {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return usageErrorf("--hand-histories %s is a file; expected a folder (created if missing)", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageErrorf("--hand-histories %s cannot be created (%v); expected a folder this user can write", dir, errors.Unwrap(err))
	}
	f, err := os.CreateTemp(dir, ".write-test-")
	if err != nil {
		return usageErrorf("--hand-histories %s is not writable (%v)", dir, errors.Unwrap(err))
	}
	_ = f.Close()
	return os.Remove(f.Name())
}

// historyPath is where hand n of table tableID is written under dir. The table's ID (the
// tournament's, a slash, table-NNN) makes the folders; anything but letters, digits, '.', '-' and
// '_' in it becomes '_', so that no ID can name a path outside dir.
func historyPath(dir, tableID string, n int64) string {
	parts := []string{dir}
	for _, el := range strings.Split(tableID, "/") {
		el = strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
				return r
			}
			return '_'
		}, el)
		if el == "" || el == "." || el == ".." {
			el = "_"
		}
		parts = append(parts, el)
	}
	parts = append(parts, fmt.Sprintf("hand-%06d%s", n, historyExt))
	return filepath.Join(parts...)
}

// historyReporter writes each hand's history beside the report that carries it.
//
// A report that fails may still have been acknowledged: a table replaced for its silence has
// its old host's report, applied and waiting for an order, superseded by the new host's, and a
// report cut off by its context may be applied after. Their .part files wait (unsettled) for the
// table's next acknowledged report, which says the last hand the table has: those up to it are
// kept, the later ones (void: the table deals their numbers again) removed. Before, a long run
// under load left a few of them as .part files (TestRunResumesAfterKills: 12 for 1,968 hands).
type historyReporter struct {
	inner report.Reporter
	dir   string
	log   *slog.Logger

	mu        sync.Mutex
	unsettled map[string][]int64 // a table's hands written whose report failed
}

var _ report.Reporter = (*historyReporter)(nil)

func (h *historyReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	var written []int64
	for i := range results {
		r := &results[i]
		if r.Voided || r.History == "" {
			continue
		}
		path := historyPath(h.dir, tableID, r.HandNumber)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return report.State{}, fmt.Errorf("hand history: %w", err)
		}
		if err := os.WriteFile(path+partExt, []byte(r.History), 0o644); err != nil {
			return report.State{}, fmt.Errorf("hand history: %w", err)
		}
		written = append(written, r.HandNumber)
	}
	st, err := h.inner.Report(ctx, tableID, results)
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		// The .part files stay until the table's next acknowledged report (or a resume) settles them.
		if len(written) > 0 {
			if h.unsettled == nil {
				h.unsettled = map[string][]int64{}
			}
			h.unsettled[tableID] = append(h.unsettled[tableID], written...)
		}
		return st, err
	}
	waiting := slices.DeleteFunc(h.unsettled[tableID], func(n int64) bool { return slices.Contains(written, n) })
	delete(h.unsettled, tableID)
	for _, n := range waiting {
		path := historyPath(h.dir, tableID, n)
		if err := settlePart(path, n, st.HandNumber); err != nil && !errors.Is(err, fs.ErrNotExist) {
			h.log.Error("hand history not settled", "file", path+partExt, "err", err)
		}
	}
	for _, n := range written {
		path := historyPath(h.dir, tableID, n)
		if err := os.Rename(path+partExt, path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			h.log.Error("hand history not kept", "file", path, "err", err)
		}
	}
	return st, nil
}

// historyTables is workflows.BotTables with each hand's PHH history in its result: bots at every
// seat, a seeded deck where the table has a deck seed.
func historyTables(logger *slog.Logger) workflows.RunTable {
	return func(ctx context.Context, t workflows.HostedTable, c report.Reporter) error {
		return workflows.RunBots(ctx, t, c, host.Options{Logger: logger, History: true})
	}
}

// settleHistories decides the .part files a killed run left for the tables it hosted: a hand the
// table's workflow acknowledged is kept, any later one (void) is removed. A table whose workflow
// does not answer the query within settleQueryWait (a task of its still open: the one the killed
// process had takes the task's timeout to be given up) has its .part files given to later, when
// not nil, to be settled by its next acknowledged report (historyReporter.settleLater); before,
// the resume waited out the SDK's 10 s for each such table, and left their files unsettled.
func settleHistories(ctx context.Context, c client.Client, dir string, tableIDs []string, later func(tableID string, hands []int64)) error {
	var errs []error
	for _, id := range tableIDs {
		folder := filepath.Dir(historyPath(dir, id, 0))
		parts, err := filepath.Glob(filepath.Join(folder, "hand-*"+historyExt+partExt))
		if err != nil || len(parts) == 0 {
			continue
		}
		hands := map[string]int64{}
		for _, part := range parts {
			name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(part), "hand-"), historyExt+partExt)
			if n, err := strconv.ParseInt(name, 10, 64); err == nil {
				hands[part] = n
			}
		}
		qctx, cancel := context.WithTimeout(ctx, settleQueryWait)
		acked, err := acknowledgedHand(qctx, c, id)
		cancel()
		if err != nil && later != nil && ctx.Err() == nil {
			later(id, slices.Sorted(maps.Values(hands)))
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("hand histories of table %s left as %s files: %w", id, partExt, err))
			continue
		}
		for part, n := range hands {
			if err := settlePart(strings.TrimSuffix(part, partExt), n, acked); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// settlePart decides hand n's .part file beside path: kept (renamed to path) when the table
// acknowledged it (n <= acked), removed when it was void.
func settlePart(path string, n, acked int64) error {
	if n > acked {
		return os.Remove(path + partExt)
	}
	return os.Rename(path+partExt, path)
}

// settleQueryWait bounds the query of one table's acknowledged hand at a resume: one that takes
// longer is settled later, without holding the resume up.
const settleQueryWait = 3 * time.Second

// settleLater has the .part files of hands, left by a killed run, settled by the table's next
// acknowledged report, as those of a report that failed are.
func (h *historyReporter) settleLater(tableID string, hands []int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.unsettled == nil {
		h.unsettled = map[string][]int64{}
	}
	h.unsettled[tableID] = append(h.unsettled[tableID], hands...)
}

// acknowledgedHand is the number of the last hand the table's workflow acknowledged.
func acknowledgedHand(ctx context.Context, c client.Client, tableID string) (int64, error) {
	v, err := c.QueryWorkflow(ctx, tableID, "", workflows.TableStateQuery)
	if err != nil {
		return 0, err
	}
	var st workflows.TableState
	if err := v.Get(&st); err != nil {
		return 0, err
	}
	return st.HandNumber, nil
}

func discardIfNil(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return l
}
