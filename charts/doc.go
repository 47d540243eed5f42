// Package charts holds the tests of the Helm chart in charts/pokerfloor: they load, lint and render
// the chart with Helm's own Go packages, check that its CRDs, roles and admission policies are the
// ones config/ generates, and apply every rendered object to a real kube-apiserver (envtest) as a
// server-side dry run. It has no code of its own and must never be imported.
//
// The chart's crds/ and files/ are copies of config/ (Helm reads only files inside the chart). `make
// generate` copies them after controller-gen has written config/: the Makefile runs this package's
// generator again last, since go generate ./... reaches charts before controllers.
// TestChartCopiesOfConfig fails when they differ.
package charts

//go:generate sh -c "rm -f pokerfloor/crds/*.yaml && cp ../config/crd/bases/*.yaml pokerfloor/crds/ && cp ../config/rbac/role.yaml pokerfloor/files/manager-role.yaml && cp ../config/rbac/roles.yaml pokerfloor/files/user-roles.yaml && cp ../config/admission/issued-by.yaml pokerfloor/files/admission.yaml"
