package plugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseEntries(t *testing.T) {
	good := []struct {
		name, csv string
		want      []pokerv1.Entry
	}{
		{"KindDefaultsToEntry", "player,kind,displayName\nann,,Ann\nbob,rebuy,\n",
			[]pokerv1.Entry{{Player: "ann", Kind: "entry", DisplayName: "Ann"}, {Player: "bob", Kind: "rebuy"}}},
		{"ColumnsInAnyOrder", "displayName,player\nAnn A.,ann\n", []pokerv1.Entry{{Player: "ann", Kind: "entry", DisplayName: "Ann A."}}},
		{"SamePlayerOtherKind", "player,kind\nann,entry\nann,reEntry\n",
			[]pokerv1.Entry{{Player: "ann", Kind: "entry"}, {Player: "ann", Kind: "reEntry"}}},
		{"QuotedCommaAndBOM", "\ufeffplayer,displayName\nann,\"Smith, Ann\"\n", []pokerv1.Entry{{Player: "ann", Kind: "entry", DisplayName: "Smith, Ann"}}},
	}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseEntries("e.csv", strings.NewReader(c.csv))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("entry %d: got %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
	bad := []struct{ name, csv, want string }{
		{"Empty", "", "e.csv is empty"},
		{"NoPlayerColumn", "name,kind\nann,entry\n", `line 1: unknown column "name"`},
		{"HeaderOnly", "player,kind\n", "has a header but no entries"},
		{"RuleR1UnknownKind", "player,kind\nann,entry\nbob,rebuyy\n", `line 3: kind "rebuyy": want entry, reEntry, rebuy or addOn`},
		{"BadPlayerID", "player\nann\n-bob\n", `line 3: player "-bob": an ID is at most 64`},
		{"NoPlayer", "player,kind\n,entry\n", "line 2: no player ID"},
		{"Duplicate", "player,kind\nann,entry\nbob,entry\nann,\n", "line 4: player ann has a second entry (the first on line 2)"},
		{"TooManyFields", "player,kind\nann,entry,Ann\n", "line 2: 3 fields, but the header names 2"},
		{"BadQuote", "player\n\"ann\n", "line 2"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := parseEntries("e.csv", strings.NewReader(c.csv))
			if _, usage := err.(usageError); !usage || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want a usage error saying %q", err, c.want)
			}
		})
	}
	t.Run("EveryBadLineReported", func(t *testing.T) {
		_, err := parseEntries("e.csv", strings.NewReader("player,kind\n-a,entry\nb,x\nc,entry\n,\n"))
		if err == nil || !strings.Contains(err.Error(), "3 bad line(s), nothing registered") {
			t.Errorf("got %v, want the 3 bad lines", err)
		}
	})
}

func TestEntryBatches(t *testing.T) {
	entries := make([]pokerv1.Entry, 2*pokerv1.MaxEntriesPerBatch+1)
	for i := range entries {
		entries[i] = pokerv1.Entry{Player: "p" + strings.Repeat("x", i%7) + string(rune('a'+i%26)), Kind: "entry"}
	}
	b := entryBatches("poker", "spring-main", entries)
	if len(b) != 3 || len(b[0].Spec.Entries) != pokerv1.MaxEntriesPerBatch || len(b[2].Spec.Entries) != 1 {
		t.Fatalf("%d entries cut into %d batches, want 3 of at most %d", len(entries), len(b), pokerv1.MaxEntriesPerBatch)
	}
	again := entryBatches("poker", "spring-main", entries)
	grown := entryBatches("poker", "spring-main", append(entries[:len(entries):len(entries)], pokerv1.Entry{Player: "new", Kind: "entry"}))
	other := entryBatches("poker", "autumn-deep", entries)
	for i := range b {
		if b[i].Name != again[i].Name {
			t.Errorf("batch %d: named %s, then %s from the same entries", i, b[i].Name, again[i].Name)
		}
		if b[i].Name == other[i].Name {
			t.Errorf("batch %d: the same name %s for two tournaments", i, b[i].Name)
		}
		if !strings.HasPrefix(b[i].Name, "spring-main-entries-") || len(b[i].Name) > 253 {
			t.Errorf("batch %d: name %q", i, b[i].Name)
		}
	}
	if grown[0].Name != b[0].Name || grown[1].Name != b[1].Name || grown[2].Name == b[2].Name {
		t.Errorf("a file that grew by one entry renamed batches other than the last: %s %s %s vs %s %s %s",
			grown[0].Name, grown[1].Name, grown[2].Name, b[0].Name, b[1].Name, b[2].Name)
	}
}

func TestMoney(t *testing.T) {
	for _, c := range []struct {
		cents int64
		want  string
	}{{0, "0.00 EUR"}, {5, "0.05 EUR"}, {240000, "2,400.00 EUR"}, {-1234567, "-12,345.67 EUR"}, {100000000001, "1,000,000,000.01 EUR"}} {
		if got := money(c.cents, "EUR"); got != c.want {
			t.Errorf("money(%d) = %q, want %q", c.cents, got, c.want)
		}
	}
}
