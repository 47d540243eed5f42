package controllers

import (
	"context"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// startEnvtest starts a real kube-apiserver and etcd from KUBEBUILDER_ASSETS and stops them when the
// test ends. Without the binaries the test is skipped on a developer's machine and fails in CI, where a
// skipped controller test would pass for a tested one.
func startEnvtest(t *testing.T) client.Client {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		const msg = "KUBEBUILDER_ASSETS is not set: run `export KUBEBUILDER_ASSETS=$(hack/setup-envtest.sh)` " +
			"(or `make test`, which does it) to build kube-apiserver and etcd"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	env := &envtest.Environment{}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest (kube-apiserver and etcd from %s): %v", os.Getenv("KUBEBUILDER_ASSETS"), err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest: %v", err)
		}
	})
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatalf("client for envtest: %v", err)
	}
	return c
}

// TestEnvtestSmoke proves the envtest binaries work: the API server starts, stores an object and
// gives it back.
func TestEnvtestSmoke(t *testing.T) {
	c := startEnvtest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	want := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "smoke", Namespace: "default"},
		Data:       map[string]string{"game": "no-limit hold'em"},
	}
	if err := c.Create(ctx, want); err != nil {
		t.Fatalf("creating ConfigMap: %v", err)
	}
	var got corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKeyFromObject(want), &got); err != nil {
		t.Fatalf("reading ConfigMap back: %v", err)
	}
	if got.Data["game"] != "no-limit hold'em" || got.UID == "" {
		t.Errorf("ConfigMap read back as %+v, want data %v and a UID from the API server", got.Data, want.Data)
	}
}
