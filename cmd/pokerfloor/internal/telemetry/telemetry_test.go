package telemetry

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// playTable plays a table of six bots to one winner (seeded, at full speed) with the telemetry's
// observer and reporter, and returns the reporter's players out.
func playTable(t *testing.T, tel *Telemetry) *host.LocalReporter {
	t.Helper()
	director, err := host.NewLocalReporter(host.LocalConfig{
		TableID: "table-007", Config: engine.Config{Seats: 6},
		Levels:        []engine.Level{{SmallBlind: 10, BigBlind: 20}, {SmallBlind: 25, BigBlind: 50, Ante: 5}, {SmallBlind: 50, BigBlind: 100, Ante: 10}},
		HandsPerLevel: 20, Players: []string{"ann", "bob", "cat", "dan", "eve", "fay"}, Stack: 1500, Batch: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	obs := tel.Table("spring-main", "table-007")
	r := host.NewRunner("table-007", tel.Reporter(func(string) string { return "spring-main" }, director), bot.Players(7, bot.KindRandom, bot.KindStrength),
		host.Options{Deck: engine.NewSeededDeck(7), Clock: host.NewFakeClock(time.Time{}), Observe: obs.Observe})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := r.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return director
}

// TestHandSpans plays a table with an in-memory span exporter: one span a hand, named poker.hand,
// with the tournament, the table and the hand number as attributes and the hand's actions as
// events, and no hole card in any of them; and a poker.report span for each report.
func TestHandSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tel, err := New(context.Background(), Config{SpanExporter: exp})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	director := playTable(t, tel)
	played := director.State().HandNumber

	hands := map[int64]bool{}
	reports, actions := 0, 0
	for _, s := range exp.GetSpans() {
		attrs := map[attribute.Key]attribute.Value{}
		for _, a := range s.Attributes {
			attrs[a.Key] = a.Value
		}
		if attrs[AttrTournament].AsString() != "spring-main" || attrs[AttrTable].AsString() != "table-007" {
			t.Fatalf("span %s without its tournament and table: %v", s.Name, s.Attributes)
		}
		switch s.Name {
		case "poker.report":
			reports++
			continue
		case "poker.hand":
		default:
			t.Fatalf("a span named %q", s.Name)
		}
		n := attrs[AttrHand].AsInt64()
		if n < 1 || hands[n] {
			t.Fatalf("hand span with poker.hand %d (seen: %v)", n, hands[n])
		}
		hands[n] = true
		if attrs["poker.hand.phase"].AsString() != "complete" {
			t.Errorf("hand %d ended %q", n, attrs["poker.hand.phase"].AsString())
		}
		var kinds []string
		for _, e := range s.Events {
			kinds = append(kinds, e.Name)
			switch e.Name {
			case "hole":
				t.Fatalf("hand %d's span holds hole cards", n)
			case "fold", "check", "call", "bet", "raise":
				actions++
			}
		}
		if len(kinds) < 4 || kinds[0] != "hand" || kinds[len(kinds)-1] != "end" {
			t.Errorf("hand %d's events: %v", n, kinds)
		}
	}
	if int64(len(hands)) != played {
		t.Errorf("%d hand spans for %d hands played", len(hands), played)
	}
	if reports == 0 || actions < int(played) {
		t.Errorf("%d report spans, %d actions as events over %d hands", reports, actions, played)
	}
	t.Logf("%d hands: %d hand spans, %d actions as events, %d report spans", played, len(hands), actions, reports)
}

// TestMetrics reads the metrics after a table has played, with a manual reader and on the
// Prometheus endpoint.
func TestMetrics(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tel, err := New(context.Background(), Config{Prometheus: true, MetricReader: reader})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	tel.SetField(Field{Tournament: "spring-main", Entries: 6, PlayersLeft: 1, Tables: 1, Level: 3})
	director := playTable(t, tel)
	played := director.State().HandNumber

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	sums := map[string]int64{}
	var actions uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					sums[m.Name] += p.Value
				}
			case metricdata.Histogram[float64]:
				if m.Name == "pokerfloor.action.latency" {
					for _, p := range d.DataPoints {
						actions += p.Count
					}
				}
			}
		}
	}
	if sums["pokerfloor.hands"] != played || sums["pokerfloor.eliminations"] != 5 {
		t.Errorf("hands %d (played %d), eliminations %d (5 out)", sums["pokerfloor.hands"], played, sums["pokerfloor.eliminations"])
	}
	if sums["pokerfloor.reports"] == 0 || actions < uint64(played) {
		t.Errorf("reports %d, actions timed %d", sums["pokerfloor.reports"], actions)
	}

	srv := httptest.NewServer(tel.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{
		`pokerfloor_hands_total{`, `pokerfloor_eliminations_total{`, `pokerfloor_action_latency_seconds_bucket{`,
		`pokerfloor_report_latency_seconds_count{`, `pokerfloor_reports_total{`, `pokerfloor_players_left{`,
		`pokerfloor_tables_active{`, `pokerfloor_level{`, `pokerfloor_entries{`, `pokerfloor_hands_per_second`,
		`go_goroutines `, `process_resident_memory_bytes `,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics has no %s", want)
		}
	}
	if !regexp.MustCompile(`pokerfloor_players_left\{[^}]*poker_tournament="spring-main"[^}]*\} 1\n`).Match(body) {
		t.Errorf("/metrics: no players left gauge of 1 for spring-main:\n%s", grep(string(body), "players_left"))
	}
}

func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestMovesAndRecounts: a hand reported again is counted once, and a player the State seats who
// was not at the table is a move.
func TestMovesAndRecounts(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tel, err := New(context.Background(), Config{MetricReader: reader})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	states := []report.State{
		{Seats: []report.SeatState{{Player: "a"}, {Player: "b"}}},
		{Seats: []report.SeatState{{Player: "a"}, {Player: "b"}, {Player: "c"}}}, // c moved in
		{Seats: []report.SeatState{{Player: "a"}, {Player: "c"}}},                // b busted
		{Seats: []report.SeatState{{Player: "a"}, {Player: "c"}}},
	}
	k := 0
	r := tel.Reporter(func(string) string { return "t" }, reporterFunc(func(context.Context, string, []report.HandResult) (report.State, error) {
		st := states[k]
		k++
		return st, nil
	}))
	ctx := context.Background()
	h1 := report.HandResult{HandNumber: 1}
	h2 := report.HandResult{HandNumber: 2, Eliminated: []engine.Elimination{{ID: "b"}}}
	for _, results := range [][]report.HandResult{nil, {h1}, {h1, h2}, {h2}} {
		if _, err := r.Report(ctx, "table-1", results); err != nil {
			t.Fatal(err)
		}
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if d, ok := m.Data.(metricdata.Sum[int64]); ok {
				for _, p := range d.DataPoints {
					got[m.Name] += p.Value
				}
			}
		}
	}
	if got["pokerfloor.hands"] != 2 || got["pokerfloor.eliminations"] != 1 || got["pokerfloor.moves"] != 1 || got["pokerfloor.reports"] != 4 {
		t.Errorf("counted %v; want 2 hands, 1 elimination, 1 move, 4 reports", got)
	}
}

type reporterFunc func(context.Context, string, []report.HandResult) (report.State, error)

func (f reporterFunc) Report(ctx context.Context, id string, r []report.HandResult) (report.State, error) {
	return f(ctx, id, r)
}

func TestRateWindow(t *testing.T) {
	now := time.Unix(1000, 0)
	w := newRateWindow(11, func() time.Time { return now })
	for i := range 20 {
		w.Add(int64(i))
		now = now.Add(time.Second)
	}
	// Seconds 1010 to 1019 held 10..19; the current one (1020) is empty.
	if got := w.PerSecond(); got != 14.5 {
		t.Errorf("%v hands a second, want 14.5", got)
	}
	w.Add(100) // the current second is not over: not counted yet
	if got := w.PerSecond(); got != 14.5 {
		t.Errorf("%v with the current second, want 14.5", got)
	}
}

// TestCountWebSockets counts a connection while its handler holds it.
func TestCountWebSockets(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	tel, err := New(context.Background(), Config{MetricReader: reader})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	open := func() int64 {
		var rm metricdata.ResourceMetrics
		if err := reader.Collect(context.Background(), &rm); err != nil {
			t.Fatal(err)
		}
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				if d, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == "pokerfloor.websocket.connections" {
					return d.DataPoints[0].Value
				}
			}
		}
		return 0
	}
	during := map[string]int64{}
	h := tel.CountWebSockets(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { during[r.URL.Path] = open() }))
	req := httptest.NewRequest(http.MethodGet, "/table/3/ws", nil)
	req.Header.Set("Upgrade", "websocket")
	h.ServeHTTP(httptest.NewRecorder(), req)
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/table/3/", nil))
	if during["/table/3/ws"] != 1 || during["/table/3/"] != 0 || open() != 0 {
		t.Errorf("open during the connection and the page's request: %v; %d after", during, open())
	}
}

// TestRegistererOutlivesTelemetry: a Telemetry that registered its metrics on another's registry
// (the manager: controller-runtime's, which lives as long as the process) takes them back when it
// shuts down, so that a second one registered there serves alone and the registry gathers
// without a duplicate.
func TestRegistererOutlivesTelemetry(t *testing.T) {
	reg := prometheus.NewRegistry()
	for i := range 2 {
		tel, err := New(context.Background(), Config{Registerer: reg})
		if err != nil {
			t.Fatalf("telemetry %d: %v", i+1, err)
		}
		if _, err := reg.Gather(); err != nil {
			t.Fatalf("telemetry %d: the registry does not gather: %v", i+1, err)
		}
		if err := tel.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if mfs, err := reg.Gather(); err != nil || len(mfs) != 0 {
		t.Errorf("after both shut down the registry gathers %d families, %v; want none", len(mfs), err)
	}
}
