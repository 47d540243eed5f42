package floor

import (
	"slices"
	"testing"
	"time"
)

func TestHandsOfExclusionP2(t *testing.T) { // rule P2: a round is as many hands as players, the excluded included
	cases := []struct{ rounds, players, want int }{
		{1, 10, 10}, {2, 9, 18}, {4, 6, 24}, {3, 2, 6},
	}
	for _, c := range cases {
		if got, err := HandsOfExclusion(c.rounds, c.players); err != nil || got != c.want {
			t.Errorf("HandsOfExclusion(%d, %d) = %d, %v; want %d", c.rounds, c.players, got, err, c.want)
		}
	}
	_, err := HandsOfExclusion(5, 9)
	wantRule(t, err, "P1")
	_, err = HandsOfExclusion(0, 9)
	wantRule(t, err, "P1")
	_, err = HandsOfExclusion(1, 1)
	wantRule(t, err, "P2")
}

func sanction(player PlayerID, p Penalty) Sanction {
	return Sanction{
		Player: player, Penalty: p, Rule: "P7", Reason: "abuse of the dealer", GivenBy: "floor:anna",
		At: time.Date(2025, 3, 1, 20, 15, 0, 0, time.UTC), Table: 4, Hand: 57, PlayersAtTable: 9,
	}
}

func TestEscalationLadderP1(t *testing.T) { // rule P1: warning first, repeat offences heavier
	var history []Sanction
	want := []Penalty{
		{Kind: Warning}, {Kind: Exclusion, Rounds: 1}, {Kind: Exclusion, Rounds: 2},
		{Kind: Exclusion, Rounds: 3}, {Kind: Exclusion, Rounds: 4}, {Kind: Disqualification},
	}
	for i, w := range want {
		next := NextPenalty("p1", history)
		if next != w {
			t.Fatalf("offence %d brings %+v, want %+v", i+1, next, w)
		}
		s, err := GiveSanction(sanction("p1", next), 12000, history)
		if err != nil {
			t.Fatal(err)
		}
		history = append(history, s)
	}
	// Another player's record does not count against p2.
	if next := NextPenalty("p2", history); next.Kind != Warning {
		t.Fatalf("p2's first offence brings %+v", next)
	}
}

// rule P4, rule P5, rule P6 (and P1, P2): what makes a sanction wrong.
func TestVerifySanctionP1P4P5P6(t *testing.T) {
	warned, _ := GiveSanction(sanction("p1", Penalty{Kind: Warning}), 0, nil)
	dq, _ := GiveSanction(sanction("p9", Penalty{Kind: Disqualification}), 5000, nil)
	history := []Sanction{warned, dq}
	cases := []struct {
		name string
		edit func(*Sanction)
		rule string
	}{
		{"second warning refused", func(s *Sanction) { s.Penalty = Penalty{Kind: Warning} }, "P1"},
		{"repeat: one round is enough", func(s *Sanction) {}, ""},
		{"the floor may go straight to disqualification", func(s *Sanction) {
			s.Penalty = Penalty{Kind: Disqualification}
		}, ""},
		{"five rounds", func(s *Sanction) { s.Rounds = 5 }, "P1"},
		{"no reason recorded", func(s *Sanction) { s.Reason = "" }, "P6"},
		{"nobody gave it", func(s *Sanction) { s.GivenBy = "" }, "P6"},
		{"starting in the same hand", func(s *Sanction) { s.StartsAtHand = s.Hand }, "P5"},
		{"counted wrong", func(s *Sanction) { s.Hands = 10 }, "P2"},
		{"after disqualification", func(s *Sanction) { s.Player = "p9" }, "P4"},
		{"no player", func(s *Sanction) { s.Player = "" }, "P6"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := sanction("p1", Penalty{Kind: Exclusion, Rounds: 1})
			s.StartsAtHand, s.Hands = s.Hand+1, 9
			c.edit(&s)
			err := VerifySanction(s, history)
			if c.rule == "" {
				if err != nil || !CanSanction(s, history) {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantRule(t, err, c.rule)
		})
	}
}

// rule P4: a disqualification removes the chips; rule P5: it starts with the next hand; rule P6: the record.
func TestGiveSanctionRecordP2P4P5P6(t *testing.T) {
	s, err := GiveSanction(sanction("p1", Penalty{Kind: Exclusion, Rounds: 2}), 8000, []Sanction{
		{Player: "p1", Penalty: Penalty{Kind: Warning}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.StartsAtHand != 58 || s.Hands != 18 || s.Chips != 0 || s.GivenBy != "floor:anna" || s.Reason == "" {
		t.Fatalf("record %+v", s)
	}
	dq, err := GiveSanction(sanction("p2", Penalty{Kind: Disqualification}), 8000, nil)
	if err != nil || dq.Chips != 8000 {
		t.Fatalf("disqualification %+v, %v", dq, err)
	}
	// P4: the chips leave the tournament: the ledger the tables must add up to drops by as much.
	ledger := ChipLedger{Entries: 100, StartingStack: 20000}
	before := ledger.Total()
	ledger.Disqualified += dq.Chips
	if ledger.Total() != before-8000 {
		t.Fatalf("ledger %d after removing 8,000 from %d", ledger.Total(), before)
	}
}

func TestExclusionServedInHandsP2P3P5(t *testing.T) { // rules P2, P3, P5: 2 rounds at 9 skip exactly 18 hands
	s, err := GiveSanction(sanction("p1", Penalty{Kind: Exclusion, Rounds: 2}), 0, []Sanction{
		{Player: "p1", Penalty: Penalty{Kind: Warning}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a := StartAway(s)
	var away []int
	for hand := s.StartsAtHand; hand < s.StartsAtHand+30; hand++ {
		if a.Excluded() {
			away = append(away, hand)
		}
		a = a.HandServed()
	}
	want := make([]int, 18)
	for i := range want {
		want[i] = 58 + i
	}
	if !slices.Equal(away, want) {
		t.Fatalf("away for hands %v, want %v", away, want)
	}
}
