package floor

import (
	"fmt"
	"slices"
	"time"
)

// SanctionKind is one of the three sanctions the floor has (P1).
type SanctionKind string

// The sanctions (P1).
const (
	Warning          SanctionKind = "warning"
	Exclusion        SanctionKind = "exclusion" // missed rounds, counted in hands (P2, P3)
	Disqualification SanctionKind = "disqualification"
)

// MaxExclusionRounds is the longest exclusion (P1).
const MaxExclusionRounds = 4

// Penalty is a sanction's kind and, for an exclusion, its rounds (1 to 4).
type Penalty struct {
	Kind   SanctionKind `json:"kind"`
	Rounds int          `json:"rounds,omitempty"`
}

// Ladder is the escalation ladder for repeat offences (P1): a warning for a first offence, then
// exclusions of 1, 2, 3 and 4 rounds, then disqualification.
var Ladder = []Penalty{
	{Kind: Warning},
	{Kind: Exclusion, Rounds: 1},
	{Kind: Exclusion, Rounds: 2},
	{Kind: Exclusion, Rounds: 3},
	{Kind: Exclusion, Rounds: 4},
	{Kind: Disqualification},
}

// Severity is the penalty's step on the Ladder, or -1 for a penalty that is not a sanction.
func (p Penalty) Severity() int { return slices.Index(Ladder, p) }

// Sanction is the record of one sanction (P6: who gave it and why, with the facts it rests on).
type Sanction struct {
	Player PlayerID `json:"player"`
	Penalty
	// Rule is the rule broken (for example "P7" for soft play, "A14" for acting out of turn).
	Rule    string `json:"rule"`
	Reason  string `json:"reason"`
	GivenBy string `json:"givenBy"`
	// At is when it was given (the workflow's time, recorded; nothing here reads a clock).
	At    time.Time `json:"at"`
	Table TableID   `json:"table"`
	// Hand is the table's hand during or after which it was given; the sanction starts with the
	// next hand, StartsAtHand (P5).
	Hand         int `json:"hand"`
	StartsAtHand int `json:"startsAtHand"`
	// PlayersAtTable and Hands: an exclusion lasts Rounds rounds of as many hands as there were
	// players at the table, the excluded player included (P2).
	PlayersAtTable int `json:"playersAtTable,omitempty"`
	Hands          int `json:"hands,omitempty"`
	// Chips is what a disqualification removed from the tournament (P4).
	Chips int64 `json:"chips,omitempty"`
}

// HandsOfExclusion is how many hands an exclusion of rounds lasts at a table of playersAtTable,
// the excluded player included (P2): penalties are counted in hands, never in minutes.
func HandsOfExclusion(rounds, playersAtTable int) (int, error) {
	if rounds < 1 || rounds > MaxExclusionRounds {
		return 0, ruleErr("P1", "an exclusion is 1 to %d rounds, not %d", MaxExclusionRounds, rounds)
	}
	if playersAtTable < 2 || playersAtTable > MaxTableSize {
		return 0, ruleErr("P2", "a round at a table of %d players", playersAtTable)
	}
	return rounds * playersAtTable, nil
}

// NextPenalty is the least penalty the player's next offence brings (P1): a warning for a first
// offence, otherwise the step on the Ladder after the heaviest he has had.
func NextPenalty(player PlayerID, history []Sanction) Penalty {
	step := 0
	for _, s := range history {
		if s.Player == player {
			step = max(step, s.Severity()+1)
		}
	}
	return Ladder[min(step, len(Ladder)-1)]
}

// CanSanction reports whether VerifySanction accepts s.
func CanSanction(s Sanction, history []Sanction) bool { return VerifySanction(s, history) == nil }

// VerifySanction says which rule forbids the sanction s given the history of sanctions so far, or
// returns nil. A sanction must be on the Ladder (P1), recorded with who gave it and why (P6), at
// least as heavy as NextPenalty (P1: a warning only for a first offence, repeats heavier), start
// with the next hand (P5), and an exclusion last its rounds in hands (P2). A disqualified player
// takes no further sanction (P4).
func VerifySanction(s Sanction, history []Sanction) error {
	if s.Player == "" {
		return ruleErr("P6", "a sanction names the player")
	}
	if s.GivenBy == "" || s.Reason == "" {
		return ruleErr("P6", "a sanction on %s records who gave it and why", s.Player)
	}
	if s.Severity() < 0 {
		return ruleErr("P1", "%s %d rounds is not a sanction: warning, exclusion of 1 to %d rounds, or disqualification", s.Kind, s.Rounds, MaxExclusionRounds)
	}
	for _, h := range history {
		if h.Player == s.Player && h.Kind == Disqualification {
			return ruleErr("P4", "%s is disqualified already", s.Player)
		}
	}
	if least := NextPenalty(s.Player, history); s.Severity() < least.Severity() {
		return ruleErr("P1", "a repeat offence by %s brings at least %s, not %s", s.Player, least.describe(), s.describe())
	}
	if s.StartsAtHand != s.Hand+1 {
		return ruleErr("P5", "a sanction given in hand %d starts with hand %d, not %d", s.Hand, s.Hand+1, s.StartsAtHand)
	}
	if s.Kind == Exclusion {
		hands, err := HandsOfExclusion(s.Rounds, s.PlayersAtTable)
		if err != nil {
			return err
		}
		if s.Hands != hands {
			return ruleErr("P2", "%d rounds at a table of %d are %d hands, not %d", s.Rounds, s.PlayersAtTable, hands, s.Hands)
		}
	}
	return nil
}

func (p Penalty) describe() string {
	if p.Kind == Exclusion {
		return fmt.Sprintf("an exclusion of %d rounds", p.Rounds)
	}
	return "a " + string(p.Kind)
}

// GiveSanction makes the record of a sanction given during or after hand hand at a table of
// playersAtTable players, fills in when it starts (P5), how many hands an exclusion lasts (P2) and,
// for a disqualification, the chips removed (P4: stack, the player's chips), and verifies it.
func GiveSanction(s Sanction, stack int64, history []Sanction) (Sanction, error) {
	s.StartsAtHand = s.Hand + 1
	s.Hands = 0
	if s.Kind == Exclusion {
		s.Hands, _ = HandsOfExclusion(s.Rounds, s.PlayersAtTable)
	}
	s.Chips = 0
	if s.Kind == Disqualification {
		s.Chips = stack
	}
	if err := VerifySanction(s, history); err != nil {
		return Sanction{}, err
	}
	return s, nil
}

// Away is an exclusion being served: the player is away from the table, his blinds and antes are
// posted and his hand dealt and killed (P3) for HandsLeft more hands at whatever table he sits.
type Away struct {
	Player    PlayerID `json:"player"`
	HandsLeft int      `json:"handsLeft"`
}

// StartAway is the exclusion of s as it starts with the next hand (P5).
func StartAway(s Sanction) Away { return Away{Player: s.Player, HandsLeft: s.Hands} }

// Excluded reports whether the player sits out the next hand dealt.
func (a Away) Excluded() bool { return a.HandsLeft > 0 }

// HandServed is the exclusion after one more hand dealt at the player's table.
func (a Away) HandServed() Away {
	a.HandsLeft = max(a.HandsLeft-1, 0)
	return a
}

// ChipLedger is what the chips on the tables must add up to: the conservation invariant checked
// after every hand and every tournament step.
type ChipLedger struct {
	Entries       int   `json:"entries"` // first entries and re-entries
	StartingStack int64 `json:"startingStack"`
	RebuyChips    int64 `json:"rebuyChips,omitempty"`   // chips bought by rebuys and add-ons
	Disqualified  int64 `json:"disqualified,omitempty"` // removed with disqualified players (P4)
	ColorUp       int64 `json:"colorUp,omitempty"`      // net chips the chip races added (R8)
}

// Total is the chips that must be in play.
func (l ChipLedger) Total() int64 {
	return int64(l.Entries)*l.StartingStack + l.RebuyChips - l.Disqualified + l.ColorUp
}
