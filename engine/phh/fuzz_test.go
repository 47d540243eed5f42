package phh

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/shareddata"
)

// addSeeds adds the heads-up example, some edits of it, and a sample of the shipped hands.
func addSeeds(f *testing.F) {
	f.Add([]byte(headsUp))
	f.Add([]byte(headsUp + "players = ['a', \"b\\n\"]\nhand = 'x'\ntime = 19:05:00\n_x = [1, 2.5, {a = 1}]\n[_t]\nb = 'c'\n"))
	f.Add([]byte(strings.Replace(headsUp, "[1000, 1000]", "[1000.0, 1e3]", 1)))
	f.Add([]byte(strings.Replace(headsUp, "'p2 f'", "'p2 sm ????', 'p1 sm -', '# done'", 1)))
	f.Add([]byte(strings.ReplaceAll(headsUp, ", ", ",\n  # c\n  ")))
	// Small ones, which mutate into every field and value type quickly.
	for _, s := range []string{"variant = 'NT'\n", "antes = [0, 1.0]\n", "actions = ['p1 cbr 5', 'd db 2c']\n", "hand = 'x'\n_a = [true]\n", "time = 01:02:03\n"} {
		f.Add([]byte(s))
	}
	if dir, ok := shareddata.Find(); ok {
		paths, _ := filepath.Glob(filepath.Join(dir, "phh", "*", "*.phh"))
		more, _ := filepath.Glob(filepath.Join(dir, "phh", "pluribus", "*", "1*.phh"))
		for i, p := range append(paths, more...) {
			if i%97 != 0 {
				continue
			}
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
}

// FuzzParse: no input makes Parse panic, and whatever parses, Marshal writes and Parse reads back to
// an equal Hand.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Parse(data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse error %v is a %T, want an *Error", err, err)
			}
			return
		}
		out, err := h.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed hand: %v\ninput:\n%s", err, data)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Marshal()): %v\ninput:\n%s\nmarshaled:\n%s", err, data, out)
		}
		if !equalHands(h, back) {
			t.Fatalf("round trip changed the hand\ninput:\n%s\nmarshaled:\n%s\nbefore %+v\nafter  %+v", data, out, h, back)
		}
	})
}

// FuzzFastMatchesLibrary: the fast path and the TOML library agree on every input: when the fast path
// reads a file (it does not hand it over), the library reads the same Hand, or the same error.
func FuzzFastMatchesLibrary(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast, lib Parser
		var a, b Hand
		errA := fast.ParseInto(data, &a)
		if fast.general {
			return
		}
		errB := lib.parseWithLibrary(data, &b)
		switch {
		case (errA == nil) != (errB == nil):
			t.Fatalf("fast path: %v; library: %v\ninput:\n%q", errA, errB, data)
		case errA != nil && errA.Error() != errB.Error():
			t.Fatalf("fast path: %v\nlibrary:   %v\ninput:\n%q", errA, errB, data)
		case errA == nil && !equalHands(&a, &b):
			t.Fatalf("the paths read different hands\ninput:\n%q\nfast:    %+v\nlibrary: %+v", data, a, b)
		}
	})
}

// FuzzParseAction: no string makes ParseAction panic, and an action that parses writes a String that
// parses back to the same action.
func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"d dh p1 Kc8s", "d dh p2 ????", "d db JcTs2d", "p1 f", "p2 cc", "p3 cbr 225.0 # c", "p1 sm Js8h", "p1 sm", "# x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			if _, ok := err.(*ActionError); !ok {
				t.Fatalf("ParseAction error %v is a %T, want an *ActionError", err, err)
			}
			return
		}
		back, err := ParseAction(a.String())
		if err != nil {
			t.Fatalf("ParseAction(%q).String() = %q, which does not parse: %v", s, a.String(), err)
		}
		if !reflect.DeepEqual(a, back) {
			t.Fatalf("ParseAction(%q) = %+v; its String %q reads back as %+v", s, a, a.String(), back)
		}
	})
}
