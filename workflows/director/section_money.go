package director

import (
	"fmt"
	"hash/fnv"

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
// last run delivered is not known (the events go again), and a state from before the sections
// reported their money counts the money it has as told (its draw's, which the tournament counted).
func (s *TournamentState) ResumeSection() {
	sec := s.Section
	sec.Events.Resend()
	if sec.Reported.IsZero() {
		sec.Reported = s.money()
	}
}

// Where names a player or a table, to find the workflow that holds its record (Holds).
type Where struct {
	Player string        `json:"player,omitempty"`
	Table  floor.TableID `json:"table,omitempty"`
}

// Holds reports whether this state holds the record of w's player (in play, or withdrawn) or
// w's table (in play): at several sections, the section to send a director's action on him to.
func (s *TournamentState) Holds(w Where) bool {
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
	case s.player(e.Player) != nil:
		done.Refused = fmt.Sprintf("%q is registered already", e.Player)
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
