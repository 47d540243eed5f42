package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// ErrToolsInSections refuses a director's tool on a tournament of several sections.
var ErrToolsInSections = errors.New("a tournament of several sections takes no director's tools by hand (move, break, unregister, no-shows, add-ons): " +
	"each player's record is in his section, which the tournament does not track player by player; they are for a tournament of one section (up to 200 tables)")

// toolWait is how long a director's tool waits for the player's table to apply it (between two
// hands) before it answers with the record as it stands; the ToolsQuery shows it complete later.
const toolWait = time.Minute

// registerTools sets the director's tools by hand on a tournament (one section's field): each
// update is checked by its validator (director's Verify..., which names the rule refusing it)
// before anything is recorded, and keyed by its Update ID, so a retry is applied once.
func (w *tournamentWorkflow) registerTools(ctx workflow.Context) error {
	s := w.s
	if err := workflow.SetQueryHandler(ctx, ToolsQuery, func() (director.ToolsState, error) { return s.Tools, nil }); err != nil {
		return err
	}
	key := func(ctx workflow.Context) string { return workflow.GetCurrentUpdateInfo(ctx).ID }
	changed := func() { w.wake = true }
	return errors.Join(
		workflow.SetUpdateHandlerWithOptions(ctx, MoveUpdate,
			func(ctx workflow.Context, r MoveRequest) (floor.Move, error) {
				r.Key = key(ctx)
				m := s.Move(r)
				changed()
				return m, nil
			},
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r MoveRequest) error {
				r.Key = key(ctx)
				return s.VerifyMove(r)
			}}),
		workflow.SetUpdateHandlerWithOptions(ctx, BreakTableUpdate,
			func(ctx workflow.Context, r BreakRequest) (director.ToolsState, error) {
				r.Key = key(ctx)
				s.BreakTable(r)
				changed()
				return s.Tools, nil
			},
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r BreakRequest) error {
				r.Key = key(ctx)
				return s.VerifyBreak(r)
			}}),
		workflow.SetUpdateHandlerWithOptions(ctx, UnregisterUpdate,
			func(ctx workflow.Context, r UnregisterRequest) (WithdrawalRecord, error) {
				r.Key = key(ctx)
				rec := s.Unregister(r)
				changed()
				return awaitWithdrawal(ctx, s, rec)
			},
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r UnregisterRequest) error {
				r.Key = key(ctx)
				return s.VerifyUnregister(r)
			}}),
		workflow.SetUpdateHandlerWithOptions(ctx, NoShowUpdate,
			func(ctx workflow.Context, r NoShowRequest) ([]WithdrawalRecord, error) {
				r.Key = key(ctx)
				recs := s.RemoveNoShows(r, workflow.Now(ctx))
				changed()
				for i, rec := range recs {
					done, err := awaitWithdrawal(ctx, s, rec)
					if err != nil {
						return nil, err
					}
					recs[i] = done
				}
				return recs, nil
			},
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r NoShowRequest) error {
				r.Key = key(ctx)
				return s.VerifyNoShows(r, workflow.Now(ctx))
			}}),
		workflow.SetUpdateHandlerWithOptions(ctx, AddOnUpdate,
			func(ctx workflow.Context, r AddOnRequest) (AddOnRecord, error) {
				r.Key = key(ctx)
				rec := s.AddOn(r)
				changed()
				// The chips are the player's once his table has put them in front of him.
				_, _ = workflow.AwaitWithTimeout(ctx, toolWait, func() bool { _, done := s.AddOnDone(rec.Ref); return done })
				rec, _ = s.AddOnDone(rec.Ref)
				if rec.Refused != "" {
					return rec, temporal.NewNonRetryableApplicationError(rec.Refused, "AddOnRefused", nil)
				}
				return rec, nil
			},
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, r AddOnRequest) error {
				r.Key = key(ctx)
				return s.VerifyAddOn(r, workflow.Now(ctx))
			}}),
	)
}

// awaitWithdrawal waits (a while) for the player's table to take him off, and answers with the
// record; a table that could not (he had busted, or it dealt first) refuses it with the reason.
func awaitWithdrawal(ctx workflow.Context, s *director.TournamentState, rec WithdrawalRecord) (WithdrawalRecord, error) {
	_, _ = workflow.AwaitWithTimeout(ctx, toolWait, func() bool { _, done := s.WithdrawalDone(rec.Ref); return done })
	rec, _ = s.WithdrawalDone(rec.Ref)
	if rec.Refused != "" {
		return rec, temporal.NewNonRetryableApplicationError(rec.Refused, "WithdrawalRefused", nil)
	}
	return rec, nil
}

// registerToolsRefused sets the director's tools on a tournament of sections, refused with the
// reason: a player's record lives in his section, which the tournament does not track by player
// (its state does not grow with the field), so it cannot route the tool to him.
func registerToolsRefused(ctx workflow.Context) error {
	refuse := func() error {
		return temporal.NewNonRetryableApplicationError(ErrToolsInSections.Error(), "NotInSections", nil)
	}
	if err := workflow.SetQueryHandler(ctx, ToolsQuery, func() (director.ToolsState, error) { return director.ToolsState{}, nil }); err != nil {
		return err
	}
	return errors.Join(
		workflow.SetUpdateHandlerWithOptions(ctx, MoveUpdate, func(ctx workflow.Context, _ MoveRequest) error { return refuse() },
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ MoveRequest) error { return refuse() }}),
		workflow.SetUpdateHandlerWithOptions(ctx, BreakTableUpdate, func(ctx workflow.Context, _ BreakRequest) error { return refuse() },
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ BreakRequest) error { return refuse() }}),
		workflow.SetUpdateHandlerWithOptions(ctx, UnregisterUpdate, func(ctx workflow.Context, _ UnregisterRequest) error { return refuse() },
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ UnregisterRequest) error { return refuse() }}),
		workflow.SetUpdateHandlerWithOptions(ctx, NoShowUpdate, func(ctx workflow.Context, _ NoShowRequest) error { return refuse() },
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ NoShowRequest) error { return refuse() }}),
		workflow.SetUpdateHandlerWithOptions(ctx, AddOnUpdate, func(ctx workflow.Context, _ AddOnRequest) error { return refuse() },
			workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, _ AddOnRequest) error { return refuse() }}),
	)
}
