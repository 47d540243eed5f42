package charts

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/releaseutil"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

const (
	chartDir    = "pokerfloor"
	releaseName = "pf"
)

// kubeVersion is the envtest API server's: the rendered objects are checked against it.
var kubeVersion = &chartutil.KubeVersion{Version: "v1.37.2", Major: "1", Minor: "37"}

// valueCase is one way to install the chart: its values file (none: the defaults) and the
// namespace of the release.
type valueCase struct {
	name, file, namespace string
}

var valueCases = []valueCase{
	{name: "default", namespace: "pokerfloor-system"},
	{name: "embedded-temporal", file: "examples/embedded-temporal.yaml", namespace: "pokerfloor"},
	{name: "event-10000", file: "examples/event-10000.yaml", namespace: "pokerfloor-system"},
}

func (c valueCase) values(t *testing.T) map[string]any {
	t.Helper()
	if c.file == "" {
		return map[string]any{}
	}
	v, err := chartutil.ReadValuesFile(filepath.Join(chartDir, c.file))
	if err != nil {
		t.Fatalf("values %s: %v", c.file, err)
	}
	return v
}

func loadChart(t *testing.T) *chart.Chart {
	t.Helper()
	ch, err := loader.Load(chartDir)
	if err != nil {
		t.Fatalf("loading the chart %s: %v", chartDir, err)
	}
	return ch
}

// install renders the chart as `helm install --dry-run` does without a cluster (the values checked
// against values.schema.json, the templates rendered, NOTES.txt included).
func install(t *testing.T, ch *chart.Chart, namespace string, vals map[string]any) (manifests []string, err error) {
	t.Helper()
	in := action.NewInstall(&action.Configuration{Log: t.Logf})
	in.ReleaseName = releaseName
	in.Namespace = namespace
	in.DryRun = true
	in.ClientOnly = true
	in.KubeVersion = kubeVersion
	rel, err := in.Run(ch, vals)
	if err != nil {
		return nil, err
	}
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		if strings.TrimSpace(m) != "" {
			manifests = append(manifests, m)
		}
	}
	sort.Strings(manifests)
	return manifests, nil
}

// rendered is the chart's objects for one set of values, by "Kind/name".
type rendered map[string]*unstructured.Unstructured

func render(t *testing.T, ch *chart.Chart, c valueCase) rendered {
	t.Helper()
	manifests, err := install(t, ch, c.namespace, c.values(t))
	if err != nil {
		t.Fatalf("rendering with %s values: %v", c.name, err)
	}
	objs := rendered{}
	for _, m := range manifests {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(m), &u.Object); err != nil {
			t.Fatalf("a rendered manifest is not YAML: %v\n%s", err, m)
		}
		key := u.GetKind() + "/" + u.GetName()
		if objs[key] != nil {
			t.Fatalf("%s rendered twice", key)
		}
		objs[key] = u
	}
	return objs
}

func (r rendered) get(t *testing.T, key string) *unstructured.Unstructured {
	t.Helper()
	u := r[key]
	if u == nil {
		t.Fatalf("no %s among the rendered objects %v", key, r.keys())
	}
	return u
}

func (r rendered) keys() []string {
	var keys []string
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// containerEnv is the plain env values of a Deployment's or StatefulSet's first container.
func containerEnv(t *testing.T, u *unstructured.Unstructured) map[string]string {
	t.Helper()
	containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	if len(containers) == 0 {
		t.Fatalf("%s/%s has no container", u.GetKind(), u.GetName())
	}
	env := map[string]string{}
	list, _, _ := unstructured.NestedSlice(containers[0].(map[string]any), "env")
	for _, e := range list {
		e := e.(map[string]any)
		if v, ok := e["value"].(string); ok {
			env[e["name"].(string)] = v
		}
	}
	return env
}

func TestChartLints(t *testing.T) {
	for _, c := range valueCases {
		t.Run(c.name, func(t *testing.T) {
			linter := lint.AllWithKubeVersion(chartDir, c.values(t), c.namespace, kubeVersion)
			for _, m := range linter.Messages {
				if m.Severity >= support.WarningSev {
					t.Errorf("helm lint: %v", m)
				} else {
					t.Logf("helm lint (info): %v", m)
				}
			}
		})
	}
}

func TestChartRendersDefaults(t *testing.T) {
	objs := render(t, loadChart(t), valueCases[0])
	for _, key := range []string{
		"Deployment/pf-pokerfloor-manager", "Deployment/pf-pokerfloor-worker",
		"ServiceAccount/pf-pokerfloor-manager", "ServiceAccount/pf-pokerfloor-worker",
		"ClusterRole/pf-pokerfloor-manager", "ClusterRoleBinding/pf-pokerfloor-manager",
		"ClusterRole/pf-pokerfloor-worker", "ClusterRoleBinding/pf-pokerfloor-worker",
		"ClusterRole/pokerfloor-director", "ClusterRole/pokerfloor-registrar", "ClusterRole/pokerfloor-viewer",
		"PodDisruptionBudget/pf-pokerfloor-manager", "PodDisruptionBudget/pf-pokerfloor-worker",
		"Secret/pokerfloor-table-key", "Service/pf-pokerfloor-manager-metrics",
		"ConfigMap/pf-pokerfloor-dashboard-platform", "ConfigMap/pf-pokerfloor-dashboard-tournament",
		"MutatingAdmissionPolicy/pokerfloor-issued-by", "ValidatingAdmissionPolicy/pokerfloor-issued-by",
		"Tournament/club-night",
	} {
		objs.get(t, key)
	}
	for _, key := range []string{"StatefulSet/pf-pokerfloor-temporal", "ServiceMonitor/pf-pokerfloor-manager"} {
		if objs[key] != nil {
			t.Errorf("%s rendered by default; it is opt-in", key)
		}
	}
	manager := containerEnv(t, objs.get(t, "Deployment/pf-pokerfloor-manager"))
	worker := containerEnv(t, objs.get(t, "Deployment/pf-pokerfloor-worker"))
	for name, env := range map[string]map[string]string{"manager": manager, "worker": worker} {
		prefix := "POKERFLOOR_" + strings.ToUpper(name) + "_"
		if got := env[prefix+"TEMPORAL_ADDRESS"]; got != "temporal-frontend.temporal:7233" {
			t.Errorf("%s's Temporal address %q, want the default external frontend", name, got)
		}
		if env["OTEL_SDK_DISABLED"] != "true" || env["OTEL_SERVICE_NAME"] != "pokerfloor-"+name {
			t.Errorf("%s's OpenTelemetry env %v: want the SDK off without an endpoint, service pokerfloor-%s", name, env, name)
		}
	}
	if got := manager["POKERFLOOR_MANAGER_TABLE_IMAGE"]; got != "ghcr.io/pokerfloor/pokerfloor:0.1.0" {
		t.Errorf("table image %q, want the chart's image at its appVersion", got)
	}
	// The worker's account and the manager's are distinct, and neither is the table Pods'.
	for _, d := range []string{"manager", "worker"} {
		sa, _, _ := unstructured.NestedString(objs.get(t, "Deployment/pf-pokerfloor-"+d).Object, "spec", "template", "spec", "serviceAccountName")
		if sa != "pf-pokerfloor-"+d {
			t.Errorf("the %s runs as %q, want its own account pf-pokerfloor-%s", d, sa, d)
		}
	}
	// The signing key: random, at least 32 bytes, in the tournaments' namespace.
	secret := objs.get(t, "Secret/pokerfloor-table-key")
	key, _, _ := unstructured.NestedString(secret.Object, "data", "key")
	if len(key) < 44 || secret.GetNamespace() != "pokerfloor-system" { // 32 bytes are 44 base64 characters
		t.Errorf("token key %d base64 characters in %q, want at least 32 bytes in the release's namespace", len(key), secret.GetNamespace())
	}
	again := render(t, loadChart(t), valueCases[0]).get(t, "Secret/pokerfloor-table-key")
	if k2, _, _ := unstructured.NestedString(again.Object, "data", "key"); k2 == key {
		t.Errorf("two installs made the same token key: it must be random")
	}
	// Each dashboard ConfigMap holds its file as it is.
	for _, name := range []string{"platform", "tournament"} {
		want, err := os.ReadFile(filepath.Join(chartDir, "dashboards", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		got, _, _ := unstructured.NestedString(objs.get(t, "ConfigMap/pf-pokerfloor-dashboard-"+name).Object, "data", name+".json")
		if got != strings.TrimRight(string(want), "\n") {
			t.Errorf("ConfigMap of dashboards/%s.json differs from the file", name)
		}
	}
}

func TestChartRendersEmbeddedTemporal(t *testing.T) {
	objs := render(t, loadChart(t), valueCases[1])
	sts := objs.get(t, "StatefulSet/pf-pokerfloor-temporal")
	args, _, _ := unstructured.NestedSlice(sts.Object, "spec", "template", "spec", "containers")
	c := args[0].(map[string]any)
	if !reflect.DeepEqual(c["args"], []any{"temporal"}) {
		t.Errorf("the StatefulSet runs %v, want pokerfloor temporal", c["args"])
	}
	env := containerEnv(t, sts)
	if env["POKERFLOOR_TEMPORAL_ADDRESS"] != "0.0.0.0:7233" || env["POKERFLOOR_TEMPORAL_NAMESPACE"] != "pokerfloor" ||
		env["POKERFLOOR_TEMPORAL_DB"] != "/var/lib/pokerfloor/temporal" {
		t.Errorf("pokerfloor temporal's env %v: want the frontend on 0.0.0.0:7233, namespace pokerfloor, the database on the volume", env)
	}
	claims, _, _ := unstructured.NestedSlice(sts.Object, "spec", "volumeClaimTemplates")
	if len(claims) != 1 {
		t.Fatalf("the StatefulSet has %d claim templates, want 1", len(claims))
	}
	size, _, _ := unstructured.NestedString(claims[0].(map[string]any), "spec", "resources", "requests", "storage")
	if size != "1Gi" {
		t.Errorf("the claim asks %q, want the values' 1Gi", size)
	}
	if probe, _, _ := unstructured.NestedString(c, "readinessProbe", "httpGet", "path"); probe != "/readyz" {
		t.Errorf("readiness probe %q, want /readyz", probe)
	}
	const address = "pf-pokerfloor-temporal.pokerfloor.svc:7233"
	for _, d := range []string{"manager", "worker"} {
		env := containerEnv(t, objs.get(t, "Deployment/pf-pokerfloor-"+d))
		if got := env["POKERFLOOR_"+strings.ToUpper(d)+"_TEMPORAL_ADDRESS"]; got != address {
			t.Errorf("the %s dials %q, want the embedded server %s", d, got, address)
		}
	}
	objs.get(t, "Service/pf-pokerfloor-temporal")
	sa := objs.get(t, "ServiceAccount/pf-pokerfloor-temporal")
	if sa.Object["automountServiceAccountToken"] != false {
		t.Errorf("the Temporal server's account mounts a token; it needs none")
	}
	if ann := objs.get(t, "Tournament/home-game").GetAnnotations(); ann["poker.pokerfloor.dev/simulation"] != "true" {
		t.Errorf("the sample event's annotations %v: want a simulation", ann)
	}
}

func TestChartRendersTenThousandPlayerEvent(t *testing.T) {
	objs := render(t, loadChart(t), valueCases[2])
	tm := objs.get(t, "Tournament/series-main-event")
	if tm.GetNamespace() != "series" {
		t.Errorf("the event is in %q, want tournamentNamespace series", tm.GetNamespace())
	}
	if _, found, _ := unstructured.NestedSlice(tm.Object, "spec", "players"); found {
		t.Errorf("a 10,000-entry event lists players inline; they register by EntryBatch")
	}
	if s := objs.get(t, "Secret/pokerfloor-table-key"); s.GetNamespace() != "series" {
		t.Errorf("the token key is in %q, want the tournaments' namespace series", s.GetNamespace())
	}
	env := containerEnv(t, objs.get(t, "Deployment/pf-pokerfloor-manager"))
	if env["POKERFLOOR_MANAGER_TABLE_WORKERS"] != "64" || env["OTEL_EXPORTER_OTLP_ENDPOINT"] != "http://otel-collector.observability.svc:4317" {
		t.Errorf("the manager's env %v: want 64 table workers and the OTLP endpoint", env)
	}
	if _, off := env["OTEL_SDK_DISABLED"]; off {
		t.Errorf("OpenTelemetry disabled although an endpoint is set")
	}
	if workers := objs.get(t, "Deployment/pf-pokerfloor-worker").Object["spec"].(map[string]any)["replicas"]; workers != 4.0 {
		t.Errorf("%v workers, want 4", workers)
	}
	objs.get(t, "ServiceMonitor/pf-pokerfloor-manager")
}

// TestChartSchemaRefusesBadValues: values.schema.json refuses each with a message that names the
// key and what it expects.
func TestChartSchemaRefusesBadValues(t *testing.T) {
	ch := loadChart(t)
	for _, tc := range []struct {
		name   string
		values string
		want   []string
	}{
		{"negative replicas", "manager: {replicas: -1}", []string{"/manager/replicas", "minimum", "-1", "want 0"}},
		{"a table of 11", "tournaments: [{name: t, spec: {currency: EUR, buyInCents: 1, structure: {name: turbo}, tableSize: 11}}]", []string{"/tournaments/0/spec/tableSize", "maximum", "11", "want 10"}},
		{"an unknown key", "manager: {replica: 3}", []string{"/manager", "additional properties 'replica' not allowed"}},
		{"an unknown top-level key", "temporl: {address: x:7233}", []string{"additional properties 'temporl' not allowed"}},
		{"an unknown Tournament field", "tournaments: [{name: t, spec: {currency: EUR, buyInCents: 1, structure: {name: turbo}, tablesize: 6}}]", []string{"/tournaments/0/spec", "'tablesize' not allowed"}},
		{"a short token key", "tables: {keySecret: {key: short}}", []string{"/tables/keySecret/key", "minLength"}},
		{"no Temporal at all", "temporal: {address: ''}", []string{"/temporal/address", "minLength"}},
		{"a bad duration", "manager: {pollInterval: 5 seconds}", []string{"/manager/pollInterval", "does not match pattern"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := chartutil.ReadValues([]byte(tc.values))
			if err != nil {
				t.Fatal(err)
			}
			_, err = install(t, ch, "pokerfloor-system", vals)
			if err == nil {
				t.Fatalf("values %s accepted; want a refusal", tc.values)
			}
			t.Logf("refused: %v", err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("refusal of %s:\n%v\nwant it to say %q", tc.values, err, w)
				}
			}
		})
	}
}

// TestChartCopiesOfConfig: the chart's CRDs, roles and admission policies are config/'s, byte for
// byte (`make generate` copies them), so the chart cannot drift from what controller-gen makes.
func TestChartCopiesOfConfig(t *testing.T) {
	crds, err := filepath.Glob("../config/crd/bases/*.yaml")
	if err != nil || len(crds) == 0 {
		t.Fatalf("no CRDs in config/crd/bases: %v", err)
	}
	copies, _ := filepath.Glob(filepath.Join(chartDir, "crds", "*.yaml"))
	pairs := map[string]string{
		"../config/rbac/role.yaml":           "files/manager-role.yaml",
		"../config/rbac/roles.yaml":          "files/user-roles.yaml",
		"../config/admission/issued-by.yaml": "files/admission.yaml",
	}
	var want []string
	for _, crd := range crds {
		pairs[crd] = filepath.Join("crds", filepath.Base(crd))
		want = append(want, filepath.Join(chartDir, "crds", filepath.Base(crd)))
	}
	if !reflect.DeepEqual(copies, want) {
		t.Errorf("the chart's crds/ holds %v, config/crd/bases %v: run make generate", copies, crds)
	}
	for src, dst := range pairs {
		a, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(chartDir, dst))
		if err != nil {
			t.Errorf("%s: %v (run make generate)", dst, err)
			continue
		}
		if !bytes.Equal(a, b) {
			t.Errorf("charts/pokerfloor/%s differs from %s: run make generate", dst, strings.TrimPrefix(src, "../"))
		}
	}
}

// TestChartRoles: the manager's rendered ClusterRole is config/rbac/role.yaml's rules (generated
// from the reconcilers' markers), and the worker's is exactly what controllers/table_host.go's
// markers ask for, nothing more.
func TestChartRoles(t *testing.T) {
	objs := render(t, loadChart(t), valueCases[0])
	data, err := os.ReadFile("../config/rbac/role.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var generated map[string]any
	if err := yaml.Unmarshal(data, &generated); err != nil {
		t.Fatal(err)
	}
	if got := objs.get(t, "ClusterRole/pf-pokerfloor-manager").Object["rules"]; !reflect.DeepEqual(got, generated["rules"]) {
		t.Errorf("the manager's ClusterRole rules\n%v\ndiffer from config/rbac/role.yaml's\n%v", got, generated["rules"])
	}

	src, err := os.ReadFile("../controllers/table_host.go")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	marker := regexp.MustCompile(`(?m)^// \+kubebuilder:rbac:groups=([^,]*),resources=([^,]+),verbs=(\S+)`)
	for _, m := range marker.FindAllStringSubmatch(string(src), -1) {
		group := strings.Trim(m[1], `"`)
		for _, r := range strings.Split(m[2], ";") {
			for _, v := range strings.Split(m[3], ";") {
				want[group+" "+r+" "+v] = true
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no +kubebuilder:rbac markers in controllers/table_host.go")
	}
	got := map[string]bool{}
	rules, _, _ := unstructured.NestedSlice(objs.get(t, "ClusterRole/pf-pokerfloor-worker").Object, "rules")
	for _, r := range rules {
		r := r.(map[string]any)
		for _, g := range r["apiGroups"].([]any) {
			for _, res := range r["resources"].([]any) {
				for _, v := range r["verbs"].([]any) {
					got[g.(string)+" "+res.(string)+" "+v.(string)] = true
				}
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the worker's ClusterRole grants %v; controllers/table_host.go's markers ask for %v", sortedKeys(got), sortedKeys(want))
	}
}

// TestChartSchemaKnowsEveryTournamentField: the values schema lists the Tournament spec's fields by
// name (so a misspelt one is refused at install), and exactly the CRD's.
func TestChartSchemaKnowsEveryTournamentField(t *testing.T) {
	ch := loadChart(t)
	var schema struct {
		Properties struct {
			Tournaments struct {
				Items struct {
					Properties struct {
						Spec struct {
							Properties map[string]any `json:"properties"`
						} `json:"spec"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"tournaments"`
		} `json:"properties"`
	}
	if err := yaml.Unmarshal(ch.Schema, &schema); err != nil {
		t.Fatalf("values.schema.json: %v", err)
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema struct {
						Properties struct {
							Spec struct {
								Properties map[string]any `json:"properties"`
							} `json:"spec"`
						} `json:"properties"`
					} `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	data, err := os.ReadFile(filepath.Join(chartDir, "crds", "poker.pokerfloor.dev_tournaments.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &crd); err != nil || len(crd.Spec.Versions) == 0 {
		t.Fatalf("the Tournament CRD: %v", err)
	}
	got := sortedKeys(schema.Properties.Tournaments.Items.Properties.Spec.Properties)
	want := sortedKeys(crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties.Spec.Properties)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("values.schema.json's tournaments[].spec has %v; the CRD's spec has %v", got, want)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestChartWithoutEvents: --set tournaments=null (or []) installs the platform alone.
func TestChartWithoutEvents(t *testing.T) {
	ch := loadChart(t)
	for _, vals := range []map[string]any{{"tournaments": nil}, {"tournaments": []any{}}} {
		manifests, err := install(t, ch, "pokerfloor-system", vals)
		if err != nil {
			t.Fatalf("values %v: %v", vals, err)
		}
		for _, m := range manifests {
			if strings.Contains(m, "\nkind: Tournament\n") {
				t.Errorf("values %v rendered a Tournament:\n%s", vals, m)
			}
		}
		if len(manifests) < 10 {
			t.Errorf("values %v rendered %d objects; want the platform's", vals, len(manifests))
		}
	}
}
