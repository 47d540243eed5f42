package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/lobby"
	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/telemetry"
	"github.com/pokerfloor/pokerfloor/controllers"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	temporal "go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

func newManagerCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "manager [--kubeconfig FILE] --temporal-address HOST:PORT",
		Short: "Run the Kubernetes operator: the Tournament and Table reconcilers",
		Long: "manager runs pokerfloor's reconcilers. For each Tournament it starts (or finds) the\n" +
			"tournament's workflow in Temporal, pauses and resumes it as spec.paused says, mirrors its\n" +
			"progress into status, and ends it when the Tournament is deleted. For each Table it keeps\n" +
			"one Pod running `pokerfloor table` and one Service, and reports in the Table's status what\n" +
			"the Pod and the table process say: ready, crashed, in a hand (protected from eviction).\n\n" +
			"One manager leads at a time (--leader-elect); /healthz and /readyz answer on\n" +
			"--health-address, the metrics on --metrics-address, and every manager serves the\n" +
			"tournaments' clock and lobby pages on --lobby-address. Logs are JSON lines on stderr.",
		Example: "  pokerfloor manager --temporal-address temporal-frontend:7233 --table-image ghcr.io/pokerfloor/pokerfloor:v0.1.0",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runManager(cmd, v) },
	}
	f := cmd.Flags()
	addClusterFlags(f)
	f.String("table-image", "ghcr.io/pokerfloor/pokerfloor:latest", "the table Pods' image, unless a Tournament's spec.tablePods.image says")
	f.String("table-command", "pokerfloor", "the table container's command, run with the arg \"table\"; comma-separated")
	f.Int32("table-port", controllers.DefaultTablePort, "the table process's port: players, /readyz, /inhand")
	f.String("table-cpu", "100m", "the table container's CPU request (empty: none)")
	f.String("table-memory", "64Mi", "the table container's memory request and limit (empty: none)")
	f.String("table-key-secret", controllers.DefaultKeySecret, "the Secret, in each Tournament's namespace, whose key \"key\" signs the players' tokens")
	f.Duration("table-grace", controllers.DefaultGracePeriod, "how long a stopping table Pod has to finish its hand")
	f.Duration("poll-interval", controllers.DefaultPollInterval, "how often the manager asks a running table whether it is in a hand, and a tournament for its progress")
	f.Int("table-workers", controllers.DefaultTableWorkers, "how many Tables the manager reconciles at once")
	f.String("health-address", ":8081", "address of /healthz and /readyz (0: off)")
	f.String("lobby-address", ":8090", "address of the tournaments' clock and lobby pages: the list at /, each tournament's at /NAMESPACE/NAME/, its tables for spectators at /NAMESPACE/NAME/table/N/, its players' one WebSocket address at /NAMESPACE/NAME/play (0: off)")
	f.String("metrics-address", ":8080", "address of the Prometheus /metrics: the reconciles' and the Temporal client's metrics (0: off); OTEL_EXPORTER_OTLP_ENDPOINT sends metrics and traces by OTLP")
	f.Bool("leader-elect", true, "lead through a Lease, so that one manager of several reconciles")
	f.String("leader-election-namespace", "", "the Lease's namespace (default: the manager's own, in a cluster)")
	return cmd
}

// addClusterFlags are the flags the manager and the worker share: where Kubernetes and Temporal are.
func addClusterFlags(f *pflag.FlagSet) {
	f.String("kubeconfig", "", "kubeconfig file (default: in-cluster, or $KUBECONFIG, or ~/.kube/config)")
	f.String("temporal-address", "localhost:7233", "the Temporal frontend")
	f.String("namespace", "default", "the Temporal namespace of the tournament workflows")
	f.String("task-queue", "", "the workflows' task queue (default pokerfloor)")
	f.String("log-level", "info", "error, warn, info or debug")
}

// clusterSettings are the shared settings, read and checked.
type clusterSettings struct {
	kube     *rest.Config
	log      *slog.Logger
	temporal temporal.Client
	// tel is the process's OpenTelemetry: its Temporal client's metrics and spans (and the
	// reconciles' spans in the manager), for Prometheus and by OTLP when the environment names a
	// collector. close shuts the client and then the telemetry down.
	tel *telemetry.Telemetry
}

// close closes the Temporal client, then flushes the telemetry.
func (s clusterSettings) close() {
	s.temporal.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.tel.Shutdown(ctx); err != nil {
		s.log.Warn("telemetry shutdown", "err", err)
	}
}

// readClusterSettings reads section's (manager or worker) shared settings. The process's metrics
// go to metrics (the manager: controller-runtime's registry, served on its /metrics), or to a
// registry of their own for telemetry's Handler when metrics is nil.
func readClusterSettings(v *viper.Viper, section string, metrics prometheus.Registerer) (clusterSettings, error) {
	var s clusterSettings
	get := func(k string) string { return v.GetString(section + "." + k) }
	var level slog.Level
	if err := level.UnmarshalText([]byte(get("log-level"))); err != nil {
		return s, usageErrorf("--log-level %q: expected error, warn, info or debug", get("log-level"))
	}
	s.log = slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctrl.SetLogger(logr.FromSlogHandler(s.log.Handler()))
	var err error
	if kc := get("kubeconfig"); kc != "" {
		s.kube, err = clientcmd.BuildConfigFromFlags("", kc)
		if err == nil && s.kube.QPS == 0 {
			// As ctrl.GetConfig does: no client-side limit (client-go's default is 5 requests a
			// second, which held the 1,112 Pods of a 10,000-entry field for minutes); the API
			// server's priority and fairness limits instead.
			s.kube.QPS = -1
		}
	} else {
		s.kube, err = ctrl.GetConfig()
	}
	if err != nil {
		return s, usageErrorf("kubernetes: %v (give --kubeconfig, or run in a cluster)", err)
	}
	s.tel, err = telemetry.New(context.Background(), telemetry.Config{Service: "pokerfloor-" + section,
		Prometheus: metrics == nil, Registerer: metrics, OTLP: telemetry.OTLPFromEnv(), Global: true})
	if err != nil {
		return s, err
	}
	// Lazy: the process starts, and says so in its conditions and readiness, while Temporal is out
	// of reach.
	s.temporal, err = temporal.NewLazyClient(s.tel.TemporalOptions(temporal.Options{HostPort: get("temporal-address"),
		Namespace: get("namespace"), Logger: sdklog.NewStructuredLogger(s.log.With("component", "temporal"))}))
	if err != nil {
		_ = s.tel.Shutdown(context.Background())
		return s, usageErrorf("--temporal-address %s: %v", get("temporal-address"), err)
	}
	return s, nil
}

func readManagerConfig(v *viper.Viper) (controllers.Config, error) {
	get := func(k string) string { return v.GetString("manager." + k) }
	cfg := controllers.Config{
		TemporalAddress: get("temporal-address"), TemporalNamespace: get("namespace"), TaskQueue: get("task-queue"),
		TableImage: get("table-image"), TablePort: v.GetInt32("manager.table-port"), KeySecret: get("table-key-secret"),
		TableGracePeriod: v.GetDuration("manager.table-grace"), PollInterval: v.GetDuration("manager.poll-interval"),
		TableWorkers: v.GetInt("manager.table-workers"),
	}
	for _, part := range strings.Split(get("table-command"), ",") {
		if part = strings.TrimSpace(part); part != "" {
			cfg.TableCommand = append(cfg.TableCommand, part)
		}
	}
	if cfg.TablePort < 1 || cfg.TablePort > 65535 {
		return cfg, usageErrorf("--table-port %d: expected 1 to 65535", cfg.TablePort)
	}
	if cfg.TableWorkers < 1 {
		return cfg, usageErrorf("--table-workers %d: expected 1 or more", cfg.TableWorkers)
	}
	if cfg.PollInterval < 100*time.Millisecond {
		return cfg, usageErrorf("--poll-interval %v: expected 100ms or more", cfg.PollInterval)
	}
	cfg.TableResources = corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}
	for flag, name := range map[string]corev1.ResourceName{"table-cpu": corev1.ResourceCPU, "table-memory": corev1.ResourceMemory} {
		if get(flag) == "" {
			continue
		}
		q, err := resource.ParseQuantity(get(flag))
		if err != nil {
			return cfg, usageErrorf("--%s %q: %v", flag, get(flag), err)
		}
		cfg.TableResources.Requests[name] = q
		if name == corev1.ResourceMemory {
			cfg.TableResources.Limits[name] = q
		}
	}
	return cfg.WithDefaults(), nil
}

func runManager(cmd *cobra.Command, v *viper.Viper) error {
	cfg, err := readManagerConfig(v)
	if err != nil {
		return err
	}
	// One /metrics: controller-runtime's registry (the reconciles, the work queues, the API
	// client, the Go runtime) with the OpenTelemetry instruments and the Temporal client's.
	s, err := readClusterSettings(v, "manager", ctrlmetrics.Registry)
	if err != nil {
		return err
	}
	defer s.close()
	mgr, err := ctrl.NewManager(s.kube, ctrl.Options{
		Scheme:                  controllers.NewScheme(),
		Metrics:                 metricsserver.Options{BindAddress: v.GetString("manager.metrics-address")},
		HealthProbeBindAddress:  v.GetString("manager.health-address"),
		LeaderElection:          v.GetBool("manager.leader-elect"),
		LeaderElectionID:        "pokerfloor-manager.poker.pokerfloor.dev",
		LeaderElectionNamespace: v.GetString("manager.leader-election-namespace"),
	})
	if err != nil {
		return fmt.Errorf("manager: %w", err)
	}
	if err := controllers.SetupReconcilers(mgr, cfg, s.temporal); err != nil {
		return fmt.Errorf("manager: %w", err)
	}
	s.tel.SetFields(tournamentFields(mgr))
	if addr := v.GetString("manager.lobby-address"); addr != "0" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return usageErrorf("--lobby-address %s: %v", addr, err)
		}
		if err := mgr.Add(lobbyServer{ln: ln, dir: lobby.NewDirectory(lobby.DirectoryConfig{
			List: tournamentListings(mgr.GetClient(), s.temporal, tableSpectators{kube: mgr.GetClient(), keys: mgr.GetAPIReader(),
				keySecret: cfg.KeySecret, port: cfg.TablePort}, s.log),
			Logger: s.log})}); err != nil {
			return err
		}
		s.log.Info("lobby", "address", ln.Addr().String())
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return err
	}
	s.log.Info("manager starting", "temporal", cfg.TemporalAddress, "namespace", cfg.TemporalNamespace, "tableImage", cfg.TableImage)
	return mgr.Start(cmd.Context())
}

// tournamentListings lists the Tournaments (from kube, the manager's cache) for the lobby pages,
// each read through its workflow on tc once the manager has started it, its tables watched
// through tables.
func tournamentListings(kube client.Reader, tc temporal.Client, tables tableSpectators, log *slog.Logger) func(context.Context) ([]lobby.Listing, error) {
	return func(ctx context.Context) ([]lobby.Listing, error) {
		var list pokerv1.TournamentList
		if err := kube.List(ctx, &list); err != nil {
			return nil, err
		}
		out := make([]lobby.Listing, 0, len(list.Items))
		for i := range list.Items {
			t := &list.Items[i]
			l := lobby.Listing{Path: t.Namespace + "/" + t.Name, ID: t.Status.WorkflowID, Name: t.Name, Phase: string(t.Status.Phase)}
			if t.Spec.DisplayName != "" {
				l.Name = t.Spec.DisplayName
			}
			if t.Status.WorkflowID != "" {
				st, err := controllers.PublishedStructure(t)
				if err != nil {
					// Its reconciler says so in its conditions; the page shows no levels to come.
					log.Debug("lobby: no structure", "tournament", l.Path, "err", err)
				}
				l.Source, l.Structure = workflows.GetTournament(tc, t.Status.WorkflowID), st
				l.Watch, l.Tables = watchLink, tables.handler(t.Namespace, t.Name)
				l.Play = tables.playGateway(t, tc, log)
			}
			out = append(out, l)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		return out, nil
	}
}

// watchLink is table n's spectator page, relative to its tournament's lobby page
// (/NAMESPACE/NAME/table/N/).
func watchLink(n int) string { return fmt.Sprintf("table/%d/", n) }

// tableSpectators lets the lobby's visitors watch a tournament's tables: it reverse-proxies
// /table/N/ (the table's page, its assets and its WebSocket) to the process of table N, at its
// Pod's IP and the table port as the manager's /inhand check reaches it. It only relays: the
// table server decides what a connection sees, and nothing of the visitor's but the request
// itself is forwarded. A visitor who opens the page with no token is sent to it with a spectator's
// token (no seat, no hole cards, no action), signed with the table's key.
type tableSpectators struct {
	kube      client.Reader // the manager's cache
	keys      client.Reader // the key Secrets, read as a page is opened: not cached, not watched
	keySecret string
	port      int32
}

// handler serves the tables of the Tournament namespace/tournament under "/table/".
func (s tableSpectators) handler(namespace, tournament string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/table/{n}/", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil || n < 1 {
			http.Error(w, fmt.Sprintf("table %q: expected a table number, 1 or more", r.PathValue("n")), http.StatusNotFound)
			return
		}
		table, addr, code, err := s.tableAddress(r.Context(), namespace, tournament, n)
		if err != nil {
			http.Error(w, err.Error(), code)
			return
		}
		prefix := fmt.Sprintf("/table/%d", n)
		if r.URL.Path == prefix+"/" && r.Method == http.MethodGet && r.URL.Query().Get("token") == "" {
			tok, err := s.spectatorToken(r.Context(), table)
			if err != nil {
				http.Error(w, fmt.Sprintf("table %d of %s/%s: no spectator's token: %v", n, namespace, tournament, err), http.StatusServiceUnavailable)
				return
			}
			// Relative to the address the visitor asked for (http.Redirect would resolve it
			// against the path with the lobby's prefix stripped).
			w.Header().Set("Location", "?token="+url.QueryEscape(tok))
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusFound)
			return
		}
		proxy := &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) {
				pr.SetURL(&url.URL{Scheme: "http", Host: addr})
				pr.Out.URL.Path = strings.TrimPrefix(pr.In.URL.Path, prefix)
				pr.Out.URL.RawPath = ""
				// The visitor's Host stays: the table's WebSocket accepts a page's connection
				// only from the origin the page came from, which is the manager's.
				pr.Out.Host = pr.In.Host
				// The visitor's credentials for the manager's host are not the table's business.
				pr.Out.Header.Del("Authorization")
				pr.Out.Header.Del("Cookie")
			},
			ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
				http.Error(w, fmt.Sprintf("table %d of %s/%s does not answer at %s: %v", n, namespace, tournament, addr, err), http.StatusBadGateway)
			},
		}
		proxy.ServeHTTP(w, r)
	})
	mux.HandleFunc("/table/{n}", func(w http.ResponseWriter, r *http.Request) {
		// The page's assets and ws are relative to it; the Location is relative to what the
		// visitor asked for, which has the lobby's prefix.
		w.Header().Set("Location", url.PathEscape(r.PathValue("n"))+"/")
		w.WriteHeader(http.StatusFound)
	})
	return mux
}

// tableAddress is where table n of the tournament listens (PodIP:port), or the HTTP status and
// the reason it cannot be watched: no such table (404), or no ready Pod (503).
func (s tableSpectators) tableAddress(ctx context.Context, namespace, tournament string, n int) (*pokerv1.Table, string, int, error) {
	var tables pokerv1.TableList
	if err := s.kube.List(ctx, &tables, client.InNamespace(namespace), client.MatchingLabels{controllers.TournamentLabel: tournament}); err != nil {
		return nil, "", http.StatusServiceUnavailable, fmt.Errorf("the tables of %s/%s cannot be listed: %v", namespace, tournament, err)
	}
	var table *pokerv1.Table
	numbers := make([]int, 0, len(tables.Items))
	for i := range tables.Items {
		t := &tables.Items[i]
		if int(t.Spec.Number) == n {
			table = t
		}
		numbers = append(numbers, int(t.Spec.Number))
	}
	if table == nil {
		sort.Ints(numbers)
		has := "has no table now"
		if len(numbers) > 0 {
			has = "has tables " + strings.Trim(fmt.Sprint(numbers), "[]")
		}
		return nil, "", http.StatusNotFound, fmt.Errorf("tournament %s/%s has no table %d (it %s): the lobby's Watch links name the tables in play", namespace, tournament, n, has)
	}
	var pod corev1.Pod
	if err := s.kube.Get(ctx, client.ObjectKey{Namespace: namespace, Name: table.Name}, &pod); err != nil {
		return nil, "", http.StatusServiceUnavailable, fmt.Errorf("table %d of %s/%s has no Pod yet (%v): try again in a moment", n, namespace, tournament, err)
	}
	if !metav1.IsControlledBy(&pod, table) {
		return nil, "", http.StatusServiceUnavailable, fmt.Errorf("table %d of %s/%s: its Pod %s is not owned by Table %s (a leftover): try again in a moment", n, namespace, tournament, pod.Name, table.Name)
	}
	ready := false
	for _, c := range pod.Status.Conditions {
		ready = ready || (c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue)
	}
	if !ready || pod.Status.PodIP == "" || pod.DeletionTimestamp != nil {
		return nil, "", http.StatusServiceUnavailable, fmt.Errorf("table %d of %s/%s is not ready (Pod %s: %s): try again in a moment", n, namespace, tournament, pod.Name, pod.Status.Phase)
	}
	return table, net.JoinHostPort(pod.Status.PodIP, strconv.Itoa(int(s.port))), 0, nil
}

// spectatorToken signs a spectator's token for table, valid for a day, with the key of its
// namespace's Secret.
func (s tableSpectators) spectatorToken(ctx context.Context, table *pokerv1.Table) (string, error) {
	tokens, err := s.tableTokens(ctx, table)
	if err != nil {
		return "", err
	}
	return tokens.Issue("", protocol.RoleSpectator, 24*time.Hour)
}

// tournamentFields gives the field gauges (players left, entries, tables, level) of every started
// Tournament from its status in the manager's cache, which the reconciler keeps from the
// workflow's progress. Only the leader reports them, so that a sum over the managers counts each
// tournament once.
func tournamentFields(mgr ctrl.Manager) func(context.Context) []telemetry.Field {
	return func(ctx context.Context) []telemetry.Field {
		select {
		case <-mgr.Elected():
		default:
			return nil
		}
		var list pokerv1.TournamentList
		if err := mgr.GetClient().List(ctx, &list); err != nil {
			return nil
		}
		var out []telemetry.Field
		for _, t := range list.Items {
			if st := t.Status; st.WorkflowID != "" {
				out = append(out, telemetry.Field{Tournament: st.WorkflowID, Entries: int(st.Entries), PlayersLeft: int(st.PlayersLeft),
					Tables: int(st.Tables), Level: int(st.Level)})
			}
		}
		return out
	}
}

// lobbyServer serves the lobby pages while the manager runs, leader or not: they only read.
type lobbyServer struct {
	ln  net.Listener
	dir *lobby.Directory
}

func (l lobbyServer) NeedLeaderElection() bool { return false }

func (l lobbyServer) Start(ctx context.Context) error {
	srv := &http.Server{Handler: l.dir.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() { defer close(done); l.dir.Run(ctx) }()
	go func() {
		<-ctx.Done()
		<-done // the lobbies stopped: their pages' event streams are over
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	if err := srv.Serve(l.ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("lobby: %w", err)
	}
	return nil
}
