package plugin

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/controllers/envtestutil"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// The fixture: a real kube-apiserver and etcd (envtest) with the CRDs of config/crd/bases and the
// roles of config/rbac as they ship, and a kubeconfig file whose contexts are real users that
// only RBAC bindings give rights to. The plugin runs in-process, as `kubectl tournament` would,
// with --kubeconfig pointing at that file.

const (
	nsPoker = "poker"
	nsOther = "other"
	// The users, each a context of the same name in the kubeconfig file.
	userAdmin     = "admin"       // envtest's administrator (system:masters)
	userDirector  = "floor-ann"   // pokerfloor-director in nsPoker
	userViewer    = "viewer-vic"  // pokerfloor-viewer in nsPoker
	userNobody    = "nobody-ned"  // no binding at all
	ctxAdminOther = "admin-other" // the administrator, with nsOther as the context's namespace
)

// rbacWait bounds how long the API server may take to learn of new RoleBindings (it watches
// them). It only stops a hung test: a machine 5x slower holds.
const rbacWait = 3 * time.Minute

type fixture struct {
	env        *envtest.Environment
	admin      crclient.Client
	kubeconfig string
}

func testContext(t *testing.T) context.Context {
	// Generous: a deadline here only stops a hung test, and must hold on a machine 5x slower.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// startFixture starts envtest. Without the binaries the test is skipped on a developer's machine
// and fails in CI, where a skipped test would pass for a tested one.
func startFixture(t *testing.T) *fixture {
	t.Helper()
	root := filepath.Join("..", "..", "..", "..")
	s := envtestutil.Start(t, filepath.Join(root, "config", "crd", "bases"), pokerv1.AddToScheme)
	env, cfg, admin := s.Env, s.Config, s.Client
	f := &fixture{env: env, admin: admin}
	ctx := testContext(t)
	for _, ns := range []string{nsPoker, nsOther} {
		if err := admin.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
			t.Fatal(err)
		}
	}
	installManifests(t, ctx, admin, filepath.Join(root, "config", "rbac", "*.yaml"))
	bind(t, ctx, admin, userDirector, "pokerfloor-director")
	bind(t, ctx, admin, userViewer, "pokerfloor-viewer")

	users := map[string]*rest.Config{userAdmin: cfg, ctxAdminOther: cfg}
	for _, name := range []string{userDirector, userViewer, userNobody} {
		u, err := env.AddUser(envtest.User{Name: name}, nil)
		if err != nil {
			t.Fatalf("adding user %s: %v", name, err)
		}
		users[name] = u.Config()
	}
	f.kubeconfig = writeKubeconfig(t, users)
	return f
}

// writeKubeconfig writes a kubeconfig with one context per user, all in nsPoker but
// ctxAdminOther, and the administrator's as the current context.
func writeKubeconfig(t *testing.T, users map[string]*rest.Config) string {
	t.Helper()
	kc := clientcmdapi.NewConfig()
	for name, c := range users {
		kc.Clusters[name] = &clientcmdapi.Cluster{Server: c.Host, CertificateAuthorityData: c.CAData}
		kc.AuthInfos[name] = &clientcmdapi.AuthInfo{ClientCertificateData: c.CertData, ClientKeyData: c.KeyData, Token: c.BearerToken}
		ns := nsPoker
		if name == ctxAdminOther {
			ns = nsOther
		}
		kc.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name, Namespace: ns}
	}
	kc.CurrentContext = userAdmin
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	return path
}

func bind(t *testing.T, ctx context.Context, c crclient.Client, user, clusterRole string) {
	t.Helper()
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user + "-" + clusterRole, Namespace: nsPoker},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: clusterRole},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: user}},
	}
	if err := c.Create(ctx, rb); err != nil {
		t.Fatalf("binding %s to %s: %v", user, clusterRole, err)
	}
}

func installManifests(t *testing.T, ctx context.Context, c crclient.Client, pattern string) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests match %s (%v)", pattern, err)
	}
	for _, file := range files {
		if filepath.Base(file) == "kustomization.yaml" {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			u := &unstructured.Unstructured{}
			if err := dec.Decode(&u.Object); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				t.Fatalf("%s: %v", file, err)
			}
			if len(u.Object) == 0 {
				continue
			}
			if err := c.Create(ctx, u); err != nil {
				t.Fatalf("installing %s %s from %s: %v", u.GetKind(), u.GetName(), file, err)
			}
		}
	}
}

// result is one run of the plugin.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return "exit " + strconv.Itoa(r.code) + "\n--- stdout:\n" + r.stdout + "--- stderr:\n" + r.stderr
}

// run runs `kubectl tournament args...` against the fixture's kubeconfig.
func (f *fixture) run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	streams := genericiooptions.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
	code := Run(append([]string{"--kubeconfig", f.kubeconfig}, args...), streams, "test")
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// runAs retries a run until RBAC knows the user's binding (the API server learns of new
// RoleBindings from a watch): until it stops saying Forbidden, or rbacWait passes.
func (f *fixture) runAs(t *testing.T, args ...string) result {
	t.Helper()
	deadline := time.Now().Add(rbacWait)
	for {
		r := f.run(t, "", args...)
		if !strings.Contains(r.stderr, "may not") || time.Now().After(deadline) {
			return r
		}
		time.Sleep(200 * time.Millisecond)
	}
}
