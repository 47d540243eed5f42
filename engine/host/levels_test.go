package host_test

import (
	"context"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// scheduled tells the table, with each batch, the levels that start during it (a simulation's
// schedule in hands: level k from hand 30k+1), and closes the table after hand 100.
type scheduled struct{ inner *host.LocalReporter }

func (s scheduled) Report(ctx context.Context, id string, rs []report.HandResult) (report.State, error) {
	st, err := s.inner.Report(ctx, id, rs)
	if err != nil || st.Directive != report.Play {
		return st, err
	}
	if st.HandNumber >= 100 {
		st.Directive = report.Close
		return st, nil
	}
	for k := range levels {
		from := int64(30*k + 1)
		if from > st.HandNumber+1 && from <= st.HandNumber+int64(st.Batch) {
			st.Levels = append(st.Levels, report.LevelFrom{From: from, Level: levels[k]})
		}
	}
	return st, nil
}

// TestRuleB3BatchCrossesLevels: a batch that crosses a level change deals each hand at the level
// the schedule gives its number (B3: a new level applies from the next hand, here the named one).
func TestRuleB3BatchCrossesLevels(t *testing.T) { // rule B3
	local := newLocal(t, 6, 45, nil) // batches of 45 cross the change at hands 31, 61 and 91
	opt := options(1, host.NewFakeClock(epoch))
	var dealt []report.HandResult
	opt.OnHand = func(r *report.HandResult) { dealt = append(dealt, *r) }
	if err := host.NewRunner("t1", scheduled{local}, all(caller), opt).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(dealt) < 100 {
		t.Fatalf("%d hands dealt, want 100", len(dealt))
	}
	for _, r := range dealt {
		if want := levels[min(int(r.HandNumber-1)/30, len(levels)-1)]; r.Level != want {
			t.Fatalf("hand %d dealt at %+v, want %+v", r.HandNumber, r.Level, want)
		}
	}
}
