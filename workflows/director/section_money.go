package director

import (
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// A director's action on a player of a tournament of sections is taken by his section (the
// client finds it: Holds), which keeps his record; what it changes in the money and the chips is
// the tournament's (the prize pool, the payouts, the chip ledger), so the section tells it in its
// next event (SectionEvent.Money) and the tournament adds it up. A late entry goes through the
// tournament (it checks the registration period and the payouts, R1, R6), which sends it to a
// section (EntrySection) and answers once that section has seated him.

// SectionMoney is what a section's players paid and what came into or left play there: as
// totals (SectionRole.Reported), or as the change since the last event (SectionEvent.Money).
type SectionMoney struct {
	Entries   int `json:"entries,omitempty"`
	ReEntries int `json:"reEntries,omitempty"`
	Rebuys    int `json:"rebuys,omitempty"`
	AddOns    int `json:"addOns,omitempty"` // add-ons paid (their money is in the pool)
	// The chip ledger's parts (floor.ChipLedger).
	LedgerEntries int   `json:"ledgerEntries,omitempty"`
	RebuyChips    int64 `json:"rebuyChips,omitempty"`
	Disqualified  int64 `json:"disqualified,omitempty"`
	ColorUp       int64 `json:"colorUp,omitempty"`
	// A PKO's bounties: the cash paid for knockouts, and the bounties of players who left with
	// nobody knocking them out (unclaimed: the winner's at the end).
	BountyPaidCents      int64 `json:"bountyPaidCents,omitempty"`
	BountyUnclaimedCents int64 `json:"bountyUnclaimedCents,omitempty"`
}

// IsZero reports whether nothing changed.
func (m SectionMoney) IsZero() bool { return m == SectionMoney{} }

func (m SectionMoney) minus(o SectionMoney) SectionMoney {
	return SectionMoney{Entries: m.Entries - o.Entries, ReEntries: m.ReEntries - o.ReEntries, Rebuys: m.Rebuys - o.Rebuys,
		AddOns: m.AddOns - o.AddOns, LedgerEntries: m.LedgerEntries - o.LedgerEntries, RebuyChips: m.RebuyChips - o.RebuyChips,
		Disqualified: m.Disqualified - o.Disqualified, ColorUp: m.ColorUp - o.ColorUp,
		BountyPaidCents: m.BountyPaidCents - o.BountyPaidCents, BountyUnclaimedCents: m.BountyUnclaimedCents - o.BountyUnclaimedCents}
}

// money is the section's totals as its own records count them (players who arrived from another
// section are not counted: the tournament counted them where they entered). An entry being
// withdrawn counts until his table has taken him off: the tournament places the players by its
// count of those left, and one whose withdrawal is refused (his table dealt first) plays on.
func (s *TournamentState) money() SectionMoney {
	m := SectionMoney{Entries: s.Entries.Entries + s.withdrawing(), ReEntries: s.Entries.ReEntries, Rebuys: s.Entries.Rebuys, AddOns: s.addOnsPaid(),
		LedgerEntries: s.Ledger.Entries, RebuyChips: s.Ledger.RebuyChips, Disqualified: s.Ledger.Disqualified, ColorUp: s.Ledger.ColorUp}
	if b := s.Tools.Bounties; b != nil {
		m.BountyPaidCents, m.BountyUnclaimedCents = b.Board.PaidCents, b.Board.UnclaimedCents
	}
	return m
}

// ResumeSection readies the state a section's run handed on when it continued as new: what its
// last run delivered is not known (the events go again), a state from before the sections
// reported their money counts the money it has as told (its draw's, which the tournament counted),
// and from PaceSectionQuiet the run is counted and has its first report to send (link.go).
func (s *TournamentState) ResumeSection() {
	sec := s.Section
	sec.Events.Resend()
	if sec.Reported.IsZero() {
		sec.Reported = s.money()
	}
	if s.Pace >= PaceSectionQuiet {
		// A new run: its first report ends the tournament's hold on its orders (link.go).
		sec.Run++
		sec.Hold, sec.FirstReport = HoldNone, true
	}
}

// Where names a player or a table, to find the workflow that holds its record (Holds); or an
// entrant to re-enter, to find the section where his last entry busted.
type Where struct {
	Player string        `json:"player,omitempty"`
	Table  floor.TableID `json:"table,omitempty"`
	// Entrant is the person re-entering; Key the re-entry's idempotency key (a retry goes to the
	// section that took it).
	Entrant string `json:"entrant,omitempty"`
	Key     string `json:"key,omitempty"`
}

// Holds reports whether this state holds the record of w's player (in play, or withdrawn) or
// w's table (in play): at several sections, the section to send a director's action on him to.
// For w.Entrant: the section holds his busted entry (BustRecord), or took the re-entry w.Key.
func (s *TournamentState) Holds(w Where) bool {
	if w.Entrant != "" {
		return s.applied(w.Key) || slices.ContainsFunc(s.Tools.Busted, func(b BustRecord) bool { return b.Entrant == w.Entrant })
	}
	if w.Player != "" {
		p := s.player(w.Player)
		return p != nil && p.Status != Out
	}
	t := s.Table(w.Table)
	return t != nil && !t.Closed && !t.Closing
}

// EntryOrder is a late entry the tournament took and sends to the section it chose: the section
// seats him (R1) and answers with an EntryDone.
type EntryOrder struct {
	Key    string `json:"key"`
	Player string `json:"player"`
	// ReEntryOf is the entrant re-entering (Player empty): the section holds his busted entry.
	ReEntryOf string `json:"reEntryOf,omitempty"`
}

// EntryDone is a section's answer to an EntryOrder: the entry seated, or why it was refused.
type EntryDone struct {
	Key     string `json:"key"`
	Player  string `json:"player"`
	Refused string `json:"refused,omitempty"`
}

// enter seats a late entry the tournament sent, once: a repeat of its key (a retried entry)
// answers as the first did, and the entry is counted in the section's money (the tournament
// adds it to the pool when it hears of it).
func (s *TournamentState) enter(e EntryOrder) EntryDone {
	done := EntryDone{Key: e.Key, Player: e.Player}
	if id, ok := s.Actions[e.Key]; ok && e.Key != "" {
		done.Player = id
		return done
	}
	switch {
	case s.Finished || s.Section.Closing:
		done.Refused = fmt.Sprintf("section %d is closing: register again", s.Section.Number)
	case e.ReEntryOf != "":
		return s.reEnter(e)
	case s.player(e.Player) != nil:
		done.Refused = fmt.Sprintf("%q is registered already", e.Player)
	case s.elsewhere(e.Player):
		done.Refused = fmt.Sprintf("%q is registered already (his entry is in another section, or out)", e.Player)
	default:
		s.Register(RegisterRequest{Player: e.Player, Key: e.Key})
		s.Field = nil // a section keeps no field: the tournament's places are in the sink
	}
	return done
}

// EntrySection is the section a late entry of player goes to: one drawn from his ID among all
// the tournament's sections, or the next open one after it. The same ID always goes to the same
// section while it is open, so that a retried entry reaches the section that has its key, and a
// second entry of one ID the section that knows him (unless balancing moved him to another
// since: see docs/director.md). The tournament balances the sections afterwards (R3, R4).
func (t *TopState) EntrySection(player string) int {
	h := fnv.New32a()
	_, _ = h.Write([]byte(player))
	n := len(t.Sections)
	for k := range n {
		r := &t.Sections[(int(h.Sum32()%uint32(n))+k)%n]
		if r.Phase == SectionOpen {
			return r.Number
		}
	}
	return 0
}

// addMoney takes in what a section's players paid and the chips that came into or left play
// there since its last event: the entries, the prize pool and the payouts (R6), the players
// left, and the chip ledger are the tournament's.
func (t *TopState) addMoney(n int, m SectionMoney) {
	if m.IsZero() {
		return
	}
	t.Entries.Entries += m.Entries
	t.Entries.ReEntries += m.ReEntries
	t.Entries.Rebuys += m.Rebuys
	t.AddOns += m.AddOns
	t.Left += m.Entries + m.ReEntries // an entry in, an entry withdrawn (a bust is placed)
	t.Ledger.Entries += m.LedgerEntries
	t.Ledger.RebuyChips += m.RebuyChips
	t.Ledger.Disqualified += m.Disqualified
	t.Ledger.ColorUp += m.ColorUp
	t.BountyPaidCents += m.BountyPaidCents
	t.BountyUnclaimedCents += m.BountyUnclaimedCents
	p, err := t.Spec.payoutsFor(t.buyIns(t.Entries))
	if err != nil {
		t.ChipErrors = append(t.ChipErrors, fmt.Sprintf("payouts after the news of section %d: %v", n, err))
		return
	}
	t.Payouts = p
}

// poolOpen: money may still come into the pool or go back (a rebuy, an add-on sold or refused),
// so a place paid now would be paid under payouts that change afterwards (R6): the busts wait
// (Held), as those of the late registration period do. Rebuys that close with late registration
// are left to fieldOpen, as before PoolFinal (the recorded histories replay so; docs/director.md
// says what that leaves open).
func (t *TopState) poolOpen() bool {
	after := t.Spec.AddOn != nil || t.Spec.Rebuys > 0 && t.Spec.RebuyLevel > t.Spec.LateRegistrationLevel
	return after && !t.PoolFinal
}

// closePool notes the pool final once no more money can come in or go back: the clock is past
// the rebuy period and the add-on break, every open section has applied the orders that told it
// so (a section sells by the level it was told), and no add-on or rebuy waits for its table's
// answer (a refusal gives the money back).
func (t *TopState) closePool() {
	if !t.poolOpen() {
		return
	}
	if t.levelNumber() <= t.lastMoneyLevel() {
		return
	}
	for _, r := range t.open() {
		if r.Orders.Pending() || r.Last.AddOnsPending > 0 || r.Last.RebuysPending > 0 {
			return
		}
	}
	t.PoolFinal = true
}

// lastMoneyLevel is the last level money comes in at: the rebuy period's, or the next with an
// add-on (its break follows the rebuy period; a simulation's clock skips it).
func (t *TopState) lastMoneyLevel() int {
	if t.Spec.AddOn != nil {
		return t.Spec.RebuyLevel + 1
	}
	return t.Spec.RebuyLevel
}

// verifyPoolFinal refuses a deal, or its quote, on a pool that may still change (P6, R6): its
// amounts would share a pool the rebuys and add-ons still grow.
func (t *TopState) verifyPoolFinal() error {
	if !t.poolOpen() {
		return nil
	}
	return &floor.RuleError{Rule: "P6", Reason: fmt.Sprintf("the prize pool is not final (rebuys or add-ons may still come in until level %d is over and every section has heard): a deal shares it once it is", t.lastMoneyLevel())}
}

// buyIns is what the field bought with entries e, for the payouts.
func (t *TopState) buyIns(e floor.Entries) floor.BuyIns {
	return t.Spec.buyIns(e, t.AddOns)
}

// BountyResult is a PKO event's bounties across the sections (nil without them): the pool, the
// cash the sections paid for knockouts and, at the end, the winner's own bounty with the
// unclaimed ones (the pool less every knockout's cash: every other head was paid or forfeited).
// The per-player winnings are in the sections' records (director.BountyResult of each).
func (t *TopState) BountyResult() *BountyResult {
	rule := t.Spec.Bounty
	if rule == nil {
		return nil
	}
	r := &BountyResult{PoolCents: rule.PoolCents(t.Entries), PaidCents: t.BountyPaidCents}
	r.OnHeadsCents = r.PoolCents - t.BountyPaidCents - t.BountyUnclaimedCents
	if t.Finished && len(t.Places) > 0 && t.Places[0].Place == 1 {
		won := r.PoolCents - t.BountyPaidCents
		r.Won = []BountyWon{{Player: t.Places[0].Player, CashCents: won}}
		r.PaidCents, r.OnHeadsCents = r.PoolCents, 0
	}
	return r
}

// Re-entries at several sections. A busted entrant's record (how many entries he has had) is
// in the section where his last entry busted: while late registration is open that section
// keeps a BustRecord of him after it forgets his player record, so the re-entry goes there (the
// client finds it: Where.Entrant). The tournament checks what is its own (R1's clock, R6's
// payouts, one re-entry of an entrant on its way at a time) and sends it on (EntryOrder with
// ReEntryOf); the section checks R1's limit, once, as it applies the order, gives the entry its
// ID (ENTRANT#n: at several sections a re-entry's ID is always his entrant's and his entry's
// number, and no other ID has '#'), seats him, and answers. A retried key is answered by the
// section that took it (its Actions), as for a late entry.

// BustRecord is a busted entry a section keeps while late registration is open: his entrant may
// re-enter there.
type BustRecord struct {
	Entrant string `json:"entrant"`
	Player  string `json:"player"` // the entry that busted: ENTRANT or ENTRANT#n
}

// entryNumber is the number of the entry b among his entrant's (1: his first).
func (b BustRecord) entryNumber() int {
	if n, err := strconv.Atoi(strings.TrimPrefix(b.Player, b.Entrant+"#")); err == nil && b.Player != b.Entrant {
		return n
	}
	return 1
}

// ReEntryMark is what marks a re-entry's ID at several sections (ENTRANT#2): no other entry's
// ID has it.
const ReEntryMark = "#"

// errReEntryMark refuses an ID with the re-entries' mark at several sections.
func errReEntryMark(id string) error {
	return fmt.Errorf("player ID %q: at several sections %q marks a re-entry's ID (ENTRANT#2), so that a re-entry never takes an ID another entry has: choose an ID without it", id, ReEntryMark)
}

// lateRegistration reports whether a section's late registration may still be open: the level
// the tournament last told it (which never runs ahead of the tournament's clock) is not past
// it.
func (s *TournamentState) lateRegistration() bool {
	return s.Spec.LateRegistrationLevel > 0 && (s.Period < 0 || s.clock().LevelNumber(s.Period) <= s.Spec.LateRegistrationLevel)
}

// sectionEntrants keeps, at a section while late registration is open, what a late entry or a
// re-entry is checked against once the players' records are forgotten: every entry that busted,
// was disqualified or left for another section here (Elsewhere: a second entry of his ID is
// refused) and the busted ones (Busted: their entrant may re-enter here). Both go once late
// registration has closed.
func (s *TournamentState) sectionEntrants(ev TableEvent) {
	if s.Section == nil {
		return
	}
	if !s.lateRegistration() {
		s.Tools.Busted, s.Tools.Elsewhere = nil, nil
		return
	}
	for _, g := range ev.Busts {
		for _, e := range g.Eliminated {
			p := s.player(string(e.Player))
			if p == nil {
				continue
			}
			s.addElsewhere(p.ID)
			if s.Spec.ReEntries > 0 {
				s.Tools.Busted = slices.DeleteFunc(s.Tools.Busted, func(b BustRecord) bool { return b.Entrant == p.Entrant })
				s.Tools.Busted = append(s.Tools.Busted, BustRecord{Entrant: p.Entrant, Player: p.ID})
			}
		}
	}
	for _, a := range ev.Sanctions {
		if p := s.player(a.Player); p != nil && p.Status == Out {
			s.addElsewhere(p.ID) // disqualified (P4)
		}
	}
	for _, m := range ev.Out {
		if m.Section > 0 {
			s.addElsewhere(m.Player)
		}
	}
}

// HandOn are the entries of the field a section that emptied during late registration knew
// of: the busted ones (their entrant may re-enter) and those whose records were elsewhere (a
// second entry of the ID is refused).
type HandOn struct {
	Busted    []BustRecord `json:"busted,omitempty"`
	Elsewhere []string     `json:"elsewhere,omitempty"`
}

// handOn shares what a section that emptied knew of among the open sections: each busted entry,
// and each ID known elsewhere, to the section a late entry of that ID goes to (EntrySection).
func (t *TopState) handOn(from int, h HandOn) {
	parts := map[int]*HandOn{}
	part := func(id string) *HandOn {
		n := t.EntrySection(id)
		if n == 0 || n == from {
			return nil
		}
		if parts[n] == nil {
			parts[n] = &HandOn{}
		}
		return parts[n]
	}
	for _, b := range h.Busted {
		if p := part(b.Entrant); p != nil {
			p.Busted = append(p.Busted, b)
		}
	}
	for _, id := range h.Elsewhere {
		if p := part(id); p != nil {
			p.Elsewhere = append(p.Elsewhere, id)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(parts)) {
		t.order(n, SectionOrder{HandOn: parts[n]})
	}
}

// takeHandOn keeps what a section that emptied knew of, while late registration is open.
func (s *TournamentState) takeHandOn(h HandOn) {
	if !s.lateRegistration() {
		return
	}
	for _, b := range h.Busted {
		s.Tools.Busted = slices.DeleteFunc(s.Tools.Busted, func(o BustRecord) bool { return o.Entrant == b.Entrant })
		s.Tools.Busted = append(s.Tools.Busted, b)
	}
	for _, id := range h.Elsewhere {
		s.addElsewhere(id)
	}
}

// addElsewhere notes id as an entry of the field whose record is not (or no longer) here.
func (s *TournamentState) addElsewhere(id string) {
	if k, found := slices.BinarySearch(s.Tools.Elsewhere, id); !found {
		s.Tools.Elsewhere = slices.Insert(s.Tools.Elsewhere, k, id)
	}
}

// elsewhere reports whether id is an entry of the field this section knows of with no record
// here: a second entry of his ID is refused.
func (s *TournamentState) elsewhere(id string) bool {
	_, found := slices.BinarySearch(s.Tools.Elsewhere, id)
	return found
}

// reEnter takes a re-entry the tournament sent: his entrant's busted entry is here, he has no
// entry in play, and R1's limit lets him (checked here, once, as the order is applied).
func (s *TournamentState) reEnter(e EntryOrder) EntryDone {
	done := EntryDone{Key: e.Key}
	for _, p := range s.Players {
		if p.Entrant == e.ReEntryOf && p.Status != Out && p.Status != Withdrawn {
			done.Refused = (&floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s is still in with entry %s: only a busted player re-enters", e.ReEntryOf, p.ID)}).Error()
			return done
		}
	}
	k := slices.IndexFunc(s.Tools.Busted, func(b BustRecord) bool { return b.Entrant == e.ReEntryOf })
	if k < 0 {
		done.Refused = fmt.Sprintf("%s has no busted entry in section %d (he busted in another, is still in, or never entered): a re-entry goes to the section where his last entry busted",
			e.ReEntryOf, s.Section.Number)
		return done
	}
	n := s.Tools.Busted[k].entryNumber()
	if n > s.Spec.ReEntries {
		done.Refused = (&floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("%s has re-entered %d times, the limit is %d", e.ReEntryOf, n-1, s.Spec.ReEntries)}).Error()
		return done
	}
	id := e.ReEntryOf + ReEntryMark + strconv.Itoa(n+1)
	if s.player(id) != nil {
		done.Refused = fmt.Sprintf("%q is registered already", id)
		return done
	}
	s.Tools.Busted = slices.Delete(s.Tools.Busted, k, k+1)
	s.Register(RegisterRequest{Player: id, ReEntryOf: e.ReEntryOf, Key: e.Key})
	s.Field = nil
	done.Player = id
	return done
}

// drawnElsewhere tells each section the players of an explicit list the draw seated in another
// section though a late entry of their ID goes to this one (EntrySection): it refuses a second
// entry of them (SectionStart.Elsewhere).
func (t *TopState) drawnElsewhere(named bool, sections []SectionStart) {
	if named || t.Spec.LateRegistrationLevel == 0 {
		return // the draw's generated names are refused by the tournament (inDraw)
	}
	for _, st := range sections {
		for _, ft := range st.Tables {
			for _, p := range ft.Seats {
				if h := t.EntrySection(string(p)); p != "" && h != st.Number {
					sections[h-1].Elsewhere = append(sections[h-1].Elsewhere, string(p))
				}
			}
		}
	}
	for i := range sections {
		slices.Sort(sections[i].Elsewhere)
	}
}

// verifyReEntry says why the tournament of sections cannot take a re-entry (R1: registration
// closed, or no section named as holding his busted entry; R6: the payouts; another re-entry of
// him on its way), or returns nil. The limit is his section's to check.
func (t *TopState) verifyReEntry(r RegisterRequest, now time.Time) error {
	if l := t.Level(now); l > t.Spec.LateRegistrationLevel {
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("registration closed after level %d; this is level %d", t.Spec.LateRegistrationLevel, l)}
	}
	switch rec := t.Section(r.Section); {
	case t.Spec.ReEntries == 0:
		return &floor.RuleError{Rule: "R1", Reason: "this event allows no re-entry"}
	case r.Player != "":
		return fmt.Errorf("a re-entry of %s at several sections takes the ID his section gives (%s#2, #3...): leave the player ID empty", r.ReEntryOf, r.ReEntryOf)
	case r.Section == 0:
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("no section holds a busted entry of %s: only a busted player re-enters, in the section where his last entry busted (is he still in, or did he never enter?)", r.ReEntryOf)}
	case rec == nil || rec.Phase != SectionOpen:
		// A draining section seats nobody new: its players go to the others.
		return &floor.RuleError{Rule: "R1", Reason: fmt.Sprintf("section %d, where %s busted, is merging into the other sections (the field shrank): his busted entry goes on to one of them once its players have left; try again then", r.Section, r.ReEntryOf)}
	}
	pending := 0
	for _, e := range t.Entering {
		if e.Answered {
			continue
		}
		if e.ReEntryOf == r.ReEntryOf && e.Key != r.Key {
			return fmt.Errorf("a re-entry of %s is on its way already (key %q): one at a time", r.ReEntryOf, e.Key)
		}
		pending++
	}
	e := t.Entries
	e.Entries += pending
	e.ReEntries++
	if _, err := t.Spec.payoutsFor(t.buyIns(e)); err != nil {
		return fmt.Errorf("the payouts cannot take it (tell the director to change the payout structure): %w", err)
	}
	return nil
}

// entrySection is the section an entry goes to: a re-entry to the one holding his busted entry,
// a new entry to the one its ID draws (EntrySection).
func (t *TopState) entrySection(r RegisterRequest) int {
	if r.ReEntryOf != "" {
		return r.Section
	}
	return t.EntrySection(r.Player)
}

// Deals at several sections. A deal is made by the players left; the field merges into one
// section for its final tables (floor.PlanSections), so a deal is taken once every player left
// is in one section (none on his way between two): the tournament, which owns the payouts,
// sends it with the prizes still to be won to that section (DealOrder), which quotes it on its
// stacks after the last hand with its tables stopped (the clock paused, as at one section) and
// answers (DealDone); the tournament then pays the deal's amounts to its players at their places.
// While the players are spread over several sections it is refused, saying how many and where.

// DealOrder is a deal the tournament sends to the section holding every player left.
type DealOrder struct {
	Request DealRequest `json:"request"`
	// Prizes are the prizes still to be won, first place first (one a player left).
	Prizes []int64   `json:"prizes"`
	At     time.Time `json:"at"`
}

// DealDone is the section's answer to a DealOrder: the deal made, or why not.
type DealDone struct {
	Key     string      `json:"key"`
	Deal    *DealRecord `json:"deal,omitempty"`
	Refused string      `json:"refused,omitempty"`
}

// dealOrdered makes the deal the tournament sent, on the stacks after the last hand (the tables
// stopped), and keeps the answer for the next event (Tools.DealDone).
func (s *TournamentState) dealOrdered(o DealOrder) {
	r := o.Request
	done := DealDone{Key: r.Key}
	switch {
	case s.Deal != nil && s.applied(r.Key):
		done.Deal = s.Deal
	case s.Deal != nil:
		done.Refused = (&floor.RuleError{Rule: "P6", Reason: "a deal was made already"}).Error()
	default:
		q, err := s.dealStacks()
		if err == nil {
			q, err = QuoteFor(q, o.Prizes, r.Terms)
		}
		var amounts []int64
		if err == nil {
			amounts, err = dealAmounts(q, r.Method)
		}
		if err != nil {
			done.Refused = err.Error()
			break
		}
		s.record(r.Key, "")
		s.Deal = &DealRecord{Method: r.Method, Players: q.Players, Stacks: q.Stacks, Amounts: amounts, Terms: r.Terms, ApprovedBy: r.ApprovedBy, At: o.At}
		done.Deal = s.Deal
	}
	s.Tools.DealDone = &done
}

// TopTools is what the director's tools keep at a tournament of sections: the deal.
type TopTools struct {
	Deal *DealRecord `json:"deal,omitempty"`
	// Dealing is the deal sent to a section and not yet taken by the director's call.
	Dealing *PendingDeal `json:"dealing,omitempty"`
}

// PendingDeal is a deal sent to the section holding every player left.
type PendingDeal struct {
	Key      string `json:"key"`
	Section  int    `json:"section"`
	Answered bool   `json:"answered,omitempty"`
	Refused  string `json:"refused,omitempty"`
}

// dealSection is the section holding every player left, or why there is none (the players are
// spread over several sections, or on their way between two).
func (t *TopState) dealSection() (*SectionRecord, error) {
	var with []*SectionRecord
	var where []string
	for _, r := range t.open() {
		if r.Last.Players > 0 {
			with = append(with, r)
			where = append(where, fmt.Sprintf("section %d: %d", r.Number, r.Last.Players))
		}
	}
	if len(with) == 1 && len(t.InTransit) == 0 {
		return with[0], nil
	}
	why := fmt.Sprintf("the %d players left are in %d sections (%s)", t.Left, len(with), strings.Join(where, ", "))
	if len(t.InTransit) > 0 {
		why += fmt.Sprintf(", %d on their way between two", len(t.InTransit))
	}
	return nil, ErrNotInSections{Action: "deal", Why: why + ": a deal is made by the players left at one section, once the field has merged into one for the final tables; ask again then"}
}

// dealPrizes are the prizes still to be won, one a player left.
func (t *TopState) dealPrizes() []int64 {
	return slices.Clone(t.Payouts.Prizes[:min(t.Left, len(t.Payouts.Prizes))])
}

// QuoteAt is a tournament of sections' part of a deal's quote: the section holding every player
// left (where his stacks are quoted) and the prizes still to be won, or why no deal can be made.
func (t *TopState) QuoteAt() (DealQuote, error) {
	if t.Finished {
		return DealQuote{}, errors.New("the tournament is over")
	}
	r, err := t.dealSection()
	if err != nil {
		return DealQuote{}, err
	}
	if err := t.verifyPoolFinal(); err != nil {
		return DealQuote{}, err
	}
	return DealQuote{Section: r.WorkflowID, Prizes: t.dealPrizes()}, nil
}

// VerifyDeal says why the deal cannot be made now (P6: made already, not approved, the clock not
// paused; the players spread over several sections), or returns nil. The tables' stop and the
// quote are the section's to check.
func (t *TopState) VerifyDeal(r DealRequest) error {
	if _, ok := t.Actions[r.Key]; ok && r.Key != "" {
		return nil
	}
	switch d := t.Tools.Dealing; {
	case t.Finished:
		return errors.New("the tournament is over")
	case t.Tools.Deal != nil:
		return &floor.RuleError{Rule: "P6", Reason: "a deal was made already"}
	case d != nil && d.Key != r.Key:
		return &floor.RuleError{Rule: "P6", Reason: fmt.Sprintf("a deal is being made (key %q): one at a time", d.Key)}
	case r.ApprovedBy == "":
		return &floor.RuleError{Rule: "P6", Reason: "a deal records the director who approved it"}
	case r.Method != "icm" && r.Method != "chip-chop":
		return fmt.Errorf("deal method %q: icm or chip-chop", r.Method)
	}
	if _, err := t.dealSection(); err != nil {
		return err
	}
	if err := t.verifyPoolFinal(); err != nil {
		return err
	}
	if !t.Paused {
		return &floor.RuleError{Rule: "P6", Reason: "a deal is discussed on a paused clock: pause it first, the tables stop after their hand"}
	}
	return nil
}

// OrderDeal sends the deal to the section holding every player left, with the prizes still to
// be won; its answer comes in that section's next event (TakeDeal).
func (t *TopState) OrderDeal(r DealRequest, now time.Time) {
	if _, ok := t.Actions[r.Key]; ok && r.Key != "" {
		return
	}
	sec, err := t.dealSection()
	if err != nil {
		t.ChipErrors = append(t.ChipErrors, "deal: "+err.Error())
		return
	}
	if r.Key != "" {
		if t.Actions == nil {
			t.Actions = map[string]string{}
		}
		t.Actions[r.Key] = "deal"
	}
	t.Tools.Dealing = &PendingDeal{Key: r.Key, Section: sec.Number}
	t.order(sec.Number, SectionOrder{Deal: &DealOrder{Request: r, Prizes: t.dealPrizes(), At: now}})
}

// dealDone takes section n's answer to the deal it was sent.
func (t *TopState) dealDone(n int, d DealDone) {
	p := t.Tools.Dealing
	if p == nil || p.Key != d.Key || p.Section != n || p.Answered {
		return
	}
	p.Answered, p.Refused = true, d.Refused
	if d.Deal != nil && d.Refused == "" {
		t.Tools.Deal = d.Deal
	}
}

// TakeDeal is the deal with key key once its section has answered (ok), or why it refused it (a
// table not stopped yet: the key may be tried again). A deal made is answered from the record.
func (t *TopState) TakeDeal(key string) (DealRecord, bool, error) {
	p := t.Tools.Dealing
	switch {
	case p == nil && t.Tools.Deal != nil:
		return *t.Tools.Deal, true, nil
	case p == nil || p.Key != key:
		return DealRecord{}, true, fmt.Errorf("no deal with key %q is being made", key)
	case !p.Answered:
		return DealRecord{}, false, nil
	}
	t.Tools.Dealing = nil
	if p.Refused != "" {
		delete(t.Actions, key) // nothing was made: the same key may try again
		return DealRecord{}, true, fmt.Errorf("section %d refused the deal: %s", p.Section, p.Refused)
	}
	return *t.Tools.Deal, true, nil
}

// DealAnswered reports whether the deal with key key has its answer (it changes nothing).
func (t *TopState) DealAnswered(key string) bool {
	p := t.Tools.Dealing
	return p == nil || p.Key != key || p.Answered
}

// pauseSent notes, after a section has sent its tables the tournament's pause (or resume), the
// order each open table has stopped at once it acknowledges it, as a tournament of one section
// does (Clock): a deal is quoted only on stacks no hand changes any more (verifyTablesStopped).
func (s *TournamentState) pauseSent() {
	for i := range s.Tables {
		if t := &s.Tables[i]; !t.Closed && !t.Closing {
			t.PauseSeq = 0
			if s.Paused {
				t.PauseSeq = t.Sent
			}
		}
	}
}
