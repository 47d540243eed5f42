// Package controllers holds pokerfloor's Kubernetes reconcilers: the Tournament reconciler, which
// starts the tournament's workflow and mirrors its state into status, and the Table reconciler, which
// keeps one table Pod and Service per Table.
//
// Reconcilers here are idempotent and short: fetch, compute the desired children, create or patch
// them, write conditions. They never hold tournament state of their own (Temporal holds it) and never
// run hands (the table process does). Their tests run against a real kube-apiserver and etcd through
// envtest; hack/setup-envtest.sh builds those binaries.
package controllers

// The manager's ClusterRole (config/rbac/role.yaml, pokerfloor-manager) is generated from the
// kubebuilder:rbac markers beside each reconciler and the TableHost; the worker uses it too.
//go:generate go run sigs.k8s.io/controller-tools/cmd/controller-gen@v0.23.0 rbac:roleName=pokerfloor-manager paths=. output:rbac:artifacts:config=../config/rbac

// Leader election (pokerfloor manager --leader-elect) holds a Lease.
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete
