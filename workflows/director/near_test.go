package director

import (
	"fmt"
	"testing"
)

// TestNearFollowsTheTablesInPlay (PlanNearFollowsTables): a tournament of sections without
// barriers is near the rounds by the tables it has in play now. Come near on many short tables,
// it tells its sections it is near no longer once the floor has broken enough of them that the
// field is above three and a half times the rounds' margin again (their tables back to the
// approach's batches), and near again at three times the fewer tables' margin; in between it
// tells nothing (no table told back and forth). Before the plan the approach stayed near until
// the rounds, whatever the tables; a field with barriers keeps that too.
func TestNearFollowsTheTablesInPlay(t *testing.T) { // rule R7
	type step struct {
		left, tables int
		want         bool
	}
	// 60 entries in 3 sections, 9 paid (15 %), hand-for-hand from 1 before the money: the rounds
	// at 9+1+tables+2 left, near at 9+1+3*tables+4, near no longer above 9+1+3.5*tables+4.
	steps := []step{
		{left: 40, tables: 7, want: false}, // 40 > 35
		{left: 35, tables: 7, want: true},  // 35 <= 35
		{left: 35, tables: 6, want: true},  // 35 <= 14+21+0: still within 3.5 times
		{left: 34, tables: 5, want: false}, // 34 > 14+15+2
		{left: 31, tables: 5, want: false}, // 31 > 14+15
		{left: 29, tables: 5, want: true},  // 29 <= 29
		{left: 29, tables: 5, want: true},
	}
	play := func(t *testing.T, plan int, horizon int64, steps []step) {
		top := quietTop(t)
		top.Plan, top.Horizon = plan, horizon
		top.Spec.HandForHandBefore = 1
		top.Payouts.Prizes = make([]int64, 9)
		top.HandForHand.Approach = true
		for i, s := range steps {
			top.Left = s.left
			for k := range top.Sections {
				top.Sections[k].Last.Tables = 0
			}
			for k := 0; k < s.tables; k++ {
				top.Sections[k%len(top.Sections)].Last.Tables++
			}
			was := top.HandForHand.Near
			for k := range top.Sections {
				top.Sections[k].Orders.Take()
			}
			top.approachBubble(func(int) bool { return false })
			if got := top.HandForHand.Near; got != s.want {
				t.Fatalf("step %d, %d left on %d tables: near %v, want %v", i, s.left, s.tables, got, s.want)
			}
			for k := range top.Sections {
				var told []bool
				for _, m := range top.Sections[k].Orders.Take() {
					if m.Msg.Near != nil {
						told = append(told, *m.Msg.Near)
					}
				}
				if want := fmt.Sprint([]bool{s.want}); was != s.want && fmt.Sprint(told) != want || was == s.want && len(told) != 0 {
					t.Fatalf("step %d: section %d told near %v, near went from %v to %v", i, k+1, told, was, s.want)
				}
			}
		}
	}
	t.Run("now", func(t *testing.T) { play(t, PlanLatest, 0, steps) })
	sticky := []step{{40, 7, false}, {35, 7, true}, {35, 6, true}, {34, 5, true}, {31, 5, true}, {29, 5, true}}
	t.Run("before the plan", func(t *testing.T) { play(t, PlanNearFollowsTables-1, 0, sticky) })
	t.Run("with barriers", func(t *testing.T) { play(t, PlanLatest, 20, sticky) })
}
