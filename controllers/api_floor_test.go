package controllers

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	"sigs.k8s.io/yaml"
)

// TestCRDMatchesTheFloor: the API is a leaf and cannot import the workflows, so its enums and
// bounds are written out in the markers. This test reads the generated CRDs and checks them against
// the names and limits the workflows and the engine act on, so the two cannot drift apart.
func TestCRDMatchesTheFloor(t *testing.T) {
	tournament := crdSchema(t, "poker.pokerfloor.dev_tournaments.yaml")
	sanction := crdSchema(t, "poker.pokerfloor.dev_sanctions.yaml")
	spec := field(t, tournament, "spec")
	for _, tc := range []struct {
		what string
		got  any
		want any
	}{
		{"structure names (B3)", enum(t, field(t, spec, "structure", "name")), sorted(floor.StructureNames()...)},
		{"built-in payouts (R6)", enum(t, field(t, spec, "payouts", "builtin")),
			sorted(floor.PayoutStandard, floor.PayoutTopHeavy, floor.PayoutFlat)},
		{"least paid percent (R6)", field(t, spec, "payouts", "paidPercent")["minimum"], float64(floor.MinPaidPercent)},
		{"largest table (T1)", field(t, spec, "tableSize")["maximum"], float64(floor.MaxTableSize)},
		{"largest table in the engine (T1)", field(t, spec, "tableSize")["maximum"], float64(engine.MaxSeats)},
		{"default balance threshold (R3)", field(t, spec, "balanceThreshold")["default"], float64(floor.DefaultBalanceThreshold)},
		{"sanction kinds (P1)", enum(t, field(t, sanction, "spec", "kind")),
			sorted(string(floor.Warning), string(floor.Exclusion), string(floor.Disqualification))},
		{"longest exclusion (P1)", field(t, sanction, "spec", "rounds")["maximum"], float64(floor.MaxExclusionRounds)},
	} {
		if fmt.Sprint(tc.got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: the CRD says %v, the workflows %v", tc.what, tc.got, tc.want)
		}
	}
	for _, name := range floor.StructureNames() {
		if _, err := floor.BuiltinStructure(name); err != nil {
			t.Errorf("built-in structure %q the CRD accepts: %v", name, err)
		}
	}
}

// crdSchema is the openAPIV3Schema of a generated CRD's only version.
func crdSchema(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "config", "crd", "bases", file))
	if err != nil {
		t.Fatal(err)
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
				} `json:"schema"`
			} `json:"versions"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(data, &crd); err != nil || len(crd.Spec.Versions) != 1 {
		t.Fatalf("%s: %v (%d versions)", file, err, len(crd.Spec.Versions))
	}
	return crd.Spec.Versions[0].Schema.OpenAPIV3Schema
}

// field walks properties by name.
func field(t *testing.T, schema map[string]any, path ...string) map[string]any {
	t.Helper()
	for _, p := range path {
		props, _ := schema["properties"].(map[string]any)
		next, ok := props[p].(map[string]any)
		if !ok {
			t.Fatalf("the schema has no property %q (path %v)", p, path)
		}
		schema = next
	}
	return schema
}

func enum(t *testing.T, schema map[string]any) []string {
	t.Helper()
	var out []string
	for _, v := range schema["enum"].([]any) {
		out = append(out, fmt.Sprint(v))
	}
	slices.Sort(out)
	return out
}

func sorted(xs ...string) []string {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs
}
