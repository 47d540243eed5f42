// Package envtestutil starts a real kube-apiserver and etcd (envtest) for a test, with a set of
// CRDs installed and a client that knows their types. The controllers' tests, the kubectl plugin's
// and the chart's share it; it imports neither Temporal nor the workflows, so the plugin's tests
// may use it without pulling them in.
package envtestutil

import (
	"os"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// AssetsHint says how to get the binaries when KUBEBUILDER_ASSETS is not set.
const AssetsHint = "KUBEBUILDER_ASSETS is not set: run `export KUBEBUILDER_ASSETS=$(hack/setup-envtest.sh | tail -n 1)` " +
	"(or `make test`, which does it) to build kube-apiserver and etcd"

// Server is a running envtest API server, stopped when its test ends.
type Server struct {
	Env    *envtest.Environment
	Config *rest.Config    // the administrator's (system:masters)
	Client client.Client   // the administrator's, with Scheme
	Scheme *runtime.Scheme // client-go's types and those AddToScheme added
}

// StartTimeout and StopTimeout bound how long kube-apiserver and etcd may take to start and to
// stop. envtest's defaults (20 s to start) failed TestChartAppliesToAPIServer on this 2-core
// machine while two test suites ran beside it (five tries, each timed out); a machine five times
// slower than a quiet one still starts them well within these.
const (
	StartTimeout = 3 * time.Minute
	StopTimeout  = time.Minute
)

// Start starts envtest with the CRDs of crdDir installed (none when crdDir is empty) and a scheme
// of client-go's types plus those of each addToScheme. Without the binaries the test is skipped on
// a developer's machine and fails under CI=true, where a skipped test would pass for a tested one.
func Start(t testing.TB, crdDir string, addToScheme ...func(*runtime.Scheme) error) *Server {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(AssetsHint)
		}
		t.Skip(AssetsHint)
	}
	scheme := runtime.NewScheme()
	for _, add := range append([]func(*runtime.Scheme) error{clientgoscheme.AddToScheme}, addToScheme...) {
		if err := add(scheme); err != nil {
			t.Fatalf("building the envtest client's scheme: %v", err)
		}
	}
	env := &envtest.Environment{Scheme: scheme, ControlPlaneStartTimeout: StartTimeout, ControlPlaneStopTimeout: StopTimeout}
	what := "envtest"
	if crdDir != "" {
		env.CRDDirectoryPaths = []string{crdDir}
		env.ErrorIfCRDPathMissing = true
		what = "envtest with the CRDs of " + crdDir
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting %s (kube-apiserver and etcd from %s): %v", what, os.Getenv("KUBEBUILDER_ASSETS"), err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest: %v", err)
		}
	})
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatalf("client for envtest: %v", err)
	}
	return &Server{Env: env, Config: cfg, Client: c, Scheme: scheme}
}
