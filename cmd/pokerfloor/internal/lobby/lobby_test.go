package lobby

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

func turbo(t *testing.T) floor.Structure {
	t.Helper()
	s, err := floor.BuiltinStructure(floor.StructureTurbo)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// reading is a tournament of 12 entries at level 5 of turbo (two breaks come after levels 6 and
// 12), 3 minutes left in the level, with three players out.
func reading() Reading {
	return Reading{
		Progress: workflows.Progress{Name: "Sunday", Entries: 12, PlayersLeft: 9, Tables: 2, Level: 5,
			Blinds: engine.Level{SmallBlind: 300, BigBlind: 600, Ante: 75}, NextLevelIn: 3 * time.Minute,
			HandsPlayed: 120, PrizePool: 120000, Paid: 2},
		Tables: []workflows.TableView{
			{ID: 2, Seats: []string{"p0002", "", "p0005"}, Stacks: []int64{20000, 0, 30000}, Players: 2, Hand: 40, Held: true},
			{ID: 1, Seats: []string{"p0001", "p0003", "", "p0004"}, Stacks: []int64{10000, 15000, 0, 15000}, Players: 3, Hand: 41},
			{ID: 3, Seats: []string{"", ""}, Stacks: []int64{0, 0}, Closed: true},
		},
		Standings: []workflows.Standing{
			{Player: "p0005", Stack: 30000, Status: director.Seated}, {Player: "p0002", Stack: 20000, Status: director.Seated},
			{Player: "p0003", Stack: 15000, Status: director.Seated}, {Player: "p0004", Stack: 15000, Status: director.Seated},
			{Player: "p0001", Stack: 10000, Status: director.Seated},
			{Player: "p0006", Stack: 10000, Status: director.Seated}, {Player: "p0007", Stack: 10000, Status: director.Seated},
			{Player: "p0008", Stack: 5000, Status: director.Moving}, {Player: "p0009", Stack: 5000, Status: director.Seated},
			{Player: "p0010", Place: 10, Status: director.Out}, {Player: "p0012", Place: 12, Status: director.Out},
			{Player: "p0011", Place: 11, Status: director.Out},
		},
		Payouts: workflows.PayoutsView{Payouts: floor.Payouts{Pool: 120000, Prizes: []int64{50000, 30000, 10000, 10000, 10000, 10000}}},
	}
}

func TestBuildBoard(t *testing.T) {
	s := turbo(t)
	b := BuildBoard(reading(), s, func(n int) string { return fmt.Sprintf("/table/%d/", n) }, time.Unix(0, 0))
	if b.Level != 5 || b.Blinds != (Blinds{300, 600, 75}) || b.NextLevelMs != 180000 {
		t.Errorf("clock: level %d, blinds %+v, next level in %dms", b.Level, b.Blinds, b.NextLevelMs)
	}
	if b.PeriodMs != 10*60000 {
		t.Errorf("the level lasts %dms, want 10 minutes", b.PeriodMs)
	}
	// Level 5 has 3 minutes left, level 6 is 10 minutes, then the break (B3, the turbo schedule).
	if b.NextBreakMs != 13*60000 {
		t.Errorf("next break in %dms, want 13 minutes", b.NextBreakMs)
	}
	var up []string
	for _, p := range b.Upcoming {
		if p.Break {
			up = append(up, "break")
			continue
		}
		up = append(up, fmt.Sprintf("L%d", p.Level))
	}
	if got := strings.Join(up, ","); got != "L6,break,L7,L8,L9" {
		t.Errorf("upcoming %s", got)
	}
	if len(b.Upcoming) > 1 && b.Upcoming[1].Break && len(b.Upcoming[1].ColorUp) == 0 {
		t.Errorf("the break colours up nothing: %+v", b.Upcoming[1])
	}
	if b.ChipsInPlay != 120000 || b.AverageStack != 120000/9 {
		t.Errorf("chips in play %d, average %d", b.ChipsInPlay, b.AverageStack)
	}
	var out []int
	for _, e := range b.Eliminations {
		out = append(out, e.Place)
	}
	if len(out) != 3 || out[0] != 10 || out[2] != 12 {
		t.Errorf("eliminations by place, the latest first: %v", out)
	}
	var pays []string
	for _, p := range b.Payouts {
		pays = append(pays, p.Places)
	}
	if got := strings.Join(pays, ","); got != "1,2,3-6" {
		t.Errorf("payout rows %s, want places paying the same as one row", got)
	}
	if len(b.TableList) != 2 || b.TableList[0].Number != 1 || b.TableList[1].Number != 2 {
		t.Fatalf("open tables by number: %+v", b.TableList)
	}
	t1 := b.TableList[0]
	if len(t1.Seats) != 3 || t1.Seats[2] != (Seat{Seat: 4, Player: "p0004", Stack: 15000}) || t1.Watch != "/table/1/" {
		t.Errorf("table 1: %+v", t1)
	}
	if f := b.TableList[1].Flags; len(f) != 1 || f[0] != "held" {
		t.Errorf("table 2's flags %v", f)
	}
}

func TestBuildBoardOnBreakAndInASimulation(t *testing.T) {
	s := turbo(t)
	r := reading()
	r.Progress.Level, r.Progress.OnBreak, r.Progress.NextLevelIn = 7, true, time.Minute
	b := BuildBoard(r, s, nil, time.Now())
	if len(b.Upcoming) == 0 || b.Upcoming[0].Level != 7 || b.NextBreakMs != (1+6*10)*60000 {
		t.Errorf("on the break before level 7: upcoming %+v, next break in %dms", b.Upcoming, b.NextBreakMs)
	}
	if b.TableList[0].Watch != "" {
		t.Errorf("a watch link with no table served: %q", b.TableList[0].Watch)
	}

	r = reading()
	r.Clock.Simulation, r.Progress.NextLevelIn = true, 0
	b = BuildBoard(r, s, nil, time.Now())
	if b.NextLevelMs != 0 || b.NextBreakMs != 0 || b.PeriodMs != 0 {
		t.Errorf("a simulation's clock is timed: %+v", b)
	}
	for _, p := range b.Upcoming {
		if p.Break {
			t.Errorf("a simulation lists a break: %+v", b.Upcoming)
		}
	}

	r = reading()
	r.Progress.Finished, r.Progress.PlayersLeft = true, 1
	r.Standings = []workflows.Standing{{Player: "p0005", Place: 1, Stack: 120000, Status: director.Seated},
		{Player: "p0002", Place: 2, Status: director.Out}}
	b = BuildBoard(r, s, nil, time.Now())
	if len(b.Upcoming) != 0 || b.NextLevelMs != 0 || len(b.Eliminations) != 1 || b.Eliminations[0].Place != 2 {
		t.Errorf("finished: %+v", b)
	}
}

// fakeSource answers like a tournament whose level goes up at each reading, or fails.
type fakeSource struct {
	mu    sync.Mutex
	level int
	fail  bool
}

func (f *fakeSource) Progress(context.Context) (workflows.Progress, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail {
		return workflows.Progress{}, errors.New("the server is gone")
	}
	f.level++
	return workflows.Progress{Entries: 9, PlayersLeft: 10 - f.level, Level: f.level}, nil
}
func (f *fakeSource) Clock(context.Context) (workflows.ClockView, error) {
	return workflows.ClockView{}, nil
}
func (f *fakeSource) Tables(context.Context) ([]workflows.TableView, error) {
	return nil, nil
}
func (f *fakeSource) Standings(context.Context) ([]workflows.Standing, error) { return nil, nil }
func (f *fakeSource) Payouts(context.Context) (workflows.PayoutsView, error) {
	return workflows.PayoutsView{}, nil
}

// TestServerPushesBoards reads the event stream: each reading of the tournament arrives as a board,
// and a failed reading pushes the last board marked stale.
func TestServerPushesBoards(t *testing.T) {
	src := &fakeSource{}
	s := New(Config{Source: src, Structure: turbo(t), Every: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	runDone := make(chan struct{})
	go func() { s.Run(ctx); close(runDone) }()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	for _, path := range []string{"/", "/static/lobby.js", "/static/lobby.css"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s", path, res.Status)
		}
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	next := func() Board {
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var b Board
				if err := json.Unmarshal([]byte(data), &b); err != nil {
					t.Fatal(err)
				}
				return b
			}
		}
		t.Fatalf("the stream ended: %v", sc.Err())
		return Board{}
	}
	first := next()
	var b Board
	for b = next(); b.Level <= first.Level+1; b = next() {
	}
	if b.PlayersLeft >= first.PlayersLeft {
		t.Errorf("level %d with %d left after level %d with %d", b.Level, b.PlayersLeft, first.Level, first.PlayersLeft)
	}
	src.mu.Lock()
	src.fail = true
	src.mu.Unlock()
	for b = next(); b.Stale == ""; b = next() {
	}
	if !strings.Contains(b.Stale, "the server is gone") || b.Level == 0 {
		t.Errorf("a failed reading pushed %+v", b)
	}
	if s.Subscribers() != 1 {
		t.Errorf("%d subscribers, want the test's one", s.Subscribers())
	}
	cancel()
	<-runDone
}
