package director

import (
	"fmt"
	"slices"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// A field of more than SectionTables tables is split into sections: each a SectionWorkflow with
// a TournamentState of its own tables and players (the section role below), between the
// tournament (a TopState: counts, the clock, the payouts, the places) and the tables. No workflow
// then holds more than a section's players, starts more than a section's tables, or signals more
// than a section's tables (or the tournament's sections) from one task; the tournament's
// continue-as-new input does not grow with the field.

// DefaultSectionTables is the most tables a section starts with. A section's state is about
// 1.3 KB a table (nine player records and the table's), so 100 tables is about 130 KB, half the
// 256 KB a continue-as-new input is allowed here; 100,000 entries make 112 sections.
const DefaultSectionTables = 100

// SectionWorkflowID names section n's workflow.
func SectionWorkflowID(tournament string, n int) string {
	return fmt.Sprintf("%s/section-%03d", tournament, n)
}

// SectionOrder is one instruction from the tournament to a section, applied in sequence (a Link).
// Exactly one field is set.
type SectionOrder struct {
	// Level sets the blinds at every table of the section from its next hand (B3).
	Level *LevelOrder `json:"level,omitempty"`
	// Period is the index in the clock's structure of Level's period.
	Period int `json:"period,omitempty"`
	// Pause stops (true) or restarts the section's tables when their hand ends.
	Pause *bool `json:"pause,omitempty"`
	// Arrivals are players moved in from another section: the section seats them (R3, B7).
	Arrivals []Transfer `json:"arrivals,omitempty"`
	// Entries are late entries the tournament took: the section seats them (R1) and answers.
	Entries []EntryOrder `json:"entries,omitempty"`
	// SendOut moves players to another section (R3, R4 for the whole field: floor.PlanSections).
	SendOut *SendOutOrder `json:"sendOut,omitempty"`
	// HandForHand opens round Round at every table of the section (R7); Round 0 ends it.
	HandForHand *SectionRound `json:"handForHand,omitempty"`
	// Approach: the bubble nears, the tables tell every hand (a simulation).
	Approach *bool `json:"approach,omitempty"`
	// Near: the approach is within three times the rounds' margin of them (bubble.near): the tables
	// report every hand again (a simulation, from PlanNear).
	Near *bool `json:"near,omitempty"`
	// Close ends the section: every table closes.
	Close bool `json:"close,omitempty"`
	// Deal is a deal of the players left, all in this section (section_money.go).
	Deal *DealOrder `json:"deal,omitempty"`
	// HandOn are the entries a section that emptied knew of (HandOn): this one keeps them.
	HandOn *HandOn `json:"handOn,omitempty"`
	// Horizon, in a seeded simulation's sections (from PlanBarriers), lets the section's tables
	// deal up to that hand: the tournament's decisions at the barrier before it are made (see
	// TopState.stepBarriers).
	Horizon *int64 `json:"horizon,omitempty"`
}

// SendOutOrder asks a section to move Players of its players to section To: each the next big
// blind at the section's fullest table (R3).
type SendOutOrder struct {
	To      int `json:"to"`
	Players int `json:"players"`
	// Beside: the players go at once, beside the section's own moves under way (a tournament
	// from PlanBeside sends it so); without it the section sends them once its moves are done.
	Beside bool `json:"beside,omitempty"`
}

// SectionRound is one hand-for-hand round ordered to a section (R7).
type SectionRound struct {
	Round   int  `json:"round"`
	Grouped bool `json:"grouped,omitempty"` // its eliminations are one group for the places
	Skip    bool `json:"skip,omitempty"`    // a barrier: no table deals
}

// Transfer is a player on his way from one section to another: his record goes with him.
type Transfer struct {
	Player  string `json:"player"`
	Entrant string `json:"entrant,omitempty"`
	Stack   int64  `json:"stack"`
	Away    int    `json:"away,omitempty"`
	Rebuys  int    `json:"rebuys,omitempty"`
	// BountyCents is the bounty on his head (a PKO event): it goes with him.
	BountyCents int64 `json:"bountyCents,omitempty"`
	From        int   `json:"from"`
	To          int   `json:"to"`
	// Seq, at the tournament, is the sequence number of the order that carries him to To: he is
	// in To's count once To has applied it.
	Seq int `json:"seq,omitempty"`
}

// SectionEvent is what a section tells the tournament: its counts as they stand, and the news
// since its last event.
type SectionEvent struct {
	Section int `json:"section"`
	// Acked is the sequence number of the last order the section applied.
	Acked   int   `json:"acked"`
	Players int   `json:"players"` // seated at its tables or moving between them
	Tables  int   `json:"tables"`  // open
	Chips   int64 `json:"chips"`   // at its tables and in the hands of its moving players
	// Settled: no move inside the section is under way and it owes no player to another.
	Settled bool `json:"settled,omitempty"`
	// Owing counts the players the section still owes to other sections: ordered out (SendOut)
	// and not yet gone. Its Players count is its own for the tournament's orders once it is 0,
	// whatever moves between its own tables are under way (TopState.plannable).
	Owing int `json:"owing,omitempty"`
	// Breaking counts the open tables the section is breaking (R4): their players are moving to
	// its other tables, whose seats are the ones it has for arrivals.
	Breaking    int   `json:"breaking,omitempty"`
	MedianHands int64 `json:"medianHands"`
	HandsPlayed int64 `json:"handsPlayed"`
	// Busts are the elimination groups since the last event, in order (R5, R7).
	Busts [][]floor.Elimination `json:"busts,omitempty"`
	// Out are the players who left for another section.
	Out []Transfer `json:"out,omitempty"`
	// RoundDone is the last hand-for-hand round every table of the section has dealt; Group the
	// eliminations of that round, one group (R7).
	RoundDone int                 `json:"roundDone,omitempty"`
	Group     []floor.Elimination `json:"group,omitempty"`
	// Last is the one player left in the section, when there is one.
	Last       string   `json:"last,omitempty"`
	ChipErrors []string `json:"chipErrors,omitempty"`
	Closed     bool     `json:"closed,omitempty"`
	// Money is what the section's players paid and the chips that came into or left play there
	// since the last event (rebuys, add-ons, withdrawals, disqualifications, colour-ups, entries).
	Money SectionMoney `json:"money,omitzero"`
	// Entered answers the late entries the section was sent since the last event.
	Entered []EntryDone `json:"entered,omitempty"`
	// Withdrawing counts the withdrawals its tables have not yet made: the field is not final.
	Withdrawing int `json:"withdrawing,omitempty"`
	// AddOnsPending counts the add-ons its tables have not yet answered: a refusal gives the money back.
	AddOnsPending int `json:"addOnsPending,omitempty"`
	// RebuysPending counts the rebuys its tables have not yet answered (from PaceRebuys): a table
	// refuses one over the stack limit, and the money goes back.
	RebuysPending int `json:"rebuysPending,omitempty"`
	// HandOn goes once, from PaceHandOn, when the section has no player left while late
	// registration is open: its busted entries and the entries it knew were elsewhere, for the
	// tournament to hand on to the sections left (a re-entry of one who busted here, a second
	// entry of one of those IDs, is then theirs to take or refuse).
	HandOn *HandOn `json:"handOn,omitempty"`
	// Deal answers the tournament's deal.
	Deal *DealDone `json:"deal,omitempty"`
	// Barrier, in a seeded simulation's sections, is the last horizon every table of the section
	// has dealt up to and stopped at, its own moves made; Unplaced the eliminations since the last
	// event, for the tournament to place in the order of their hands across every section.
	Barrier  int64        `json:"barrier,omitempty"`
	Unplaced []TableBusts `json:"unplaced,omitempty"`
}

// SectionRole is what a section's TournamentState holds beyond a tournament's: its place in the
// tournament, the orders coming down and the events going up.
type SectionRole struct {
	Number int    `json:"number"`
	Parent string `json:"parent"` // the TournamentWorkflow's ID
	// Orders takes the tournament's orders in sequence; Events sends the section's events up.
	Orders Inbox[SectionOrder] `json:"orders"`
	Events Link[SectionEvent]  `json:"events"`
	// Owed are the players still to send to other sections (a count a destination); Sending the
	// moves ordered, by reference, with the floor's guess of who goes (the table moves its next
	// big blind, R3).
	Owed    []SendOutOrder `json:"owed,omitempty"`
	Sending []Arrival      `json:"sending,omitempty"`
	// OutBeside: the tournament's SendOut orders go at once, beside the section's own moves
	// (SendOutOrder.Beside).
	OutBeside bool `json:"outBeside,omitempty"`
	// Out are the players gone to other sections since the last event; RoundDone and Group the
	// hand-for-hand round finished since it.
	Out       []Transfer          `json:"out,omitempty"`
	RoundDone int                 `json:"roundDone,omitempty"`
	Group     []floor.Elimination `json:"group,omitempty"`
	// Transferred is the chips that came in with arrivals less those that left with transfers.
	Transferred int64 `json:"transferred,omitempty"`
	// ClosedHands are the hands dealt at the tables the section closed and forgot.
	ClosedHands int64 `json:"closedHands,omitempty"`
	// NextTable numbers the tables the section opens itself (late arrivals at full tables).
	NextTable floor.TableID `json:"nextTable"`
	// Sent is the last event's counts: an event goes when they change or there is news.
	Sent       SectionEvent `json:"sent"`
	ErrorsSent int          `json:"errorsSent,omitempty"`
	// Reported is the section's money as of its last event; Entered the late entries answered
	// since.
	Reported SectionMoney `json:"reported,omitzero"`
	Entered  []EntryDone  `json:"entered,omitempty"`
	Closing  bool         `json:"closing,omitempty"`
	// Ended: the section's workflow is ending (its tables closed, or the wait for them over).
	Ended bool `json:"ended,omitempty"`
	// From PaceSectionQuiet (link.go, "A section's quiet"): Run numbers the section's runs from 1
	// (ResumeSection counts each run after the first), and every report names it; Hold is where
	// the run is in asking its tournament to hold its orders while it continues as new; FirstReport
	// says the run continued one and its first report, which ends the hold, has not been taken yet.
	Run         int      `json:"run,omitempty"`
	Hold        HoldStep `json:"hold,omitempty"`
	FirstReport bool     `json:"firstReport,omitempty"`
	// Lockstep: the section of a seeded simulation, which keeps the tournament's barriers
	// (TopState.stepBarriers): its tables deal up to the tournament's horizon and no further, and
	// it decides on its own tables only when the tournament moves the horizon on (Go). Reached is
	// the last horizon the section stopped at.
	Lockstep bool  `json:"lockstep,omitempty"`
	Go       int64 `json:"go,omitempty"`
	Reached  int64 `json:"reached,omitempty"`
}

// NewSectionState is section number of tournament parent: the tables the tournament's draw gave it
// (T2, T3), their players at the starting stack.
// spec is the tournament's, its defaults filled in (NewTopState's).
func NewSectionState(parent string, number int, spec TournamentSpec, tables []floor.Table, seed uint64, now time.Time) (*TournamentState, error) {
	spec.Players = nil
	id := SectionWorkflowID(parent, number)
	s := &TournamentState{ID: id, Spec: spec, Seed: mix(seed, 1<<43+uint64(number)), Started: now, Period: -1, Pace: PaceLatest}
	s.Spec.ContinueAsNewAfter = spec.SectionContinueAsNewAfter
	s.Section = &SectionRole{Number: number, Parent: parent, NextTable: floor.TableID(number+1) * 1_000_000, Run: 1}
	s.Ledger = floor.ChipLedger{StartingStack: spec.Structure.StartingStack}
	s.Entries = spec.entries(0, 0, 0) // the buy-in, for refunds (the pool is the tournament's)
	for _, ft := range tables {
		for _, p := range ft.Seats {
			if p != "" {
				s.addPlayer(string(p), string(p))
			}
		}
		s.addTable(ft)
	}
	s.Field = nil
	s.Section.Reported = s.money() // the draw's entries: the tournament counted them
	return s, nil
}

// OnOrders takes the tournament's orders in, each once and in sequence, and applies those that are
// next.
func (s *TournamentState) OnOrders(msgs []Numbered[SectionOrder]) {
	sec := s.Section
	for _, o := range sec.Orders.Add(msgs...) {
		s.applySectionOrder(o)
	}
}

func (s *TournamentState) applySectionOrder(o SectionOrder) {
	sec := s.Section
	h := &s.HandForHand
	switch {
	case o.Horizon != nil:
		sec.Go = max(sec.Go, *o.Horizon)
	case o.HandOn != nil:
		s.takeHandOn(*o.HandOn)
	case o.Level != nil:
		s.Period = o.Period
		s.OnBreak = o.Level.OnBreak
		if !s.Spec.Simulation || s.Pace < PaceSectionLevels {
			s.broadcast(Order{Level: o.Level})
		}
	case o.Pause != nil:
		s.Paused = *o.Pause
		p := s.Paused
		s.broadcast(Order{Pause: &p})
		s.pauseSent()
	case len(o.Arrivals) > 0:
		for _, tr := range o.Arrivals {
			if p := s.player(tr.Player); p != nil && p.Status != Out {
				continue // a repeat (the Inbox drops them; this guards the ledger)
			}
			s.compact() // a player who left and comes back has no stale record
			p := s.addPlayer(tr.Player, orElse(tr.Entrant, tr.Player))
			// An arrival is not an entry (the tournament counted him where he entered): his chips
			// count as transferred.
			s.Ledger.Entries--
			if p.ID == p.Entrant {
				s.Entries.Entries--
			} else {
				s.Entries.ReEntries--
			}
			p.Status, p.Stack, p.Away, p.Rebuys = Moving, tr.Stack, tr.Away, tr.Rebuys
			s.bountyArrived(p.ID, tr.BountyCents)
			sec.Transferred += tr.Stack
			s.placeAnywhere(p, floor.MoveBalance)
		}
		s.Field = nil
	case len(o.Entries) > 0:
		for _, e := range o.Entries {
			sec.Entered = append(sec.Entered, s.enter(e))
		}
	case o.SendOut != nil:
		sec.Owed = append(sec.Owed, *o.SendOut)
		sec.OutBeside = sec.OutBeside || o.SendOut.Beside
	case o.HandForHand != nil && sec.Lockstep:
		// Taken up when the horizon moves, after the section's own plan at the barrier, whenever
		// the order comes (stepLockstep).
		h.Waiting = o.HandForHand
	case o.HandForHand != nil:
		r := *o.HandForHand
		if r.Round == 0 {
			s.endRounds()
			return
		}
		h.On = true
		if s.Pace >= PaceRoundAfterMoves && !r.Skip && s.MovesPending() {
			h.Waiting = &r // opened once the section's own moves are made (openWaitingRound)
			return
		}
		s.startRound(r)
	case o.Approach != nil:
		h.Approach = *o.Approach
	case o.Near != nil:
		s.setNear(*o.Near)
	case o.Close:
		sec.Closing = true
	case o.Deal != nil:
		s.dealOrdered(*o.Deal)
	}
}

// openWaitingRound opens the hand-for-hand round the tournament ordered while the section's own
// moves were under way (HandForHandState.Waiting), once they are made: every player moved between
// two rounds is seated before the next round's hand (R7), and the tournament orders the round
// once the field between its sections is planned, not once every section has told it its moves
// are made, a report's round trip less each round (PaceRoundAfterMoves).
func (s *TournamentState) openWaitingRound() {
	h := &s.HandForHand
	if h.Waiting == nil || h.Open || s.MovesPending() {
		return
	}
	r := *h.Waiting
	h.Waiting = nil
	s.startRound(r)
}

// startRound opens the tournament's hand-for-hand round r at the section's tables (R7).
func (s *TournamentState) startRound(r SectionRound) {
	h := &s.HandForHand
	h.On, h.Round = true, r.Round-1 // openRound counts it
	s.openRound(r.Grouped, r.Skip)
}

// endRounds ends hand-for-hand at the section's tables: the tournament's round 0.
func (s *TournamentState) endRounds() {
	h := &s.HandForHand
	h.On, h.Open, h.Group, h.Participants, h.Waiting = false, false, nil, nil, nil
	s.broadcast(Order{HandForHand: &HandForHandOrder{Round: 0}})
}

// orElse is a, or b when a is empty.
func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sendOut orders the moves to other sections still owed: each time the next big blind at the
// fullest table (R3), to be seated by the section he goes to.
func (s *TournamentState) sendOut() {
	sec := s.Section
	for len(sec.Owed) > 0 {
		o := &sec.Owed[0]
		if o.Players <= 0 {
			sec.Owed = sec.Owed[1:]
			continue
		}
		var best *TableRecord
		var bestView floor.Table
		for i := range s.Tables {
			t := &s.Tables[i]
			if t.Closed || t.Closing {
				continue
			}
			if ft := s.view(t); ft.Players() > 0 && (best == nil || ft.Players() > bestView.Players()) {
				best, bestView = t, ft
			}
		}
		if best == nil {
			sec.Owed = nil // nobody left to send
			return
		}
		seat := floor.NextBigBlindSeat(bestView)
		player := string(bestView.PlayerAt(seat))
		p := s.player(player)
		if seat <= 0 || p == nil || p.Leaving || sec.OutBeside && p.Status != Seated {
			// No next big blind named yet, or (sending beside the section's own moves) he is a
			// player on his way to the table, who would stay marked leaving once seated: anyone
			// seated there goes.
			p = nil
			for _, q := range bestView.Seats {
				if pr := s.player(string(q)); q != "" && pr != nil && !pr.Leaving && pr.Status == Seated {
					p = pr
					break
				}
			}
			if p == nil {
				return // only arrivals there: wait for them
			}
		}
		p.Leaving = true
		s.MoveRefs++
		o.Players--
		sec.Sending = append(sec.Sending, Arrival{Ref: s.MoveRefs, Player: p.ID})
		s.order(best.ID, Order{MoveOut: &MoveOutOrder{Ref: s.MoveRefs, Player: p.ID, NextBigBlind: p.ID == player, Section: o.To, Reason: floor.MoveBalance}})
	}
	sec.Owed = nil
}

// transferOut takes the record of a player who left for another section off the books.
func (s *TournamentState) transferOut(m MovedOut) {
	sec := s.Section
	s.sent(m.Ref, m.Player)
	p := s.player(m.Player)
	if p == nil {
		return
	}
	sec.Out = append(sec.Out, Transfer{Player: p.ID, Entrant: p.Entrant, Stack: m.Stack, Away: m.Away, Rebuys: p.Rebuys, From: sec.Number, To: m.Section,
		BountyCents: s.bountyLeft(p.ID)})
	sec.Transferred -= m.Stack
	p.Status, p.Stack, p.Leaving, p.Table, p.Seat = Out, 0, false, 0, 0 // gone: compact forgets him
}

// sent closes the move ref: the player the floor guessed would go, if another went, stays.
func (s *TournamentState) sent(ref int, player string) {
	sec := s.Section
	k := slices.IndexFunc(sec.Sending, func(a Arrival) bool { return a.Ref == ref })
	if k < 0 {
		return
	}
	if guess := sec.Sending[k].Player; guess != player {
		s.stays(guess)
	}
	sec.Sending = slices.Delete(sec.Sending, k, k+1)
	if len(sec.Sending) == 0 {
		sec.Sending = nil
	}
}

// stepSection is a section's part of Step: the round it finished, its moves to other sections,
// and the records it no longer needs (out players, closed tables), so that its state stays the
// size of its tables.
func (s *TournamentState) stepSection(now time.Time) {
	sec := s.Section
	h := &s.HandForHand
	if sec.Closing && !s.Finished {
		s.Finish(now)
	}
	if h.Open && s.roundDone() {
		sec.RoundDone, sec.Group = h.Round, append(sec.Group, h.Group...)
		h.Open, h.Group, h.Participants = false, nil, nil
	}
	if !s.Finished {
		s.removeDueNoShows(now)
		s.watchTables(now)
		s.closeEmptyTables()
		s.noteMoving(now)
		if sec.Lockstep {
			s.stepLockstep()
			s.compact()
			return
		}
		if !h.Open && sec.OutBeside && len(sec.Owed) > 0 {
			// The tournament waits for these players before it plans the field again; the
			// section's own moves do not change who can go.
			s.sendOut()
		}
		if !h.Open && (!s.MovesPending() || s.planWhileMoving(now)) {
			if len(sec.Owed) > 0 {
				s.sendOut()
			} else {
				s.plan()
			}
		}
		s.openWaitingRound()
		s.hold(now)
		s.grantCredit()
	}
	s.compact()
}

// stepLockstep is the step of a section that keeps the tournament's barriers: stopped at the
// horizon, it sends out the players the tournament asks for and seats those it sends in; told the
// next horizon (Go), once every move is made, it balances and breaks its own tables as the floor
// does at a barrier (plan), lets its tables deal on to the new horizon, and opens the
// hand-for-hand round the tournament ordered, if any. It tells the tournament it has reached the
// horizon (Reached) once every table has dealt up to it, or cannot deal, and nothing is moving.
// Every decision is made on tables stopped at the same hand, so that the section plays the same
// whatever the order its tables' news and the tournament's orders arrive in.
func (s *TournamentState) stepLockstep() {
	sec := s.Section
	h := &s.HandForHand
	if !h.Open && len(sec.Owed) > 0 {
		s.sendOut()
	}
	if sec.Go > s.Horizon && !h.Open && len(sec.Owed) == 0 && !s.MovesPending() {
		s.plan()
		s.Horizon = sec.Go
		if r := h.Waiting; r != nil && (r.Skip || r.Round == 0) {
			// The barrier that starts hand-for-hand, or the end of it (the tournament orders
			// either before the horizon): they go to the tables with the plan's moves and the new
			// credit, so that no table deals on before it has them, moves or not.
			h.Waiting = nil
			if r.Round == 0 {
				s.endRounds()
			} else {
				s.startRound(*r)
			}
		}
	}
	if sec.Go <= s.Horizon {
		s.openWaitingRound()
	}
	if sec.Reached < s.Horizon {
		// Between two barriers: credit up to the horizon for every table but those whose
		// arrivals are still to come. At a barrier none, until the horizon moves.
		s.grantHorizon(0)
	}
	if sec.Go <= s.Horizon && h.Waiting == nil && !h.Open && !s.MovesPending() && s.atBarrier() {
		if sec.Reached != s.Horizon {
			s.stopAtBarrier()
		}
		sec.Reached = s.Horizon
	}
}

// stopAtBarrier takes back, as the section reaches a barrier, the credit a table has beyond the
// hand it stopped at: a table short of players stops below the horizon, and one a hand-for-hand
// round deals one hand whatever its credit; either would deal on at once when a player sits down
// there (the tournament's arrivals, seated as they come, or the plan's, the rounds over), at a
// moment the scheduling decides. Each deals on only with the next horizon (grantHorizon).
func (s *TournamentState) stopAtBarrier() {
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || !t.Started || t.Hand == 0 || t.Credit <= t.Hand {
			continue
		}
		t.Credit = t.Hand
		credit := t.Hand
		s.order(t.ID, Order{Credit: &credit})
	}
}

// compact forgets the players who are out (their places are the tournament's) and the tables
// closed and taken down.
func (s *TournamentState) compact() {
	n := len(s.Players)
	s.Players = slices.DeleteFunc(s.Players, func(p PlayerRecord) bool { return p.Status == Out })
	if len(s.Players) != n {
		s.reindex()
	}
	s.Tables = slices.DeleteFunc(s.Tables, func(t TableRecord) bool {
		if t.Closed && !slices.Contains(s.Deleting, t.ID) {
			s.Section.ClosedHands += t.Hands
			return true
		}
		return false
	})
}

// SectionReport is the event for the tournament, if there is news or a count changed (ok).
func (s *TournamentState) SectionReport() (SectionEvent, bool) {
	sec := s.Section
	ev := SectionEvent{Section: sec.Number, Acked: sec.Orders.Last, Players: s.Left(), Tables: s.OpenTables(), Chips: s.chipsInPlay(),
		Settled: !s.MovesPending() && len(sec.Owed) == 0, Owing: sec.owing(), Breaking: s.breaking(), MedianHands: s.medianHands(), HandsPlayed: s.HandsPlayed(),
		Busts: s.Busts, Out: sec.Out, RoundDone: sec.RoundDone, Group: sec.Group, Money: s.money().minus(sec.Reported), Entered: sec.Entered, Withdrawing: s.withdrawing(),
		AddOnsPending: s.addOnsPending(),
		Deal:          s.Tools.DealDone, Barrier: sec.Reached}
	if s.Pace >= PaceRebuys {
		ev.RebuysPending = s.rebuysPending()
	}
	if s.Pace >= PaceHandOn && s.Left() == 0 && s.lateRegistration() && (len(s.Tools.Busted) > 0 || len(s.Tools.Elsewhere) > 0) {
		ev.HandOn = &HandOn{Busted: s.Tools.Busted, Elsewhere: s.Tools.Elsewhere}
	}
	if ev.Players == 1 {
		for _, p := range s.Players {
			if p.Status == Seated || p.Status == Moving {
				ev.Last = p.ID
			}
		}
	}
	if len(s.ChipErrors) > sec.ErrorsSent {
		ev.ChipErrors = slices.Clone(s.ChipErrors[sec.ErrorsSent:])
	}
	ev.Closed = s.Finished && (s.allTablesClosed() || sec.Ended)
	last := sec.Sent
	news := len(ev.Busts) > 0 || len(ev.Out) > 0 || ev.RoundDone > last.RoundDone || len(ev.ChipErrors) > 0 || ev.Closed && !last.Closed ||
		!ev.Money.IsZero() || len(ev.Entered) > 0 || ev.Deal != nil || ev.HandOn != nil
	changed := ev.Barrier != last.Barrier || ev.Acked != last.Acked || ev.Withdrawing != last.Withdrawing || ev.AddOnsPending != last.AddOnsPending || ev.RebuysPending != last.RebuysPending ||
		ev.MedianHands >= last.MedianHands+int64(max(s.Spec.Batch, 1))
	if !sec.Lockstep {
		news = news || len(s.Unplaced) > 0
		changed = changed || ev.Players != last.Players || ev.Tables != last.Tables || ev.Chips != last.Chips || ev.Settled != last.Settled || ev.Last != last.Last
	}
	// In lockstep the tournament decides only once every section has reached the barrier: the
	// eliminations and the counts go with the event that says so (or with one that has news),
	// not one an elimination, which at 100,000 entries passed the server's 2,000 Updates in one
	// of the tournament's runs before its first barrier (it cannot continue as new with the
	// eliminations of thousands of tables unplaced).
	if !news && !changed {
		return SectionEvent{}, false
	}
	if !news && !ev.Settled && ev.Barrier == last.Barrier && ev.Acked == last.Acked && ev.Players == last.Players && ev.Tables == last.Tables && ev.Last == last.Last && ev.Closed == last.Closed &&
		ev.Owing == last.Owing {
		// Only chips or hands moved while moves are under way: nothing the tournament decides on.
		if ev.MedianHands < last.MedianHands+int64(max(s.Spec.Batch, 1)) {
			return SectionEvent{}, false
		}
	}
	ev.Unplaced = withoutKnockouts(s.Unplaced) // copied only for an event that goes
	s.Busts, sec.Out, sec.Group, sec.Entered, s.Tools.DealDone, s.Unplaced = nil, nil, nil, nil, nil, nil
	if ev.HandOn != nil {
		s.Tools.Busted, s.Tools.Elsewhere = nil, nil // the tournament's to hand on
	}
	sec.ErrorsSent = len(s.ChipErrors)
	sec.Reported = s.money()
	sec.Sent = ev
	sec.Sent.Busts, sec.Sent.Out, sec.Sent.Group, sec.Sent.ChipErrors, sec.Sent.Money, sec.Sent.Entered, sec.Sent.Deal, sec.Sent.HandOn, sec.Sent.Unplaced = nil, nil, nil, nil, SectionMoney{}, nil, nil, nil, nil
	return ev, true
}

// withoutKnockouts are the eliminations for the tournament to place: who won a player's chips
// stays in the section, which pays his bounty (bounties.go).
func withoutKnockouts(busts []TableBusts) []TableBusts {
	if len(busts) == 0 {
		return nil
	}
	out := make([]TableBusts, len(busts))
	for i, b := range busts {
		b.Knockouts = nil
		out[i] = b
	}
	return out
}

// owing is how many players the section still owes to other sections: the counts of its SendOut
// orders not yet started, and the moves out ordered and not yet made.
func (sec *SectionRole) owing() int {
	n := len(sec.Sending)
	for _, o := range sec.Owed {
		n += max(o.Players, 0)
	}
	return n
}

// breaking counts the open tables being broken.
func (s *TournamentState) breaking() int {
	n := 0
	for _, t := range s.Tables {
		if !t.Closed && !t.Closing && t.Breaking {
			n++
		}
	}
	return n
}

func (s *TournamentState) allTablesClosed() bool {
	for _, t := range s.Tables {
		if !t.Closed {
			return false
		}
	}
	return true
}

// chipsInPlay is the chips at the tables, as they last told, and in the hands of moving players.
func (s *TournamentState) chipsInPlay() int64 {
	var sum int64
	for _, t := range s.Tables {
		for _, c := range t.Stacks {
			sum += c
		}
	}
	for _, p := range s.Players {
		if p.Status == Moving {
			sum += p.Stack
		}
	}
	return sum
}
