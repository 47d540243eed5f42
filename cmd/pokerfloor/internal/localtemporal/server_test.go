package localtemporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
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
	} else if inUse := (*InUseError)(nil); !errors.As(err, &inUse) || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second server on the folder: %v, want an *InUseError saying the folder is in use", err)
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
	// The bug this guards against made it wait 50 seconds for the earlier server's members; 30
	// seconds holds on a machine many times slower than this one, where it takes milliseconds.
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("the first workflow after a restart took %v", took)
	}
}

// childEnv makes the test binary run greetOnce instead of the tests: a database made by another
// process, as the local run's next process finds it.
const childEnv = "LOCALTEMPORAL_TEST_GREET_IN"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		if err := greetOnce(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// greetOnce runs the greet workflow to its end on a server on dir.
func greetOnce(dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv, err := Start(Options{DataDir: dir})
	if err != nil {
		return err
	}
	defer func() { _ = srv.Stop() }()
	c, err := srv.Dial(client.Options{Logger: quiet})
	if err != nil {
		return err
	}
	defer c.Close()
	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(greet)
	if err := w.Start(); err != nil {
		return err
	}
	defer w.Stop()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "greet-1", TaskQueue: taskQueue}, greet, "table 1")
	if err != nil {
		return err
	}
	return run.Get(ctx, nil)
}

// Reset starts the server on an empty database: what another process left in the folder is gone.
// A database this process opened cannot be reset (the SQLite plugin holds it), and says so.
func TestResetStartsEmpty(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Temporal servers")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the other process: %v\n%s", err, out)
	}
	srv, err := Start(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, srv)
	if _, err := c.DescribeWorkflowExecution(ctx, "greet-1", ""); err != nil {
		t.Fatalf("describe greet-1 before the reset: %v", err)
	}
	c.Close()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if srv, err := Start(Options{DataDir: dir, Reset: true}); err == nil {
		_ = srv.Stop()
		t.Fatal("reset a database this process opened")
	} else if !strings.Contains(err.Error(), "this process has opened it") {
		t.Errorf("reset of a database this process opened: %v", err)
	}

	// A fresh folder, as the next local run finds it: made by another process, reset by this one.
	dir = t.TempDir()
	cmd = exec.CommandContext(ctx, os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the other process: %v\n%s", err, out)
	}
	srv, err = Start(Options{DataDir: dir, Reset: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Stop() }()
	c = dial(t, srv)
	defer c.Close()
	_, err = c.DescribeWorkflowExecution(ctx, "greet-1", "")
	if nf := (*serviceerror.NotFound)(nil); !errors.As(err, &nf) {
		t.Errorf("describe greet-1 after a reset: %v, want not found", err)
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
