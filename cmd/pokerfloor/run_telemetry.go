package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/telemetry"
	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.temporal.io/sdk/client"
)

// The local run's OpenTelemetry (package telemetry): with --metrics ADDR the metrics at
// http://ADDR/metrics, with --web at /metrics of the web address too, and by OTLP to the collector
// the OTEL_EXPORTER_OTLP_* environment names (traces as well: a span for each hand and report).

// metricsSettings are --metrics'.
type metricsSettings struct {
	ln   net.Listener // nil: no address of its own
	otlp bool         // the environment names an OTLP collector
	out  io.Writer    // receives the metrics' address
	// spans, if set, receives the spans (tests).
	spans telemetry.Config
}

func addMetricsFlags(f *pflag.FlagSet) {
	f.String("metrics", "", "serve the OpenTelemetry metrics for Prometheus at http://ADDR/metrics (also at /metrics of --web's address); OTEL_EXPORTER_OTLP_ENDPOINT sends metrics and traces by OTLP")
}

func parseMetricsSettings(v *viper.Viper) (metricsSettings, error) {
	ln, err := listenFlag(v, "metrics")
	return metricsSettings{ln: ln, otlp: telemetry.OTLPFromEnv(), out: os.Stderr}, err
}

// startTelemetry starts the run's telemetry, or returns nil when nothing would read it.
func startTelemetry(ctx context.Context, s runSettings) (*telemetry.Telemetry, error) {
	m := s.Metrics
	cfg := m.spans
	cfg.Prometheus = m.ln != nil || s.Web.ln != nil
	cfg.OTLP = m.otlp
	if !cfg.Prometheus && !cfg.OTLP && cfg.SpanExporter == nil {
		return nil, nil
	}
	tel, err := telemetry.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	return tel, nil
}

// temporalOptions adds Temporal's metrics and tracing interceptor to the run's client options when
// the run has telemetry (its workflows' and activities' latency and spans: the worker is made from
// this client).
func temporalOptions(tel *telemetry.Telemetry, o client.Options) client.Options {
	if tel == nil {
		return o
	}
	return tel.TemporalOptions(o)
}

// tableTournaments remembers each hosted table's tournament, for the counting reporter, which
// wraps the run's reporter before any table (or tournament ID) exists.
type tableTournaments struct{ m sync.Map }

func (tt *tableTournaments) of(tableID string) string {
	v, _ := tt.m.Load(tableID)
	s, _ := v.(string)
	return s
}

// instrumentReporter counts and times the reports to the tournament (before the local run's
// pacing, which would count as latency): reporter is the tables' Temporal reporter.
func instrumentReporter(tel *telemetry.Telemetry, reporter report.Reporter, tt *tableTournaments) report.Reporter {
	if tel == nil {
		return reporter
	}
	return tel.Reporter(tt.of, reporter)
}

// instrumentTables makes every table of the run trace its hands and time its actions; tables is
// the RunTable chosen so far (bot tables, with hand histories when history is set, or the served
// tables of served).
func instrumentTables(tel *telemetry.Telemetry, tables workflows.RunTable, served *playHost, history bool, tt *tableTournaments, log *slog.Logger) workflows.RunTable {
	if tel == nil {
		return tables
	}
	if served != nil {
		served.mu.Lock()
		served.observe = func(t workflows.HostedTable) func(*engine.Table) { return tel.Table(t.Tournament, t.ID).Observe }
		served.countWS = tel.CountWebSockets
		served.mu.Unlock()
	} else {
		tables = observedBotTables(log, history, tel)
	}
	return func(ctx context.Context, t workflows.HostedTable, c report.Reporter) error {
		tt.m.Store(t.ID, t.Tournament)
		return tables(ctx, t, c)
	}
}

// observedBotTables is workflows.BotTables (historyTables with history) with each hand traced.
func observedBotTables(logger *slog.Logger, history bool, tel *telemetry.Telemetry) workflows.RunTable {
	return func(ctx context.Context, t workflows.HostedTable, c report.Reporter) error {
		return workflows.RunBots(ctx, t, c, host.Options{Logger: logger, History: history, Observe: tel.Table(t.Tournament, t.ID).Observe})
	}
}

// serveMetrics serves /metrics on --metrics' address and keeps the tournament's gauges up to date
// from its progress, until the returned stop (which then calls stop, and shuts the telemetry down).
func (m metricsSettings) serveMetrics(tel *telemetry.Telemetry, t *workflows.Tournament, stop func(), log *slog.Logger) func() {
	if tel == nil {
		return stop
	}
	ctx, cancel := context.WithCancel(context.Background())
	var waits []chan struct{}
	goWait := func(f func()) {
		done := make(chan struct{})
		waits = append(waits, done)
		go func() { defer close(done); f() }()
	}
	goWait(func() { watchField(ctx, t, tel) })
	var srv *http.Server
	if m.ln != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", tel.Handler())
		srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		goWait(func() {
			if err := srv.Serve(m.ln); err != nil && !errors.Is(err, http.ErrServerClosed) && log != nil {
				log.Error("metrics", "err", err)
			}
		})
		fmt.Fprintf(m.out, "metrics at http://%s/metrics\n", m.ln.Addr())
	}
	return func() {
		cancel()
		if srv != nil {
			sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = srv.Shutdown(sctx)
			scancel()
		}
		for _, w := range waits {
			<-w
		}
		stop()
		sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer scancel()
		if err := tel.Shutdown(sctx); err != nil && log != nil {
			log.Warn("telemetry shutdown", "err", err)
		}
	}
}

// watchField reads the tournament's progress each second for the gauges, until ctx ends.
func watchField(ctx context.Context, t *workflows.Tournament, tel *telemetry.Telemetry) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		p, err := t.Progress(qctx)
		cancel()
		if err == nil {
			tel.SetField(telemetry.Field{Tournament: t.ID, Entries: p.Entries, PlayersLeft: p.PlayersLeft, Tables: p.Tables, Level: p.Level})
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
