package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/controllers"
)

// managerRun is a `pokerfloor manager` started in-process against envtest.
type managerRun struct {
	metrics string // http://ADDR of its /metrics
	kube    client.Client
}

// startManager starts a real kube-apiserver and etcd (envtest, with pokerfloor's CRDs) and the
// manager command on them, its Temporal client pointed at an address where nothing answers, and
// a Tournament for it to reconcile (each reconcile fails to reach Temporal and is tried again:
// the reconciles' metrics and the Temporal client's failed requests are what the tests read).
// Without the envtest binaries it skips, or fails under CI=true.
func startManager(t *testing.T, ctx context.Context) *managerRun {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		const msg = "KUBEBUILDER_ASSETS is not set: export KUBEBUILDER_ASSETS=$(hack/setup-envtest.sh | tail -n 1)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	env := &envtest.Environment{CRDDirectoryPaths: []string{filepath.Join("..", "..", "config", "crd", "bases")},
		ErrorIfCRDPathMissing: true, Scheme: controllers.NewScheme()}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("envtest: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	kube, err := client.New(cfg, client.Options{Scheme: controllers.NewScheme()})
	if err != nil {
		t.Fatal(err)
	}
	// Free addresses: the manager opens them itself; nothing else here picks them in between.
	free := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		return ln.Addr().String()
	}
	metrics, nowhere := free(), free()
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan int, 1)
	go func() {
		done <- run(mctx, []string{"manager", "--kubeconfig", kubeconfig, "--metrics-address", metrics, "--health-address", "0",
			"--leader-elect=false", "--temporal-address", nowhere, "--log-level", "error"}, io.Discard, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	tour := &pokerv1.Tournament{ObjectMeta: metav1.ObjectMeta{Name: "spring", Namespace: "default"},
		Spec: pokerv1.TournamentSpec{Currency: "EUR", BuyInCents: 2200, FeeCents: 200, StartingStack: 10000, TableSize: 9,
			Structure: pokerv1.BlindStructure{Levels: []pokerv1.Level{{SmallBlind: 50, BigBlind: 100, Minutes: 20}}},
			Payouts:   &pokerv1.Payouts{SharesBasisPoints: []int32{6000, 4000}}, Players: []string{"ann", "bob", "cid"}}}
	if err := kube.Create(ctx, tour); err != nil {
		t.Fatal(err)
	}
	return &managerRun{metrics: "http://" + metrics, kube: kube}
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
// the OpenTelemetry instruments and the Temporal client's metrics together.
func TestManagerMetrics(t *testing.T) {
	if testing.Short() {
		t.Skip("starts envtest and the manager")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
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
	t.Logf("%s: reconcile errors %v, beside the OpenTelemetry and Temporal series", m.metrics, scrape(t, m.metrics, want[0]))
}
