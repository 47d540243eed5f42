// Package telemetry is pokerfloor's OpenTelemetry: the metrics of the tables and the tournament
// (hands, hands per second, action latency, players left, tables active, moves, eliminations,
// level, reports and their latency, WebSocket connections), served to Prometheus on /metrics and
// sent by OTLP when the standard OTEL_EXPORTER_OTLP_* variables name a collector; and a trace span
// for each hand, its actions as events, with the poker.tournament, poker.table and poker.hand
// attributes, and one for each report. It watches the tables through their runtime's hooks
// (engine/host's Observe) and their Reporter, which it wraps; it never changes what it sees, and no
// span or metric holds a hole card or anything that predicts a deal.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// The attributes that link a tournament's metrics and spans.
const (
	AttrTournament = attribute.Key("poker.tournament")
	AttrTable      = attribute.Key("poker.table")
	AttrHand       = attribute.Key("poker.hand")
	// AttrSection is a section's workflow ID, on the spans of a tournament of sections.
	AttrSection = attribute.Key("poker.section")
)

// Config says where the telemetry goes.
type Config struct {
	// Service is the service.name of the resource (default "pokerfloor").
	Service string
	// Prometheus keeps the metrics for Handler (/metrics), with the Go runtime's and the process's.
	Prometheus bool
	// Registerer, if set, receives the metrics for Prometheus instead of a registry of their own
	// (the manager: controller-runtime's registry, so that its /metrics serves the reconciles'
	// metrics and these on one endpoint). Handler then serves nothing: the registry's owner does.
	Registerer prometheus.Registerer
	// Global makes these providers OpenTelemetry's global ones, for the code that takes its
	// tracer from otel.GetTracerProvider (the reconcilers' spans, controllers/telemetry.go).
	Global bool
	// OTLP sends metrics and traces by OTLP/gRPC to the collector the standard environment names
	// (OTEL_EXPORTER_OTLP_ENDPOINT and the others); OTLPFromEnv says whether it names one.
	OTLP bool
	// SpanExporter, if set, receives every span as it ends (tests: tracetest.InMemoryExporter).
	SpanExporter sdktrace.SpanExporter
	// MetricReader, if set, reads the metrics too (tests: sdkmetric.NewManualReader).
	MetricReader sdkmetric.Reader
}

// OTLPFromEnv reports whether the environment names an OTLP collector.
func OTLPFromEnv() bool {
	for _, v := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		if os.Getenv(v) != "" {
			return true
		}
	}
	return false
}

// Telemetry holds the providers and the instruments. Its methods are safe for concurrent use.
type Telemetry struct {
	meters   *sdkmetric.MeterProvider
	tracers  *sdktrace.TracerProvider // nil: spans go nowhere, and cost nothing
	tracer   trace.Tracer
	registry *prometheus.Registry

	hands        metric.Int64Counter
	actionTime   metric.Float64Histogram
	moves        metric.Int64Counter
	eliminations metric.Int64Counter
	reports      metric.Int64Counter
	reportTime   metric.Float64Histogram
	websockets   metric.Int64UpDownCounter

	rate   *rateWindow
	field  atomic.Pointer[Field]
	fields atomic.Pointer[func(context.Context) []Field]
}

// Field is the tournament as its last reading gave it, for the gauges.
type Field struct {
	Tournament  string
	Entries     int
	PlayersLeft int
	Tables      int
	Level       int
}

// Histogram buckets, in seconds: an action takes from a bot's microseconds to a person's
// half-minute; a report, a Temporal Update, milliseconds to seconds.
var (
	actionBuckets = []float64{0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 20, 30, 60}
	reportBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}
)

// New starts the providers. Shutdown flushes and stops them.
func New(ctx context.Context, cfg Config) (*Telemetry, error) {
	if cfg.Service == "" {
		cfg.Service = "pokerfloor"
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(cfg.Service)))
	if err != nil {
		return nil, fmt.Errorf("telemetry resource: %w", err)
	}
	t := &Telemetry{rate: newRateWindow(11, time.Now)} // 10 whole seconds and the current one
	readers := []sdkmetric.Option{sdkmetric.WithView(temporalView)}
	if cfg.Prometheus || cfg.Registerer != nil {
		reg := cfg.Registerer
		if reg == nil {
			t.registry = prometheus.NewRegistry()
			t.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
			reg = t.registry
		}
		exp, err := otelprom.New(otelprom.WithRegisterer(reg))
		if err != nil {
			return nil, fmt.Errorf("prometheus exporter: %w", err)
		}
		readers = append(readers, sdkmetric.WithReader(exp))
	}
	if cfg.MetricReader != nil {
		readers = append(readers, sdkmetric.WithReader(cfg.MetricReader))
	}
	var spans []sdktrace.TracerProviderOption
	if cfg.SpanExporter != nil {
		spans = append(spans, sdktrace.WithSyncer(cfg.SpanExporter))
	}
	if cfg.OTLP {
		me, err := otlpmetricgrpc.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("otlp metrics: %w", err)
		}
		readers = append(readers, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(me)))
		te, err := otlptracegrpc.New(ctx)
		if err != nil {
			return nil, fmt.Errorf("otlp traces: %w", err)
		}
		spans = append(spans, sdktrace.WithBatcher(te))
	}
	t.meters = sdkmetric.NewMeterProvider(append(readers, sdkmetric.WithResource(res))...)
	if len(spans) > 0 {
		t.tracers = sdktrace.NewTracerProvider(append(spans, sdktrace.WithResource(res))...)
		t.tracer = t.tracers.Tracer("github.com/pokerfloor/pokerfloor")
	} else {
		t.tracer = noop.NewTracerProvider().Tracer("")
	}
	if err := t.instruments(); err != nil {
		_ = t.meters.Shutdown(ctx)
		return nil, err
	}
	if cfg.Global {
		otel.SetMeterProvider(t.meters)
		if t.tracers != nil {
			otel.SetTracerProvider(t.tracers)
		}
	}
	t.websockets.Add(ctx, 0) // the series exists from the start: no connection is 0, not absent
	return t, nil
}

func (t *Telemetry) instruments() error {
	m := t.meters.Meter("github.com/pokerfloor/pokerfloor")
	var errs [12]error
	t.hands, errs[0] = m.Int64Counter("pokerfloor.hands", metric.WithDescription("Hands played and acknowledged by the tournament"))
	t.actionTime, errs[1] = m.Float64Histogram("pokerfloor.action.latency", metric.WithUnit("s"),
		metric.WithDescription("Time from a player's turn to his action (a decision, or the action clock's expiry)"),
		metric.WithExplicitBucketBoundaries(actionBuckets...))
	t.moves, errs[2] = m.Int64Counter("pokerfloor.moves", metric.WithDescription("Players moved to another table (balancing R3, a table breaking R4)"))
	t.eliminations, errs[3] = m.Int64Counter("pokerfloor.eliminations", metric.WithDescription("Players eliminated"))
	t.reports, errs[4] = m.Int64Counter("pokerfloor.reports", metric.WithDescription("Reports of the tables to the tournament, by outcome"))
	t.reportTime, errs[5] = m.Float64Histogram("pokerfloor.report.latency", metric.WithUnit("s"),
		metric.WithDescription("Time a table's report takes to be answered"), metric.WithExplicitBucketBoundaries(reportBuckets...))
	t.websockets, errs[6] = m.Int64UpDownCounter("pokerfloor.websocket.connections", metric.WithDescription("Open WebSocket connections to the tables"))
	var rate metric.Float64ObservableGauge
	rate, errs[7] = m.Float64ObservableGauge("pokerfloor.hands.per_second", metric.WithDescription("Hands played per second over the last 10 seconds"))
	var left, entries, tables, level metric.Int64ObservableGauge
	left, errs[8] = m.Int64ObservableGauge("pokerfloor.players.left", metric.WithDescription("Players still in the tournament"))
	entries, errs[9] = m.Int64ObservableGauge("pokerfloor.entries", metric.WithDescription("Entries in the tournament"))
	tables, errs[10] = m.Int64ObservableGauge("pokerfloor.tables.active", metric.WithDescription("Tables open"))
	level, errs[11] = m.Int64ObservableGauge("pokerfloor.level", metric.WithDescription("Blind level being played (or coming after a break)"))
	if err := errors.Join(errs[:]...); err != nil {
		return fmt.Errorf("telemetry instruments: %w", err)
	}
	_, err := m.RegisterCallback(func(ctx context.Context, o metric.Observer) error {
		o.ObserveFloat64(rate, t.rate.PerSecond())
		var fields []Field
		if src := t.fields.Load(); src != nil {
			fields = (*src)(ctx)
		} else if f := t.field.Load(); f != nil {
			fields = []Field{*f}
		}
		for _, f := range fields {
			at := metric.WithAttributes(AttrTournament.String(f.Tournament))
			o.ObserveInt64(left, int64(f.PlayersLeft), at)
			o.ObserveInt64(entries, int64(f.Entries), at)
			o.ObserveInt64(tables, int64(f.Tables), at)
			o.ObserveInt64(level, int64(f.Level), at)
		}
		return nil
	}, rate, left, entries, tables, level)
	return err
}

// tracerOf is the tracer of an instrumentation scope (a no-op one when spans go nowhere).
func (t *Telemetry) tracerOf(scope string) trace.Tracer {
	if t.tracers == nil {
		return noop.NewTracerProvider().Tracer(scope)
	}
	return t.tracers.Tracer(scope)
}

// SetField records the tournament's latest reading for the gauges.
func (t *Telemetry) SetField(f Field) { t.field.Store(&f) }

// SetFields makes the gauges read every tournament from fields at each collection instead (the
// manager: the Tournaments' status in its cache), in place of SetField's one.
func (t *Telemetry) SetFields(fields func(context.Context) []Field) { t.fields.Store(&fields) }

// Handler serves the metrics in Prometheus' text format (404 without Config.Prometheus, or with
// Config.Registerer).
func (t *Telemetry) Handler() http.Handler {
	if t.registry == nil {
		return http.NotFoundHandler()
	}
	return promhttp.HandlerFor(t.registry, promhttp.HandlerOpts{})
}

// Shutdown flushes the spans and metrics and stops the providers.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	var errs []error
	if t.tracers != nil {
		errs = append(errs, t.tracers.Shutdown(ctx))
	}
	errs = append(errs, t.meters.Shutdown(ctx))
	return errors.Join(errs...)
}

// CountWebSockets counts the WebSocket connections that h serves (requests to a path ending in
// /ws that ask for the upgrade) while they are open: a table server's handler holds the request
// for the life of its connection.
func (t *Telemetry) CountWebSockets(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/ws") || !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			h.ServeHTTP(w, r)
			return
		}
		ctx := context.Background() // the request's ends before the decrement is recorded
		t.websockets.Add(ctx, 1)
		defer t.websockets.Add(ctx, -1)
		h.ServeHTTP(w, r)
	})
}

// rateWindow counts events in one-second buckets: the last n-1 whole seconds and the current one.
type rateWindow struct {
	mu     sync.Mutex
	now    func() time.Time
	counts []int64
	secs   []int64 // the Unix second each bucket counts
}

func newRateWindow(n int, now func() time.Time) *rateWindow {
	return &rateWindow{now: now, counts: make([]int64, n), secs: make([]int64, n)}
}

func (w *rateWindow) Add(n int64) {
	sec := w.now().Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	i := int(sec % int64(len(w.counts)))
	if w.secs[i] != sec {
		w.secs[i], w.counts[i] = sec, 0
	}
	w.counts[i] += n
}

// PerSecond is the mean over the last n-1 whole seconds (the current one left out: it is not over).
func (w *rateWindow) PerSecond() float64 {
	sec := w.now().Unix()
	w.mu.Lock()
	defer w.mu.Unlock()
	var sum int64
	whole := int64(len(w.counts) - 1)
	for i := range w.counts {
		if s := w.secs[i]; s < sec && s >= sec-whole {
			sum += w.counts[i]
		}
	}
	return float64(sum) / float64(whole)
}
