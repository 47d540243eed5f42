package replay

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/engine/shareddata"
)

// corpus reads every shipped hand history: the path and the bytes.
func corpus(t testing.TB) (paths []string, data [][]byte) {
	dir := filepath.Join(shareddata.Dir(t), "phh")
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".phh") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		paths = append(paths, p)
		data = append(data, b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Sort(byPath{paths, data})
	return paths, data
}

type byPath struct {
	p []string
	d [][]byte
}

func (b byPath) Len() int           { return len(b.p) }
func (b byPath) Less(i, j int) bool { return b.p[i] < b.p[j] }
func (b byPath) Swap(i, j int)      { b.p[i], b.p[j] = b.p[j], b.p[i]; b.d[i], b.d[j] = b.d[j], b.d[i] }

// TestCorpusFinishingStacks replays every shipped hand and compares the final stacks exactly.
func TestCorpusFinishingStacks(t *testing.T) {
	paths, data := corpus(t)
	if len(paths) != 5081 {
		t.Errorf("%d hands in the corpus, want 5081", len(paths))
	}
	var r Replayer
	failed := 0
	for i, b := range data {
		h, err := phh.Parse(b)
		if err == nil {
			err = r.Check(h)
		}
		if err != nil {
			failed++
			if failed <= 20 {
				t.Errorf("%s: %v", paths[i], err)
			}
		}
	}
	t.Logf("%d passed, %d failed", len(paths)-failed, failed)
}

// A history whose stacks or actions break the rules is refused, with the rule.
func TestReplayRefusesWrongHistories(t *testing.T) {
	const src = `variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 cbr 300', 'p1 cbr 500', 'p2 f', 'p3 f']
finishing_stacks = [10400, 9900, 9700]
`
	h, err := phh.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var r Replayer
	if err := r.Check(h); err != nil {
		t.Fatalf("the good hand: %v", err)
	}
	h.FinishingStacks[0]++
	if err := r.Check(h); err == nil || !strings.Contains(err.Error(), "finishing stacks") {
		t.Fatalf("wrong finishing stacks accepted: %v", err)
	}
	h, _ = phh.Parse([]byte(strings.Replace(src, "'p1 cbr 500'", "'p1 cbr 400'", 1)))
	if err := r.Replay(h); err == nil || !strings.Contains(err.Error(), "minimum raise to 500 (rule A5)") {
		t.Fatalf("a raise below the minimum: %v", err)
	}
}

// The reader follows the PHH standard and RULES.md: heads-up arrays small blind first and
// reverse-assigned (rule B6), ante_trimming_status read as the standard does and refused only where
// it changes the hand (rule B2), and A10 by the rule book unless the file says otherwise.
func TestReplayReadsTheStandard(t *testing.T) {
	for _, c := range []struct {
		name, file, err string
	}{
		{"rule B6: heads-up, blinds small blind first: p2, the button, posts 1 and acts first",
			"antes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 6', 'p1 f']\nfinishing_stacks = [98, 102]\n", ""},
		{"rule B2: heads-up big-blind ante [0, 3] is posted by p1, the big blind",
			"antes = [0, 3]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\nfinishing_stacks = [101, 99]\n", ""},
		{"rule B6: heads-up written big blind first is refused with what to write",
			"antes = [0, 0]\nblinds_or_straddles = [2, 1]\nmin_bet = 2\nstarting_stacks = [100, 100]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p1 f']\nfinishing_stacks = [99, 101]\n",
			"heads-up, blinds_or_straddles is written small blind first: [2, 1]"},
		{"rule B2: uniform antes without ante_trimming_status, every stack covering the ante",
			"antes = [10, 10, 10]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\nstarting_stacks = [1000, 1000, 1000]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 f', 'p1 f']\nfinishing_stacks = [940, 1070, 990]\n", ""},
		{"rule B2: uniform dead antes with a stack short of the ante are refused, saying why",
			"antes = [10, 10, 10]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\nstarting_stacks = [1000, 1000, 5]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p1 f']\nfinishing_stacks = [940, 1080, 990]\n",
			"p3's stack 5 is short of the ante 10"},
		{"rule A10: without _short_open, a raise to 150 over an all-in of 20 is refused",
			"antes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\nstarting_stacks = [1000, 120, 1000]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 3h4h5c', 'p1 cc', 'p2 cbr 20', 'p3 cbr 150']\n",
			"raise to 150 is below the minimum raise to 200 (rule A10)"},
		{"rule A10: _short_open = 'plus-blind' says the file was played otherwise",
			"antes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\nstarting_stacks = [1000, 120, 1000]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 cc', 'p1 cc', 'p2 cc', 'd db 3h4h5c', 'p1 cc', 'p2 cbr 20', 'p3 cbr 150', 'p1 f']\n" +
				"_short_open = 'plus-blind'\n", ""},
		{"rule T5: a killed hand written as its fold, with _sitting_out",
			"antes = [0, 0, 0]\nblinds_or_straddles = [50, 100, 0]\nmin_bet = 100\nstarting_stacks = [1000, 1000, 1000]\n" +
				"actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 f', 'p1 f']\nfinishing_stacks = [950, 1050, 1000]\n_sitting_out = [3]\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := phh.Parse([]byte("variant = 'NT'\n" + c.file))
			if err != nil {
				t.Fatal(err)
			}
			var r Replayer
			if len(h.FinishingStacks) > 0 {
				err = r.Check(h)
			} else {
				err = r.Replay(h)
			}
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want %q", err, c.err)
			}
		})
	}
}
