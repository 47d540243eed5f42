package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/lobby"
	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/telemetry"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
)

// telemetryRun starts a local tournament with --web and --metrics on free ports (and spans to
// exp when set) and returns it with the addresses.
func telemetryRun(t *testing.T, ctx context.Context, players, speed int, exp *tracetest.InMemoryExporter) (tournament, string, string) {
	t.Helper()
	web, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metrics, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	structure, err := loadStructure("turbo")
	if err != nil {
		t.Fatal(err)
	}
	structure.Speed = speed
	s := runSettings{Players: players, TableSize: 9, Structure: structure, Seed: 3, DataDir: t.TempDir(),
		Web: webSettings{ln: web, out: io.Discard}, Metrics: metricsSettings{ln: metrics, out: io.Discard}}
	if exp != nil {
		s.Metrics.spans.SpanExporter = exp
	}
	tour, stop, err := startLocalTournament(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return tour, "http://" + web.Addr().String(), "http://" + metrics.Addr().String()
}

// scrape returns the value of the first sample of /metrics whose line starts with prefix
// (a metric's name and the start of its labels), or -1.
func scrape(t *testing.T, base, prefix string) float64 {
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	for _, l := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(l, prefix) {
			v, err := strconv.ParseFloat(l[strings.LastIndexByte(l, ' ')+1:], 64)
			if err == nil {
				return v
			}
		}
	}
	return -1
}

// watchTable joins the first table the lobby links as a spectator and returns the connection.
func watchTable(t *testing.T, ctx context.Context, web string) *tableserver.Client {
	t.Helper()
	for {
		res, err := http.Get(web + "/board.json")
		if err != nil {
			t.Fatal(err)
		}
		var b lobby.Board
		err = json.NewDecoder(res.Body).Decode(&b)
		res.Body.Close()
		if err == nil && len(b.TableList) > 0 && b.TableList[0].Watch != "" {
			u, err := url.Parse(b.TableList[0].Watch)
			if err != nil {
				t.Fatal(err)
			}
			c, err := tableserver.Dial(ctx, "ws"+strings.TrimPrefix(web, "http")+strings.TrimSuffix(u.Path, "/")+"/ws")
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Send(ctx, protocol.TypeJoin, protocol.Join{Token: u.Query().Get("token")}); err != nil {
				t.Fatal(err)
			}
			return c
		}
		if ctx.Err() != nil {
			t.Fatalf("the lobby never linked a table: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestRunTelemetry runs a short local tournament with --web and --metrics and an in-memory span
// exporter: the tables' hands come as poker.hand spans bearing the tournament's ID, the table and
// the hand number, their actions as events; /metrics (on both addresses) counts the hands, the
// field and a spectator's WebSocket connection.
func TestRunTelemetry(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and a tournament")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	exp := tracetest.NewInMemoryExporter()
	tour, web, metrics := telemetryRun(t, ctx, 20, 120, exp)
	conn := watchTable(t, ctx, web)
	defer conn.CloseNow()
	// The spectator is counted while connected (his table may break later and close him).
	spectated := false
	for {
		spectated = spectated || scrape(t, metrics, "pokerfloor_websocket_connections{") == 1
		if spectated && scrape(t, metrics, "pokerfloor_hands_total{") >= 10 && scrape(t, metrics, "pokerfloor_players_left{") >= 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("/metrics: hands %v, the spectator counted %v, players left %v", scrape(t, metrics, "pokerfloor_hands_total{"),
				spectated, scrape(t, metrics, "pokerfloor_players_left{"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	if v := scrape(t, web, "pokerfloor_hands_total{"); v < 10 {
		t.Errorf("--web's /metrics: %v hands", v)
	}
	if v := scrape(t, metrics, "pokerfloor_players_left{"); v > 20 || v < 1 {
		t.Errorf("players left %v of 20", v)
	}
	tableID := regexp.MustCompile(`^` + regexp.QuoteMeta(tour.ID()) + `/table-\d+$`)
	hands, actions := map[string]bool{}, 0
	for _, s := range exp.GetSpans() {
		if s.Name != "poker.hand" {
			continue
		}
		attrs := map[attribute.Key]attribute.Value{}
		for _, a := range s.Attributes {
			attrs[a.Key] = a.Value
		}
		if attrs[telemetry.AttrTournament].AsString() != tour.ID() || !tableID.MatchString(attrs[telemetry.AttrTable].AsString()) ||
			attrs[telemetry.AttrHand].AsInt64() < 1 {
			t.Fatalf("a hand span's attributes: %v", s.Attributes)
		}
		hands[fmt.Sprint(attrs[telemetry.AttrTable].AsString(), attrs[telemetry.AttrHand].AsInt64())] = true
		for _, e := range s.Events {
			switch e.Name {
			case "fold", "check", "call", "bet", "raise":
				actions++
			}
		}
	}
	if len(hands) < 10 || actions < len(hands) {
		t.Errorf("%d hands traced with %d actions", len(hands), actions)
	}
	// Temporal's spans (its tracing interceptor on the run's client): the activities and the
	// tables' reports (Updates of their workflows) bear the tournament, and the reports the table
	// (the tables' events, Updates of the tournament's, bear the tournament alone).
	temporalSpans := map[string]int{}
	for _, s := range exp.GetSpans() {
		kind, _, ok := strings.Cut(s.Name, ":")
		if !ok {
			continue
		}
		attrs := map[attribute.Key]string{}
		for _, a := range s.Attributes {
			attrs[a.Key] = a.Value.String()
		}
		if attrs[telemetry.AttrTournament] != tour.ID() {
			t.Errorf("span %s: poker.tournament %q, not the run's %s", s.Name, attrs[telemetry.AttrTournament], tour.ID())
			continue
		}
		if s.Name == "UpdateWorkflow:"+workflows.ReportUpdate && !tableID.MatchString(attrs[telemetry.AttrTable]) {
			t.Errorf("span %s: poker.table %q", s.Name, attrs[telemetry.AttrTable])
		}
		temporalSpans[kind]++
	}
	if temporalSpans["RunActivity"] == 0 || temporalSpans["UpdateWorkflow"] == 0 || temporalSpans["StartWorkflow"] == 0 {
		t.Errorf("Temporal's spans by kind: %v; want the tournament's start, activities and the reports' Updates", temporalSpans)
	}
	t.Logf("%d hands traced with %d actions as events; a spectator counted on /metrics; Temporal's spans %v", len(hands), actions, temporalSpans)
}

// prometheusPath returns Debian's prometheus, or skips the test (fails it under CI=true) without it.
func prometheusPath(t *testing.T) string {
	if p, err := exec.LookPath("prometheus"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("prometheus is not installed: run hack/setup-prometheus.sh (the dashboards' test is part of CI)")
	}
	t.Skip("prometheus is not installed: hack/setup-prometheus.sh installs it")
	return ""
}

// dashboardQuery is one query of a dashboard: a panel's target, or a variable's.
type dashboardQuery struct {
	Where string // dashboard and panel
	Expr  string
	Label bool // a label_values(metric, label) variable
}

// dashboardQueries reads every panel's targets (rows' panels included) and every query variable
// of the Grafana dashboards in dir.
func dashboardQueries(t *testing.T, dir string) []dashboardQuery {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no dashboards in %s (%v)", dir, err)
	}
	type panel struct {
		Title   string  `json:"title"`
		Type    string  `json:"type"`
		Panels  []panel `json:"panels"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	}
	var out []dashboardQuery
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d struct {
			Title      string  `json:"title"`
			Panels     []panel `json:"panels"`
			Templating struct {
				List []struct {
					Name  string `json:"name"`
					Type  string `json:"type"`
					Query any    `json:"query"`
				} `json:"list"`
			} `json:"templating"`
		}
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var walk func([]panel)
		walk = func(ps []panel) {
			for _, p := range ps {
				walk(p.Panels)
				if p.Type != "row" && len(p.Targets) == 0 {
					t.Errorf("%s: panel %q has no query", d.Title, p.Title)
				}
				for _, tg := range p.Targets {
					out = append(out, dashboardQuery{Where: d.Title + ": " + p.Title, Expr: tg.Expr})
				}
			}
		}
		walk(d.Panels)
		for _, v := range d.Templating.List {
			if v.Type != "query" {
				continue
			}
			q, _ := v.Query.(map[string]any)
			expr, _ := q["query"].(string)
			out = append(out, dashboardQuery{Where: d.Title + ": variable " + v.Name, Expr: expr, Label: true})
		}
	}
	return out
}

// grafanaVariables replaces what Grafana fills in: every variable matches all ($tournament, $job),
// and $__rate_interval is a minute (four scrapes at Grafana's default 15 s; the test scrapes each second).
var grafanaVariables = strings.NewReplacer("$__rate_interval", "1m", "$tournament", ".*", "$job", ".*")

var labelValues = regexp.MustCompile(`^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\)$`)

// promAnswer is the part of Prometheus' HTTP API answer the test reads.
type promAnswer struct {
	Status    string `json:"status"`
	ErrorType string `json:"errorType"`
	Error     string `json:"error"`
	Data      json.RawMessage
}

func promGet(t *testing.T, u string) promAnswer {
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a promAnswer
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
		t.Fatalf("GET %s: %s: %v", u, res.Status, err)
	}
	return a
}

// answer runs q through Prometheus' HTTP API: an error says it does not parse (or fails), and
// empty that it returned no sample with a finite value (no label value for a variable).
func answer(t *testing.T, prom string, q dashboardQuery) (sample string, err error) {
	if q.Label {
		m := labelValues.FindStringSubmatch(q.Expr)
		if m == nil {
			return "", fmt.Errorf("variable query %q is not label_values(metric, label)", q.Expr)
		}
		a := promGet(t, prom+"/api/v1/label/"+m[2]+"/values?"+url.Values{"match[]": {m[1]}}.Encode())
		if a.Status != "success" {
			return "", fmt.Errorf("%s: %s", a.ErrorType, a.Error)
		}
		var values []string
		_ = json.Unmarshal(a.Data, &values)
		return strings.Join(values, ","), nil
	}
	a := promGet(t, prom+"/api/v1/query?"+url.Values{"query": {grafanaVariables.Replace(q.Expr)}}.Encode())
	if a.Status != "success" {
		return "", fmt.Errorf("%s: %s", a.ErrorType, a.Error)
	}
	var d struct {
		ResultType string          `json:"resultType"`
		Result     json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(a.Data, &d); err != nil {
		return "", err
	}
	finite := func(v string) bool {
		f, err := strconv.ParseFloat(v, 64)
		return err == nil && !isNaNOrInf(f)
	}
	switch d.ResultType {
	case "vector":
		var vec []struct {
			Value [2]any `json:"value"`
		}
		if err := json.Unmarshal(d.Result, &vec); err != nil {
			return "", err
		}
		for _, s := range vec {
			if v, _ := s.Value[1].(string); finite(v) {
				return v, nil
			}
		}
	case "scalar":
		var s [2]any
		if err := json.Unmarshal(d.Result, &s); err != nil {
			return "", err
		}
		if v, _ := s[1].(string); finite(v) {
			return v, nil
		}
	default:
		return "", fmt.Errorf("result type %s: a panel's instant query gives a vector or a scalar", d.ResultType)
	}
	return "", nil
}

func isNaNOrInf(f float64) bool { return f != f || f > 1e308 || f < -1e308 }

// TestDashboardsOnPrometheus starts Debian's Prometheus scraping a short local tournament's
// /metrics each second (the tables, the tournament, its Temporal client's workflows and
// activities) and a manager's on envtest (its reconciles), then runs every query of every panel (and every variable) of the Grafana
// dashboards in charts/pokerfloor/dashboards through Prometheus' HTTP API: each must parse, and
// each must return a finite value while the tournament is played. A query that errors fails at
// once; one without data is asked again until the scrapes have filled the windows of its rates.
func TestDashboardsOnPrometheus(t *testing.T) {
	bin := prometheusPath(t)
	if testing.Short() {
		t.Skip("starts a Temporal server, a tournament and Prometheus")
	}
	queries := dashboardQueries(t, filepath.Join("..", "..", "charts", "pokerfloor", "dashboards"))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tour, web, metrics := telemetryRun(t, ctx, 90, 30, nil)
	conn := watchTable(t, ctx, web) // a WebSocket connection to count
	defer conn.CloseNow()
	targets := []string{strings.TrimPrefix(metrics, "http://")}
	// The reconciles' metrics come from a manager: one runs on envtest when its binaries are
	// here (always under CI); without them the reconciles' queries are only proved to parse.
	managerRuns := os.Getenv("KUBEBUILDER_ASSETS") != "" || os.Getenv("CI") == "true"
	if managerRuns {
		targets = append(targets, strings.TrimPrefix(startManager(t, ctx).metrics, "http://"))
	}
	fromManager := func(q dashboardQuery) bool {
		return strings.Contains(q.Expr, "controller_runtime_") || strings.Contains(q.Expr, "workqueue_")
	}

	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	promAddr := ln.Addr().String()
	ln.Close() // Prometheus listens there; nothing else on the machine picks this port in between
	quoted := make([]string, len(targets))
	for i, tg := range targets {
		quoted[i] = strconv.Quote(tg)
	}
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: pokerfloor\n    static_configs:\n      - targets: [%s]\n",
		strings.Join(quoted, ", "))
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	logs, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	cmd := exec.Command(bin, "--config.file="+filepath.Join(dir, "prometheus.yml"), "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+promAddr)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	prom := "http://" + promAddr
	for {
		if res, err := http.Get(prom + "/-/ready"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if ctx.Err() != nil {
			log, _ := os.ReadFile(logs.Name())
			t.Fatalf("prometheus never became ready:\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}

	pending := queries
	for len(pending) > 0 {
		var still []dashboardQuery
		for _, q := range pending {
			v, err := answer(t, prom, q)
			switch {
			case err != nil:
				t.Errorf("%s: %s: %v", q.Where, q.Expr, err)
			case v == "" && !managerRuns && fromManager(q):
				t.Logf("%s parses (no manager runs here to give it data)", q.Where)
			case v == "":
				still = append(still, q)
			default:
				t.Logf("%s = %s", q.Where, v)
			}
		}
		pending = still
		if len(pending) == 0 {
			break
		}
		if p, err := tour.Progress(ctx); ctx.Err() != nil || err == nil && p.Finished {
			for _, q := range pending {
				t.Errorf("%s: %s returned no data", q.Where, q.Expr)
			}
			t.Fatalf("%d of %d queries without data before the tournament ended or the test's time ran out", len(pending), len(queries))
		}
		time.Sleep(time.Second)
	}
	t.Logf("%d dashboard queries answered by %s", len(queries), strings.TrimSpace(promVersion(bin)))
}

func promVersion(bin string) string {
	out, _ := exec.Command(bin, "--version").CombinedOutput()
	line, _, _ := strings.Cut(string(out), "\n")
	return line
}
