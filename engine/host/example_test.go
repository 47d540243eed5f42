package host_test

import (
	"context"
	"fmt"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
)

// A table on its own: six bots, 1,500 chips each, blinds rising every 30 hands, played to one
// winner at full speed (a seeded deck and a fake clock; live play leaves both nil).
func ExampleRunner() {
	director, err := host.NewLocalReporter(host.LocalConfig{
		TableID: "final",
		Config:  engine.Config{Seats: 6},
		Levels: []engine.Level{{SmallBlind: 10, BigBlind: 20}, {SmallBlind: 25, BigBlind: 50},
			{SmallBlind: 50, BigBlind: 100, Ante: 10}, {SmallBlind: 100, BigBlind: 200, Ante: 25}},
		HandsPerLevel: 30,
		Players:       []string{"ann", "bob", "cat", "dan", "eve", "fay"},
		Stack:         1500,
		Button:        0,
		Batch:         10,
	})
	if err != nil {
		panic(err)
	}
	r := host.NewRunner("final", director, bot.Players(42, bot.KindRandom, bot.KindStrength), host.Options{
		Deck:  engine.NewSeededDeck(42),
		Clock: host.NewFakeClock(time.Time{}),
	})
	if err := r.Run(context.Background()); err != nil {
		panic(err)
	}
	winner, _ := director.Winner()
	st := director.State()
	fmt.Println("directive:", st.Directive)
	fmt.Println("the winner holds every chip:", st.Seats[0].Player == winner && st.Seats[0].Stack == 6*1500)
	fmt.Println("players out:", len(director.Placements()))
	// Output:
	// directive: close
	// the winner holds every chip: true
	// players out: 5
}
