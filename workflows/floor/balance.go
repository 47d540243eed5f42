package floor

import (
	"io"
	"math/bits"
	"slices"
)

// DefaultBalanceThreshold is the rule book's: no table may have two or more players more than
// another (R3, 000). Policy 3 is the 2007 TDA's (003 r25).
const DefaultBalanceThreshold = 2

// HoldShortBy is how many players short of the fullest table a table must be to stop dealing until
// players arrive (TDA: play halts at a table 3 or more players short).
const HoldShortBy = 3

// Policy holds the Tournament spec's floor policies that these decisions read.
type Policy struct {
	// BalanceThreshold: tables are balanced as soon as one has this many players more than another
	// (R3): 2 (default, 000) or 3 (003 r25). 0 means the default.
	BalanceThreshold int `json:"balanceThreshold,omitempty"`
}

func (p Policy) threshold() (int, error) {
	switch p.BalanceThreshold {
	case 0:
		return DefaultBalanceThreshold, nil
	case 2, 3:
		return p.BalanceThreshold, nil
	}
	return 0, ruleErr("R3", "balance threshold %d is neither 2 nor 3", p.BalanceThreshold)
}

// MoveReason says why a player changes table.
type MoveReason string

// The reasons for a move.
const (
	MoveBalance  MoveReason = "balance"  // R3: the next big blind to the free seat left of the big blind
	MoveBreak    MoveReason = "break"    // R4: a broken table's player drawn into a free seat
	MoveDirector MoveReason = "director" // a move the tournament director orders by hand (P6)
)

// Move takes one player from a seat to a free seat at another table.
type Move struct {
	Player   PlayerID   `json:"player"`
	From     TableID    `json:"from"`
	FromSeat Seat       `json:"fromSeat"`
	To       TableID    `json:"to"`
	ToSeat   Seat       `json:"toSeat"`
	Reason   MoveReason `json:"reason"`
}

// Plan is what the floor does between hands: the tables that break (R4), in order, and the moves,
// in the order they must be made (a later move may count on an earlier one: the second player
// taken from a table is the big blind after the first).
type Plan struct {
	Broken []TableID `json:"broken,omitempty"`
	Moves  []Move    `json:"moves,omitempty"`
	// Unbalanced is set when no legal move could bring the tables within the threshold. It can
	// happen only with tables of different sizes (the emptiest are full), after the moves that
	// narrow the spread among the others; the short tables wait (TablesToHold).
	Unbalanced bool `json:"unbalanced,omitempty"`
}

// PlanTables is the floor's decision after a hand: first break every table that R4 closes, then
// balance (R3). A table left with no players (its last player disqualified or moved by hand) is
// listed in Broken first, with no moves. r draws the broken tables' players into their seats; it
// is not read when nothing breaks.
//
// The caller applies the moves in order (ApplyPlan does it on the floor's copy) when each source
// table is between hands, and asks again after the next hand: a plan made from a table that is
// still playing a hand may be stale, and the tables TablesToHold names wait meanwhile.
//
// PlanTables does not check that a player sits at only one table: the caller's state guarantees it.
func PlanTables(tables []Table, p Policy, r io.Reader) (Plan, error) {
	th, err := p.threshold()
	if err != nil {
		return Plan{}, err
	}
	st, err := newFloorState(tables)
	if err != nil {
		return Plan{}, err
	}
	r = newDrawer(r)
	var plan Plan
	for rank := range tables {
		if i := st.index(rank); st.counts[i] == 0 {
			plan.Broken = append(plan.Broken, tables[i].ID)
		}
	}
	for {
		i, ok := st.tableToBreak()
		if !ok {
			break
		}
		if err := st.breakTable(i, r, &plan); err != nil {
			return Plan{}, err
		}
	}
	st.balance(th, &plan)
	return plan, nil
}

// BalanceTables is R3 alone: the fewest moves that leave no table with threshold or more players
// than another. While the fullest table (the one with most players, ties: the lowest table number)
// has threshold or more players than the emptiest (fewest players, ties: the lowest table number),
// the player due the big blind next at the fullest moves to the emptiest, into the free seat
// closest to the left of its big blind (BalanceSeat). Each move narrows the gap between the two
// extremes, and the fewest moves is reached this way (a brute-force search checks it in the tests).
func BalanceTables(tables []Table, p Policy) (Plan, error) {
	th, err := p.threshold()
	if err != nil {
		return Plan{}, err
	}
	st, err := newFloorState(tables)
	if err != nil {
		return Plan{}, err
	}
	var plan Plan
	st.balance(th, &plan)
	return plan, nil
}

// TablesToHold names the tables that should not deal their next hand: those with HoldShortBy or
// more players fewer than the fullest table, waiting for the players a plan sends them.
func TablesToHold(tables []Table) []TableID {
	most := 0
	for _, t := range tables {
		most = max(most, t.Players())
	}
	var hold []TableID
	for _, t := range tables {
		if n := t.Players(); n > 0 && n <= most-HoldShortBy {
			hold = append(hold, t.ID)
		}
	}
	return hold
}

// ApplyPlan returns the tables after the plan: every move checked and made in order (VerifyMove),
// and the broken tables removed. The input is not changed.
func ApplyPlan(tables []Table, plan Plan) ([]Table, error) {
	out := slices.Clone(tables)
	at := make(map[TableID]int, len(out))
	for i, t := range out {
		if _, dup := at[t.ID]; dup {
			return nil, ruleErr("R3", "table %d appears twice", t.ID)
		}
		at[t.ID] = i
	}
	copied := make(map[int]bool)
	own := func(i int) {
		if !copied[i] {
			out[i].Seats = slices.Clone(out[i].Seats)
			copied[i] = true
		}
	}
	for k, m := range plan.Moves {
		fi, ok1 := at[m.From]
		ti, ok2 := at[m.To]
		if !ok1 || !ok2 {
			return nil, ruleErr("R3", "move %d: table %d or %d does not exist", k+1, m.From, m.To)
		}
		if err := VerifyMove(out[fi], out[ti], m); err != nil {
			return nil, err
		}
		own(fi)
		own(ti)
		out[fi].Seats[m.FromSeat-1] = ""
		out[ti].Seats[m.ToSeat-1] = m.Player
	}
	for _, id := range plan.Broken {
		i, ok := at[id]
		if !ok {
			return nil, ruleErr("R4", "broken table %d does not exist", id)
		}
		if n := out[i].Players(); n > 0 {
			return nil, ruleErr("R4", "table %d breaks with %d players still seated", id, n)
		}
	}
	if len(plan.Broken) > 0 {
		out = slices.DeleteFunc(out, func(t Table) bool { return slices.Contains(plan.Broken, t.ID) })
	}
	return out, nil
}

// CanMove reports whether VerifyMove accepts the move.
func CanMove(from, to Table, m Move) bool { return VerifyMove(from, to, m) == nil }

// VerifyMove says which rule forbids moving m.Player from table from to table to, or returns nil.
// Every move needs the player in his seat and a free seat at another table; a balancing move must
// also take the player due the big blind next and put him in BalanceSeat (R3).
func VerifyMove(from, to Table, m Move) error {
	rule := "R3"
	if m.Reason == MoveBreak {
		rule = "R4"
	}
	switch {
	case from.ID != m.From || to.ID != m.To:
		return ruleErr(rule, "move of %s names tables %d and %d, not %d and %d", m.Player, m.From, m.To, from.ID, to.ID)
	case from.ID == to.ID:
		return ruleErr(rule, "%s cannot move to his own table %d", m.Player, from.ID)
	case m.Player == "" || from.PlayerAt(m.FromSeat) != m.Player:
		return ruleErr(rule, "%s is not in seat %d at table %d", m.Player, m.FromSeat, from.ID)
	case m.ToSeat < 1 || int(m.ToSeat) > to.Size() || to.PlayerAt(m.ToSeat) != "":
		return ruleErr(rule, "seat %d at table %d is not a free seat", m.ToSeat, to.ID)
	}
	switch m.Reason {
	case MoveBalance:
		if s := NextBigBlindSeat(from); s != m.FromSeat {
			return ruleErr("R3", "table %d: the player due the big blind next sits in seat %d, not %d", from.ID, s, m.FromSeat)
		}
		if s := BalanceSeat(to); s != m.ToSeat {
			return ruleErr("R3", "table %d: a balancing move takes seat %d (closest left of the big blind), not %d", to.ID, s, m.ToSeat)
		}
	case MoveBreak, MoveDirector:
	default:
		return ruleErr(rule, "unknown move reason %q", m.Reason)
	}
	return nil
}

// floorState is the working copy behind PlanTables: player counts, the tables bucketed by count
// (bitsets over the tables in table-number order, so the lowest or highest table number with a
// given count is a few word scans away), and copy-on-write seats for the tables a plan touches.
// Building it is one pass over the seats; each decision after that costs O(tables/64).
type floorState struct {
	tables  []Table
	byRank  []int // table index by rank in table-number order; nil when the input is already in order
	rankOf  []int // the inverse of byRank
	counts  []int
	slot    []int32                  // by table index: 1 + the position in touched of its copied seats, 0 if none; nil until a move
	touched [][]PlayerID             // the seats of the tables the plan has changed
	arena   []PlayerID               // backing for those copies, carved a table at a time
	buckets [MaxTableSize + 1]bitset // buckets[c]: ranks of the open tables with c players
	sizes   [MaxTableSize + 1]int    // how many tables each bucket holds
	free    int                      // free seats at open tables
	open    int                      // open tables (with players)
}

func newFloorState(tables []Table) (*floorState, error) {
	st := &floorState{tables: tables, counts: make([]int, len(tables))}
	sorted := true
	for i, t := range tables {
		if t.Size() < MinTableSize || t.Size() > MaxTableSize {
			return nil, ruleErr("T1", "table %d has %d seats, outside %d..%d", t.ID, t.Size(), MinTableSize, MaxTableSize)
		}
		n := t.Players()
		if n > 0 && (t.BigBlind < 1 || int(t.BigBlind) > t.Size()) {
			return nil, ruleErr("B5", "table %d has no big blind position (seat %d)", t.ID, t.BigBlind)
		}
		st.counts[i] = n
		if i > 0 && tables[i-1].ID >= t.ID {
			sorted = false
		}
	}
	if !sorted {
		st.byRank = make([]int, len(tables))
		for i := range st.byRank {
			st.byRank[i] = i
		}
		slices.SortFunc(st.byRank, func(a, b int) int { return int(tables[a].ID) - int(tables[b].ID) })
		st.rankOf = make([]int, len(tables))
		for r, i := range st.byRank {
			if r > 0 && tables[st.byRank[r-1]].ID == tables[i].ID {
				return nil, ruleErr("R3", "table %d appears twice", tables[i].ID)
			}
			st.rankOf[i] = r
		}
	}
	words := (len(tables) + 63) / 64
	backing := make([]uint64, words*(MaxTableSize+1))
	for c := range st.buckets {
		st.buckets[c] = backing[c*words : (c+1)*words]
	}
	for i, n := range st.counts {
		if n == 0 {
			continue
		}
		st.buckets[n].set(st.rank(i))
		st.sizes[n]++
		st.free += tables[i].Size() - n
		st.open++
	}
	return st, nil
}

func (st *floorState) rank(i int) int {
	if st.rankOf == nil {
		return i
	}
	return st.rankOf[i]
}

func (st *floorState) index(r int) int {
	if st.byRank == nil {
		return r
	}
	return st.byRank[r]
}

// table is table i as the plan has left it so far.
func (st *floorState) table(i int) Table {
	t := st.tables[i]
	if st.slot != nil && st.slot[i] != 0 {
		t.Seats = st.touched[st.slot[i]-1]
	}
	return t
}

func (st *floorState) setSeat(i int, s Seat, p PlayerID) {
	if st.slot == nil {
		st.slot = make([]int32, len(st.tables))
	}
	if st.slot[i] == 0 {
		n := len(st.tables[i].Seats)
		if cap(st.arena)-len(st.arena) < n {
			st.arena = make([]PlayerID, 0, max(64*MaxTableSize, 2*cap(st.arena)))
		}
		seats := append(st.arena[len(st.arena):len(st.arena):len(st.arena)+n], st.tables[i].Seats...)
		st.arena = st.arena[:len(st.arena)+n]
		st.touched = append(st.touched, seats)
		st.slot[i] = int32(len(st.touched))
	}
	st.touched[st.slot[i]-1][s-1] = p
}

// recount moves table i from its bucket to the one for n players (0: closed).
func (st *floorState) recount(i, n int) {
	old := st.counts[i]
	r := st.rank(i)
	if old > 0 {
		st.buckets[old].clear(r)
		st.sizes[old]--
	}
	if n > 0 {
		st.buckets[n].set(r)
		st.sizes[n]++
	}
	st.counts[i] = n
}

func (st *floorState) lowestBucket() int {
	for c := 1; c <= MaxTableSize; c++ {
		if st.sizes[c] > 0 {
			return c
		}
	}
	return 0
}

func (st *floorState) highestBucket() int {
	for c := MaxTableSize; c >= 1; c-- {
		if st.sizes[c] > 0 {
			return c
		}
	}
	return 0
}

// move takes the player in seat s of table i to seat to of table j.
func (st *floorState) move(i int, s Seat, j int, to Seat, why MoveReason, plan *Plan) {
	p := st.table(i).PlayerAt(s)
	st.setSeat(i, s, "")
	st.setSeat(j, to, p)
	st.recount(i, st.counts[i]-1)
	st.recount(j, st.counts[j]+1)
	plan.Moves = append(plan.Moves, Move{
		Player: p, From: st.tables[i].ID, FromSeat: s, To: st.tables[j].ID, ToSeat: to, Reason: why,
	})
}

func (st *floorState) balance(threshold int, plan *Plan) {
	for {
		hi, lo := st.highestBucket(), st.lowestBucket()
		if hi == 0 || hi-lo < threshold {
			return
		}
		src := st.index(st.buckets[hi].next(0))
		// The emptiest table with a free seat takes him. With mixed table sizes the emptiest may be
		// full: then the next emptiest that still narrows the spread, one with at most hi-2 players
		// (the move makes no new fullest table, so the sum of squared counts falls and this ends).
		dst, to := -1, Seat(0)
		for c := lo; c <= hi-2 && dst < 0; c++ {
			for r := st.buckets[c].next(0); r >= 0; r = st.buckets[c].next(r + 1) {
				if s := BalanceSeat(st.table(st.index(r))); s != 0 {
					dst, to = st.index(r), s
					break
				}
			}
		}
		if dst < 0 {
			plan.Unbalanced = true
			return
		}
		st.move(src, NextBigBlindSeat(st.table(src)), dst, to, MoveBalance, plan)
	}
}

// bitset is a set of small non-negative integers.
type bitset []uint64

func (b bitset) set(i int)   { b[i>>6] |= 1 << (i & 63) }
func (b bitset) clear(i int) { b[i>>6] &^= 1 << (i & 63) }

// next is the smallest member >= from, or -1.
func (b bitset) next(from int) int {
	w := from >> 6
	if w >= len(b) {
		return -1
	}
	word := b[w] &^ (1<<(from&63) - 1)
	for {
		if word != 0 {
			return w<<6 + bits.TrailingZeros64(word)
		}
		w++
		if w == len(b) {
			return -1
		}
		word = b[w]
	}
}

// last is the largest member, or -1.
func (b bitset) last() int {
	for w := len(b) - 1; w >= 0; w-- {
		if b[w] != 0 {
			return w<<6 + 63 - bits.LeadingZeros64(b[w])
		}
	}
	return -1
}
