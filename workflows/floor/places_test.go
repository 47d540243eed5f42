package floor

import (
	"slices"
	"testing"
)

func TestPlacesR5R7(t *testing.T) { // rules R5, R7
	field := []PlayerID{"a", "b", "c", "d", "e", "f"}
	res, err := Places(field, [][]Elimination{
		{{"f", 500}},             // 6th
		{{"e", 300}, {"d", 900}}, // same hand: d had more at its start, 4th; e 5th
		{{"c", 700}, {"b", 700}}, // equal stacks share 2nd and 3rd; one left: over (R5)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Standing{{"a", 1, 1}, {"b", 2, 2}, {"c", 2, 2}, {"d", 4, 1}, {"e", 5, 1}, {"f", 6, 1}}
	if !res.Finished || !slices.Equal(res.Standings, want) || res.Left != nil {
		t.Fatalf("result %+v\nwant %v", res, want)
	}
}

func TestPlacesSoFarR5(t *testing.T) { // rule R5: not over while two are left
	res, err := Places([]PlayerID{"a", "b", "c"}, [][]Elimination{{{"b", 10}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Finished || !slices.Equal(res.Left, []PlayerID{"a", "c"}) || !slices.Equal(res.Standings, []Standing{{"b", 3, 1}}) {
		t.Fatalf("result %+v", res)
	}
}

func TestPlacesHandForHandRoundR7(t *testing.T) { // rule R7: one hand-for-hand round is one group
	field := []PlayerID{"a", "b", "c", "d", "e"}
	// Two tables in one hand-for-hand round: c and d busted at different tables; d had more.
	res, err := Places(field, [][]Elimination{{{"c", 1200}, {"d", 4000}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Standings, []Standing{{"d", 4, 1}, {"c", 5, 1}}) {
		t.Fatalf("standings %v", res.Standings)
	}
}

func TestPlacesRefusesR5(t *testing.T) { // rule R5
	field := []PlayerID{"a", "b", "c"}
	cases := []struct {
		name  string
		field []PlayerID
		busts [][]Elimination
	}{
		{"everyone busted in one hand", field, [][]Elimination{{{"a", 1}, {"b", 1}, {"c", 1}}}},
		{"busted twice", field, [][]Elimination{{{"a", 1}}, {{"a", 1}}}},
		{"not entered", field, [][]Elimination{{{"z", 1}}}},
		{"after the end", field, [][]Elimination{{{"a", 1}}, {{"b", 1}}, {{"c", 1}}}},
		{"entered twice", []PlayerID{"a", "a"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Places(c.field, c.busts)
			wantRule(t, err, "R5")
		})
	}
}

func TestAwardPrizesSharedR7R6(t *testing.T) { // rules R7, R6: shared places split their prizes exactly
	standings := []Standing{{"a", 1, 1}, {"b", 2, 3}, {"c", 2, 3}, {"d", 2, 3}, {"e", 5, 2}, {"f", 5, 2}, {"g", 7, 1}}
	prizes := []int64{5000, 2000, 1000, 701, 300} // places 2-4 share 3701; 5-6 share 300 (6th unpaid)
	awards := AwardPrizes(standings, prizes, 1)
	var got []int64
	var sum int64
	for _, a := range awards {
		got = append(got, a.Prize)
		sum += a.Prize
	}
	if want := []int64{5000, 1234, 1234, 1233, 150, 150, 0}; !slices.Equal(got, want) {
		t.Fatalf("awards %v, want %v", got, want)
	}
	if sum != 9001 {
		t.Fatalf("awards add up to %d, prizes to 9001", sum)
	}
	// In whole units of 100: 3,700 over three is 1,200 each and one unit of 100 to the first listed.
	awards = AwardPrizes(standings[:4], []int64{5000, 2000, 1000, 700}, 100)
	if awards[1].Prize != 1300 || awards[2].Prize != 1200 || awards[3].Prize != 1200 {
		t.Fatalf("awards %+v", awards)
	}
}

func TestHandForHandR7(t *testing.T) { // rule R7
	cases := []struct {
		left, paid, before int
		want               bool
	}{
		{11, 10, 1, true}, {12, 10, 1, false}, {10, 10, 1, false}, {12, 10, 2, true},
		{11, 10, 0, true}, {25, 18, 9, true}, {28, 18, 9, false}, {18, 18, 9, false},
	}
	for _, c := range cases {
		if got := HandForHand(c.left, c.paid, c.before); got != c.want {
			t.Errorf("HandForHand(%d, %d, %d) = %v, want %v", c.left, c.paid, c.before, got, c.want)
		}
	}
}
