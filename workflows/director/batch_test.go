package director

import (
	"strings"
	"testing"
)

// TestRebuyBatch: a batch of rebuys takes each one VerifyRebuy lets in and answers each refused
// one with its reason (no such player; over the limit, the second of one player's two in the
// batch), in the batch's order; the same batch again (a retry) takes none twice; a batch too
// large or with one key twice is refused whole. Each taken rebuy reaches its table and is
// answered there; the chips are conserved at every step after (R1, R6).
func TestRebuyBatch(t *testing.T) { // rules R1, R6
	spec := simSpec(30)
	spec.Rebuys, spec.RebuyLevel = 1, 50
	f := newFloorSim(t, spec, 5)
	f.flush()
	var seated []string
	f.until(func() bool {
		seated = seated[:0]
		for _, p := range f.s.Players {
			if p.Status == Seated && !p.Leaving && p.Stack < spec.Structure.StartingStack {
				seated = append(seated, p.ID)
			}
		}
		return len(seated) >= 2
	})
	a, b := seated[0], seated[1]
	req := RebuyBatchRequest{Key: "cashier", Rebuys: []RebuyRequest{{Player: a}, {Player: "ghost"}, {Player: b}, {Player: a, Key: "a-again"}}}
	if err := VerifyRebuyBatch(req); err != nil {
		t.Fatal(err)
	}
	pool, rebuys := f.s.Payouts.Pool, f.s.Entries.Rebuys
	res, refs := f.s.RebuyBatch(req, f.now)
	want := []string{"", `no player "ghost"`, "", "the limit is 1"}
	wantKeys := []string{"cashier/0", "cashier/1", "cashier/2", "a-again"}
	for i, r := range res {
		if w := want[i]; w == "" && r.Refused != "" || w != "" && !strings.Contains(r.Refused, w) || r.Key != wantKeys[i] || r.Player != req.Rebuys[i].Player {
			t.Errorf("rebuy %d (%s): %+v, want refused %q, key %s", i, req.Rebuys[i].Player, r, w, wantKeys[i])
		}
		if (refs[i] < 0) != (want[i] != "") {
			t.Errorf("rebuy %d: ref %d", i, refs[i])
		}
	}
	if f.s.Entries.Rebuys != rebuys+2 || f.s.Payouts.Pool != pool+2*spec.BuyIn {
		t.Errorf("%d rebuys, pool %d: want %d and %d", f.s.Entries.Rebuys, f.s.Payouts.Pool, rebuys+2, pool+2*spec.BuyIn)
	}
	// Sent again, as a retried Update: the taken ones are answered as taken, nothing twice.
	again, _ := f.s.RebuyBatch(req, f.now)
	if again[0].Refused != "" || again[2].Refused != "" || f.s.Entries.Rebuys != rebuys+2 {
		t.Errorf("the batch again: %+v, %d rebuys (want %d)", again, f.s.Entries.Rebuys, rebuys+2)
	}
	f.flush()
	f.until(func() bool { return f.s.RebuysDone(refs) })
	for i, r := range f.s.RebuyBatchResults(res, refs) {
		if refs[i] >= 0 && r.Refused != f.s.RebuyLog[refs[i]].Refused {
			t.Errorf("rebuy %d answered %+v, its table said %+v", i, r, f.s.RebuyLog[refs[i]])
		}
	}

	tooBig := RebuyBatchRequest{Rebuys: make([]RebuyRequest, MaxBatchEntries+1)}
	if err := VerifyRebuyBatch(tooBig); err == nil || !strings.Contains(err.Error(), "expected 1 to 1000") {
		t.Errorf("a batch of %d: %v", len(tooBig.Rebuys), err)
	}
	if err := VerifyRebuyBatch(RebuyBatchRequest{}); err == nil {
		t.Error("an empty batch taken")
	}
	twice := RebuyBatchRequest{Rebuys: []RebuyRequest{{Player: a, Key: "k"}, {Player: b, Key: "k"}}}
	if err := VerifyRebuyBatch(twice); err == nil || !strings.Contains(err.Error(), "same key") {
		t.Errorf("two rebuys of one key: %v", err)
	}
	f.run(200000) // every step checks the chips against the ledger
}
