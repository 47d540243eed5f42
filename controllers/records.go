package controllers

import (
	"context"
	"errors"
	"fmt"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"go.temporal.io/api/serviceerror"
	temporal "go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// What the Sanction, EntryBatch and FloorAction reconcilers share: each is a record a person
// created, applied once to its tournament's workflow (Update IDs from the object's UID) and then
// decided for good (Applied or Refused); only the way there differs.

// RecordReconciler is what the Sanction, EntryBatch and FloorAction reconcilers are made of: the
// API server, the tournaments' workflows, the operator's Config and the recorder of the record's
// events.
type RecordReconciler struct {
	client.Client
	Temporal temporal.Client
	Config   Config
	Recorder events.EventRecorder
}

// reconcileRecord is the reconcile of every record: fetch it into obj, leave it alone once
// decided, apply it within timeout, and patch its status (read by status) apart from its spec
// when it changed, with the caller's context: a patch is written even when apply ran out of time.
func reconcileRecord[T client.Object](ctx context.Context, c client.Client, key client.ObjectKey, obj T, timeout time.Duration,
	decided func() bool, status func(T) any, apply func(context.Context) (ctrl.Result, error)) (ctrl.Result, error) {
	if err := c.Get(ctx, key, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if decided() {
		return ctrl.Result{}, nil
	}
	before := obj.DeepCopyObject().(T)
	applyCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	result, err := apply(applyCtx)
	if !equalJSON(status(before), status(obj)) {
		if perr := c.Status().Patch(ctx, obj, client.MergeFrom(before)); perr != nil {
			return ctrl.Result{}, perr
		}
	}
	return result, err
}

// recordTarget is the tournament a record is for, once its workflow runs.
type recordTarget struct {
	tournament *pokerv1.Tournament
	workflowID string
}

// errNotYet says a record waits for its tournament's workflow to start: not a refusal, it is
// looked at again.
type errNotYet struct{ why string }

func (e errNotYet) Error() string { return e.why }

// findTarget finds the record's tournament and says whether its workflow runs. A refusal (no such
// Tournament, a tournament that failed or is over) comes back as refusal; a tournament not started
// yet as errNotYet; anything else (the API server, Temporal unreachable) as err.
func findTarget(ctx context.Context, kube client.Client, tc temporal.Client, namespace, name string) (target recordTarget, refusal string, err error) {
	var t pokerv1.Tournament
	if err := kube.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, &t); apierrors.IsNotFound(err) {
		return target, fmt.Sprintf("no Tournament %q in namespace %s: spec.tournament names the Tournament, in the same namespace", name, namespace), nil
	} else if err != nil {
		return target, "", err
	}
	id := tournamentWorkflowID(&t)
	state, how, err := describeTournament(ctx, tc, id)
	if err != nil {
		return target, "", fmt.Errorf("cannot reach the tournament's workflow %s: %w", id, err)
	}
	switch state {
	case workflowRunning:
		return recordTarget{tournament: &t, workflowID: id}, "", nil
	case workflowCompleted:
		return target, fmt.Sprintf("Tournament %s is over", name), nil
	case workflowEnded:
		return target, fmt.Sprintf("Tournament %s's workflow ended %s", name, how), nil
	}
	if t.Status.Phase == pokerv1.TournamentFailed {
		msg := "it failed"
		if c := meta.FindStatusCondition(t.Status.Conditions, pokerv1.TournamentWorkflowRunning); c != nil {
			msg = c.Message
		}
		return target, fmt.Sprintf("Tournament %s never started: %s", name, msg), nil
	}
	return target, "", errNotYet{fmt.Sprintf("Tournament %s's workflow has not started yet", name)}
}

// recordTournament finds the running tournament of the record, issued by by. Without an issuer or
// such a tournament the record is refused (refuse is called) and stop is set; while the tournament
// has not started, or Temporal cannot be reached, the condition says why, stop is set, and res and
// err say when to look again.
func (r *RecordReconciler) recordTournament(ctx context.Context, record metav1.Object, tournament, by string,
	conditions *[]metav1.Condition, refuse func(string)) (target recordTarget, stop bool, res ctrl.Result, err error) {
	if by == "" {
		refuse(noIssuer)
		return target, true, ctrl.Result{}, nil
	}
	target, refusal, err := findTarget(ctx, r.Client, r.Temporal, record.GetNamespace(), tournament)
	if refusal != "" {
		refuse(refusal)
		return target, true, ctrl.Result{}, nil
	}
	if res, err := r.waitOn(conditions, record.GetGeneration(), err); res != nil {
		return target, true, *res, err
	}
	return target, false, ctrl.Result{}, nil
}

// waitOn writes why a record is not decided yet (err) into its Applied condition and says when
// to look again; nil when err is nil (nothing to wait for).
func (r *RecordReconciler) waitOn(conditions *[]metav1.Condition, generation int64, err error) (*ctrl.Result, error) {
	reason, status, res, ret := waitingFor(err, r.Config.PollInterval)
	if res == nil {
		return nil, nil
	}
	meta.SetStatusCondition(conditions, recordCondition(generation, status, reason, err.Error()))
	return res, ret
}

// refusalOf tells the workflow's refusal of an Update (its validator's error, or a handler's
// non-retryable one: the rule and the reason) from a failure to reach it. ok is false for the
// latter, which is retried.
func refusalOf(err error) (reason string, ok bool) {
	var app *sdktemporal.ApplicationError
	if errors.As(err, &app) {
		return app.Message(), true
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return "the tournament is over: " + nf.Error(), true
	}
	return "", false
}

// busy says whether the workflow turned an Update away for its limit of Updates in flight: the
// caller waits and sends it again.
func busy(err error) bool {
	var re *serviceerror.ResourceExhausted
	return errors.As(err, &re)
}

// issuer is who created the record, as the API server authenticated them (config/admission).
func issuer(o metav1.Object) string { return o.GetAnnotations()[pokerv1.IssuedByAnnotation] }

// noIssuer is the refusal of a record nobody is recorded to have issued (P6).
const noIssuer = "no " + pokerv1.IssuedByAnnotation + " annotation: a director's record says who issued it (P6); " +
	"install config/admission, whose MutatingAdmissionPolicy writes the authenticated user there"

// recordCondition is the Applied condition of a record.
func recordCondition(generation int64, status metav1.ConditionStatus, reason, message string) metav1.Condition {
	return metav1.Condition{Type: pokerv1.RecordApplied, Status: status, Reason: reason, Message: clip(message, 32768),
		ObservedGeneration: generation}
}

// money writes cents in the tournament's currency: "EUR 1,234.50".
func money(cents int64, currency string) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	units := fmt.Sprint(cents / 100)
	for i := len(units) - 3; i > 0; i -= 3 {
		units = units[:i] + "," + units[i:]
	}
	return fmt.Sprintf("%s%s %s.%02d", sign, currency, units, cents%100)
}

// clip shortens s to at most n bytes, saying so, for a field the CRD bounds.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const more = " (...)"
	cut := n - len(more)
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut-- // never cut a UTF-8 character in two
	}
	return s[:cut] + more
}
