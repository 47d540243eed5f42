package workflows

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/director"
)

// TestRegisterBatchEndToEnd registers entries in batches through the client API on a real
// Temporal server, on a tournament of one section and on one of three sections (the tables deal
// nothing: the state stands still but for the entries): a batch of 1,000 late entries is taken
// in one Update, each entry answered with its ID; a batch with refused entries answers those with
// the reason (no player ID, a player registered already, the same player twice) and takes the
// others; the same batch sent again (another Update, the same entries' keys) takes nothing twice;
// a batch too large or with two entries of one key is refused whole. The field and the prize pool
// are then the entries taken, to the cent.
func TestRegisterBatchEndToEnd(t *testing.T) { // rules R1, R6
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	c := idleServer(t)
	for _, sections := range []int{0, 2} {
		name := "one section"
		if sections > 0 {
			name = "three sections"
		}
		t.Run(name, func(t *testing.T) {
			spec := clockSpec()
			spec.PlayerCount, spec.Players, spec.SectionTables = 40, nil, sections // 5 tables; 3 sections of 2, 2 and 1
			spec.LateRegistrationLevel, spec.BuyIn, spec.Fee = 4, 1100, 100
			if spec.Sectioned() != (sections > 0) {
				t.Fatalf("sectioned %v", spec.Sectioned())
			}
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancel()
			tour, err := StartTournament(ctx, c, "batch-"+strings.ReplaceAll(name, " ", "-"), "", spec)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = c.CancelWorkflow(context.Background(), tour.ID, "") }()

			// 1,000 late entries in one Update, each keyed by the batch's key and its index.
			big := RegisterBatchRequest{Key: "big"}
			for i := range director.MaxBatchEntries {
				big.Entries = append(big.Entries, BatchEntry{Player: fmt.Sprintf("late%04d", i)})
			}
			start := time.Now()
			res, err := tour.RegisterBatch(ctx, big)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("a batch of %d entries took %v", len(big.Entries), time.Since(start).Round(time.Millisecond))
			if len(res) != len(big.Entries) {
				t.Fatalf("%d answers for %d entries", len(res), len(big.Entries))
			}
			for i, r := range res {
				if r.Refused != "" || r.Entry != big.Entries[i].Player || r.Key != fmt.Sprintf("big/%d", i) {
					t.Fatalf("entry %d: %+v", i, r)
				}
			}

			// Refused entries beside taken ones, then the same batch again under another Update.
			mixed := RegisterBatchRequest{Key: "mixed", Entries: []BatchEntry{
				{Player: "alice", Key: "alice-1"},
				{Player: "", Key: "nobody-1"},
				{Player: "p0003", Key: "p0003-again"},
				{Player: "late0007", Key: "late0007-again"},
				{Player: "bob", Key: "bob-1"},
				{Player: "bob", Key: "bob-2"},
			}}
			want := []string{"", "needs a player ID", "registered already", "registered already", "", "registered"}
			check := func(res []BatchResult) {
				t.Helper()
				for i, r := range res {
					if w := want[i]; w == "" && (r.Refused != "" || r.Entry != mixed.Entries[i].Player) || w != "" && !strings.Contains(r.Refused, w) {
						t.Errorf("entry %d (%s): %+v, want refused %q", i, mixed.Entries[i].Player, r, w)
					}
				}
			}
			res, err = tour.RegisterBatch(ctx, mixed)
			if err != nil {
				t.Fatal(err)
			}
			check(res)
			retried := mixed
			retried.Key = "mixed-retried"
			res, err = tour.RegisterBatch(ctx, retried)
			if err != nil {
				t.Fatal(err)
			}
			check(res)

			// A batch too large, or with one key twice, is refused whole.
			tooBig := RegisterBatchRequest{Entries: make([]BatchEntry, director.MaxBatchEntries+1)}
			if _, err := tour.RegisterBatch(ctx, tooBig); err == nil || !strings.Contains(err.Error(), "expected 1 to 1000") {
				t.Errorf("a batch of %d: %v", len(tooBig.Entries), err)
			}
			twice := RegisterBatchRequest{Entries: []BatchEntry{{Player: "carol", Key: "k"}, {Player: "dave", Key: "k"}}}
			if _, err := tour.RegisterBatch(ctx, twice); err == nil || !strings.Contains(err.Error(), "same key") {
				t.Errorf("two entries of one key: %v", err)
			}

			// The field is the draw's 40, the 1,000 and alice and bob, once each; the pool theirs.
			field := 40 + director.MaxBatchEntries + 2
			var p Progress
			deadline := time.Now().Add(2 * time.Minute) // the sections' news reaches the tournament
			for {
				if p, err = tour.Progress(ctx); err != nil {
					t.Fatal(err)
				}
				if p.Entries == field || time.Now().After(deadline) {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			if p.Entries != field || p.PlayersLeft != field || p.PrizePool != int64(field)*(spec.BuyIn-spec.Fee) {
				t.Errorf("progress %+v: want %d entries and left, a pool of %d", p, field, int64(field)*(spec.BuyIn-spec.Fee))
			}
		})
	}
}
