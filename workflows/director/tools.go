package director

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// The director's tools by hand (issue 8): a move, a table broken, an entry unregistered before
// the start, no-shows removed, add-ons. Each has the three faces of every director action: a
// request with an idempotency key (the Update ID), a Verify that names the rule refusing it and
// never writes, and the action, which a retry with the same key answers from the record. The
// floor's pure decisions (workflows/floor: PlanDirectorMove, PlanDirectorBreak, Unregister,
// RemoveNoShows, AddOn) decide; these methods queue the orders and keep the records.

// Withdrawn is an entry refunded and taken out of the field: unregistered before the start, or a
// no-show removed. It takes no place.
const Withdrawn PlayerStatus = "withdrawn"

// ToolsState is what the director's tools recorded: the moves and breaks made by hand (P6: who
// and why), the entries withdrawn with their refunds, and the add-ons sold.
type ToolsState struct {
	Moves  []floor.MoveRecord `json:"moves,omitempty"`
	Breaks []floor.TableBreak `json:"breaks,omitempty"`
	// BreakNext is the table the director asked to break, not yet broken (BreakTable).
	BreakNext *BreakRequest      `json:"breakNext,omitempty"`
	Withdrawn []WithdrawalRecord `json:"withdrawn,omitempty"`
	AddOns    []AddOnRecord      `json:"addOns,omitempty"`
	// AddOnsSold counts the add-ons whose chips reached their player: their money is in the
	// prize pool (and every add-on asked for and not yet refused, Pending).
	AddOnsSold int `json:"addOnsSold,omitempty"`
	// Bounties are a progressive knockout's (bounties.go).
	Bounties *BountiesState `json:"bounties,omitempty"`
	// Record is the director's end-of-run list (record.go).
	Record *RecordState `json:"record,omitempty"`
	// Refs numbers the tool orders sent to tables.
	Refs int `json:"refs,omitempty"`
	// At a section while late registration is open: the busted entries whose entrant may
	// re-enter here, and the entries of the field with no record here (busted, disqualified,
	// gone to another section, or drawn into another), sorted: a second entry of one is refused
	// (section_money.go).
	Busted    []BustRecord `json:"busted,omitempty"`
	Elsewhere []string     `json:"elsewhere,omitempty"`
	// DealDone, at a section, is its answer to the tournament's deal, for its next event.
	DealDone *DealDone `json:"dealDone,omitempty"`
}

// ToolKind is what a ToolOrder does at the table.
type ToolKind string

// The tool orders.
const (
	// ToolAddOn puts an add-on's chips in front of a player still in (R1 policy).
	ToolAddOn ToolKind = "addOn"
	// ToolRemove takes a withdrawn entry off the table, with his chips (refunded; T4, R1).
	ToolRemove ToolKind = "remove"
)

// ToolOrder is a director's tool applied at a table between hands.
type ToolOrder struct {
	Ref    int      `json:"ref"`
	Kind   ToolKind `json:"kind"`
	Player string   `json:"player"`
	Chips  int64    `json:"chips,omitempty"` // an add-on's
	// BeforeStart: a removal refunded as an unregistration, refused once the table has dealt.
	BeforeStart bool `json:"beforeStart,omitempty"`
}

// ToolDone is a ToolOrder as the table applied it: Chips are the chips added (an add-on) or taken
// off with the player (a removal); Refused says why nothing was done.
type ToolDone struct {
	Ref     int      `json:"ref"`
	Kind    ToolKind `json:"kind"`
	Player  string   `json:"player"`
	Chips   int64    `json:"chips,omitempty"`
	Hand    int64    `json:"hand"`
	Refused string   `json:"refused,omitempty"`
}

// tool applies a tool order at the table (the TableState's side).
func (t *TableState) tool(o ToolOrder, ev *TableEvent) {
	done := ToolDone{Ref: o.Ref, Kind: o.Kind, Player: o.Player, Hand: t.HandNumber}
	i := t.playerIndex(o.Player)
	switch {
	case i < 0:
		done.Refused = fmt.Sprintf("%s is not at table %s", o.Player, t.ID)
	case o.Kind == ToolAddOn && t.Seats[i].Stack <= 0:
		done.Refused = fmt.Sprintf("rule R1: %s has no chips: an add-on is for a player still in", o.Player)
	case o.Kind == ToolAddOn:
		t.Seats[i].Stack += o.Chips
		done.Chips = o.Chips
	case o.Kind == ToolRemove && o.BeforeStart && t.Positions.Played:
		done.Refused = fmt.Sprintf("rule R1: table %s dealt before %s could be taken off: his chips are in play, he is not refunded", t.ID, o.Player)
	case o.Kind == ToolRemove:
		done.Chips = t.Seats[i].Stack
		t.Seats = slices.Delete(t.Seats, i, i+1)
	default:
		done.Refused = fmt.Sprintf("unknown tool %q", o.Kind)
	}
	ev.Tools = append(ev.Tools, done)
}

// levelNumber is the number of the level in play (1 before the first).
func (s *TournamentState) levelNumber() int {
	n := 1
	if s.Period >= 0 {
		n = max(s.clock().LevelNumber(s.Period), 1)
	}
	if s.Spec.Simulation {
		// A simulation's tables keep the schedule by their own hands (report.State.Levels) and
		// the tournament's clock hears of it only at the end: the level in play is the highest a
		// table has reported (levels only rise, so a closed table's does not mislead).
		for i := range s.Tables {
			n = max(n, s.Tables[i].Level)
		}
	}
	return n
}

// toolRef numbers a new tool order.
func (s *TournamentState) toolRef() int {
	s.Tools.Refs++
	return s.Tools.Refs
}

// verifyTool is what every tool checks first: the tournament (or the section) is running, and the
// action records who took it (P6).
func (s *TournamentState) verifyTool(by string) error {
	switch {
	case s.Finished:
		return errors.New("the tournament is over")
	case by == "":
		return &floor.RuleError{Rule: "P6", Reason: "a director's action records who took it"}
	}
	return nil
}

// openTables is the floor's view of the tables in play (not breaking, not closing).
func (s *TournamentState) openTables() []floor.Table {
	var open []floor.Table
	for i := range s.Tables {
		t := &s.Tables[i]
		if !t.Closed && !t.Closing && !t.Breaking {
			open = append(open, s.view(t))
		}
	}
	return open
}

// verifyTablesSettled refuses a move or a break while the floor's view may not be the tables':
// a move is on the way, or hand-for-hand rounds are being dealt (R7: the floor plans between
// rounds).
func (s *TournamentState) verifyTablesSettled(rule string) error {
	if s.MovesPending() {
		return &floor.RuleError{Rule: rule, Reason: "players are on their way between tables: try again when they are seated"}
	}
	if s.HandForHand.Open {
		return &floor.RuleError{Rule: "R7", Reason: "a hand-for-hand round is being dealt: try again when it ends"}
	}
	return nil
}

// MoveRequest is a move the director orders by hand: Player to table To (P6), in R3's seat.
type MoveRequest struct {
	Player string        `json:"player"`
	To     floor.TableID `json:"to"`
	// Seat is the seat asked for: 0 takes R3's; any other seat than R3's is refused.
	Seat   floor.Seat `json:"seat,omitempty"`
	By     string     `json:"by"`
	Reason string     `json:"reason,omitempty"`
	// Key is the idempotency key, the Update ID that carried the request.
	Key string `json:"key,omitempty"`
}

func (s *TournamentState) planMove(r MoveRequest) (floor.DirectorMovePlan, error) {
	if err := s.verifyTool(r.By); err != nil {
		return floor.DirectorMovePlan{}, err
	}
	if err := s.verifyTablesSettled("R3"); err != nil {
		return floor.DirectorMovePlan{}, err
	}
	if s.Section != nil && s.Table(r.To) == nil {
		return floor.DirectorMovePlan{}, &floor.RuleError{Rule: "R3", Reason: fmt.Sprintf("table %d is not in section %d, where %s plays: a move by hand stays in his section "+
			"(the tournament moves players between sections itself, by R3 and R4 over the whole field)", r.To, s.Section.Number, r.Player)}
	}
	return floor.PlanDirectorMove(s.openTables(), floor.DirectorMove{Player: floor.PlayerID(r.Player), To: r.To, Seat: r.Seat, By: r.By, Reason: r.Reason}, s.Spec.Balance)
}

// VerifyMove says which rule forbids the move (R3's seat and balance, B7, B8), or returns nil.
func (s *TournamentState) VerifyMove(r MoveRequest) error {
	if s.applied(r.Key) {
		return nil
	}
	_, err := s.planMove(r)
	return err
}

// Move orders the move: the player leaves his table when its hand ends and takes R3's seat at the
// target table (the table works the seat out again from its own big blind, as for a balancing
// move). It returns the move as planned.
func (s *TournamentState) Move(r MoveRequest) floor.Move {
	if ref, ok := s.Actions[r.Key]; ok && r.Key != "" {
		if n, err := strconv.Atoi(ref); err == nil && n >= 0 && n < len(s.Tools.Moves) {
			return s.Tools.Moves[n].Move
		}
		return floor.Move{}
	}
	s.record(r.Key, strconv.Itoa(len(s.Tools.Moves)))
	plan, err := s.planMove(r)
	if err != nil {
		s.ChipErrors = append(s.ChipErrors, "director's move: "+err.Error())
		return floor.Move{}
	}
	s.orderPlan(floor.Plan{Moves: []floor.Move{plan.Move}})
	s.recordPlan(floor.Plan{Moves: []floor.Move{plan.Move}}, r.By, r.Reason)
	s.Tools.Moves = append(s.Tools.Moves, floor.MoveRecord{Level: s.levelNumber(), Move: plan.Move, Hand: s.HandsPlayed(), By: r.By, Reason: r.Reason})
	return plan.Move
}

// BreakRequest is a table the director breaks by hand (R4).
type BreakRequest struct {
	Table  floor.TableID `json:"table"`
	By     string        `json:"by"`
	Reason string        `json:"reason,omitempty"`
	// Key is the idempotency key, the Update ID that carried the request.
	Key string `json:"key,omitempty"`
}

// VerifyBreak says why the table cannot be broken (R4: it is not in play, or it is the last), or
// returns nil. It draws nothing: the draw is the break's.
func (s *TournamentState) VerifyBreak(r BreakRequest) error {
	if s.applied(r.Key) {
		return nil
	}
	if err := s.verifyTool(r.By); err != nil {
		return err
	}
	open := s.openTables()
	if !slices.ContainsFunc(open, func(t floor.Table) bool { return t.ID == r.Table }) {
		return &floor.RuleError{Rule: "R4", Reason: fmt.Sprintf("table %d is not in play", r.Table)}
	}
	if len(open) == 1 {
		return &floor.RuleError{Rule: "R4", Reason: fmt.Sprintf("table %d is the last table: it plays to the end (R5)", r.Table)}
	}
	return nil
}

// BreakTable names the table the floor breaks next (R4). A table can break only when the free
// seats at the other tables can take its players, which is exactly when the floor breaks one
// (the emptiest) by itself; so the director's break is the card room's break order: the floor
// breaks this table, not its own choice, at the first break R4 allows (at once when it allows
// one now), and draws its players into the free seats (each takes his seat as B7 says), then
// balances (R3). A later request replaces an earlier one not yet made.
func (s *TournamentState) BreakTable(r BreakRequest) {
	if s.applied(r.Key) {
		return
	}
	s.record(r.Key, "")
	r.Key = ""
	s.Tools.BreakNext = &r
}

// directorBreak is the plan of the break the director asked for, when R4 lets its table break
// now; the request is dropped once its table is no longer in play.
func (s *TournamentState) directorBreak(open []floor.Table) (floor.Plan, bool) {
	r := s.Tools.BreakNext
	if r == nil {
		return floor.Plan{}, false
	}
	i := slices.IndexFunc(open, func(t floor.Table) bool { return t.ID == r.Table })
	if i < 0 || len(open) < 2 {
		s.Tools.BreakNext = nil
		return floor.Plan{}, false
	}
	free := 0
	for k, t := range open {
		if k != i {
			free += t.Size() - t.Players()
		}
	}
	if free < open[i].Players() {
		return floor.Plan{}, false
	}
	plan, err := floor.PlanDirectorBreak(open, r.Table, s.Spec.Balance, s.rand())
	if err != nil {
		s.ChipErrors = append(s.ChipErrors, "director's break: "+err.Error())
		s.Tools.BreakNext = nil
		return floor.Plan{}, false
	}
	s.Tools.BreakNext = nil
	s.recordPlan(plan, r.By, r.Reason)
	s.Tools.Breaks = append(s.Tools.Breaks, floor.TableBreak{Level: s.levelNumber(), Table: r.Table, Players: open[i].Players(),
		Hand: s.HandsPlayed(), By: r.By, Reason: r.Reason})
	return plan, true
}

// WithdrawalRecord is an entry withdrawn and refunded: unregistered before the start, or a
// no-show removed (T4). Done once his table took him off (his chips leave play); Refused says
// why it could not (he busted or left meanwhile: the refund is undone).
type WithdrawalRecord struct {
	Ref          int    `json:"ref"`
	Player       string `json:"player"`
	NoShow       bool   `json:"noShow,omitempty"`
	RefundCents  int64  `json:"refundCents"`
	KeptFeeCents int64  `json:"keptFeeCents,omitempty"`
	By           string `json:"by"`
	Chips        int64  `json:"chips,omitempty"` // taken off the table with him
	Done         bool   `json:"done,omitempty"`
	Refused      string `json:"refused,omitempty"`
}

// UnregisterRequest withdraws an entry before the start, with a full refund (R1).
type UnregisterRequest struct {
	Player string `json:"player"`
	By     string `json:"by"`
	// Key is the idempotency key, the Update ID that carried the request.
	Key string `json:"key,omitempty"`
}

// started says the tournament has started for refunds: a hand has been dealt (or told of) at a
// table, so chips are in play.
func (s *TournamentState) started() bool {
	if s.HandsPlayed() > 0 {
		return true
	}
	for _, t := range s.Tables {
		if t.Hand > 0 {
			return true
		}
	}
	return false
}

// buyIns is what the field bought, as the floor's money sums see it.
func (s *TournamentState) buyIns() floor.BuyIns { return s.Spec.buyIns(s.Entries, s.addOnsPaid()) }

// buyIns is what a field of entries e with addOns add-ons paid bought, as the floor's money sums
// see it.
func (s TournamentSpec) buyIns(e floor.Entries, addOns int) floor.BuyIns {
	b := floor.BuyIns{Entries: e, StartingStack: s.Structure.StartingStack, RebuyChips: s.RebuyChips}
	if s.AddOn != nil {
		b.AddOn, b.AddOns = *s.AddOn, addOns
	}
	if s.Bounty != nil {
		b.Bounty = *s.Bounty
	}
	return b
}

// addOnsPaid is the add-ons whose money is in the pool: those sold, and those asked for and not
// yet refused (the money is taken when the add-on is; a refusal gives it back).
func (s *TournamentState) addOnsPaid() int {
	n := 0
	for _, a := range s.Tools.AddOns {
		if a.Refused == "" {
			n += a.Count
		}
	}
	return n
}

// addOnsPending is the add-ons asked for that their tables have not yet sold or refused.
func (s *TournamentState) addOnsPending() int {
	n := 0
	for _, a := range s.Tools.AddOns {
		if !a.Done && a.Refused == "" {
			n++
		}
	}
	return n
}

// rebuysPending counts the rebuys sold whose table has not yet answered.
func (s *TournamentState) rebuysPending() int {
	n := 0
	for _, r := range s.RebuyLog {
		if !r.Done {
			n++
		}
	}
	return n
}

// verifyWithdrawal checks that p may be withdrawn: a first entry, seated, not on his way.
func (s *TournamentState) verifyWithdrawal(id string) (*PlayerRecord, error) {
	p := s.player(id)
	switch {
	case p == nil:
		return nil, fmt.Errorf("no player %q in the tournament", id)
	case p.Status == Out || p.Status == Withdrawn:
		return nil, &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s is out of the tournament already", id)}
	case p.ID != p.Entrant:
		return nil, &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s is a re-entry, bought after a bust: only a first entry is withdrawn", id)}
	case p.Rebuys > 0:
		return nil, &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s has rebought: his chips were played for", id)}
	case slices.ContainsFunc(s.Tools.Withdrawn, func(w WithdrawalRecord) bool { return w.Player == id && w.Refused == "" }):
		return nil, &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s is being withdrawn already", id)}
	case p.Status != Seated || p.Leaving:
		return nil, fmt.Errorf("%s is changing tables: try again when seated", id)
	}
	return p, nil
}

// VerifyUnregister says why the entry cannot be unregistered (R1: the tournament has started; R5:
// two entries are needed; R6: the payouts cannot take the smaller field), or returns nil.
func (s *TournamentState) VerifyUnregister(r UnregisterRequest) error {
	if s.applied(r.Key) {
		return nil
	}
	if err := s.verifyTool(r.By); err != nil {
		return err
	}
	if _, err := floor.Unregister(s.buyIns(), floor.PlayerID(r.Player), s.started()); err != nil {
		return err
	}
	if _, err := s.verifyWithdrawal(r.Player); err != nil {
		return err
	}
	return s.verifyFieldWithout(1)
}

// verifyFieldWithout says why the field cannot lose n first entries (R5, R6), or returns nil.
func (s *TournamentState) verifyFieldWithout(n int) error {
	if left := s.Left() - n - s.withdrawing(); left < 2 {
		return &floor.RuleError{Rule: "R5", Reason: fmt.Sprintf("withdrawing %d entries leaves %d players: a tournament needs two", n, left)}
	}
	if s.Section != nil {
		return nil // the payouts are the tournament's: it shares the smaller pool when it hears
	}
	e := s.Entries
	e.Entries -= n
	b := s.buyIns()
	b.Entries = e
	if _, err := s.payoutsFor(b); err != nil {
		return fmt.Errorf("the payouts cannot take the smaller field: %w", err)
	}
	return nil
}

// withdrawing is the withdrawals ordered and not yet done.
func (s *TournamentState) withdrawing() int {
	n := 0
	for _, w := range s.Tools.Withdrawn {
		if !w.Done && w.Refused == "" {
			n++
		}
	}
	return n
}

// Unregister refunds the whole buy-in, drops the field by one and shares the smaller pool (R1,
// R6); the player's table takes him off before its first hand. It returns the withdrawal.
func (s *TournamentState) Unregister(r UnregisterRequest) WithdrawalRecord {
	if ref, ok := s.Actions[r.Key]; ok && r.Key != "" {
		n, _ := strconv.Atoi(ref)
		return s.withdrawal(n)
	}
	u, err := floor.Unregister(s.buyIns(), floor.PlayerID(r.Player), s.started())
	if err != nil {
		s.ChipErrors = append(s.ChipErrors, "unregister: "+err.Error())
		return WithdrawalRecord{}
	}
	return s.withdraw(r.Key, WithdrawalRecord{Player: r.Player, RefundCents: u.RefundCents, By: r.By})
}

// withdrawal is the record of tool reference ref.
func (s *TournamentState) withdrawal(ref int) WithdrawalRecord {
	if k := slices.IndexFunc(s.Tools.Withdrawn, func(w WithdrawalRecord) bool { return w.Ref == ref }); k >= 0 {
		return s.Tools.Withdrawn[k]
	}
	return WithdrawalRecord{}
}

// withdraw takes the money out (the entry and its refund), recomputes the payouts, and has the
// player's table take him off.
func (s *TournamentState) withdraw(key string, w WithdrawalRecord) WithdrawalRecord {
	p := s.player(w.Player)
	w.Ref = s.toolRef()
	s.record(key, strconv.Itoa(w.Ref))
	s.Entries.Entries--
	s.recomputePayouts()
	p.Leaving = true // out of the floor's view: no move plans around him meanwhile
	s.Tools.Withdrawn = append(s.Tools.Withdrawn, w)
	s.order(p.Table, Order{Tool: &ToolOrder{Ref: w.Ref, Kind: ToolRemove, Player: p.ID, BeforeStart: !w.NoShow}})
	return w
}

// NoShowRequest removes the players who never sat down, once the spec's NoShow time has run (T4).
type NoShowRequest struct {
	Players []string `json:"players"`
	By      string   `json:"by"`
	// Key is the idempotency key, the Update ID that carried the request.
	Key string `json:"key,omitempty"`
}

func (s *TournamentState) noShows(r NoShowRequest, now time.Time) (floor.NoShowRemoval, error) {
	if err := s.verifyTool(r.By); err != nil {
		return floor.NoShowRemoval{}, err
	}
	if s.Spec.NoShow == nil || s.Spec.NoShow.After <= 0 {
		return floor.NoShowRemoval{}, &floor.RuleError{Rule: "T4", Reason: "the spec sets no time after which an absent player is a no-show (noShow.after)"}
	}
	cs, err := s.ClockAt(now)
	if err != nil {
		return floor.NoShowRemoval{}, err
	}
	var ns []floor.NoShow
	if len(r.Players) == 0 {
		// Every player his table says has not come, who can be withdrawn now (one changing
		// tables waits for his seat).
		for _, id := range s.absentPlayers() {
			if p, err := s.verifyWithdrawal(id); err == nil {
				ns = append(ns, floor.NoShow{Player: floor.PlayerID(id), Stack: p.Stack})
			}
		}
		if len(ns) == 0 {
			return floor.NoShowRemoval{}, nil
		}
	}
	for _, id := range r.Players {
		p, err := s.verifyWithdrawal(id)
		if err != nil {
			return floor.NoShowRemoval{}, err
		}
		if p.Came {
			return floor.NoShowRemoval{}, &floor.RuleError{Rule: "T4", Reason: fmt.Sprintf("%s has come to his table: a late player is not a no-show", id)}
		}
		ns = append(ns, floor.NoShow{Player: floor.PlayerID(id), Stack: p.Stack})
	}
	if err := s.verifyFieldWithout(len(ns)); err != nil {
		return floor.NoShowRemoval{}, err
	}
	return floor.RemoveNoShows(s.buyIns(), *s.Spec.NoShow, cs.Elapsed, ns, s.Ledger, s.Spec.Payouts)
}

// absentPlayers are the players in play whose tables say they have not come (T4), by ID.
func (s *TournamentState) absentPlayers() []string {
	var out []string
	for i := range s.Players {
		if p := &s.Players[i]; p.Absent && p.Status != Out && p.Status != Withdrawn {
			out = append(out, p.ID)
		}
	}
	slices.Sort(out)
	return out
}

// removeDueNoShows removes, once the spec's no-show time has run and the spec says so
// (NoShowRule.Auto), every player whose table says he has not come: refunded as a director's
// removal would (T4, R6), by "the no-show rule" (P6). Each is tried once: one his table refuses
// is not removed again.
func (s *TournamentState) removeDueNoShows(now time.Time) {
	if n := s.Spec.NoShow; n == nil || !n.Auto || s.Finished {
		return
	}
	if cs, err := s.ClockAt(now); err != nil || !s.Spec.NoShow.Due(cs.Elapsed) || len(s.absentPlayers()) == 0 {
		return
	}
	r := NoShowRequest{By: NoShowRuleBy}
	rem, err := s.noShows(r, now)
	if err != nil {
		return // the field would be too small (R5): the director decides, by name
	}
	for _, w := range s.withdrawNoShows(r, rem) {
		s.player(w.Player).Absent = false
	}
}

// NoShowRuleBy is who removes the no-shows the spec removes itself (NoShowRule.Auto).
const NoShowRuleBy = "the no-show rule (T4)"

// VerifyNoShows says why the players cannot be removed as no-shows (T4: too early, or a stack
// above the starting one, which only a player who played has), or returns nil.
func (s *TournamentState) VerifyNoShows(r NoShowRequest, now time.Time) error {
	if s.applied(r.Key) {
		return nil
	}
	_, err := s.noShows(r, now)
	return err
}

// RemoveNoShows withdraws the no-shows: each is refunded (less the fee when the rule keeps it),
// the field and the pool drop, the payouts are recomputed (R6), and his table takes him off with
// the chips he has left (they leave play, like a disqualified player's: the blinds he lost are in
// other stacks).
func (s *TournamentState) RemoveNoShows(r NoShowRequest, now time.Time) []WithdrawalRecord {
	if refs, ok := s.Actions[r.Key]; ok && r.Key != "" {
		var out []WithdrawalRecord
		for _, ref := range strings.Fields(refs) {
			n, _ := strconv.Atoi(ref)
			out = append(out, s.withdrawal(n))
		}
		return out
	}
	rem, err := s.noShows(r, now)
	if err != nil {
		s.ChipErrors = append(s.ChipErrors, "no-shows: "+err.Error())
		return nil
	}
	return s.withdrawNoShows(r, rem)
}

// withdrawNoShows withdraws the no-shows of a removal noShows made for r, and records r's key.
func (s *TournamentState) withdrawNoShows(r NoShowRequest, rem floor.NoShowRemoval) []WithdrawalRecord {
	var out []WithdrawalRecord
	var refs []string
	for _, u := range rem.Removed {
		w := s.withdraw("", WithdrawalRecord{Player: string(u.Player), NoShow: true, RefundCents: u.RefundCents, KeptFeeCents: u.KeptFeeCents, By: r.By})
		out = append(out, w)
		refs = append(refs, strconv.Itoa(w.Ref))
	}
	s.record(r.Key, strings.Join(refs, " "))
	return out
}

// AddOnRequest buys add-ons for a player still in, at the add-on break (R1 policy).
type AddOnRequest struct {
	Player string `json:"player"`
	Count  int    `json:"count,omitempty"` // 0 means 1
	// Key is the idempotency key, the Update ID that carried the request.
	Key string `json:"key,omitempty"`
}

// AddOnRecord is an add-on sold: Done once the table put the chips in front of the player, or
// refused them (Refused: the money goes back).
type AddOnRecord struct {
	Ref     int    `json:"ref"`
	Player  string `json:"player"`
	Count   int    `json:"count"`
	Chips   int64  `json:"chips,omitempty"`
	Done    bool   `json:"done,omitempty"`
	Refused string `json:"refused,omitempty"`
}

// addOnPeriod is the period of the full structure the add-ons are judged in: the clock's. A
// simulation's clock skips breaks, so there the add-on break is the level that follows it: the
// first level after the rebuy period.
func (s *TournamentState) addOnPeriod(now time.Time) (int, error) {
	if s.Section != nil {
		// The tournament keeps the clock and tells the section its period.
		if !s.Spec.Simulation {
			return s.Period, nil
		}
		if s.levelNumber() != s.Spec.RebuyLevel+1 {
			return -1, nil
		}
		return floor.AddOnBreak(s.Spec.Structure, s.Spec.RebuyLevel)
	}
	cs, err := s.ClockAt(now)
	if err != nil {
		return 0, err
	}
	if !s.Spec.Simulation {
		return cs.Period, nil
	}
	at, err := floor.AddOnBreak(s.Spec.Structure, s.Spec.RebuyLevel)
	if err != nil {
		return 0, err
	}
	if cs.Level == s.Spec.RebuyLevel+1 {
		return at, nil
	}
	return -1, nil
}

// VerifyAddOn says why the add-on is refused (R1: no add-ons in this event, not at the add-on
// break, a player out, more than the limit), or returns nil.
func (s *TournamentState) VerifyAddOn(r AddOnRequest, now time.Time) error {
	if s.applied(r.Key) {
		return nil
	}
	if s.Finished {
		return errors.New("the tournament is over")
	}
	if s.Spec.AddOn == nil {
		return &floor.RuleError{Rule: "R1", Reason: "this event sells no add-ons"}
	}
	p := s.player(r.Player)
	switch {
	case p == nil:
		return fmt.Errorf("no player %q", r.Player)
	case p.Status == Seated && p.Leaving:
		return fmt.Errorf("%s is changing tables: try again when seated", r.Player)
	case p.Status == Moving:
		return fmt.Errorf("%s is changing tables: try again when seated", r.Player)
	}
	period, err := s.addOnPeriod(now)
	if err != nil {
		return err
	}
	stack := p.Stack
	if p.Status != Seated {
		stack = 0
	}
	taken := 0
	for _, a := range s.Tools.AddOns {
		if a.Player == r.Player && a.Refused == "" {
			taken += a.Count
		}
	}
	req := floor.AddOnRequest{Player: floor.PlayerID(r.Player), Period: period, Stack: stack, Taken: taken, Count: r.Count}
	return s.Spec.AddOn.VerifyAddOn(s.Spec.Structure, s.Spec.RebuyLevel, req)
}

// AddOn takes the money, grows the prize pool and puts the chips in front of the player when his
// table applies it (he has chips: a player busted meanwhile is refunded). It returns the record.
func (s *TournamentState) AddOn(r AddOnRequest) AddOnRecord {
	if ref, ok := s.Actions[r.Key]; ok && r.Key != "" {
		n, _ := strconv.Atoi(ref)
		return s.addOnRecord(n)
	}
	p := s.player(r.Player)
	a := AddOnRecord{Ref: s.toolRef(), Player: r.Player, Count: max(r.Count, 1)}
	s.record(r.Key, strconv.Itoa(a.Ref))
	s.Tools.AddOns = append(s.Tools.AddOns, a)
	s.recomputePayouts()
	s.order(p.Table, Order{Tool: &ToolOrder{Ref: a.Ref, Kind: ToolAddOn, Player: p.ID, Chips: int64(a.Count) * s.Spec.AddOn.Chips}})
	return a
}

func (s *TournamentState) addOnRecord(ref int) AddOnRecord {
	if k := slices.IndexFunc(s.Tools.AddOns, func(a AddOnRecord) bool { return a.Ref == ref }); k >= 0 {
		return s.Tools.AddOns[k]
	}
	return AddOnRecord{}
}

// AddOnDone reports whether add-on ref was applied or refused by its table.
func (s *TournamentState) AddOnDone(ref int) (AddOnRecord, bool) {
	a := s.addOnRecord(ref)
	return a, a.Done || a.Refused != ""
}

// WithdrawalDone reports whether withdrawal ref was made or refused by its table.
func (s *TournamentState) WithdrawalDone(ref int) (WithdrawalRecord, bool) {
	w := s.withdrawal(ref)
	return w, w.Done || w.Refused != ""
}

// MoveDone reports whether the player has left his table for another (or stayed: refused).
func (s *TournamentState) MoveDone(player string) bool {
	p := s.player(player)
	return p == nil || !p.Leaving && p.Status != Moving
}

// toolsDone takes a table's answers to the tool orders.
func (s *TournamentState) toolsDone(tr *TableRecord, ev TableEvent) {
	for _, d := range ev.Tools {
		switch d.Kind {
		case ToolAddOn:
			k := slices.IndexFunc(s.Tools.AddOns, func(a AddOnRecord) bool { return a.Ref == d.Ref })
			if k < 0 || s.Tools.AddOns[k].Done || s.Tools.AddOns[k].Refused != "" {
				continue
			}
			a := &s.Tools.AddOns[k]
			if d.Refused != "" {
				a.Refused = d.Refused
				s.recomputePayouts() // the money goes back
				continue
			}
			a.Done, a.Chips = true, d.Chips
			s.Tools.AddOnsSold += a.Count
			s.Ledger.RebuyChips += d.Chips // add-on chips count with the rebuys'
		case ToolRemove:
			k := slices.IndexFunc(s.Tools.Withdrawn, func(w WithdrawalRecord) bool { return w.Ref == d.Ref })
			if k < 0 || s.Tools.Withdrawn[k].Done || s.Tools.Withdrawn[k].Refused != "" {
				continue
			}
			w := &s.Tools.Withdrawn[k]
			p := s.player(w.Player)
			if p == nil {
				// A section forgets a player once he is out (compact): he busted before his
				// table could take him off, and was placed.
				p = &PlayerRecord{}
			}
			p.Leaving = false
			if d.Refused != "" {
				// He busted or left before his table could take him off: he plays on (or is
				// placed), and the refund is undone.
				w.Refused = d.Refused
				s.Entries.Entries++
				s.recomputePayouts()
				continue
			}
			w.Done, w.Chips = true, d.Chips
			s.bountyWithdrawn(w.Player)
			p.Status, p.Stack, p.Table, p.Seat = Withdrawn, 0, 0, 0
			s.Field = slices.DeleteFunc(s.Field, func(id floor.PlayerID) bool { return string(id) == w.Player })
			// His chips leave play: a no-show's stack now is counted as removed (the blinds he
			// lost are in other stacks); an entry unregistered before any hand never bought any.
			if w.NoShow {
				s.Ledger.Disqualified += d.Chips
			} else {
				s.Ledger.Entries--
				s.Ledger.Disqualified += d.Chips - s.Ledger.StartingStack
			}
		}
	}
	s.bountiesOf(ev)
	s.recordBusts(tr, ev)
	s.sectionEntrants(ev)
}

// validateTools checks the spec's add-ons and no-show rule (R1, T4).
func (s TournamentSpec) validateTools() []error {
	var errs []error
	if s.AddOn != nil {
		if err := s.AddOn.Verify(); err != nil {
			errs = append(errs, err)
		}
		if _, err := floor.AddOnBreak(s.Structure, s.RebuyLevel); err != nil {
			errs = append(errs, err)
		}
	}
	if s.Bounty != nil {
		if err := s.Bounty.Verify(s.entries(max(len(s.Players), s.PlayerCount), 0, 0)); err != nil {
			errs = append(errs, err)
		}
		if s.Bounty.Split == floor.BountyChipsWon {
			errs = append(errs, &floor.RuleError{Rule: "R6", Reason: fmt.Sprintf("bounty split %q is not played: the tables report who won a busted player's last chips, not every chip won from him; use %q", floor.BountyChipsWon, floor.BountyLastChips)})
		}
	}
	if s.Sectioned() {
		for _, p := range s.Players {
			if strings.Contains(p, ReEntryMark) {
				errs = append(errs, errReEntryMark(p))
			}
		}
	}
	if s.NoShow != nil && s.NoShow.After < 0 {
		errs = append(errs, &floor.RuleError{Rule: "T4", Reason: fmt.Sprintf("a no-show after %v: expected a positive time", s.NoShow.After)})
	}
	return errs
}

// payoutsFor shares the pool of b: as satellite seats (SatellitePayout: equal seats and the cash
// remainder), or by the payout structure with the add-ons' money in (R6).
func (s *TournamentState) payoutsFor(b floor.BuyIns) (floor.Payouts, error) {
	return s.Spec.payoutsFor(b)
}

// payoutsFor shares the pool of b by the spec (see TournamentState.payoutsFor).
func (s TournamentSpec) payoutsFor(b floor.BuyIns) (floor.Payouts, error) {
	if sat := s.Satellite; sat != nil {
		sp, err := b.Satellite(*sat)
		if err != nil {
			return floor.Payouts{}, err
		}
		return floor.Payouts{Pool: sp.PoolCents + sp.OverlayCents, Prizes: sp.Prizes}, nil
	}
	if b.AddOns == 0 && b.Bounty.StartCents == 0 {
		return floor.ComputePayouts(b.Entries, s.Payouts)
	}
	return b.Payouts(s.Payouts)
}

// dealStacks are the players left and their stacks after the last hand, once the tables have
// stopped (verifyTablesStopped): what a deal is quoted on.
func (s *TournamentState) dealStacks() (DealQuote, error) {
	var q DealQuote
	if err := s.verifyTablesStopped(); err != nil {
		return q, err
	}
	for _, p := range s.Players {
		if p.Status == Seated || p.Status == Moving {
			q.Players = append(q.Players, p.ID)
			q.Stacks = append(q.Stacks, p.Stack)
		}
	}
	return q, nil
}

// QuoteFor quotes the deal both ways (ICM up to floor.MaxICMPlayers players, chip-chop) for the
// players and stacks of q, sharing the first of prizes (the prizes still to be won, first place
// first; one a player left).
func QuoteFor(q DealQuote, prizes []int64, terms floor.DealTerms) (DealQuote, error) {
	n := len(q.Players)
	if n < 2 || len(q.Stacks) != n {
		return q, errors.New("a deal needs two players left")
	}
	q.Prizes = make([]int64, n)
	copy(q.Prizes, prizes)
	var err1, err2 error
	if n <= floor.MaxICMPlayers {
		q.ICM, err1 = floor.ICMDeal(q.Stacks, q.Prizes, terms)
	} else {
		err1 = fmt.Errorf("ICM takes at most %d players, %d are left", floor.MaxICMPlayers, n)
	}
	q.ChipChop, err2 = floor.ChipChop(q.Stacks, q.Prizes, terms)
	if err1 != nil && err2 != nil {
		return q, errors.Join(err1, err2)
	}
	return q, nil
}

// dealAmounts are the amounts of q's deal by method, or why there is none.
func dealAmounts(q DealQuote, method string) ([]int64, error) {
	switch method {
	case "icm":
		if q.ICM == nil {
			return nil, fmt.Errorf("no ICM deal for %d players", len(q.Players))
		}
		return q.ICM, nil
	case "chip-chop":
		if q.ChipChop == nil {
			return nil, errors.New("no chip-chop deal")
		}
		return q.ChipChop, nil
	}
	return nil, fmt.Errorf("deal method %q: icm or chip-chop", method)
}
