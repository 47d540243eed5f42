package director

import (
	"strings"
	"testing"
	"time"
)

// A simulation paced by the clock (TournamentSpec.Pace) shows the time to the next level as the
// hands left in it at that pace (B3: its levels go by hands); at full speed it shows none.
func TestPacedSimulationNextLevelIn(t *testing.T) {
	spec := simSpec(18)
	minutes := spec.Structure.Levels[0].Minutes
	for _, tc := range []struct {
		pace  time.Duration
		hands int64
		want  time.Duration
	}{
		{0, 0, 0},
		{time.Second, 0, time.Duration(minutes) * time.Second},
		{time.Second, 3, time.Duration(minutes-3) * time.Second},
		{250 * time.Millisecond, 2, time.Duration(minutes-2) * 250 * time.Millisecond},
	} {
		sp := spec
		sp.Pace = tc.pace
		s, err := NewTournamentState("t", sp, 1, simStart)
		if err != nil {
			t.Fatal(err)
		}
		s.SimHands = tc.hands
		p := s.Progress(simStart.Add(time.Hour)) // a simulation's clock is its hands, not the time
		if p.Level != 1 || p.NextLevelIn != tc.want {
			t.Errorf("pace %v after %d hands: level %d, next in %v; want level 1, next in %v", tc.pace, tc.hands, p.Level, p.NextLevelIn, tc.want)
		}
	}
}

// A pace is a simulation's: a tournament by the clock deals at its players' pace.
func TestPaceNeedsASimulation(t *testing.T) {
	for _, tc := range []struct {
		simulation bool
		pace       time.Duration
		ok         bool
	}{
		{true, time.Second, true},
		{true, 0, true},
		{false, time.Second, false},
		{true, -time.Second, false},
	} {
		spec := simSpec(18)
		spec.Simulation, spec.Pace = tc.simulation, tc.pace
		err := spec.Validate()
		if (err == nil) != tc.ok || err != nil && !strings.Contains(err.Error(), "pace") {
			t.Errorf("simulation %v, pace %v: %v", tc.simulation, tc.pace, err)
		}
	}
}
