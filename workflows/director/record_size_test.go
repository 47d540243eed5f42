package director

import (
	"encoding/json"
	"testing"
)

// maxRecordState bounds the record's share of a continue-as-new input (the project's bound on
// the whole input is 256 KB, ARCHITECTURE.md, Scale): its aggregates, the best KeepRows rows and
// the rows a run may carry unwritten (the workflow's carryRows, 100).
const maxRecordState = 40 << 10

// TestRecordStreamsItsRows plays a tournament of the most entries one section holds
// (OneSectionTables tables of 9) to its last 20 players, writing the record's rows out after every step as the workflow
// does (RecordPlaces), and measures what its run would continue as new with (the spec and the
// state): the record's part stays within maxRecordState instead of growing with the places (its
// rows alone were 210 KB), and the rows written and kept are every place given.
func TestRecordStreamsItsRows(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the largest field of one section")
	}
	spec := simSpec(OneSectionTables * 9)
	if spec.Sectioned() {
		t.Fatalf("%d entries should play as one section", spec.PlayerCount)
	}
	f := newFloorSim(t, spec, 1)
	f.s.Step(f.now)
	f.flush()
	written := map[int]Place{} // by index among the places written, as the sink keeps them
	drain := func() {
		from, places := f.s.RecordUnwritten()
		for i, p := range places {
			written[from+i] = p
		}
		f.s.RecordWroteOut(len(places))
	}
	f.until(func() bool { drain(); return f.s.Left() <= 20 })
	// The last step's rows, as a run that continues as new carries them.
	from, unwritten := f.s.RecordUnwritten()
	in := struct {
		Spec  TournamentSpec   `json:"spec"`
		State *TournamentState `json:"state"`
	}{f.s.Spec, f.s}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := json.Marshal(f.s.Tools.Record)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d left, %d rows written, %d unwritten: continue-as-new input %d bytes, the record %d of them", f.s.Left(), from, len(unwritten), len(b), len(rec))
	if len(rec) > maxRecordState {
		t.Errorf("the record is %d bytes at %d entries (%d left): over %d", len(rec), spec.PlayerCount, f.s.Left(), maxRecordState)
	}
	drain()
	rows, best := map[int]bool{}, 0
	for i := range len(written) {
		p, ok := written[i]
		if !ok || p.Row == nil || p.Row.Place != p.Place || string(p.Row.Player) != p.Player {
			t.Fatalf("place %d written as %+v", i, p)
		}
		rows[p.Place] = true
		if p.Place <= KeepRows {
			best++
		}
	}
	if given := len(f.s.Field) - f.s.Left(); len(written) != given || len(rows) != given {
		t.Errorf("%d rows written (%d places) for %d places given", len(written), len(rows), given)
	}
	if n := len(f.s.Tools.Record.Rows); n != best {
		t.Errorf("%d rows kept, %d of the best %d places given", n, best, KeepRows)
	}
}

// maxContinueAsNewInput is the design's bound on any run's continue-as-new input (ARCHITECTURE.md,
// Scale), an eighth of the server's 2 MB.
const maxContinueAsNewInput = 256 << 10

// TestOneSectionContinueAsNewInput plays the largest field of one section (OneSectionTables
// tables of 9) to its end, its rows written out after every step as the workflow does, and
// measures after every step what its run would continue as new with (the spec and the state, as
// TournamentInput encodes them): the largest stays within maxContinueAsNewInput. The state keeps
// every player and table, and the busts grow to the end: at 200 tables it reached 310 KB with
// two left (the server's history showed 308 KB), which is why one section holds fewer.
func TestOneSectionContinueAsNewInput(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole tournament of one section")
	}
	spec := simSpec(OneSectionTables * 9)
	if spec.Sectioned() {
		t.Fatalf("%d entries should play as one section", spec.PlayerCount)
	}
	if next := simSpec(OneSectionTables*9 + 1); !next.Sectioned() {
		t.Fatalf("%d entries should play in sections", next.PlayerCount)
	}
	f := newFloorSim(t, spec, 1)
	f.s.Step(f.now)
	f.flush()
	largest, at := 0, 0
	f.until(func() bool {
		_, rows := f.s.RecordUnwritten()
		f.s.RecordWroteOut(len(rows))
		b, err := json.Marshal(struct {
			Spec  TournamentSpec   `json:"spec"`
			State *TournamentState `json:"state"`
		}{f.s.Spec, f.s})
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > largest {
			largest, at = len(b), f.s.Left()
		}
		return f.s.Finished || f.s.Left() <= 1
	})
	t.Logf("%d entries on %d tables: the largest continue-as-new input %d bytes, with %d left", spec.PlayerCount, OneSectionTables, largest, at)
	if largest > maxContinueAsNewInput {
		t.Errorf("a run of %d entries would continue as new with %d bytes (%d left): over %d", spec.PlayerCount, largest, at, maxContinueAsNewInput)
	}
}
