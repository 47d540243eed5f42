package charts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

// startAPIServer starts a real kube-apiserver and etcd (envtest, from KUBEBUILDER_ASSETS) with the
// chart's own crds/ installed, as `helm install` installs them before the templates. Without the
// binaries the test is skipped on a developer's machine and fails in CI.
func startAPIServer(t *testing.T) client.Client {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		const msg = "KUBEBUILDER_ASSETS is not set: run `export KUBEBUILDER_ASSETS=$(hack/setup-envtest.sh | tail -n 1)` " +
			"(or `make test`, which does it) to build kube-apiserver and etcd"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := apiextensionsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(chartDir, "crds")},
		ErrorIfCRDPathMissing: true,
		Scheme:                scheme,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest with the chart's crds/ (kube-apiserver and etcd from %s): %v", os.Getenv("KUBEBUILDER_ASSETS"), err)
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
	return c
}

// serviceMonitorCRD stands in for the Prometheus Operator's CRD, which a cluster that enables
// serviceMonitor has: enough for the API server to know the kind (its own schema is not ours to
// check).
func serviceMonitorCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "servicemonitors.monitoring.coreos.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "monitoring.coreos.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "servicemonitors", Singular: "servicemonitor", Kind: "ServiceMonitor", ListKind: "ServiceMonitorList"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
}

// TestChartAppliesToAPIServer: every object the chart renders, for each set of values, is accepted
// by a real API server (server-side dry run: admission, the CRDs' OpenAPI and CEL validation, RBAC
// and policy objects' own validation), after the CRDs are installed for real.
func TestChartAppliesToAPIServer(t *testing.T) {
	c := startAPIServer(t)
	// Generous: the API server shares 2 cores with other builds.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := c.Create(ctx, serviceMonitorCRD()); err != nil {
		t.Fatalf("installing the ServiceMonitor CRD: %v", err)
	}
	ch := loadChart(t)
	for _, vc := range valueCases {
		t.Run(vc.name, func(t *testing.T) {
			objs := render(t, ch, vc)
			namespaces := map[string]bool{}
			for _, u := range objs {
				if ns := u.GetNamespace(); ns != "" {
					namespaces[ns] = true
				}
			}
			for ns := range namespaces {
				err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}})
				if err != nil && !isAlreadyExists(err) {
					t.Fatalf("creating namespace %s: %v", ns, err)
				}
			}
			for _, key := range objs.keys() {
				u := objs[key].DeepCopy()
				if err := c.Create(ctx, u, client.DryRunAll); err != nil {
					t.Errorf("the API server refuses %s (namespace %q): %v", key, u.GetNamespace(), err)
				}
			}
			t.Logf("%d objects accepted in namespaces %v", len(objs), sortedKeys(namespaces))
		})
	}
	// The dry run is a real check: a Tournament whose fee is its whole buy-in (R6) gets past the
	// values schema, which checks fields one by one, and the API server refuses it.
	t.Run("refused", func(t *testing.T) {
		const namespace = "pokerfloor-system"
		vals := map[string]any{"tournaments": []any{map[string]any{"name": "no-pool", "spec": map[string]any{
			"currency": "EUR", "buyInCents": 1000, "feeCents": 1000, "structure": map[string]any{"name": "turbo"}}}}}
		manifests, err := install(t, ch, namespace, vals)
		if err != nil {
			t.Fatalf("rendering: %v", err)
		}
		var refused int
		for _, m := range manifests {
			u := &unstructured.Unstructured{}
			if err := yaml.Unmarshal([]byte(m), &u.Object); err != nil {
				t.Fatal(err)
			}
			if err := c.Create(ctx, u, client.DryRunAll); err != nil {
				if u.GetKind() != "Tournament" || !strings.Contains(err.Error(), "feeCents") {
					t.Errorf("%s/%s refused: %v", u.GetKind(), u.GetName(), err)
				}
				refused++
				t.Logf("refused as expected: %v", err)
			}
		}
		if refused != 1 {
			t.Errorf("%d objects refused, want the one Tournament", refused)
		}
	})
}

func isAlreadyExists(err error) bool { return apierrors.IsAlreadyExists(err) }
