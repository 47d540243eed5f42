package phh

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/shareddata"
)

// shippedHand is one hand history of the shared test data, read into memory.
type shippedHand struct {
	path string
	data []byte
}

// loadShipped reads every *.phh under the shared test data's phh folder.
func loadShipped(tb testing.TB) []shippedHand {
	tb.Helper()
	root := filepath.Join(shareddata.Dir(tb), "phh")
	var hands []shippedHand
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".phh" {
			return err
		}
		data, err := os.ReadFile(path)
		hands = append(hands, shippedHand{path, data})
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(hands) == 0 {
		tb.Fatalf("no .phh files under %s", root)
	}
	return hands
}

// The shipped data is 5,081 hands; a test that sees fewer has lost some.
const shippedCount = 5081

func TestParseEveryShippedHand(t *testing.T) {
	hands := loadShipped(t)
	if len(hands) != shippedCount {
		t.Errorf("found %d hands, want %d", len(hands), shippedCount)
	}
	for _, s := range hands {
		h, err := Parse(s.data)
		if err != nil {
			t.Errorf("%s: %v", s.path, err)
			continue
		}
		if len(h.FinishingStacks) != h.NumPlayers() || len(h.Players) != h.NumPlayers() {
			t.Errorf("%s: %d finishing stacks and %d players for %d starting stacks", s.path, len(h.FinishingStacks), len(h.Players), h.NumPlayers())
		}
	}
}

// Parse, Marshal, Parse again: the same Hand.
func TestRoundTripEveryShippedHand(t *testing.T) {
	for _, s := range loadShipped(t) {
		h, err := Parse(s.data)
		if err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		out, err := h.Marshal()
		if err != nil {
			t.Fatalf("%s: Marshal: %v", s.path, err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: Parse(Marshal()): %v\n%s", s.path, err, out)
		}
		if !reflect.DeepEqual(h, back) {
			t.Fatalf("%s: round trip changed the hand\nbefore %+v\nafter  %+v", s.path, h, back)
		}
	}
}

// The shipped files are canonical already: Marshal writes each one back byte for byte, but for TOML
// comments (which are not part of the hand) and a final newline.
func TestMarshalIsCanonicalOnShippedHands(t *testing.T) {
	comment := regexp.MustCompile(`(?m)\s+#[^'\n]*$`)
	for _, s := range loadShipped(t) {
		h, err := Parse(s.data)
		if err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		out, err := h.Marshal()
		if err != nil {
			t.Fatalf("%s: Marshal: %v", s.path, err)
		}
		want := append(bytes.TrimRight(comment.ReplaceAll(s.data, nil), "\n"), '\n')
		if !bytes.Equal(out, want) {
			t.Fatalf("%s: Marshal wrote\n%s\nwant\n%s", s.path, out, want)
		}
	}
}

// Both paths, the fast scanner and the TOML library, read every shipped file to the same Hand.
func TestFastPathMatchesLibraryOnShippedHands(t *testing.T) {
	var fast, general Parser
	for _, s := range loadShipped(t) {
		var a, b Hand
		if err := fast.ParseInto(s.data, &a); err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		if fast.general {
			t.Errorf("%s: the fast path fell back to the library", s.path)
		}
		if err := general.parseWithLibrary(s.data, &b); err != nil {
			t.Fatalf("%s: library path: %v", s.path, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: paths differ\nfast    %+v\nlibrary %+v", s.path, a, b)
		}
	}
}

// ParseInto reusing one Hand gives what Parse gives afresh.
func TestParseIntoReuseMatchesParse(t *testing.T) {
	var p Parser
	var reused Hand
	for _, s := range loadShipped(t) {
		if err := p.ParseInto(s.data, &reused); err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		fresh, err := Parse(s.data)
		if err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
		if !reflect.DeepEqual(*fresh, reused) {
			t.Fatalf("%s: ParseInto into a used Hand differs from Parse\nfresh  %+v\nreused %+v", s.path, fresh, reused)
		}
	}
}
