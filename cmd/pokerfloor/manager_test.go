package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/lobby"
	"github.com/pokerfloor/pokerfloor/controllers"
	"github.com/pokerfloor/pokerfloor/controllers/envtestutil"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
)

// managerRun is a `pokerfloor manager` started in-process against envtest.
type managerRun struct {
	metrics string // http://ADDR of its /metrics
	kube    client.Client
}

// kubeRun is a real kube-apiserver and etcd (envtest) with pokerfloor's CRDs.
type kubeRun struct {
	client     client.Client
	kubeconfig string // a file naming it
}

// startKube starts envtest with pokerfloor's CRDs. Without the envtest binaries it skips, or
// fails under CI=true.
func startKube(t *testing.T) kubeRun {
	t.Helper()
	s := envtestutil.Start(t, filepath.Join("..", "..", "config", "crd", "bases"), pokerv1.AddToScheme)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, s.Env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	return kubeRun{client: s.Client, kubeconfig: kubeconfig}
}

// testTournament is a small valid Tournament.
func testTournament(name string) *pokerv1.Tournament {
	return &pokerv1.Tournament{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: pokerv1.TournamentSpec{Currency: "EUR", BuyInCents: 2200, FeeCents: 200, StartingStack: 10000, TableSize: 9,
			Structure: pokerv1.BlindStructure{Levels: []pokerv1.Level{{SmallBlind: 50, BigBlind: 100, Minutes: 20}}},
			Payouts:   &pokerv1.Payouts{SharesBasisPoints: []int32{6000, 4000}}, Players: []string{"ann", "bob", "cid"}}}
}

// startManager starts envtest and the manager command on it (a process), its Temporal client pointed at an
// address where nothing answers, and a Tournament for it to reconcile (each reconcile fails to
// reach Temporal and is tried again: the reconciles' metrics and the Temporal client's failed
// requests are what the tests read).
func startManager(t *testing.T, ctx context.Context) *managerRun {
	t.Helper()
	k := startKube(t)
	kube, kubeconfig := k.client, k.kubeconfig
	metrics, nowhere := freeAddress(t), freeAddress(t)
	// A process of its own, as in a cluster: controller-runtime refuses a second controller of one
	// name in a process, and its metrics registry is the process's.
	cmd := exec.CommandContext(ctx, os.Args[0], "manager", "--kubeconfig", kubeconfig, "--metrics-address", metrics,
		"--health-address", "0", "--leader-elect=false", "--lobby-address", "0", "--temporal-address", nowhere, "--log-level", "error")
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited
	})
	// It is up once its /metrics answers; if it exits first, say why.
	for metricsText("http://"+metrics) == "" {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("the manager exited (%v):\n%s", err, lastLines(logs.String(), 20))
		case <-ctx.Done():
			t.Fatalf("the manager's /metrics never answered:\n%s", lastLines(logs.String(), 20))
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := kube.Create(ctx, testTournament("spring")); err != nil {
		t.Fatal(err)
	}
	return &managerRun{metrics: "http://" + metrics, kube: kube}
}

// freeAddress is a free address for a command to open itself; nothing else here picks it in
// between.
func freeAddress(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// metricsText is the whole of base's /metrics, or "" while it does not answer.
func metricsText(base string) string {
	res, err := http.Get(base + "/metrics")
	if err != nil {
		return ""
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return string(body)
}

// TestManagerMetrics: the manager's one /metrics serves controller-runtime's reconcile metrics,
// the OpenTelemetry instruments and the Temporal client's metrics together, and with
// OTEL_EXPORTER_OTLP_ENDPOINT set it sends a span of each reconcile there; the field's gauges
// (players left, entries, tables, level) are read from the Tournaments' status.
func TestManagerMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("starts envtest and the manager")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	otlp := startOTLPReceiver(t)
	for _, kv := range otlp.env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	m := startManager(t, ctx)
	want := []string{`controller_runtime_reconcile_total{controller="tournament",result="error"}`,
		`controller_runtime_reconcile_time_seconds_bucket{controller="tournament"`, "pokerfloor_websocket_connections{",
		"temporal_request_", "go_goroutines "}
	for {
		text, missing := metricsText(m.metrics), []string(nil)
		for _, w := range want {
			if !strings.Contains(text, w) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 && scrape(t, m.metrics, want[0]) >= 1 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the manager's /metrics lacks %q", missing)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// Each reconcile is a span, sent by OTLP, bearing the tournament's workflow ID.
	var tour pokerv1.Tournament
	if err := m.kube.Get(ctx, client.ObjectKey{Namespace: "default", Name: "spring"}, &tour); err != nil {
		t.Fatal(err)
	}
	id := "default/spring/" + string(tour.UID)

	// The field's gauges come from the Tournaments' status (the reconciler writes it from the
	// workflow's progress; here the test does, the workflow being out of reach).
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error { // the reconciler writes the status too
		if err := m.kube.Get(ctx, client.ObjectKeyFromObject(&tour), &tour); err != nil {
			return err
		}
		tour.Status.WorkflowID, tour.Status.Entries, tour.Status.PlayersLeft, tour.Status.Tables, tour.Status.Level = id, 3, 2, 1, 4
		return m.kube.Status().Update(ctx, &tour)
	})
	if err != nil {
		t.Fatal(err)
	}
	gauge := func(name string) float64 {
		return scrape(t, m.metrics, name+`{otel_scope_name="github.com/pokerfloor/pokerfloor",otel_scope_schema_url="",otel_scope_version="",poker_tournament="`+id+`"}`)
	}
	for gauge("pokerfloor_players_left") != 2 || gauge("pokerfloor_entries") != 3 || gauge("pokerfloor_tables_active") != 1 || gauge("pokerfloor_level") != 4 {
		if ctx.Err() != nil {
			t.Fatalf("the field's gauges: left %v, entries %v, tables %v, level %v; want 2, 3, 1, 4 from the status", gauge("pokerfloor_players_left"),
				gauge("pokerfloor_entries"), gauge("pokerfloor_tables_active"), gauge("pokerfloor_level"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	for otlp.spanWith("reconcile Tournament", map[string]string{"poker.tournament": id}) == nil {
		if ctx.Err() != nil {
			t.Fatalf("no reconcile span with poker.tournament %s came by OTLP", id)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("%s: reconcile errors %v, beside the OpenTelemetry and Temporal series; reconcile spans by OTLP", m.metrics, scrape(t, m.metrics, want[0]))
}

// TestManagerLobby serves the manager's lobby pages (lobby.Directory) from the source the
// manager gives them, tournamentListings: the Tournaments read from a real API server, each read
// through its workflow on a real Temporal server (here a local run's tournament, whose workflow
// ID the test writes into a Tournament's status as the manager would). The list links the
// started tournament and says the other has not started; the started one's lobby serves its
// board with the run's field; an unknown path is a 404, a tournament deleted is forgotten. (The
// manager command itself mounts the same Directory on --lobby-address; running its reconcilers
// against a worker here as well would cost a whole operator for no more proof.)
func TestManagerLobby(t *testing.T) {
	if testing.Short() {
		t.Skip("starts envtest, a Temporal server and a tournament")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	k := startKube(t)
	tour, _, _ := telemetryRun(t, ctx, 20, 120, nil)
	spring, autumn := testTournament("spring"), testTournament("autumn")
	for _, o := range []*pokerv1.Tournament{spring, autumn} {
		if err := k.client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	spring.Status.WorkflowID, spring.Status.Phase = tour.ID(), "Running"
	if err := k.client.Status().Update(ctx, spring); err != nil {
		t.Fatal(err)
	}
	// Table 1's process: a real `pokerfloor table` (standalone, bots at every seat) on a loopback
	// address, which the test writes as its Pod's IP, as the test's kubelet would.
	tableIP, tablePort, tableKey := startWatchedTable(t, ctx)
	spectators := tableSpectators{kube: k.client, keys: k.client, keySecret: controllers.DefaultKeySecret, port: tablePort}
	dir := lobby.NewDirectory(lobby.DirectoryConfig{List: tournamentListings(k.client, tour.(*localTournament).c, spectators, slog.New(slog.DiscardHandler)),
		Every: 100 * time.Millisecond})
	dctx, stop := context.WithCancel(ctx)
	dirDone := make(chan struct{})
	go func() { defer close(dirDone); dir.Run(dctx) }()
	defer func() { stop(); <-dirDone }()
	srv := httptest.NewServer(dir.Handler())
	defer srv.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path string) (int, string, http.Header) {
		res, err := noRedirect.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body), res.Header
	}

	code, list, _ := get("/")
	if code != http.StatusOK || !strings.Contains(list, `href="default/spring/"`) || !strings.Contains(list, "default/autumn") ||
		strings.Contains(list, `href="default/autumn/"`) || !strings.Contains(list, "not started") {
		t.Fatalf("GET /: %d\n%s", code, list)
	}
	if code, _, h := get("/default/spring"); code != http.StatusFound || h.Get("Location") != "/default/spring/" {
		t.Errorf("GET /default/spring: %d to %q, want a redirect to /default/spring/", code, h.Get("Location"))
	}
	if code, page, _ := get("/default/spring/"); code != http.StatusOK || !strings.Contains(page, "static/lobby.js") {
		t.Errorf("GET /default/spring/: %d\n%s", code, page)
	}
	var b lobby.Board
	for {
		code, body, _ := get("/default/spring/board.json")
		if code == http.StatusOK {
			if err := json.Unmarshal([]byte(body), &b); err != nil {
				t.Fatal(err)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the started tournament's board: %d %s", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if b.Entries != 20 || b.PlayersLeft < 1 || b.PlayersLeft > 20 {
		t.Errorf("the board of the run's tournament: %d entries, %d left; want the run's 20", b.Entries, b.PlayersLeft)
	}
	if code, body, _ := get("/default/autumn/"); code != http.StatusServiceUnavailable || !strings.Contains(body, "has not started") {
		t.Errorf("GET /default/autumn/: %d %q", code, body)
	}
	if code, body, _ := get("/default/nope/"); code != http.StatusNotFound || !strings.Contains(body, "no tournament at /default/nope/") {
		t.Errorf("GET /default/nope/: %d %q", code, body)
	}
	if dir.Lobbies() != 1 {
		t.Errorf("%d lobbies run, want spring's", dir.Lobbies())
	}
	checkWatchLinks(t, ctx, k.client, srv.URL, b, tableIP, tableKey, get)
	if err := k.client.Delete(ctx, spring); err != nil {
		t.Fatal(err)
	}
	for {
		get("/")
		if dir.Lobbies() == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the deleted tournament's lobby still runs")
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the lobby of %s (workflow %s): %d entries, %d left, level %d", "default/spring", tour.ID(), b.Entries, b.PlayersLeft, b.Level)
}

// watchedTableID is the table ID the watched table's process binds its tokens to, and its Table's
// annotation.
const watchedTableID = "spring-workflow/table-001"

// startWatchedTable starts a standalone `pokerfloor table` process (three players, check-folding
// bots at every seat, so that nobody busts and the process outlasts the test) on a loopback
// address, and returns its IP, its port and its token key. Random bots once busted two of the
// three in the four minutes before the test looked (two suites side by side): the table ended and
// its address refused the spectator's connection.
func startWatchedTable(t *testing.T, ctx context.Context) (ip string, port int32, key string) {
	t.Helper()
	addr := freeAddress(t)
	host, p, _ := net.SplitHostPort(addr)
	var n int
	if _, err := fmt.Sscan(p, &n); err != nil {
		t.Fatal(err)
	}
	key = "watch-test-key-of-at-least-32-bytes!"
	cmd := exec.CommandContext(ctx, os.Args[0], "table", "--standalone", "--players", "ann,bob,cid", "--bots", "all",
		"--bot-strategy", "checkfold", "--bot-think", "20ms", "--stack", "100000000", "--table", watchedTableID, "--tournament", "spring-workflow",
		"--listen", addr, "--key", key, "--log-level", "error")
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { defer close(exited); _ = cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited
		if t.Failed() {
			t.Logf("the table process:\n%s", lastLines(logs.String(), 20))
		}
	})
	return host, int32(n), key
}

// checkWatchLinks checks the lobby's Watch links against the table process at tableIP: the board links
// each table to its spectator page; before table N has a Table and a ready Pod its link says so
// (404, 503); without the key Secret no spectator's token is signed (503); then the link sends the
// visitor to the page with a spectator's token, the page is the table's, served through the
// manager, and a WebSocket opened at its ws with that token gets the table's views with no
// player's hole cards.
// Unknown or bad table numbers are 404s saying why.
func checkWatchLinks(t *testing.T, ctx context.Context, kube client.Client, base string, b lobby.Board, tableIP, key string,
	get func(string) (int, string, http.Header)) {
	t.Helper()
	if len(b.TableList) == 0 {
		t.Fatal("the board lists no table")
	}
	n := b.TableList[0].Number
	for _, tb := range b.TableList {
		if want := fmt.Sprintf("table/%d/", tb.Number); tb.Watch != want {
			t.Errorf("table %d's Watch link %q, want %q (relative to the lobby page)", tb.Number, tb.Watch, want)
		}
	}
	link := "/default/spring/" + b.TableList[0].Watch
	if code, body, _ := get(link); code != http.StatusNotFound || !strings.Contains(body, fmt.Sprintf("has no table %d", n)) {
		t.Errorf("GET %s before its Table exists: %d %q, want 404 naming table %d", link, code, body, n)
	}
	table := &pokerv1.Table{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("spring-table-%03d", n), Namespace: "default",
		Labels: map[string]string{controllers.TournamentLabel: "spring"}, Annotations: map[string]string{controllers.TableIDAnnotation: watchedTableID}},
		Spec: pokerv1.TableSpec{Tournament: "spring", Number: int32(n), Seats: 9}}
	if err := kube.Create(ctx, table); err != nil {
		t.Fatal(err)
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: table.Name, Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "table", Image: "pokerfloor"}}}}
	if err := controllerutil.SetControllerReference(table, pod, kube.Scheme()); err != nil {
		t.Fatal(err)
	}
	if err := kube.Create(ctx, pod); err != nil {
		t.Fatal(err)
	}
	if code, body, _ := get(link); code != http.StatusServiceUnavailable || !strings.Contains(body, "is not ready") {
		t.Errorf("GET %s while its Pod is not ready: %d %q, want 503", link, code, body)
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: tableIP,
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}}
	if err := kube.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
	if code, body, _ := get(link); code != http.StatusServiceUnavailable || !strings.Contains(body, "no spectator's token") {
		t.Errorf("GET %s with no key Secret: %d %q, want 503", link, code, body)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: controllers.DefaultKeySecret, Namespace: "default"},
		Data: map[string][]byte{"key": []byte(key)}}
	if err := kube.Create(ctx, secret); err != nil {
		t.Fatal(err)
	}
	if code, _, h := get(strings.TrimSuffix(link, "/")); code != http.StatusFound || h.Get("Location") != fmt.Sprintf("%d/", n) {
		t.Errorf("GET %s: %d to %q, want a redirect to %d/ (relative: the page's own address)", strings.TrimSuffix(link, "/"), code, h.Get("Location"), n)
	}
	code, body, h := get(link)
	page, err := url.Parse(h.Get("Location"))
	if code != http.StatusFound || err != nil || page.Path != "" || page.Query().Get("token") == "" {
		t.Fatalf("GET %s: %d to %q (%s), want a redirect to ?token= (the page, with a spectator's token)", link, code, h.Get("Location"), body)
	}
	tok := page.Query().Get("token")
	pageLink := link + "?token=" + url.QueryEscape(tok)
	// The table process may still be starting: 502 until it listens.
	for {
		code, html, h := get(pageLink)
		if code == http.StatusOK {
			if !strings.HasPrefix(h.Get("Content-Type"), "text/html") || !strings.Contains(html, "app.js") {
				t.Errorf("GET %s: %s\n%s", pageLink, h.Get("Content-Type"), html)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("GET %s: %d %s", pageLink, code, html)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for path, want := range map[string]string{
		"/default/spring/table/99/": "has no table 99 (it has tables " + fmt.Sprint(n) + ")",
		"/default/spring/table/x/":  `table "x": expected a table number`,
		"/default/spring/table/0/":  `table "0": expected a table number`,
	} {
		if code, body, _ := get(path); code != http.StatusNotFound || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d %q, want 404 with %q", path, code, body, want)
		}
	}

	// The page's WebSocket, as a browser opens it from the page: at ws relative to the page, from
	// the manager's origin, joining with the token of the page's address.
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+link+"ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {base}}})
	if err != nil {
		t.Fatalf("the WebSocket at %sws: %v", link, err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, protocol.MustEncode(protocol.TypeJoin, protocol.Join{Token: tok})); err != nil {
		t.Fatal(err)
	}
	var welcome protocol.Welcome
	views, hands := 0, map[int64]bool{}
	for len(hands) < 3 { // views of three hands: cards dealt, bet and shown
		_, frame, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("reading the spectator's WebSocket after %d views: %v", views, err)
		}
		env, perr := protocol.Decode(frame)
		if perr != nil {
			t.Fatalf("frame %s: %v", frame, perr)
		}
		switch env.Type {
		case protocol.TypeWelcome:
			if perr := protocol.DecodeData(env, &welcome); perr != nil {
				t.Fatal(perr)
			}
		case protocol.TypeHole:
			t.Fatalf("a spectator got hole cards: %s", frame)
		case protocol.TypeError:
			t.Fatalf("the table refused the spectator: %s", frame)
		case protocol.TypeView:
			var v protocol.TableView
			if perr := protocol.DecodeData(env, &v); perr != nil {
				t.Fatal(perr)
			}
			views++
			if v.Hand > 0 {
				hands[v.Hand] = true
			}
			if v.Viewer != -1 {
				t.Fatalf("a spectator's view has viewer seat %d: %s", v.Viewer, frame)
			}
			for _, s := range v.Seats {
				if len(s.Cards) > 0 && !s.Shown {
					t.Fatalf("a spectator sees seat %d's (%s) unshown cards %v: %s", s.Seat, s.Player, s.Cards, frame)
				}
			}
		}
	}
	if welcome.Role != protocol.RoleSpectator || welcome.Seat != -1 || welcome.Player != "" {
		t.Errorf("welcome %+v, want a spectator's", welcome)
	}
	_ = ws.Close(websocket.StatusNormalClosure, "done")
	t.Logf("watched table %d through %s: %d views of %d hands, no hole cards", n, link, views, len(hands))
}
