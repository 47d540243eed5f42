package workflows

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestTableGoneWhenForgotten: a signal of orders to a table that failed asks whether the table is
// gone; a section forgets a table once it has closed (compact), and the question dereferenced the
// missing record: the section's workflow task panicked at every attempt (a 10,000-entry run of
// 2 December: 92 panics in 6 of its 12 sections, each section stuck from its first). A table no
// longer on the books is gone.
func TestTableGoneWhenForgotten(t *testing.T) {
	s := &director.TournamentState{Tables: []director.TableRecord{{ID: 1}, {ID: 2, Closing: true}}}
	for _, c := range []struct {
		id   floor.TableID
		gone bool
	}{{1, false}, {2, true}, {3, true}} {
		if got := tableGone(s, c.id); got != c.gone {
			t.Errorf("table %d gone %v, want %v", c.id, got, c.gone)
		}
	}
}
