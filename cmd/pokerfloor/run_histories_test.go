package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// scriptedReporter answers each report with the next of its answers: an error, or the hand the
// table acknowledged last.
type scriptedReporter struct {
	answers []scripted
}

type scripted struct {
	acked int64
	err   error
}

func (s *scriptedReporter) Report(_ context.Context, tableID string, _ []report.HandResult) (report.State, error) {
	a := s.answers[0]
	s.answers = s.answers[1:]
	return report.State{TableID: tableID, HandNumber: a.acked}, a.err
}

func handsWith(numbers ...int64) []report.HandResult {
	var rs []report.HandResult
	for _, n := range numbers {
		rs = append(rs, report.HandResult{HandNumber: n, History: "hand"})
	}
	return rs
}

// historyFiles are the names of the files in table's folder under dir.
func historyFiles(t *testing.T, dir, table string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(historyPath(dir, table, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// A report that failed may still have been acknowledged (its host replaced, its answer
// superseded): its .part files wait for the table's next acknowledged report, which keeps those
// the table has and removes the void ones; the hands of a report that succeeds are kept at once.
func TestHistoriesOfAFailedReportSettledByTheNext(t *testing.T) {
	dir := t.TempDir()
	const table = "run-1/table-001"
	inner := &scriptedReporter{answers: []scripted{
		{acked: 2},                               // hands 1-2 acknowledged
		{err: errors.New("superseded")},          // 3-4: applied, the answer lost
		{err: errors.New("context canceled")},    // 5: never applied (void)
		{acked: 4},                               // the new host's first report: the table has 4
		{acked: 6}, {err: errors.New("the end")}, // 5-6 dealt again and kept; 7 left for a resume
	}}
	h := &historyReporter{inner: inner, dir: dir, log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	for _, hands := range [][]int64{{1, 2}, {3, 4}, {5}, nil, {5, 6}, {7}} {
		_, _ = h.Report(ctx, table, handsWith(hands...))
	}
	want := []string{"hand-000001.phh", "hand-000002.phh", "hand-000003.phh", "hand-000004.phh",
		"hand-000005.phh", "hand-000006.phh", "hand-000007.phh.part"}
	if got := historyFiles(t, dir, table); !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	if got := h.unsettled[table]; !slices.Equal(got, []int64{7}) {
		t.Errorf("unsettled %v, want [7]", got)
	}
}

// A void hand's .part file (its report failed, and the table's next acknowledged report is
// before it) is removed before the table deals that number again.
func TestVoidHistoryRemovedAtTheNextReport(t *testing.T) {
	dir := t.TempDir()
	const table = "run-1/table-002"
	inner := &scriptedReporter{answers: []scripted{{err: errors.New("killed")}, {acked: 0}}}
	h := &historyReporter{inner: inner, dir: dir, log: slog.New(slog.DiscardHandler)}
	_, _ = h.Report(context.Background(), table, handsWith(1))
	if got := historyFiles(t, dir, table); !slices.Equal(got, []string{"hand-000001.phh.part"}) {
		t.Fatalf("files %v after the failed report", got)
	}
	_, _ = h.Report(context.Background(), table, nil)
	if got := historyFiles(t, dir, table); len(got) != 0 {
		t.Errorf("files %v, want none: hand 1 was void", got)
	}
}

// tableQueryFails is a Temporal client whose every query fails, as one does for a table whose
// task is still open (the killed process's, until it times out): only QueryWorkflow is used.
type tableQueryFails struct{ client.Client }

func (tableQueryFails) QueryWorkflow(ctx context.Context, _, _, _ string, _ ...any) (converter.EncodedValue, error) {
	return nil, fmt.Errorf("query: %w", context.DeadlineExceeded)
}

// A resumed run asks each table it hosted which hands its workflow acknowledged, to settle the
// .part files a kill left; a table that does not answer in time has them settled by its next
// acknowledged report instead (kept up to the hand it has, the later ones void and removed),
// and the resume does not wait for it. Before, they were left as .part files for good, each such
// table holding the resume up for the SDK's 10 s (TestRunResumesAfterKills, in a trial whose
// tables kept their tasks open longer: 12 files for 1,917 hands, 13 tables, 285 s against 35).
func TestResumeSettlesHistoriesLaterForATableThatDoesNotAnswer(t *testing.T) {
	dir := t.TempDir()
	const table = "run-1/table-003"
	for _, n := range []int64{3, 4, 5} {
		path := historyPath(dir, table, n)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path+partExt, []byte("hand"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The killed run's hands 3 and 4 were acknowledged, 5 was not.
	h := &historyReporter{inner: &scriptedReporter{answers: []scripted{{acked: 4}}}, dir: dir, log: slog.New(slog.DiscardHandler)}
	if err := settleHistories(context.Background(), tableQueryFails{}, dir, []string{table}, h.settleLater); err != nil {
		t.Fatalf("settle: %v; want the table's files left to its next report", err)
	}
	if got := h.unsettled[table]; !slices.Equal(got, []int64{3, 4, 5}) {
		t.Fatalf("unsettled %v, want [3 4 5]", got)
	}
	if _, err := h.Report(context.Background(), table, nil); err != nil { // the resumed host's first report
		t.Fatal(err)
	}
	want := []string{"hand-000003.phh", "hand-000004.phh"}
	if got := historyFiles(t, dir, table); !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	// Without a reporter to settle them (no later), the failure is told and the files stay.
	if err := os.WriteFile(historyPath(dir, table, 5)+partExt, []byte("hand"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := settleHistories(context.Background(), tableQueryFails{}, dir, []string{table}, nil); err == nil {
		t.Error("no error for a table whose hands could not be settled")
	}
}
