// Package controllers holds pokerfloor's Kubernetes reconcilers: the Tournament reconciler, which
// starts the tournament's workflow and mirrors its state into status, and the Table reconciler, which
// keeps one table Pod and Service per Table.
//
// Reconcilers here are idempotent and short: fetch, compute the desired children, create or patch
// them, write conditions. They never hold tournament state of their own (Temporal holds it) and never
// run hands (the table process does). Their tests run against a real kube-apiserver and etcd through
// envtest; hack/setup-envtest.sh builds those binaries.
package controllers
