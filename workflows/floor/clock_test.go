package floor

import (
	"testing"
	"time"
)

func clockStructure() Structure {
	return Structure{StartingStack: 1000, Levels: []Level{
		{SmallBlind: 10, BigBlind: 20, Minutes: 10},
		{SmallBlind: 20, BigBlind: 40, Minutes: 10},
		{Break: true, Minutes: 5},
		{SmallBlind: 30, BigBlind: 60, Minutes: 10},
	}}
}

// rule R2 (and B3): levels change at exactly the scheduled times.
func TestClockB3R2(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	m := time.Minute
	cases := []struct {
		name      string
		events    []ClockEvent
		now       time.Duration
		period    int
		level     int
		bb        int64
		remaining time.Duration
		check     func(ClockState) bool
	}{
		{"before the start", nil, -m, 0, 1, 20, 10 * m, func(c ClockState) bool { return !c.Started }},
		{"at the start", nil, 0, 0, 1, 20, 10 * m, nil},
		{"one second before level 2", nil, 10*m - time.Second, 0, 1, 20, time.Second, nil},
		{"level 2 at ten minutes exactly", nil, 10 * m, 1, 2, 40, 10 * m, nil},
		{"break: the next level's blinds", nil, 22 * m, 2, 3, 60, 3 * m, func(c ClockState) bool { return c.OnBreak }},
		{"level 3 after the break", nil, 25 * m, 3, 3, 60, 10 * m, nil},
		{"last level lasts to the end", nil, 90 * m, 3, 3, 60, 0, func(c ClockState) bool { return c.Final }},
		{"paused now", []ClockEvent{{At: at(5 * m), Kind: ClockPause}}, 7 * m, 0, 1, 20, 5 * m,
			func(c ClockState) bool { return c.Paused && c.Elapsed == 5*m }},
		{"pause and resume shift the schedule", []ClockEvent{{At: at(5 * m), Kind: ClockPause}, {At: at(8 * m), Kind: ClockResume}},
			12 * m, 0, 1, 20, time.Minute, nil},
		{"level 2 three minutes late", []ClockEvent{{At: at(5 * m), Kind: ClockPause}, {At: at(8 * m), Kind: ClockResume}},
			13 * m, 1, 2, 40, 10 * m, nil},
		{"added time lengthens the level running", []ClockEvent{{At: at(5 * m), Kind: ClockAddTime, Add: 2 * m}},
			11 * m, 0, 1, 20, time.Minute, nil},
		{"taking time off ends the level, no further", []ClockEvent{{At: at(5 * m), Kind: ClockAddTime, Add: -20 * m}},
			5 * m, 1, 2, 40, 10 * m, nil},
		{"added time on a break", []ClockEvent{{At: at(21 * m), Kind: ClockAddTime, Add: 5 * m}},
			29 * m, 2, 3, 60, time.Minute, func(c ClockState) bool { return c.OnBreak }},
		{"pause on a break", []ClockEvent{{At: at(21 * m), Kind: ClockPause}, {At: at(31 * m), Kind: ClockResume}},
			34 * m, 2, 3, 60, time.Minute, nil},
		{"events after now are ignored", []ClockEvent{{At: at(15 * m), Kind: ClockPause}}, 12 * m, 1, 2, 40, 8 * m, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, err := Clock(clockStructure(), t0, c.events, at(c.now))
			if err != nil {
				t.Fatal(err)
			}
			if st.Period != c.period || st.Level != c.level || st.Blinds.BigBlind != c.bb || st.Remaining != c.remaining {
				t.Fatalf("state %+v\nwant period %d level %d big blind %d remaining %v", st, c.period, c.level, c.bb, c.remaining)
			}
			if c.check != nil && !c.check(st) {
				t.Fatalf("state %+v", st)
			}
		})
	}
}

func TestClockNewLevelNextHandB3(t *testing.T) { // rule B3: a hand plays the level in force when its shuffle starts
	t0 := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	handStart := t0.Add(10*time.Minute - time.Second)
	st, _ := Clock(clockStructure(), t0, nil, handStart)
	later, _ := Clock(clockStructure(), t0, nil, handStart.Add(2*time.Minute)) // the hand is still running
	if st.Blinds.BigBlind != 20 || later.Blinds.BigBlind != 40 {
		t.Fatalf("hand at %d, next hand at %d", st.Blinds.BigBlind, later.Blinds.BigBlind)
	}
}

func TestClockSpeed(t *testing.T) { // rule B3: a compressed schedule keeps its shape
	s := clockStructure()
	s.Speed = 60
	t0 := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	st, err := Clock(s, t0, nil, t0.Add(10*time.Second))
	if err != nil || st.Level != 2 || st.Remaining != 10*time.Second {
		t.Fatalf("state %+v, %v", st, err)
	}
}

func TestClockRefusesB3(t *testing.T) { // rule B3
	t0 := time.Date(2025, 3, 1, 18, 0, 0, 0, time.UTC)
	cases := [][]ClockEvent{
		{{At: t0.Add(-time.Minute), Kind: ClockPause}},
		{{At: t0.Add(2 * time.Minute), Kind: ClockPause}, {At: t0.Add(time.Minute), Kind: ClockResume}},
		{{At: t0.Add(time.Minute), Kind: ClockResume}},
		{{At: t0.Add(time.Minute), Kind: ClockPause}, {At: t0.Add(2 * time.Minute), Kind: ClockPause}},
		{{At: t0.Add(time.Minute), Kind: "rewind"}},
	}
	for _, events := range cases {
		_, err := Clock(clockStructure(), t0, events, t0.Add(time.Hour))
		wantRule(t, err, "B3")
	}
	_, err := Clock(Structure{}, t0, nil, t0)
	wantRule(t, err, "R1")
}
