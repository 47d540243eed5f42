package engine

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/eval"
)

// playRandom plays one hand with random legal (and, when illegal is set, illegal) actions drawn from
// rng, checking the invariants after every step: chips are conserved, no stack is negative, an
// illegal action is refused and changes nothing. It returns the number of actions.
func playRandom(t testing.TB, tb *Table, rng *SeededDeck, illegal bool) int {
	total := tb.TotalChips()
	if err := tb.StartHand(); err != nil {
		t.Fatalf("start: %v", err)
	}
	steps := 0
	for tb.Phase() == Betting {
		steps++
		if steps > 500 {
			t.Fatalf("hand did not end after 500 actions")
		}
		if got := tb.TotalChips(); got != total {
			t.Fatalf("chips not conserved: %d, want %d\n%v", got, total, tb.Log())
		}
		if illegal && rng.Intn(3) == 0 {
			seat := rng.Intn(int(tb.n)+2) - 1
			a := Action(rng.Intn(7))
			to := int64(rng.Intn(30000)) - 100
			before := tb.h
			beforeLog := len(tb.log)
			if tb.verify(seat, a, to) != okAction {
				if _, err := tb.Act(seat, a, to); err == nil {
					t.Fatalf("verify refused %v %d by seat %d but Act did it", a, to, seat)
				}
				if tb.h != before || len(tb.log) != beforeLog {
					t.Fatalf("illegal %v %d by seat %d changed the state", a, to, seat)
				}
				continue
			}
		}
		l := tb.LegalActions()
		var opts [6]Action
		n := 0
		if l.Fold {
			opts[n] = Fold
			n++
		}
		if l.Check {
			opts[n] = Check
			n++
		}
		if l.Call {
			opts[n] = Call
			n++
		}
		if l.Bet {
			opts[n] = Bet
			n++
		}
		if l.Raise {
			opts[n] = Raise
			n++
		}
		if l.AllIn {
			opts[n] = AllIn
			n++
		}
		a := opts[rng.Intn(n)]
		var to int64
		if a == Bet || a == Raise {
			to = l.MinTo + int64(rng.Intn(int(l.MaxTo-l.MinTo+1)))
		}
		if _, err := tb.Act(l.Seat, a, to); err != nil {
			t.Fatalf("legal %v %d by seat %d refused: %v\n%v", a, to, l.Seat, err, tb.Log())
		}
	}
	if got := tb.TotalChips(); got != total {
		t.Fatalf("chips not conserved at the end: %d, want %d", got, total)
	}
	checkWinnings(t, tb)
	return steps
}

func TestPropertyRandomHands(t *testing.T) {
	rng := NewSeededDeck(42)
	hands := 0
	for table := 0; table < 3000; table++ {
		n := 2 + rng.Intn(9)
		cfg := Config{Seats: n + rng.Intn(MaxSeats-n+1), AnteMode: AnteMode(rng.Intn(2)), ButtonRule: ButtonRule(rng.Intn(2)), ShortOpen: ShortOpenRule(rng.Intn(2))}
		lv := Level{SmallBlind: 50, BigBlind: 100, Ante: int64(rng.Intn(3)) * 25}
		tb, err := NewTable(cfg, lv, NewSeededDeck(uint64(table)))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			st := PlayerState(Active)
			if rng.Intn(8) == 0 {
				st = SittingOut
			}
			if err := tb.Sit(i, "p", int64(1+rng.Intn(20000)), st); err != nil {
				t.Fatal(err)
			}
		}
		tb.SetButton(rng.Intn(cfg.Seats))
		for hand := 0; hand < 200; hand++ {
			players := 0
			for s := 0; s < cfg.Seats; s++ {
				if tb.candidate(int8(s)) {
					players++
				}
			}
			if players < 2 {
				break
			}
			playRandom(t, tb, rng, rng.Intn(2) == 0)
			hands++
		}
	}
	if hands < 100000 {
		t.Fatalf("only %d hands played", hands)
	}
	t.Logf("%d hands", hands)
}

// The event log with its header replays every hand exactly, voided ones and expired clocks included.
func TestLogReplaysExactly(t *testing.T) {
	rng := NewSeededDeck(77)
	for table := 0; table < 40; table++ {
		n := 2 + rng.Intn(9)
		cfg := Config{Seats: n, AnteMode: AnteMode(rng.Intn(2)), ButtonRule: ButtonRule(rng.Intn(2))}
		tb, _ := NewTable(cfg, Level{SmallBlind: 50, BigBlind: 100, Ante: 20}, NewSeededDeck(uint64(table)))
		for i := 0; i < n; i++ {
			tb.Sit(i, "p", int64(100+rng.Intn(5000)), Active)
		}
		tb.SetButton(0)
		for hand := 0; hand < 50; hand++ {
			if tb.StartHand() != nil {
				break
			}
			hd := tb.Header()
			for tb.Phase() == Betting {
				l := tb.LegalActions()
				switch k := rng.Intn(12); {
				case k == 0:
					seat, since := tb.Clock()
					tb.TimeExpired(seat, since)
				case k == 1 && hand%7 == 3:
					tb.Void()
				case k < 4 && l.Call:
					tb.Call(l.Seat)
				case k < 6 && l.Raise:
					tb.RaiseTo(l.Seat, l.MinTo)
				case k < 7 && l.Bet:
					tb.Bet(l.Seat, l.MaxTo)
				case l.Check:
					tb.Check(l.Seat)
				default:
					tb.Fold(l.Seat)
				}
			}
			log := append([]Event(nil), tb.Log()...)
			if _, err := Replay(hd, log); err != nil {
				t.Fatalf("table %d hand %d: %v", table, hand, err)
			}
		}
	}
}

// checkWinnings: after a complete hand, no player won more than his chips could win (S3): from
// each player at most what he put in himself, plus the dead money.
func checkWinnings(t testing.TB, tb *Table) {
	t.Helper()
	h := &tb.h
	if h.phase != Complete || h.inHand < 2 {
		return
	}
	for w := 0; w < int(tb.n); w++ {
		most := h.dead
		for j := 0; j < int(tb.n); j++ {
			most += min(h.put[j], h.put[w])
		}
		if h.result.Won[w] > most {
			t.Fatalf("seat %d won %d, more than the %d its chips could win\n%v", w, h.result.Won[w], most, tb.Log())
		}
	}
}

// rule S6, rule S7 (and S5's first shower): over 100,000 random hands, a mucked hand never reaches a
// seat's or a spectator's view or events, nor does any hand not shown; every shown hand reaches every
// viewer, in the view and as a show event with its cards. Only the owner and the full history see
// the rest.
func TestPropertyMuckedHandsStayHidden(t *testing.T) {
	rng := NewSeededDeck(99)
	hands, mucks, shows := 0, 0, 0
	var events []Event
	for table := 0; hands < 100000; table++ {
		n := 2 + rng.Intn(9)
		cfg := Config{Seats: n, AnteMode: AnteMode(rng.Intn(2))}
		lv := Level{SmallBlind: 50, BigBlind: 100, Ante: int64(rng.Intn(3)) * 25}
		tb, err := NewTable(cfg, lv, NewSeededDeck(uint64(table)))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			st := Active
			if rng.Intn(10) == 0 {
				st = SittingOut
			}
			tb.Sit(i, "p", int64(200+rng.Intn(5000)), st)
		}
		tb.SetButton(rng.Intn(n))
		// Mostly checks and calls, so that many hands reach a showdown with several hands.
		p := &randomPlayer{rng: rng}
		for hand := 0; hand < 50 && tb.StartHand() == nil; hand++ {
			for tb.Phase() == Betting {
				if l := tb.LegalActions(); rng.Intn(10) != 0 {
					a := Call
					if l.Check {
						a = Check
					}
					tb.Act(l.Seat, a, 0)
					continue
				}
				p.act(tb)
			}
			hands++
			var mucked, shown uint16
			for _, e := range tb.Log() {
				switch e.Kind {
				case EvMuck:
					mucked |= 1 << uint(e.Seat)
					mucks++
				case EvShow:
					shown |= 1 << uint(e.Seat)
					shows++
				}
			}
			if mucked&shown != 0 {
				t.Fatalf("a hand both shown and mucked: %v", actionsOf(tb.Log()))
			}
			for viewer := -1; viewer < n; viewer++ { // Spectator, then each seat
				if viewer >= 0 && !tb.Dealt(viewer) {
					continue
				}
				v := tb.View(viewer)
				events = tb.EventsFor(viewer, events[:0])
				for s := 0; s < n; s++ {
					if !tb.Dealt(s) || s == viewer {
						continue
					}
					hole := tb.HoleCards(s)
					sv := v.Seats[s]
					if shown&(1<<uint(s)) == 0 {
						if sv.Known || sv.Cards != ([2]eval.Card{}) {
							t.Fatalf("viewer %d sees seat %d's hand, not shown (mucked %v): %+v\n%v", viewer, s, mucked&(1<<uint(s)) != 0, sv, actionsOf(tb.Log()))
						}
						for _, e := range events {
							cs := e.CardList()
							if e.Kind == EvBoard {
								cs = append(cs, e.Burn)
							}
							for _, c := range cs {
								if c == hole[0] || c == hole[1] {
									t.Fatalf("viewer %d's events show seat %d's hidden card %v in %v", viewer, s, c, e)
								}
							}
						}
						continue
					}
					if !sv.Known || !sv.Shown || sv.Cards != hole {
						t.Fatalf("viewer %d does not see seat %d's shown hand: %+v", viewer, s, sv)
					}
					found := false
					for _, e := range events {
						found = found || e.Kind == EvShow && int(e.Seat) == s && e.N == 2 && [2]eval.Card{e.Cards[0], e.Cards[1]} == hole
					}
					if !found {
						t.Fatalf("viewer %d's events lack seat %d's show", viewer, s)
					}
				}
			}
		}
	}
	if mucks < 5000 || shows < 10000 {
		t.Fatalf("too few showdowns to mean anything: %d mucks, %d shows in %d hands", mucks, shows, hands)
	}
	t.Logf("%d hands, %d hands mucked, %d shown", hands, mucks, shows)
}
