package workflows

import (
	"context"
	"fmt"
	"slices"

	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// SeatQuery returns where one player sits (a Seat), given his entry's ID. Every workflow of a
// tournament answers it from what it holds: the TournamentWorkflow of one section and each
// SectionWorkflow from their players' records, the TournamentWorkflow of sections from its places
// and the players between two sections only (Tournament.Seat asks the sections).
const SeatQuery = "seat"

// SeatStatus is where a player is, as a player's connection needs it.
type SeatStatus string

// The statuses of a Seat.
const (
	SeatSeated  SeatStatus = "seated"  // at Table (maybe told to move, dealing his last hand there)
	SeatMoving  SeatStatus = "moving"  // between two tables (or two sections): his new seat is not his yet
	SeatWaiting SeatStatus = "waiting" // registered, not at a table yet
	SeatOut     SeatStatus = "out"     // eliminated, disqualified or withdrawn: he has no seat any more
	SeatUnknown SeatStatus = "unknown" // no such entry
)

// Seat is where a player sits: for SeatSeated, the table's number, its TableWorkflow's ID (the
// table process's --table) and his seat (floor's numbering).
type Seat struct {
	Player  string        `json:"player"`
	Status  SeatStatus    `json:"status"`
	Table   floor.TableID `json:"table,omitempty"`
	TableID string        `json:"tableID,omitempty"`
	Seat    floor.Seat    `json:"seat,omitempty"`
	// Section is the workflow ID of the section that holds his record (empty with one section).
	Section string `json:"section,omitempty"`
}

// Seat says where player sits now. A tournament of sections keeps no player's record itself: the
// sections in play are asked one after the other, then the tournament (its places, and the players
// between two sections). A player who moves from one section to another while they are asked may
// be found in neither: he is then SeatUnknown for a moment, and asking again finds him.
func (t *Tournament) Seat(ctx context.Context, player string) (Seat, error) {
	if player == "" {
		return Seat{}, fmt.Errorf("a seat is asked for a player: the entry's ID is empty")
	}
	var sections []string
	if err := t.query(ctx, SectionsQuery, &sections); err != nil {
		return Seat{}, err
	}
	for _, id := range sections {
		v, err := t.client.QueryWorkflow(ctx, id, "", SeatQuery, player)
		if err != nil {
			return Seat{}, fmt.Errorf("the seat of %s in section %s: %w", player, id, err)
		}
		var s Seat
		if err := v.Get(&s); err != nil {
			return Seat{}, fmt.Errorf("the seat of %s in section %s: %w", player, id, err)
		}
		if s.Status != SeatUnknown {
			s.Section = id
			return s, nil
		}
	}
	var s Seat
	return s, t.query(ctx, SeatQuery, &s, player)
}

// seatOf is the SeatQuery of a TournamentWorkflow of one section or a SectionWorkflow: the
// player's record, read only.
func seatOf(s *director.TournamentState, player string) Seat {
	out := Seat{Player: player, Status: SeatUnknown}
	i := slices.IndexFunc(s.Players, func(p director.PlayerRecord) bool { return p.ID == player })
	if i < 0 {
		return out
	}
	p := s.Players[i]
	if sec := s.Section; sec != nil && slices.ContainsFunc(sec.Out, func(tr director.Transfer) bool { return tr.Player == player }) {
		out.Status = SeatMoving // gone to another section: out of this one's books, not yet in the other's
		return out
	}
	switch p.Status {
	case director.Seated:
		out.Status, out.Table, out.Seat = SeatSeated, p.Table, p.Seat
		if t := s.Table(p.Table); t != nil {
			out.TableID = t.WorkflowID
		}
	case director.Moving:
		out.Status = SeatMoving
	case director.Waiting:
		out.Status = SeatWaiting
	default:
		out.Status = SeatOut
	}
	return out
}

// topSeatOf is the SeatQuery of a TournamentWorkflow of sections: a player between two sections
// is moving, one with a place is out; of any other it knows nothing (his section does).
func topSeatOf(t *director.TopState, player string) Seat {
	out := Seat{Player: player, Status: SeatUnknown}
	switch {
	case slices.ContainsFunc(t.InTransit, func(tr director.Transfer) bool { return tr.Player == player }):
		out.Status = SeatMoving
	case slices.ContainsFunc(t.Places, func(p Place) bool { return p.Player == player }),
		slices.ContainsFunc(t.Unwritten, func(p Place) bool { return p.Player == player }):
		out.Status = SeatOut
	}
	return out
}
