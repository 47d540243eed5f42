package v1alpha1

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCRDsUpToDate regenerates the CRDs with the go:generate line of doc.go into a temporary folder
// and compares them with config/crd/bases, so a marker changed without `make generate` fails here
// rather than on a cluster. It runs controller-gen through `go run` (built once into Go's cache).
func TestCRDsUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs controller-gen")
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^//go:generate go run (sigs\.k8s\.io/controller-tools/cmd/controller-gen@\S+) `).FindSubmatch(doc)
	if m == nil {
		t.Fatal("doc.go has no go:generate line running controller-gen")
	}
	// Read every source file the generator reads, so that `go test`'s cache, which keys on the
	// files a test opens, reruns this test when a marker changes.
	sources, _ := filepath.Glob("*.go")
	for _, f := range sources {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("go", "run", string(m[1]), "crd", "paths=.", "output:crd:artifacts:config="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, b)
	}
	fresh, _ := filepath.Glob(filepath.Join(out, "*.yaml"))
	checkedIn, _ := filepath.Glob(filepath.Join("..", "..", "config", "crd", "bases", "*.yaml"))
	if len(fresh) == 0 || len(fresh) != len(checkedIn) {
		t.Fatalf("controller-gen wrote %d CRDs, config/crd/bases holds %d: run `make generate`", len(fresh), len(checkedIn))
	}
	for _, f := range fresh {
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join("..", "..", "config", "crd", "bases", filepath.Base(f)))
		if err != nil {
			t.Errorf("config/crd/bases lacks %s: run `make generate`", filepath.Base(f))
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("config/crd/bases/%s differs from a fresh generation: run `make generate`", filepath.Base(f))
		}
	}
}
