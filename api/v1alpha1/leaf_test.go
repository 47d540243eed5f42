package v1alpha1

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
)

// TestLeafPackage keeps the API a leaf (ARCHITECTURE.md): the types import the standard library
// and Kubernetes' own API modules only, never the rest of pokerfloor, so that the manager, the
// kubectl plugin and any client share them without pulling in Temporal or the engine.
func TestLeafPackage(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			std := !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
			kube := strings.HasPrefix(path, "k8s.io/apimachinery/") || strings.HasPrefix(path, "k8s.io/api/")
			if !std && !kube {
				t.Errorf("%s imports %s: api/v1alpha1 may import only the standard library, k8s.io/apimachinery and k8s.io/api", f, path)
			}
		}
	}
}

// TestSchemeKnowsEveryKind: each root type and its list are registered under the group.
func TestSchemeKnowsEveryKind(t *testing.T) {
	s := runtime.NewScheme()
	if err := AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"Tournament", "Table", "Sanction", "EntryBatch"} {
		for _, k := range []string{kind, kind + "List"} {
			if !s.Recognizes(GroupVersion.WithKind(k)) {
				t.Errorf("the scheme does not know %s in %s", k, GroupVersion)
			}
		}
	}
}
