package controllers

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// TableReconciler keeps one Pod and one Service for each Table, replaces a Pod that is lost, and
// reports in the Table's status what the Pod and the table process say about themselves: ready
// (/readyz, through the Pod's readiness), crashed (the container's restarts), in a hand (/inhand,
// which the reconciler asks while the Pod is ready).
//
// A Pod in the middle of a hand is protected from eviction by the tournament's
// PodDisruptionBudget (tablesPDBSpec), which selects the Pods this reconciler labels protected.
// A PDB and not the cluster autoscaler's safe-to-evict annotation: every eviction (kubectl drain,
// node upgrades, the autoscaler too) goes through the Eviction API, which honours PDBs; the
// annotation is read by the autoscaler only. Between two looks the table process's own SIGTERM
// handling (it finishes its hand within the Pod's grace period) covers the hand that just began.
type TableReconciler struct {
	client.Client
	Config   Config
	Recorder events.EventRecorder
	// HTTP asks the table processes /inhand; http.DefaultClient with a timeout when nil.
	HTTP *http.Client
}

// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tables,verbs=get;list;watch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tables/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tournaments,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods;services,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile fetches the Table, makes sure its Pod and Service exist, and writes what it observed.
func (r *TableReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var table pokerv1.Table
	if err := r.Get(ctx, req.NamespacedName, &table); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !table.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // its Pod and Service go with it (owner references)
	}
	var tournament *pokerv1.Tournament
	var t pokerv1.Tournament
	if err := r.Get(ctx, types.NamespacedName{Namespace: table.Namespace, Name: table.Spec.Tournament}, &t); err == nil {
		tournament = &t
	} else if !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	if err := r.ensureService(ctx, &table); err != nil {
		return ctrl.Result{}, err
	}
	pod, err := r.ensurePod(ctx, &table, tournament)
	if err != nil {
		return ctrl.Result{}, err
	}
	before := table.DeepCopy()
	obs := r.observe(ctx, &table, pod)
	if pod != nil && pod.DeletionTimestamp.IsZero() {
		if err := r.protect(ctx, pod, obs.inHand); err != nil {
			return ctrl.Result{}, err
		}
	}
	obs.write(&table)
	if !equalJSON(before.Status, table.Status) {
		if err := r.Status().Patch(ctx, &table, client.MergeFrom(before)); err != nil {
			return ctrl.Result{}, err
		}
	}
	if obs.ready || pod == nil || !pod.DeletionTimestamp.IsZero() {
		return ctrl.Result{RequeueAfter: r.Config.PollInterval}, nil
	}
	return ctrl.Result{}, nil // the Pod's own changes wake the reconciler
}

func (r *TableReconciler) ensureService(ctx context.Context, table *pokerv1.Table) error {
	var svc corev1.Service
	err := r.Get(ctx, client.ObjectKeyFromObject(table), &svc)
	if !apierrors.IsNotFound(err) {
		return err
	}
	want := tableService(r.Config, table)
	if err := controllerutil.SetControllerReference(table, want, r.Scheme()); err != nil {
		return err
	}
	return client.IgnoreAlreadyExists(r.Create(ctx, want))
}

// ensurePod returns the table's Pod, creating it when there is none. A Pod that has ended (Failed
// or Succeeded: evicted, its node lost, its process done) is deleted, and the next reconcile
// creates its replacement: the Pod's name is the Table's, so at most one process ever deals at the
// table, and a new one starts only once the old one is gone.
func (r *TableReconciler) ensurePod(ctx context.Context, table *pokerv1.Table, tournament *pokerv1.Tournament) (*corev1.Pod, error) {
	var pod corev1.Pod
	err := r.Get(ctx, client.ObjectKeyFromObject(table), &pod)
	switch {
	case apierrors.IsNotFound(err):
		want := tablePod(r.Config, table, tournament)
		if err := controllerutil.SetControllerReference(table, want, r.Scheme()); err != nil {
			return nil, err
		}
		if err := r.Create(ctx, want); err != nil {
			return nil, client.IgnoreAlreadyExists(err)
		}
		if table.Status.Pod != "" {
			r.Recorder.Eventf(table, want, corev1.EventTypeWarning, "PodReplaced", "Replace",
				"the table's Pod was lost; a new one loads the table from its workflow (the hand in progress is void, D4)")
		}
		return want, nil
	case err != nil:
		return nil, err
	case !metav1.IsControlledBy(&pod, table):
		return nil, fmt.Errorf("pod %s exists and is not this Table's: delete or rename it", pod.Name)
	case pod.DeletionTimestamp.IsZero() && (pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded):
		r.Recorder.Eventf(table, &pod, corev1.EventTypeWarning, "PodEnded", "Delete",
			"the table's Pod ended (%s %s: %s); it is deleted and replaced", pod.Status.Phase, pod.Status.Reason, pod.Status.Message)
		uid := pod.UID
		if err := r.Delete(ctx, &pod, client.Preconditions{UID: &uid}); err != nil && !apierrors.IsNotFound(err) {
			return nil, err
		}
	}
	return &pod, nil
}

// protect labels the Pod protected (or not) from eviction, as the process said about its hand.
func (r *TableReconciler) protect(ctx context.Context, pod *corev1.Pod, inHand *bool) error {
	if inHand == nil {
		return nil // not asked (not ready) or no answer: leave it as it was
	}
	want := strconv.FormatBool(*inHand)
	if pod.Labels[ProtectedLabel] == want {
		return nil
	}
	before := pod.DeepCopy()
	pod.Labels = mergeLabels(pod.Labels, map[string]string{ProtectedLabel: want})
	return client.IgnoreNotFound(r.Patch(ctx, pod, client.MergeFrom(before)))
}

// tableObservation is what the Pod and the process said.
type tableObservation struct {
	pod            *corev1.Pod
	ready          bool
	inHand         *bool
	hand           int64
	inHandErr      error
	podReady       metav1.Condition
	protectedState metav1.Condition
	phase          pokerv1.TablePhase
}

func (r *TableReconciler) observe(ctx context.Context, table *pokerv1.Table, pod *corev1.Pod) tableObservation {
	o := tableObservation{pod: pod, phase: pokerv1.TablePending}
	cond := func(status metav1.ConditionStatus, reason, format string, args ...any) metav1.Condition {
		return metav1.Condition{Type: pokerv1.TablePodReady, Status: status, Reason: reason, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case pod == nil || !pod.DeletionTimestamp.IsZero():
		o.podReady = cond(metav1.ConditionFalse, "PodReplacing",
			"the table's Pod is gone or going; a new one is created once it has stopped (at most one process deals at a table)")
	case pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded:
		o.podReady = cond(metav1.ConditionFalse, "PodEnded", "Pod %s ended (%s %s: %s); it is being replaced",
			pod.Name, pod.Status.Phase, pod.Status.Reason, pod.Status.Message)
	case pod.Status.Phase != corev1.PodRunning:
		o.podReady = cond(metav1.ConditionFalse, "PodPending",
			"Pod %s is %s: not running yet (kubectl describe pod %s shows why)", pod.Name, podPhase(pod), pod.Name)
	case isPodReady(pod):
		o.ready, o.phase = true, pokerv1.TableReady
		o.podReady = cond(metav1.ConditionTrue, "TableReady", "the table process in Pod %s has loaded the table and serves its players", pod.Name)
	default:
		o.phase = pokerv1.TableStarting
		o.podReady = cond(metav1.ConditionFalse, "Starting",
			"the table process in Pod %s has not loaded the table from its workflow yet: it must reach Temporal at %s (namespace %s)",
			pod.Name, r.Config.TemporalAddress, r.Config.TemporalNamespace)
	}
	if cs := tableContainer(pod); cs != nil && cs.RestartCount > 0 && !o.ready {
		msg := fmt.Sprintf("the table process in Pod %s crashed and restarted %d times", pod.Name, cs.RestartCount)
		if t := cs.LastTerminationState.Terminated; t != nil {
			msg += fmt.Sprintf("; last exit code %d (%s)", t.ExitCode, t.Reason)
		}
		if w := cs.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" {
			o.phase = pokerv1.TableFailed
		}
		o.podReady = cond(metav1.ConditionFalse, "Crashed", "%s: kubectl logs %s --previous", msg, pod.Name)
	}
	protected := func(status metav1.ConditionStatus, reason, format string, args ...any) metav1.Condition {
		return metav1.Condition{Type: pokerv1.TableProtected, Status: status, Reason: reason, Message: fmt.Sprintf(format, args...)}
	}
	o.protectedState = protected(metav1.ConditionFalse, "NotRunning", "no table process is dealing: nothing to protect")
	if o.ready {
		in, hand, err := r.askInHand(ctx, pod)
		switch {
		case err != nil:
			o.inHandErr = err
			o.protectedState = protected(metav1.ConditionUnknown, "NoAnswer",
				"the table process did not answer /inhand (%v); the Pod keeps the protection it had", err)
		case in:
			o.inHand, o.hand = &in, hand
			o.protectedState = protected(metav1.ConditionTrue, "InHand",
				"hand %d is in progress: Pod %s is labelled %s=true and the PodDisruptionBudget %s refuses its eviction until the hand ends",
				hand, pod.Name, ProtectedLabel, tablesPDBName(table.Spec.Tournament))
		default:
			o.inHand = &in
			o.protectedState = protected(metav1.ConditionFalse, "BetweenHands",
				"no hand in progress: Pod %s may be evicted (a SIGTERM lets the next hand finish first)", pod.Name)
		}
	}
	return o
}

func (o tableObservation) write(table *pokerv1.Table) {
	s := &table.Status
	s.ObservedGeneration = table.Generation
	if s.Phase != pokerv1.TableBreaking && s.Phase != pokerv1.TableClosed || o.phase == pokerv1.TableFailed {
		s.Phase = o.phase
	}
	if o.pod != nil {
		s.Pod = o.pod.Name
	}
	if o.inHand != nil {
		s.InHand = *o.inHand
		if *o.inHand {
			s.HandNumber = max(s.HandNumber, o.hand)
		}
	} else if !o.ready {
		s.InHand = false
	}
	for _, c := range []metav1.Condition{o.podReady, o.protectedState} {
		c.ObservedGeneration = table.Generation
		meta.SetStatusCondition(&s.Conditions, c)
	}
}

// askInHand asks the table process whether a hand is in progress, at the Pod's own address.
func (r *TableReconciler) askInHand(ctx context.Context, pod *corev1.Pod) (bool, int64, error) {
	if pod.Status.PodIP == "" {
		return false, 0, fmt.Errorf("the Pod has no IP")
	}
	hc := r.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 5 * time.Second}
	}
	url := "http://" + net.JoinHostPort(pod.Status.PodIP, strconv.Itoa(int(r.Config.TablePort))) + "/inhand"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false, 0, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return false, 0, err
	}
	defer resp.Body.Close()
	var body struct {
		InHand bool  `json:"inHand"`
		Hand   int64 `json:"hand"`
	}
	if resp.StatusCode != http.StatusOK {
		return false, 0, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return false, 0, fmt.Errorf("GET %s: %w", url, err)
	}
	return body.InHand, body.Hand, nil
}

func isPodReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func podPhase(pod *corev1.Pod) string {
	if pod.Status.Phase == "" {
		return string(corev1.PodPending)
	}
	return string(pod.Status.Phase)
}

func tableContainer(pod *corev1.Pod) *corev1.ContainerStatus {
	if pod == nil {
		return nil
	}
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == "table" {
			return &pod.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// equalJSON compares two statuses by what they serialise to.
func equalJSON(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// SetupWithManager registers the reconciler: Tables, and the Pods and Services they own.
func (r *TableReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&pokerv1.Table{}).
		Owns(&corev1.Pod{}).
		Owns(&corev1.Service{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: max(1, r.Config.TableWorkers)}).
		Complete(withReconcileSpans("Table", mgr.GetClient(), r)) // a span a reconcile (telemetry.go)
}
