package engine

import "testing"

// rule B5: a table rebuilt between hands from its seats, stacks, hand number and Positions deals the
// next hand with the same button and blinds as the table that kept running, under both button rules,
// with players eliminated around the blinds and unseated between hands.
func TestRuleB5PositionsRestore(t *testing.T) {
	for _, rule := range []ButtonRule{ButtonDead, ButtonSeed000} {
		t.Run(map[ButtonRule]string{ButtonDead: "dead", ButtonSeed000: "seed000"}[rule], func(t *testing.T) {
			for seed := uint64(1); seed <= 20; seed++ {
				cfg := Config{Seats: 9, ButtonRule: rule}
				live := newTestTable(t, cfg, lv50, NewSeededDeck(seed), 800, 1200, 500, 3000, 700, 900, 1500, 400)
				p := randomPlayer{rng: NewSeededDeck(seed + 100)}
				for hand := 0; hand < 200; hand++ {
					restored, err := NewTable(cfg, lv50, NewSeededDeck(1))
					if err != nil {
						t.Fatal(err)
					}
					for s := 0; s < cfg.Seats; s++ {
						if pl := live.Player(s); pl.Occupied {
							if err := restored.Sit(s, pl.ID, pl.Stack, pl.State); err != nil {
								t.Fatal(err)
							}
						}
					}
					if err := restored.SetHandNumber(live.HandNumber()); err != nil {
						t.Fatal(err)
					}
					if err := restored.SetPositions(live.Positions()); err != nil {
						t.Fatal(err)
					}
					if got, want := restored.Positions(), live.Positions(); got != want {
						t.Fatalf("seed %d hand %d: restored positions %+v, want %+v", seed, hand, got, want)
					}
					errLive, errRestored := live.StartHand(), restored.StartHand()
					if (errLive == nil) != (errRestored == nil) {
						t.Fatalf("seed %d hand %d: live %v, restored %v", seed, hand, errLive, errRestored)
					}
					if errLive != nil {
						break // one player left
					}
					hl, hr := live.Header(), restored.Header()
					if hl.Number != hr.Number || hl.Button != hr.Button || hl.SmallBlind != hr.SmallBlind || hl.BigBlind != hr.BigBlind {
						t.Fatalf("seed %d hand %d: live #%d button %d blinds %d/%d, restored #%d button %d blinds %d/%d", seed, hand,
							hl.Number, hl.Button, hl.SmallBlind, hl.BigBlind, hr.Number, hr.Button, hr.SmallBlind, hr.BigBlind)
					}
					for live.Phase() == Betting {
						p.act(live)
					}
					// The tournament unseats the players who lost every chip.
					for s := 0; s < cfg.Seats; s++ {
						if pl := live.Player(s); pl.Occupied && pl.State == Eliminated {
							if err := live.Unseat(s); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			}
		})
	}
}

func TestSetPositionsRefusesBadSeats(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 1000, 1000, 1000)
	for _, p := range []Positions{
		{Button: 3, SmallBlind: 0, BigBlind: 1, Played: true},
		{Button: 0, SmallBlind: -1, BigBlind: 1, Played: true},
		{Button: -1},
	} {
		if err := tb.SetPositions(p); err == nil {
			t.Errorf("SetPositions(%+v) accepted", p)
		}
	}
	mustStart(t, tb)
	if err := tb.SetPositions(Positions{Button: 0}); err == nil {
		t.Error("SetPositions during a hand accepted")
	}
}
