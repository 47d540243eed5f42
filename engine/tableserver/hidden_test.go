package tableserver

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/eval"
)

// truth is what a hand really dealt, from the table itself (the full view no connection gets).
type truth struct {
	hole   [engine.MaxSeats][2]string
	dealt  [engine.MaxSeats]bool
	board  []string
	shown  map[string]bool // cards of hands shown to the table (S4, S6, S7)
	voided bool
}

// seen is one frame a connection received, reduced to what the check needs.
type seen struct {
	kind     protocol.Type
	hand     int64
	round    string
	complete bool // a view of the hand over, or a result: shown hands may be in it
	cards    []string
}

type recorder struct {
	mu     sync.Mutex
	frames map[int][]seen // by seat; -1 spectators
}

func (r *recorder) record(seat int, env protocol.Envelope, frame []byte) {
	var head struct {
		Hand  int64  `json:"hand"`
		Round string `json:"round"`
		Phase string `json:"phase"`
	}
	json.Unmarshal(env.Data, &head)
	s := seen{kind: env.Type, hand: head.Hand, round: head.Round, cards: cardsIn(frame),
		complete: env.Type == protocol.TypeResult || env.Type == protocol.TypeView && head.Phase != "betting"}
	if len(s.cards) == 0 {
		return
	}
	r.mu.Lock()
	r.frames[seat] = append(r.frames[seat], s)
	r.mu.Unlock()
}

// Hidden information (rules D5, S6): over 10,000 hands of network bots with spectators watching,
// no frame to anyone holds another player's hole cards before they are shown, a mucked hand, or a
// card not dealt yet; each frame is checked against what the hand really dealt.
func TestRuleD5NoFrameLeaksHiddenCards(t *testing.T) {
	want := 10000
	if n, err := strconv.Atoi(os.Getenv("POKERFLOOR_HIDDEN_HANDS")); err == nil && n > 0 {
		want = n // a shorter run while working on the server; the default is the test's claim
	}
	const players = 6
	hands, frames, shownChecked := 0, 0, 0
	for tableNo := 0; hands < want; tableNo++ {
		truths := map[int64]*truth{}
		rec := &recorder{frames: map[int][]seen{}}
		var tmu sync.Mutex
		tt := startTable(t, tableOpts{players: players, rate: 1e6, onHand: func(s *Server, r *report.HandResult) {
			tb := s.Runner().Table()
			tr := &truth{shown: map[string]bool{}, voided: r.Voided, board: protocol.Cards(tb.Board())}
			for seat := 0; seat < players; seat++ {
				if tb.Dealt(seat) {
					hc := tb.HoleCards(seat)
					tr.dealt[seat], tr.hole[seat] = true, [2]string{hc[0].String(), hc[1].String()}
				}
			}
			for _, e := range tb.Log() {
				if e.Kind == engine.EvShow {
					for _, c := range e.Cards[:e.N] {
						tr.shown[c.String()] = true
					}
				}
			}
			tmu.Lock()
			truths[r.HandNumber] = tr
			tmu.Unlock()
		}})
		specDone := make(chan struct{}, 2)
		for k := 0; k < 2; k++ {
			spec := tt.dial(tt.token(""))
			go func() {
				defer func() { specDone <- struct{}{} }()
				for {
					env, frame, err := spec.c.Read(t.Context())
					if err != nil {
						return
					}
					rec.record(-1, env, frame)
				}
			}()
		}
		done := tt.bots(tt.ids, func(player string, env protocol.Envelope, frame []byte) {
			var seat int
			fmt.Sscanf(player, "p%d", &seat)
			rec.record(seat-1, env, frame)
		})
		for range tt.ids {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		if err := tt.wait(); err != nil {
			t.Fatal(err)
		}
		<-specDone
		<-specDone
		tt.checkChips(10000)
		last, _ := tt.reporter.Hands()
		hands += int(last)

		for viewer, list := range rec.frames {
			for _, f := range list {
				tr := truths[f.hand]
				if tr == nil {
					t.Fatalf("table %d: a %s frame of hand %d, which never ended", tableNo, f.kind, f.hand)
				}
				frames++
				allowed := map[string]string{}
				for _, c := range tr.board {
					allowed[c] = "board"
				}
				if viewer >= 0 && tr.dealt[viewer] {
					allowed[tr.hole[viewer][0]], allowed[tr.hole[viewer][1]] = "own", "own"
				}
				if f.complete {
					for c := range tr.shown {
						allowed[c] = "shown"
						shownChecked++
					}
				}
				boardCards := 0
				for _, c := range f.cards {
					why, ok := allowed[c]
					if !ok {
						t.Fatalf("table %d hand %d: viewer %d got a %s frame naming %s: %s", tableNo, f.hand, viewer, f.kind, c, describe(tr, c))
					}
					if why == "board" {
						boardCards++
					}
				}
				if max := map[string]int{"preflop": 0, "flop": 3, "turn": 4, "river": 5}[f.round]; f.kind == protocol.TypeView && !f.complete && boardCards > max {
					t.Fatalf("table %d hand %d: a %s view names %d board cards", tableNo, f.hand, f.round, boardCards)
				}
			}
		}
	}
	if shownChecked == 0 {
		t.Fatal("no hand was shown: the check of shown hands never ran")
	}
	t.Logf("%d hands, %d frames with cards checked", hands, frames)
}

// describe says what a card that should not have been sent was.
func describe(tr *truth, c string) string {
	for s := range tr.hole {
		if tr.dealt[s] && (tr.hole[s][0] == c || tr.hole[s][1] == c) {
			return fmt.Sprintf("seat %d's hole card, not shown (mucked or still hidden)", s)
		}
	}
	if _, err := eval.ParseCard(c); err == nil {
		return "a card not dealt in the hand (rule D5)"
	}
	return "not a card"
}
