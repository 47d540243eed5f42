package controllers

import (
	"context"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/controllers/envtestutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// startEnvtest starts a real kube-apiserver and etcd from KUBEBUILDER_ASSETS, with no CRDs, and
// stops them when the test ends.
func startEnvtest(t *testing.T) client.Client {
	t.Helper()
	return envtestutil.Start(t, "").Client
}

// TestEnvtestSmoke proves the envtest binaries work: the API server starts, stores an object and
// gives it back.
func TestEnvtestSmoke(t *testing.T) {
	t.Parallel()
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
