package controllers

import (
	"context"
	"errors"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
)

// TestReconcileSpans reconciles a Tournament, a Table and a Table that is gone through the span
// wrapper, reading the objects from a real API server: each reconcile is one span, the inner
// reconcile runs inside it, and its attributes are the workflows' IDs (the Tournament's
// NAMESPACE/NAME/UID, the Table's table-id annotation and its tournament), or the object's
// namespace and name when it is gone; a failed reconcile is a span with an error.
func TestReconcileSpans(t *testing.T) {
	t.Parallel()
	s := startAPIServer(t)
	ctx := testContext(t)
	tour := validTournament("spring")
	if err := s.client.Create(ctx, tour); err != nil {
		t.Fatal(err)
	}
	table := &pokerv1.Table{
		ObjectMeta: metav1.ObjectMeta{Name: tableName("spring", 4), Namespace: testNamespace,
			Annotations: map[string]string{TableIDAnnotation: tournamentWorkflowID(tour) + "/table-004"}},
		Spec: pokerv1.TableSpec{Tournament: "spring", Number: 4, Seats: 9},
	}
	if err := s.client.Create(ctx, table); err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	refused := errors.New("the workflow is out of reach")
	inner := func(err error) reconcile.Reconciler {
		return reconcile.Func(func(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
			if !trace.SpanFromContext(ctx).IsRecording() {
				t.Errorf("%s: the reconcile runs outside its span", req)
			}
			return ctrl.Result{RequeueAfter: time.Second}, err
		})
	}
	cases := []struct {
		kind, name       string
		err              error
		tournament, tabl string
	}{
		{"Tournament", "spring", nil, tournamentWorkflowID(tour), ""},
		{"Table", table.Name, refused, tournamentWorkflowID(tour), tournamentWorkflowID(tour) + "/table-004"},
		{"Table", "spring-table-009", nil, "", testNamespace + "/spring-table-009"},
	}
	for _, c := range cases {
		exp.Reset()
		r := &tracedReconciler{kind: c.kind, reader: s.client, inner: inner(c.err), tracers: tp}
		_, err := r.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: testNamespace, Name: c.name}})
		if !errors.Is(err, c.err) {
			t.Errorf("%s %s: error %v, want %v", c.kind, c.name, err, c.err)
		}
		spans := exp.GetSpans()
		if len(spans) != 1 || spans[0].Name != "reconcile "+c.kind {
			t.Fatalf("%s %s: spans %v, want one named reconcile %s", c.kind, c.name, spans, c.kind)
		}
		got := map[attribute.Key]string{}
		for _, a := range spans[0].Attributes {
			got[a.Key] = a.Value.String()
		}
		if got[attrTournament] != c.tournament || got[attrTable] != c.tabl || got["k8s.object.name"] != c.name {
			t.Errorf("%s %s: attributes %v; want poker.tournament %q, poker.table %q", c.kind, c.name, spans[0].Attributes, c.tournament, c.tabl)
		}
		if failed := spans[0].Status.Code == codes.Error; failed != (c.err != nil) {
			t.Errorf("%s %s: span status %v after error %v", c.kind, c.name, spans[0].Status, c.err)
		}
	}
}
