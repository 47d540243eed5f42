package controllers

import (
	"context"
	"fmt"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	temporal "go.temporal.io/sdk/client"
	"golang.org/x/time/rate"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// maxListedStandings: a field this small has its standings read from the workflow at each look;
// a larger one's full list does not fit one query answer (ARCHITECTURE.md, Scale).
const maxListedStandings = 1000

// temporalTimeout bounds one reconcile's calls to Temporal.
const temporalTimeout = 30 * time.Second

// TournamentReconciler starts each Tournament's workflow (or finds it: the workflow ID is the
// object's namespace, name and UID), turns spec.paused into the clock's pause and resume, mirrors
// the workflow's progress into status, and ends the workflow when the Tournament is deleted.
type TournamentReconciler struct {
	client.Client
	Temporal temporal.Client
	Config   Config
	Recorder events.EventRecorder
}

// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tournaments,verbs=get;list;watch;update;patch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tournaments/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tournaments/finalizers,verbs=update
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=tables,verbs=get;list;watch
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;patch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile fetches the Tournament, ends its workflow if it is being deleted, and otherwise makes
// sure the workflow runs as the spec says and writes what it reports.
func (r *TournamentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var t pokerv1.Tournament
	if err := r.Get(ctx, req.NamespacedName, &t); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	id := tournamentWorkflowID(&t)
	// Temporal answers in milliseconds; a reconcile never hangs on it for long.
	ctx, cancel := context.WithTimeout(ctx, temporalTimeout)
	defer cancel()
	if !t.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.finalize(ctx, &t, id)
	}
	if controllerutil.AddFinalizer(&t, tournamentFinalizer) {
		if err := r.Update(ctx, &t); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.ensurePDB(ctx, &t); err != nil {
		return ctrl.Result{}, err
	}
	before := t.DeepCopy()
	result, err := r.sync(ctx, &t, id)
	t.Status.ObservedGeneration = t.Generation
	t.Status.WorkflowID = id
	if !equalJSON(before.Status, t.Status) {
		if perr := r.Status().Patch(ctx, &t, client.MergeFrom(before)); perr != nil {
			return ctrl.Result{}, perr
		}
	}
	return result, err
}

// sync brings the workflow in line with the spec and copies its progress into t.Status.
func (r *TournamentReconciler) sync(ctx context.Context, t *pokerv1.Tournament, id string) (ctrl.Result, error) {
	spec, err := workflowSpec(t)
	if err == nil {
		err = spec.Validate() // what CEL cannot check (floor.Structure.Validate): refused with the rule
	}
	if err == nil {
		t.Status.Levels = statusLevels(spec.Structure)
	}
	state, how, derr := describeTournament(ctx, r.Temporal, id)
	if derr != nil {
		r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionUnknown, "TemporalUnreachable",
			"cannot reach the tournament's workflow %s at %s: %v", id, r.Config.TemporalAddress, derr)
		return ctrl.Result{}, derr
	}
	switch state {
	case workflowMissing:
		if err != nil {
			t.Status.Phase = pokerv1.TournamentFailed
			r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionFalse, "InvalidSpec",
				"the tournament cannot start: %v; correct the spec", err)
			return ctrl.Result{}, nil
		}
		if at := t.Spec.StartTime; at != nil && time.Until(at.Time) > 0 {
			t.Status.Phase = pokerv1.TournamentRegistering
			r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionFalse, "WaitingForStart",
				"the tournament starts at %s (spec.startTime)", at.UTC().Format(time.RFC3339))
			return ctrl.Result{RequeueAfter: time.Until(at.Time)}, nil
		}
		if err := startTournament(ctx, r.Temporal, id, r.Config.TaskQueue, spec); err != nil {
			r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionFalse, "StartFailed",
				"starting the tournament's workflow %s failed: %v", id, err)
			return ctrl.Result{}, err
		}
		r.Recorder.Eventf(t, nil, corev1.EventTypeNormal, "Started", "Start",
			"the tournament's workflow %s started with %d players", id, len(spec.Players))
		fallthrough
	case workflowRunning:
		return r.mirrorRunning(ctx, t, id)
	case workflowCompleted:
		return ctrl.Result{}, r.mirrorFinished(ctx, t, id)
	default:
		if t.Status.Phase != pokerv1.TournamentFailed {
			r.Recorder.Eventf(t, nil, corev1.EventTypeWarning, "WorkflowEnded", "Observe",
				"the tournament's workflow %s ended %s without a result", id, how)
		}
		t.Status.Phase = pokerv1.TournamentFailed
		r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionFalse, "WorkflowEnded",
			"the tournament's workflow %s ended %s: its history in Temporal says why", id, how)
		return ctrl.Result{}, nil
	}
}

// mirrorRunning applies spec.paused and copies the workflow's progress.
func (r *TournamentReconciler) mirrorRunning(ctx context.Context, t *pokerv1.Tournament, id string) (ctrl.Result, error) {
	p, standings, err := tournamentProgress(ctx, r.Temporal, id, len(t.Spec.Players) <= maxListedStandings)
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("asking tournament %s for its progress: %w", id, err)
	}
	if p.Finished {
		// The last hand is played; the workflow closes its tables and ends. The result is read once
		// it has (describeTournament says Completed), never waited for here.
		return ctrl.Result{RequeueAfter: r.Config.PollInterval}, nil
	}
	if p.Paused != t.Spec.Paused {
		key := fmt.Sprintf("%s/generation-%d/paused-%t", t.UID, t.Generation, t.Spec.Paused)
		if err := setPaused(ctx, r.Temporal, id, t.Spec.Paused, key, "spec.paused of Tournament "+t.Namespace+"/"+t.Name); err != nil {
			r.Recorder.Eventf(t, nil, corev1.EventTypeWarning, "ClockRefused", "Clock", "spec.paused=%t was refused: %v", t.Spec.Paused, err)
		} else {
			verb := map[bool]string{true: "Paused", false: "Resumed"}[t.Spec.Paused]
			r.Recorder.Eventf(t, nil, corev1.EventTypeNormal, verb, "Clock",
				"%s the clock as spec.paused says; each table stops or starts after its hand", verb)
			p.Paused = t.Spec.Paused
		}
	}
	s := &t.Status
	s.Phase = pokerv1.TournamentRunning
	reason, msg := "Running", "the tournament's workflow runs"
	if p.Paused {
		s.Phase, reason, msg = pokerv1.TournamentPaused, "Paused", "the clock is paused (spec.paused): the tables stop after their hand"
	}
	r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionTrue, reason, "%s", msg)
	if s.StartedAt == nil && p.HandsPlayed > 0 {
		s.StartedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	}
	s.Level, s.OnBreak = int32(p.Level), p.OnBreak
	s.LevelSecondsLeft = 0
	if p.NextLevelIn > 0 && !p.Paused {
		at := time.Now().Add(p.NextLevelIn).Truncate(time.Second)
		if s.NextLevelAt == nil || absDuration(s.NextLevelAt.Sub(at)) > 2*time.Second {
			s.NextLevelAt = &metav1.Time{Time: at}
		}
	} else {
		s.NextLevelAt = nil
		s.LevelSecondsLeft = int32(p.NextLevelIn / time.Second)
	}
	s.PlayersRegistered, s.Entries, s.PlayersLeft, s.Tables = int32(p.Entries), int32(p.Entries), int32(p.PlayersLeft), int32(p.Tables)
	s.PrizePoolCents, s.PlacesPaid = p.PrizePool, int32(p.Paid)
	if standings != nil {
		s.Standings = topStandings(standings)
	}
	hfh := map[bool]metav1.ConditionStatus{true: metav1.ConditionTrue, false: metav1.ConditionFalse}[p.HandForHand]
	r.setCondition(t, pokerv1.TournamentHandForHand, hfh, map[bool]string{true: "OnTheBubble", false: "NotOnTheBubble"}[p.HandForHand],
		"%s", map[bool]string{true: "hand-for-hand (R7): every table deals one hand and waits for the others",
			false: "the tables deal at their own pace"}[p.HandForHand])
	if err := r.mirrorTables(ctx, t, p.Tables); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: r.Config.PollInterval}, nil
}

// mirrorTables writes TablesReady from the Tables' own PodReady.
func (r *TournamentReconciler) mirrorTables(ctx context.Context, t *pokerv1.Tournament, want int) error {
	var tables pokerv1.TableList
	if err := r.List(ctx, &tables, client.InNamespace(t.Namespace), client.MatchingLabels{TournamentLabel: t.Name}); err != nil {
		return err
	}
	ready := 0
	for _, tb := range tables.Items {
		if meta.IsStatusConditionTrue(tb.Status.Conditions, pokerv1.TablePodReady) {
			ready++
		}
	}
	if ready >= want {
		r.setCondition(t, pokerv1.TournamentTablesReady, metav1.ConditionTrue, "AllReady", "all %d tables are ready", want)
		return nil
	}
	r.setCondition(t, pokerv1.TournamentTablesReady, metav1.ConditionFalse, "TablesNotReady",
		"%d of %d tables are ready: kubectl get ptable -l %s=%s shows which, and their PodReady condition why",
		ready, want, TournamentLabel, t.Name)
	return nil
}

// mirrorFinished writes the result of a tournament that ended.
func (r *TournamentReconciler) mirrorFinished(ctx context.Context, t *pokerv1.Tournament, id string) error {
	if t.Status.Phase == pokerv1.TournamentFinished {
		return nil // written once: a result never changes
	}
	res, err := tournamentResult(ctx, r.Temporal, id)
	if err != nil {
		return fmt.Errorf("reading tournament %s's result: %w", id, err)
	}
	s := &t.Status
	s.Phase, s.PlayersLeft, s.Tables, s.NextLevelAt, s.LevelSecondsLeft = pokerv1.TournamentFinished, 1, 0, nil, 0
	s.Entries, s.PlayersRegistered, s.PrizePoolCents = int32(res.Entries), int32(res.Entries), res.PrizePool
	if s.StartedAt == nil {
		s.StartedAt = &metav1.Time{Time: res.Started}
	}
	s.FinishedAt = &metav1.Time{Time: res.Ended}
	s.Standings = nil
	paid := 0
	for _, pl := range res.Places {
		if pl.Prize > 0 {
			paid++
		}
		if len(s.Standings) < pokerv1.MaxStandings {
			s.Standings = append(s.Standings, pokerv1.Standing{Place: int32(pl.Place), Player: pl.Player, PrizeCents: pl.Prize})
		}
	}
	s.PlacesPaid = int32(paid)
	winner := ""
	if len(res.Places) > 0 {
		winner = res.Places[0].Player
	}
	msg := fmt.Sprintf("the tournament ended: %d entries, %d hands, won by %s", res.Entries, res.HandsPlayed, winner)
	if len(res.ChipErrors) > 0 {
		r.Recorder.Eventf(t, nil, corev1.EventTypeWarning, "ChipCountFailed", "Finish",
			"%d chip counts failed during the tournament (first: %s): report it with the workflow's history", len(res.ChipErrors), res.ChipErrors[0])
	}
	r.setCondition(t, pokerv1.TournamentWorkflowRunning, metav1.ConditionFalse, "Finished", "%s", msg)
	r.setCondition(t, pokerv1.TournamentTablesReady, metav1.ConditionFalse, "Finished", "the tournament is over: no tables")
	r.setCondition(t, pokerv1.TournamentHandForHand, metav1.ConditionFalse, "Finished", "the tournament is over")
	r.Recorder.Eventf(t, nil, corev1.EventTypeNormal, "Finished", "Finish", "%s", msg)
	return nil
}

// finalize ends the tournament's workflow and its tables' workflows (children the tournament
// abandons when it closes), then lets the Tournament go. Its Tables, their Pods and Services, and
// the PDB go by owner references.
func (r *TournamentReconciler) finalize(ctx context.Context, t *pokerv1.Tournament, id string) error {
	if !controllerutil.ContainsFinalizer(t, tournamentFinalizer) {
		return nil
	}
	if err := endWorkflow(ctx, r.Temporal, id, "Tournament "+t.Namespace+"/"+t.Name+" deleted"); err != nil {
		return fmt.Errorf("ending tournament workflow %s: %w", id, err)
	}
	var tables pokerv1.TableList
	if err := r.List(ctx, &tables, client.InNamespace(t.Namespace), client.MatchingLabels{TournamentLabel: t.Name}); err != nil {
		return err
	}
	for _, tb := range tables.Items {
		if tid := tb.Annotations[TableIDAnnotation]; tid != "" {
			if err := endWorkflow(ctx, r.Temporal, tid, "Tournament deleted"); err != nil {
				return fmt.Errorf("ending table workflow %s: %w", tid, err)
			}
		}
	}
	r.Recorder.Eventf(t, nil, corev1.EventTypeNormal, "WorkflowEnded", "Delete", "the tournament's workflow %s and its %d tables' were ended", id, len(tables.Items))
	controllerutil.RemoveFinalizer(t, tournamentFinalizer)
	return r.Update(ctx, t)
}

// tablesPDBName is the name of a tournament's PodDisruptionBudget.
func tablesPDBName(tournament string) string { return tournament + "-in-hand" }

// maxTablePods is the most table Pods a tournament can have: one a Table, and a Table's number
// is at most 100,000 (api/v1alpha1 TableSpec.Number). The tournament's budget asks for this many
// of its protected Pods to stay available, so that it never allows one of them to go.
const maxTablePods = 100000

// tablesPDBSpec is the tournament's budget: it selects the tournament's table Pods labelled
// protected (a hand in progress) and allows none of them to be evicted, counted by the disruption
// controller against the Pods it selects. An integer minAvailable is the one shape the controller
// computes from the selected Pods alone (desiredHealthy = minAvailable, expectedPods = the Pods
// selected: getExpectedPodCount in kubernetes' pkg/controller/disruption); maxUnavailable or a
// percentage asks each Pod's controller for its scale, and a Table has none, so the budget failed
// to sync (SyncFailed) and protected only by that failure. minAvailable at least the number of
// Pods selected leaves disruptionsAllowed at 0 whatever the count; a Pod between hands is not
// selected, and the Eviction API evicts it without a budget (docs/kubernetes.md says why one
// budget a tournament and not one a table).
func tablesPDBSpec(tournament string) policyv1.PodDisruptionBudgetSpec {
	all := intstr.FromInt32(maxTablePods)
	return policyv1.PodDisruptionBudgetSpec{
		MinAvailable: &all,
		Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{TournamentLabel: tournament, ProtectedLabel: "true"}},
	}
}

// sameBudget says whether a budget's spec, as the API server returns it, is want's.
func sameBudget(got, want policyv1.PodDisruptionBudgetSpec) bool {
	return equality.Semantic.DeepEqual(got.MinAvailable, want.MinAvailable) && got.MaxUnavailable == nil &&
		equality.Semantic.DeepEqual(got.Selector, want.Selector)
}

// ensurePDB creates the tournament's PodDisruptionBudget (tablesPDBSpec), or brings one of an
// older shape to it (a budget's spec may change; until the disruption controller has seen the
// change the Eviction API refuses the Pods it selects as still being processed).
func (r *TournamentReconciler) ensurePDB(ctx context.Context, t *pokerv1.Tournament) error {
	want := tablesPDBSpec(t.Name)
	var pdb policyv1.PodDisruptionBudget
	err := r.Get(ctx, client.ObjectKey{Namespace: t.Namespace, Name: tablesPDBName(t.Name)}, &pdb)
	switch {
	case err == nil:
		if sameBudget(pdb.Spec, want) {
			return nil
		}
		if !metav1.IsControlledBy(&pdb, t) {
			return fmt.Errorf("PodDisruptionBudget %s/%s exists and is not Tournament %s's: delete or rename it", pdb.Namespace, pdb.Name, t.Name)
		}
		before := pdb.DeepCopy()
		pdb.Spec.MinAvailable, pdb.Spec.MaxUnavailable, pdb.Spec.Selector = want.MinAvailable, nil, want.Selector
		return r.Patch(ctx, &pdb, client.MergeFrom(before))
	case !apierrors.IsNotFound(err):
		return err
	}
	pdb = policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: tablesPDBName(t.Name), Namespace: t.Namespace, Labels: map[string]string{TournamentLabel: t.Name}},
		Spec:       want,
	}
	if err := controllerutil.SetControllerReference(t, &pdb, r.Scheme()); err != nil {
		return err
	}
	return client.IgnoreAlreadyExists(r.Create(ctx, &pdb))
}

// setCondition sets a condition, and records an event when its reason changes to a problem.
func (r *TournamentReconciler) setCondition(t *pokerv1.Tournament, typ string, status metav1.ConditionStatus, reason, format string, args ...any) {
	c := metav1.Condition{Type: typ, Status: status, Reason: reason, Message: fmt.Sprintf(format, args...), ObservedGeneration: t.Generation}
	old := meta.FindStatusCondition(t.Status.Conditions, typ)
	problem := typ == pokerv1.TournamentWorkflowRunning && status != metav1.ConditionTrue && reason != "Finished" && reason != "WaitingForStart"
	if problem && (old == nil || old.Reason != reason) {
		r.Recorder.Eventf(t, nil, corev1.EventTypeWarning, reason, "Reconcile", "%s", c.Message)
	}
	meta.SetStatusCondition(&t.Status.Conditions, c)
}

func topStandings(all []workflows.Standing) []pokerv1.Standing {
	var out []pokerv1.Standing
	for i, s := range all {
		if i == pokerv1.MaxStandings {
			break
		}
		place := s.Place
		if place == 0 {
			place = i + 1
		}
		out = append(out, pokerv1.Standing{Place: int32(place), Player: s.Player, Chips: s.Stack, PrizeCents: s.Prize})
	}
	return out
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// SetupWithManager registers the reconciler. It watches Tournaments only: a running tournament
// is looked at every PollInterval, and its thousands of Tables changing must not each cost a
// round of queries to its workflow.
func (r *TournamentReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&pokerv1.Tournament{}).
		WithOptions(controller.Options{RateLimiter: tournamentRetries()}).
		Complete(withReconcileSpans("Tournament", mgr.GetClient(), r)) // a span a reconcile (telemetry.go)
}

// MaxRetryDelay is the longest a Tournament waits to be reconciled again after failures in a row
// (its workflow out of reach, a query timed out). The default limiter doubles up to 1,000 s: after
// a minute of Temporal being slow, a director's spec.paused could wait a quarter of an hour.
const MaxRetryDelay = 30 * time.Second

// tournamentRetries is controller-runtime's default limiter (per item doubling from 5 ms, and an
// overall bucket of 10 a second, 100 at once) with the per-item delay capped at MaxRetryDelay.
func tournamentRetries() workqueue.TypedRateLimiter[reconcile.Request] {
	return workqueue.NewTypedMaxOfRateLimiter(
		workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](5*time.Millisecond, MaxRetryDelay),
		&workqueue.TypedBucketRateLimiter[reconcile.Request]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}
