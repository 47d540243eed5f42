// Package charts holds the tests of the Helm chart in charts/pokerfloor: they load, lint and render
// the chart with Helm's own Go packages, check that its CRDs and the manager's role are the ones
// config/ generates, and apply every rendered object to a real kube-apiserver (envtest) as a
// server-side dry run. It has no code of its own and must never be imported.
package charts
