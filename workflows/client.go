package workflows

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Tournament is the client's handle on one tournament: start it, watch it, direct it, wait for
// its result. cmd's `run`, the kubectl plugin and the manager use it.
type Tournament struct {
	client client.Client
	ID     string
}

// StartTournament starts a tournament from spec under the workflow ID id, on taskQueue (TaskQueue
// when empty). The spec is checked first, so a bad one fails here with every problem listed.
func StartTournament(ctx context.Context, c client.Client, id, taskQueue string, spec TournamentSpec) (*Tournament, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if taskQueue == "" {
		taskQueue = TaskQueue
	}
	_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: taskQueue, WorkflowTaskTimeout: StateTaskTimeout}, TournamentWorkflow, TournamentInput{Spec: spec})
	if err != nil {
		return nil, fmt.Errorf("starting tournament %s: %w", id, err)
	}
	return &Tournament{client: c, ID: id}, nil
}

// GetTournament returns the handle of a tournament started before.
func GetTournament(c client.Client, id string) *Tournament { return &Tournament{client: c, ID: id} }

func (t *Tournament) query(ctx context.Context, name string, out any, args ...any) error {
	v, err := t.client.QueryWorkflow(ctx, t.ID, "", name, args...)
	if err != nil {
		return err
	}
	return v.Get(out)
}

// update runs a director's update. key, the request's Key, is its Update ID when set: a caller
// that retries with the same key has the action applied once (empty: the SDK picks one, which its
// own retries keep).
func (t *Tournament) update(ctx context.Context, name, key string, out any, arg any) error {
	return t.updateOn(ctx, t.ID, name, key, out, arg)
}

// updateOn runs a director's update on workflow id: the tournament's, or one of its sections'.
func (t *Tournament) updateOn(ctx context.Context, id, name, key string, out any, arg any) error {
	h, err := t.client.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateID: key, UpdateName: name, Args: []any{arg}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return h.Get(ctx, out)
}

// sections are the workflow IDs of the tournament's sections in play (none: one section).
func (t *Tournament) sections(ctx context.Context) ([]string, error) {
	var ids []string
	return ids, t.query(ctx, SectionsQuery, &ids)
}

// holder is the workflow that holds the record of at's player (or table): the tournament's own,
// or at several sections the section that has him. A player between two sections (moved by the
// tournament's balancing, until the other has seated him) is looked for again, for toolWait at
// most.
func (t *Tournament) holder(ctx context.Context, at director.Where) (string, error) {
	if at.Player == "" && at.Table == 0 {
		return "", errors.New("name the player (or the table) the action is for")
	}
	sections, err := t.sections(ctx)
	if err != nil || len(sections) == 0 {
		return t.ID, err
	}
	return t.holderAmong(ctx, at, sections)
}

// holderAmong is holder with the sections in play already read (at least one): it asks each,
// and reads them again only while it waits for a player between two.
func (t *Tournament) holderAmong(ctx context.Context, at director.Where, sections []string) (string, error) {
	var err error
	deadline := time.Now().Add(toolWait)
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		for _, id := range sections {
			var holds bool
			if v, err := t.client.QueryWorkflow(ctx, id, "", WhereQuery, at); err == nil && v.Get(&holds) == nil && holds {
				return id, nil
			}
		}
		if time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(wait):
		}
		if sections, err = t.sections(ctx); err != nil {
			return "", err
		}
		if len(sections) == 0 {
			return "", fmt.Errorf("tournament %s has no section in play: it is over", t.ID)
		}
	}
	what := fmt.Sprintf("player %q", at.Player)
	if at.Player == "" {
		what = fmt.Sprintf("table %d", at.Table)
	}
	return "", fmt.Errorf("no section of tournament %s has %s in play (asked %d sections for %v): check the name", t.ID, what, len(sections), toolWait)
}

// updatePlayer runs a director's update on the workflow that holds at's record (holder).
func (t *Tournament) updatePlayer(ctx context.Context, at director.Where, name, key string, out any, arg any) error {
	id, err := t.holder(ctx, at)
	if err != nil {
		return err
	}
	return t.updateOn(ctx, id, name, key, out, arg)
}

// Progress is the tournament at a glance: players left, tables, level, time to the next level,
// hands played.
func (t *Tournament) Progress(ctx context.Context) (Progress, error) {
	var p Progress
	return p, t.query(ctx, ProgressQuery, &p)
}

// Standings are the players in, by chips, and the places given so far. A tournament of several
// sections keeps no player's record: the players in are asked of each section in play, one after
// the other (a player who moves between two sections meanwhile is listed once, or not at all
// until the next call), and the places are the best director.KeepPlaces given (every one is
// written out through the PlaceSink).
func (t *Tournament) Standings(ctx context.Context) ([]Standing, error) {
	var s, in []Standing
	if err := t.query(ctx, StandingsQuery, &s); err != nil {
		return nil, err
	}
	var sections []string
	if err := t.query(ctx, SectionsQuery, &sections); err != nil {
		return nil, err
	}
	if len(sections) == 0 {
		return s, nil
	}
	seen := map[string]bool{}
	for _, id := range sections {
		v, err := t.client.QueryWorkflow(ctx, id, "", StandingsQuery)
		if err != nil {
			return nil, fmt.Errorf("standings of section %s: %w", id, err)
		}
		var part []Standing
		if err := v.Get(&part); err != nil {
			return nil, fmt.Errorf("standings of section %s: %w", id, err)
		}
		for _, st := range part {
			if st.Place == 0 && st.Status != director.Out && !seen[st.Player] {
				seen[st.Player] = true
				in = append(in, st)
			}
		}
	}
	slices.SortStableFunc(in, func(a, b Standing) int { return cmp.Compare(b.Stack, a.Stack) })
	return append(in, s...), nil
}

// Tables are the tables and their seats (at several sections, every section's in turn).
func (t *Tournament) Tables(ctx context.Context) ([]TableView, error) {
	var v []TableView
	return v, gather(t, ctx, TablesQuery, &v, func(part []TableView) { v = append(v, part...) })
}

// Clock is the blind clock and the record of its changes.
func (t *Tournament) Clock(ctx context.Context) (ClockView, error) {
	var v ClockView
	return v, t.query(ctx, ClockQuery, &v)
}

// Payouts is the prize pool, the prizes by place and the places paid so far.
func (t *Tournament) Payouts(ctx context.Context) (PayoutsView, error) {
	var v PayoutsView
	return v, t.query(ctx, PayoutsQuery, &v)
}

// Sanctions are the sanctions given (at several sections, each section's in turn).
func (t *Tournament) Sanctions(ctx context.Context) ([]SanctionRecord, error) {
	var v []SanctionRecord
	err := gather(t, ctx, SanctionsQuery, &v, func(part []SanctionRecord) { v = append(v, part...) })
	return v, err
}

// gather runs query name on the tournament into out, then on each section in play, handing each
// section's answer to add.
func gather[T any](t *Tournament, ctx context.Context, name string, out *T, add func(T)) error {
	if err := t.query(ctx, name, out); err != nil {
		return err
	}
	sections, err := t.sections(ctx)
	if err != nil {
		return err
	}
	for _, id := range sections {
		v, err := t.client.QueryWorkflow(ctx, id, "", name)
		if err != nil {
			return fmt.Errorf("%s of section %s: %w", name, id, err)
		}
		var part T
		if err := v.Get(&part); err != nil {
			return fmt.Errorf("%s of section %s: %w", name, id, err)
		}
		add(part)
	}
	return nil
}

// DealQuote is what an ICM or chip-chop deal would pay the players left, at their stacks after
// the last hand (the clock paused, every table stopped). At several sections the tournament
// names the section holding every player left (or refuses, saying where they are) and the prizes
// still to be won; that section quotes its players' stacks.
func (t *Tournament) DealQuote(ctx context.Context, r DealRequest) (DealQuote, error) {
	var q DealQuote
	if err := t.query(ctx, DealQuoteQuery, &q, r.Terms); err != nil || q.Section == "" {
		return q, err
	}
	v, err := t.client.QueryWorkflow(ctx, q.Section, "", DealQuoteQuery, r.Terms)
	if err != nil {
		return DealQuote{}, fmt.Errorf("the deal's stacks at section %s: %w", q.Section, err)
	}
	var stacks DealQuote
	if err := v.Get(&stacks); err != nil {
		return DealQuote{}, fmt.Errorf("the deal's stacks at section %s: %w", q.Section, err)
	}
	out, err := director.QuoteFor(stacks, q.Prizes, r.Terms)
	out.Section = q.Section
	return out, err
}

// ClockAction pauses, resumes or adds time (B3).
func (t *Tournament) ClockAction(ctx context.Context, r ClockRequest) (ClockView, error) {
	var v ClockView
	return v, t.update(ctx, ClockUpdate, r.Key, &v, r)
}

// Sanction gives a sanction (P1-P6) and returns its record once the player's table applied it.
// At several sections it goes to the player's section, which keeps his record (and his history
// of sanctions there).
func (t *Tournament) Sanction(ctx context.Context, r SanctionRequest) (SanctionRecord, error) {
	var rec SanctionRecord
	return rec, t.updatePlayer(ctx, director.Where{Player: r.Player}, SanctionUpdate, r.Key, &rec, r)
}

// Register takes a late entry or a re-entry and returns the entry's ID. At several sections the
// tournament takes it (R1, R6) and its section seats him (director.TopState.EntrySection); a
// re-entry goes through the tournament to the section where his last entry busted, which the
// client finds (reEntrySection).
func (t *Tournament) Register(ctx context.Context, r RegisterRequest) (string, error) {
	if r.ReEntryOf != "" && r.Section == 0 {
		n, err := t.reEntrySection(ctx, r.ReEntryOf, r.Key)
		if err != nil {
			return "", err
		}
		r.Section = n
	}
	var id string
	return id, t.update(ctx, RegisterUpdate, r.Key, &id, r)
}

// reEntrySection is the number of the section that holds entrant's busted entry (or took the
// re-entry with key key: a retry goes there), asked of each section in play; 0 for a tournament
// of one section, or when none does (the tournament then refuses the re-entry, saying why).
func (t *Tournament) reEntrySection(ctx context.Context, entrant, key string) (int, error) {
	sections, err := t.sections(ctx)
	if err != nil {
		return 0, err
	}
	at := director.Where{Entrant: entrant, Key: key}
	for _, id := range sections {
		var holds bool
		if v, err := t.client.QueryWorkflow(ctx, id, "", WhereQuery, at); err == nil && v.Get(&holds) == nil && holds {
			var n int
			if _, err := fmt.Sscanf(strings.TrimPrefix(id, t.ID+"/"), "section-%d", &n); err != nil {
				return 0, fmt.Errorf("section workflow %q: not one of tournament %s's", id, t.ID)
			}
			return n, nil
		}
	}
	return 0, nil
}

// RegisterBatch registers up to director.MaxBatchEntries entries in one Update and answers each,
// in order: its entry ID, or why it was refused. Each entry's key (its own, or the batch's key
// and its index) makes a retried batch take every entry once; a refused batch (its size, two
// entries with one key) is an error.
func (t *Tournament) RegisterBatch(ctx context.Context, r RegisterBatchRequest) ([]BatchResult, error) {
	r.Entries = slices.Clone(r.Entries)
	for i, e := range r.Entries {
		if e.ReEntryOf == "" || e.Section != 0 {
			continue
		}
		key := e.Key
		if key == "" && r.Key != "" {
			key = fmt.Sprintf("%s/%d", r.Key, i) // its key in the batch (RegisterBatchRequest.Requests)
		}
		n, err := t.reEntrySection(ctx, e.ReEntryOf, key)
		if err != nil {
			return nil, err
		}
		r.Entries[i].Section = n
	}
	var res []BatchResult
	return res, t.update(ctx, RegisterBatchUpdate, r.Key, &res, r)
}

// Rebuy buys a player chips (at several sections, in his section).
func (t *Tournament) Rebuy(ctx context.Context, r RebuyRequest) error {
	return t.updatePlayer(ctx, director.Where{Player: r.Player}, RebuyUpdate, r.Key, nil, r)
}

// RebuyBatch takes up to director.MaxBatchEntries rebuys in one Update and answers each, in
// order: taken, or why it was refused (by the rules, or by his table for his stack). Each
// rebuy's key (its own, or the batch's key and its index) makes a retried batch take every
// rebuy once; a refused batch (its size, two rebuys with one key) is an error. At several
// sections each rebuy goes to the section that has its player, one Update a section; a player
// no section has is refused so.
func (t *Tournament) RebuyBatch(ctx context.Context, r RebuyBatchRequest) ([]BatchResult, error) {
	if err := director.VerifyRebuyBatch(r); err != nil {
		return nil, err
	}
	sections, err := t.sections(ctx)
	if err != nil {
		return nil, err
	}
	if len(sections) == 0 {
		var res []BatchResult
		return res, t.update(ctx, RebuyBatchUpdate, r.Key, &res, r)
	}
	rebuys := r.Requests()
	out := make([]BatchResult, len(rebuys))
	var holders []string
	at := map[string][]int{} // a section's workflow: the rebuys it holds, by index
	for i, q := range rebuys {
		id, err := t.holderAmong(ctx, director.Where{Player: q.Player}, sections)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			out[i] = BatchResult{Key: q.Key, Player: q.Player, Refused: err.Error()}
			continue
		}
		if _, ok := at[id]; !ok {
			holders = append(holders, id)
		}
		at[id] = append(at[id], i)
	}
	for _, id := range holders {
		part := RebuyBatchRequest{}
		if r.Key != "" {
			part.Key = r.Key + "@" + id
		}
		for _, i := range at[id] {
			part.Rebuys = append(part.Rebuys, rebuys[i])
		}
		var res []BatchResult
		if err := t.updateOn(ctx, id, RebuyBatchUpdate, part.Key, &res, part); err != nil {
			return nil, fmt.Errorf("the rebuys of section %s: %w", id, err)
		}
		if len(res) != len(part.Rebuys) {
			return nil, fmt.Errorf("section %s answered %d of %d rebuys", id, len(res), len(part.Rebuys))
		}
		for k, i := range at[id] {
			out[i] = res[k]
		}
	}
	return out, nil
}

// Deal records a deal the director approved.
func (t *Tournament) Deal(ctx context.Context, r DealRequest) (DealRecord, error) {
	var d DealRecord
	return d, t.update(ctx, DealUpdate, r.Key, &d, r)
}

// Move moves a player by hand to table To, in R3's seat (refused with the rule otherwise); he
// leaves his table when its hand ends.
func (t *Tournament) Move(ctx context.Context, r MoveRequest) (floor.Move, error) {
	var m floor.Move
	return m, t.updatePlayer(ctx, director.Where{Player: r.Player}, MoveUpdate, r.Key, &m, r)
}

// BreakTable names the table the floor breaks next (R4): at once when the other tables can seat
// its players, otherwise at the first break R4 allows, instead of the floor's own choice.
func (t *Tournament) BreakTable(ctx context.Context, r BreakRequest) (ToolsState, error) {
	var v ToolsState
	return v, t.updatePlayer(ctx, director.Where{Table: r.Table}, BreakTableUpdate, r.Key, &v, r)
}

// Unregister withdraws an entry before the first hand, refunds his buy-in and shares the smaller
// pool (R1, R6); it answers once his table has taken him off.
func (t *Tournament) Unregister(ctx context.Context, r UnregisterRequest) (WithdrawalRecord, error) {
	var w WithdrawalRecord
	return w, t.updatePlayer(ctx, director.Where{Player: r.Player}, UnregisterUpdate, r.Key, &w, r)
}

// RemoveNoShows removes the players who never sat down, once the spec's no-show time has run
// (T4), refunded, the payouts recomputed: those named, or with no name every player whose table
// says he has not come (a served table knows who connected; it is an error when there is none).
// At several sections the players are removed by their sections, one update a section (keyed by
// the request's key and the section's workflow ID); with no name, every section in play is asked.
func (t *Tournament) RemoveNoShows(ctx context.Context, r NoShowRequest) ([]WithdrawalRecord, error) {
	bySection := map[string][]string{}
	var order []string
	if len(r.Players) == 0 {
		ids, err := t.sections(ctx)
		if err != nil {
			return nil, err
		}
		order = ids
	}
	for _, p := range r.Players {
		id, err := t.holder(ctx, director.Where{Player: p})
		if err != nil {
			return nil, err
		}
		if _, ok := bySection[id]; !ok {
			order = append(order, id)
		}
		bySection[id] = append(bySection[id], p)
	}
	if len(order) <= 1 {
		id := t.ID
		if len(order) == 1 {
			id = order[0]
		}
		var w []WithdrawalRecord
		if err := t.updateOn(ctx, id, NoShowUpdate, r.Key, &w, r); err != nil {
			return nil, err
		}
		return w, noNoShows(r, w)
	}
	var all []WithdrawalRecord
	for _, id := range order {
		part := r
		part.Players = bySection[id]
		if r.Key != "" {
			part.Key = r.Key + "@" + id
		}
		var w []WithdrawalRecord
		if err := t.updateOn(ctx, id, NoShowUpdate, part.Key, &w, part); err != nil {
			return all, fmt.Errorf("the no-shows of section %s: %w", id, err)
		}
		all = append(all, w...)
	}
	return all, noNoShows(r, all)
}

// noNoShows is the error of a request that named nobody and found nobody to remove.
func noNoShows(r NoShowRequest, removed []WithdrawalRecord) error {
	if len(r.Players) > 0 || len(removed) > 0 {
		return nil
	}
	return errors.New("rule T4: no player is a no-show: every table has seen its players come, or does not know (a table with a human dealer): name the no-shows")
}

// AddOn sells a player add-ons at the add-on break (R1); it answers once the chips are his.
func (t *Tournament) AddOn(ctx context.Context, r AddOnRequest) (AddOnRecord, error) {
	var a AddOnRecord
	return a, t.updatePlayer(ctx, director.Where{Player: r.Player}, AddOnUpdate, r.Key, &a, r)
}

// Tools is what the director's tools recorded: moves and breaks by hand, withdrawals, add-ons
// (at several sections, every section's together).
func (t *Tournament) Tools(ctx context.Context) (ToolsState, error) {
	var v ToolsState
	err := gather(t, ctx, ToolsQuery, &v, func(part ToolsState) {
		v.Moves = append(v.Moves, part.Moves...)
		v.Breaks = append(v.Breaks, part.Breaks...)
		v.Withdrawn = append(v.Withdrawn, part.Withdrawn...)
		v.AddOns = append(v.AddOns, part.AddOns...)
		v.AddOnsSold += part.AddOnsSold
	})
	return v, err
}

// Result waits for the end (following the runs that continued as new) and returns the places and
// prizes.
func (t *Tournament) Result(ctx context.Context) (TournamentResult, error) {
	var r TournamentResult
	return r, t.client.GetWorkflow(ctx, t.ID, "").Get(ctx, &r)
}
