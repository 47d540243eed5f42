package director

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// MoveRegistration seats a late entry.
const MoveRegistration floor.MoveReason = "registration"

// ClockRequest is a director's action on the clock (B3): pause, resume, or add time (negative to
// take time off) to the period running.
type ClockRequest struct {
	Kind   floor.ClockEventKind `json:"kind"`
	Add    time.Duration        `json:"add,omitempty"`
	By     string               `json:"by"`
	Reason string               `json:"reason,omitempty"`
	// Key is the idempotency key, the Update ID that carried the request (the workflow sets it; a
	// client that retries sends the same one): a request applied once is never applied again.
	Key string `json:"key,omitempty"`
}

// VerifyClock says why the clock action cannot be taken now, or returns nil.
func (s *TournamentState) VerifyClock(r ClockRequest) error {
	if s.applied(r.Key) {
		return nil // a retry: answered from the record
	}
	if s.Finished {
		return errors.New("the tournament is over")
	}
	if r.By == "" {
		return &floor.RuleError{Rule: "P6", Reason: "a clock action records who took it"}
	}
	switch r.Kind {
	case floor.ClockPause:
		if s.Paused {
			return &floor.RuleError{Rule: "B3", Reason: "the clock is paused already"}
		}
	case floor.ClockResume:
		if !s.Paused {
			return &floor.RuleError{Rule: "B3", Reason: "the clock is running"}
		}
	case floor.ClockAddTime:
		if s.Spec.Simulation {
			return &floor.RuleError{Rule: "B3", Reason: "a simulation's levels go by hands: there is no time to add"}
		}
		if r.Add == 0 {
			return &floor.RuleError{Rule: "B3", Reason: "add a non-zero time"}
		}
	default:
		return &floor.RuleError{Rule: "B3", Reason: fmt.Sprintf("unknown clock action %q: pause, resume or addTime", r.Kind)}
	}
	return nil
}

// Clock records the action at now and tells the tables (a pause or resume takes effect at each
// table when its hand ends).
func (s *TournamentState) Clock(r ClockRequest, now time.Time) {
	if s.applied(r.Key) {
		return
	}
	s.record(r.Key, "")
	s.ClockEvents = append(s.ClockEvents, floor.ClockEvent{At: now, Kind: r.Kind, Add: r.Add, By: r.By, Reason: r.Reason})
	switch r.Kind {
	case floor.ClockPause, floor.ClockResume:
		s.Paused = r.Kind == floor.ClockPause
		p := s.Paused
		for i := range s.Tables {
			t := &s.Tables[i]
			if t.Closed || t.Closing {
				continue
			}
			s.order(t.ID, Order{Pause: &p})
			t.PauseSeq = 0
			if p {
				t.PauseSeq = t.Sent // the table has stopped once it acknowledges this order
			}
		}
	}
	s.Tick(now)
}

// applied reports whether the director's action with idempotency key key was applied already.
func (s *TournamentState) applied(key string) bool {
	_, ok := s.Actions[key]
	return ok && key != ""
}

// record notes the action with key as applied, with its result (an entry's ID, a sanction's
// reference).
func (s *TournamentState) record(key, result string) {
	if key == "" {
		return
	}
	if s.Actions == nil {
		s.Actions = map[string]string{}
	}
	s.Actions[key] = result
}

// SanctionRequest is a sanction the director gives (P1, P6).
type SanctionRequest struct {
	Player string             `json:"player"`
	Kind   floor.SanctionKind `json:"kind"`
	Rounds int                `json:"rounds,omitempty"`
	Rule   string             `json:"rule,omitempty"`
	Reason string             `json:"reason"`
	By     string             `json:"by"`
	// Key is the idempotency key, the Update ID that carried the request (the workflow sets it; a
	// client that retries sends the same one): a request applied once is never applied again.
	Key string `json:"key,omitempty"`
}

func (s *TournamentState) sanctionHistory() []floor.Sanction {
	var h []floor.Sanction
	for _, r := range s.Sanctions {
		if !r.Void {
			h = append(h, r.Sanction)
		}
	}
	return h
}

// draftSanction is the record as the floor sees it now; the table fills in the facts of the hand
// when it applies it (P2, P4, P5).
func (s *TournamentState) draftSanction(r SanctionRequest, now time.Time) (floor.Sanction, error) {
	p := s.player(r.Player)
	if p == nil {
		return floor.Sanction{}, &floor.RuleError{Rule: "P6", Reason: fmt.Sprintf("no player %q in the tournament", r.Player)}
	}
	if p.Status == Out {
		return floor.Sanction{}, &floor.RuleError{Rule: "P1", Reason: fmt.Sprintf("%s is out of the tournament", r.Player)}
	}
	draft := floor.Sanction{Player: floor.PlayerID(r.Player), Penalty: floor.Penalty{Kind: r.Kind, Rounds: r.Rounds},
		Rule: r.Rule, Reason: r.Reason, GivenBy: r.By, At: now, Table: p.Table, PlayersAtTable: 2}
	if t := s.Table(p.Table); t != nil {
		draft.Hand = int(t.Hand)
		draft.PlayersAtTable = max(2, len(slices.DeleteFunc(slices.Clone(t.Seats), func(q string) bool { return q == "" })))
	}
	return floor.GiveSanction(draft, p.Stack, s.sanctionHistory())
}

// VerifySanction says which rule forbids the sanction, or returns nil.
func (s *TournamentState) VerifySanction(r SanctionRequest, now time.Time) error {
	if s.applied(r.Key) {
		return nil
	}
	if s.Finished {
		return errors.New("the tournament is over")
	}
	_, err := s.draftSanction(r, now)
	return err
}

// GiveSanction records the sanction and sends it to the player's table, where it starts with the
// next hand (P5). It returns the record's reference.
func (s *TournamentState) GiveSanction(r SanctionRequest, now time.Time) int {
	if ref, ok := s.Actions[r.Key]; ok && r.Key != "" {
		n, _ := strconv.Atoi(ref)
		return n
	}
	s.record(r.Key, strconv.Itoa(len(s.Sanctions)))
	draft, _ := s.draftSanction(r, now)
	s.Sanctions = append(s.Sanctions, SanctionRecord{Ref: len(s.Sanctions), Sanction: draft})
	s.sendSanctions()
	return len(s.Sanctions) - 1
}

// sendSanctions sends the sanctions not yet applied to the tables of their players, once seated.
func (s *TournamentState) sendSanctions() {
	for i := range s.Sanctions {
		rec := &s.Sanctions[i]
		if rec.Sent || rec.Applied || rec.Void {
			continue
		}
		p := s.player(string(rec.Sanction.Player))
		if p.Status == Out {
			rec.Void, rec.Error = true, "the player was out before the sanction could apply"
			continue
		}
		if p.Status != Seated || p.Leaving {
			continue
		}
		rec.Sent = true
		s.order(p.Table, Order{Sanction: &SanctionOrder{Ref: rec.Ref, Player: p.ID, Kind: rec.Sanction.Kind, Rounds: rec.Sanction.Rounds}})
	}
}

// sanctionApplied completes the record with the facts the table applied it on.
func (s *TournamentState) sanctionApplied(tr *TableRecord, a AppliedSanction) {
	if a.Ref < 0 || a.Ref >= len(s.Sanctions) {
		return
	}
	rec := &s.Sanctions[a.Ref]
	p := s.player(a.Player)
	if a.Missing {
		rec.Sent = false // moved or busted meanwhile: sendSanctions tries again, or voids it
		return
	}
	rec.Applied = true
	sc := rec.Sanction
	sc.Table, sc.Hand, sc.StartsAtHand, sc.PlayersAtTable = tr.ID, int(a.Hand), int(a.Hand)+1, a.PlayersAtTable
	sc.Hands, sc.Chips = a.Hands, a.Chips
	history := slices.DeleteFunc(s.sanctionHistory(), func(h floor.Sanction) bool { return h == rec.Sanction })
	if err := floor.VerifySanction(sc, history); err != nil {
		rec.Error = err.Error()
	}
	rec.Sanction = sc
	switch sc.Kind {
	case floor.Exclusion:
		p.Away = a.Hands
	case floor.Disqualification:
		// P4: his chips leave the tournament; he leaves it at once, placed as an elimination.
		p.Status, p.Stack, p.Leaving = Out, 0, false
		s.Ledger.Disqualified += a.Chips
		s.Busts = append(s.Busts, []floor.Elimination{{Player: floor.PlayerID(p.ID), Stack: a.Chips}})
	}
}

// RegisterRequest registers a player during late registration, or re-enters a busted one (R1
// policies).
type RegisterRequest struct {
	// Player is the new entry's ID; for a re-entry it may be left empty (entrant#2, #3...).
	Player string `json:"player,omitempty"`
	// ReEntryOf is the entrant re-entering, if this is a re-entry.
	ReEntryOf string `json:"reEntryOf,omitempty"`
	// Section, for a re-entry at several sections, is the section that holds the entrant's busted
	// entry (his record; the client finds it, Where.Entrant).
	Section int `json:"section,omitempty"`
	// Key is the idempotency key, the Update ID that carried the request (the workflow sets it; a
	// client that retries sends the same one): a request applied once is never applied again.
	Key string `json:"key,omitempty"`
}

func (s *TournamentState) registrationOpen(now time.Time) error {
	if s.Finished {
		return errors.New("the tournament is over")
	}
	if l := s.Level(now); l > s.Spec.LateRegistrationLevel {
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("registration closed after level %d; this is level %d", s.Spec.LateRegistrationLevel, l)}
	}
	return nil
}

func (s *TournamentState) entryID(r RegisterRequest) string {
	if r.Player != "" || r.ReEntryOf == "" {
		return r.Player
	}
	n := 0
	for _, p := range s.Players {
		if p.Entrant == r.ReEntryOf {
			n++
		}
	}
	return fmt.Sprintf("%s#%d", r.ReEntryOf, n+1)
}

// VerifyRegister says why the entry cannot be taken, or returns nil.
func (s *TournamentState) VerifyRegister(r RegisterRequest, now time.Time) error {
	if s.applied(r.Key) {
		return nil
	}
	if err := s.registrationOpen(now); err != nil {
		return err
	}
	id := s.entryID(r)
	if id == "" {
		return errors.New("an entry needs a player ID")
	}
	if s.player(id) != nil {
		return fmt.Errorf("%q is registered already", id)
	}
	if r.ReEntryOf == "" {
		return s.verifyPayoutsWith(1, 0, 0)
	}
	n := 0
	for _, p := range s.Players {
		if p.Entrant != r.ReEntryOf {
			continue
		}
		n++
		if p.Status != Out {
			return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s is still in with entry %s: only a busted player re-enters", r.ReEntryOf, p.ID)}
		}
	}
	if n == 0 {
		return fmt.Errorf("%q never entered: register instead", r.ReEntryOf)
	}
	if n > s.Spec.ReEntries {
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s has re-entered %d times, the limit is %d", r.ReEntryOf, n-1, s.Spec.ReEntries)}
	}
	return s.verifyPayoutsWith(0, 1, 0)
}

// verifyPayoutsWith says why the payout structure cannot pay the field with these more entries,
// re-entries and rebuys (R6), or returns nil: an entry the payouts cannot take is refused, never
// taken with the prize pool left as it was.
func (s *TournamentState) verifyPayoutsWith(entries, reEntries, rebuys int) error {
	if s.Section != nil {
		return nil // the tournament's to check: a late entry goes through it (TopState.VerifyRegister)
	}
	e := s.Entries
	e.Entries += entries
	e.ReEntries += reEntries
	e.Rebuys += rebuys
	if _, err := floor.ComputePayouts(e, s.Spec.Payouts); err != nil {
		return fmt.Errorf("the payouts cannot take it (tell the director to change the payout structure): %w", err)
	}
	return nil
}

// recomputePayouts shares the pool again after the entries changed; a failure (which the
// validators prevent) is recorded for the director, never ignored.
func (s *TournamentState) recomputePayouts() {
	if s.Section != nil {
		return // the tournament's: it hears of the section's money in its next event
	}
	if err := s.computePayouts(); err != nil {
		s.ChipErrors = append(s.ChipErrors, "payouts: "+err.Error())
	}
}

// Register takes the entry, grows the prize pool, and seats the player (R1, R6).
func (s *TournamentState) Register(r RegisterRequest) string {
	if id, ok := s.Actions[r.Key]; ok && r.Key != "" {
		return id
	}
	id := s.entryID(r)
	entrant := id
	if r.ReEntryOf != "" {
		entrant = r.ReEntryOf
	}
	s.record(r.Key, id)
	p := s.addPlayer(id, entrant)
	s.recomputePayouts()
	s.placeAnywhere(p, MoveRegistration)
	return id
}

// RebuyRequest buys chips for a player still in (R1 policy, 003 r18).
type RebuyRequest struct {
	Player string `json:"player"`
	// Key is the idempotency key, the Update ID that carried the request (the workflow sets it; a
	// client that retries sends the same one): a request applied once is never applied again.
	Key string `json:"key,omitempty"`
}

// VerifyRebuy says why the rebuy is refused, or returns nil.
func (s *TournamentState) VerifyRebuy(r RebuyRequest, now time.Time) error {
	if s.applied(r.Key) {
		return nil
	}
	if s.Finished {
		return errors.New("the tournament is over")
	}
	p := s.player(r.Player)
	switch {
	case p == nil:
		return fmt.Errorf("no player %q", r.Player)
	case p.Status == Out:
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s is out: a busted player re-enters, he does not rebuy", r.Player)}
	case p.Status != Seated || p.Leaving:
		return fmt.Errorf("%s is changing tables: try again when seated", r.Player)
	case p.Rebuys >= s.Spec.Rebuys:
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s has made %d rebuys, the limit is %d", r.Player, p.Rebuys, s.Spec.Rebuys)}
	case s.Level(now) > s.Spec.RebuyLevel:
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("rebuys closed after level %d", s.Spec.RebuyLevel)}
	}
	// The stack limit (at or below the starting stack) is the table's to check, on the stack after
	// its last hand: the tournament's count may be many hands old.
	return s.verifyPayoutsWith(0, 0, 1)
}

// RebuyRecord is a rebuy the director took: Done once the table put the chips in front of the
// player, or refused them (Refused says why; the rebuy is refunded).
type RebuyRecord struct {
	Ref     int    `json:"ref"`
	Player  string `json:"player"`
	Chips   int64  `json:"chips,omitempty"`
	Done    bool   `json:"done,omitempty"`
	Refused string `json:"refused,omitempty"`
}

// Rebuy takes the money and puts the chips in front of the player when the hand ends (R1, 003
// r18), if his stack then is at most the starting stack; the ledger counts them when the table
// has. It returns the record's reference in RebuyLog.
func (s *TournamentState) Rebuy(r RebuyRequest) int {
	if ref, ok := s.Actions[r.Key]; ok && r.Key != "" {
		n, _ := strconv.Atoi(ref)
		return n
	}
	ref := len(s.RebuyLog)
	s.record(r.Key, strconv.Itoa(ref))
	p := s.player(r.Player)
	p.Rebuys++
	s.Entries.Rebuys++
	s.recomputePayouts()
	s.RebuyLog = append(s.RebuyLog, RebuyRecord{Ref: ref, Player: p.ID})
	s.order(p.Table, Order{Rebuy: &RebuyOrder{Ref: ref, Player: p.ID, Chips: s.Spec.RebuyChips, MaxStack: s.Spec.Structure.StartingStack}})
	return ref
}

// rebuyDone takes the table's answer to a rebuy: the chips are in play, or the rebuy is refunded.
func (s *TournamentState) rebuyDone(r RebuyOrder) {
	var rec *RebuyRecord
	if r.Ref >= 0 && r.Ref < len(s.RebuyLog) {
		rec = &s.RebuyLog[r.Ref]
	}
	if rec == nil || rec.Done {
		return
	}
	rec.Done, rec.Chips, rec.Refused = true, r.Chips, r.Refused
	if r.Chips > 0 {
		s.Ledger.RebuyChips += r.Chips
		return
	}
	// The money goes back, also when his record is no longer here (a section forgets a player
	// who left for another section).
	if p := s.player(r.Player); p != nil {
		p.Rebuys--
	}
	s.Entries.Rebuys--
	s.recomputePayouts()
}

// DealRequest is a deal the players left agreed and the director approves.
type DealRequest struct {
	// Method is "icm" (Malmuth-Harville) or "chip-chop".
	Method     string          `json:"method"`
	Terms      floor.DealTerms `json:"terms,omitempty"`
	ApprovedBy string          `json:"approvedBy"`
	// Key is the idempotency key, the Update ID that carried the request (the workflow sets it; a
	// client that retries sends the same one): a request applied once is never applied again.
	Key string `json:"key,omitempty"`
}

// DealQuote is what a deal would pay each player left, both ways, for the players to agree on.
type DealQuote struct {
	Players  []string `json:"players"`
	Stacks   []int64  `json:"stacks"`
	Prizes   []int64  `json:"prizes"` // the prizes still to be won, first place first
	ICM      []int64  `json:"icm,omitempty"`
	ChipChop []int64  `json:"chipChop,omitempty"`
	// Section, from a tournament of several sections, is the section that holds every player
	// left: their stacks are quoted there (QuoteFor with these Prizes; workflows.Tournament does).
	Section string `json:"section,omitempty"`
}

// Quote works out a deal for the players left at their stacks after the last hand.
// The tables must have stopped (the clock paused, each table's pause applied after its hand), so
// that the stacks are those after the last hand and stay so while the deal is discussed. A
// section quotes the players and stacks only: the prizes are its tournament's (QuoteFor).
func (s *TournamentState) Quote(terms floor.DealTerms) (DealQuote, error) {
	q, err := s.dealStacks()
	if err != nil || s.Section != nil {
		return q, err
	}
	return QuoteFor(q, s.Payouts.Prizes, terms)
}

// verifyTablesStopped says why the stacks may still change, or returns nil: the clock is paused
// and every open table has applied the pause (its news after that carries its stacks after its
// last hand).
func (s *TournamentState) verifyTablesStopped() error {
	if !s.Paused {
		return &floor.RuleError{Rule: "P6", Reason: "a deal is discussed on a paused clock: pause it first, the tables stop after their hand"}
	}
	for _, t := range s.Tables {
		if !t.Closed && !t.Closing && t.Acked < t.PauseSeq {
			return &floor.RuleError{Rule: "P6", Reason: fmt.Sprintf("table %d has not stopped yet: ask again when its hand ends", t.ID)}
		}
	}
	return nil
}

// VerifyDeal says why the deal cannot be made, or returns nil.
func (s *TournamentState) VerifyDeal(r DealRequest) error {
	if s.applied(r.Key) {
		return nil
	}
	if s.Finished {
		return errors.New("the tournament is over")
	}
	if s.Deal != nil {
		return &floor.RuleError{Rule: "P6", Reason: "a deal was made already"}
	}
	if r.ApprovedBy == "" {
		return &floor.RuleError{Rule: "P6", Reason: "a deal records the director who approved it"}
	}
	q, err := s.Quote(r.Terms)
	if err != nil {
		return err
	}
	switch r.Method {
	case "icm":
		if q.ICM == nil {
			return fmt.Errorf("no ICM deal for %d players", len(q.Players))
		}
	case "chip-chop":
		if q.ChipChop == nil {
			return errors.New("no chip-chop deal")
		}
	default:
		return fmt.Errorf("deal method %q: icm or chip-chop", r.Method)
	}
	return nil
}

// MakeDeal records the deal: these prizes are the players', play goes on for the places and the
// reserve (to the winner).
func (s *TournamentState) MakeDeal(r DealRequest, now time.Time) DealRecord {
	if s.applied(r.Key) && s.Deal != nil {
		return *s.Deal
	}
	s.record(r.Key, "")
	q, _ := s.Quote(r.Terms)
	amounts := q.ICM
	if r.Method == "chip-chop" {
		amounts = q.ChipChop
	}
	s.Deal = &DealRecord{Method: r.Method, Players: q.Players, Stacks: q.Stacks, Amounts: amounts, Terms: r.Terms, ApprovedBy: r.ApprovedBy, At: now}
	return *s.Deal
}
