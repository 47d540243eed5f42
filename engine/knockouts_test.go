package engine

import (
	"slices"
	"testing"
)

// TestLastChipsWinners: the player knocked out loses his last chips in the highest pot he reached
// (S3), so its winner takes a progressive knockout's bounty, even when another player won the
// main pot from him; players splitting that pot are listed from the first seat after the button
// (S2's order).
func TestLastChipsWinners(t *testing.T) {
	cases := []struct {
		name   string
		holes  []string
		board  string
		busts  []int
		want   map[int][]int
		stacks []int64
	}{
		{
			// Seat 0 (100 chips) wins the main pot with aces, seat 2 the side pot with kings: seat 1
			// (300) busts; his last chips were in the side pot.
			name: "the side pot's winner", holes: []string{"AsAh", "2s3h", "KsKh"}, board: "AdKd9h4c3s",
			busts: []int{1}, want: map[int][]int{1: {2}},
		},
		{
			// Seat 2's kings win both pots: seats 0 and 1 bust, each to seat 2.
			name: "both pots to one player", holes: []string{"2s3h", "4s5h", "KsKh"}, board: "AdKd9h7c8s",
			busts: []int{0, 1}, want: map[int][]int{0: {2}, 1: {2}},
		},
		{
			// Seats 1 and 2 tie (ace-king), seat 0 (100 chips) busts: the main pot holding his chips
			// is split, listed from the first seat after the button (seat 2).
			name: "a split pot", holes: []string{"2s3h", "AsKh", "AcKd"}, board: "AdKs9h7c4s", stacks: []int64{100, 1000, 1000},
			busts: []int{0}, want: map[int][]int{0: {1, 2}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stacks := c.stacks
			if stacks == nil {
				stacks = []int64{100, 300, 1000}
			}
			tb := newTestTable(t, Config{}, lv50, scripted(c.holes, c.board), stacks...)
			mustStart(t, tb)
			run(t, tb, []step{{2, AllIn, 0, ""}, {0, Call, 0, ""}, {1, Call, 0, ""}})
			r := tb.Result()
			var busted []int
			for _, e := range r.Eliminated[:r.NEliminated] {
				busted = append(busted, e.Seat)
			}
			if !slices.Equal(busted, c.busts) {
				t.Fatalf("busted %v, want %v (stacks %d %d %d)", busted, c.busts, tb.Stack(0), tb.Stack(1), tb.Stack(2))
			}
			for seat, want := range c.want {
				if got := tb.LastChipsWinners(seat); !slices.Equal(got, want) {
					t.Errorf("seat %d's last chips went to %v, want %v", seat, got, want)
				}
			}
		})
	}
	if got := (&Table{}).LastChipsWinners(0); got != nil {
		t.Errorf("before any hand: %v", got)
	}
}
