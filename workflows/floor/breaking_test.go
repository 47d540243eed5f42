package floor

import (
	"fmt"
	"slices"
	"testing"
)

func TestTableToBreakR4(t *testing.T) { // rule R4
	cases := []struct {
		name   string
		tables []Table
		want   TableID
		ok     bool
	}{
		{"free seats elsewhere take the short table", tablesOf(10, 9, 9, 2), 3, true},
		{"one seat short: no break", tablesOf(10, 9, 9, 3), 0, false},
		{"ties: the highest table number breaks", tablesOf(10, 5, 5), 2, true},
		{"final table forms when everyone fits at one", tablesOf(9, 5, 4), 2, true},
		{"ten do not fit at one table of nine", tablesOf(9, 5, 5), 0, false},
		{"fewest players breaks, not the last", tablesOf(9, 3, 8, 4, 8), 1, true},
		{"one table never breaks", tablesOf(9, 2), 0, false},
		{"empty tables are closed already", tablesOf(9, 0, 9, 9), 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, err := TableToBreak(c.tables)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || ok != c.ok {
				t.Fatalf("TableToBreak = %d, %v; want %d, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestBreakTableR4B7(t *testing.T) { // rules R4, B7
	tables := tablesOf(10, 7, 7, 7, 3)
	plan, err := BreakTable(tables, 4, NewSeededReader(5))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Broken, []TableID{4}) || len(plan.Moves) != 3 {
		t.Fatalf("plan %+v", plan)
	}
	after, err := ApplyPlan(tables, plan)
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(after); !slices.Equal(got, []int{8, 8, 8}) {
		t.Fatalf("counts after the break %v, want the drawn seats spread evenly", got)
	}
	again, _ := BreakTable(tables, 4, NewSeededReader(5))
	if !slices.Equal(plan.Moves, again.Moves) {
		t.Fatal("the same seed drew two breaks")
	}
	_, err = BreakTable(tablesOf(10, 9, 9, 3), 3, NewSeededReader(5))
	wantRule(t, err, "R4")
	_, err = BreakTable(tablesOf(10, 9, 9, 3), 7, NewSeededReader(5))
	wantRule(t, err, "R4")
}

func TestBreakTableDrawIsRandomR4(t *testing.T) { // rule R4: drawn at random into the free seats
	tables := []Table{seats(1, "abcd..", 1), seats(2, "abcd..", 1), seats(3, "ab....", 1)}
	landed := map[string]int{}
	r := NewSeededReader(9)
	const draws = 4000
	for range draws {
		plan, err := BreakTable(tables, 3, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range plan.Moves {
			landed[fmt.Sprintf("%s->%d/%d", m.Player, m.To, m.ToSeat)]++
		}
	}
	// Each of 3a and 3b goes to table 1 or 2 (one each) and to seat 5 or 6 there: 4 outcomes each.
	if len(landed) != 8 {
		t.Fatalf("outcomes %v", landed)
	}
	for k, n := range landed {
		if n < draws/4-250 || n > draws/4+250 {
			t.Errorf("%s %d times of %d", k, n, draws)
		}
	}
}

func TestPlanTablesBreaksThenBalancesR3R4(t *testing.T) { // rules R3, R4
	// Three tables of 10: 9, 9, 2. Table 3 breaks into the two free seats.
	tables := tablesOf(10, 9, 9, 2)
	plan, err := PlanTables(tables, Policy{}, NewSeededReader(1))
	if err != nil {
		t.Fatal(err)
	}
	after, err := ApplyPlan(tables, plan)
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(after); !slices.Equal(got, []int{10, 10}) {
		t.Fatalf("counts %v", got)
	}
	// Nothing to do: the reader is not read.
	plan, err = PlanTables(tablesOf(10, 9, 8, 9), Policy{}, nil)
	if err != nil || len(plan.Moves) != 0 {
		t.Fatalf("plan %+v, %v", plan, err)
	}
}

func TestPlanTablesClosesEmptyTablesR4(t *testing.T) { // rule R4: an empty table is closed
	tables := tablesOf(9, 8, 0, 8, 0)
	plan, err := PlanTables(tables, Policy{}, nil)
	if err != nil || !slices.Equal(plan.Broken, []TableID{2, 4}) || len(plan.Moves) != 0 {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	after, err := ApplyPlan(tables, plan)
	if err != nil || len(after) != 2 {
		t.Fatalf("tables %v, %v", after, err)
	}
}
