package floor

import (
	"io"
	"slices"
)

// TableToBreak names the table R4 closes now, if any. The candidate is fixed by procedure: the
// table with the fewest players, ties broken by the highest table number (the last table opened
// closes first). It breaks when the free seats at the other tables can take all its players; the
// final table forms this way when everyone fits at one table.
func TableToBreak(tables []Table) (TableID, bool, error) {
	st, err := newFloorState(tables)
	if err != nil {
		return 0, false, err
	}
	i, ok := st.tableToBreak()
	if !ok {
		return 0, false, nil
	}
	return tables[i].ID, true, nil
}

// BreakTable closes table id and draws its players into the free seats at the other tables (R4),
// whether or not TableToBreak would name it (the director may break a table by hand).
//
// The seats are drawn so that the tables stay balanced: each player in turn is given to the open
// table with the fewest players (ties: the lowest table number), which fixes how many each table
// receives; at each receiving table that many of its free seats are drawn with r, and the players
// are shuffled over all the drawn seats with r. They take their seats as B7 says (the engine makes
// a player who lands between the small blind and the button wait for the button).
func BreakTable(tables []Table, id TableID, r io.Reader) (Plan, error) {
	st, err := newFloorState(tables)
	if err != nil {
		return Plan{}, err
	}
	i := slices.IndexFunc(tables, func(t Table) bool { return t.ID == id })
	if i < 0 {
		return Plan{}, ruleErr("R4", "table %d does not exist", id)
	}
	if st.counts[i] > st.free-(tables[i].Size()-st.counts[i]) {
		return Plan{}, ruleErr("R4", "table %d has %d players but the other tables have %d free seats",
			id, st.counts[i], st.free-(tables[i].Size()-st.counts[i]))
	}
	var plan Plan
	if err := st.breakTable(i, newDrawer(r), &plan); err != nil {
		return Plan{}, err
	}
	return plan, nil
}

func (st *floorState) tableToBreak() (int, bool) {
	if st.open < 2 {
		return 0, false
	}
	c := st.lowestBucket()
	i := st.index(st.buckets[c].last())
	othersFree := st.free - (st.tables[i].Size() - c)
	return i, othersFree >= c
}

func (st *floorState) breakTable(i int, r io.Reader, plan *Plan) error {
	t := st.table(i)
	if r == nil {
		return ruleErr("R4", "table %d breaks, and its players' seats need a random draw: no source given", t.ID)
	}
	st.free -= t.Size() - st.counts[i]
	st.open--
	st.recount(i, 0)

	// How many players each table receives: one at a time to the table with fewest players. A
	// table has at most MaxTableSize players, so fixed arrays hold the work.
	var from [MaxTableSize]Seat
	nfrom := 0
	for s, p := range t.Seats {
		if p != "" {
			from[nfrom] = Seat(s + 1)
			nfrom++
		}
	}
	type share struct{ table, count int }
	var receive [MaxTableSize]share
	nrecv := 0
	for range nfrom {
		j := st.fewestWithFreeSeat()
		if j < 0 {
			return ruleErr("R4", "table %d cannot break: no free seat left", t.ID)
		}
		k := 0
		for k < nrecv && receive[k].table != j {
			k++
		}
		if k == nrecv {
			receive[k] = share{table: j}
			nrecv++
		}
		receive[k].count++
		st.recount(j, st.counts[j]+1) // counted now, seated below
		st.free--
	}
	slices.SortFunc(receive[:nrecv], func(a, b share) int { return st.rank(a.table) - st.rank(b.table) })

	// The seat cards: at each receiving table, its share drawn among its free seats.
	type card struct {
		table int
		seat  Seat
	}
	var cards [MaxTableSize]card
	ncards := 0
	for _, rc := range receive[:nrecv] {
		var free [MaxTableSize]Seat
		nfree := 0
		for s, p := range st.table(rc.table).Seats {
			if p == "" {
				free[nfree] = Seat(s + 1)
				nfree++
			}
		}
		for k := 0; k < rc.count; k++ {
			u, err := uniformInt(r, nfree-k)
			if err != nil {
				return err
			}
			free[k], free[k+u] = free[k+u], free[k]
			cards[ncards] = card{rc.table, free[k]}
			ncards++
		}
	}
	if err := shuffle(r, ncards, func(a, b int) { cards[a], cards[b] = cards[b], cards[a] }); err != nil {
		return err
	}
	for k, s := range from[:nfrom] {
		c := cards[k]
		p := t.Seats[s-1]
		st.setSeat(i, s, "")
		st.setSeat(c.table, c.seat, p)
		plan.Moves = append(plan.Moves, Move{
			Player: p, From: t.ID, FromSeat: s, To: st.tables[c.table].ID, ToSeat: c.seat, Reason: MoveBreak,
		})
	}
	plan.Broken = append(plan.Broken, t.ID)
	return nil
}

// fewestWithFreeSeat is the open table with the fewest players that has a free seat, ties broken
// by the lowest table number; -1 when every open table is full.
func (st *floorState) fewestWithFreeSeat() int {
	for c := 1; c <= MaxTableSize; c++ {
		if st.sizes[c] == 0 {
			continue
		}
		for r := st.buckets[c].next(0); r >= 0; r = st.buckets[c].next(r + 1) {
			if j := st.index(r); st.tables[j].Size() > c {
				return j
			}
		}
	}
	return -1
}
