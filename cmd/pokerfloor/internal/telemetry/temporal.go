package telemetry

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/client"
	temporalotel "go.temporal.io/sdk/contrib/opentelemetry"
	"go.temporal.io/sdk/interceptor"
)

// temporalScope is the instrumentation scope of the Temporal SDK's metrics and spans.
const temporalScope = "go.temporal.io/sdk"

// temporalBuckets are the SDK's timers' (workflow and activity latency, requests), in seconds:
// a request or an activity takes milliseconds, a table's workflow lives for hours.
var temporalBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 14400}

// temporalView gives the SDK's histograms buckets in seconds (OpenTelemetry's default ones,
// 0 to 10,000, are for milliseconds).
var temporalView = sdkmetric.NewView(
	sdkmetric.Instrument{Kind: sdkmetric.InstrumentKindHistogram, Scope: instrumentation.Scope{Name: temporalScope}},
	sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{Boundaries: temporalBuckets}})

// TemporalOptions returns o with Temporal's own OpenTelemetry integration
// (go.temporal.io/sdk/contrib/opentelemetry) added: the SDK's metrics (workflow, workflow task
// and activity latency, requests, polls) through this Telemetry's meters, and a tracing
// interceptor that makes a span of each workflow start, signal, query, update, workflow run and
// activity, carried across processes in Temporal's headers. The interceptor reaches the workers
// made from the client, so one call wires a process. Each span bearing a workflow ID gets
// poker.tournament (and poker.table for a table's workflow) read from it.
func (t *Telemetry) TemporalOptions(o client.Options) client.Options {
	o.MetricsHandler = temporalotel.NewMetricsHandler(temporalotel.MetricsHandlerOptions{
		Meter:                t.meters.Meter(temporalScope),
		UseMonotonicCounters: true,
		// An instrument the meter refuses is a programming error of ours or the SDK's; a
		// process that plays tournaments goes on without that metric.
		OnError: func(error) {},
	})
	tracing, err := temporalotel.NewTracingInterceptor(temporalotel.TracerOptions{
		Tracer: t.tracerOf(temporalScope),
		SpanStarter: func(ctx context.Context, tr trace.Tracer, name string, opts ...trace.SpanStartOption) trace.Span {
			_, span := tr.Start(ctx, name, opts...)
			return pokerSpan{span}
		},
	})
	if err != nil {
		// The contrib module errs on no options (v0.8.1 never does): a programming error.
		panic(fmt.Sprintf("temporal tracing: %v", err))
	}
	o.Interceptors = append(append([]interceptor.ClientInterceptor(nil), o.Interceptors...), tracing)
	return o
}

// pokerSpan is a span of the Temporal interceptor. The interceptor sets the workflow's ID as the
// tag temporalWorkflowID after the span starts; pokerSpan adds the attributes that link it to
// the tournament's other spans beside it.
type pokerSpan struct{ trace.Span }

func (s pokerSpan) SetAttributes(kv ...attribute.KeyValue) {
	for _, a := range kv {
		if a.Key == "temporalWorkflowID" {
			kv = append(kv, WorkflowAttributes(a.Value.AsString())...)
			break
		}
	}
	s.Span.SetAttributes(kv...)
}

// WorkflowAttributes are the poker attributes of a workflow's ID: a table's workflow
// (PARENT/table-NNN) is poker.table, a section's (TOURNAMENT/section-NNN) poker.section, and
// what is left, any other workflow's ID, is the tournament's: poker.tournament.
func WorkflowAttributes(id string) []attribute.KeyValue {
	var kv []attribute.KeyValue
	if i := strings.LastIndex(id, "/table-"); i > 0 {
		kv = append(kv, AttrTable.String(id))
		id = id[:i]
	}
	if i := strings.LastIndex(id, "/section-"); i > 0 {
		kv = append(kv, AttrSection.String(id))
		id = id[:i]
	}
	return append(kv, AttrTournament.String(id))
}
