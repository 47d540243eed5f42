package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

func threeHanded(t *testing.T) *host.LocalReporter {
	t.Helper()
	c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 6},
		Levels: levels, Players: []string{"a", "b", "c"}, Seats: []int{4, 0, 2}, Stack: 1000, Button: 4})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// result is hand n moving chips between seats 0, 2 and 4 (players b, c, a), which held start.
func result(n int64, start, end [3]int64) report.HandResult {
	ids := [3]string{"b", "c", "a"}
	r := report.HandResult{TableID: "t1", HandNumber: n, Button: 4,
		Positions: engine.Positions{Button: 4, SmallBlind: 0, BigBlind: 2, Played: true}}
	for i, s := range []int{0, 2, 4} {
		if start[i] > 0 {
			r.Start = append(r.Start, report.SeatStack{Seat: s, Player: ids[i], Stack: start[i]})
			r.End = append(r.End, report.SeatStack{Seat: s, Player: ids[i], Stack: end[i]})
			if end[i] == 0 {
				r.Eliminated = append(r.Eliminated, engine.Elimination{Seat: s, ID: ids[i], StartingStack: start[i]})
			}
		}
	}
	return r
}

func TestLocalReporterFirstState(t *testing.T) {
	c := threeHanded(t)
	st, err := c.Report(context.Background(), "t1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Directive != report.Play || !st.FirstHand || st.Button != 4 || st.HandNumber != 0 || st.Batch != 1 || st.Level != levels[0] {
		t.Fatalf("first state %+v", st)
	}
	if len(st.Seats) != 3 || st.Seats[0].Seat != 0 || st.Seats[0].Player != "b" || st.Seats[2].Player != "a" {
		t.Fatalf("seats %+v: in seat order", st.Seats)
	}
}

// Results are keyed by hand number: a report sent again counts once.
func TestLocalReporterIdempotent(t *testing.T) {
	c := threeHanded(t)
	ctx := context.Background()
	h1 := result(1, [3]int64{1000, 1000, 1000}, [3]int64{900, 1100, 1000})
	h2 := result(2, [3]int64{900, 1100, 1000}, [3]int64{900, 1200, 900})
	for _, batch := range [][]report.HandResult{{h1}, {h1}, {h1, h2}, {h2}, {h1, h2}} {
		if _, err := c.Report(ctx, "t1", batch); err != nil {
			t.Fatal(err)
		}
	}
	st := c.State()
	if st.HandNumber != 2 || st.Seats[1].Stack != 1200 || st.FirstHand || !st.Positions.Played {
		t.Fatalf("state %+v", st)
	}
}

// Rule D4: a void hand gives every chip back and keeps its number for the hand dealt again.
func TestLocalReporterVoidKeepsNumber(t *testing.T) {
	c := threeHanded(t)
	ctx := context.Background()
	void := result(1, [3]int64{1000, 1000, 1000}, [3]int64{1000, 1000, 1000})
	void.Voided = true
	h1 := result(1, [3]int64{1000, 1000, 1000}, [3]int64{0, 2000, 1000})
	if _, err := c.Report(ctx, "t1", []report.HandResult{void, h1}); err != nil {
		t.Fatal(err)
	}
	last, voided := c.Hands()
	if last != 1 || voided != 1 {
		t.Fatalf("hands %d, voided %d", last, voided)
	}
	if p := c.Placements(); len(p) != 1 || p[0] != (host.Placement{Player: "b", Hand: 1, StartingStack: 1000}) {
		t.Fatalf("placements %+v", p)
	}
	if st := c.State(); len(st.Seats) != 2 {
		t.Fatalf("the eliminated player is still seated: %+v", st.Seats)
	}
	bad := result(2, [3]int64{0, 2000, 1000}, [3]int64{0, 1900, 1100})
	bad.Voided = true
	if _, err := c.Report(ctx, "t1", []report.HandResult{bad}); err == nil {
		t.Fatal("a void hand that moved chips was accepted")
	}
}

// The reporter refuses what contradicts its records, and a refused report changes nothing.
func TestLocalReporterRejects(t *testing.T) {
	ok := result(1, [3]int64{1000, 1000, 1000}, [3]int64{900, 1100, 1000})
	for _, tc := range []struct {
		name, why string
		res       func() []report.HandResult
	}{
		{"chips made", "conserved", func() []report.HandResult {
			return []report.HandResult{result(1, [3]int64{1000, 1000, 1000}, [3]int64{900, 1200, 1000})}
		}},
		{"chips lost", "conserved", func() []report.HandResult {
			return []report.HandResult{ok, result(2, [3]int64{900, 1100, 1000}, [3]int64{900, 1000, 1000})}
		}},
		{"a hand skipped", "missing", func() []report.HandResult {
			return []report.HandResult{result(2, [3]int64{1000, 1000, 1000}, [3]int64{900, 1100, 1000})}
		}},
		{"wrong starting stacks", "starts with", func() []report.HandResult {
			return []report.HandResult{result(1, [3]int64{1100, 900, 1000}, [3]int64{1000, 1000, 1000})}
		}},
		{"a player missing", "seats", func() []report.HandResult {
			return []report.HandResult{result(1, [3]int64{1000, 0, 1000}, [3]int64{1000, 0, 1000})}
		}},
		{"broke but not eliminated", "not eliminated", func() []report.HandResult {
			r := result(1, [3]int64{1000, 1000, 1000}, [3]int64{0, 2000, 1000})
			r.Eliminated = nil
			return []report.HandResult{r}
		}},
		{"another table", "table", func() []report.HandResult {
			r := ok
			r.TableID = "t2"
			return []report.HandResult{r}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := threeHanded(t)
			before := c.State()
			_, err := c.Report(context.Background(), "t1", tc.res())
			var rej *report.RejectedError
			if !errors.As(err, &rej) || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("got %v, want a rejection saying %q", err, tc.why)
			}
			after := c.State()
			if after.HandNumber != before.HandNumber || len(after.Seats) != len(before.Seats) {
				t.Fatalf("a rejected report changed the state: %+v", after)
			}
			for i := range after.Seats {
				if after.Seats[i] != before.Seats[i] {
					t.Fatalf("a rejected report changed seat %+v", after.Seats[i])
				}
			}
			if len(c.Placements()) != 0 {
				t.Fatal("a rejected report placed a player")
			}
		})
	}
}

func TestLocalReporterRefusesBadSetup(t *testing.T) {
	good := host.LocalConfig{TableID: "t", Config: engine.Config{Seats: 3}, Levels: levels, Players: []string{"a", "b"}, Stack: 100}
	for name, change := range map[string]func(*host.LocalConfig){
		"seats":       func(c *host.LocalConfig) { c.Config.Seats = 11 },
		"no level":    func(c *host.LocalConfig) { c.Levels = nil },
		"bad level":   func(c *host.LocalConfig) { c.Levels = []engine.Level{{SmallBlind: 20, BigBlind: 10}} },
		"one player":  func(c *host.LocalConfig) { c.Players = c.Players[:1] },
		"same name":   func(c *host.LocalConfig) { c.Players = []string{"a", "a"} },
		"same seat":   func(c *host.LocalConfig) { c.Seats = []int{1, 1} },
		"no chips":    func(c *host.LocalConfig) { c.Stack = 0 },
		"button":      func(c *host.LocalConfig) { c.Button = 3 },
		"stacks size": func(c *host.LocalConfig) { c.Stacks = []int64{1} },
	} {
		c := good
		change(&c)
		if _, err := host.NewLocalReporter(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := host.NewLocalReporter(good); err != nil {
		t.Fatal(err)
	}
}

// Rule B3: the level rises every HandsPerLevel hands and stays at the last.
func TestLocalReporterLevels(t *testing.T) {
	c, err := host.NewLocalReporter(host.LocalConfig{TableID: "t1", Config: engine.Config{Seats: 2}, Levels: levels[:2],
		HandsPerLevel: 1, Players: []string{"a", "b"}, Stack: 1000})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	stacks := []int64{1000, 1000}
	for n := int64(1); n <= 3; n++ {
		r := report.HandResult{TableID: "t1", HandNumber: n, Button: 0, Positions: engine.Positions{Button: 0, SmallBlind: 0, BigBlind: 1, Played: true}}
		r.Start = []report.SeatStack{{Seat: 0, Player: "a", Stack: stacks[0]}, {Seat: 1, Player: "b", Stack: stacks[1]}}
		stacks[0], stacks[1] = stacks[0]+10, stacks[1]-10
		r.End = []report.SeatStack{{Seat: 0, Player: "a", Stack: stacks[0]}, {Seat: 1, Player: "b", Stack: stacks[1]}}
		st, err := c.Report(ctx, "t1", []report.HandResult{r})
		if err != nil {
			t.Fatal(err)
		}
		if want := levels[min(n, 1)]; st.Level != want {
			t.Fatalf("after hand %d: level %+v, want %+v", n, st.Level, want)
		}
	}
}
