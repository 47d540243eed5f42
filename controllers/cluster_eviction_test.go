package controllers

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/go-logr/logr"
	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// TestClusterEvictionWaitsForTheHand asks the Eviction API (policy/v1, the pods/eviction
// subresource a node drain uses) to evict a tournament's table Pods on the cluster without
// containers, whose kube-controller-manager runs the disruption controller that fills the
// PodDisruptionBudgets' status (envtest runs none, and an eviction then waits on a budget never
// processed). The tournament's budget is the Tournament reconciler's (ensurePDB), the Pods are the
// Table reconciler's (tablePod) for the Tables the worker's TableHost creates, scheduled and Running
// on kwok's node; the protected label is what the Table reconciler writes from a Pod's /inhand
// (TestOperatorPlaysATournament proves that part with real table processes; kwok's Pods run none).
//
// The budget of the shape before (maxUnavailable 0) fails to sync, a Table having no scale
// subresource; ensurePDB brings it to minAvailable, whose status the controller computes from the
// Pods it selects: observed, DisruptionAllowed False for InsufficientPods, the protected Pod
// counted. A Pod mid-hand is refused with 429 TooManyRequests, naming the budget; one between
// hands is evicted; the Pod refused is evicted once its hand is over.
func TestClusterEvictionWaitsForTheHand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a cluster")
	}
	assets := clusterAssets(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // only a hung test
	defer cancel()
	ctrl.SetLogger(logr.FromSlogHandler(slog.DiscardHandler))
	c := startCluster(t, ctx, assets, 1, "disruption-controller")

	tournament := validTournament("evict")
	if err := c.client.Create(ctx, tournament); err != nil {
		t.Fatal(err)
	}
	// The budget as the manager made it before: maxUnavailable 0 over the protected Pods.
	zero := intstr.FromInt32(0)
	old := &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: tablesPDBName(tournament.Name), Namespace: tournament.Namespace},
		Spec:       policyv1.PodDisruptionBudgetSpec{MaxUnavailable: &zero, Selector: tablesPDBSpec(tournament.Name).Selector},
	}
	if err := controllerutil.SetControllerReference(tournament, old, c.scheme); err != nil {
		t.Fatal(err)
	}
	if err := c.client.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	id := tournamentWorkflowID(tournament)
	acts := &workflows.TableActivities{Host: &TableHost{Client: c.client}}
	var hosted []workflows.HostedTable
	for n := 1; n <= 2; n++ {
		hosted = append(hosted, workflows.HostedTable{ID: fmt.Sprintf("%s/table-%03d", id, n), Tournament: id, Number: floor.TableID(n)})
	}
	if err := acts.CreateTables(ctx, hosted); err != nil {
		t.Fatal(err)
	}
	cfg := Config{TemporalAddress: "temporal-frontend:7233"}.WithDefaults()
	pods := map[string]*corev1.Pod{} // "mid-hand" and "between hands"
	for i, state := range []string{"true", "false"} {
		table := &pokerv1.Table{}
		if err := c.client.Get(ctx, client.ObjectKey{Namespace: tournament.Namespace, Name: tableName(tournament.Name, i+1)}, table); err != nil {
			t.Fatal(err)
		}
		pod := tablePod(cfg, table, tournament)
		pod.Labels[ProtectedLabel] = state
		if err := controllerutil.SetControllerReference(table, pod, c.scheme); err != nil { // as the Table reconciler
			t.Fatal(err)
		}
		if err := c.client.Create(ctx, pod); err != nil {
			t.Fatal(err)
		}
		pods[state] = pod
	}
	waitFor(t, "both table Pods Running and Ready on kwok's node", stepDeadline, func() error {
		for _, p := range pods {
			var got corev1.Pod
			if err := c.client.Get(ctx, client.ObjectKeyFromObject(p), &got); err != nil {
				return err
			}
			if got.Spec.NodeName == "" || got.Status.Phase != corev1.PodRunning || !podReady(&got) {
				return fmt.Errorf("Pod %s: node %q, phase %s", got.Name, got.Spec.NodeName, got.Status.Phase)
			}
		}
		return nil
	})
	pdbKey := client.ObjectKeyFromObject(old)
	budget := func() (policyv1.PodDisruptionBudget, *metav1.Condition, error) {
		var pdb policyv1.PodDisruptionBudget
		if err := c.client.Get(ctx, pdbKey, &pdb); err != nil {
			return pdb, nil, err
		}
		return pdb, meta.FindStatusCondition(pdb.Status.Conditions, policyv1.DisruptionAllowedCondition), nil
	}
	// With maxUnavailable the controller asks the protected Pod's controller, its Table, for its
	// scale, and a Table has none.
	waitFor(t, "the old budget failing to sync", stepDeadline, func() error {
		pdb, cond, err := budget()
		if err != nil {
			return err
		}
		if cond == nil || cond.Reason != policyv1.SyncFailedReason {
			return fmt.Errorf("status %+v", pdb.Status)
		}
		t.Logf("the old budget: %s %s: %s", cond.Status, cond.Reason, cond.Message)
		return nil
	})
	if err := (&TournamentReconciler{Client: c.client}).ensurePDB(ctx, tournament); err != nil {
		t.Fatal(err)
	}
	// The controller computes the budget from the Pods it selects: the protected one, ready.
	// Until it has observed the new spec the API server refuses every eviction the budget covers
	// as still being processed (a 429 too, which the test does not rely on).
	waitFor(t, "the budget's status computed by the disruption controller", stepDeadline, func() error {
		pdb, cond, err := budget()
		if err != nil {
			return err
		}
		st := pdb.Status
		if pdb.Spec.MaxUnavailable != nil || pdb.Spec.MinAvailable == nil || pdb.Spec.MinAvailable.IntValue() != maxTablePods {
			return fmt.Errorf("spec %+v, want minAvailable %d and no maxUnavailable", pdb.Spec, maxTablePods)
		}
		if st.ObservedGeneration != pdb.Generation || cond == nil || cond.Reason == policyv1.SyncFailedReason ||
			st.ExpectedPods != 1 || st.CurrentHealthy != 1 {
			return fmt.Errorf("generation %d, status %+v", pdb.Generation, st)
		}
		if st.DisruptionsAllowed != 0 || st.DesiredHealthy != maxTablePods || cond.Status != metav1.ConditionFalse || cond.Reason != policyv1.InsufficientPodsReason {
			t.Fatalf("status %+v, want no disruption allowed, %d desired healthy, DisruptionAllowed False for %s",
				st, maxTablePods, policyv1.InsufficientPodsReason)
		}
		t.Logf("the budget's status: %+v", st)
		return nil
	})
	// A budget of this shape, as the API server returns it, is left as it is (every reconcile
	// calls ensurePDB).
	if pdb, _, err := budget(); err != nil || !sameBudget(pdb.Spec, tablesPDBSpec(tournament.Name)) {
		t.Fatalf("the budget's spec %+v (%v) is not ensurePDB's own shape to it: every reconcile would patch it", pdb.Spec, err)
	}

	evict := func(pod *corev1.Pod) error {
		return c.client.SubResource("eviction").Create(ctx, pod, &policyv1.Eviction{
			ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace}})
	}
	err := evict(pods["true"])
	var causes []string
	if st, ok := err.(apierrors.APIStatus); ok && st.Status().Details != nil {
		for _, c := range st.Status().Details.Causes {
			causes = append(causes, string(c.Type)+": "+c.Message)
		}
	}
	needs := fmt.Sprintf("The disruption budget %s needs %d healthy pods and has 1 currently", pdbKey.Name, maxTablePods)
	if !apierrors.IsTooManyRequests(err) || !slices.Contains(causes, string(policyv1.DisruptionBudgetCause)+": "+needs) {
		t.Errorf("evicting the Pod mid-hand: %v (%v), want 429 TooManyRequests: %q", err, causes, needs)
	} else {
		t.Logf("mid-hand: 429 %v %v", err, causes)
	}
	if err := evict(pods["false"]); err != nil {
		t.Errorf("evicting the Pod between hands: %v, want it evicted", err)
	}
	gone(t, ctx, c.client, pods["false"])

	// The hand is over: the reconciler's label goes to false, and the Pod may go.
	var p corev1.Pod
	if err := c.client.Get(ctx, client.ObjectKeyFromObject(pods["true"]), &p); err != nil {
		t.Fatal(err)
	}
	before := p.DeepCopy()
	p.Labels[ProtectedLabel] = "false"
	if err := c.client.Patch(ctx, &p, client.MergeFrom(before)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the Pod evicted once its hand is over", stepDeadline, func() error { return evict(pods["true"]) })
	gone(t, ctx, c.client, pods["true"])
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// gone waits until the evicted Pod is being deleted or has gone.
func gone(t *testing.T, ctx context.Context, c client.Client, pod *corev1.Pod) {
	t.Helper()
	waitFor(t, "Pod "+pod.Name+" deleted", stepDeadline, func() error {
		var got corev1.Pod
		err := c.Get(ctx, client.ObjectKeyFromObject(pod), &got)
		switch {
		case apierrors.IsNotFound(err):
			return nil
		case err != nil:
			return err
		case got.DeletionTimestamp != nil:
			return nil
		}
		return fmt.Errorf("Pod %s still there, not being deleted", got.Name)
	})
}
