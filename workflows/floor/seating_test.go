package floor

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"testing"
)

func playerIDs(n int) []PlayerID {
	ps := make([]PlayerID, n)
	for i := range ps {
		ps[i] = PlayerID(fmt.Sprintf("p%05d", i+1))
	}
	return ps
}

// seats builds a table from a compact picture: one letter a player, '.' a free seat.
func seats(id TableID, picture string, bigBlind Seat) Table {
	t := Table{ID: id, Seats: make([]PlayerID, len(picture)), BigBlind: bigBlind}
	for i, c := range picture {
		if c != '.' {
			t.Seats[i] = PlayerID(fmt.Sprintf("%d%c", id, c))
		}
	}
	return t
}

func wantRule(t *testing.T, err error, rule string) {
	t.Helper()
	var re *RuleError
	if !errors.As(err, &re) || re.Rule != rule {
		t.Fatalf("error %v, want a RuleError of rule %s", err, rule)
	}
}

func TestTableCountT1(t *testing.T) { // rule T1
	cases := []struct{ players, size, want int }{
		{2, 10, 1}, {10, 10, 1}, {11, 10, 2}, {10, 9, 2}, {60, 10, 6}, {61, 10, 7},
		{180, 9, 20}, {1000, 9, 112}, {100000, 9, 11112}, {7, 6, 2},
	}
	for _, c := range cases {
		if got := TableCount(c.players, c.size); got != c.want {
			t.Errorf("TableCount(%d, %d) = %d, want %d", c.players, c.size, got, c.want)
		}
	}
}

func TestDrawSeatsT1T2(t *testing.T) { // rules T1, T2
	cases := []struct {
		players, size, tables, least, most int
	}{
		{2, 10, 1, 2, 2},
		{10, 9, 2, 5, 5},
		{12, 9, 2, 6, 6}, // 6 to 10 a table where the field allows (T1)
		{61, 10, 7, 8, 9},
		{180, 9, 20, 9, 9},
		{1000, 9, 112, 8, 9},
		{1000, 10, 100, 10, 10},
		{8, 2, 4, 2, 2},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d_at_%d", c.players, c.size), func(t *testing.T) {
			ps := playerIDs(c.players)
			tables, err := DrawSeats(ps, c.size, NewSeededReader(7))
			if err != nil {
				t.Fatal(err)
			}
			if len(tables) != c.tables {
				t.Fatalf("%d tables, want %d", len(tables), c.tables)
			}
			var seated []PlayerID
			for i, tb := range tables {
				if tb.ID != TableID(i+1) || tb.Size() != c.size {
					t.Fatalf("table %d: id %d size %d", i+1, tb.ID, tb.Size())
				}
				if n := tb.Players(); n < c.least || n > c.most {
					t.Errorf("table %d has %d players, want %d..%d", tb.ID, n, c.least, c.most)
				}
				for _, p := range tb.Seats {
					if p != "" {
						seated = append(seated, p)
					}
				}
			}
			slices.Sort(seated)
			if !slices.Equal(seated, ps) {
				t.Fatalf("players seated are not the players entered")
			}
		})
	}
}

func TestDrawSeatsReproducibleT2(t *testing.T) { // rule T2: reproducible from a seed in tests
	ps := playerIDs(100)
	a, _ := DrawSeats(ps, 9, NewSeededReader(42))
	b, _ := DrawSeats(ps, 9, NewSeededReader(42))
	c, _ := DrawSeats(ps, 9, NewSeededReader(43))
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("the same seed gave two draws")
	}
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Fatal("two seeds gave the same draw")
	}
}

// rule T2, rule T3: every player equally likely in every seat, the button on any player.
func TestDrawSeatsUniformT2T3(t *testing.T) {
	const draws = 30000
	ps := playerIDs(3)
	var seatOf [3][3]int
	var button [3]int
	r := NewSeededReader(1)
	for range draws {
		tables, err := DrawSeats(ps, 3, r)
		if err != nil {
			t.Fatal(err)
		}
		for s, p := range tables[0].Seats {
			seatOf[slices.Index(ps, p)][s]++
		}
		button[tables[0].Button-1]++
	}
	const want, slack = draws / 3, 500 // about six standard deviations
	for p := range seatOf {
		for s, n := range seatOf[p] {
			if n < want-slack || n > want+slack {
				t.Errorf("player %d in seat %d %d times of %d", p+1, s+1, n, draws)
			}
		}
		if button[p] < want-slack || button[p] > want+slack {
			t.Errorf("button in seat %d %d times of %d", p+1, button[p], draws)
		}
	}
}

func TestDrawButtonT3B1B6(t *testing.T) { // rules T3, B1, B6
	cases := []struct {
		picture string
		seed    uint64
	}{
		{"ab........", 1}, {"a.b", 2}, {"abcdefghij", 3}, {"a..b..c..", 4}, {"a.c.e.g.i.", 5},
	}
	for _, c := range cases {
		for seed := c.seed; seed < c.seed+20; seed++ {
			tb, err := DrawButton(seats(1, c.picture, 0), NewSeededReader(seed))
			if err != nil {
				t.Fatal(err)
			}
			if tb.PlayerAt(tb.Button) == "" {
				t.Fatalf("%s: button on free seat %d", c.picture, tb.Button)
			}
			sb := NextOccupiedSeat(tb, tb.Button)
			bb := NextOccupiedSeat(tb, sb)
			if tb.Players() == 2 { // B6: heads-up the button is the small blind
				sb, bb = tb.Button, NextOccupiedSeat(tb, tb.Button)
			}
			if tb.BigBlind != sb || NextBigBlindSeat(tb) != bb {
				t.Fatalf("%s button %d: first big blind %d, want %d", c.picture, tb.Button, NextBigBlindSeat(tb), bb)
			}
		}
	}
	if _, err := DrawButton(seats(1, "a.....", 0), NewSeededReader(1)); err == nil {
		t.Fatal("a button drawn at a table of one")
	}
}

func TestVerifySeatDrawT1T2(t *testing.T) { // rules T1, T2
	cases := []struct {
		players []PlayerID
		size    int
		rule    string
	}{
		{playerIDs(10), 1, "T1"},
		{playerIDs(10), 11, "T1"},
		{playerIDs(1), 9, "T1"},
		{playerIDs(7), 2, "T1"},
		{[]PlayerID{"a", "b", "a"}, 9, "T2"},
		{[]PlayerID{"a", ""}, 9, "T2"},
	}
	for _, c := range cases {
		_, err := DrawSeats(c.players, c.size, NewSeededReader(1))
		wantRule(t, err, c.rule)
	}
}

func TestDrawSeatsShortRandomness(t *testing.T) { // rule T2: a failing CSPRNG fails the draw
	_, err := DrawSeats(playerIDs(10), 9, io.LimitReader(NewSeededReader(1), 20))
	if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error %v, want a wrapped io.ErrUnexpectedEOF", err)
	}
}

func TestNextBigBlindAndBalanceSeatR3(t *testing.T) { // rules R3, B5
	cases := []struct {
		name     string
		picture  string
		bigBlind Seat
		nextBB   Seat
		balance  Seat
	}{
		{"free seat right after the big blind", "abcd.fghi", 4, 6, 5},
		{"next player is the next big blind", "abcdefgh.", 4, 5, 9},
		{"big blind busted: his seat is the small blind, never taken", "abc.efghi", 4, 5, 0},
		{"big blind busted, another free seat", "a.c.efghi", 4, 5, 2},
		{"wrap round the table", "ab.defgh.", 9, 1, 3},
		{"big blind in the last seat, seat 9 free elsewhere", ".bcdefghi", 8, 9, 1},
		{"heads-up", "a.b.......", 1, 3, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := seats(1, c.picture, c.bigBlind)
			if got := NextBigBlindSeat(tb); got != c.nextBB {
				t.Errorf("NextBigBlindSeat = %d, want %d", got, c.nextBB)
			}
			if got := BalanceSeat(tb); got != c.balance {
				t.Errorf("BalanceSeat = %d, want %d", got, c.balance)
			}
		})
	}
}
