package director

import (
	"encoding/json"
	"sync"
	"testing"
)

// maxRecordState bounds the record's share of a continue-as-new input (the project's bound on
// the whole input is 256 KB, ARCHITECTURE.md, Scale): its aggregates, the best KeepRows rows and
// the rows a run may carry unwritten (the workflow's carryRows, 100).
const maxRecordState = 40 << 10

// largestOneSection is what one play of the largest field of one section measured, for the two
// tests below, which share it (it plays a whole tournament: once is enough).
type largestOneSection struct {
	spec TournamentSpec
	// largest is the largest continue-as-new input after a step (the spec and the state, as
	// TournamentInput encodes them), with left players left then; record the record's largest
	// share of one, with recordLeft left.
	largest, left      int
	record, recordLeft int
	// written are the places written out (by index among them, as the sink keeps them), given
	// the places given, kept the record's rows at the end, best the written places among the
	// best KeepRows.
	written     map[int]Place
	given, kept int
	// played: the play reached its end (a play stopped by a failure measured only its start).
	played bool
}

var (
	playOnce   sync.Once
	playResult largestOneSection
)

// playLargestOneSection plays a tournament of the most entries one section holds
// (OneSectionTables tables of 9) to its end, writing the record's rows out after every step as
// the workflow does (RecordPlaces), and measures after every step what its run would continue as
// new with (the record's share measured before the step's rows are written, as a run that
// continues as new carries them).
func playLargestOneSection(t *testing.T) largestOneSection {
	playOnce.Do(func() {
		r := &playResult
		r.spec = simSpec(OneSectionTables * 9)
		r.written = map[int]Place{}
		if r.spec.Sectioned() {
			return // the tests say so
		}
		f := newFloorSim(t, r.spec, 1)
		f.s.Step(f.now)
		f.flush()
		drain := func() {
			from, places := f.s.RecordUnwritten()
			for i, p := range places {
				r.written[from+i] = p
			}
			f.s.RecordWroteOut(len(places))
		}
		f.until(func() bool {
			rec, err := json.Marshal(f.s.Tools.Record)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec) > r.record {
				r.record, r.recordLeft = len(rec), f.s.Left()
			}
			drain()
			b, err := json.Marshal(struct {
				Spec  TournamentSpec   `json:"spec"`
				State *TournamentState `json:"state"`
			}{f.s.Spec, f.s})
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > r.largest {
				r.largest, r.left = len(b), f.s.Left()
			}
			return f.s.Finished || f.s.Left() <= 1
		})
		drain()
		r.given, r.kept = len(f.s.Field)-f.s.Left(), len(f.s.Tools.Record.Rows)
		r.played = true
	})
	if !playResult.played && !playResult.spec.Sectioned() {
		t.Fatal("the play of the largest field of one section stopped before its end (see the test that ran it first)")
	}
	return playResult
}

// TestRecordStreamsItsRows plays the largest field of one section to its end
// (playLargestOneSection): the record's part of a continue-as-new input stays within
// maxRecordState at every step instead of growing with the places (its rows alone were 210 KB),
// and the rows written and kept are every place given.
func TestRecordStreamsItsRows(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the largest field of one section")
	}
	r := playLargestOneSection(t)
	if r.spec.Sectioned() {
		t.Fatalf("%d entries should play as one section", r.spec.PlayerCount)
	}
	t.Logf("%d rows written for %d places given; the record's largest share of a continue-as-new input %d bytes, with %d left", len(r.written), r.given, r.record, r.recordLeft)
	if r.record > maxRecordState {
		t.Errorf("the record is %d bytes at %d entries (%d left): over %d", r.record, r.spec.PlayerCount, r.recordLeft, maxRecordState)
	}
	rows, best := map[int]bool{}, 0
	for i := range len(r.written) {
		p, ok := r.written[i]
		if !ok || p.Row == nil || p.Row.Place != p.Place || string(p.Row.Player) != p.Player {
			t.Fatalf("place %d written as %+v", i, p)
		}
		rows[p.Place] = true
		if p.Place <= KeepRows {
			best++
		}
	}
	if len(r.written) != r.given || len(rows) != r.given {
		t.Errorf("%d rows written (%d places) for %d places given", len(r.written), len(rows), r.given)
	}
	if r.kept != best {
		t.Errorf("%d rows kept, %d of the best %d places given", r.kept, best, KeepRows)
	}
}

// maxContinueAsNewInput is the design's bound on any run's continue-as-new input (ARCHITECTURE.md,
// Scale), an eighth of the server's 2 MB.
const maxContinueAsNewInput = 256 << 10

// TestOneSectionContinueAsNewInput plays the largest field of one section (OneSectionTables
// tables of 9) to its end, its rows written out after every step as the workflow does
// (playLargestOneSection, the play TestRecordStreamsItsRows shares), and measures after every
// step what its run would continue as new with (the spec and the state, as
// TournamentInput encodes them): the largest stays within maxContinueAsNewInput. The state keeps
// every player and table, and the busts grow to the end: at 200 tables it reached 310 KB with
// two left (the server's history showed 308 KB), which is why one section holds fewer.
func TestOneSectionContinueAsNewInput(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole tournament of one section")
	}
	r := playLargestOneSection(t)
	spec := r.spec
	if spec.Sectioned() {
		t.Fatalf("%d entries should play as one section", spec.PlayerCount)
	}
	if next := simSpec(OneSectionTables*9 + 1); !next.Sectioned() {
		t.Fatalf("%d entries should play in sections", next.PlayerCount)
	}
	largest, at := r.largest, r.left
	t.Logf("%d entries on %d tables: the largest continue-as-new input %d bytes, with %d left", spec.PlayerCount, OneSectionTables, largest, at)
	if largest > maxContinueAsNewInput {
		t.Errorf("a run of %d entries would continue as new with %d bytes (%d left): over %d", spec.PlayerCount, largest, at, maxContinueAsNewInput)
	}
}
