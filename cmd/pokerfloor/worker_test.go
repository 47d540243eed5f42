package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"go.temporal.io/server/temporaltest"
)

// TestWorkerMetrics runs the worker command against a real Temporal server (and envtest for its
// Kubernetes client) and reads its /metrics on --metrics-address: Temporal's own metrics of the
// worker and its client, through the OpenTelemetry instruments.
func TestWorkerMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("starts envtest and a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	k := startKube(t)
	ts := temporaltest.NewServer(temporaltest.WithT(t))
	metrics := freeAddress(t)
	wctx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	go func() {
		done <- run(wctx, []string{"worker", "--kubeconfig", k.kubeconfig, "--temporal-address", ts.GetFrontendHostPort(),
			"--namespace", ts.GetDefaultNamespace(), "--health-address", "0", "--metrics-address", metrics, "--log-level", "error"}, io.Discard, io.Discard)
	}()
	defer func() {
		stop()
		if code := <-done; code != 0 {
			t.Errorf("the worker exited %d", code)
		}
	}()
	want := []string{"temporal_worker_start_total{", "temporal_request_total{", "temporal_request_latency_seconds_bucket{"}
	for {
		text, missing := metricsText("http://"+metrics), []string(nil)
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the worker's /metrics lacks %q", missing)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the worker's /metrics at %s has %q", metrics, want)
}

// TestWorkerRefusesANegativeCache: --workflow-cache takes a number of runs, or 0 for one event of
// 100,000 entries; a negative one is refused before anything is dialled, saying what is expected.
func TestWorkerRefusesANegativeCache(t *testing.T) {
	code, out, errOut := runCommand(t, "worker", "--workflow-cache", "-5", "--temporal-address", "127.0.0.1:1")
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
	}
	checkOneLineError(t, errOut, fmt.Sprintf("--workflow-cache -5: expected a number of workflow runs, or 0 for %d", defaultWorkflowCache))
}
