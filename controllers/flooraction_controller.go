package controllers

import (
	"context"
	"fmt"
	"strings"
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

// FloorActionReconciler applies each FloorAction to its tournament's workflow as one Update (add
// time: Clock; a move: Move; a table broken: BreakTable; Unregister; RemoveNoShows; a deal: Deal),
// whose ID is the object's UID so that a retry is applied once, by the user who created it, and
// writes the answer into status: Applied with what was done, or Refused with the rule's reason.
// A FloorAction decided is never sent again.
type FloorActionReconciler struct{ RecordReconciler }

// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=flooractions,verbs=get;list;watch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=flooractions/status,verbs=get;update;patch

// Reconcile applies the FloorAction unless it is decided already, and patches its status.
func (r *FloorActionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var a pokerv1.FloorAction
	return reconcileRecord(ctx, r.Client, req.NamespacedName, &a, recordTimeout,
		func() bool {
			return a.Status.Phase == pokerv1.FloorActionApplied || a.Status.Phase == pokerv1.FloorActionRefused
		},
		func(o *pokerv1.FloorAction) any { return o.Status },
		func(ctx context.Context) (ctrl.Result, error) { return r.apply(ctx, &a) })
}

func (r *FloorActionReconciler) apply(ctx context.Context, a *pokerv1.FloorAction) (ctrl.Result, error) {
	a.Status.ObservedGeneration = a.Generation
	st := &a.Status
	st.IssuedBy = issuer(a)
	if st.Phase == "" {
		st.Phase = pokerv1.FloorActionPending
	}
	target, stop, res, err := r.recordTournament(ctx, a, a.Spec.Tournament, st.IssuedBy, &st.Conditions, func(why string) { r.refuse(a, nil, why) })
	if stop {
		return res, err
	}
	done, err := applyFloorAction(ctx, workflows.GetTournament(r.Temporal, target.workflowID), a, target.tournament.Spec.Currency)
	if err != nil {
		if reason, ok := refusalOf(err); ok {
			r.refuse(a, target.tournament, reason)
			return ctrl.Result{}, nil
		}
		res, err := r.waitOn(&st.Conditions, a.Generation, fmt.Errorf("%s on %s: %w", a.Spec.Action, target.workflowID, err))
		return *res, err
	}
	if done.refused != "" {
		r.refuse(a, target.tournament, done.refused)
		return ctrl.Result{}, nil
	}
	st.Phase = pokerv1.FloorActionApplied
	st.Message = clip(done.message, 4096)
	st.DecidedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	meta.SetStatusCondition(&st.Conditions, recordCondition(a.Generation, metav1.ConditionTrue, "Applied", st.Message))
	r.Recorder.Eventf(a, target.tournament, corev1.EventTypeNormal, "Applied", string(a.Spec.Action), "%s", st.Message)
	return ctrl.Result{}, nil
}

// floorActionDone is what the tournament answered: what it did, or why the table refused it after
// the tournament took it (an unregistration once the table has dealt).
type floorActionDone struct {
	message string
	refused string
}

// dealMethods are the workflow's names of the API's deal methods.
var dealMethods = map[string]string{"icm": "icm", "chipChop": "chip-chop"}

// applyFloorAction sends the action's Update, keyed by the object's UID, and says what was done.
func applyFloorAction(ctx context.Context, t *workflows.Tournament, a *pokerv1.FloorAction, currency string) (floorActionDone, error) {
	by, key, why := a.Status.IssuedBy, string(a.UID), a.Spec.Reason
	s := a.Spec
	switch {
	case s.Action == pokerv1.FloorAddTime && s.AddTime != nil:
		add := time.Duration(s.AddTime.Seconds) * time.Second
		v, err := t.ClockAction(ctx, workflows.ClockRequest{Kind: floor.ClockAddTime, Add: add, By: by, Reason: why, Key: key})
		if err != nil {
			return floorActionDone{}, err
		}
		verb := fmt.Sprintf("added %v to", add)
		if add < 0 {
			verb = fmt.Sprintf("took %v off", -add)
		}
		what := fmt.Sprintf("level %d", v.State.Level)
		if v.State.OnBreak {
			what = "the break"
		}
		return floorActionDone{message: fmt.Sprintf("%s %s: %v left in it", verb, what, v.State.Remaining.Round(time.Second))}, nil
	case s.Action == pokerv1.FloorMove && s.Move != nil:
		m, err := t.Move(ctx, workflows.MoveRequest{Player: s.Move.Player, To: floor.TableID(s.Move.ToTable), Seat: floor.Seat(s.Move.Seat),
			By: by, Reason: why, Key: key})
		if err != nil {
			return floorActionDone{}, err
		}
		return floorActionDone{message: fmt.Sprintf("%s moves from table %d seat %d to table %d seat %d when his table's hand ends",
			m.Player, m.From, m.FromSeat, m.To, m.ToSeat)}, nil
	case s.Action == pokerv1.FloorBreakTable && s.BreakTable != nil:
		v, err := t.BreakTable(ctx, workflows.BreakRequest{Table: floor.TableID(s.BreakTable.Table), By: by, Reason: why, Key: key})
		if err != nil {
			return floorActionDone{}, err
		}
		n := floor.TableID(s.BreakTable.Table)
		for _, b := range v.Breaks {
			if b.Table == n {
				return floorActionDone{message: fmt.Sprintf("table %d broken: its %d players reseated by draw (R4)", n, b.Players)}, nil
			}
		}
		return floorActionDone{message: fmt.Sprintf("table %d breaks next: at once if the other tables' free seats can take its players, otherwise at the first break R4 allows", n)}, nil
	case s.Action == pokerv1.FloorUnregister && s.Unregister != nil:
		w, err := t.Unregister(ctx, workflows.UnregisterRequest{Player: s.Unregister.Player, By: by, Key: key})
		if err != nil {
			return floorActionDone{}, err
		}
		if w.Refused != "" {
			return floorActionDone{refused: w.Refused}, nil
		}
		return floorActionDone{message: withdrawn([]workflows.WithdrawalRecord{w}, currency)}, nil
	case s.Action == pokerv1.FloorRemoveNoShows && s.RemoveNoShows != nil:
		ws, err := t.RemoveNoShows(ctx, workflows.NoShowRequest{Players: s.RemoveNoShows.Players, By: by, Key: key})
		if err != nil {
			return floorActionDone{}, err
		}
		return floorActionDone{message: withdrawn(ws, currency)}, nil
	case s.Action == pokerv1.FloorDeal && s.Deal != nil:
		method, ok := dealMethods[s.Deal.Method]
		if !ok {
			return floorActionDone{refused: fmt.Sprintf("deal method %q: icm or chipChop", s.Deal.Method)}, nil
		}
		d, err := t.Deal(ctx, workflows.DealRequest{Method: method, Terms: floor.DealTerms{Reserve: s.Deal.LeaveForWinnerCents},
			ApprovedBy: by, Key: key})
		if err != nil {
			return floorActionDone{}, err
		}
		return floorActionDone{message: dealMade(d, currency)}, nil
	}
	return floorActionDone{refused: fmt.Sprintf("spec.action %q with no spec.%s: give the action's arguments", s.Action, s.Action)}, nil
}

// withdrawn says who was taken out and what each was refunded.
func withdrawn(ws []workflows.WithdrawalRecord, currency string) string {
	var parts []string
	for _, w := range ws {
		p := fmt.Sprintf("%s refunded %s", w.Player, money(w.RefundCents, currency))
		if w.KeptFeeCents > 0 {
			p += fmt.Sprintf(" (the fee of %s kept)", money(w.KeptFeeCents, currency))
		}
		if w.Refused != "" {
			p = fmt.Sprintf("%s not withdrawn: %s", w.Player, w.Refused)
		} else if !w.Done {
			p += ", his table takes him off when its hand ends"
		}
		parts = append(parts, p)
	}
	return "withdrawn: " + strings.Join(parts, "; ")
}

// dealMade lists the deal's prizes by player.
func dealMade(d workflows.DealRecord, currency string) string {
	method := map[string]string{"icm": "ICM", "chip-chop": "chip chop"}[d.Method]
	var parts []string
	for i, p := range d.Players {
		if i < len(d.Amounts) {
			parts = append(parts, fmt.Sprintf("%s %s", p, money(d.Amounts[i], currency)))
		}
	}
	msg := fmt.Sprintf("deal by %s approved by %s: %s", method, d.ApprovedBy, strings.Join(parts, ", "))
	if d.Terms.Reserve > 0 {
		msg += fmt.Sprintf("; %s left to play for, to the winner", money(d.Terms.Reserve, currency))
	}
	return msg
}

func (r *FloorActionReconciler) refuse(a *pokerv1.FloorAction, tournament runtime.Object, reason string) {
	st := &a.Status
	st.Phase = pokerv1.FloorActionRefused
	st.Message = clip(reason, 4096)
	st.DecidedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	meta.SetStatusCondition(&st.Conditions, recordCondition(a.Generation, metav1.ConditionFalse, "Refused", reason))
	r.Recorder.Eventf(a, tournament, corev1.EventTypeWarning, "Refused", string(a.Spec.Action), "%s was refused: %s", a.Spec.Action, st.Message)
}

// SetupWithManager registers the reconciler.
func (r *FloorActionReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&pokerv1.FloorAction{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 4}).
		Complete(r)
}
