package floor

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// The workflows pass these values through Temporal as JSON: each must come back unchanged.
func TestValuesRoundTripJSON(t *testing.T) {
	tables, _ := DrawSeats(playerIDs(30), 9, NewSeededReader(1))
	plan, _ := PlanTables(tablesOf(10, 9, 9, 2), Policy{}, NewSeededReader(1))
	payouts, _ := ComputePayouts(Entries{Entries: 100, BuyIn: 100}, PayoutStructure{})
	structure, _ := BuiltinStructure(StructureStandard)
	clock, _ := Clock(structure, time.Unix(0, 0).UTC(), []ClockEvent{{At: time.Unix(60, 0).UTC(), Kind: ClockAddTime, Add: time.Minute}}, time.Unix(3000, 0).UTC())
	s, _ := GiveSanction(sanction("p1", Penalty{Kind: Warning}), 0, nil)
	race, _ := ChipRace([]Racer{{Seat: 1, Player: "a", Stack: 1025}, {Seat: 2, Player: "b", Stack: 1050}}, 25, 100, NewSeededReader(1))
	res, _ := Places([]PlayerID{"a", "b", "c"}, [][]Elimination{{{"c", 5}, {"b", 5}}})
	values := []any{
		&tables, &plan, &payouts, &structure, &clock, &s, &race, &res,
		&Policy{BalanceThreshold: 3}, &ChipLedger{Entries: 3, StartingStack: 100},
		&[]Award{{Standing: Standing{Player: "a", Place: 1, Shared: 1}, Prize: 10}}, &Away{Player: "a", HandsLeft: 3},
	}
	for _, v := range values {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		back := reflect.New(reflect.TypeOf(v).Elem())
		if err := json.Unmarshal(data, back.Interface()); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back.Elem().Interface(), reflect.ValueOf(v).Elem().Interface()) {
			t.Fatalf("%T changed in JSON:\n%s", v, data)
		}
	}
}
