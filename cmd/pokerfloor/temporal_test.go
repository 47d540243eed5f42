package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
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

// TestChartEnvNamesAreFlags: every POKERFLOOR_<COMMAND>_<FLAG> the Helm chart sets on the manager,
// the worker and the embedded Temporal server names a flag the command has, so a renamed flag
// cannot leave the chart setting a variable nobody reads.
func TestChartEnvNamesAreFlags(t *testing.T) {
	templates, err := filepath.Glob(filepath.Join("..", "..", "charts", "pokerfloor", "templates", "*.yaml"))
	if err != nil || len(templates) == 0 {
		t.Fatalf("no chart templates: %v", err)
	}
	root := newRootCommand()
	envName := regexp.MustCompile(`\bPOKERFLOOR_(MANAGER|WORKER|TEMPORAL)_([A-Z0-9_]+)`)
	seen := 0
	for _, file := range templates {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range envName.FindAllStringSubmatch(string(data), -1) {
			seen++
			cmd, _, err := root.Find([]string{strings.ToLower(m[1])})
			if err != nil || cmd == root {
				t.Errorf("%s sets %s: there is no command %s", filepath.Base(file), m[0], strings.ToLower(m[1]))
				continue
			}
			flag := strings.ReplaceAll(strings.ToLower(m[2]), "_", "-")
			if cmd.Flags().Lookup(flag) == nil {
				t.Errorf("%s sets %s: pokerfloor %s has no flag --%s", filepath.Base(file), m[0], cmd.Name(), flag)
			}
		}
	}
	if seen < 20 {
		t.Errorf("found %d POKERFLOOR_* variables in the chart; want those of the manager, the worker and Temporal", seen)
	}
}
