package controllers

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// The reconcilers' traces: a span for each reconcile, named for the kind it reconciles, with the
// poker.tournament and poker.table attributes that the tables' and the workflows' spans bear
// (the workflows' IDs), so that one query finds a tournament's reconciles beside its hands. The
// counts and durations are controller-runtime's own metrics (controller_runtime_reconcile_total,
// _time_seconds) on the manager's /metrics; this adds the spans only. The tracer is
// OpenTelemetry's global one (the manager's process sets it; without it the spans go nowhere).

const tracerName = "github.com/pokerfloor/pokerfloor/controllers"

// Span attributes, as the tables' and the workflows' spans name them.
const (
	attrTournament = attribute.Key("poker.tournament")
	attrTable      = attribute.Key("poker.table")
)

// tracedReconciler reconciles through inner inside a span.
type tracedReconciler struct {
	kind   string        // "Tournament" or "Table"
	reader client.Reader // the manager's cached client: reading the object costs no request
	inner  reconcile.Reconciler
	// tracers, if set, makes the spans instead of the global provider (tests).
	tracers trace.TracerProvider
}

// withReconcileSpans wraps r, the reconciler of kind, with a span for each reconcile.
func withReconcileSpans(kind string, reader client.Reader, r reconcile.Reconciler) reconcile.Reconciler {
	return &tracedReconciler{kind: kind, reader: reader, inner: r}
}

func (t *tracedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	attrs := append([]attribute.KeyValue{attribute.String("k8s.namespace.name", req.Namespace),
		attribute.String("k8s.object.kind", t.kind), attribute.String("k8s.object.name", req.Name)}, t.pokerAttributes(ctx, req.NamespacedName)...)
	tp := t.tracers
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	ctx, span := tp.Tracer(tracerName).Start(ctx, "reconcile "+t.kind, trace.WithAttributes(attrs...))
	defer span.End()
	res, err := t.inner.Reconcile(ctx, req)
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	if res.RequeueAfter > 0 {
		span.SetAttributes(attribute.String("k8s.reconcile.requeue_after", res.RequeueAfter.String()))
	}
	return res, err
}

// pokerAttributes are the workflows' IDs of the object: a Tournament's workflow ID, or a Table's
// (from its table-id annotation) and its tournament's. An object gone (being deleted, or a
// request for one that is no more) has its namespace and name instead.
func (t *tracedReconciler) pokerAttributes(ctx context.Context, key types.NamespacedName) []attribute.KeyValue {
	switch t.kind {
	case "Tournament":
		var tour pokerv1.Tournament
		if err := t.reader.Get(ctx, key, &tour); err == nil {
			return []attribute.KeyValue{attrTournament.String(tournamentWorkflowID(&tour))}
		}
		return []attribute.KeyValue{attrTournament.String(key.String())}
	case "Table":
		var table pokerv1.Table
		if err := t.reader.Get(ctx, key, &table); err != nil {
			return []attribute.KeyValue{attrTable.String(key.String())}
		}
		if id := table.Annotations[TableIDAnnotation]; id != "" {
			if tour, _, err := parseTableWorkflowID(id); err == nil {
				return []attribute.KeyValue{attrTournament.String(tour), attrTable.String(id)}
			}
		}
		return []attribute.KeyValue{attrTournament.String(table.Namespace + "/" + table.Spec.Tournament), attrTable.String(key.String())}
	}
	return nil
}

// PublishedStructure is the blind structure a Tournament's spec publishes, as its workflow plays
// it: the manager's lobby page lists the levels to come from it.
func PublishedStructure(t *pokerv1.Tournament) (floor.Structure, error) {
	spec, err := workflowSpec(t)
	return spec.Structure, err
}
