package director

import (
	"slices"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestSeatedAndSentOutInOneEvent: a player moved to another table of his section, seated there
// and sent on to another section before that table told anything, arrives and leaves in one event
// (Seated and Out). He is gone from the section's count. The section took the event's Out first
// and its Seated after, and marked the player who had left seated again: a player with no chips
// counted at a table he was not at, and once that table broke the section told the tournament it
// had players at no table, which the whole field's plan refuses (2,000 entries, seed 3, with the
// table orders' resend delayed: "section 7 seats 2 players at 0 tables of 9").
func TestSeatedAndSentOutInOneEvent(t *testing.T) { // rules R3, R4
	spec := simSpec(300)
	spec.SectionTables = 10
	sim := newSectionSim(t, spec, 1)
	s := sim.sections[1].s
	from, to := &s.Tables[0], &s.Tables[1]
	player := slices.IndexFunc(from.Seats, func(p string) bool { return p != "" })
	p := from.Seats[player]
	stack := from.Stacks[player]
	seat := slices.Index(to.Seats, "")
	if seat < 0 {
		to.Seats = append(to.Seats, "") // a seat for him (the draw filled the table)
		to.Stacks = append(to.Stacks, 0)
		seat = len(to.Seats) - 1
	}
	left := s.Left()

	s.orderPlan(floor.Plan{Moves: []floor.Move{{Player: floor.PlayerID(p), From: from.ID, FromSeat: floor.Seat(player + 1), To: to.ID, ToSeat: floor.Seat(seat + 1), Reason: floor.MoveBalance}}})
	ref := s.MoveRefs
	// His table moves him: he is on his way (a seat order goes to the other table).
	seats, stacks := slices.Clone(from.Seats), slices.Clone(from.Stacks)
	seats[player], stacks[player] = "", 0
	s.OnEvent(TableEvent{Table: from.ID, Seq: from.EventSeq + 1, Acked: from.Sent, Seats: seats, Stacks: stacks,
		Out: []MovedOut{{Ref: ref, Player: p, Stack: stack, To: to.ID, ToSeat: floor.Seat(seat + 1), Reason: floor.MoveBalance}}})
	if q := s.player(p); q == nil || q.Status != Moving {
		t.Fatalf("%s after his table moved him: %+v, want moving", p, q)
	}
	// The other table seats him and, ordered to send a player to section 2, sends him at once:
	// one event says both.
	s.Section.Owed = append(s.Section.Owed, SendOutOrder{To: 2, Players: 1})
	s.MoveRefs++
	s.Section.Sending = append(s.Section.Sending, Arrival{Ref: s.MoveRefs, Player: p})
	s.OnEvent(TableEvent{Table: to.ID, Seq: to.EventSeq + 1, Acked: to.Sent, Seats: slices.Clone(to.Seats), Stacks: slices.Clone(to.Stacks),
		Seated: []string{p}, Out: []MovedOut{{Ref: s.MoveRefs, Player: p, Stack: stack, Section: 2, Reason: floor.MoveBalance}}})
	if q := s.player(p); q != nil && q.Status != Out {
		t.Errorf("%s, seated and sent to section 2 in one event: %s at table %d, want out of section 1", p, q.Status, q.Table)
	}
	if got := s.Left(); got != left-1 {
		t.Errorf("section 1 counts %d players, want %d (one went to section 2)", got, left-1)
	}
	ev, _ := s.SectionReport()
	if len(ev.Out) != 1 || ev.Out[0].Player != p || ev.Out[0].To != 2 {
		t.Errorf("section 1's event sends %+v, want %s to section 2", ev.Out, p)
	}
	if len(s.ChipErrors) > 0 {
		t.Errorf("section 1: %s", strings.Join(s.ChipErrors, "; "))
	}
}
