package floor

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// collect gathers the rows a record streams.
func collect(rows *[]PlaceRow) func(PlaceRow) { return func(r PlaceRow) { *rows = append(*rows, r) } }

func mustRecord(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// rules R5, R7: a six-player tournament's record: each place's level, hand and eliminator, the
// bubble after two hand-for-hand rounds, the final table, eliminations by level, the winner.
func TestTournamentRecordSmallR7(t *testing.T) {
	pay := Payouts{Pool: 600, Prizes: []int64{400, 200}}
	r := NewTournamentRecord(6, 0)
	var rows []PlaceRow
	emit := collect(&rows)
	mustRecord(t, r.LevelStarted(1, Level{SmallBlind: 25, BigBlind: 50}))
	r.HandsDealt(30)
	mustRecord(t, r.Bust(BustGroup{Level: 1, Busts: []Bust{{Player: "p6", Stack: 700, Table: 1, Hand: 30, Eliminators: []PlayerID{"p1"}}}}, pay, emit))
	mustRecord(t, r.FinalTableFormed(1, []FinalTableSeat{{3, "p3", 2000}, {1, "p1", 3000}, {2, "p2", 1500}, {5, "p5", 1000}, {4, "p4", 800}}))
	mustRecord(t, r.LevelStarted(2, Level{SmallBlind: 50, BigBlind: 100, Ante: 10}))
	r.HandsDealt(20)
	mustRecord(t, r.Bust(BustGroup{Level: 2, Busts: []Bust{{Player: "p5", Stack: 300, Table: 1, Hand: 50, Eliminators: []PlayerID{"p2"}}}}, pay, emit))
	mustRecord(t, r.Bust(BustGroup{Level: 2, Busts: []Bust{{Player: "p4", Stack: 900, Table: 1, Hand: 55, Eliminators: []PlayerID{"p1", "p3"}}}}, pay, emit))
	r.HandForHandRound()
	r.HandForHandRound()
	mustRecord(t, r.Bust(BustGroup{Level: 2, HandForHand: true, Busts: []Bust{{Player: "p3", Stack: 1200, Table: 1, Hand: 57, Eliminators: []PlayerID{"p1"}}}}, pay, emit))
	mustRecord(t, r.LevelStarted(3, Level{SmallBlind: 100, BigBlind: 200, Ante: 25}))
	mustRecord(t, r.Bust(BustGroup{Level: 3, Busts: []Bust{{Player: "p2", Stack: 2500, Table: 1, Hand: 70, Eliminators: []PlayerID{"p1"}}}}, pay, emit))
	mustRecord(t, r.Finish(Win{Player: "p1", Chips: 9000, Level: 3}, pay, emit))

	want := []PlaceRow{
		{Place: 6, Player: "p6", Level: 1, Table: 1, Hand: 30, Eliminators: []PlayerID{"p1"}, Stack: 700},
		{Place: 5, Player: "p5", Level: 2, Table: 1, Hand: 50, Eliminators: []PlayerID{"p2"}, Stack: 300},
		{Place: 4, Player: "p4", Level: 2, Table: 1, Hand: 55, Eliminators: []PlayerID{"p1", "p3"}, Stack: 900},
		{Place: 3, Player: "p3", Level: 2, Table: 1, Hand: 57, Eliminators: []PlayerID{"p1"}, Stack: 1200, HandForHand: true},
		{Place: 2, Player: "p2", PrizeCents: 200, PercentOfPool: 33.33, Level: 3, Table: 1, Hand: 70, Eliminators: []PlayerID{"p1"}, Stack: 2500},
		{Place: 1, Player: "p1", PrizeCents: 400, PercentOfPool: 66.67, Level: 3, Stack: 9000},
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("rows:\n%+v\nwant\n%+v", rows, want)
	}
	s := r.Summary(Purse{PaidInCents: 660, FeesCents: 60, PrizePoolCents: 600, Chips: 9000}, pay)
	if s.Bubble == nil || !reflect.DeepEqual(*s.Bubble, BubbleRecord{Players: []PlayerID{"p3"}, Place: 3, Level: 2, Table: 1, Hand: 57, HandForHandRounds: 2}) {
		t.Fatalf("bubble %+v", s.Bubble)
	}
	if s.FinalTable == nil || s.FinalTable.Seats[0].Player != "p1" || s.FinalTable.Hand != 30 || len(s.FinalTable.Seats) != 5 {
		t.Fatalf("final table %+v", s.FinalTable)
	}
	var elim []int
	for _, l := range s.Levels {
		elim = append(elim, l.Eliminations)
	}
	if !slices.Equal(elim, []int{1, 3, 1}) || s.Levels[1].PlayersAtStart != 5 || s.Levels[1].StartedAtHand != 30 {
		t.Fatalf("levels %+v", s.Levels)
	}
	if !s.Finished || s.Winner != "p1" || s.EndedAtLevel != 3 || s.EndedAtBlinds.BigBlind != 200 || s.HandsPlayed != 50 || s.Entries != 6 {
		t.Fatalf("summary %+v", s)
	}
	if !reflect.DeepEqual(s.PayoutBands, []PayoutBand{{1, 1, 400, 66.67}, {2, 2, 200, 33.33}}) || s.PaidPlaces != 2 {
		t.Fatalf("payout bands %+v", s.PayoutBands)
	}
	if err := r.Bust(BustGroup{Level: 3, Busts: []Bust{{Player: "p1", Stack: 1}}}, pay, emit); err == nil {
		t.Fatal("a bust after the end was recorded")
	}
}

// rule R7: players busted in one hand with equal stacks share places and their prizes, exactly;
// sharing the bubble puts every one of them on it.
func TestTournamentRecordSharedPlacesR7(t *testing.T) {
	pay := Payouts{Pool: 1001, Prizes: []int64{600, 301, 100}}
	r := NewTournamentRecord(5, 0)
	var rows []PlaceRow
	emit := collect(&rows)
	// Places 3 and 4 shared across the bubble (3 paid): 100 split 50 and 50.
	mustRecord(t, r.Bust(BustGroup{Level: 4, Busts: []Bust{
		{Player: "c", Stack: 500, Table: 2, Hand: 9}, {Player: "d", Stack: 500, Table: 2, Hand: 9}, {Player: "e", Stack: 800, Table: 2, Hand: 9},
	}}, pay, emit))
	// Places 1 and 2 cannot be shared (R5: someone wins); 2 left after the group.
	if len(rows) != 3 || rows[0].Player != "e" || rows[0].Place != 3 || rows[0].PrizeCents != 100 ||
		rows[1].Place != 4 || rows[1].Shared != 2 || rows[1].PrizeCents+rows[2].PrizeCents != 0 {
		t.Fatalf("rows %+v", rows)
	}
	if r.Bubble == nil || !slices.Equal(r.Bubble.Players, []PlayerID{"c", "d"}) || r.Bubble.Place != 4 {
		t.Fatalf("bubble %+v", r.Bubble)
	}

	pay = Payouts{Pool: 1001, Prizes: []int64{700, 301}}
	r = NewTournamentRecord(3, 0)
	rows = nil
	mustRecord(t, r.Bust(BustGroup{Level: 1, Busts: []Bust{{Player: "b", Stack: 40}, {Player: "c", Stack: 40}}}, pay, collect(&rows)))
	if rows[0].PrizeCents+rows[1].PrizeCents != 301 || rows[0].Place != 2 || rows[0].Shared != 2 {
		t.Fatalf("shared second place: %+v", rows)
	}
	if r.Bubble == nil || !slices.Equal(r.Bubble.Players, []PlayerID{"b", "c"}) || r.Bubble.Place != 3 {
		t.Fatalf("shared bubble %+v", r.Bubble)
	}
}

// rules R5, R7, B3: the record refuses events that cannot happen, saying what is expected.
func TestTournamentRecordRefusesR5R7(t *testing.T) {
	pay := Payouts{Pool: 100, Prizes: []int64{100}}
	r := NewTournamentRecord(3, 0)
	nop := func(PlaceRow) {}
	cases := []struct {
		g    BustGroup
		rule string
	}{
		{BustGroup{Level: 1}, "R7"},
		{BustGroup{Level: 1, Busts: []Bust{{Player: "a", Stack: 1}, {Player: "b", Stack: 1}, {Player: "c", Stack: 1}}}, "R5"},
		{BustGroup{Level: 1, Busts: []Bust{{Player: "a"}}}, "R7"},
		{BustGroup{Level: 1, Busts: []Bust{{Player: "", Stack: 5}}}, "R7"},
		{BustGroup{Level: 1, Busts: []Bust{{Player: "a", Stack: 5, Eliminators: []PlayerID{"a"}}}}, "R7"},
		{BustGroup{Level: 1, Busts: []Bust{{Player: "a", Stack: 5}, {Player: "a", Stack: 6}}}, "R7"},
		{BustGroup{Level: 0, Busts: []Bust{{Player: "a", Stack: 5}}}, "B3"},
		{BustGroup{Level: MaxRecordLevels + 1, Busts: []Bust{{Player: "a", Stack: 5}}}, "B3"},
	}
	for _, c := range cases {
		wantRule(t, r.Bust(c.g, pay, nop), c.rule)
	}
	if r.PlayersLeft != 3 || len(r.Levels) != 0 {
		t.Fatalf("a refused bust changed the record: %+v", r)
	}
	wantRule(t, r.Finish(Win{Player: "a", Chips: 10, Level: 1}, pay, nop), "R5")
	wantRule(t, r.Withdraw(2), "R5")
	wantRule(t, r.Enter(-1), "R1")
	mustRecord(t, r.Enter(2))
	mustRecord(t, r.Withdraw(1))
	if r.Entries != 4 || r.PlayersLeft != 4 {
		t.Fatalf("after 2 entries and 1 withdrawn: %d entries, %d left", r.Entries, r.PlayersLeft)
	}
	wantRule(t, r.Moved(MoveRecord{Level: 1, Move: Move{Reason: "teleport"}}), "R3")
	wantRule(t, r.TableBroken(TableBreak{Level: 1, Table: 3, Players: 11}), "R4")
	wantRule(t, r.FinalTableFormed(1, []FinalTableSeat{{1, "a", 5}, {2, "b", 5}}), "R4")
	wantRule(t, r.Sample(StackSample{PlayersLeft: 0}), "R1")
	wantRule(t, r.Sample(StackSample{PlayersLeft: 2, Chips: 10, LeaderStack: 11}), "R1")
}

// The chip leader and average samples stay within MaxStackSamples, evenly spread, the last one
// kept apart.
func TestTournamentRecordSamplesBounded(t *testing.T) {
	r := NewTournamentRecord(1000, 0)
	for h := int64(0); h < 100_000; h++ {
		left := 1000 - int(h/101)
		mustRecord(t, r.Sample(StackSample{Hand: h, Level: 1, PlayersLeft: left, Chips: 1_000_000, Leader: "x", LeaderStack: 5000 + h/10}))
	}
	if len(r.Samples) > MaxStackSamples || len(r.Samples) < MaxStackSamples/2 {
		t.Fatalf("%d samples kept", len(r.Samples))
	}
	for i, s := range r.Samples {
		if s.Hand != int64(i)*r.SampleStride {
			t.Fatalf("sample %d is hand %d, want %d (stride %d)", i, s.Hand, int64(i)*r.SampleStride, r.SampleStride)
		}
		if s.Average != 1_000_000/int64(s.PlayersLeft) {
			t.Fatalf("average %d", s.Average)
		}
	}
	st := r.Summary(Purse{}, Payouts{}).Stacks
	if last := st[len(st)-1]; last.Hand != 99_999 || last.LeaderStack != 5000+9999 {
		t.Fatalf("last sample %+v", last)
	}
}

// rules R5, R6, R7 at 100,000 entries: every place from 1 to 100,000 is streamed once, the prizes
// add up to the pool exactly, the eliminations by level add up to the field less the winner, and
// the record's state stays small (its JSON is a workflow's continue-as-new input).
func TestTournamentRecordAtScaleR7(t *testing.T) {
	const n = 100_000
	e := Entries{Entries: n, BuyIn: 1100, Fee: 100}
	pay, err := ComputePayouts(e, PayoutStructure{})
	if err != nil {
		t.Fatal(err)
	}
	r := NewTournamentRecord(n, 0)
	rng := rand.New(rand.NewPCG(100, 0))
	starts := make([]int, n+2) // rows streamed at each place (players sharing places share one)
	var prizes int64
	rows := 0
	emit := func(row PlaceRow) {
		if row.Place < 1 || row.Place+max(row.Shared, 1)-1 > n {
			t.Fatalf("row %+v outside 1..%d", row, n)
		}
		starts[row.Place]++
		prizes += row.PrizeCents
		rows++
	}
	level, next := 1, 0
	mustRecord(t, r.LevelStarted(1, Level{SmallBlind: 25, BigBlind: 50}))
	for r.PlayersLeft > 1 {
		if r.Entries-r.PlayersLeft >= (level)*2500 && level < 60 {
			level++
			mustRecord(t, r.LevelStarted(level, Level{SmallBlind: int64(25 * level), BigBlind: int64(50 * level)}))
		}
		k := min(1+rng.IntN(3), r.PlayersLeft-1)
		g := BustGroup{Level: level, HandForHand: r.PlayersLeft <= len(pay.Prizes)+20 && r.PlayersLeft > len(pay.Prizes)}
		for range k {
			next++
			g.Busts = append(g.Busts, Bust{Player: PlayerID(fmt.Sprintf("p%06d", next)), Stack: 1 + rng.Int64N(4), Table: TableID(1 + rng.IntN(11112)), Hand: int64(next),
				Eliminators: []PlayerID{PlayerID(fmt.Sprintf("w%d", rng.IntN(1000)))}})
		}
		if g.HandForHand {
			r.HandForHandRound()
		}
		mustRecord(t, r.Bust(g, pay, emit))
		r.HandsDealt(3)
		mustRecord(t, r.Sample(StackSample{Hand: r.HandsPlayed, Level: level, PlayersLeft: r.PlayersLeft, Chips: n * 10000, Leader: "w1", LeaderStack: 20000}))
		if next%9 == 0 {
			mustRecord(t, r.TableBroken(TableBreak{Level: level, Table: TableID(next), Players: 1 + next%9}))
		}
		mustRecord(t, r.Moved(MoveRecord{Level: level, Move: Move{Player: "w1", From: 1, To: 2, Reason: MoveBalance}}))
		if next%1000 == 0 {
			mustRecord(t, r.Moved(MoveRecord{Level: level, Move: Move{Player: "w2", From: 2, To: 3, Reason: MoveDirector}, By: "td", Reason: "seat"}))
		}
	}
	mustRecord(t, r.Finish(Win{Player: "w1", Chips: n * 10000, Level: level}, pay, emit))
	if rows != n || prizes != pay.Pool {
		t.Fatalf("%d rows streamed, prizes %d of a pool of %d", rows, prizes, pay.Pool)
	}
	for p := 1; p <= n; p += starts[p] { // every place once: a group sharing k places has k rows
		if starts[p] == 0 {
			t.Fatalf("place %d was never given", p)
		}
	}
	elim := 0
	for _, l := range r.Levels {
		elim += l.Eliminations
	}
	recent := slices.IsSortedFunc(r.RecentBreaks, func(a, b TableBreak) int { return int(a.Table - b.Table) }) && r.RecentBreaks[0].Table > n-500
	if !recent || len(r.RecentBreaks) != MaxRecentBreaks || len(r.DirectorMoves) != MaxDirectorMoves || r.Moves.Director < 40 || r.DirectorMoves[0].By != "td" || r.Moves.Balance == 0 || r.TablesBroken < 5000 {
		t.Fatalf("breaks %d (last %+v), moves %+v, director's kept %d", r.TablesBroken, r.RecentBreaks[len(r.RecentBreaks)-1], r.Moves, len(r.DirectorMoves))
	}
	if elim != n-1 || r.Bubble == nil || r.Bubble.Place != len(pay.Prizes)+1 || r.Bubble.HandForHandRounds == 0 {
		t.Fatalf("%d eliminations by level, bubble %+v", elim, r.Bubble)
	}
	state, _ := json.Marshal(r)
	summary, _ := json.Marshal(r.Summary(Purse{PrizePoolCents: pay.Pool}, pay))
	if len(state) > 64<<10 || len(summary) > 64<<10 {
		t.Fatalf("the record is %d bytes of JSON and its summary %d: both must stay far under a payload's 256 KB", len(state), len(summary))
	}
	t.Logf("record %d bytes of JSON, summary %d, %d samples kept", len(state), len(summary), len(r.Samples))
	var back TournamentRecord
	if err := json.Unmarshal(state, &back); err != nil || !reflect.DeepEqual(&back, r) {
		t.Fatalf("the record does not survive JSON: %v", err)
	}
}

// Every amount of money in the record and its rows is in a field ending in Cents.
func TestRecordAmountsInCents(t *testing.T) {
	money := regexp.MustCompile(`(?i)(prize|fee|bount|paidin|pool|refund|cash|price|ticket|overlay)`)
	allowed := map[string]bool{"percentOfPool": true, "paidPlaces": true, "payoutBands": true}
	var walk func(t reflect.Type, path string)
	// Entries and Payouts predate the convention (their amounts are cents too, as their docs say).
	seen := map[reflect.Type]bool{reflect.TypeOf(Entries{}): true, reflect.TypeOf(Payouts{}): true}
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous {
				walk(f.Type, path)
				continue
			}
			if money.MatchString(name) && !allowed[name] && !regexp.MustCompile(`Cents$`).MatchString(name) {
				if k := f.Type.Kind(); k == reflect.Int64 || k == reflect.Slice {
					t.Errorf("%s.%s (%s) is money without Cents in its name", path, f.Name, name)
				}
			}
			walk(f.Type, path+"."+f.Name)
		}
	}
	for _, v := range []any{RecordSummary{}, TournamentRecord{}, PlaceRow{}, SatellitePayouts{}, BountyBoard{}, KnockoutPaid{}, Purse{}, BuyIns{}, NoShowRemoval{}, Unregistration{}} {
		walk(reflect.TypeOf(v), reflect.TypeOf(v).Name())
	}
}
