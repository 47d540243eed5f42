package director

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLinkDeliversOnceInOrder sends messages through a Link to an Inbox over a channel that loses,
// repeats and reorders them, with resends as a continued run makes: each arrives once, in order.
func TestLinkDeliversOnceInOrder(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		var l Link[int]
		var in Inbox[int]
		var wire []Numbered[int]
		var got []int
		for next := 1; next <= 200 || l.Pending(); {
			if next <= 200 && rng.IntN(2) == 0 {
				l.Send(next)
				next++
			}
			for _, m := range l.Take() {
				if rng.IntN(4) > 0 { // a quarter lost
					wire = append(wire, m)
				}
				if rng.IntN(10) == 0 {
					wire = append(wire, m) // repeated
				}
			}
			rng.Shuffle(len(wire), func(i, j int) { wire[i], wire[j] = wire[j], wire[i] })
			n := rng.IntN(len(wire) + 1)
			got = append(got, in.Add(wire[:n]...)...)
			wire = wire[n:]
			l.Ack(in.Last)
			if rng.IntN(8) == 0 {
				l.Resend() // a new run: what was not acknowledged goes again
			}
		}
		want := make([]int, 200)
		for i := range want {
			want[i] = i + 1
		}
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: got %v", seed, got)
		}
		if len(l.Unacked) != 0 || l.Queued != 0 {
			t.Fatalf("seed %d: %d unacked, %d queued after every ack", seed, len(l.Unacked), l.Queued)
		}
	}
}
