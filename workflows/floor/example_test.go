package floor_test

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// After a hand table 2 is two players short: the player due the big blind next at table 1 moves
// into the free seat left of table 2's big blind (R3).
func ExamplePlanTables() {
	t1 := floor.Table{ID: 1, Seats: []floor.PlayerID{"ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"}, BigBlind: 3}
	t2 := floor.Table{ID: 2, Seats: []floor.PlayerID{"jo", "kim", "lee", "max", "ned", "oz", "pat", "", ""}, BigBlind: 7}
	plan, err := floor.PlanTables([]floor.Table{t1, t2}, floor.Policy{}, nil)
	if err != nil {
		panic(err)
	}
	for _, m := range plan.Moves {
		fmt.Printf("%s: table %d seat %d -> table %d seat %d (%s)\n", m.Player, m.From, m.FromSeat, m.To, m.ToSeat, m.Reason)
	}
	// Output: dan: table 1 seat 4 -> table 2 seat 8 (balance)
}

func ExampleComputePayouts() {
	p, err := floor.ComputePayouts(floor.Entries{Entries: 100, BuyIn: 110_00, Fee: 10_00}, floor.PayoutStructure{Unit: 100})
	if err != nil {
		panic(err)
	}
	fmt.Println("pool", p.Pool, "paid", len(p.Prizes))
	fmt.Println(p.Prizes)
	// Output:
	// pool 1000000 paid 10
	// [315400 162900 112200 86900 71700 61600 54400 48900 44700 41300]
}

func ExampleICM() {
	eq, _ := floor.ICM([]int64{5000, 3000, 2000}, []int64{500, 300, 200})
	fmt.Printf("%.2f %.2f %.2f\n", eq[0], eq[1], eq[2])
	// Output: 383.93 327.50 288.57
}

func ExampleHandsOfExclusion() {
	hands, _ := floor.HandsOfExclusion(2, 9) // two rounds at a table of nine (P2)
	fmt.Println(hands)
	// Output: 18
}
