package controllers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
)

// entriesInFlight is how many of a batch's Updates the reconciler has in flight at once: under
// Temporal's limit of 10 per workflow, leaving room for a director's Sanction or FloorAction.
const entriesInFlight = 8

// batchTimeout bounds one reconcile of a batch: 1,000 entries at 8 in flight, each answered in
// milliseconds (a rebuy or an add-on once its table has dealt, up to a minute).
const batchTimeout = 10 * time.Minute

// EntryBatchReconciler registers each entry of an EntryBatch in its tournament's workflow: an
// entry or re-entry is a Register Update, a rebuy a Rebuy, an add-on an AddOn, each keyed by
// (batch UID, player, kind) so that a batch reconciled again registers nobody twice. Status
// counts the entries accepted and says why each refused one was. A batch decided is never sent
// again.
//
// Each accepted entry and re-entry gets a signed token for the tournament (entry_tokens.go), in a
// Secret the batch owns that its registrar may read.
type EntryBatchReconciler struct {
	RecordReconciler
	// Keys reads the token key Secret (uncached: the manager watches no Secrets); nil: Client.
	Keys client.Reader
}

// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=entrybatches,verbs=get;list;watch
// +kubebuilder:rbac:groups=poker.pokerfloor.dev,resources=entrybatches/status,verbs=get;update;patch

// Reconcile applies the batch unless it is decided already, and patches its status.
func (r *EntryBatchReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var b pokerv1.EntryBatch
	return reconcileRecord(ctx, r.Client, req.NamespacedName, &b, batchTimeout,
		func() bool { return b.Status.Phase != "" && b.Status.Phase != pokerv1.EntryBatchPending },
		func(o *pokerv1.EntryBatch) any { return o.Status },
		func(ctx context.Context) (ctrl.Result, error) { return r.apply(ctx, &b) })
}

func (r *EntryBatchReconciler) apply(ctx context.Context, b *pokerv1.EntryBatch) (ctrl.Result, error) {
	b.Status.ObservedGeneration = b.Generation
	st := &b.Status
	st.RegisteredBy = issuer(b)
	if st.Phase == "" {
		st.Phase = pokerv1.EntryBatchPending
	}
	target, stop, res, err := r.recordTournament(ctx, b, b.Spec.Tournament, st.RegisteredBy, &st.Conditions, func(why string) { r.refuseAll(b, why) })
	if stop {
		return res, err
	}
	refused, entries, err := r.register(ctx, workflows.GetTournament(r.Temporal, target.workflowID), b)
	if err == nil && len(entries) > 0 {
		err = r.writeEntryTokens(ctx, b, target.workflowID, entries)
	}
	if err != nil {
		// Some entries are undecided: the whole batch goes again, the decided ones answered from
		// the workflow's record by their keys.
		res, err := r.waitOn(&st.Conditions, b.Generation, fmt.Errorf("registering the batch in %s: %w", target.workflowID, err))
		return *res, err
	}
	st.Refused = refused
	st.RefusedCount = int32(len(refused))
	st.Accepted = int32(len(b.Spec.Entries) - len(refused))
	st.AppliedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	msg := fmt.Sprintf("%d of %d entries registered, registered by %s", st.Accepted, len(b.Spec.Entries), st.RegisteredBy)
	switch {
	case len(refused) == 0:
		st.Phase = pokerv1.EntryBatchApplied
		meta.SetStatusCondition(&st.Conditions, recordCondition(b.Generation, metav1.ConditionTrue, "Applied", msg))
		r.Recorder.Eventf(b, target.tournament, corev1.EventTypeNormal, "Applied", "Register", "%s", msg)
	default:
		st.Phase = pokerv1.EntryBatchPartlyRefused
		reason := "PartlyRefused"
		if st.Accepted == 0 {
			st.Phase, reason = pokerv1.EntryBatchRefused, "Refused"
		}
		msg += fmt.Sprintf("; %d refused (status.refused says why), the first: %s %s: %s", len(refused), refused[0].Player, refused[0].Kind, refused[0].Reason)
		meta.SetStatusCondition(&st.Conditions, recordCondition(b.Generation, metav1.ConditionFalse, reason, msg))
		r.Recorder.Eventf(b, target.tournament, corev1.EventTypeWarning, reason, "Register", "%s", msg)
	}
	return ctrl.Result{}, nil
}

// register sends the batch's entries and returns the refused ones in the batch's order, and the
// IDs of the entries and re-entries accepted. The entries and re-entries that come before any
// rebuy or add-on of their player go first, in one RegisterBatch Update (a batch of 1,000 is one
// Update, not 1,000: Temporal takes 2,000 Updates in a run); then the rest in rounds, each
// player's one after the other in the batch's order (his entry before his rebuy): a round
// sends every player's next, its rebuys in one RebuyBatch Update (a thousand rebuys one Update
// each took over ten minutes with two suites beside the test) and the others entriesInFlight at
// a time. An error means some entry could not be decided (Temporal unreachable).
func (r *EntryBatchReconciler) register(ctx context.Context, t *workflows.Tournament, b *pokerv1.EntryBatch) ([]pokerv1.RefusedEntry, []string, error) {
	reasons := make([]string, len(b.Spec.Entries))
	ids := make([]string, len(b.Spec.Entries))
	errs := make([]error, len(b.Spec.Entries))
	var players [][]int // each player's entries after the batch Update, by index, in the batch's order
	first := map[string]int{}
	var batched []int // the entries in the batch Update, by index
	keys := map[string]bool{}
	for i, e := range b.Spec.Entries {
		k, ok := first[e.Player]
		if !ok {
			k, first[e.Player] = len(players), len(players)
			players = append(players, nil)
		}
		key := entryKey(string(b.UID), e)
		if len(players[k]) == 0 && (e.Kind == pokerv1.EntryFirst || e.Kind == pokerv1.EntryReEntry || e.Kind == "") && !keys[key] {
			keys[key] = true
			batched = append(batched, i)
			continue
		}
		players[k] = append(players[k], i)
	}
	if err := registerBatch(ctx, t, string(b.UID), b.Spec.Entries, batched, ids, reasons); err != nil {
		return nil, nil, err
	}
	for round := 0; ; round++ {
		var rebuys, others []int
		for _, entries := range players {
			if round < len(entries) {
				if i := entries[round]; b.Spec.Entries[i].Kind == pokerv1.EntryRebuy {
					rebuys = append(rebuys, i)
				} else {
					others = append(others, i)
				}
			}
		}
		if len(rebuys) == 0 && len(others) == 0 {
			break
		}
		if err := rebuyBatch(ctx, t, string(b.UID), round, b.Spec.Entries, rebuys, ids, reasons); err != nil {
			return nil, nil, err
		}
		next := make(chan int)
		var wg sync.WaitGroup
		for range min(entriesInFlight, len(others)) {
			wg.Go(func() {
				for i := range next {
					ids[i], reasons[i], errs[i] = registerEntry(ctx, t, string(b.UID), b.Spec.Entries[i])
				}
			})
		}
		for _, i := range others {
			next <- i
		}
		close(next)
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			break // reported below, with its entry
		}
	}
	var refused []pokerv1.RefusedEntry
	var entries []string
	for i, e := range b.Spec.Entries {
		switch {
		case errs[i] != nil:
			return nil, nil, fmt.Errorf("%s %s: %w", e.Player, e.Kind, errs[i])
		case reasons[i] != "":
			refused = append(refused, pokerv1.RefusedEntry{Player: e.Player, Kind: e.Kind, Reason: clip(reasons[i], 256)})
		case ids[i] != "":
			entries = append(entries, ids[i])
		}
	}
	return refused, entries, nil
}

// registerEntry sends one entry, waiting while the workflow has too many Updates in flight. It
// returns the ID of an entry or re-entry taken, the tournament's refusal, or an error when it
// could not ask.
func registerEntry(ctx context.Context, t *workflows.Tournament, batch string, e pokerv1.Entry) (id, refusal string, err error) {
	key := entryKey(batch, e)
	for {
		switch e.Kind {
		case pokerv1.EntryReEntry:
			id, err = t.Register(ctx, workflows.RegisterRequest{ReEntryOf: e.Player, Key: key})
		case pokerv1.EntryRebuy:
			err = t.Rebuy(ctx, workflows.RebuyRequest{Player: e.Player, Key: key})
		case pokerv1.EntryAddOn:
			var rec workflows.AddOnRecord
			if rec, err = t.AddOn(ctx, workflows.AddOnRequest{Player: e.Player, Count: 1, Key: key}); err == nil && rec.Refused != "" {
				return "", rec.Refused, nil
			}
		default:
			id, err = t.Register(ctx, workflows.RegisterRequest{Player: e.Player, Key: key})
		}
		if !busy(err) {
			break
		}
		select {
		case <-ctx.Done():
			return "", "", ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err == nil {
		return id, "", nil
	}
	if reason, ok := refusalOf(err); ok {
		return "", reason, nil
	}
	return "", "", err
}

// entryKey is an entry's idempotency key: the batch's UID, the player and the kind.
func entryKey(batch string, e pokerv1.Entry) string {
	return batch + "/" + e.Player + "/" + string(e.Kind)
}

// rebuyBatch sends the rebuys at the indexes of batched (round's) in RebuyBatch Updates and
// writes each one's refusal at its index (inChunks). Each rebuy keeps its own key (entryKey), so
// that a batch sent again takes none twice.
func rebuyBatch(ctx context.Context, t *workflows.Tournament, batch string, round int, entries []pokerv1.Entry, batched []int, ids, reasons []string) error {
	return inChunks(ctx, "rebuys", batched, ids, reasons, func(n int, chunk []int) ([]workflows.BatchResult, error) {
		req := workflows.RebuyBatchRequest{Key: fmt.Sprintf("%s/rebuys/%d/%d", batch, round, n)}
		for _, i := range chunk {
			req.Rebuys = append(req.Rebuys, workflows.RebuyRequest{Player: entries[i].Player, Key: entryKey(batch, entries[i])})
		}
		return t.RebuyBatch(ctx, req)
	})
}

// registerBatch sends the entries and re-entries at the indexes of batched in RegisterBatch
// Updates and writes each one's entry ID or refusal at its index (inChunks).
func registerBatch(ctx context.Context, t *workflows.Tournament, batch string, entries []pokerv1.Entry, batched []int, ids, reasons []string) error {
	return inChunks(ctx, "entries", batched, ids, reasons, func(n int, chunk []int) ([]workflows.BatchResult, error) {
		req := workflows.RegisterBatchRequest{Key: fmt.Sprintf("%s/batch/%d", batch, n)}
		for _, i := range chunk {
			e := entries[i]
			be := workflows.BatchEntry{Player: e.Player, Key: entryKey(batch, e)}
			if e.Kind == pokerv1.EntryReEntry {
				be = workflows.BatchEntry{ReEntryOf: e.Player, Key: be.Key}
			}
			req.Entries = append(req.Entries, be)
		}
		return t.RegisterBatch(ctx, req)
	})
}

// inChunks sends the entries at the indexes of batched in chunks of at most
// director.MaxBatchEntries, the nth chunk by send (one batch Update), again while the workflow
// has too many Updates in flight; it writes each entry's ID and refusal at its index, a chunk
// refused whole refusing each of its entries.
func inChunks(ctx context.Context, what string, batched []int, ids, reasons []string, send func(n int, chunk []int) ([]workflows.BatchResult, error)) error {
	for n := 0; len(batched) > 0; n++ {
		chunk := batched[:min(len(batched), director.MaxBatchEntries)]
		batched = batched[len(chunk):]
		var res []workflows.BatchResult
		var err error
		for {
			if res, err = send(n, chunk); !busy(err) {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
		if reason, ok := refusalOf(err); ok {
			for _, i := range chunk {
				reasons[i] = reason
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("%d %s: %w", len(chunk), what, err)
		}
		if len(res) != len(chunk) {
			return fmt.Errorf("%d %s: the tournament answered %d", len(chunk), what, len(res))
		}
		for k, i := range chunk {
			ids[i], reasons[i] = res[k].Entry, res[k].Refused // a rebuy has no entry ID
		}
	}
	return nil
}

// refuseAll refuses every entry for one reason (no tournament, no issuer).
func (r *EntryBatchReconciler) refuseAll(b *pokerv1.EntryBatch, reason string) {
	st := &b.Status
	st.Phase, st.Accepted, st.RefusedCount = pokerv1.EntryBatchRefused, 0, int32(len(b.Spec.Entries))
	st.Refused = nil
	for _, e := range b.Spec.Entries {
		st.Refused = append(st.Refused, pokerv1.RefusedEntry{Player: e.Player, Kind: e.Kind, Reason: clip(reason, 256)})
	}
	st.AppliedAt = &metav1.Time{Time: time.Now().Truncate(time.Second)}
	meta.SetStatusCondition(&st.Conditions, recordCondition(b.Generation, metav1.ConditionFalse, "Refused", reason))
	r.Recorder.Eventf(b, nil, corev1.EventTypeWarning, "Refused", "Register", "the batch of %d entries was refused: %s", len(b.Spec.Entries), reason)
}

// SetupWithManager registers the reconciler: two batches at once (to one tournament, their
// Updates share its 10 in flight: one turned away waits and goes again).
func (r *EntryBatchReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.Keys == nil {
		r.Keys = mgr.GetAPIReader()
	}
	return ctrl.NewControllerManagedBy(mgr).For(&pokerv1.EntryBatch{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: 2}).
		Complete(r)
}
