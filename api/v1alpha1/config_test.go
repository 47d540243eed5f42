package v1alpha1

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestKustomizationsListEveryManifest: each kustomization under config lists exactly the manifests
// beside it (and its sub-bases), so a CRD or a sample added to a folder is installed by
// `kubectl apply -k`, and none listed is missing.
func TestKustomizationsListEveryManifest(t *testing.T) {
	root := filepath.Join("..", "..", "config")
	kustomizations, _ := filepath.Glob(filepath.Join(root, "*", "kustomization.yaml"))
	kustomizations = append(kustomizations, filepath.Join(root, "kustomization.yaml"))
	if len(kustomizations) < 5 {
		t.Fatalf("found %d kustomizations under config, want the top one, crd, rbac, admission and samples", len(kustomizations))
	}
	for _, k := range kustomizations {
		data, err := os.ReadFile(k)
		if err != nil {
			t.Fatal(err)
		}
		var kz struct {
			Resources []string `json:"resources"`
		}
		if err := yaml.UnmarshalStrict(data, &kz); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		dir := filepath.Dir(k)
		for _, r := range kz.Resources {
			if _, err := os.Stat(filepath.Join(dir, r)); err != nil {
				t.Errorf("%s lists %s, which does not exist", k, r)
			}
		}
		var manifests []string
		for _, pattern := range []string{"*.yaml", filepath.Join("bases", "*.yaml")} {
			found, _ := filepath.Glob(filepath.Join(dir, pattern))
			for _, f := range found {
				if rel, _ := filepath.Rel(dir, f); rel != "kustomization.yaml" {
					manifests = append(manifests, rel)
				}
			}
		}
		for _, m := range manifests {
			if !slices.Contains(kz.Resources, m) {
				t.Errorf("%s does not list %s", k, m)
			}
		}
	}
}
