package floor

import (
	"io"
)

// PlayerID names one entry in the tournament. A re-entry is a new PlayerID: places and prizes are
// per entry.
type PlayerID string

// TableID is a table's number, from 1. Fixed procedures break ties by table number.
type TableID int

// Seat is a seat number at a table, from 1 to the table's size, clockwise. 0 means no seat.
type Seat int

// MinTableSize and MaxTableSize bound a table's seats (T1).
const (
	MinTableSize = 2
	MaxTableSize = 10
)

// Table is one table between hands, as far as the floor is concerned: who sits where, and where
// the blinds are.
type Table struct {
	ID TableID `json:"id"`
	// Seats holds the player in each seat, Seats[0] being seat 1; "" is a free seat. Its length is
	// the table's size (T1).
	Seats []PlayerID `json:"seats"`
	// Button is the seat of the button in the last hand dealt (or drawn for the first, T3).
	Button Seat `json:"button"`
	// BigBlind is the seat that posted the big blind in the last hand dealt; the seat may be free
	// now. The big blind always moves on to the next player (dead button, 003 r6), so the next big
	// blind is the first player clockwise after it. At a table that has not dealt yet it is the
	// first hand's small blind, so that NextBigBlindSeat names the first big blind.
	BigBlind Seat `json:"bigBlind"`
}

// Size is the table's number of seats.
func (t Table) Size() int { return len(t.Seats) }

// Players is the number of players seated.
func (t Table) Players() int {
	n := 0
	for _, p := range t.Seats {
		if p != "" {
			n++
		}
	}
	return n
}

// PlayerAt returns the player in seat s, or "" when the seat is free or does not exist.
func (t Table) PlayerAt(s Seat) PlayerID {
	if s < 1 || int(s) > len(t.Seats) {
		return ""
	}
	return t.Seats[s-1]
}

// nextSeat is the seat clockwise after s.
func nextSeat(s Seat, size int) Seat {
	if int(s) >= size {
		return 1
	}
	return s + 1
}

// NextOccupiedSeat is the first occupied seat clockwise after s (s itself last), or 0 when the
// table is empty.
func NextOccupiedSeat(t Table, s Seat) Seat {
	size := t.Size()
	for i, seat := 0, s; i < size; i++ {
		seat = nextSeat(seat, size)
		if t.Seats[seat-1] != "" {
			return seat
		}
	}
	return 0
}

// NextBigBlindSeat is the seat of the player who will post the big blind in the next hand: the
// first player clockwise after the last big blind (B5, dead button). It is the player a balancing
// move takes (R3). 0 when the table is empty.
func NextBigBlindSeat(t Table) Seat { return NextOccupiedSeat(t, t.BigBlind) }

// BalanceSeat is the seat a player moved in to balance this table takes (R3): the free seat
// closest to the left of the big blind, that is the first free seat clockwise after the last big
// blind, so that he is the next player due the big blind, in the same position he left. The last
// big blind's own seat is never taken even when free: it is the next hand's small blind. 0 when no
// seat qualifies.
func BalanceSeat(t Table) Seat {
	size := t.Size()
	if t.BigBlind < 1 || int(t.BigBlind) > size {
		return 0
	}
	for i, seat := 0, t.BigBlind; i < size-1; i++ {
		seat = nextSeat(seat, size)
		if t.Seats[seat-1] == "" {
			return seat
		}
	}
	return 0
}

// TableCount is how many tables a field of players needs at tables of tableSize seats: the fewest
// that seat everyone, which gives every table the most players the field allows (T1: 6 to 10 a
// table where the field allows).
func TableCount(players, tableSize int) int {
	if players <= 0 || tableSize <= 0 {
		return 0
	}
	return (players + tableSize - 1) / tableSize
}

// VerifySeatDraw says why a seat draw of these players at tables of tableSize is impossible, or
// returns nil.
func VerifySeatDraw(players []PlayerID, tableSize int) error {
	if tableSize < MinTableSize || tableSize > MaxTableSize {
		return ruleErr("T1", "table size %d is outside %d..%d", tableSize, MinTableSize, MaxTableSize)
	}
	if len(players) < 2 {
		return ruleErr("T1", "a tournament needs at least 2 players, not %d", len(players))
	}
	if tables := TableCount(len(players), tableSize); len(players)/tables < 2 {
		return ruleErr("T1", "%d players at tables of %d leave a player alone at a table", len(players), tableSize)
	}
	seen := make(map[PlayerID]struct{}, len(players))
	for i, p := range players {
		if p == "" {
			return ruleErr("T2", "player %d has no ID", i+1)
		}
		if _, dup := seen[p]; dup {
			return ruleErr("T2", "player %q is entered twice", p)
		}
		seen[p] = struct{}{}
	}
	return nil
}

// DrawSeats draws the opening seats (T2) and each table's button (T3).
//
// The field sits at TableCount tables numbered from 1, spread as evenly as possible (the first
// tables take one more player when the field does not divide evenly). At a table of n players the
// occupied seats are spread round it (seat 1 + i*size/n for i = 0..n-1), so the free seats are
// apart. The players are then shuffled over those seats with r, one uniform draw per player, and
// each table's button is drawn uniformly among its players. r is crypto/rand.Reader in production
// and NewSeededReader in tests, which makes a draw reproducible.
func DrawSeats(players []PlayerID, tableSize int, r io.Reader) ([]Table, error) {
	if err := VerifySeatDraw(players, tableSize); err != nil {
		return nil, err
	}
	r = newDrawer(r)
	n := len(players)
	order := append([]PlayerID(nil), players...)
	if err := shuffle(r, n, func(i, j int) { order[i], order[j] = order[j], order[i] }); err != nil {
		return nil, err
	}
	count := TableCount(n, tableSize)
	tables := make([]Table, count)
	next := 0
	for i := range tables {
		k := n / count
		if i < n%count {
			k++
		}
		t := Table{ID: TableID(i + 1), Seats: make([]PlayerID, tableSize)}
		for j := 0; j < k; j++ {
			t.Seats[j*tableSize/k] = order[next]
			next++
		}
		var err error
		if t, err = DrawButton(t, r); err != nil {
			return nil, err
		}
		tables[i] = t
	}
	return tables, nil
}

// DrawButton draws the button among the table's players (T3) and sets BigBlind to the first
// hand's small blind, so that NextBigBlindSeat is the first big blind (B1; heads-up the button is
// the small blind, B6).
func DrawButton(t Table, r io.Reader) (Table, error) {
	n := t.Players()
	if n < 2 {
		return t, ruleErr("T3", "table %d has %d players: a button needs at least 2", t.ID, n)
	}
	k, err := uniformInt(r, n)
	if err != nil {
		return t, err
	}
	for i, p := range t.Seats {
		if p == "" {
			continue
		}
		if k == 0 {
			t.Button = Seat(i + 1)
			break
		}
		k--
	}
	t.BigBlind = t.Button
	if n > 2 {
		t.BigBlind = NextOccupiedSeat(t, t.Button)
	}
	return t, nil
}
