package controllers

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"log/slog"

	"github.com/go-logr/logr"
	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	"go.temporal.io/api/enums/v1"
	temporal "go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/server/temporaltest"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlconfig "sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// The real deadlines of the operator tests: each many times what the step takes here, so that they
// hold on a machine five times slower and busy with other builds.
const (
	stepDeadline   = 3 * time.Minute
	finishDeadline = 10 * time.Minute
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// pokerfloorBinary builds cmd/pokerfloor once per test run and returns the folder holding it.
func pokerfloorBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "pokerfloor-bin-"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "pokerfloor"), "../cmd/pokerfloor").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build ../cmd/pokerfloor: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binDir
}

// operator is a whole platform on one machine: a real kube-apiserver and etcd with the CRDs, a
// real Temporal server, the manager's reconcilers, the worker with the Kubernetes TableHost, and
// the local kubelet running each table Pod's `pokerfloor table`.
type operator struct {
	api      *apiServer
	temporal temporal.Client
	kubelet  *localKubelet
	cfg      Config
	// lobby is the manager's --lobby-address (host:port) when it runs as a process, else empty.
	lobby string
}

// startOperator starts it all; asProcesses runs the manager and the worker as `pokerfloor manager`
// and `pokerfloor worker` processes with the generated RBAC role, instead of in the test.
func startOperator(t *testing.T, ctx context.Context, asProcesses bool) *operator {
	t.Helper()
	ctrl.SetLogger(logr.FromSlogHandler(slog.DiscardHandler))
	bin := pokerfloorBinary(t)
	s := startAPIServer(t)
	ts := temporaltest.NewServer(temporaltest.WithT(t),
		temporaltest.WithBaseClientOptions(temporal.Options{Logger: sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))}))
	tc := ts.GetDefaultClient()

	if err := s.client.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: DefaultKeySecret, Namespace: testNamespace},
		Data: map[string][]byte{"key": []byte("a test key of at least thirty-two bytes, for tokens")}}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{TemporalAddress: ts.GetFrontendHostPort(), TemporalNamespace: ts.GetDefaultNamespace(),
		TablePort: int32(freePort(t)), PollInterval: 500 * time.Millisecond}.WithDefaults()

	var stopPlatform func()
	var lobby string
	if asProcesses {
		stopPlatform, lobby = startCommands(t, ctx, s, bin, cfg)
	} else {
		stopPlatform = startInProcess(t, s, cfg, tc)
	}
	k := newLocalKubelet(t, s.client, testNamespace, bin)
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); k.run(runCtx) }()
	t.Cleanup(func() {
		stopPlatform()
		stop()
		<-done
		if t.Failed() {
			k.dumpLogs()
			dumpEvents(t, s.client)
		}
	})
	return &operator{api: s, temporal: tc, kubelet: k, cfg: cfg, lobby: lobby}
}

// startInProcess runs the reconcilers and the worker in the test process.
func startInProcess(t *testing.T, s *apiServer, cfg Config, tc temporal.Client) (stop func()) {
	mgr, err := ctrl.NewManager(s.env.Config, ctrl.Options{Scheme: s.scheme, Metrics: metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0", Controller: ctrlconfig.Controller{SkipNameValidation: new(true)}}) // a manager a test
	if err != nil {
		t.Fatal(err)
	}
	if err := SetupReconcilers(mgr, cfg, tc); err != nil {
		t.Fatal(err)
	}
	ws := NewWorkers(tc, s.client, "")
	if err := StartWorkers(ws); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := mgr.Start(ctx); err != nil {
			t.Errorf("manager: %v", err)
		}
	}()
	return func() { cancel(); <-done; StopWorkers(ws) }
}

// startCommands runs `pokerfloor manager` and `pokerfloor worker` as the user pokerfloor-manager,
// bound to config/rbac's generated ClusterRole and nothing else, and waits for both to be ready.
// lobby is the manager's lobby address.
func startCommands(t *testing.T, ctx context.Context, s *apiServer, bin string, cfg Config) (stop func(), lobby string) {
	installManifests(t, ctx, s, filepath.Join("..", "config", "rbac", "role.yaml"))
	crb := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "pokerfloor-manager"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "pokerfloor-manager"},
		Subjects: []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: "pokerfloor-manager"}}}
	if err := s.client.Create(ctx, crb); err != nil {
		t.Fatal(err)
	}
	u, err := s.env.AddUser(envtest.User{Name: "pokerfloor-manager"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kc, err := u.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, kc, 0o600); err != nil {
		t.Fatal(err)
	}
	managerHealth := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	workerHealth := net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	lobby = net.JoinHostPort("127.0.0.1", strconv.Itoa(freePort(t)))
	start := func(name string, env ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, "pokerfloor"), name)
		cmd.Env = append(os.Environ(), env...)
		out, err := os.Create(filepath.Join(dir, name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	// Settings through the environment, as a Deployment would give them.
	manager := start("manager", "POKERFLOOR_MANAGER_KUBECONFIG="+kubeconfig,
		"POKERFLOOR_MANAGER_TEMPORAL_ADDRESS="+cfg.TemporalAddress, "POKERFLOOR_MANAGER_NAMESPACE="+cfg.TemporalNamespace,
		"POKERFLOOR_MANAGER_TABLE_PORT="+strconv.Itoa(int(cfg.TablePort)), "POKERFLOOR_MANAGER_POLL_INTERVAL="+cfg.PollInterval.String(),
		"POKERFLOOR_MANAGER_HEALTH_ADDRESS="+managerHealth, "POKERFLOOR_MANAGER_METRICS_ADDRESS=0", "POKERFLOOR_MANAGER_LOBBY_ADDRESS="+lobby,
		"POKERFLOOR_MANAGER_LEADER_ELECT=true", "POKERFLOOR_MANAGER_LEADER_ELECTION_NAMESPACE="+testNamespace)
	worker := start("worker", "POKERFLOOR_WORKER_KUBECONFIG="+kubeconfig,
		"POKERFLOOR_WORKER_TEMPORAL_ADDRESS="+cfg.TemporalAddress, "POKERFLOOR_WORKER_NAMESPACE="+cfg.TemporalNamespace,
		"POKERFLOOR_WORKER_HEALTH_ADDRESS="+workerHealth, "POKERFLOOR_WORKER_METRICS_ADDRESS=0")
	stop = func() {
		for _, c := range []*exec.Cmd{manager, worker} {
			_ = c.Process.Signal(syscall.SIGTERM)
			_ = c.Wait()
		}
		if t.Failed() {
			for _, name := range []string{"manager", "worker"} {
				b, _ := os.ReadFile(filepath.Join(dir, name+".log"))
				if len(b) > 4000 {
					b = b[len(b)-4000:]
				}
				t.Logf("%s's log:\n%s", name, b)
			}
		}
	}
	for name, addr := range map[string]string{"manager": managerHealth, "worker": workerHealth} {
		waitFor(t, name+" ready", stepDeadline, func() error {
			resp, err := http.Get("http://" + addr + "/readyz")
			if err != nil {
				return err
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("/readyz: %s", resp.Status)
			}
			return nil
		})
	}
	return stop, lobby
}

// freePort is a TCP port free on the loopback network now.
func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// answer asks a workflow a query until it answers, for at most stepDeadline: the SDK gives each
// query 10 s, and a worker answers one only after the workflow's task in progress, which at load
// 20 took longer (TestOperatorAppliesRecords's break: "context deadline exceeded").
func answer[T any](t *testing.T, what string, query func() (T, error)) T {
	t.Helper()
	var v T
	waitFor(t, what, stepDeadline, func() (err error) {
		v, err = query()
		return err
	})
	return v
}

// dumpEvents logs the namespace's events, what the in-process manager's discarded logs would have
// said to a director (a clock action refused, a workflow that could not be reached).
func dumpEvents(t *testing.T, c client.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var evs eventsv1.EventList
	if err := c.List(ctx, &evs, client.InNamespace(testNamespace)); err != nil {
		t.Logf("the events: %v", err)
		return
	}
	for _, e := range evs.Items {
		t.Logf("event %s %s/%s %s: %s (%d times)", e.EventTime.Format(time.RFC3339), e.Regarding.Kind, e.Regarding.Name, e.Reason, e.Note, max(1, e.DeprecatedCount))
	}
}

// playContext is the context of a test that plays a tournament: a deadline only for a hung test,
// past all of its waits.
func playContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 4*finishDeadline)
	t.Cleanup(cancel)
	return ctx
}

// waitFor polls check every 100 ms until it returns nil or the deadline passes.
func waitFor(t *testing.T, what string, deadline time.Duration, check func() error) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s: not after %v: %v", what, deadline, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func simulationTournament(name string, players int) *pokerv1.Tournament {
	t := &pokerv1.Tournament{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace, Annotations: map[string]string{SimulationAnnotation: "true"}},
		Spec: pokerv1.TournamentSpec{
			Currency: "EUR", BuyInCents: 1100, FeeCents: 100, TableSize: 9,
			Structure: pokerv1.BlindStructure{Name: pokerv1.StructureTurbo},
			Payouts:   &pokerv1.Payouts{SharesBasisPoints: []int32{5000, 3000, 2000}},
			// The bots take a little time over each action, so that the test catches hands in
			// progress; the env reaches the Pods through the tournament's overrides.
			TablePods: &pokerv1.TablePodOverrides{Template: &pokerv1.TablePodTemplate{
				Env: []pokerv1.EnvVar{{Name: "POKERFLOOR_TABLE_BOT_THINK", Value: "20ms"}}}},
		},
	}
	for i := 1; i <= players; i++ {
		t.Spec.Players = append(t.Spec.Players, fmt.Sprintf("p%02d", i))
	}
	return t
}

func (o *operator) tables(ctx context.Context, tournament string) ([]pokerv1.Table, error) {
	var l pokerv1.TableList
	err := o.api.client.List(ctx, &l, client.InNamespace(testNamespace), client.MatchingLabels{TournamentLabel: tournament})
	return l.Items, err
}

// inHand asks a table Pod's process, at its address, whether it deals a hand, and which.
func (o *operator) inHand(pod *corev1.Pod) (bool, int64) {
	resp, err := http.Get("http://" + net.JoinHostPort(pod.Status.PodIP, strconv.Itoa(int(o.cfg.TablePort))) + "/inhand")
	if err != nil {
		return false, 0
	}
	defer resp.Body.Close()
	var body struct {
		InHand bool
		Hand   int64
	}
	return json.NewDecoder(resp.Body).Decode(&body) == nil && body.InHand, body.Hand
}

// TestOperatorPlaysATournament applies an 18-player simulation and follows it to the end: the
// workflow starts, Tables with their Pods and Services appear, each Pod's own command, args and env
// run the table process, a pause through the spec stops every table, a Pod deleted in the middle of
// a hand is replaced and no chip is lost, and the status mirrors the result.
func TestOperatorPlaysATournament(t *testing.T) {
	t.Parallel()
	ctx := playContext(t)
	o := startOperator(t, ctx, false)
	c := o.api.client
	tm := simulationTournament("sim18", 18)
	if err := c.Create(ctx, tm); err != nil {
		t.Fatal(err)
	}
	key := client.ObjectKeyFromObject(tm)
	get := func() *pokerv1.Tournament {
		var got pokerv1.Tournament
		if err := c.Get(ctx, key, &got); err != nil {
			t.Fatal(err)
		}
		return &got
	}

	// The workflow starts, keyed by the object's UID, and two tables of nine appear, each with its
	// Pod and Service, owned in a chain up to the Tournament; their processes get ready.
	var id string
	waitFor(t, "the tournament's workflow running", stepDeadline, func() error {
		got := get()
		if got.Status.WorkflowID == "" || got.Status.Phase != pokerv1.TournamentRunning {
			return fmt.Errorf("status %+v", got.Status)
		}
		id = got.Status.WorkflowID
		return nil
	})
	if want := testNamespace + "/sim18/" + string(get().UID); id != want {
		t.Errorf("workflow ID %q, want %q", id, want)
	}
	// The status publishes the schedule the workflow plays: the built-in turbo's levels.
	turbo, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	levels := get().Status.Levels
	if len(levels) != len(turbo.Levels) {
		t.Errorf("status.levels has %d periods, want the turbo's %d", len(levels), len(turbo.Levels))
	}
	for i := range min(len(levels), len(turbo.Levels)) {
		l, w := levels[i], turbo.Levels[i]
		if l.Break != w.Break || l.SmallBlind != w.SmallBlind || l.BigBlind != w.BigBlind || l.Ante != w.Ante || int(l.Minutes) != w.Minutes {
			t.Errorf("status.levels[%d] = %+v, want the turbo's %+v", i, l, w)
		}
	}
	waitFor(t, "two Tables with ready Pods and a Service each", stepDeadline, func() error {
		tables, err := o.tables(ctx, "sim18")
		if err != nil || len(tables) != 2 {
			return fmt.Errorf("%d tables (%v)", len(tables), err)
		}
		for _, tb := range tables {
			if !metav1.IsControlledBy(&tb, get()) {
				return fmt.Errorf("table %s is not controlled by its Tournament", tb.Name)
			}
			var pod corev1.Pod
			var svc corev1.Service
			if err := c.Get(ctx, client.ObjectKeyFromObject(&tb), &pod); err != nil {
				return err
			}
			if err := c.Get(ctx, client.ObjectKeyFromObject(&tb), &svc); err != nil {
				return err
			}
			if !metav1.IsControlledBy(&pod, &tb) || !metav1.IsControlledBy(&svc, &tb) {
				return fmt.Errorf("pod or service of %s not controlled by it", tb.Name)
			}
			if !meta.IsStatusConditionTrue(tb.Status.Conditions, pokerv1.TablePodReady) || tb.Status.Phase != pokerv1.TableReady {
				return fmt.Errorf("table %s: phase %s, conditions %+v", tb.Name, tb.Status.Phase, tb.Status.Conditions)
			}
		}
		return nil
	})

	// Paused through the spec: the workflow's clock stops and every table stops after its hand.
	setPausedSpec(t, ctx, c, key, true)
	waitFor(t, "the tournament paused", stepDeadline, func() error {
		got := get()
		p, err := workflows.GetTournament(o.temporal, id).Progress(ctx)
		if err != nil || !p.Paused || got.Status.Phase != pokerv1.TournamentPaused {
			return fmt.Errorf("progress %+v (%v), phase %s", p, err, got.Status.Phase)
		}
		return nil
	})
	waitFor(t, "every table between hands", stepDeadline, func() error {
		return o.eachPod(ctx, "sim18", func(pod *corev1.Pod) error {
			if in, hand := o.inHand(pod); in {
				return fmt.Errorf("%s is in hand %d", pod.Name, hand)
			}
			return nil
		})
	})
	// A table has stopped once its workflow has answered a report after the pause (in a simulation
	// it plays out the batch it was dealing first, and the tournament hears of those hands a little
	// later): from then on it acknowledges no hand.
	acked := func() (map[string]int64, error) {
		tables, err := o.tables(ctx, "sim18")
		if err != nil {
			return nil, err
		}
		out := map[string]int64{}
		for _, tb := range tables {
			v, err := o.temporal.QueryWorkflow(ctx, tb.Annotations[TableIDAnnotation], "", workflows.TableStateQuery)
			if err != nil {
				return nil, err
			}
			var st workflows.TableState
			if err := v.Get(&st); err != nil {
				return nil, err
			}
			if !st.Paused && !st.Closed() {
				return nil, fmt.Errorf("table %s has not stopped for the pause yet (hand %d)", tb.Name, st.HandNumber)
			}
			out[tb.Name] = st.HandNumber
		}
		return out, nil
	}
	var before map[string]int64
	waitFor(t, "every table's workflow paused", stepDeadline, func() (err error) {
		before, err = acked()
		return err
	})
	time.Sleep(time.Second)
	// A table broken at the pause (its players moved while nobody deals) may be gone by now; every
	// table still there is at the hand it stopped at.
	after, err := acked()
	if err != nil {
		t.Errorf("the tables' workflows after the pause: %v", err)
	}
	for name, hand := range after {
		if was, ok := before[name]; !ok || was != hand {
			t.Errorf("paused, yet the tables' hands went from %v to %v", before, after)
			break
		}
	}
	setPausedSpec(t, ctx, c, key, false)

	// In the middle of a hand a Pod is labelled protected, which the tournament's
	// PodDisruptionBudget selects, and its Table says so.
	waitFor(t, "a table Pod in a hand labelled protected, its PDB selecting it", stepDeadline, func() error {
		var pods corev1.PodList
		if err := c.List(ctx, &pods, client.InNamespace(testNamespace), client.MatchingLabels{TournamentLabel: "sim18", ProtectedLabel: "true"}); err != nil {
			return err
		}
		if len(pods.Items) == 0 {
			return fmt.Errorf("no table Pod labelled protected yet")
		}
		var pdb policyv1.PodDisruptionBudget
		if err := c.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: tablesPDBName("sim18")}, &pdb); err != nil {
			return err
		}
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil || !sel.Matches(labels.Set(pods.Items[0].Labels)) || pdb.Spec.MaxUnavailable != nil ||
			pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() != maxTablePods {
			return fmt.Errorf("PDB %+v does not hold Pod %s (%v)", pdb.Spec, pods.Items[0].Name, err)
		}
		return nil
	})
	var protected pokerv1.TableList
	waitFor(t, "a Table's Protected condition saying InHand", stepDeadline, func() error {
		if err := c.List(ctx, &protected, client.InNamespace(testNamespace)); err != nil {
			return err
		}
		for _, tb := range protected.Items {
			if cond := meta.FindStatusCondition(tb.Status.Conditions, pokerv1.TableProtected); cond != nil && cond.Reason == "InHand" &&
				cond.Status == metav1.ConditionTrue && tb.Status.InHand && tb.Status.HandNumber > 0 {
				return nil
			}
		}
		return fmt.Errorf("no table in hand by its status")
	})

	// A Pod deleted in the middle of a hand: its process dies with the hand (void, D4), a new Pod
	// takes the table over from its workflow.
	var victim corev1.Pod
	var victimHand int64
	waitFor(t, "a table Pod in the middle of a hand", stepDeadline, func() error {
		return o.eachPod(ctx, "sim18", func(pod *corev1.Pod) error {
			if in, hand := o.inHand(pod); victim.UID == "" && in {
				// Killed at once, as a node lost would: the hand it deals dies with it.
				o.kubelet.kill(pod.UID)
				victim, victimHand = *pod, hand
			}
			if victim.UID == "" {
				return fmt.Errorf("no hand in progress yet")
			}
			return nil
		})
	})
	if err := c.Delete(ctx, &victim); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a new Pod for "+victim.Name, stepDeadline, func() error {
		var pod corev1.Pod
		if err := c.Get(ctx, client.ObjectKeyFromObject(&victim), &pod); apierrors.IsNotFound(err) {
			var tb pokerv1.Table
			if err := c.Get(ctx, client.ObjectKeyFromObject(&victim), &tb); apierrors.IsNotFound(err) {
				return nil // the table broke meanwhile: its players moved on
			}
			return fmt.Errorf("no pod yet")
		} else if err != nil {
			return err
		}
		if pod.UID == victim.UID {
			return fmt.Errorf("still the old pod")
		}
		// The new process takes the table up as of the last hand its workflow acknowledged: the
		// hand the killed one was dealing is not among them (void, D4), and is dealt again.
		m := stateLoaded.FindStringSubmatch(o.kubelet.logOf(&pod))
		if m == nil {
			return fmt.Errorf("the new pod's process has not loaded the table yet")
		}
		// Which hands were void is proven kill by kill in cmd's TestTableSurvivesKills; here the
		// hand can end in the microseconds between /inhand and the kill, so only this holds.
		if loaded, _ := strconv.ParseInt(m[1], 10, 64); loaded > victimHand {
			t.Errorf("the new process loaded the table as of hand %d, past hand %d the killed one was dealing", loaded, victimHand)
		}
		t.Logf("pod %s killed and deleted in hand %d; its replacement loaded the table as of hand %s", victim.Name, victimHand, m[1])
		return nil
	})

	// To the end: the status says what the workflow's result says, and no chip count failed.
	waitFor(t, "the tournament finished", finishDeadline, func() error {
		if got := get(); got.Status.Phase != pokerv1.TournamentFinished {
			return fmt.Errorf("phase %s, %d left, level %d", got.Status.Phase, got.Status.PlayersLeft, got.Status.Level)
		}
		return nil
	})
	res, err := workflows.GetTournament(o.temporal, id).Result(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ChipErrors) > 0 {
		t.Errorf("chip counts failed: %v", res.ChipErrors)
	}
	if len(res.Places) != 18 {
		t.Errorf("%d places, want 18", len(res.Places))
	}
	got := get()
	s := got.Status
	if s.PrizePoolCents != 18*1000 || s.Entries != 18 || s.PlacesPaid != 3 || s.FinishedAt == nil || s.ObservedGeneration != got.Generation {
		t.Errorf("status %+v, want a pool of 18,000 cents, 18 entries, 3 paid, finishedAt, observedGeneration %d", s, got.Generation)
	}
	if len(s.Standings) == 0 || s.Standings[0].Player != res.Places[0].Player || s.Standings[0].PrizeCents != 9000 {
		t.Errorf("standings %+v, want %s first with 9,000 cents", s.Standings, res.Places[0].Player)
	}
	if cond := meta.FindStatusCondition(s.Conditions, pokerv1.TournamentWorkflowRunning); cond == nil || cond.Reason != "Finished" {
		t.Errorf("WorkflowRunning condition %+v, want reason Finished", cond)
	}
	var pdb policyv1.PodDisruptionBudget
	if err := c.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: tablesPDBName("sim18")}, &pdb); err != nil {
		t.Errorf("the tournament's PodDisruptionBudget: %v", err)
	}
}

// TestOperatorDeleteEndsTheWorkflow: deleting a running Tournament ends its workflow and its
// tables' workflows before the object goes.
//
// First, a Tournament the API server accepts and the workflows refuse (three paid of four: third
// place would win less than the buy-in, R6) fails with a condition and an event that say so.
func TestOperatorDeleteEndsTheWorkflow(t *testing.T) {
	t.Parallel()
	ctx := playContext(t)
	o := startOperator(t, ctx, false)
	c := o.api.client
	refused := validTournament("refused")
	if err := c.Create(ctx, refused); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the refused tournament failed with its reason", stepDeadline, func() error {
		var got pokerv1.Tournament
		if err := c.Get(ctx, client.ObjectKeyFromObject(refused), &got); err != nil {
			return err
		}
		cond := meta.FindStatusCondition(got.Status.Conditions, pokerv1.TournamentWorkflowRunning)
		if got.Status.Phase != pokerv1.TournamentFailed || cond == nil || cond.Reason != "InvalidSpec" || !strings.Contains(cond.Message, "R6") {
			return fmt.Errorf("phase %s, condition %+v", got.Status.Phase, cond)
		}
		var evs eventsv1.EventList
		if err := c.List(ctx, &evs, client.InNamespace(testNamespace)); err != nil {
			return err
		}
		for _, e := range evs.Items {
			if e.Regarding.Name == "refused" && e.Reason == "InvalidSpec" && e.Type == corev1.EventTypeWarning {
				return nil
			}
		}
		return fmt.Errorf("no InvalidSpec event among %d", len(evs.Items))
	})
	tm := simulationTournament("doomed", 18)
	tm.Spec.TablePods.Template.Env[0].Value = "50ms" // slow: it must still run when deleted
	if err := c.Create(ctx, tm); err != nil {
		t.Fatal(err)
	}
	var id string
	var tableIDs []string
	waitFor(t, "the tournament running with its tables", stepDeadline, func() error {
		var got pokerv1.Tournament
		if err := c.Get(ctx, client.ObjectKeyFromObject(tm), &got); err != nil {
			return err
		}
		tables, err := o.tables(ctx, "doomed")
		if err != nil || got.Status.Phase != pokerv1.TournamentRunning || len(tables) == 0 {
			return fmt.Errorf("phase %s, %d tables (%v)", got.Status.Phase, len(tables), err)
		}
		id, tableIDs = got.Status.WorkflowID, nil
		for _, tb := range tables {
			tableIDs = append(tableIDs, tb.Annotations[TableIDAnnotation])
		}
		return nil
	})
	if err := c.Delete(ctx, tm); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the Tournament gone", stepDeadline, func() error {
		var got pokerv1.Tournament
		if err := c.Get(ctx, client.ObjectKeyFromObject(tm), &got); !apierrors.IsNotFound(err) {
			return fmt.Errorf("still there (%v), finalizers %v", err, got.Finalizers)
		}
		return nil
	})
	for _, wid := range append([]string{id}, tableIDs...) {
		d, err := o.temporal.DescribeWorkflowExecution(ctx, wid, "")
		if err != nil {
			t.Fatal(err)
		}
		if st := d.GetWorkflowExecutionInfo().GetStatus(); st != enums.WORKFLOW_EXECUTION_STATUS_TERMINATED {
			t.Errorf("workflow %s is %v after its Tournament was deleted, want terminated", wid, st)
		}
	}
}

var stateLoaded = regexp.MustCompile(`msg="state loaded" .*\bhand=(\d+)`)

// TestOperatorCommands plays a 6-player simulation to the end with the manager and the worker as
// the `pokerfloor manager` and `pokerfloor worker` processes, configured by POKERFLOOR_* as a
// Deployment would, holding only the generated role's rights, the manager leading through a Lease.
func TestOperatorCommands(t *testing.T) {
	t.Parallel()
	ctx := playContext(t)
	o := startOperator(t, ctx, true)
	c := o.api.client
	tm := simulationTournament("six", 6)
	if err := c.Create(ctx, tm); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the tournament finished", finishDeadline, func() error {
		var got pokerv1.Tournament
		if err := c.Get(ctx, client.ObjectKeyFromObject(tm), &got); err != nil {
			return err
		}
		if got.Status.Phase != pokerv1.TournamentFinished || got.Status.Entries != 6 || len(got.Status.Standings) == 0 {
			return fmt.Errorf("status %+v", got.Status)
		}
		return nil
	})
	var lease coordinationv1.Lease
	if err := c.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: "pokerfloor-manager.poker.pokerfloor.dev"}, &lease); err != nil ||
		lease.Spec.HolderIdentity == nil {
		t.Errorf("the manager's leader Lease: %v %+v", err, lease.Spec)
	}
}

func setPausedSpec(t *testing.T, ctx context.Context, c client.Client, key client.ObjectKey, paused bool) {
	t.Helper()
	waitFor(t, fmt.Sprintf("spec.paused=%t written", paused), stepDeadline, func() error {
		var got pokerv1.Tournament
		if err := c.Get(ctx, key, &got); err != nil {
			return err
		}
		got.Spec.Paused = paused
		return c.Update(ctx, &got)
	})
}

// eachPod calls f for each table Pod of the tournament that runs with an address.
func (o *operator) eachPod(ctx context.Context, tournament string, f func(*corev1.Pod) error) error {
	var pods corev1.PodList
	if err := o.api.client.List(ctx, &pods, client.InNamespace(testNamespace), client.MatchingLabels{TournamentLabel: tournament}); err != nil {
		return err
	}
	if len(pods.Items) == 0 {
		return fmt.Errorf("no pods")
	}
	for i := range pods.Items {
		if pods.Items[i].Status.PodIP == "" {
			return fmt.Errorf("pod %s has no address yet", pods.Items[i].Name)
		}
		if err := f(&pods.Items[i]); err != nil {
			return err
		}
	}
	return nil
}
