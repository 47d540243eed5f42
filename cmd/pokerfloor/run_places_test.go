package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestAllRowsReadsBackTheRecord: a tournament of one section with more entries than it keeps rows
// for wrote every bust's row to placesFile (retried writes repeating some); the result's record
// is completed from it, every place once, best first.
func TestAllRowsReadsBackTheRecord(t *testing.T) {
	const entries = director.KeepRows + 50
	dir := t.TempDir()
	f, err := openPlaceFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	row := func(place int) floor.PlaceRow {
		return floor.PlaceRow{Place: place, Player: floor.PlayerID(fmt.Sprintf("p%04d", place)), Level: 1, Stack: int64(place)}
	}
	var busts []workflows.Place // worst first, as they are given
	for place := entries; place >= 2; place-- {
		r := row(place)
		busts = append(busts, workflows.Place{Place: place, Player: string(r.Player), Row: &r})
	}
	for from := 0; from < len(busts); from += 40 {
		// Each write repeats the 5 places before it (a retried activity).
		start := max(from-5, 0)
		if err := f.RecordPlaces(context.Background(), "t", start, busts[start:min(from+40, len(busts))]); err != nil {
			t.Fatal(err)
		}
	}
	res := workflows.TournamentResult{Entries: entries, Record: &director.RecordResult{}}
	for place := 1; place <= director.KeepRows; place++ {
		res.Record.Rows = append(res.Record.Rows, row(place))
	}
	if err := allRows(dir, res); err != nil {
		t.Fatal(err)
	}
	if len(res.Record.Rows) != entries {
		t.Fatalf("%d rows for %d entries", len(res.Record.Rows), entries)
	}
	for i, r := range res.Record.Rows {
		if want := row(i + 1); r.Place != want.Place || r.Player != want.Player || r.Stack != want.Stack {
			t.Fatalf("row %d: %+v", i+1, r)
		}
	}
}
