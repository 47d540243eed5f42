package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// lockedBuffer collects a command's stderr, written by the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// freeLoopbackPort is a port free on 127.0.0.1 a moment ago.
func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestTemporalServesTheNamespace runs `pokerfloor temporal` in-process, through the same function
// as the binary, configured by POKERFLOOR_TEMPORAL_* with the frontend on every interface, as the
// chart's StatefulSet runs it: /readyz
// says not ready or ready, never nothing, a Temporal SDK client connects and describes the
// namespace, and a cancel (SIGTERM) stops it in order with the database kept in --db.
func TestTemporalServesTheNamespace(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	frontend, health := freeLoopbackPort(t), freeLoopbackPort(t)
	db := filepath.Join(t.TempDir(), "temporal")
	const namespace = "pokerfloor-chart"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &lockedBuffer{}
	done := make(chan int, 1)
	t.Setenv("POKERFLOOR_TEMPORAL_ADDRESS", "0.0.0.0:"+strconv.Itoa(frontend))
	t.Setenv("POKERFLOOR_TEMPORAL_HEALTH_ADDRESS", "127.0.0.1:"+strconv.Itoa(health))
	t.Setenv("POKERFLOOR_TEMPORAL_NAMESPACE", namespace)
	t.Setenv("POKERFLOOR_TEMPORAL_DB", db)
	go func() { done <- run(ctx, []string{"temporal"}, io.Discard, stderr) }()

	// Deadlines hold on a machine many times slower: the server starts in seconds here.
	readyz := "http://127.0.0.1:" + strconv.Itoa(health) + "/readyz"
	deadline := time.Now().Add(4 * time.Minute)
	for {
		resp, err := http.Get(readyz)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
			if resp.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(string(body), "not ready: ") {
				t.Fatalf("/readyz answered %d %q; want 503 not ready or 200", resp.StatusCode, body)
			}
		}
		select {
		case code := <-done:
			t.Fatalf("pokerfloor temporal ended with status %d before it was ready:\n%s", code, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz not ready after 4 minutes (last error %v):\n%s", err, stderr.String())
		}
	}

	c, err := client.Dial(client.Options{HostPort: "127.0.0.1:" + strconv.Itoa(frontend), Namespace: namespace})
	if err != nil {
		t.Fatalf("dialing the frontend: %v", err)
	}
	callCtx, callCancel := context.WithTimeout(ctx, time.Minute)
	resp, err := c.WorkflowService().DescribeNamespace(callCtx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
	callCancel()
	c.Close()
	if err != nil {
		t.Fatalf("describing namespace %s: %v", namespace, err)
	}
	if got := resp.GetNamespaceInfo().GetName(); got != namespace {
		t.Errorf("described namespace %q, want %q", got, namespace)
	}

	cancel() // what SIGTERM does in main
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("pokerfloor temporal stopped with status %d, want 0:\n%s", code, stderr.String())
		}
	case <-time.After(3 * time.Minute):
		t.Fatalf("pokerfloor temporal still running 3 minutes after the cancel:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(db, "temporal.db")); err != nil {
		t.Errorf("no database in --db: %v", err)
	}
	if !strings.Contains(stderr.String(), `"msg":"temporal server started"`) {
		t.Errorf("stderr does not log the start:\n%s", stderr.String())
	}
}

func TestTemporalRefusesBadFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--address", "localhost:7233"}, `"localhost" is not an IP address; expected IP:PORT, like 0.0.0.0:7233`},
		{[]string{"--address", "0.0.0.0"}, "expected IP:PORT"},
		{[]string{"--address", "0.0.0.0:99999"}, "expected 1 to 65535"},
		{[]string{"--namespace", ""}, "--namespace is empty"},
		{[]string{"--db", file}, "is a file; expected a folder"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), append([]string{"temporal", "--health-address", "0"}, tc.args...), io.Discard, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("temporal %v: status %d, %q; want 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}
