package replay

import (
	"fmt"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/phh"
)

// summary is a hand's log without the dealing, with seats renumbered by PHH player order, so that a
// hand and its replay (which seats the players apart) compare equal.
func summary(t *engine.Table) []string {
	hd := t.Header()
	var index [engine.MaxSeats]int
	n := 0
	for k := 1; k <= hd.Config.Seats; k++ {
		s := (hd.Button + k) % hd.Config.Seats
		if t.Dealt(s) {
			index[s] = n
			n++
		}
	}
	var out []string
	for _, e := range t.Log() {
		switch e.Kind {
		case engine.EvHandStart, engine.EvHole, engine.EvTimeExpired:
			continue
		}
		p := -1
		if e.Kind != engine.EvBoard && e.Kind != engine.EvHandEnd && e.Kind != engine.EvVoid {
			p = index[e.Seat]
		}
		out = append(out, fmt.Sprintf("%v p%d %d %d %v %s %d", e.Kind, p, e.Amount, e.To, e.AllIn, cardsOf(e), e.Pot))
	}
	return out
}

func cardsOf(e engine.Event) string {
	s := ""
	for _, c := range e.CardList() {
		s += c.String()
	}
	return s
}

// TestExportRoundTrip: every hand the engine plays, on random tables with random actions, exports
// to PHH that parses and replays to the same hand: the same actions, pots and final stacks.
func TestExportRoundTrip(t *testing.T) {
	rng := engine.NewSeededDeck(11)
	var r Replayer
	hands := 0
	for table := 0; table < 200; table++ {
		n := 2 + rng.Intn(9)
		cfg := engine.Config{Seats: n + rng.Intn(engine.MaxSeats-n+1), AnteMode: engine.AnteMode(rng.Intn(2)),
			ButtonRule: engine.ButtonRule(rng.Intn(2)), ShortOpen: engine.ShortOpenRule(rng.Intn(2))}
		lv := engine.Level{SmallBlind: 50, BigBlind: 100, Ante: int64(rng.Intn(3)) * 25}
		tb, err := engine.NewTable(cfg, lv, engine.NewSeededDeck(uint64(table)))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			st := engine.Active
			if rng.Intn(10) == 0 {
				st = engine.SittingOut
			}
			tb.Sit(i, fmt.Sprintf("player %d", i), int64(1+rng.Intn(5000)), st)
		}
		tb.SetButton(rng.Intn(cfg.Seats))
		for hand := 0; hand < 100; hand++ {
			if err := tb.StartHand(); err != nil {
				break // fewer than two players left
			}
			for tb.Phase() == engine.Betting {
				l := tb.LegalActions()
				a := []engine.Action{engine.Fold, engine.Check, engine.Call, engine.Bet, engine.Raise, engine.AllIn}[rng.Intn(6)]
				to := l.MinTo
				if l.MaxTo > l.MinTo {
					to += int64(rng.Intn(int(l.MaxTo - l.MinTo + 1)))
				}
				if !tb.CanAllIn(l.Seat) && a == engine.AllIn || a == engine.Check && !l.Check || a == engine.Call && !l.Call ||
					a == engine.Bet && !l.Bet || a == engine.Raise && !l.Raise {
					a = engine.Fold
					if l.Check {
						a = engine.Check
					}
				}
				if _, err := tb.Act(l.Seat, a, to); err != nil {
					t.Fatal(err)
				}
			}
			hands++
			h, err := Export(tb)
			if err != nil {
				t.Fatal(err)
			}
			text, err := h.Marshal()
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			back, err := phh.Parse(text)
			if err != nil {
				t.Fatalf("parse:\n%s\n%v", text, err)
			}
			if err := r.Check(back); err != nil {
				t.Fatalf("replay of\n%s\n%v\noriginal: %v", text, err, summary(tb))
			}
			want, got := summary(tb), summary(r.Table())
			if fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("replay differs:\n%s\nwant %v\ngot  %v", text, want, got)
			}
		}
	}
	if hands < 1000 {
		t.Fatalf("only %d hands played", hands)
	}
}
