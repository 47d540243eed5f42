package floor

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// The workflows will keep these values in their state and pass them through Temporal as JSON: each
// must come back unchanged.
func TestDirectorValuesRoundTripJSON(t *testing.T) {
	sat, _ := SatellitePayout(Entries{Entries: 500, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500})
	bb, _ := NewBountyBoard(Bounty{StartCents: 500, CashPercent: 40, Split: BountyChipsWon})
	_ = bb.Enter("a")
	_ = bb.Enter("b")
	ko, _ := bb.Knockout(Knockout{Player: "b", Takers: []BountyTaker{{Player: "a", ChipsWon: 10, LastChips: true}}})
	buyIns := BuyIns{Entries: Entries{Entries: 20, BuyIn: 1100, Fee: 100}, AddOns: 3, AddOn: AddOn{Chips: 5000, PriceCents: 500, Max: 2}, StartingStack: 5000, Bounty: Bounty{StartCents: 300}}
	ledger, _ := buyIns.Ledger()
	removal, _ := RemoveNoShows(buyIns, NoShowRule{After: time.Hour, KeepFee: true}, 2*time.Hour, []NoShow{{"c", 4000}}, ledger, PayoutStructure{})
	move, _ := PlanDirectorMove([]Table{seats(1, "abcdefghi", 1), seats(2, "ab.cdef..", 2)}, DirectorMove{Player: "1c", To: 2, By: "td"}, Policy{})
	rec := NewTournamentRecord(4, 100)
	_ = rec.LevelStarted(1, Level{SmallBlind: 10, BigBlind: 20})
	_ = rec.Sample(StackSample{Hand: 1, Level: 1, PlayersLeft: 4, Chips: 400, Leader: "a", LeaderStack: 150, At: time.Unix(100, 0).UTC()})
	_ = rec.Bust(BustGroup{Level: 1, Busts: []Bust{{Player: "d", Stack: 50, Table: 1, Hand: 3, Eliminators: []PlayerID{"a"}}}}, Payouts{Pool: 400, Prizes: []int64{400}}, func(PlaceRow) {})
	summary := rec.Summary(Purse{PaidInCents: 440, FeesCents: 40, PrizePoolCents: 400, Chips: 400}, Payouts{Pool: 400, Prizes: []int64{400}})
	values := []any{&sat, bb, &ko, &buyIns, &removal, &move, rec, &summary,
		&[]SatelliteAward{{Award: Award{Standing: Standing{Player: "a", Place: 1, Shared: 1}, Prize: 21500}, Ticket: true}},
		&AddOnRequest{Player: "a", Period: 2, Stack: 10, Taken: 1, Count: 1}, &Unregistration{Player: "a", RefundCents: 1100}}
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
