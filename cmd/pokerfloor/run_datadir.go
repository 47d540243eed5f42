package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/localtemporal"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// The data dir of `pokerfloor run`:
//
//	temporal.db, temporal.db-wal, lock   the embedded server's database: the tournament in progress
//	current.json                         which tournament that is, and its settings (resume reads it)
//	tables.jsonl                         the tables the tournament asked this process to host
//	places.jsonl                         the places as they are given (a tournament of one section's with their record rows)
//	runs/<tournament>/results.json       each finished tournament's results (kept)
//	runs/<tournament>/summary.txt        the same as text
//
// The database holds one tournament at most: a new one starts from an empty database, and a
// finished one's database is deleted once its results are kept, so the folder does not grow with
// every run; the results of earlier ones stay in runs/ until removed.
const (
	currentRunFile = "current.json"
	tablesFile     = "tables.jsonl"
	runsDir        = "runs"
	resultsFile    = "results.json"
	summaryFile    = "summary.txt"
)

// stopServer stops the embedded server. Once the tournament has finished (its results are in
// runs/, and nothing is left to resume) its database goes with it: that is most of the folder's
// size, and nobody needs its workflows any more.
func stopServer(srv *localtemporal.Server, dataDir string) {
	if saved, err := readSavedRun(dataDir); saved == nil && err == nil {
		_ = srv.Discard()
		return
	}
	_ = srv.Stop()
}

// checkDataDir makes sure dir is a folder this process can write, creating it if need be.
func checkDataDir(dir string) error {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return usageErrorf("--data-dir %s is a file; expected a folder (created if missing)", dir)
	}
	// Any other problem (a file on the way, no permission) is MkdirAll's to name.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", pe.Path, pe.Err)
		}
		return usageErrorf("--data-dir %s cannot be created (%v); expected a folder this user can write", dir, err)
	}
	f, err := os.CreateTemp(dir, ".write-test-")
	if err != nil {
		return usageErrorf("--data-dir %s is not writable (%v); expected a folder this user can write", dir, errors.Unwrap(err))
	}
	_ = f.Close()
	_ = os.Remove(f.Name())
	return nil
}

// savedRun is what the data dir remembers of the tournament in progress: enough to resume it
// (its ID) and to show and report it as it started (its settings).
type savedRun struct {
	TournamentID string        `json:"tournamentId"`
	Started      time.Time     `json:"started"`
	Settings     savedSettings `json:"settings"`
}

// savedSettings are the settings a tournament keeps for its life: the workflow holds them too, in
// its spec, but a summary must not wait on a query.
type savedSettings struct {
	Players   int             `json:"players"`
	TableSize int             `json:"tableSize"`
	Structure floor.Structure `json:"structure"`
	MaxSpeed  bool            `json:"maxSpeed"`
	Seed      uint64          `json:"seed"`
}

func saveSettings(s runSettings) savedSettings {
	return savedSettings{Players: s.Players, TableSize: s.TableSize, Structure: s.Structure, MaxSpeed: s.MaxSpeed, Seed: s.Seed}
}

// readSavedRun returns the tournament in progress in dir, or nil if there is none.
func readSavedRun(dir string) (*savedRun, error) {
	data, err := os.ReadFile(filepath.Join(dir, currentRunFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r savedRun
	if err := json.Unmarshal(data, &r); err != nil || r.TournamentID == "" {
		return nil, usageErrorf("%s is damaged (%v): run with --fresh to start a new tournament",
			filepath.Join(dir, currentRunFile), err)
	}
	return &r, nil
}

// writeSavedRun records r as the tournament in progress, atomically: a kill leaves the old file or
// the new one, never half of one.
func writeSavedRun(dir string, r savedRun) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, currentRunFile), append(data, '\n'))
}

// clearSavedRun forgets the tournament in progress (it finished) and the tables it hosted.
func clearSavedRun(dir string) error {
	for _, name := range []string{currentRunFile, tablesFile, placesFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes data to a temporary file beside path and renames it over path.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp's 0600: the results are for anyone to read
		_ = f.Close()
		_ = os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

// tableRecord is one line of tables.jsonl: a table the tournament asked this process to host, or
// (Deleted) to stop hosting.
type tableRecord struct {
	workflows.HostedTable
	Deleted bool `json:"deleted,omitempty"`
}

// recordingHost is the local run's TableHost: it notes each table it is asked to host in
// tables.jsonl, before hosting it, so that a run started again after a kill knows which tables to
// host again and how (their deck seeds are not in the TableWorkflows' state, and the activities
// that asked for them completed long ago). A line is written before the activity can complete, so
// a kill leaves either the line or an activity that Temporal retries.
type recordingHost struct {
	inner workflows.TableHost
	mu    sync.Mutex
	file  *os.File
}

func newRecordingHost(inner workflows.TableHost, dataDir string) (*recordingHost, error) {
	f, err := os.OpenFile(filepath.Join(dataDir, tablesFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("tables record: %w", err)
	}
	return &recordingHost{inner: inner, file: f}, nil
}

var _ workflows.TableHost = (*recordingHost)(nil)

func (h *recordingHost) CreateTable(ctx context.Context, t workflows.HostedTable) error {
	if err := h.record(tableRecord{HostedTable: t}); err != nil {
		return err
	}
	return h.inner.CreateTable(ctx, t)
}

func (h *recordingHost) DeleteTable(ctx context.Context, id string) error {
	if err := h.inner.DeleteTable(ctx, id); err != nil {
		return err
	}
	return h.record(tableRecord{HostedTable: workflows.HostedTable{ID: id}, Deleted: true})
}

// ReplaceTable hosts the same table again (its record stands: the table is still hosted).
func (h *recordingHost) ReplaceTable(ctx context.Context, t workflows.HostedTable) error {
	return h.inner.ReplaceTable(ctx, t)
}

// record appends one line. The page cache keeps it through a kill of the process; it is not
// synced to the disk, which only a crash of the machine would need.
func (h *recordingHost) record(r tableRecord) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, err := h.file.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("tables record: %w", err)
	}
	return nil
}

func (h *recordingHost) Close() error { return h.file.Close() }

// hostedTables reads tables.jsonl: the tables created and not deleted since, in the order they were
// first created, and the IDs of every table ever created. A last line cut short by a kill is
// skipped: its table's activity had not completed, and Temporal retries it.
func hostedTables(dataDir string) (live []workflows.HostedTable, all []string, err error) {
	data, err := os.ReadFile(filepath.Join(dataDir, tablesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	index := map[string]int{}
	ever := map[string]bool{}
	var tables []workflows.HostedTable
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r tableRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.ID == "" {
			continue
		}
		if !ever[r.ID] {
			ever[r.ID] = true
			all = append(all, r.ID)
		}
		i, seen := index[r.ID]
		switch {
		case r.Deleted && seen:
			tables[i].ID = "" // gone
			delete(index, r.ID)
		case r.Deleted:
		case seen:
			tables[i] = r.HostedTable
		default:
			index[r.ID] = len(tables)
			tables = append(tables, r.HostedTable)
		}
	}
	for _, t := range tables {
		if t.ID != "" {
			live = append(live, t)
		}
	}
	return live, all, sc.Err()
}
