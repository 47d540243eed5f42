package charts

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/controllers/envtestutil"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

// startAPIServer starts a real kube-apiserver and etcd (envtest, from KUBEBUILDER_ASSETS) with the
// chart's own crds/ installed, as `helm install` installs them before the templates. Without the
// binaries the test is skipped on a developer's machine and fails in CI.
func startAPIServer(t *testing.T) (client.Client, *envtest.Environment) {
	t.Helper()
	s := envtestutil.Start(t, filepath.Join(chartDir, "crds"), apiextensionsv1.AddToScheme)
	return s.Client, s.Env
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
	c, env := startAPIServer(t)
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
	t.Run("install-and-upgrade", func(t *testing.T) { installAndUpgrade(t, ctx, c, env, ch) })
}

// installAndUpgrade runs a real `helm install` (no dry run) into the API server through Helm's own
// Kubernetes client, then `helm upgrade`: every object is created, and the token key survives the
// upgrade (the template's lookup), so players' tokens stay valid.
func installAndUpgrade(t *testing.T, ctx context.Context, c client.Client, env *envtest.Environment, ch *chart.Chart) {
	const namespace = "pf-installed"
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}); err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		t.Fatal(err)
	}
	flags := genericclioptions.NewConfigFlags(false)
	flags.KubeConfig = &kubeconfig
	ns := namespace
	flags.Namespace = &ns
	cfg := &action.Configuration{}
	if err := cfg.Init(flags, namespace, "secret", t.Logf); err != nil {
		t.Fatalf("helm's configuration for envtest: %v", err)
	}
	in := action.NewInstall(cfg)
	in.ReleaseName = releaseName
	in.Namespace = namespace
	in.Timeout = 2 * time.Minute
	rel, err := in.RunWithContext(ctx, ch, map[string]any{})
	if err != nil {
		t.Fatalf("helm install: %v", err)
	}
	if rel.Info.Status != release.StatusDeployed {
		t.Fatalf("release status %s, want deployed", rel.Info.Status)
	}
	var before corev1.Secret
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "pokerfloor-table-key"}, &before); err != nil {
		t.Fatalf("the token key after install: %v", err)
	}
	var tm unstructured.Unstructured
	tm.SetAPIVersion("poker.pokerfloor.dev/v1alpha1")
	tm.SetKind("Tournament")
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "club-night"}, &tm); err != nil {
		t.Fatalf("the sample Tournament after install: %v", err)
	}

	up := action.NewUpgrade(cfg)
	up.Namespace = namespace
	up.Timeout = 2 * time.Minute
	rel, err = up.RunWithContext(ctx, releaseName, ch, map[string]any{"worker": map[string]any{"replicas": 3}})
	if err != nil {
		t.Fatalf("helm upgrade: %v", err)
	}
	if rel.Version != 2 || rel.Info.Status != release.StatusDeployed {
		t.Fatalf("after the upgrade: release version %d, status %s; want 2, deployed", rel.Version, rel.Info.Status)
	}
	var after corev1.Secret
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "pokerfloor-table-key"}, &after); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before.Data["key"], after.Data["key"]) || len(after.Data["key"]) < 32 {
		t.Errorf("the token key changed on upgrade (or is shorter than 32 bytes: %d)", len(after.Data["key"]))
	}
	var worker unstructured.Unstructured
	worker.SetAPIVersion("apps/v1")
	worker.SetKind("Deployment")
	if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: "pf-pokerfloor-worker"}, &worker); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := unstructured.NestedInt64(worker.Object, "spec", "replicas"); n != 3 {
		t.Errorf("%d workers after the upgrade, want 3", n)
	}
}

func isAlreadyExists(err error) bool { return apierrors.IsAlreadyExists(err) }
