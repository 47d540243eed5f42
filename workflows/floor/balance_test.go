package floor

import (
	"fmt"
	"slices"
	"testing"
)

func counts(tables []Table) []int {
	c := make([]int, len(tables))
	for i, t := range tables {
		c[i] = t.Players()
	}
	return c
}

// tablesOf builds tables of size seats holding the given numbers of players in the first seats,
// the last big blind in seat 1.
func tablesOf(size int, players ...int) []Table {
	tables := make([]Table, len(players))
	for i, n := range players {
		t := Table{ID: TableID(i + 1), Seats: make([]PlayerID, size), BigBlind: 1, Button: Seat(size)}
		for s := 0; s < n; s++ {
			t.Seats[s] = PlayerID(fmt.Sprintf("t%d-s%d", i+1, s+1))
		}
		tables[i] = t
	}
	return tables
}

func TestBalanceTablesR3(t *testing.T) { // rule R3
	cases := []struct {
		name      string
		threshold int
		tables    []Table
		moves     []Move
	}{
		{"two more: one move", 0, []Table{seats(1, "abcdefghi", 3), seats(2, "abcdefg..", 7)}, []Move{
			{Player: "1d", From: 1, FromSeat: 4, To: 2, ToSeat: 8, Reason: MoveBalance},
		}},
		{"one more: no move", 2, []Table{seats(1, "abcdefghi", 3), seats(2, "abcdefgh.", 7)}, nil},
		{"policy 3: two more waits", 3, []Table{seats(1, "abcdefghi", 3), seats(2, "abcdefg..", 7)}, nil},
		{"policy 3: three more moves", 3, []Table{seats(1, "abcdefghi", 9), seats(2, "a.c.e.g.i", 5)}, []Move{
			{Player: "1a", From: 1, FromSeat: 1, To: 2, ToSeat: 6, Reason: MoveBalance},
		}},
		{"never the small blind: the busted big blind's seat is skipped", 2,
			[]Table{seats(1, "abcdefghi", 1), seats(2, "ab.defgh.", 3)}, []Move{
				{Player: "1b", From: 1, FromSeat: 2, To: 2, ToSeat: 9, Reason: MoveBalance},
			}},
		{"two moves from one table take the next two big blinds", 2,
			[]Table{seats(1, "abcdefghij", 5), seats(2, "abcdefghij", 2), seats(3, "abcdef....", 6)}, []Move{
				{Player: "1f", From: 1, FromSeat: 6, To: 3, ToSeat: 7, Reason: MoveBalance},
				{Player: "2c", From: 2, FromSeat: 3, To: 3, ToSeat: 8, Reason: MoveBalance},
			}},
		{"ties: lowest table number gives and receives", 2,
			[]Table{seats(1, "abcdefg..", 1), seats(2, "abcdefghi", 1), seats(3, "abcdefghi", 1), seats(4, "abcdefg..", 1)}, []Move{
				{Player: "2b", From: 2, FromSeat: 2, To: 1, ToSeat: 8, Reason: MoveBalance},
				{Player: "3b", From: 3, FromSeat: 2, To: 4, ToSeat: 8, Reason: MoveBalance},
			}},
		{"input out of table order", 2,
			[]Table{seats(4, "abcdefg..", 1), seats(3, "abcdefghi", 1), seats(2, "abcdefghi", 1), seats(1, "abcdefg..", 1)}, []Move{
				{Player: "2b", From: 2, FromSeat: 2, To: 1, ToSeat: 8, Reason: MoveBalance},
				{Player: "3b", From: 3, FromSeat: 2, To: 4, ToSeat: 8, Reason: MoveBalance},
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, err := BalanceTables(c.tables, Policy{BalanceThreshold: c.threshold})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plan.Moves, c.moves) {
				t.Fatalf("moves %+v\nwant %+v", plan.Moves, c.moves)
			}
			after, err := ApplyPlan(c.tables, plan)
			if err != nil {
				t.Fatal(err)
			}
			th := max(c.threshold, 2)
			if n := counts(after); slices.Max(n)-slices.Min(n) >= th {
				t.Fatalf("after the plan the counts are %v", n)
			}
		})
	}
}

// minMoves is the slow, obviously correct twin of BalanceTables's move count: a breadth-first
// search over count vectors, one player moved a step.
func minMoves(start []int, size, threshold int) int {
	key := func(c []int) string { return fmt.Sprint(c) }
	balanced := func(c []int) bool { return slices.Max(c)-slices.Min(c) < threshold }
	seen := map[string]bool{key(start): true}
	frontier := [][]int{start}
	for depth := 0; ; depth++ {
		var next [][]int
		for _, c := range frontier {
			if balanced(c) {
				return depth
			}
			for i := range c {
				for j := range c {
					if i == j || c[i] <= 1 || c[j] >= size {
						continue
					}
					d := slices.Clone(c)
					d[i]--
					d[j]++
					if k := key(d); !seen[k] {
						seen[k] = true
						next = append(next, d)
					}
				}
			}
		}
		frontier = next
	}
}

func TestBalanceTablesFewestMovesR3(t *testing.T) { // rule R3: as few moves as possible
	r := NewSeededReader(3)
	for trial := 0; trial < 300; trial++ {
		ntables := 2 + trial%3
		n := make([]int, ntables)
		for i := range n {
			k, _ := uniformInt(r, 9)
			n[i] = 2 + k
		}
		for _, th := range []int{2, 3} {
			plan, err := BalanceTables(tablesOf(10, n...), Policy{BalanceThreshold: th})
			if err != nil {
				t.Fatal(err)
			}
			if want := minMoves(n, 10, th); len(plan.Moves) != want {
				t.Fatalf("counts %v threshold %d: %d moves, the fewest is %d", n, th, len(plan.Moves), want)
			}
		}
	}
}

func TestBalanceTablesUnbalancedR3(t *testing.T) { // rule R3: a full short table cannot receive
	tables := []Table{seats(1, "abcdefghi.", 1), seats(2, "abc", 1)}
	plan, err := BalanceTables(tables, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Unbalanced || len(plan.Moves) != 0 {
		t.Fatalf("plan %+v, want unbalanced with no move", plan)
	}
}

// TestBalanceTablesMixedSizesNarrowR3: when the emptiest table is a full short one, the floor still
// balances the others (rule R3: the spread that a move can narrow is narrowed).
func TestBalanceTablesMixedSizesNarrowR3(t *testing.T) { // rule R3
	tests := []struct {
		name   string
		tables []Table
		want   []int
	}{
		{"full 6-max, 9 and 7 at 9-max", []Table{seats(1, "abcdef", 1), seats(2, "ABCDEFGHI", 1), seats(3, "klmnopq..", 1)}, []int{6, 8, 8}},
		{"full 4-max, 10 and 6 at 10-max", []Table{seats(1, "abcd", 1), seats(2, "ABCDEFGHIJ", 1), seats(3, "klmnop....", 1)}, []int{4, 8, 8}},
		{"full 3-max, 9, 9 and 5", []Table{seats(1, "abc", 1), seats(2, "ABCDEFGHI", 1), seats(3, "KLMNOPQRS", 1), seats(4, "vwxyz....", 1)}, []int{3, 8, 8, 7}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := BalanceTables(tc.tables, Policy{})
			if err != nil {
				t.Fatal(err)
			}
			after, err := ApplyPlan(tc.tables, plan)
			if err != nil {
				t.Fatal(err)
			}
			if got := counts(after); !slices.Equal(got, tc.want) || !plan.Unbalanced {
				t.Fatalf("counts %v unbalanced %v after %d moves, want %v and unbalanced (the full short table)", got, plan.Unbalanced, len(plan.Moves), tc.want)
			}
			for _, m := range plan.Moves {
				if m.From == 1 || m.To == 1 {
					t.Errorf("move %+v touches the full short table", m)
				}
			}
		})
	}
}

func TestBalancePolicyR3(t *testing.T) { // rule R3: the threshold is 2 or 3
	_, err := BalanceTables(tablesOf(9, 9, 9), Policy{BalanceThreshold: 4})
	wantRule(t, err, "R3")
	_, err = BalanceTables([]Table{seats(1, "abc", 1), seats(1, "abc", 1)}, Policy{})
	wantRule(t, err, "R3")
	_, err = BalanceTables([]Table{seats(1, "abc", 0)}, Policy{})
	wantRule(t, err, "B5")
	_, err = BalanceTables([]Table{seats(1, "abcdefghijk", 1)}, Policy{})
	wantRule(t, err, "T1")
}

func TestTablesToHold(t *testing.T) { // rule R3: tables short by 3 or more wait
	tables := tablesOf(10, 9, 6, 7, 0, 5, 9)
	if got, want := TablesToHold(tables), []TableID{2, 5}; !slices.Equal(got, want) {
		t.Fatalf("TablesToHold = %v, want %v", got, want)
	}
}

func TestVerifyMoveR3R4(t *testing.T) { // rules R3, R4
	from := seats(1, "abcdefghi", 3)
	to := seats(2, "abc.e.g..", 3)
	cases := []struct {
		name string
		m    Move
		rule string
	}{
		{"legal balancing move", Move{"1d", 1, 4, 2, 4, MoveBalance}, ""},
		{"not the next big blind", Move{"1e", 1, 5, 2, 4, MoveBalance}, "R3"},
		{"not the seat left of the big blind", Move{"1d", 1, 4, 2, 6, MoveBalance}, "R3"},
		{"seat taken", Move{"1d", 1, 4, 2, 5, MoveDirector}, "R3"},
		{"player not there", Move{"1x", 1, 4, 2, 4, MoveBalance}, "R3"},
		{"break move into any free seat", Move{"1e", 1, 5, 2, 9, MoveBreak}, ""},
		{"break move to a seat that does not exist", Move{"1e", 1, 5, 2, 10, MoveBreak}, "R4"},
		{"same table", Move{"1d", 1, 4, 1, 4, MoveDirector}, "R3"},
		{"unknown reason", Move{"1d", 1, 4, 2, 4, "whim"}, "R3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			to := to
			if c.m.To == 1 {
				to = from
			}
			err := VerifyMove(from, to, c.m)
			if c.rule == "" {
				if err != nil || !CanMove(from, to, c.m) {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantRule(t, err, c.rule)
		})
	}
}

func TestApplyPlanRefusesR3R4(t *testing.T) { // rules R3, R4
	tables := []Table{seats(1, "abcdefghi", 3), seats(2, "abcdefg..", 7)}
	_, err := ApplyPlan(tables, Plan{Moves: []Move{{"1d", 1, 4, 3, 1, MoveBalance}}})
	wantRule(t, err, "R3")
	_, err = ApplyPlan(tables, Plan{Broken: []TableID{2}})
	wantRule(t, err, "R4")
	_, err = ApplyPlan(tables, Plan{Broken: []TableID{5}})
	wantRule(t, err, "R4")
	// The input is never changed.
	before := fmt.Sprint(tables)
	if _, err := ApplyPlan(tables, Plan{Moves: []Move{{"1d", 1, 4, 2, 8, MoveBalance}}}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(tables) != before {
		t.Fatal("ApplyPlan changed its input")
	}
}
