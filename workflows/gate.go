package workflows

import (
	"container/list"
	"context"
	"sync"
)

// TableHurrier hears of a table whose run has taken in orders that others wait on
// (director.Order.Awaited) while no report of its is in the workflow to apply them: its next
// report should go before the other tables'. A TableHost whose tables share one bound on their
// reports (LocalTableHost with NewLocalTableReporter) is one; Register gives it to the tables'
// runs.
type TableHurrier interface {
	HurryTable(tableID string)
}

// reportGate bounds the reports of a host's tables that wait at once for the tables' worker
// (NewLocalTableReporter). A table waiting its turn goes before the others once it is hurried
// (TableHurrier), in the order it was hurried, but only once between two turns in the order
// they came: a table that had a hurried turn is hurried again only after a turn of the others'.
// And after hurriedRun hurried turns in a row the next goes to the table that has waited longest
// unhurried.
//
// Why: with 10,000 tables and room at the server for 11 to 13 reports a second, a table's turn
// came every 12 to 15 minutes, and a player moved waited for two turns in a row, the table he
// left and the one he joins (docs/design.md, "What a section's tables wait on"). Why once: a
// table's report brings its section's answer, often a move to or from it; hurried for each, the
// tables of the few sections that dealt first took four turns in five, one section's tables
// dealt hands while most sections' had dealt none at 13 minutes, and 100,000 entries kept less
// than half their hands a second (the first measure of this gate, 7 December).
type reportGate struct {
	mu      sync.Mutex
	free    int
	hurried *list.List // of *gateWaiter, in the order they were hurried
	plain   *list.List // of *gateWaiter, in the order they came
	// waiting is each table's place in a queue; owed the tables hurried while not waiting, which
	// go with the hurried at their next turn.
	waiting map[string]*gateWaiter
	owed    map[string]bool
	// spent are the tables whose last turn was a hurried one: not hurried again before a turn
	// in the order they came.
	spent map[string]bool
	run   int // hurried turns in a row
}

// hurriedRun is the most turns in a row the hurried tables take while others wait: at least a
// fifth of the turns go to the others.
const hurriedRun = 4

type gateWaiter struct {
	table   string
	granted chan struct{}
	queue   *list.List
	elem    *list.Element
}

func newReportGate(n int) *reportGate {
	return &reportGate{free: n, hurried: list.New(), plain: list.New(), waiting: map[string]*gateWaiter{}, owed: map[string]bool{}, spent: map[string]bool{}}
}

// acquire waits for the table's turn, or for ctx to end (then the table holds none).
func (g *reportGate) acquire(ctx context.Context, table string) error {
	g.mu.Lock()
	hurried := g.owed[table]
	delete(g.owed, table)
	if g.free > 0 {
		g.free--
		g.spent[table] = hurried
		if !hurried {
			delete(g.spent, table)
		}
		g.mu.Unlock()
		return nil
	}
	w := &gateWaiter{table: table, granted: make(chan struct{}), queue: g.plain}
	if hurried {
		w.queue = g.hurried
	}
	w.elem = w.queue.PushBack(w)
	g.waiting[table] = w
	g.mu.Unlock()
	select {
	case <-w.granted:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		select {
		case <-w.granted:
			g.releaseLocked() // granted as ctx ended: the turn goes on
		default:
			w.queue.Remove(w.elem)
			delete(g.waiting, table)
		}
		return ctx.Err()
	}
}

// release ends a turn: the next table waiting has it.
func (g *reportGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.releaseLocked()
}

func (g *reportGate) releaseLocked() {
	q := g.plain
	if g.hurried.Len() > 0 && (g.run < hurriedRun || g.plain.Len() == 0) {
		q = g.hurried
	}
	e := q.Front()
	if e == nil {
		g.free++
		return
	}
	w := q.Remove(e).(*gateWaiter)
	if q == g.hurried {
		g.run++
		g.spent[w.table] = true
	} else {
		g.run = 0
		delete(g.spent, w.table)
	}
	delete(g.waiting, w.table)
	close(w.granted)
}

// hurry puts the table with the hurried: at once if it waits, at its next turn if not; not if
// its last turn was a hurried one.
func (g *reportGate) hurry(table string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.spent[table] {
		return
	}
	w, ok := g.waiting[table]
	if !ok {
		g.owed[table] = true
		return
	}
	if w.queue == g.hurried {
		return
	}
	w.queue.Remove(w.elem)
	w.queue = g.hurried
	w.elem = g.hurried.PushBack(w)
}
