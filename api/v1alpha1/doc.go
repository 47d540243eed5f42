// Package v1alpha1 is pokerfloor's Kubernetes API, group poker.pokerfloor.dev: the Tournament a
// director declares, the Tables the operator keeps for it, the Sanctions the floor gives and the
// EntryBatches that register a large field.
//
// Types only. The package imports nothing from the rest of the module (it is a leaf that the
// manager, the kubectl plugin and clients share) and holds no logic: what the API server itself
// must refuse is written as OpenAPI and CEL validation in the kubebuilder markers beside each field,
// so a bad spec is refused with a message before any controller sees it. controller-gen turns the
// markers into config/crd/bases and zz_generated.deepcopy.go (`make generate`).
//
// Money is always a whole number of the currency's minor units (cents), never a float.
//
// +kubebuilder:object:generate=true
// +groupName=poker.pokerfloor.dev
package v1alpha1

// controller-gen by version needs no require in go.mod; TestCRDsUpToDate runs the same version.
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 object crd paths=. output:crd:artifacts:config=../../config/crd/bases
