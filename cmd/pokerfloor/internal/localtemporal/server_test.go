package localtemporal

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// greet is the trivial workflow the test runs.
func greet(_ workflow.Context, name string) (string, error) {
	return "hello " + name, nil
}

const taskQueue = "localtemporal-test"

// quiet is an SDK logger that drops everything, as the server's default one does.
var quiet = sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))

// The server persists to its data folder: a workflow completed before a stop is still there, with
// its history, after a restart on the same folder.
func TestRestartKeepsHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server twice")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	srv := startServer(t, dir)
	// One server to a folder: a second would fight the first for the database's one shard.
	if second, err := Start(Options{DataDir: dir}); err == nil {
		_ = second.Stop()
		t.Fatal("a second server started on a folder in use")
	} else if !strings.Contains(err.Error(), "in use") {
		t.Errorf("second server on the folder: %v, want it to say the folder is in use", err)
	}
	c := dial(t, srv)
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "greet-1", TaskQueue: taskQueue}, greet, "table 1")
	if err != nil {
		t.Fatal(err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil {
		t.Fatal(err)
	}
	if got != "hello table 1" {
		t.Fatalf("result %q", got)
	}
	runID := run.GetRunID()
	t.Logf("workflow done in %v", time.Since(began).Round(time.Millisecond))
	w.Stop()
	c.Close()
	stopping := time.Now()
	if err := srv.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	t.Logf("server stopped in %v", time.Since(stopping).Round(time.Millisecond))
	if _, err := os.Stat(filepath.Join(dir, DatabaseFile)); err != nil {
		t.Fatalf("no database file after the first run: %v", err)
	}

	// A second server on the same folder, with no worker: everything it knows comes from the file.
	srv = startServer(t, dir)
	defer func() {
		stopping := time.Now()
		if err := srv.Stop(); err != nil {
			t.Errorf("stop after restart: %v", err)
		}
		t.Logf("server stopped in %v", time.Since(stopping).Round(time.Millisecond))
	}()
	c = dial(t, srv)
	defer c.Close()

	restarted := time.Now()
	desc, err := c.DescribeWorkflowExecution(ctx, "greet-1", runID)
	t.Logf("described after restart in %v", time.Since(restarted).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("describe the earlier workflow after restart: %v", err)
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Errorf("status after restart = %v, want completed", st)
	}
	var types []enumspb.EventType
	iter := c.GetWorkflowHistory(ctx, "greet-1", runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.GetEventType())
	}
	if len(types) < 2 || types[0] != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED ||
		types[len(types)-1] != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		t.Fatalf("history after restart: %v", types)
	}
	// The result is in the history the restarted server read back.
	if err := c.GetWorkflow(ctx, "greet-1", runID).Get(ctx, &got); err != nil || got != "hello table 1" {
		t.Errorf("result after restart = %q, %v", got, err)
	}

	// And the restarted server runs new work at once: every service rejoined the cluster.
	w = worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(greet)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	began = time.Now()
	run, err = c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "greet-2", TaskQueue: taskQueue}, greet, "table 2")
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, &got); err != nil || got != "hello table 2" {
		t.Fatalf("workflow after restart = %q, %v", got, err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("the first workflow after a restart took %v", took)
	}
}

func TestStartNeedsADataFolder(t *testing.T) {
	if _, err := Start(Options{}); err == nil {
		t.Fatal("Start with no data folder succeeded")
	}
}

func startServer(t *testing.T, dir string) *Server {
	t.Helper()
	start := time.Now()
	srv, err := Start(Options{DataDir: dir, Log: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("server up at %s in %v", srv.HostPort(), time.Since(start).Round(time.Millisecond))
	return srv
}

func dial(t *testing.T, srv *Server) client.Client {
	t.Helper()
	c, err := srv.Dial(client.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testLog sends the server's log to the test's log with -v and POKERFLOOR_TEST_SERVER_LOG=1.
func testLog(t *testing.T) io.Writer {
	if os.Getenv("POKERFLOOR_TEST_SERVER_LOG") == "" {
		return nil
	}
	return &testWriter{t}
}

type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
