package director

import (
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

const testTable = "t/table-001"

// threePlayers is a 6-seat table of a, b and c in seats 0 to 2 with 1,000 chips each, button drawn
// in seat 0, not yet dealt.
func threePlayers() TableState {
	return TableState{
		Tournament: "t", ID: testTable, Number: 1, Config: engine.Config{Seats: 6},
		Seats: []TableSeat{
			{Seat: 0, Player: "a", Stack: 1000},
			{Seat: 1, Player: "b", Stack: 1000},
			{Seat: 2, Player: "c", Stack: 1000},
		},
		Positions: engine.Positions{Button: 0, SmallBlind: -1, BigBlind: -1},
		Level:     engine.Level{SmallBlind: 10, BigBlind: 20}, LevelNumber: 1, ReportedLevel: 1,
		Batch: 1, MaxWait: time.Second, DrawnBigBlind: 2,
	}
}

func stacks(kv ...any) []report.SeatStack {
	var out []report.SeatStack
	for i := 0; i < len(kv); i += 3 {
		out = append(out, report.SeatStack{Seat: kv[i].(int), Player: kv[i+1].(string), Stack: int64(kv[i+2].(int))})
	}
	return out
}

func hand(n int64, start, end []report.SeatStack, elim ...engine.Elimination) report.HandResult {
	return report.HandResult{TableID: testTable, HandNumber: n, Start: start, End: end, Eliminated: elim,
		Positions: engine.Positions{Button: int(n) % 3, SmallBlind: (int(n) + 1) % 3, BigBlind: (int(n) + 2) % 3, Played: true}}
}
