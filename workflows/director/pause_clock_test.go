package director

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSimulationClockStandsWhilePaused: a simulation's clock is the median of the hands its open
// tables have told. Paused, it counts the hands dealt before the pause, which the tables tell as
// their hands end (Stopping, the level may still move on); once every table has told, it stands
// there until the resume (B3), as a live clock does. Before, it moved on when the median did
// while paused: a table broken during the pause took its hands out of the median, and the level
// the director had read (the add-on level of a simulation, R1) was over when he acted in it
// (TestDirectorToolsEndToEnd once: an add-on at level 7 refused in 'period -1').
func TestSimulationClockStandsWhilePaused(t *testing.T) { // rules B3, R1, R4
	spec := simSpec(45)
	spec.Batch = 1
	spec.Rebuys, spec.RebuyLevel = 1, 6 // turbo's first break is after level 6
	spec.AddOn = &floor.AddOn{Chips: 5000, PriceCents: 1000}
	// levelWithout is the level the clock would say with table id's hands out of the median.
	levelWithout := func(s *TournamentState, id floor.TableID) int {
		c := *s
		c.Tables = nil
		for _, tb := range s.Tables {
			if tb.ID != id {
				c.Tables = append(c.Tables, tb)
			}
		}
		c.Paused, c.Stood = false, false
		return c.Level(simStart)
	}
	// breakable is an open table the free seats at the others can take now (R4) whose hands, out
	// of the median, end the level.
	breakable := func(f *floorSim) floor.TableID {
		open := f.s.openTables()
		for i, ft := range open {
			free := 0
			for k, o := range open {
				if k != i {
					free += o.Size() - o.Players()
				}
			}
			if len(open) > 1 && free >= ft.Players() && levelWithout(f.s, ft.ID) != f.s.Level(f.now) {
				return ft.ID
			}
		}
		return 0
	}
	var f *floorSim
	var target floor.TableID
	for seed := uint64(1); target == 0; seed++ {
		if seed > 30 {
			t.Fatal("no seed of 30 had a table to break whose hands end the level")
		}
		f = newFloorSim(t, spec, seed)
		f.s.Step(f.now)
		f.flush()
		for k := 0; k < 20000 && !f.s.Finished && f.s.OpenTables() > 1 && target == 0; k++ {
			f.once()
			f.s.Tick(f.now) // as the workflow does after every step
			if breakable(f) == 0 {
				continue
			}
			// Pause; the tables stop after their hand and tell the hands they dealt before.
			f.s.Clock(ClockRequest{Kind: floor.ClockPause, By: "td", Key: "pause-" + f.now.String()}, f.now)
			f.flush()
			if !f.s.Stopping() || !f.s.Progress(f.now).Stopping {
				t.Fatalf("paused with orders unacknowledged, the clock is not stopping: %+v", f.s.Progress(f.now))
			}
			for j := 0; f.s.Stopping(); j++ {
				if j == 1000 {
					t.Fatal("the tables did not stop")
				}
				f.once()
				f.s.Tick(f.now)
			}
			if target = breakable(f); target == 0 {
				f.s.Clock(ClockRequest{Kind: floor.ClockResume, By: "td", Key: "resume-" + f.now.String()}, f.now)
				f.flush()
			}
		}
	}
	level := f.s.Level(f.now)
	if p := f.s.Progress(f.now); p.Stopping || p.Level != level || !p.Paused {
		t.Fatalf("stopped: progress %+v, the clock at level %d", p, level)
	}
	f.s.BreakTable(BreakRequest{Table: target, By: "td", Reason: "the shuffler is broken"})
	f.s.Step(f.now)
	f.flush()
	for k := 0; !f.s.Table(target).Closed; k++ {
		if k == 1000 {
			tb := f.s.Table(target)
			t.Fatalf("table %d did not break while paused: %+v; breaks %+v; moves pending %v", target, *tb, f.s.Tools.Breaks, f.s.MovesPending())
		}
		f.once()
		f.s.Tick(f.now)
	}
	if l, p := f.s.Level(f.now), f.s.Progress(f.now); l != level || p.Level != level {
		t.Errorf("paused at level %d, table %d broken: the clock says level %d (progress %d)", level, target, l, p.Level)
	}
	f.s.Clock(ClockRequest{Kind: floor.ClockResume, By: "td"}, f.now)
	f.flush()
	if l := f.s.Level(f.now); l == level {
		t.Errorf("resumed, the clock still says level %d: the median without table %d is in another", l, target)
	}
}
