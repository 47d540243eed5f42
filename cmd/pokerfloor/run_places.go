package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// placesFile, in the data dir, holds the places of a tournament of sections as they are given,
// one JSON object a line: its workflow keeps only the best workflows' places in its state, so
// the run reads the whole list from here at the end. A tournament of one section writes its
// record's rows here the same way (each place with its row: its state keeps the best).
const placesFile = "places.jsonl"

// placeFile is the local run's workflows.PlaceSink: it appends the places to placesFile. A call
// that repeats places already written (a retried activity) writes only those after them.
type placeFile struct {
	mu      sync.Mutex
	path    string
	written int
}

var _ workflows.PlaceSink = (*placeFile)(nil)

// openPlaceFile counts the places a run before this one wrote (a resumed tournament's).
func openPlaceFile(dataDir string) (*placeFile, error) {
	f := &placeFile{path: filepath.Join(dataDir, placesFile)}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	// A line cut short by a kill is not a place: it is written again.
	if k := bytes.LastIndexByte(data, '\n'); k+1 < len(data) {
		if err := os.Truncate(f.path, int64(k+1)); err != nil {
			return nil, err
		}
		data = data[:k+1]
	}
	f.written = bytes.Count(data, []byte{'\n'})
	return f, nil
}

// RecordPlaces appends the places from index from on.
func (f *placeFile) RecordPlaces(_ context.Context, tournament string, from int, places []workflows.Place) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if from > f.written {
		return fmt.Errorf("tournament %s: places from %d, %d written: the ones between are missing", tournament, from, f.written)
	}
	places = places[min(f.written-from, len(places)):]
	if len(places) == 0 {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, p := range places {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	out, err := os.OpenFile(f.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := out.Write(b.Bytes()); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	f.written += len(places)
	return nil
}

// readPlaces reads placesFile, best place first.
func readPlaces(dataDir string) ([]workflows.Place, error) {
	in, err := os.Open(filepath.Join(dataDir, placesFile))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	var out []workflows.Place
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		var p workflows.Place
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", placesFile, len(out)+1, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b workflows.Place) int { return a.Place - b.Place })
	return out, nil
}

// allPlaces is every place of the result: a tournament of sections keeps only its best places,
// and wrote every one to placesFile.
func allPlaces(dataDir string, r workflows.TournamentResult) ([]workflows.Place, error) {
	if len(r.Places) >= r.Entries {
		return r.Places, nil
	}
	all, err := readPlaces(dataDir)
	if err != nil {
		return nil, fmt.Errorf("the result keeps %d places of %d and the rest cannot be read: %w", len(r.Places), r.Entries, err)
	}
	if len(all) < r.Entries {
		return nil, fmt.Errorf("%s holds %d places of %d", placesFile, len(all), r.Entries)
	}
	return all, nil
}

// allRows completes the record's rows of the result: a tournament of one section keeps its best
// director.KeepRows rows and wrote every row but the winner's to placesFile, each with its place.
func allRows(dataDir string, r workflows.TournamentResult) error {
	rec := r.Record
	if rec == nil || r.Entries <= director.KeepRows {
		return nil // nothing was left out
	}
	all, err := readPlaces(dataDir)
	if err != nil {
		return fmt.Errorf("the result keeps %d rows of the record for %d entries and the rest cannot be read: %w", len(rec.Rows), r.Entries, err)
	}
	kept := map[floor.PlayerID]bool{}
	for _, row := range rec.Rows {
		kept[row.Player] = true
	}
	for _, p := range all {
		if p.Row != nil && !kept[p.Row.Player] {
			kept[p.Row.Player] = true
			rec.Rows = append(rec.Rows, *p.Row)
		}
	}
	slices.SortStableFunc(rec.Rows, func(a, b floor.PlaceRow) int { return a.Place - b.Place })
	return nil
}
