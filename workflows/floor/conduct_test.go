package floor

import "testing"

// rule P7: conduct that brings sanctions; chip dumping disqualifies both players, and each of them
// loses his chips (rule P4).
func TestConductPenaltiesRuleP7(t *testing.T) {
	pens, err := ConductPenalties(ChipDumping, []PlayerID{"p1", "p2"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []PlayerID{"p1", "p2"} {
		if pens[p].Kind != Disqualification {
			t.Errorf("chip dumping: %s gets %+v, want disqualification", p, pens[p])
		}
		s, err := GiveSanction(Sanction{Player: p, Penalty: pens[p], Rule: "P7", Reason: string(ChipDumping),
			GivenBy: "floor:anna", Hand: 10, PlayersAtTable: 9}, 4200, nil)
		if err != nil || s.Chips != 4200 {
			t.Errorf("disqualifying %s: %+v, %v", p, s, err)
		}
	}

	// Other conduct climbs the ladder (rule P1): a first offence is a warning, a second heavier.
	warned, _ := GiveSanction(Sanction{Player: "p3", Penalty: Penalty{Kind: Warning}, Rule: "P7",
		Reason: string(Stalling), GivenBy: "floor:anna", Hand: 3, PlayersAtTable: 9}, 0, nil)
	pens, err = ConductPenalties(Stalling, []PlayerID{"p3", "p4"}, []Sanction{warned})
	if err != nil {
		t.Fatal(err)
	}
	if pens["p3"] != (Penalty{Kind: Exclusion, Rounds: 1}) || pens["p4"] != (Penalty{Kind: Warning}) {
		t.Errorf("stalling: %+v", pens)
	}

	for _, bad := range []struct {
		c       Conduct
		players []PlayerID
	}{
		{"being rude to the TD", []PlayerID{"p1"}},
		{ChipDumping, []PlayerID{"p1"}},
		{Abuse, nil},
		{Abuse, []PlayerID{"p1", "p1"}},
	} {
		if _, err := ConductPenalties(bad.c, bad.players, nil); err == nil {
			t.Errorf("ConductPenalties(%q, %v) accepted", bad.c, bad.players)
		} else {
			wantRule(t, err, "P7")
		}
	}
}
