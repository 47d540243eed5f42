package engine

import (
	"testing"
)

// byteSource reads fuzz input as small numbers; past its end it yields zeros.
type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) next() int {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return int(s.b[s.i-1])
}

func (s *byteSource) done() bool { return s.i >= len(s.b) }

// FuzzHand plays hands on a table shaped by the input with actions, legal and illegal, drawn from
// it. Whatever the input: no panic, chips conserved at every step, no negative stack, every hand
// ends, and every illegal action is refused and changes nothing.
func FuzzHand(f *testing.F) {
	f.Add([]byte{6, 0, 0, 50, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{2, 1, 1, 0, 255, 255, 4, 9, 9, 9})
	f.Add([]byte{10, 3, 2, 7, 0, 0, 0, 5, 5, 5, 5, 6, 6, 1, 2, 3})
	f.Add([]byte{6, 0, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 7, 3, 3, 3, 4, 1, 1, 2, 2, 5, 7, 2, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &byteSource{b: data}
		n := 2 + in.next()%9
		cfg := Config{Seats: n + in.next()%(MaxSeats-n+1)}
		flags := in.next()
		cfg.AnteMode, cfg.ButtonRule = AnteMode(flags&1), ButtonRule(flags>>1&1)
		cfg.ShortOpen, cfg.Expiry = ShortOpenRule(flags>>2&1), ClockExpiry(flags>>3&1)
		cfg.OutOfTurn = OutOfTurnRule(flags >> 4 & 1)
		lv := Level{SmallBlind: 50, BigBlind: 100, Ante: int64(in.next() % 60)}
		tb, err := NewTable(cfg, lv, NewSeededDeck(uint64(len(data))))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			st := Active
			if k := in.next(); k%11 == 0 {
				st = SittingOut
			} else if k%13 == 0 {
				st = WaitingForButton
			}
			tb.Sit(i, "p", int64(1+in.next()*37), st)
		}
		tb.SetButton(in.next() % cfg.Seats)
		for hand := 0; hand < 5; hand++ {
			total := tb.TotalChips()
			if tb.StartHand() != nil {
				return
			}
			for steps := 0; tb.Phase() == Betting; steps++ {
				if steps > 1000 {
					t.Fatal("the hand does not end")
				}
				seat := in.next()%(cfg.Seats+1) - 1
				a := Action(in.next() % 8)
				to := int64(in.next())*int64(in.next()+1) - 5
				if in.done() { // out of input: end the hand legally
					l := tb.LegalActions()
					seat, a, to = l.Seat, Fold, 0
					if l.Check {
						a = Check
					}
				}
				before, loglen := tb.h, len(tb.log)
				if a == 7 { // a declaration out of turn (rule A14), binding or refused
					d := Action(1 + in.next()%6)
					decl := tb.decl
					legal := tb.verifyDeclare(seat, d, to) == okAction
					_, err := tb.DeclareOutOfTurn(seat, d, to)
					if legal != (err == nil) || err != nil && (tb.h != before || tb.decl != decl || len(tb.log) != loglen) {
						t.Fatalf("declaration %v %d of seat %d: verify %v, err %v", d, to, seat, legal, err)
					}
					continue
				}
				legal := tb.verify(seat, a, to) == okAction
				_, err := tb.Act(seat, a, to)
				if legal != (err == nil) {
					t.Fatalf("verify says %v, Act says %v", legal, err)
				}
				if err != nil && (tb.h != before || len(tb.log) != loglen) {
					t.Fatalf("the refused %v %d of seat %d changed the table", a, to, seat)
				}
				if got := tb.TotalChips(); got != total {
					t.Fatalf("chips %d, want %d", got, total)
				}
				for s := 0; s < cfg.Seats; s++ {
					if tb.Stack(s) < 0 {
						t.Fatalf("seat %d: negative stack", s)
					}
				}
			}
			if got := tb.TotalChips(); got != total {
				t.Fatalf("chips %d after the hand, want %d", got, total)
			}
			checkWinnings(t, tb)
		}
	})
}
