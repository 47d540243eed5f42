package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// toolWait is how long a director's tool waits for the player's table to apply it (between two
// hands) before it answers with the record as it stands; the ToolsQuery shows it complete later.
const toolWait = time.Minute

// registerTools sets the director's tools by hand on a tournament of one section, or on a section
// of a larger one (the client sends an action on a player to his section): each update is checked by its validator (director's Verify..., which names the rule refusing it)
// before anything is recorded, and keyed by its Update ID, so a retry is applied once.
func (w *tournamentWorkflow) registerTools(ctx workflow.Context) error {
	s := w.s
	if err := workflow.SetQueryHandler(ctx, ToolsQuery, func() (director.ToolsState, error) { return s.Tools, nil }); err != nil {
		return err
	}
	changed := func() { w.wake = true }
	return errors.Join(
		setKeyedUpdate(ctx, MoveUpdate,
			func(ctx workflow.Context, r MoveRequest) error { return s.VerifyMove(r) },
			func(ctx workflow.Context, r MoveRequest) (floor.Move, error) {
				m := s.Move(r)
				changed()
				return m, nil
			}),
		setKeyedUpdate(ctx, BreakTableUpdate,
			func(ctx workflow.Context, r BreakRequest) error { return s.VerifyBreak(r) },
			func(ctx workflow.Context, r BreakRequest) (director.ToolsState, error) {
				s.BreakTable(r)
				changed()
				return s.Tools, nil
			}),
		setKeyedUpdate(ctx, UnregisterUpdate,
			func(ctx workflow.Context, r UnregisterRequest) error { return s.VerifyUnregister(r) },
			func(ctx workflow.Context, r UnregisterRequest) (WithdrawalRecord, error) {
				rec := s.Unregister(r)
				changed()
				return w.awaitWithdrawal(ctx, rec)
			}),
		setKeyedUpdate(ctx, NoShowUpdate,
			func(ctx workflow.Context, r NoShowRequest) error { return s.VerifyNoShows(r, workflow.Now(ctx)) },
			func(ctx workflow.Context, r NoShowRequest) ([]WithdrawalRecord, error) {
				recs := s.RemoveNoShows(r, workflow.Now(ctx))
				changed()
				for i, rec := range recs {
					done, err := w.awaitWithdrawal(ctx, rec)
					if err != nil {
						return nil, err
					}
					recs[i] = done
				}
				return recs, nil
			}),
		setKeyedUpdate(ctx, AddOnUpdate,
			func(ctx workflow.Context, r AddOnRequest) error { return s.VerifyAddOn(r, workflow.Now(ctx)) },
			func(ctx workflow.Context, r AddOnRequest) (AddOnRecord, error) {
				rec := s.AddOn(r)
				changed()
				// The chips are the player's once his table has put them in front of him.
				_, _ = w.wait.within(ctx, toolWait, func() bool { _, done := s.AddOnDone(rec.Ref); return done })
				rec, _ = s.AddOnDone(rec.Ref)
				if rec.Refused != "" {
					return rec, temporal.NewNonRetryableApplicationError(rec.Refused, "AddOnRefused", nil)
				}
				return rec, nil
			}),
	)
}

// awaitWithdrawal waits (a while) for the player's table to take him off, and answers with the
// record; a table that could not (he had busted, or it dealt first) refuses it with the reason.
func (w *tournamentWorkflow) awaitWithdrawal(ctx workflow.Context, rec WithdrawalRecord) (WithdrawalRecord, error) {
	s := w.s
	_, _ = w.wait.within(ctx, toolWait, func() bool { _, done := s.WithdrawalDone(rec.Ref); return done })
	rec, _ = s.WithdrawalDone(rec.Ref)
	if rec.Refused != "" {
		return rec, temporal.NewNonRetryableApplicationError(rec.Refused, "WithdrawalRefused", nil)
	}
	return rec, nil
}

// deal sends a deal of a tournament of sections to the section holding every player left (with
// the prizes still to be won), which makes it on its stacks after the last hand, its tables
// stopped; it answers once that section has (director.TopState.OrderDeal, TakeDeal).
func (w *topRun) deal(ctx workflow.Context, r DealRequest) (DealRecord, error) {
	t := w.t
	t.OrderDeal(r, workflow.Now(ctx))
	w.wake = true
	_, _ = w.wait.within(ctx, toolWait, func() bool { return t.DealAnswered(r.Key) })
	d, done, err := t.TakeDeal(r.Key)
	switch {
	case err != nil:
		return d, temporal.NewNonRetryableApplicationError(err.Error(), "DealRefused", nil)
	case !done:
		return d, fmt.Errorf("the section holding the players has not answered the deal yet: send it again with the same key (it is made once)")
	}
	return d, nil
}
