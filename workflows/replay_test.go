package workflows

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// replayDir holds histories recorded from short tournaments on a real server
// (POKERFLOOR_RECORD_HISTORIES=1 go test -run TestReplayRecordedHistories ./workflows records them
// again): the workflows of a later change must replay them, or the runs under way when it is
// deployed would fail with a nondeterminism error (gate such a change with workflow.GetVersion).
const replayDir = "testdata/replay"

// recordedRun is one history of replayDir: the workflow's ID (its code reads it) and its type.
type recordedRun struct {
	File       string `json:"file"`
	WorkflowID string `json:"workflowID"`
	Type       string `json:"type"`
}

// TestReplayRecordedHistories replays every history in testdata/replay with the workflows as they
// are now: a tournament of one section and one of its tables, a tournament of three sections and
// one section, each played to its end (with a late entry, a rebuy and a sanction). A change that
// makes an old run issue other commands fails here.
func TestReplayRecordedHistories(t *testing.T) {
	if os.Getenv("POKERFLOOR_RECORD_HISTORIES") != "" {
		recordHistories(t)
	}
	data, err := os.ReadFile(filepath.Join(replayDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []recordedRun
	if err := json.Unmarshal(data, &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs) < 4 {
		t.Fatalf("%d recorded histories, want 4", len(runs))
	}
	for _, run := range runs {
		t.Run(run.File, func(t *testing.T) {
			f, err := os.Open(filepath.Join(replayDir, run.File))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			hist, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
			if err != nil {
				t.Fatal(err)
			}
			replayer := worker.NewWorkflowReplayer()
			replayer.RegisterWorkflow(TournamentWorkflow)
			replayer.RegisterWorkflow(SectionWorkflow)
			replayer.RegisterWorkflow(TableWorkflow)
			if err := replayer.ReplayWorkflowHistoryWithOptions(quietSDKLogger(), hist, worker.ReplayWorkflowHistoryOptions{
				OriginalExecution: workflow.Execution{ID: run.WorkflowID},
			}); err != nil {
				t.Fatalf("%s (%s, %d events) does not replay: %v", run.WorkflowID, run.Type, len(hist.Events), err)
			}
		})
	}
}

// recordHistories plays the short tournaments on a real server and writes their histories.
func recordHistories(t *testing.T) {
	c, _, _ := startServer(t, nil)
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var runs []recordedRun
	save := func(file, id, kind string) {
		hist, err := historyOf(ctx, c, id)
		if err != nil {
			t.Fatal(err)
		}
		data, err := protojson.Marshal(hist)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		out.Write(data)
		out.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(replayDir, file), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, recordedRun{File: file, WorkflowID: id, Type: kind})
	}
	if err := os.MkdirAll(replayDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, sections := range []int{0, 1} {
		spec := TournamentSpec{Name: "replay", PlayerCount: 27, TableSize: 9, Structure: turbo, Seed: 5, Simulation: true, Batch: 5,
			SectionTables: sections, BuyIn: 1100, Fee: 100, Rebuys: 1, RebuyLevel: 4, LateRegistrationLevel: 4}
		id := "replay-one"
		if sections > 0 {
			id = "replay-sections"
		}
		tour, err := StartTournament(ctx, c, id, "", spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tour.Register(ctx, RegisterRequest{Player: "late", Key: "late"}); err != nil {
			t.Fatal(err)
		}
		if err := tour.Rebuy(ctx, RebuyRequest{Player: "p0002", Key: "rebuy"}); err != nil {
			t.Logf("rebuy: %v", err) // refused by the table when his stack grew: recorded all the same
		}
		if _, err := tour.Sanction(ctx, SanctionRequest{Player: "p0003", Kind: floor.Warning, Reason: "slow", By: "td", Key: "warn"}); err != nil {
			t.Logf("sanction: %v", err)
		}
		if _, err := tour.Result(ctx); err != nil {
			t.Fatal(err)
		}
		if sections == 0 {
			save("one-section.json", id, "TournamentWorkflow")
			save("table.json", director.TableWorkflowID(id, 1), "TableWorkflow")
		} else {
			save("sections.json", id, "TournamentWorkflow")
			save("section.json", director.SectionWorkflowID(id, 1), "SectionWorkflow")
		}
	}
	data, err := json.MarshalIndent(runs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(replayDir, "index.json"), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
