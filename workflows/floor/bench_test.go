package floor

import "testing"

// benchTables is 10,000 full tables of 9 seats, the big blinds spread: the floor as it stands in a
// field of 90,000 once balancing and breaking have kept up.
func benchTables() []Table {
	n := make([]int, 10000)
	for i := range n {
		n[i] = 9
	}
	tables := tablesOf(9, n...)
	for i := range tables {
		tables[i].BigBlind = Seat(1 + i%9)
	}
	return tables
}

// BenchmarkPlanTablesBalance10000: a table lost two players; one balancing move (R3).
func BenchmarkPlanTablesBalance10000(b *testing.B) {
	tables := benchTables()
	tables[5001].Seats[0], tables[5001].Seats[1] = "", ""
	b.ReportAllocs()
	for b.Loop() {
		plan, err := PlanTables(tables, Policy{}, nil)
		if err != nil || len(plan.Moves) != 1 {
			b.Fatalf("plan %+v, %v", plan, err)
		}
	}
}

// BenchmarkPlanTablesBreak10000: nine free seats gather; the last table of 8 breaks (R4) and its
// players are drawn into them.
func BenchmarkPlanTablesBreak10000(b *testing.B) {
	tables := benchTables()
	for i := 9990; i < 10000; i++ { // ten tables of 8: ten free seats
		tables[i].Seats[8] = ""
	}
	r := NewSeededReader(1)
	b.ReportAllocs()
	for b.Loop() {
		plan, err := PlanTables(tables, Policy{}, r)
		if err != nil || len(plan.Broken) != 1 || len(plan.Moves) != 8 {
			b.Fatalf("plan %+v, %v", plan, err)
		}
	}
}

// BenchmarkPlanTablesNothing10000: the common case after a hand: nothing to do.
func BenchmarkPlanTablesNothing10000(b *testing.B) {
	tables := benchTables()
	b.ReportAllocs()
	for b.Loop() {
		if plan, err := PlanTables(tables, Policy{}, nil); err != nil || len(plan.Moves) != 0 {
			b.Fatalf("plan %+v, %v", plan, err)
		}
	}
}

// BenchmarkPlanTablesBubbleRound10000: a hand-for-hand round busts one player at each of 1,000
// tables at once: 1,000 free seats, so about a hundred tables break and the rest balance.
func BenchmarkPlanTablesBubbleRound10000(b *testing.B) {
	tables := benchTables()
	for i := 0; i < 10000; i += 10 {
		tables[i].Seats[4] = ""
	}
	r := NewSeededReader(1)
	b.ReportAllocs()
	for b.Loop() {
		plan, err := PlanTables(tables, Policy{}, r)
		if err != nil || len(plan.Broken) < 100 {
			b.Fatalf("plan of %d breaks, %v", len(plan.Broken), err)
		}
	}
}
