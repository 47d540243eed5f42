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
