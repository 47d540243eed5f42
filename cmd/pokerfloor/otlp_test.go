package main

import (
	"context"
	"net"
	"sync"
	"testing"

	collmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	colltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// otlpReceiver is an OTLP/gRPC endpoint, the protocol's own service definitions served in the
// test: the processes' exporters send it their spans and metrics as they would a collector.
type otlpReceiver struct {
	colltrace.UnimplementedTraceServiceServer

	addr string

	mu      sync.Mutex
	spans   []*tracepb.Span
	metrics int // metric data received, in all
}

// startOTLPReceiver listens on a free port until the test ends.
func startOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{addr: ln.Addr().String()}
	srv := grpc.NewServer()
	colltrace.RegisterTraceServiceServer(srv, r)
	collmetrics.RegisterMetricsServiceServer(srv, metricsService{r: r})
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)
	return r
}

// env is the environment that sends a process's telemetry here: plain gRPC, spans batched for a
// tenth of a second (the default 5 s would only make the test wait), metrics each half second.
func (r *otlpReceiver) env() []string {
	return []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + r.addr, "OTEL_EXPORTER_OTLP_INSECURE=true",
		"OTEL_BSP_SCHEDULE_DELAY=100", "OTEL_METRIC_EXPORT_INTERVAL=500"}
}

func (r *otlpReceiver) Export(_ context.Context, req *colltrace.ExportTraceServiceRequest) (*colltrace.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			r.spans = append(r.spans, ss.Spans...)
		}
	}
	return &colltrace.ExportTraceServiceResponse{}, nil
}

// metricsService answers the metrics' exports (its method has the trace service's name).
type metricsService struct {
	collmetrics.UnimplementedMetricsServiceServer
	r *otlpReceiver
}

func (m metricsService) Export(_ context.Context, req *collmetrics.ExportMetricsServiceRequest) (*collmetrics.ExportMetricsServiceResponse, error) {
	m.r.mu.Lock()
	defer m.r.mu.Unlock()
	for _, rm := range req.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			m.r.metrics += len(sm.Metrics)
		}
	}
	return &collmetrics.ExportMetricsServiceResponse{}, nil
}

// spanWith returns the first span received named name whose string attributes include want.
func (r *otlpReceiver) spanWith(name string, want map[string]string) *tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.spans {
		if s.Name != name {
			continue
		}
		ok := true
		for k, v := range want {
			found := false
			for _, a := range s.Attributes {
				if a.Key == k && a.Value.GetStringValue() == v {
					found = true
				}
			}
			ok = ok && found
		}
		if ok {
			return s
		}
	}
	return nil
}

func (r *otlpReceiver) metricCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.metrics
}
