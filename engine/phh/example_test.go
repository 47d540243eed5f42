package phh_test

import (
	"fmt"

	"github.com/pokerfloor/pokerfloor/engine/phh"
)

const history = `variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000.0, 10000]
actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'd dh p3 Ah4h', 'p3 cbr 250 # a min-raise and a half', 'p1 f', 'p2 f']
players = ['Ann', 'Bob', 'Cat']
finishing_stacks = [9950, 9900, 10150]
_stream_delay = 30
`

func ExampleParse() {
	h, err := phh.Parse([]byte(history))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.NumPlayers(), "players, stacks", h.StartingStacks)
	for _, a := range h.ParsedActions[3:] {
		fmt.Printf("p%d %v %d %q\n", a.Player, a.Kind, a.Amount, a.Comment)
	}
	fmt.Println(h.Extra["_stream_delay"])
	// Output:
	// 3 players, stacks [10000 10000 10000]
	// p3 cbr 250 "a min-raise and a half"
	// p1 f 0 ""
	// p2 f 0 ""
	// 30
}

func ExampleParse_error() {
	_, err := phh.Parse([]byte(history + "seats = [1, 2]\n"))
	fmt.Println(err)
	// Output:
	// line 10: seats: 2 values, but starting_stacks has 3 (expected one per player)
}

func ExampleHand_Marshal() {
	h, _ := phh.Parse([]byte(history))
	out, _ := h.Marshal()
	fmt.Print(string(out))
	// Output:
	// variant = 'NT'
	// ante_trimming_status = false
	// antes = [0, 0, 0]
	// blinds_or_straddles = [50, 100, 0]
	// min_bet = 100
	// starting_stacks = [10000, 10000, 10000]
	// actions = ['d dh p1 TcQc', 'd dh p2 8s4c', 'd dh p3 Ah4h', 'p3 cbr 250 # a min-raise and a half', 'p1 f', 'p2 f']
	// players = ['Ann', 'Bob', 'Cat']
	// finishing_stacks = [9950, 9900, 10150]
	// _stream_delay = 30
}

func ExampleParseAction() {
	a, _ := phh.ParseAction("d dh p2 Kc8s")
	fmt.Println(a.Kind, a.Player, a.Cards)
	_, err := phh.ParseAction("p2 raise 300")
	fmt.Println(err)
	// Output:
	// dh 2 [Kc 8s]
	// malformed action "p2 raise 300": unknown action "raise" (expected f, cc, cbr or sm)
}
