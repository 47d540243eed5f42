package telemetry

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/temporaltest"
)

// probeWorkflow runs one activity: the least a workflow can do to show its spans and latencies.
func probeWorkflow(ctx workflow.Context, n int) (int, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out int
	err := workflow.ExecuteActivity(ctx, probeActivity, n).Get(ctx, &out)
	return out, err
}

func probeActivity(_ context.Context, n int) (int, error) { return n + 1, nil }

// TestTemporalTelemetry runs a workflow with an activity on a real Temporal server, through a
// client made with TemporalOptions (the worker made from it inherits its interceptor and
// metrics): the workflow start, the workflow run and the activity are spans, linked in one trace
// and bearing poker.tournament and poker.table from the workflow's ID (a table's); the SDK's
// workflow and activity latencies are histograms in seconds that counted the run.
func TestTemporalTelemetry(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	reader := sdkmetric.NewManualReader()
	tel, err := New(context.Background(), Config{SpanExporter: exp, MetricReader: reader})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	opts := tel.TemporalOptions(client.Options{Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))})
	srv := temporaltest.NewServer(temporaltest.WithT(t), temporaltest.WithBaseClientOptions(opts))
	c := srv.GetDefaultClient()
	w := worker.New(c, "probe", worker.Options{})
	w.RegisterWorkflow(probeWorkflow)
	w.RegisterActivity(probeActivity)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const id = "spring/main/uid-1/table-004"
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: "probe"}, probeWorkflow, 41)
	if err != nil {
		t.Fatal(err)
	}
	var out int
	if err := run.Get(ctx, &out); err != nil || out != 42 {
		t.Fatalf("the workflow returned %d, %v", out, err)
	}

	// The worker ends its spans as each task completes; the run's last is over once Get returned,
	// but wait for it rather than assume the order of two goroutines.
	want := []string{"StartWorkflow:probeWorkflow", "RunWorkflow:probeWorkflow", "StartActivity:probeActivity", "RunActivity:probeActivity"}
	found := map[string]tracetest.SpanStub{}
	for len(found) < len(want) {
		for _, s := range exp.GetSpans() {
			for _, n := range want {
				if s.Name == n {
					found[n] = s
				}
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("spans found: %d of %v", len(found), want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	trace := found[want[0]].SpanContext.TraceID()
	for _, n := range want {
		s := found[n]
		attrs := map[attribute.Key]string{}
		for _, a := range s.Attributes {
			attrs[a.Key] = a.Value.String()
		}
		if attrs[AttrTournament] != "spring/main/uid-1" || attrs[AttrTable] != id {
			t.Errorf("%s: poker.tournament %q, poker.table %q (attributes %v)", n, attrs[AttrTournament], attrs[AttrTable], s.Attributes)
		}
		if s.SpanContext.TraceID() != trace {
			t.Errorf("%s is in trace %s, the start in %s: the header did not carry the span", n, s.SpanContext.TraceID(), trace)
		}
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]uint64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok || !strings.HasPrefix(m.Name, "temporal_") {
				continue
			}
			if m.Unit != "s" || len(h.DataPoints) == 0 || h.DataPoints[0].Bounds[0] != temporalBuckets[0] {
				t.Errorf("%s: unit %q, buckets %v: want seconds, %v", m.Name, m.Unit, h.DataPoints[0].Bounds, temporalBuckets)
			}
			for _, dp := range h.DataPoints {
				counts[m.Name] += dp.Count
			}
		}
	}
	for _, name := range []string{"temporal_workflow_endtoend_latency", "temporal_workflow_task_execution_latency", "temporal_activity_execution_latency"} {
		if counts[name] == 0 {
			t.Errorf("%s counted nothing (histograms: %v)", name, counts)
		}
	}
	t.Logf("spans %v in one trace; histograms %v", want, counts)
}

// TestWorkflowAttributes: a workflow's ID names its tournament, and a table's its table.
func TestWorkflowAttributes(t *testing.T) {
	for _, c := range []struct{ id, tournament, table string }{
		{"run-20260101-120000.000", "run-20260101-120000.000", ""},
		{"run-1/table-007", "run-1", "run-1/table-007"},
		{"ns/main/uid/section-002", "ns/main/uid", ""},
		{"ns/main/uid/section-002/table-100", "ns/main/uid", "ns/main/uid/section-002/table-100"},
	} {
		got := map[attribute.Key]string{}
		for _, a := range WorkflowAttributes(c.id) {
			got[a.Key] = a.Value.AsString()
		}
		if got[AttrTournament] != c.tournament || got[AttrTable] != c.table {
			t.Errorf("%s: tournament %q, table %q; want %q, %q", c.id, got[AttrTournament], got[AttrTable], c.tournament, c.table)
		}
	}
}
