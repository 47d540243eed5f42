package director

import (
	"slices"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Progress is the tournament at a glance.
type Progress struct {
	Name        string `json:"name,omitempty"`
	Entries     int    `json:"entries"`
	PlayersLeft int    `json:"playersLeft"`
	Tables      int    `json:"tables"`
	// Level is the number of the level being played, or coming after a break; Blinds its blinds.
	Level   int          `json:"level"`
	Blinds  engine.Level `json:"blinds"`
	OnBreak bool         `json:"onBreak,omitempty"`
	Paused  bool         `json:"paused,omitempty"`
	// Stopping: a simulation's clock is paused and a table has not yet told the hands it dealt
	// before the pause, so Level may still move on; once every table has, it stands.
	Stopping bool `json:"stopping,omitempty"`
	// NextLevelIn is the clock time to the next period (in a simulation at a pace, the hands left
	// in the level at that pace; 0 at full speed, where levels go by hands, and in the last level).
	NextLevelIn time.Duration `json:"nextLevelIn,omitempty"`
	HandsPlayed int64         `json:"handsPlayed"`
	HandForHand bool          `json:"handForHand,omitempty"`
	PrizePool   int64         `json:"prizePool"`
	Paid        int           `json:"paid"`
	Finished    bool          `json:"finished,omitempty"`
}

// Progress reports the tournament at now.
func (s *TournamentState) Progress(now time.Time) Progress {
	p := Progress{Name: s.Spec.Name, Entries: len(s.Field), PlayersLeft: s.Left(), Tables: s.OpenTables(),
		HandsPlayed: s.HandsPlayed(), HandForHand: s.HandForHand.On, PrizePool: s.Payouts.Pool, Paid: len(s.Payouts.Prizes),
		Finished: s.Finished, Paused: s.Paused, Stopping: s.Stopping()}
	at := now
	if s.Finished {
		at = s.Ended
	}
	if cs, err := s.ClockAt(at); err == nil {
		p.Level, p.Blinds, p.OnBreak = cs.Level, engineLevel(cs.Blinds), cs.OnBreak
		p.NextLevelIn = s.Spec.nextLevelIn(cs)
	}
	return p
}

// Standing is one entry in the standings: a place once out (or at the end), chips while in.
type Standing struct {
	Player string        `json:"player"`
	Place  int           `json:"place,omitempty"`
	Shared int           `json:"shared,omitempty"`
	Prize  int64         `json:"prize,omitempty"`
	Stack  int64         `json:"stack,omitempty"`
	Table  floor.TableID `json:"table,omitempty"`
	Seat   floor.Seat    `json:"seat,omitempty"`
	Status PlayerStatus  `json:"status"`
}

// Standings are the players still in, by chips, then the places given so far, best first.
func (s *TournamentState) StandingsView() []Standing {
	var in []Standing
	for _, p := range s.Players {
		if p.Status != Out {
			in = append(in, Standing{Player: p.ID, Stack: p.Stack, Table: p.Table, Seat: p.Seat, Status: p.Status})
		}
	}
	slices.SortStableFunc(in, func(a, b Standing) int {
		switch {
		case a.Stack > b.Stack:
			return -1
		case a.Stack < b.Stack:
			return 1
		}
		return 0
	})
	res, err := s.Standings()
	if err != nil {
		return in
	}
	awards := s.awards(res.Standings)
	for _, a := range awards {
		st := Standing{Player: string(a.Player), Place: a.Place, Shared: a.Shared, Prize: a.Prize, Status: Out}
		if s.Finished && a.Place == 1 {
			st.Status = Seated
			if p := s.player(st.Player); p != nil {
				st.Stack = p.Stack
			}
		}
		if k := slices.IndexFunc(in, func(x Standing) bool { return x.Player == st.Player }); k >= 0 {
			in[k] = st
			continue
		}
		in = append(in, st)
	}
	return in
}

// awards pays the standings: the payouts by place (shared places split, R7), and the deal's
// amounts to the players in it, the reserve to the winner.
func (s *TournamentState) awards(standings []floor.Standing) []floor.Award {
	return s.Deal.pay(floor.AwardPrizes(standings, s.Payouts.Prizes, s.Spec.Payouts.Unit))
}

// pay gives the deal's players its amounts instead of their places' prizes, and the winner the
// reserve too (no deal: the awards as they are).
func (d *DealRecord) pay(awards []floor.Award) []floor.Award {
	if d == nil {
		return awards
	}
	for i := range awards {
		k := slices.Index(d.Players, string(awards[i].Player))
		if k < 0 {
			continue
		}
		awards[i].Prize = d.Amounts[k]
		if awards[i].Place == 1 {
			awards[i].Prize += d.Terms.Reserve
		}
	}
	return awards
}

// TableView is one table for the tables query.
type TableView struct {
	ID       floor.TableID `json:"id"`
	Workflow string        `json:"workflow"`
	Seats    []string      `json:"seats"`
	Stacks   []int64       `json:"stacks"`
	Button   floor.Seat    `json:"button"`
	BigBlind floor.Seat    `json:"bigBlind"`
	Hand     int64         `json:"hand"`
	Hands    int64         `json:"hands"`
	Level    int           `json:"level"`
	Players  int           `json:"players"`
	Held     bool          `json:"held,omitempty"`
	Breaking bool          `json:"breaking,omitempty"`
	Closed   bool          `json:"closed,omitempty"`
	// Replaced counts the hosts replaced because the table went silent past its deadline.
	Replaced int `json:"replaced,omitempty"`
}

// TablesView lists the tables, open ones first.
func (s *TournamentState) TablesView() []TableView {
	var out []TableView
	for _, t := range s.Tables {
		v := TableView{ID: t.ID, Workflow: t.WorkflowID, Seats: t.Seats, Stacks: t.Stacks, Button: t.Button, BigBlind: t.BigBlind,
			Hand: t.Hand, Hands: t.Hands, Level: t.Level, Held: t.Held, Breaking: t.Breaking, Closed: t.Closed || t.Closing, Replaced: t.Replaced}
		for _, p := range t.Seats {
			if p != "" {
				v.Players++
			}
		}
		out = append(out, v)
	}
	slices.SortStableFunc(out, func(a, b TableView) int {
		switch {
		case a.Closed == b.Closed:
			return 0
		case b.Closed:
			return -1
		}
		return 1
	})
	return out
}

// ClockView is the clock for the clock query.
type ClockView struct {
	Simulation bool               `json:"simulation,omitempty"`
	State      floor.ClockState   `json:"state"`
	Started    time.Time          `json:"started"`
	Events     []floor.ClockEvent `json:"events,omitempty"`
	Changes    []LevelChange      `json:"changes,omitempty"`
}

// ClockView reports the clock at now.
func (s *TournamentState) ClockView(now time.Time) ClockView {
	v := ClockView{Simulation: s.Spec.Simulation, Started: s.Started, Events: s.ClockEvents, Changes: s.LevelLog}
	v.State, _ = s.ClockAt(now)
	return v
}

// PayoutsView is the prize pool and what each place pays.
type PayoutsView struct {
	floor.Payouts
	Entries floor.Entries `json:"entries"`
	Awards  []floor.Award `json:"awards,omitempty"` // the places given so far
	Deal    *DealRecord   `json:"deal,omitempty"`
}

// PayoutsView reports the payouts.
func (s *TournamentState) PayoutsView() PayoutsView {
	v := PayoutsView{Payouts: s.Payouts, Entries: s.Entries, Deal: s.Deal}
	if res, err := s.Standings(); err == nil {
		v.Awards = s.awards(res.Standings)
	}
	return v
}

// TournamentResult is a finished tournament.
type TournamentResult struct {
	Name        string  `json:"name,omitempty"`
	Places      []Place `json:"places"`
	PrizePool   int64   `json:"prizePool"`
	Entries     int     `json:"entries"`
	HandsPlayed int64   `json:"handsPlayed"`
	Tables      int     `json:"tables"` // tables opened
	// HandForHandRounds is the rounds dealt hand-for-hand on the bubble (R7).
	HandForHandRounds int              `json:"handForHandRounds,omitempty"`
	Started           time.Time        `json:"started"`
	Ended             time.Time        `json:"ended"`
	Sanctions         []floor.Sanction `json:"sanctions,omitempty"`
	Deal              *DealRecord      `json:"deal,omitempty"`
	Ledger            floor.ChipLedger `json:"ledger"`
	// ChipErrors is empty unless a chip count failed during the tournament (a bug).
	ChipErrors []string `json:"chipErrors,omitempty"`
	// Bounties are a progressive knockout's bounties paid (bounties.go); nil without bounties.
	Bounties *BountyResult `json:"bounties,omitempty"`
	// Record is the director's end-of-run list (record.go); nil for a tournament of sections.
	Record *RecordResult `json:"record,omitempty"`
}

// Place is one entry's finishing place and prize.
type Place struct {
	Place  int    `json:"place"`
	Player string `json:"player"`
	Prize  int64  `json:"prize"`
	Shared int    `json:"shared,omitempty"` // how many share the places from Place (R7)
	// Row is the record's row of the place (where and to whom he went out), in the places a
	// tournament of one section writes out (RecordState.Unwritten); nil elsewhere.
	Row *floor.PlaceRow `json:"row,omitempty"`
}

// Result is the tournament's result: places best first.
func (s *TournamentState) Result() (TournamentResult, error) {
	res, err := s.Standings()
	if err != nil {
		return TournamentResult{}, err
	}
	r := TournamentResult{Name: s.Spec.Name, PrizePool: s.Payouts.Pool, Entries: len(s.Field), HandsPlayed: s.HandsPlayed(),
		Tables: len(s.Tables), HandForHandRounds: s.HandForHand.Rounds, Started: s.Started, Ended: s.Ended, Deal: s.Deal, Ledger: s.Ledger, ChipErrors: s.ChipErrors}
	for _, a := range s.awards(res.Standings) {
		pl := Place{Place: a.Place, Player: string(a.Player), Prize: a.Prize}
		if a.Shared > 1 {
			pl.Shared = a.Shared
		}
		r.Places = append(r.Places, pl)
	}
	r.Bounties = s.BountyResult()
	r.Record = s.RecordResult()
	for _, rec := range s.Sanctions {
		if rec.Applied {
			r.Sanctions = append(r.Sanctions, rec.Sanction)
		}
	}
	return r, nil
}
