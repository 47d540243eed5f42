package controllers

import (
	"context"
	"fmt"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// TableHost is the workflows' TableHost on Kubernetes: a table is a Table object, owned by its
// Tournament, whose Pod the TableReconciler keeps. `pokerfloor worker` registers it. Every call is
// idempotent, keyed by the table's name (from its workflow ID): a retried activity finds the
// Table it made.
type TableHost struct {
	Client client.Client
}

var _ workflows.TableHost = (*TableHost)(nil)

// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tables,verbs=get;list;watch;create;delete
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tournaments,verbs=get
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;delete

// CreateTable creates the Table unless it exists.
func (h *TableHost) CreateTable(ctx context.Context, t workflows.HostedTable) error {
	ns, name, err := parseTournamentWorkflowID(t.Tournament)
	if err != nil {
		return err
	}
	var tournament pokerv1.Tournament
	if err := h.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, &tournament); err != nil {
		return fmt.Errorf("table %s: its tournament: %w", t.ID, err)
	}
	if tournamentWorkflowID(&tournament) != t.Tournament {
		return fmt.Errorf("table %s: Tournament %s/%s is another tournament now (UID %s)", t.ID, ns, name, tournament.UID)
	}
	seats := tournament.Spec.TableSize
	if seats == 0 {
		seats = workflows.DefaultTableSize
	}
	table := &pokerv1.Table{
		ObjectMeta: metav1.ObjectMeta{
			Name: tableName(name, int(t.Number)), Namespace: ns,
			Labels:      map[string]string{TournamentLabel: name},
			Annotations: map[string]string{TableIDAnnotation: t.ID},
		},
		Spec: pokerv1.TableSpec{Tournament: name, Number: int32(t.Number), Seats: seats},
	}
	if t.Simulation {
		table.Annotations[SimulationAnnotation] = "true"
	}
	if err := controllerutil.SetControllerReference(&tournament, table, h.Client.Scheme()); err != nil {
		return err
	}
	return client.IgnoreAlreadyExists(h.Client.Create(ctx, table))
}

// DeleteTable deletes the Table (its Pod and Service go by owner references), if it is there.
func (h *TableHost) DeleteTable(ctx context.Context, id string) error {
	key, err := tableKey(id)
	if err != nil {
		return err
	}
	table := &pokerv1.Table{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	return client.IgnoreNotFound(h.Client.Delete(ctx, table, client.PropagationPolicy(metav1.DeletePropagationBackground)))
}

// ReplaceTable deletes the table's Pod, which the TableReconciler then replaces (once the old one
// has stopped: at most one process deals at a table). The Table stays, and so does its number.
func (h *TableHost) ReplaceTable(ctx context.Context, t workflows.HostedTable) error {
	key, err := tableKey(t.ID)
	if err != nil {
		return err
	}
	var table pokerv1.Table
	if err := h.Client.Get(ctx, key, &table); apierrors.IsNotFound(err) {
		return h.CreateTable(ctx, t)
	} else if err != nil {
		return err
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	return client.IgnoreNotFound(h.Client.Delete(ctx, pod))
}

// tableKey is the Table of a TableWorkflow ID.
func tableKey(id string) (client.ObjectKey, error) {
	tid, n, err := parseTableWorkflowID(id)
	if err != nil {
		return client.ObjectKey{}, err
	}
	ns, name, err := parseTournamentWorkflowID(tid)
	if err != nil {
		return client.ObjectKey{}, err
	}
	return client.ObjectKey{Namespace: ns, Name: tableName(name, n)}, nil
}
