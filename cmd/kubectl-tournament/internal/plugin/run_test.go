package plugin

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestUnreachableServer needs no API server: nothing listens on port 1.
func TestUnreachableServer(t *testing.T) {
	kubeconfig := writeFile(t, "kubeconfig", `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: x}}]
contexts: [{name: k, context: {cluster: c, user: u, namespace: poker}}]
current-context: k
`)
	var out, errOut strings.Builder
	code := Run([]string{"--kubeconfig", kubeconfig, "standings", "spring-main"},
		genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, "test")
	want := "cannot reach the Kubernetes API server at https://127.0.0.1:1: "
	if code != 1 || !strings.Contains(errOut.String(), want) || !strings.Contains(errOut.String(), "check the kubeconfig and its context") {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut.String(), want)
	}
}
