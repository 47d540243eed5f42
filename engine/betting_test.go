package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// step is one action of a table-driven betting test.
type step struct {
	seat int
	a    Action
	to   int64
	err  string // a substring of the error expected, "" for none
}

func run(t *testing.T, tb *Table, steps []step) {
	t.Helper()
	for i, st := range steps {
		_, err := tb.Act(st.seat, st.a, st.to)
		switch {
		case st.err == "" && err != nil:
			t.Fatalf("step %d: seat %d %v %d: %v", i, st.seat, st.a, st.to, err)
		case st.err != "" && err == nil:
			t.Fatalf("step %d: seat %d %v %d: no error, want %q", i, st.seat, st.a, st.to, st.err)
		case st.err != "" && !strings.Contains(err.Error(), st.err):
			t.Fatalf("step %d: error %q, want %q", i, err, st.err)
		}
	}
}

// toFlop plays a 6-handed preflop to the flop with everyone calling the big blind (seat 1 checks).
func toFlop(t *testing.T, tb *Table) {
	t.Helper()
	run(t, tb, []step{{2, Call, 0, ""}, {3, Call, 0, ""}, {4, Call, 0, ""}, {5, Call, 0, ""}, {0, Call, 0, ""}, {1, Check, 0, ""}})
	if tb.Round() != Flop {
		t.Fatalf("round %v, want flop", tb.Round())
	}
}

func six(t *testing.T, cfg Config) *Table {
	tb := newTestTable(t, cfg, lv50, nil, 10000, 10000, 10000, 10000, 10000, 10000)
	mustStart(t, tb)
	return tb
}

// rule A5: the rule book's own examples, and the sizes just below them.
func TestRuleA5MinimumRaise(t *testing.T) {
	t.Run("preflop: call 100, raise to 300, reraise to 500", func(t *testing.T) {
		tb := six(t, Config{})
		run(t, tb, []step{
			{2, Call, 0, ""},
			{3, Raise, 199, "raise to 199 is below the minimum raise to 200 (rule A5)"},
			{3, Raise, 300, ""},
			{4, Raise, 499, "raise to 499 is below the minimum raise to 500 (rule A5)"},
			{4, Raise, 500, ""},
		})
	})
	t.Run("after the flop: bet 300, raise 600, reraise 900, reraise 1200", func(t *testing.T) {
		tb := six(t, Config{})
		toFlop(t, tb)
		run(t, tb, []step{
			{0, Bet, 300, ""},
			{1, Raise, 599, "below the minimum raise to 600 (rule A5)"},
			{1, Raise, 600, ""},
			{2, Raise, 899, "below the minimum raise to 900 (rule A5)"},
			{2, Raise, 900, ""},
			{3, Raise, 1199, "below the minimum raise to 1200 (rule A5)"},
			{3, Raise, 1200, ""},
		})
	})
	t.Run("the error value", func(t *testing.T) {
		tb := six(t, Config{})
		toFlop(t, tb)
		run(t, tb, []step{{0, Bet, 150, ""}})
		err := tb.VerifyRaiseTo(1, 250)
		var e ErrRaiseTooSmall
		if !errors.As(err, &e) || e != (ErrRaiseTooSmall{To: 250, Min: 300, Rule: "A5"}) {
			t.Fatalf("got %#v", err)
		}
		if err.Error() != "raise to 250 is below the minimum raise to 300 (rule A5)" {
			t.Fatalf("message %q", err)
		}
	})
}

// rule A4: the minimum bet is the big blind, in every round; an all-in may be less.
func TestRuleA4MinimumBet(t *testing.T) {
	tb := six(t, Config{})
	toFlop(t, tb)
	run(t, tb, []step{{0, Bet, 99, "bet of 99 is below the minimum bet of 100 (rule A4)"}, {0, Bet, 100, ""}})
	for _, s := range []int{1, 2, 3, 4, 5} {
		run(t, tb, []step{{s, Call, 0, ""}})
	}
	if tb.Round() != Turn {
		t.Fatalf("round %v", tb.Round())
	}
	run(t, tb, []step{{0, Bet, 50, "minimum bet of 100 (rule A4)"}})

	// An all-in for less than the big blind is a bet.
	tb = newTestTable(t, Config{}, lv50, nil, 10000, 10000, 130)
	mustStart(t, tb)
	run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}, {1, Check, 0, ""}})
	run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Bet, 30, ""}})
}

// rule A3: fold, check (when nothing is owed), call, bet, raise, all-in, each when it applies.
func TestRuleA3Actions(t *testing.T) {
	tb := six(t, Config{})
	run(t, tb, []step{
		{2, Check, 0, "cannot check: 100 to call (rule A3)"},
		{2, Bet, 300, "there is already a bet of 100 in this round: raise instead of betting (rule A3)"},
		{2, Raise, 20000, "20000 is more than the player has: all-in is 10000 (rule A3)"},
		{2, Fold, 0, ""},
		{3, Call, 0, ""}, {4, Call, 0, ""}, {5, Call, 0, ""}, {0, Call, 0, ""},
		{1, Call, 0, "there is nothing to call: check instead (rule A3)"},
		{1, Check, 0, ""},
		{0, Raise, 300, "there is no bet to raise in this round: bet instead (rule A3)"},
		{0, Check, 0, ""},
		{1, AllIn, 0, ""},
	})
	l := tb.LegalActions()
	if l.Seat != 3 || !l.Fold || !l.Call || l.Check || l.Raise || l.CallAmount != 9900 {
		t.Fatalf("legal after an all-in: %+v", l)
	}
}

// rule A1: before the flop the first after the big blind acts; after it the first active player
// after the button. Rule B6: heads-up the button acts first before the flop and last after it.
func TestRuleA1FirstToAct(t *testing.T) {
	tb := six(t, Config{})
	if tb.ToAct() != 2 {
		t.Fatalf("preflop first %d, want 2 (after the big blind)", tb.ToAct())
	}
	run(t, tb, []step{{3, Call, 0, "seat 3 acted out of turn: seat 2 is to act (rule A1"}})
	toFlop(t, tb)
	if tb.ToAct() != 0 {
		t.Fatalf("flop first %d, want 0", tb.ToAct())
	}
	// The small blind folded: the first active after the button is the big blind.
	tb = six(t, Config{})
	run(t, tb, []step{{2, Call, 0, ""}, {3, Call, 0, ""}, {4, Call, 0, ""}, {5, Call, 0, ""}, {0, Fold, 0, ""}, {1, Check, 0, ""}})
	if tb.ToAct() != 1 {
		t.Fatalf("flop first %d, want 1", tb.ToAct())
	}
}

// rule B6: heads-up the button posts the small blind, acts first before the flop, last after.
func TestRuleB6HeadsUp(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 1000, 1000)
	mustStart(t, tb)
	if tb.Button() != 1 || tb.h.sb != 1 || tb.h.bb != 0 {
		t.Fatalf("button %d sb %d bb %d", tb.Button(), tb.h.sb, tb.h.bb)
	}
	if tb.ToAct() != 1 {
		t.Fatalf("preflop first %d, want the button", tb.ToAct())
	}
	run(t, tb, []step{{1, Call, 0, ""}, {0, Check, 0, ""}})
	if tb.ToAct() != 0 {
		t.Fatalf("flop first %d, want the big blind", tb.ToAct())
	}
}

// rule A2: a round ends when all who can act have acted and the bets match, or one player is left.
func TestRuleA2RoundEnds(t *testing.T) {
	tb := six(t, Config{})
	run(t, tb, []step{{2, Raise, 300, ""}, {3, Call, 0, ""}, {4, Fold, 0, ""}, {5, Fold, 0, ""}, {0, Fold, 0, ""}})
	if tb.Round() != Preflop || tb.ToAct() != 1 {
		t.Fatalf("the big blind has not acted: round %v to act %d", tb.Round(), tb.ToAct())
	}
	run(t, tb, []step{{1, Call, 0, ""}})
	if tb.Round() != Flop {
		t.Fatalf("bets matched, round %v", tb.Round())
	}
	run(t, tb, []step{{1, Bet, 500, ""}, {2, Fold, 0, ""}, {3, Fold, 0, ""}})
	if tb.Phase() != Complete {
		t.Fatalf("one player left, phase %v", tb.Phase())
	}
	if got := tb.Stack(1); got != 10000+300+300+50 {
		t.Fatalf("winner's stack %d", got)
	}
}

// rule A6: the number of raises is not limited.
func TestRuleA6UnlimitedRaises(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 1_000_000, 1_000_000)
	mustStart(t, tb)
	to := int64(100)
	seat := 1
	for i := 0; i < 40; i++ {
		to += 100
		run(t, tb, []step{{seat, Raise, to, ""}})
		seat = 1 - seat
	}
}

// probe is a step that checks the player to act without acting: mayRaise says whether he may raise
// (A7) and min the smallest raise to when he may.
type probe struct {
	seat     int
	mayRaise bool
	min      int64
}

// rule A7: who may raise over an all-in of less than a full raise. Seat 0 is the small blind, 1 the
// big blind; the hands are played from the flop, blinds 50-100, after everyone called 100.
//
// Seeds 000 and 004: "Un rilancio All In che non costituisca un minimum raise, non consente al
// giocatore che aveva effettuato la prima puntata o ad altri giocatori che l'avevano vista (call) di
// rilanciare ancora, si possono solo adeguare al piatto (call)." Only the bettor and those who called
// him are barred; a player who checked, or has not acted, faces a bet he never answered. Several
// short all-ins adding up to a full raise over a player's last action reopen it (TDA 47A).
func TestRuleA7ShortAllIn(t *testing.T) {
	type act struct {
		step
		probe *probe // when set, check the player to act instead of acting
	}
	do := func(seat int, a Action, to int64) act { return act{step: step{seat: seat, a: a, to: to}} }
	check := func(seat int, mayRaise bool, min int64) act {
		return act{probe: &probe{seat: seat, mayRaise: mayRaise, min: min}}
	}
	for _, c := range []struct {
		name   string
		stacks []int64
		acts   []act
	}{
		{
			name:   "a bet, a call, a short all-in raise: bettor and caller barred, a later player not",
			stacks: []int64{10000, 10000, 250, 10000},
			acts: []act{
				do(0, Bet, 100), do(1, Call, 0), do(2, AllIn, 0), // 250 in all: 150, a raise of 50
				check(3, true, 250), do(3, Call, 0), // not acted: may raise, by the last full raise
				check(0, false, 0), do(0, Call, 0), // made the bet the all-in raised
				check(1, false, 0), do(1, Call, 0), // called it
			},
		},
		{
			name:   "a checker may raise an all-in opening bet below the big blind (to twice the big blind, A10)",
			stacks: []int64{10000, 120, 10000},
			acts: []act{
				do(0, Check, 0), do(1, AllIn, 0), // 20, below the minimum bet
				check(2, true, 200), do(2, Call, 0),
				check(0, true, 200), do(0, Raise, 200), // only checked: the all-in is a bet he never answered
			},
		},
		{
			name:   "a checker may raise a bet and a short all-in raise; the bettor may not",
			stacks: []int64{10000, 10000, 250, 10000},
			acts: []act{
				do(0, Check, 0), do(1, Bet, 100), do(2, AllIn, 0),
				check(3, true, 250), do(3, Call, 0),
				check(0, true, 250), do(0, Call, 0),
				check(1, false, 0), do(1, Call, 0),
			},
		},
		{
			name:   "short all-ins adding up to a full raise over the bet reopen it for the bettor",
			stacks: []int64{10000, 250, 320, 10000},
			acts: []act{
				do(0, Bet, 100), do(1, AllIn, 0), do(2, AllIn, 0), do(3, Call, 0), // 100, 150, 220
				check(0, true, 320), // 120 more than his bet, at least the full raise of 100
			},
		},
		{
			name:   "short all-ins adding up to less than a full raise do not",
			stacks: []int64{10000, 250, 290, 10000},
			acts: []act{
				do(0, Bet, 100), do(1, AllIn, 0), do(2, AllIn, 0), // 100, 150, 190
				check(3, true, 290), do(3, Call, 0),
				check(0, false, 0), do(0, Call, 0),
			},
		},
		{
			name:   "a caller of the first short all-in facing a second: barred while the two add up to less",
			stacks: []int64{10000, 10000, 250, 280, 10000},
			acts: []act{
				do(0, Bet, 100), do(1, Call, 0), do(2, AllIn, 0), do(3, AllIn, 0), // 100, 150, 180
				check(4, true, 280), do(4, Call, 0),
				check(0, false, 0), do(0, Call, 0),
				check(1, false, 0), do(1, Call, 0),
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTestTable(t, Config{}, lv50, nil, c.stacks...)
			mustStart(t, tb)
			toFlopN(t, tb, len(c.stacks))
			for i, a := range c.acts {
				if p := a.probe; p != nil {
					l := tb.LegalActions()
					if l.Seat != p.seat || l.Raise != p.mayRaise || l.Reopened != p.mayRaise || p.mayRaise && l.MinTo != p.min {
						t.Fatalf("act %d: seat %d may raise %v (min %d): got %+v", i, p.seat, p.mayRaise, p.min, l)
					}
					err := tb.VerifyRaiseTo(p.seat, l.MaxTo-1)
					var e ErrNotReopened
					if !p.mayRaise && (!errors.As(err, &e) || e.Rule != "A7" || !strings.Contains(err.Error(), "(rule A7)")) {
						t.Fatalf("act %d: seat %d raising: %v, want the rule A7 error", i, p.seat, err)
					}
					continue
				}
				run(t, tb, []step{a.step})
			}
		})
	}
}

// rule A7 before the flop: a limper called the big blind, the bet a short all-in raises: he may only
// call; the big blind, who has not acted, keeps his option (A8).
func TestRuleA7ShortAllInBeforeTheFlop(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 10000, 10000, 10000, 150, 10000)
	mustStart(t, tb)
	run(t, tb, []step{{2, Call, 0, ""}, {3, AllIn, 0, ""}, {4, Call, 0, ""}, {0, Call, 0, ""}})
	if l := tb.LegalActions(); l.Seat != 1 || !l.Raise || l.MinTo != 250 {
		t.Fatalf("the big blind facing the short all-in: %+v", l)
	}
	run(t, tb, []step{{1, Call, 0, ""}})
	if l := tb.LegalActions(); l.Seat != 2 || l.Raise || l.Reopened || !l.Call {
		t.Fatalf("the limper facing the short all-in: %+v", l)
	}
	var e ErrNotReopened
	if err := tb.VerifyRaiseTo(2, 1000); !errors.As(err, &e) || e != (ErrNotReopened{Facing: 150, ActedAt: 100, FullRaise: 100, Rule: "A7"}) {
		t.Fatalf("the limper raising: %#v", err)
	}
}

// toFlopN calls the big blind around an n-handed table (seat 0 small blind, seat 1 big blind).
func toFlopN(t *testing.T, tb *Table, n int) {
	t.Helper()
	for s := 2; s < n; s++ {
		run(t, tb, []step{{s, Call, 0, ""}})
	}
	run(t, tb, []step{{0, Call, 0, ""}, {1, Check, 0, ""}})
	if tb.Round() != Flop {
		t.Fatalf("round %v, want flop", tb.Round())
	}
}

// rule A8: the big blind keeps the option to raise, even over an all-in for less than a raise.
func TestRuleA8BigBlindOption(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 10000, 10000, 150, 10000)
	mustStart(t, tb)
	run(t, tb, []step{{2, AllIn, 0, ""}, {3, Call, 0, ""}, {0, Call, 0, ""}})
	l := tb.LegalActions()
	if l.Seat != 1 || !l.Raise || l.MinTo != 250 {
		t.Fatalf("big blind facing a short all-in: %+v", l)
	}
	run(t, tb, []step{{1, Raise, 250, ""}})
	// Everyone limps: the big blind may still raise.
	tb = six(t, Config{})
	run(t, tb, []step{{2, Call, 0, ""}, {3, Call, 0, ""}, {4, Call, 0, ""}, {5, Call, 0, ""}, {0, Call, 0, ""}})
	if l := tb.LegalActions(); l.Seat != 1 || !l.Check || !l.Raise {
		t.Fatalf("big blind option: %+v", l)
	}
}

// rule A9: a big blind all-in for less than the big blind: whoever enters puts in the full big blind.
func TestRuleA9ShortBigBlind(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 10000, 20, 10000)
	mustStart(t, tb)
	l := tb.LegalActions()
	if l.Seat != 2 || l.CallAmount != 100 || l.MinTo != 200 {
		t.Fatalf("after a big blind of 20: %+v", l)
	}
	run(t, tb, []step{{2, Call, 0, ""}, {0, Fold, 0, ""}})
	// Seat 2 put in 100; the small blind's 50 is the most anyone matched: 50 goes back.
	var back int64
	for _, e := range tb.Log() {
		if e.Kind == EvUncalled {
			back = e.Amount
		}
	}
	if back != 50 {
		t.Fatalf("uncalled %d, want 50\n%v", back, actionsOf(tb.Log()))
	}
}

// rule A10: big blind 100, an all-in for 20 after the flop: the smallest raise is to 200, for the
// player who checked before the all-in as for the one who had not acted.
//
// Seeds 000 and 004: "Se un giocatore va all-in per un importo che è inferiore alla puntata minima,
// un giocatore che vuole rilanciare deve puntare almeno il doppio del grande buio o, se c'è stato,
// dell'ultimo rilancio effettuato: per esempio se il grande buio minimo richiesto per giocare è 100 e
// un giocatore va all-in dopo il flop per 20, un rilancio deve essere almeno di un totale di 200."
func TestRuleA10ShortOpeningAllIn(t *testing.T) {
	for _, c := range []struct {
		name   string
		pol    ShortOpenRule
		street Round
		min    int64
		rule   string
	}{
		{"seeds, on the flop", ShortOpenDoubleBlind, Flop, 200, "A10"},
		{"seeds, on the turn", ShortOpenDoubleBlind, Turn, 200, "A10"},
		{"policy: all-in plus the big blind", ShortOpenPlusBlind, Flop, 120, "A5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := newTestTable(t, Config{ShortOpen: c.pol}, lv50, nil, 10000, 120, 10000)
			mustStart(t, tb)
			toFlopN(t, tb, 3)
			if c.street == Turn {
				run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
			}
			run(t, tb, []step{{0, Check, 0, ""}, {1, AllIn, 0, ""}})
			if got := tb.MinRaiseTo(); got != c.min {
				t.Fatalf("min raise to %d, want %d", got, c.min)
			}
			var e ErrRaiseTooSmall
			if err := tb.VerifyRaiseTo(2, c.min-1); !errors.As(err, &e) || e.Rule != c.rule || e.Min != c.min || e.To != c.min-1 {
				t.Fatalf("raise to %d: %v", c.min-1, err)
			}
			// The player after the all-in calls; the one who checked before it may still raise, by
			// the same minimum (A7: the all-in is a bet he never answered).
			run(t, tb, []step{{2, Call, 0, ""}})
			if l := tb.LegalActions(); l.Seat != 0 || !l.Raise || l.MinTo != c.min {
				t.Fatalf("the checker facing the all-in: %+v", l)
			}
			want := fmt.Sprintf("raise to %d is below the minimum raise to %d (rule %s)", c.min-1, c.min, c.rule)
			run(t, tb, []step{{0, Raise, c.min - 1, want}, {0, Raise, c.min, ""}})
		})
	}
}

// rule A11: an action is one atomic message with its full amount; nothing can be added to it.
func TestRuleA11OneMotion(t *testing.T) {
	tb := six(t, Config{})
	e, err := tb.RaiseTo(2, 300)
	if err != nil {
		t.Fatal(err)
	}
	if e.Kind != EvRaise || e.To != 300 || e.Amount != 300 {
		t.Fatalf("event %+v", e)
	}
	run(t, tb, []step{{2, Raise, 600, "out of turn"}})
}

// rule A12: an action declared is binding; where the declaration and the chips disagree, the
// declaration wins.
func TestRuleA12Declaration(t *testing.T) {
	tb := six(t, Config{})
	for _, c := range []struct {
		in   ChipInput
		want ChipReading
	}{
		{ChipInput{Seat: 2, Chips: 500, Declared: Call}, ChipReading{Action: Call, Returned: 400, Rule: "A12"}},
		{ChipInput{Seat: 2, Chips: 100, Declared: Raise, DeclaredTo: 400}, ChipReading{Action: Raise, To: 400, Complete: 300, Rule: "A12"}},
		{ChipInput{Seat: 2, Chips: 500, Declared: Fold}, ChipReading{Action: Fold, Returned: 500, Rule: "A12"}},
	} {
		got, err := tb.ReadChips(c.in)
		if err != nil || got != c.want {
			t.Errorf("%+v: got %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

// rule A13: chips put in without a declaration, read by the dealer (blinds 50-100, facing 100,
// the minimum raise is to 200).
//
// Seeds 000 and 004: "Qualora un giocatore punti un numero di chips senza dichiarare l'azione né la
// quantità, il Dealer ne verifica l'ammontare e: 1. Se corrisponde ad una corretta azione, annuncia
// l'azione stessa; 2. Se inferiore all'ultima puntata valida, annuncia un call e invita il giocatore
// a completare la puntata con l'importo corretto; 3. Se inferiore al 50% del minimum raise, annuncia
// un call e restituisce al giocatore le chips in eccedenza; 4. Se superiore al 50% del minimum raise,
// annuncia un raise e invita il giocatore a completare la puntata con l'importo corretto." And: "Se
// un giocatore punta un singolo gettone che è più grande delle puntata ma non dichiara un rilancio
// l'azione è considerata come chiamata (call), se dichiara solo "raise" senza specificarne l'importo,
// viene accettato l'ammontare totale del gettone giocato."
func TestRuleA13DealerReadsChips(t *testing.T) {
	cases := []struct {
		name string
		in   ChipInput
		want ChipReading
	}{
		{"1. a correct call", ChipInput{Chips: 100}, ChipReading{Action: Call, Rule: "A13"}},
		{"1. a correct raise", ChipInput{Chips: 300}, ChipReading{Action: Raise, To: 300, Rule: "A13"}},
		{"2. less than the bet: a call, completed", ChipInput{Chips: 60}, ChipReading{Action: Call, Complete: 40, Rule: "A13"}},
		{"3. under half a min raise: a call, excess back", ChipInput{Chips: 140}, ChipReading{Action: Call, Returned: 40, Rule: "A13"}},
		{"4. half a min raise: a raise, completed", ChipInput{Chips: 150}, ChipReading{Action: Raise, To: 200, Complete: 50, Rule: "A13"}},
		{"one oversized chip: a call", ChipInput{Chips: 1000, SingleChip: true}, ChipReading{Action: Call, Returned: 900, Rule: "A13"}},
		{"one chip with \"raise\": its full value", ChipInput{Chips: 1000, SingleChip: true, Declared: Raise}, ChipReading{Action: Raise, To: 1000, Rule: "A13"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb := six(t, Config{})
			c.in.Seat = 2
			got, err := tb.ReadChips(c.in)
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
			if _, err := tb.Act(2, got.Action, got.To); err != nil {
				t.Fatalf("the reading is not a legal action: %v", err)
			}
		})
	}
	t.Run("the big blind's oversized chip with nothing owed is a check", func(t *testing.T) {
		tb := six(t, Config{})
		run(t, tb, []step{{2, Call, 0, ""}, {3, Call, 0, ""}, {4, Call, 0, ""}, {5, Call, 0, ""}, {0, Call, 0, ""}})
		got, err := tb.ReadChips(ChipInput{Seat: 1, Chips: 500, SingleChip: true})
		want := ChipReading{Action: Check, Returned: 500, Rule: "A13"}
		if err != nil || got != want {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	// With no bet to call, chips below the minimum bet are a bet the dealer has completed to the
	// minimum bet (A4), never a check with the chips handed back.
	for _, c := range []struct {
		chips int64
		want  ChipReading
	}{
		{40, ChipReading{Action: Bet, To: 100, Complete: 60, Rule: "A13"}},
		{99, ChipReading{Action: Bet, To: 100, Complete: 1, Rule: "A13"}},
		{100, ChipReading{Action: Bet, To: 100, Rule: "A13"}},
		{0, ChipReading{Action: Check, Rule: "A13"}},
	} {
		t.Run(fmt.Sprintf("no bet to call, %d put in", c.chips), func(t *testing.T) {
			tb := six(t, Config{})
			toFlop(t, tb)
			got, err := tb.ReadChips(ChipInput{Seat: 0, Chips: c.chips})
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
			if _, err := tb.Act(0, got.Action, got.To); err != nil {
				t.Fatalf("the reading is not a legal action: %v", err)
			}
		})
	}
	t.Run("after the flop an oversized chip opening the betting is a bet of its value", func(t *testing.T) {
		tb := six(t, Config{})
		toFlop(t, tb)
		got, err := tb.ReadChips(ChipInput{Seat: 0, Chips: 1000, SingleChip: true})
		want := ChipReading{Action: Bet, To: 1000, Rule: "A13"}
		if err != nil || got != want {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
}

// rule A14: an advance action binds only if no bet or raise comes before the player's turn; check,
// call and fold do not change the action; a call out of turn never becomes a raise.
func TestRuleA14AdvanceActions(t *testing.T) {
	t.Run("binding when nothing changed", func(t *testing.T) {
		tb := six(t, Config{})
		if err := tb.QueueAdvance(4, AdvanceFold); err != nil {
			t.Fatal(err)
		}
		if err := tb.QueueAdvance(3, AdvanceCall); err != nil {
			t.Fatal(err)
		}
		run(t, tb, []step{{2, Call, 0, ""}})
		if tb.ToAct() != 5 {
			t.Fatalf("to act %d: seat 3 should have called and seat 4 folded\n%v", tb.ToAct(), actionsOf(tb.Log()))
		}
		if tb.h.bet[3] != 100 || !tb.h.folded[4] {
			t.Fatal("advance actions not run")
		}
	})
	t.Run("dropped after a raise", func(t *testing.T) {
		tb := six(t, Config{})
		if err := tb.QueueAdvance(3, AdvanceCall); err != nil {
			t.Fatal(err)
		}
		run(t, tb, []step{{2, Raise, 300, ""}})
		if tb.ToAct() != 3 || tb.h.bet[3] != 0 {
			t.Fatalf("the call queued against 100 must not call 300")
		}
	})
	t.Run("check/fold checks when free", func(t *testing.T) {
		tb := six(t, Config{})
		toFlop(t, tb)
		tb.QueueAdvance(1, AdvanceCheckFold)
		run(t, tb, []step{{0, Check, 0, ""}})
		if tb.ToAct() != 2 {
			t.Fatalf("to act %d", tb.ToAct())
		}
	})
}

// rule A14: a declaration out of turn at a live table, under both policies. Six players, blinds
// 50-100: seat 2 acts first, then 3, 4, 5, 0, 1.
//
// Seeds 000 and 004: "Un'affermazione o una dichiarazione verbale fuori dal turno è considerata
// vincolante se una azione ( call, bet, raise, reraise) non interviene dopo che l'infrazione è stata
// commessa. Un giocatore che ha chiamato (call) fuori dal turno non può cambiare la sua chiamata in
// un rilancio in nessuna circostanza." TDA 2007 r30 (the policy): check, call and fold do not change
// the action; a bet or raise frees the player, who then has every option.
func TestRuleA14OutOfTurn(t *testing.T) {
	type want struct {
		toAct    int   // the seat to act after the steps
		bet4     int64 // seat 4's bet then
		folded4  bool
		mayRaise bool // seat 4, when it is his turn
	}
	for _, c := range []struct {
		name     string
		pol      OutOfTurnRule
		declare  step // seat 4's declaration
		between  []step
		want     want
		errRaise string // seat 4 raising to 1000 when free: "" for allowed
	}{
		{"seed 000: folds in between, the declared fold binds", OutOfTurnSeed000, step{4, Fold, 0, ""},
			[]step{{2, Fold, 0, ""}, {3, Fold, 0, ""}}, want{toAct: 5, folded4: true}, ""},
		{"TDA: folds in between, the declared fold binds", OutOfTurnTDA, step{4, Fold, 0, ""},
			[]step{{2, Fold, 0, ""}, {3, Fold, 0, ""}}, want{toAct: 5, folded4: true}, ""},
		{"seed 000: a call in between frees the declared raise", OutOfTurnSeed000, step{4, Raise, 300, ""},
			[]step{{2, Call, 0, ""}, {3, Fold, 0, ""}}, want{toAct: 4, mayRaise: true}, ""},
		{"TDA: a call does not change the action, the declared raise binds", OutOfTurnTDA, step{4, Raise, 300, ""},
			[]step{{2, Call, 0, ""}, {3, Fold, 0, ""}}, want{toAct: 5, bet4: 300}, ""},
		{"seed 000: a raise frees a declared call, which can never become a raise", OutOfTurnSeed000, step{4, Call, 0, ""},
			[]step{{2, Raise, 300, ""}, {3, Fold, 0, ""}}, want{toAct: 4}, "that call can never become a raise; call or fold (rule A14)"},
		{"seed 000: a call frees a declared call, still never a raise", OutOfTurnSeed000, step{4, Call, 0, ""},
			[]step{{2, Call, 0, ""}, {3, Call, 0, ""}}, want{toAct: 4}, "(rule A14)"},
		{"TDA: a raise frees a declared call, and he has every option", OutOfTurnTDA, step{4, Call, 0, ""},
			[]step{{2, Raise, 300, ""}, {3, Fold, 0, ""}}, want{toAct: 4, mayRaise: true}, ""},
		{"TDA: calls in between, the declared call binds", OutOfTurnTDA, step{4, Call, 0, ""},
			[]step{{2, Call, 0, ""}, {3, Call, 0, ""}}, want{toAct: 5, bet4: 100}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := six(t, Config{OutOfTurn: c.pol})
			e, err := tb.DeclareOutOfTurn(c.declare.seat, c.declare.a, c.declare.to)
			if err != nil || e.Kind != EvOutOfTurn {
				t.Fatalf("declaration: %v %v", e, err)
			}
			run(t, tb, c.between)
			v := tb.View(FullView)
			if tb.ToAct() != c.want.toAct || v.Seats[4].Bet != c.want.bet4 || v.Seats[4].Folded != c.want.folded4 {
				t.Fatalf("to act %d, seat 4 bet %d folded %v; want %+v\n%v", tb.ToAct(), v.Seats[4].Bet, v.Seats[4].Folded, c.want, actionsOf(tb.Log()))
			}
			if tb.ToAct() != 4 {
				return
			}
			if l := tb.LegalActions(); l.Raise != c.want.mayRaise || !l.Fold {
				t.Fatalf("seat 4 freed: %+v", l)
			}
			err = tb.VerifyRaiseTo(4, 1000)
			if c.errRaise == "" && err != nil || c.errRaise != "" && (err == nil || !strings.Contains(err.Error(), c.errRaise)) {
				t.Fatalf("seat 4 raising: %v, want %q", err, c.errRaise)
			}
			if c.errRaise != "" {
				var e ErrCalledOutOfTurn
				if !errors.As(err, &e) || e.Rule != "A14" {
					t.Fatalf("error value %#v", err)
				}
				run(t, tb, []step{{4, Call, 0, ""}})
			}
		})
	}
	t.Run("the player to act declares nothing out of turn; a declaration binds once made", func(t *testing.T) {
		tb := six(t, Config{})
		if err := tb.VerifyDeclareOutOfTurn(2, Fold, 0); err == nil || !strings.Contains(err.Error(), "act now (rule A14)") {
			t.Fatalf("in turn: %v", err)
		}
		if _, err := tb.DeclareOutOfTurn(4, Call, 0); err != nil {
			t.Fatal(err)
		}
		if tb.CanDeclareOutOfTurn(4, Fold, 0) {
			t.Fatal("a second declaration replaced a binding one")
		}
	})
	t.Run("the log with its declarations replays exactly", func(t *testing.T) {
		tb := six(t, Config{OutOfTurn: OutOfTurnTDA})
		tb.DeclareOutOfTurn(4, Raise, 300)
		run(t, tb, []step{{2, Call, 0, ""}, {3, Fold, 0, ""}})
		checkDownAll(t, tb)
		log := append([]Event(nil), tb.Log()...)
		if _, err := Replay(tb.Header(), log); err != nil {
			t.Fatal(err)
		}
	})
}

// checkDownAll plays the hand to its end with checks and calls.
func checkDownAll(t *testing.T, tb *Table) {
	t.Helper()
	for tb.Phase() == Betting {
		s := tb.ToAct()
		a := Call
		if tb.CanCheck(s) {
			a = Check
		}
		if _, err := tb.Act(s, a, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// rule A15: the clock is data: the engine says who must act since which action; at expiry the hand
// is folded, or checked when free under checkWhenFree; a stale expiry changes nothing.
func TestRuleA15Clock(t *testing.T) {
	tb := six(t, Config{})
	seat, since := tb.Clock()
	if seat != 2 {
		t.Fatalf("clock on seat %d", seat)
	}
	run(t, tb, []step{{2, Call, 0, ""}})
	if _, err := tb.TimeExpired(2, since); err == nil {
		t.Fatal("a stale expiry was accepted")
	}
	seat, since = tb.Clock()
	e, err := tb.TimeExpired(seat, since)
	if err != nil || e.Kind != EvFold || e.Seat != 3 {
		t.Fatalf("expiry: %+v %v", e, err)
	}
	tb = six(t, Config{Expiry: ExpireCheckWhenFree})
	toFlop(t, tb)
	seat, since = tb.Clock()
	if e, err := tb.TimeExpired(seat, since); err != nil || e.Kind != EvCheck {
		t.Fatalf("checkWhenFree: %+v %v", e, err)
	}
	if DefaultClock.Think.Seconds() != 30 || DefaultClock.Clock.Seconds() != 60 || DefaultClock.Countdown.Seconds() != 10 {
		t.Fatalf("default clock %+v", DefaultClock)
	}
}

// rule A16: before acting a player can see who is in the hand, their stacks, the amount to call,
// the minimum raise and whether the bet in front reopens the betting.
func TestRuleA16TableInformation(t *testing.T) {
	tb := newTestTable(t, Config{}, lv50, nil, 10000, 10000, 10000, 250)
	mustStart(t, tb)
	toFlopN(t, tb, 4)
	run(t, tb, []step{{0, Bet, 100, ""}, {1, Fold, 0, ""}, {2, Call, 0, ""}, {3, AllIn, 0, ""}})
	v := tb.View(0)
	if v.ToAct != 0 || v.ToCall != 50 || v.Reopens || v.MinRaiseTo != 0 {
		t.Fatalf("view for the bettor: to act %d, to call %d, reopens %v, min raise %d", v.ToAct, v.ToCall, v.Reopens, v.MinRaiseTo)
	}
	in := 0
	for _, s := range v.Seats[:v.NSeats] {
		if s.InHand {
			in++
		}
	}
	if in != 3 || v.Seats[3].Stack != 0 || !v.Seats[3].AllIn || v.Seats[2].Stack != 9800 {
		t.Fatalf("seats: %+v", v.Seats[:4])
	}
	v = tb.View(Spectator)
	if v.ToCall != 50 || v.Seats[0].Known {
		t.Fatalf("spectator view: %+v", v)
	}
}
