package director

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// The director's end-of-run list (floor.TournamentRecord), kept from the tournament's news: each
// place's bust level, table, hand and eliminators, the bubble, the final table, the chip leader
// and the average stack over time, eliminations, breaks and moves by level. The record's
// aggregates are bounded; of the places' rows (one a player, about 120 bytes each: 210 KB at
// 1,800 entries) the state keeps the best KeepRows, and queues every one to be written out as a
// Place with its Row (Unwritten, through the RecordPlaces activity to the run's PlaceSink, as a
// tournament of sections writes its places), so that a run's continue-as-new input stays bounded.

// KeepRows is how many of the best places' rows the record keeps in the state (and in the result).
const KeepRows = 100

// RecordState is the record and what it has taken in so far.
type RecordState struct {
	Record *floor.TournamentRecord `json:"record"`
	// Rows are the best places given so far (at most KeepRows), as the record streamed them.
	Rows []floor.PlaceRow `json:"rows,omitempty"`
	// Unwritten are the rows given and not yet written out, as places; Written counts those
	// written (the index of Unwritten[0] among them).
	Unwritten []Place `json:"unwritten,omitempty"`
	Written   int     `json:"written,omitempty"`
	// Facts are the busts heard from the tables and not yet placed (a hand-for-hand round's wait
	// for its other tables): where and to whom each player went out.
	Facts map[string]bustFacts `json:"facts,omitempty"`
	// Groups, Levels are how many of the state's bust groups and level changes the record has.
	Groups int `json:"groups,omitempty"`
	Levels int `json:"levels,omitempty"`
	// SampledAt is the hands played at the last stack sample.
	SampledAt int64 `json:"sampledAt,omitempty"`
	// Errors are the record's refusals (a bug if ever not empty), kept to a few.
	Errors []string `json:"errors,omitempty"`
}

type bustFacts struct {
	Level int              `json:"level"`
	Table floor.TableID    `json:"table"`
	Hand  int64            `json:"hand"`
	By    []floor.PlayerID `json:"by,omitempty"`
}

func (s *TournamentState) record0() *RecordState {
	if s.Tools.Record == nil && s.Section == nil {
		s.Tools.Record = &RecordState{Record: floor.NewTournamentRecord(s.Entries.Field(), s.Spec.Payouts.Unit)}
	}
	if rs := s.Tools.Record; rs != nil && rs.Facts == nil {
		rs.Facts = map[string]bustFacts{} // empty maps do not survive a continue-as-new (omitempty)
	}
	return s.Tools.Record
}

// recordBusts notes where each player of a table's news went out, and to whom.
func (s *TournamentState) recordBusts(tr *TableRecord, ev TableEvent) {
	rs := s.record0()
	if rs == nil {
		return
	}
	for _, g := range ev.Busts {
		for _, e := range g.Eliminated {
			f := bustFacts{Level: max(ev.Level, 1), Table: tr.ID, Hand: g.Hand}
			if i := slices.IndexFunc(g.Knockouts, func(k report.Knockout) bool { return k.Player == string(e.Player) }); i >= 0 {
				for _, by := range g.Knockouts[i].By {
					f.By = append(f.By, floor.PlayerID(by))
				}
			}
			rs.Facts[string(e.Player)] = f
		}
	}
}

// recordNews brings the record up to the state: the levels started, the hands, the bust groups
// placed (R7), the final table once it forms, a stack sample about a hand a table.
func (s *TournamentState) recordNews() {
	rs := s.record0()
	if rs == nil {
		return
	}
	r := rs.Record
	for ; rs.Levels < len(s.LevelLog); rs.Levels++ {
		lc := s.LevelLog[rs.Levels]
		if !lc.OnBreak {
			s.recordErr(r.LevelStarted(lc.Number, floor.Level{SmallBlind: lc.Level.SmallBlind, BigBlind: lc.Level.BigBlind, Ante: lc.Level.Ante}))
		}
	}
	r.HandsDealt(s.HandsPlayed() - r.HandsPlayed)
	r.HandForHandRounds = s.HandForHand.Rounds
	entries := s.Entries.Field()
	if d := entries - r.Entries; d > 0 {
		s.recordErr(r.Enter(d))
	} else if d < 0 {
		s.recordErr(r.Withdraw(-d))
	}
	for ; rs.Groups < len(s.Busts); rs.Groups++ {
		grp := s.Busts[rs.Groups]
		g := floor.BustGroup{Level: s.levelNumber()}
		for _, e := range grp {
			f, ok := rs.Facts[string(e.Player)]
			if !ok { // a disqualification (P4): placed where the director took him out
				f = bustFacts{Level: s.levelNumber()}
			}
			delete(rs.Facts, string(e.Player))
			g.Level = max(g.Level, f.Level)
			g.HandForHand = g.HandForHand || s.HandForHand.Grouped
			b := floor.Bust{Player: e.Player, Stack: max(e.Stack, 1), Table: f.Table, Hand: f.Hand, Eliminators: f.By}
			if bt := s.Tools.Bounties; bt != nil {
				b.BountiesWonCents = bt.CashCents[string(e.Player)]
			}
			g.Busts = append(g.Busts, b)
		}
		if len(g.Busts) >= r.PlayersLeft {
			continue // the last group of a tournament ended by a deal or a disqualification: Places has them
		}
		s.recordErr(r.Bust(g, s.Payouts, rs.keep))
	}
	// A field that starts at one table: its final table is the first line-up with everyone seated.
	if r.FinalTable == nil && s.OpenTables() == 1 && !s.MovesPending() && s.Left() >= 2 {
		for _, t := range s.Tables {
			if t.Closed || t.Closing {
				continue
			}
			var seats []floor.FinalTableSeat
			for i, p := range t.Seats {
				if p != "" {
					seats = append(seats, floor.FinalTableSeat{Seat: floor.Seat(i + 1), Player: floor.PlayerID(p), Chips: t.Stacks[i]})
				}
			}
			// Every player left sits at it (the record's count may wait on a hand-for-hand round's
			// places: the line-up is the tables').
			if len(seats) == s.Left() {
				r.FinalTable = &floor.FinalTableRecord{Level: s.levelNumber(), Hand: s.HandsPlayed(), Seats: seats}
			}
		}
	}
	if h := s.HandsPlayed(); h >= rs.SampledAt+int64(max(s.OpenTables(), 1)) || rs.SampledAt == 0 && h > 0 {
		rs.SampledAt = h
		sample := floor.StackSample{Hand: h, Level: s.levelNumber(), PlayersLeft: s.Left(), Chips: s.Ledger.Total()}
		for _, p := range s.Players {
			if (p.Status == Seated || p.Status == Moving) && p.Stack > sample.LeaderStack {
				sample.Leader, sample.LeaderStack = floor.PlayerID(p.ID), p.Stack
			}
		}
		if sample.PlayersLeft > 0 {
			s.recordErr(r.Sample(sample))
		}
	}
}

// recordPlan counts the moves and breaks the floor ordered (R3, R4); by and reason are the
// director's, for a move or a break by hand (P6).
func (s *TournamentState) recordPlan(plan floor.Plan, by, reason string) {
	rs := s.record0()
	if rs == nil {
		return
	}
	level := s.levelNumber()
	for _, id := range plan.Broken {
		n := 0
		for _, m := range plan.Moves {
			if m.From == id {
				n++
			}
		}
		s.recordErr(rs.Record.TableBroken(floor.TableBreak{Level: level, Table: id, Players: n, By: by, Reason: reason}))
	}
	for _, m := range plan.Moves {
		s.recordErr(rs.Record.Moved(floor.MoveRecord{Level: level, Move: m, By: by, Reason: reason}))
	}
	if len(plan.Broken) > 0 {
		s.recordFinalTable()
	}
}

// recordFinalTable records the final table's line-up when one table is left in play: the players
// seated there and those on their way to their seats, with their chips as the floor knows them.
func (s *TournamentState) recordFinalTable() {
	rs := s.Tools.Record
	if rs == nil || rs.Record.FinalTable != nil || s.Left() < 2 {
		return
	}
	var last *TableRecord
	for i := range s.Tables {
		t := &s.Tables[i]
		if t.Closed || t.Closing || t.Breaking {
			continue
		}
		if last != nil {
			return // two tables in play
		}
		last = t
	}
	if last == nil {
		return
	}
	var seats []floor.FinalTableSeat
	for i, id := range s.view(last).Seats {
		if p := s.player(string(id)); p != nil && p.Status != Out && p.Status != Withdrawn {
			seats = append(seats, floor.FinalTableSeat{Seat: floor.Seat(i + 1), Player: id, Chips: p.Stack})
		}
	}
	if len(seats) == s.Left() {
		rs.Record.FinalTable = &floor.FinalTableRecord{Level: s.levelNumber(), Hand: s.HandsPlayed(), Seats: seats}
	}
}

// keep queues a row to be written out, and keeps it when it is one of the best KeepRows.
func (rs *RecordState) keep(row floor.PlaceRow) {
	pl := Place{Place: row.Place, Player: string(row.Player), Prize: row.PrizeCents, Shared: row.Shared, Row: &row}
	rs.Unwritten = append(rs.Unwritten, pl)
	if row.Place <= KeepRows {
		rs.Rows = append(rs.Rows, row)
	}
}

// RecordUnwritten is the record's rows not yet written out (as places, with their rows), and the
// index of the first among all written; nil without a record (a section, or a tournament of
// sections, which writes its places itself).
func (s *TournamentState) RecordUnwritten() (from int, places []Place) {
	if rs := s.Tools.Record; rs != nil {
		return rs.Written, rs.Unwritten
	}
	return 0, nil
}

// RecordWroteOut notes that the first n of the record's unwritten rows were written out.
func (s *TournamentState) RecordWroteOut(n int) {
	rs := s.Tools.Record
	if rs == nil {
		return
	}
	n = min(n, len(rs.Unwritten))
	rs.Unwritten = slices.Delete(rs.Unwritten, 0, n)
	rs.Written += n
	if len(rs.Unwritten) == 0 {
		rs.Unwritten = nil
	}
}

func (s *TournamentState) recordErr(err error) {
	if err != nil && s.Tools.Record != nil && len(s.Tools.Record.Errors) < 20 {
		s.Tools.Record.Errors = append(s.Tools.Record.Errors, err.Error())
	}
}

// RecordResult is the end-of-run list: the summary (money, payout bands, bubble, final table,
// levels, breaks and moves, stacks over time, where it ended) and the best KeepRows places' rows,
// best first (every row was written out through the run's PlaceSink: the local run reads the rest
// back).
type RecordResult struct {
	Summary floor.RecordSummary `json:"summary"`
	Rows    []floor.PlaceRow    `json:"rows"`
	Errors  []string            `json:"errors,omitempty"`
}

// RecordResult reads the record, with the winner's row at the end (nil for a section). It never
// writes: it works on a copy.
func (s *TournamentState) RecordResult() *RecordResult {
	rs := s.Tools.Record
	if rs == nil {
		return nil
	}
	r := *rs.Record
	r.Levels = slices.Clone(r.Levels)
	out := &RecordResult{Rows: slices.Clone(rs.Rows), Errors: slices.Clone(rs.Errors)}
	if s.Finished && r.PlayersLeft == 1 {
		for _, p := range s.Players {
			if p.Status == Seated || p.Status == Moving {
				w := floor.Win{Player: floor.PlayerID(p.ID), Chips: p.Stack, Level: max(r.Level, 1)}
				if b := s.BountyResult(); b != nil {
					if k := slices.IndexFunc(b.Won, func(x BountyWon) bool { return x.Player == p.ID }); k >= 0 {
						w.BountiesWonCents = b.Won[k].CashCents
						w.BountyPaidCents = b.Won[k].CashCents - s.Tools.Bounties.CashCents[p.ID]
					}
				}
				if err := r.Finish(w, s.Payouts, func(row floor.PlaceRow) { out.Rows = append(out.Rows, row) }); err != nil {
					out.Errors = append(out.Errors, err.Error())
				}
			}
		}
	}
	purse, err := s.buyIns().Purse()
	if err != nil {
		out.Errors = append(out.Errors, fmt.Sprintf("purse: %v", err))
	}
	out.Summary = r.Summary(purse, s.Payouts)
	if b := s.BountyResult(); b != nil {
		out.Summary.BountiesPaidCents = b.PaidCents
	}
	slices.SortStableFunc(out.Rows, func(a, b floor.PlaceRow) int { return cmp.Compare(a.Place, b.Place) })
	return out
}
