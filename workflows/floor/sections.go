package floor

import (
	"cmp"
	"fmt"
	"slices"
)

// SectionCount is one section of a large field as the tournament sees it: a group of tables that
// balances and breaks its own (R3, R4), and the players seated at them.
type SectionCount struct {
	ID      int `json:"id"`
	Players int `json:"players"`
	Tables  int `json:"tables"`
}

// SectionTransfer moves Players players from section From to section To.
type SectionTransfer struct {
	From    int `json:"from"`
	To      int `json:"to"`
	Players int `json:"players"`
}

// SectionPlan is what the tournament orders between its sections: players moved from one to
// another, and the sections that lose every table (their players all go: sections merge as the
// field shrinks, down to one for the final tables).
type SectionPlan struct {
	Transfers []SectionTransfer `json:"transfers,omitempty"`
	Closing   []int             `json:"closing,omitempty"`
	// Tables is how many tables each section keeps (by the order of the sections given).
	Tables []int `json:"tables"`
}

// PlanSections keeps R3 and R4 for the whole field when each section balances and breaks only its
// own tables. The field of P players needs T = ceil(P/tableSize) tables (R4: a table breaks as soon
// as the free seats at the others can take its players); the tables to lose are taken from the
// sections with the fewest first, so that a small section empties and merges into the others.
// Then each section gets between floor(P/T) and ceil(P/T) players a table it keeps, so that once it
// has balanced its own tables no table in the field has two players more than another (R3).
// Players are moved only where a section is outside that range.
func PlanSections(sections []SectionCount, tableSize int) (SectionPlan, error) {
	if tableSize < 2 {
		return SectionPlan{}, fmt.Errorf("table size %d: a table has 2 to 10 seats (rule T1)", tableSize)
	}
	players, tables := 0, 0
	for _, s := range sections {
		if s.Players < 0 || s.Tables < 0 {
			return SectionPlan{}, fmt.Errorf("section %d counts %d players at %d tables: neither can be negative", s.ID, s.Players, s.Tables)
		}
		if s.Players > s.Tables*tableSize {
			return SectionPlan{}, fmt.Errorf("section %d seats %d players at %d tables of %d", s.ID, s.Players, s.Tables, tableSize)
		}
		players += s.Players
		tables += s.Tables
	}
	plan := SectionPlan{Tables: make([]int, len(sections))}
	for i, s := range sections {
		plan.Tables[i] = s.Tables
	}
	if players == 0 {
		return plan, nil
	}
	want := (players + tableSize - 1) / tableSize
	// Tables to lose: from the section with the fewest tables (then the highest ID), one at a time.
	for extra := tables - want; extra > 0; extra-- {
		k := -1
		for i, s := range sections {
			if plan.Tables[i] == 0 {
				continue
			}
			if k < 0 || plan.Tables[i] < plan.Tables[k] || plan.Tables[i] == plan.Tables[k] && s.ID > sections[k].ID {
				k = i
			}
		}
		plan.Tables[k]--
	}
	total := 0
	for _, n := range plan.Tables {
		total += n
	}
	lo, hi := players/total, (players+total-1)/total
	target := make([]int, len(sections))
	sum := 0
	for i, s := range sections {
		target[i] = min(max(s.Players, lo*plan.Tables[i]), hi*plan.Tables[i])
		sum += target[i]
	}
	// The clamped targets may not add up to the field: move the difference where there is room,
	// in section order.
	for i := 0; sum != players && i < len(sections); i++ {
		if sum > players {
			d := min(sum-players, target[i]-lo*plan.Tables[i])
			target[i] -= d
			sum -= d
		} else {
			d := min(players-sum, hi*plan.Tables[i]-target[i])
			target[i] += d
			sum += d
		}
	}
	type gap struct{ i, n int }
	var give, take []gap
	for i, s := range sections {
		switch d := s.Players - target[i]; {
		case d > 0:
			give = append(give, gap{i, d})
		case d < 0:
			take = append(take, gap{i, -d})
		}
		if plan.Tables[i] == 0 && s.Tables > 0 {
			plan.Closing = append(plan.Closing, s.ID)
		}
	}
	for len(give) > 0 && len(take) > 0 {
		n := min(give[0].n, take[0].n)
		plan.Transfers = append(plan.Transfers, SectionTransfer{From: sections[give[0].i].ID, To: sections[take[0].i].ID, Players: n})
		give[0].n -= n
		take[0].n -= n
		if give[0].n == 0 {
			give = give[1:]
		}
		if take[0].n == 0 {
			take = take[1:]
		}
	}
	slices.SortFunc(plan.Transfers, func(a, b SectionTransfer) int { return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To)) })
	return plan, nil
}

// PlaceGroup places one elimination group (one hand, or one hand-for-hand round) when left players
// were in before it (R5, R7): the group takes the worst places still free, the larger starting
// stack higher, equal stacks sharing places (listed by player ID). Places uses it for every group;
// a tournament of sections, which keeps no list of its field, uses it alone.
func PlaceGroup(left int, group []Elimination) ([]Standing, error) {
	if len(group) >= left {
		return nil, ruleErr("R5", "an elimination group busts all %d players left: one must win the hand", left)
	}
	g := slices.Clone(group)
	slices.SortFunc(g, func(a, b Elimination) int {
		return cmp.Or(cmp.Compare(b.Stack, a.Stack), cmp.Compare(a.Player, b.Player))
	})
	best := left - len(g) + 1
	placed := make([]Standing, 0, len(g))
	for i := 0; i < len(g); {
		j := i
		for j < len(g) && g[j].Stack == g[i].Stack {
			j++
		}
		for _, e := range g[i:j] {
			placed = append(placed, Standing{Player: e.Player, Place: best + i, Shared: j - i})
		}
		i = j
	}
	return placed, nil
}
