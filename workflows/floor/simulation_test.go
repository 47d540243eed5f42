package floor

import (
	"fmt"
	"io"
	"slices"
	"testing"
)

// floorSim plays a tournament's table changes: players busted at random, the odd hand dealt to
// move the blinds, and after every step the floor's plan applied and checked.
type floorSim struct {
	t         *testing.T
	tables    []Table
	chips     map[PlayerID]int64
	total     int64
	threshold int
	r         io.Reader
	steps     int
	balanced  int // balancing moves made
	broken    int // tables broken
}

func newFloorSim(t *testing.T, players, tableSize, threshold int, seed uint64) *floorSim {
	r := NewSeededReader(seed)
	tables, err := DrawSeats(playerIDs(players), tableSize, r)
	if err != nil {
		t.Fatal(err)
	}
	s := &floorSim{t: t, tables: tables, chips: map[PlayerID]int64{}, threshold: threshold, r: r}
	for _, p := range playerIDs(players) {
		s.chips[p] = 10000
		s.total += 10000
	}
	return s
}

func (s *floorSim) draw(n int) int {
	k, err := uniformInt(s.r, n)
	if err != nil {
		s.t.Fatal(err)
	}
	return k
}

// dealHand moves table i's blinds on one hand (B5, dead button: the big blind always advances).
func (s *floorSim) dealHand(i int) {
	t := &s.tables[i]
	t.BigBlind = NextBigBlindSeat(*t)
}

// bust eliminates a random player; his chips go to another player at his table.
func (s *floorSim) bust() {
	var left []PlayerID
	for _, t := range s.tables {
		for _, p := range t.Seats {
			if p != "" {
				left = append(left, p)
			}
		}
	}
	victim := left[s.draw(len(left))]
	for i := range s.tables {
		t := &s.tables[i]
		k := slices.Index(t.Seats, victim)
		if k < 0 {
			continue
		}
		t.Seats = slices.Clone(t.Seats)
		t.Seats[k] = ""
		winner := PlayerID("")
		if t.Players() > 0 {
			others := slices.DeleteFunc(slices.Clone(t.Seats), func(p PlayerID) bool { return p == "" })
			winner = others[s.draw(len(others))]
		} else {
			winner = left[(slices.Index(left, victim)+1)%len(left)]
		}
		s.chips[winner] += s.chips[victim]
		delete(s.chips, victim)
		return
	}
}

// step is one elimination and the floor's answer to it, every move checked on the way.
func (s *floorSim) step() {
	s.steps++
	for range s.draw(4) {
		s.dealHand(s.draw(len(s.tables)))
	}
	s.bust()
	plan, err := PlanTables(s.tables, Policy{BalanceThreshold: s.threshold}, s.r)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, m := range plan.Moves {
		if m.Reason == MoveBalance {
			s.balanced++
			from := s.tables[slices.IndexFunc(s.tables, func(t Table) bool { return t.ID == m.From })]
			to := s.tables[slices.IndexFunc(s.tables, func(t Table) bool { return t.ID == m.To })]
			if m.FromSeat != NextBigBlindSeat(from) { // rule R3: the player due the big blind moves
				s.t.Fatalf("step %d: %s moved from seat %d, the next big blind is seat %d", s.steps, m.Player, m.FromSeat, NextBigBlindSeat(from))
			}
			if m.ToSeat == to.BigBlind || m.ToSeat != BalanceSeat(to) { // rule R3: never the small blind
				s.t.Fatalf("step %d: %s seated in %d at table %d (last big blind %d)", s.steps, m.Player, m.ToSeat, to.ID, to.BigBlind)
			}
		}
		if s.tables, err = ApplyPlan(s.tables, Plan{Moves: []Move{m}}); err != nil {
			s.t.Fatalf("step %d: %v", s.steps, err)
		}
	}
	if s.tables, err = ApplyPlan(s.tables, Plan{Broken: plan.Broken}); err != nil {
		s.t.Fatalf("step %d: %v", s.steps, err)
	}
	s.broken += len(plan.Broken)
	s.check()
}

func (s *floorSim) check() {
	n := counts(s.tables)
	if slices.Max(n)-slices.Min(n) >= s.threshold { // rule R3
		s.t.Fatalf("step %d: counts %v differ by the threshold %d", s.steps, n, s.threshold)
	}
	if len(s.tables) > 1 && slices.Min(n) <= 1 {
		s.t.Fatalf("step %d: a table of one: %v", s.steps, n)
	}
	seen := map[PlayerID]bool{}
	var sum int64
	for _, t := range s.tables {
		for _, p := range t.Seats {
			if p == "" {
				continue
			}
			if seen[p] {
				s.t.Fatalf("step %d: %s seated twice", s.steps, p)
			}
			seen[p] = true
			sum += s.chips[p]
		}
	}
	if len(seen) != len(s.chips) {
		s.t.Fatalf("step %d: %d seated, %d left in", s.steps, len(seen), len(s.chips))
	}
	if sum != s.total {
		s.t.Fatalf("step %d: %d chips on the tables, %d in the tournament", s.steps, sum, s.total)
	}
	// R4: no table is left that the others could take.
	if _, ok, _ := TableToBreak(s.tables); ok {
		s.t.Fatalf("step %d: a table should have broken: %v", s.steps, n)
	}
}

func TestSimulation10PlayersTwoTablesR3R4(t *testing.T) { // rules R3, R4
	for seed := uint64(1); seed <= 60; seed++ {
		size := []int{6, 8, 9}[seed%3] // 5 and 5 at two tables
		s := newFloorSim(t, 10, size, 2, seed)
		if len(s.tables) != 2 {
			t.Fatalf("%d tables", len(s.tables))
		}
		for len(s.chips) > 2 {
			s.step()
		}
		if len(s.tables) != 1 {
			t.Fatalf("seed %d: %d tables for the last two players", seed, len(s.tables))
		}
	}
}

func TestSimulation1000Players112TablesR3R4(t *testing.T) { // rules R3, R4
	for _, th := range []int{2, 3} {
		t.Run(fmt.Sprintf("threshold_%d", th), func(t *testing.T) {
			s := newFloorSim(t, 1000, 9, th, uint64(th))
			if len(s.tables) != 112 {
				t.Fatalf("%d tables", len(s.tables))
			}
			finalAt := 0
			for len(s.chips) > 1 {
				s.step()
				if len(s.tables) == 1 && finalAt == 0 {
					finalAt = len(s.chips)
				}
			}
			if finalAt != 9 { // the final table forms when everyone fits at one table (R4)
				t.Fatalf("final table formed with %d players, want 9", finalAt)
			}
			if s.broken != 111 || s.balanced == 0 {
				t.Fatalf("%d tables broken, %d balancing moves", s.broken, s.balanced)
			}
			t.Logf("threshold %d: %d steps, %d tables broken, %d balancing moves", th, s.steps, s.broken, s.balanced)
		})
	}
}
