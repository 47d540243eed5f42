package controllers

import (
	"context"
	"errors"
	"fmt"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// recordTimeout bounds one reconcile of a record: the workflow answers a sanction, a rebuy or a
// tool once the player's table has applied it between two hands, and waits a minute for that.
const recordTimeout = 3 * time.Minute

// SanctionReconciler gives each Sanction to its tournament's workflow (the Sanction Update, whose
// ID is the Sanction's UID, so a retry is applied once), by the user who created it, and writes
// the tournament's answer into status: Applied with where and when it runs, or Refused with the
// rule's reason. A Sanction decided is never sent again.
type SanctionReconciler struct{ RecordReconciler }

// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=sanctions,verbs=get;list;watch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=sanctions/status,verbs=get;update;patch

// Reconcile applies the Sanction unless it is decided already, and patches its status.
func (r *SanctionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var s pokerv1.Sanction
	return reconcileRecord(ctx, r.Client, req.NamespacedName, &s, recordTimeout,
		func() bool {
			return s.Status.Phase == pokerv1.SanctionApplied || s.Status.Phase == pokerv1.SanctionRefused
		},
		func(o *pokerv1.Sanction) any { return o.Status },
		func(ctx context.Context) (ctrl.Result, error) { return r.apply(ctx, &s) })
}

func (r *SanctionReconciler) apply(ctx context.Context, s *pokerv1.Sanction) (ctrl.Result, error) {
	s.Status.ObservedGeneration = s.Generation
	st := &s.Status
	st.IssuedBy = issuer(s)
	if st.Phase == "" {
		st.Phase = pokerv1.SanctionPending
	}
	target, stop, res, err := r.recordTournament(ctx, s, s.Spec.Tournament, st.IssuedBy, &st.Conditions, func(why string) { r.refuse(s, nil, why) })
	if stop {
		return res, err
	}
	t := workflows.GetTournament(r.Temporal, target.workflowID)
	rec, err := t.Sanction(ctx, workflows.SanctionRequest{Player: s.Spec.Player, Kind: floor.SanctionKind(s.Spec.Kind),
		Rounds: int(s.Spec.Rounds), Rule: s.Spec.Rule, Reason: s.Spec.Reason, By: st.IssuedBy, Key: string(s.UID)})
	if err != nil {
		if reason, ok := refusalOf(err); ok {
			r.refuse(s, target.tournament, reason)
			return ctrl.Result{}, nil
		}
		res, err := r.waitOn(&st.Conditions, s.Generation, fmt.Errorf("giving the sanction to %s: %w", target.workflowID, err))
		return *res, err
	}
	if !rec.Applied && !rec.Void {
		// Its table has not dealt a hand since (paused, or a long hand): look again later, by the
		// record's reference.
		all, err := t.Sanctions(ctx)
		if err != nil {
			res, err := r.waitOn(&st.Conditions, s.Generation, fmt.Errorf("reading the sanctions of %s: %w", target.workflowID, err))
			return *res, err
		}
		if rec.Ref < len(all) {
			rec = all[rec.Ref]
		}
	}
	switch {
	case rec.Void:
		r.refuse(s, target.tournament, "the tournament took it and voided it: "+rec.Error)
		return ctrl.Result{}, nil
	case !rec.Applied:
		meta.SetStatusCondition(&st.Conditions, recordCondition(s.Generation, metav1.ConditionFalse, "WaitingForTable",
			fmt.Sprintf("the tournament took the sanction; %s's table applies it when its hand ends", s.Spec.Player)))
		return ctrl.Result{RequeueAfter: r.Config.PollInterval}, nil
	}
	sc := rec.Sanction
	st.Phase = pokerv1.SanctionApplied
	st.Table, st.StartsAtHand, st.Hands, st.ChipsRemoved = int32(sc.Table), int64(sc.StartsAtHand), int32(sc.Hands), sc.Chips
	st.DecidedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	st.Message = clip(sanctionApplied(s, sc, rec.Error), 1024)
	meta.SetStatusCondition(&st.Conditions, recordCondition(s.Generation, metav1.ConditionTrue, "Applied", st.Message))
	r.Recorder.Eventf(s, target.tournament, corev1.EventTypeNormal, "Applied", "Sanction", "%s", st.Message)
	return ctrl.Result{}, nil
}

// sanctionApplied says what the table did.
func sanctionApplied(s *pokerv1.Sanction, sc floor.Sanction, problem string) string {
	what := string(s.Spec.Kind)
	switch s.Spec.Kind {
	case pokerv1.SanctionExclusion:
		what = fmt.Sprintf("exclusion of %d rounds (%d hands, P2)", s.Spec.Rounds, sc.Hands)
	case pokerv1.SanctionDisqualification:
		what = fmt.Sprintf("disqualification (%d chips removed, P4)", sc.Chips)
	}
	msg := fmt.Sprintf("%s for %s at table %d from hand %d, given by %s", what, s.Spec.Player, sc.Table, sc.StartsAtHand, sc.GivenBy)
	if s.Spec.Rule != "" {
		msg += " for breaking " + s.Spec.Rule
	}
	if problem != "" {
		msg += "; the tournament noted: " + problem
	}
	return msg
}

func (r *SanctionReconciler) refuse(s *pokerv1.Sanction, tournament runtime.Object, reason string) {
	st := &s.Status
	st.Phase = pokerv1.SanctionRefused
	st.Message = clip(reason, 1024)
	st.DecidedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	meta.SetStatusCondition(&st.Conditions, recordCondition(s.Generation, metav1.ConditionFalse, "Refused", reason))
	r.Recorder.Eventf(s, tournament, corev1.EventTypeWarning, "Refused", "Sanction", "the sanction of %s was refused: %s", s.Spec.Player, st.Message)
}

// waitingFor classifies an error that leaves a record undecided: a tournament not started yet
// (looked at again after poll), the workflow busy with Updates (again in a second), or a failure
// to reach the API server or Temporal (returned, so the controller backs off). A nil error waits
// for nothing.
func waitingFor(err error, poll time.Duration) (reason string, status metav1.ConditionStatus, res *ctrl.Result, ret error) {
	var notYet errNotYet
	switch {
	case err == nil:
		return "", "", nil, nil
	case errors.As(err, &notYet):
		return "WaitingForTournament", metav1.ConditionFalse, &ctrl.Result{RequeueAfter: poll}, nil
	case busy(err):
		return "TournamentBusy", metav1.ConditionUnknown, &ctrl.Result{RequeueAfter: time.Second}, nil
	default:
		return "TemporalUnreachable", metav1.ConditionUnknown, &ctrl.Result{}, err
	}
}

// SetupWithManager registers the reconciler: a few Sanctions at once, since one waits up to a
// minute for its player's table.
func (r *SanctionReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&pokerv1.Sanction{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}
