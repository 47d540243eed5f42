package floor

import (
	"math/rand/v2"
	"testing"
)

// TestPlanSectionsBalancesTheWholeField: once every section has made the plan's transfers and
// balanced and broken its own tables, the whole field holds rules R3 (no table two players more
// than another) and R4 (no table left that the others' free seats could take).
func TestPlanSectionsBalancesTheWholeField(t *testing.T) { // rules R3, R4
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		size := 2 + rng.IntN(9)
		n := 1 + rng.IntN(8)
		var sections []SectionCount
		for i := range n {
			tables := rng.IntN(30)
			players := 0
			if tables > 0 {
				players = rng.IntN(tables*size + 1)
			}
			sections = append(sections, SectionCount{ID: 10 + i, Players: players, Tables: tables})
		}
		plan, err := PlanSections(sections, size)
		if err != nil {
			t.Fatal(err)
		}
		after := map[int]int{}
		total := 0
		for _, s := range sections {
			after[s.ID] = s.Players
			total += s.Players
		}
		for _, tr := range plan.Transfers {
			if tr.Players <= 0 || tr.From == tr.To {
				t.Fatalf("trial %d: transfer %+v", trial, tr)
			}
			after[tr.From] -= tr.Players
			after[tr.To] += tr.Players
		}
		tables, smallest, largest := 0, size+1, -1
		for i, s := range sections {
			p, k := after[s.ID], plan.Tables[i]
			if p < 0 || k > s.Tables {
				t.Fatalf("trial %d: section %d ends with %d players at %d tables (had %d)", trial, s.ID, p, k, s.Tables)
			}
			if k == 0 {
				if p != 0 {
					t.Fatalf("trial %d: section %d keeps %d players and no table", trial, s.ID, p)
				}
				continue
			}
			tables += k
			// The section balances its own tables: sizes p/k and p/k+1.
			smallest, largest = min(smallest, p/k), max(largest, (p+k-1)/k)
			if p > k*size {
				t.Fatalf("trial %d: section %d: %d players at %d tables of %d", trial, s.ID, p, k, size)
			}
		}
		if total == 0 {
			continue
		}
		if largest-smallest > 1 {
			t.Fatalf("trial %d: tables of %d and %d players in the field (R3): %+v -> %+v", trial, smallest, largest, sections, plan)
		}
		if (tables-1)*size >= total {
			t.Fatalf("trial %d: %d tables for %d players of %d a table: one could break (R4)", trial, tables, total, size)
		}
	}
}

// TestPlanSectionsMergesTheSmallest: the tables to lose come from the smallest section, which
// closes and sends its players to the others.
func TestPlanSectionsMergesTheSmallest(t *testing.T) {
	plan, err := PlanSections([]SectionCount{{ID: 1, Players: 80, Tables: 10}, {ID: 2, Players: 10, Tables: 2}}, 9)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Closing) != 1 || plan.Closing[0] != 2 || len(plan.Transfers) != 1 || plan.Transfers[0] != (SectionTransfer{From: 2, To: 1, Players: 10}) {
		t.Fatalf("plan %+v: want section 2 closed, its 10 players moved to section 1", plan)
	}
	if _, err := PlanSections([]SectionCount{{ID: 1, Players: 30, Tables: 3}}, 9); err == nil {
		t.Fatal("30 players at 3 tables of 9 accepted")
	}
}
