package engine

import (
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/eval"
)

// liveTable starts a live three-handed hand (seat 0 small blind, 1 big blind, 2 button; dealing
// order 0, 1, 2, 0, 1, 2) at blinds 50-100 with 1,000 chips each.
func liveTable(t *testing.T) *Table {
	t.Helper()
	tb := newTestTable(t, Config{Live: true}, lv50, nil, 1000, 1000, 1000)
	mustStart(t, tb)
	if tb.Awaiting() != AwaitHoleCards {
		t.Fatalf("awaiting %v", tb.Awaiting())
	}
	return tb
}

// deal reports cards ("AsAh..." in dealing order) as dealt face down.
func deal(t *testing.T, tb *Table, cs string) {
	t.Helper()
	for _, c := range cards(cs) {
		if _, err := tb.ReportHole(LiveCard{Card: c}); err != nil {
			t.Fatal(err)
		}
	}
}

func board(t *testing.T, tb *Table, burns, cs string) Event {
	t.Helper()
	e, err := tb.ReportBoard(LiveBoard{Burns: cards(burns), Cards: cards(cs)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// procs lists the live procedures in the log.
func procs(log []Event) []Procedure {
	var out []Procedure
	for _, e := range log {
		if e.Kind == EvLive {
			out = append(out, e.Proc)
		}
	}
	return out
}

// wantVoid checks that the hand is void by procedure p, every chip back (D4).
func wantVoid(t *testing.T, tb *Table, p Procedure) {
	t.Helper()
	ps := procs(tb.Log())
	if tb.Phase() != Voided || len(ps) == 0 || ps[len(ps)-1] != p {
		t.Fatalf("phase %v, procedures %v, want void by %v", tb.Phase(), ps, p)
	}
	for s := 0; s < 3; s++ {
		if tb.Stack(s) != 1000 {
			t.Fatalf("seat %d has %d after the void, want 1000", s, tb.Stack(s))
		}
	}
}

// preflopCalls has everyone call the big blind (seat 1 checks).
func preflopCalls(t *testing.T, tb *Table) {
	t.Helper()
	run(t, tb, []step{{2, Call, 0, ""}, {0, Call, 0, ""}, {1, Check, 0, ""}})
	if tb.Awaiting() != AwaitBoard {
		t.Fatalf("awaiting %v after the preflop round", tb.Awaiting())
	}
}

// A live hand dealt by the dealer's reports plays like any other: nobody acts while cards are dealt,
// the street comes when reported, chips are conserved.
func TestLiveDealReportsEveryCard(t *testing.T) {
	tb := liveTable(t)
	if err := tb.VerifyCall(2); err == nil || !strings.Contains(err.Error(), "the dealer is dealing the hole cards") {
		t.Fatalf("acting during the deal: %v", err)
	}
	deal(t, tb, "AsKs2c AhKh7d")
	if tb.Awaiting() != AwaitNothing || tb.ToAct() != 2 || tb.HoleCards(0) != [2]eval.Card{eval.MustParseCard("As"), eval.MustParseCard("Ah")} {
		t.Fatalf("after the deal: awaiting %v, to act %d, seat 0 %v", tb.Awaiting(), tb.ToAct(), tb.HoleCards(0))
	}
	preflopCalls(t, tb)
	if err := tb.VerifyReportBoard(LiveBoard{Burns: cards("3c"), Cards: cards("4c5c")}); err == nil {
		t.Fatal("a flop of two cards accepted")
	}
	board(t, tb, "3c", "Ad9h4s")
	checkDownLive(t, tb, []string{"5d Tc", "6d Jc"})
	if tb.Phase() != Complete || tb.TotalChips() != 3000 || tb.Stack(0) != 1200 {
		t.Fatalf("phase %v, chips %d, seat 0 %d\n%v", tb.Phase(), tb.TotalChips(), tb.Stack(0), actionsOf(tb.Log()))
	}
}

// checkDownLive checks or calls to the end, dealing each street from streets ("burn card").
func checkDownLive(t *testing.T, tb *Table, streets []string) {
	t.Helper()
	for tb.Phase() == Betting {
		if tb.Awaiting() == AwaitBoard {
			f := strings.Fields(streets[0])
			streets = streets[1:]
			burn := ""
			if len(f) == 2 {
				burn = f[0]
			}
			board(t, tb, burn, f[len(f)-1])
			continue
		}
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

// rule L1, seed 000: "Se una carta con il retro di diverso colore appare in una mano, tutta la
// distribuzione verrà annullata e tutti i gettoni nel piatto saranno restituiti ai rispettivi
// giocatori. Se due carte dello stesso valore e seme vengono trovate, tutta la mano non è valida [...]
// Una o più carte mancanti dal mazzo invalidano il risultato di una mano e i gettoni puntati vengono
// ridistribuiti ai giocatori."
func TestRuleL1IrregularDeck(t *testing.T) {
	for _, c := range []struct {
		name string
		do   func(t *testing.T, tb *Table)
	}{
		{"a card of another back", func(t *testing.T, tb *Table) {
			deal(t, tb, "AsKs")
			tb.ReportHole(LiveCard{Card: eval.MustParseCard("2c"), OtherBack: true})
		}},
		{"a card twice in the deal", func(t *testing.T, tb *Table) {
			deal(t, tb, "AsKs")
			tb.ReportHole(LiveCard{Card: eval.MustParseCard("As")})
		}},
		{"a card twice on the board, after bets", func(t *testing.T, tb *Table) {
			deal(t, tb, "AsKs2c AhKh7d")
			run(t, tb, []step{{2, Raise, 300, ""}, {0, Call, 0, ""}, {1, Call, 0, ""}})
			tb.ReportBoard(LiveBoard{Burns: cards("3c"), Cards: cards("Kh9h4s")})
		}},
		{"cards missing from the deck", func(t *testing.T, tb *Table) {
			deal(t, tb, "AsKs2c AhKh7d")
			run(t, tb, []step{{2, Call, 0, ""}})
			tb.ReportMissingCards()
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := liveTable(t)
			c.do(t, tb)
			wantVoid(t, tb, ProcIrregularDeck)
		})
	}
}

// rule L2, seed 000: "Se la prima o la seconda holecard distribuita viene scoperta, si ha un
// misdeal. [...] Se qualunque altra holecard viene scoperta a causa di un errore del dealer, la
// distribuzione continua. La carta esposta non può essere mantenuta. Dopo aver completato la mano,
// il dealer sostituirà la carta con la prima carta del mazzo e la carta scoperta verrà usata come
// burncard (carta bruciata). Se più di una carta viene scoperta, la mano viene annullata."
func TestRuleL2ExposedHoleCard(t *testing.T) {
	for _, c := range []struct {
		name    string
		exposed int // the position in the deal of the exposed card
		second  int // a second exposed position, -1 for none
		void    bool
	}{
		{"the first card dealt: misdeal", 0, -1, true},
		{"the second card dealt: misdeal", 1, -1, true},
		{"the third card: the deal goes on, the card replaced and burned", 2, -1, false},
		{"the last card: the same", 5, -1, false},
		{"two cards exposed: misdeal", 2, 4, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := liveTable(t)
			cs := cards("AsKs2cAhKh7d")
			for k, card := range cs {
				tb.ReportHole(LiveCard{Card: card, FaceUp: k == c.exposed || k == c.second})
				if tb.Phase() == Voided {
					break
				}
			}
			if c.void {
				wantVoid(t, tb, ProcExposedMisdeal)
				return
			}
			seat := c.exposed % 3
			if tb.Awaiting() != AwaitHoleCards {
				t.Fatalf("the exposed card is not replaced: awaiting %v", tb.Awaiting())
			}
			deal(t, tb, "Qd") // the top card of the deck replaces it
			if h := tb.HoleCards(seat); h[c.exposed/3] != eval.MustParseCard("Qd") {
				t.Fatalf("seat %d holds %v", seat, h)
			}
			preflopCalls(t, tb)
			// The exposed card is the flop's burn: the flop comes without another.
			e := board(t, tb, "", "Ad9h4s")
			if e.Burn != cs[c.exposed] {
				t.Fatalf("the flop's burn is %v, want the exposed %v", e.Burn, cs[c.exposed])
			}
			if got := procs(tb.Log()); len(got) != 2 || got[0] != ProcExposedCard || got[1] != ProcExposedReplaced {
				t.Fatalf("procedures %v", got)
			}
			// Everyone saw the exposed card; only the player sees his replacement.
			for _, ev := range tb.EventsFor(Spectator, nil) {
				if ev.Kind == EvLive && ev.Proc == ProcExposedReplaced && ev.N != 0 {
					t.Fatalf("a spectator sees the replacement: %v", ev)
				}
			}
		})
	}
}

// rule L3, seed 000: "Se il dealer distribuisce erroneamente al primo giocatore una carta
// supplementare, dopo che tutti i giocatori hanno ricevuto la loro mano iniziale (starting hand), la
// carta sarà rimessa nel mazzo e usata come carta da bruciare (burncard). Se il dealer distribuisce
// erroneamente più di una carta supplementare la mano viene dichiarata non valida "misdeal"."
func TestRuleL3ExtraCard(t *testing.T) {
	t.Run("one extra card: the flop's burn", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		if _, err := tb.ReportExtraCard(eval.MustParseCard("Qd")); err != nil {
			t.Fatal(err)
		}
		preflopCalls(t, tb)
		if e := board(t, tb, "", "Ad9h4s"); e.Burn != eval.MustParseCard("Qd") {
			t.Fatalf("burn %v", e.Burn)
		}
		if tb.TotalChips() != 3000 {
			t.Fatal("chips not conserved")
		}
	})
	t.Run("two extra cards: misdeal", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		tb.ReportExtraCard(eval.MustParseCard("Qd"))
		tb.ReportExtraCard(eval.MustParseCard("Jd"))
		wantVoid(t, tb, ProcExtraMisdeal)
	})
	t.Run("not once the betting began", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		run(t, tb, []step{{2, Call, 0, ""}})
		if err := tb.VerifyReportExtraCard(eval.MustParseCard("Qd")); err == nil || !strings.Contains(err.Error(), "rule L3") {
			t.Fatalf("extra card after an action: %v", err)
		}
	})
}

// rule L4, seed 000: "Se il flop contiene troppe carte, deve essere ridistribuito. (questa regola si
// applica anche se fosse possibile determinare quale carta era in eccesso). Se il flop deve essere
// ridistribuito per qualunque motivo, le boardcard vengono mescolate con il resto del mazzo. Le carte
// bruciate rimangono sul tavolo. Dopo aver mescolato, il dealer taglia il mazzo e scopre il flop
// senza bruciare la carta."
func TestRuleL4FlopTooManyCards(t *testing.T) {
	tb := liveTable(t)
	deal(t, tb, "AsKs2c AhKh7d")
	preflopCalls(t, tb)
	board(t, tb, "3c", "Ad9h4s5s")
	if tb.Awaiting() != AwaitBoard || tb.Round() != Flop || len(tb.Board()) != 0 {
		t.Fatalf("after four flop cards: awaiting %v, board %v", tb.Awaiting(), tb.Board())
	}
	if err := tb.VerifyReportBoard(LiveBoard{Burns: cards("6s"), Cards: cards("Ad9h4s")}); err != nil {
		t.Fatal(err) // the flop again: a burn would be a burn error (L5)
	}
	// The board cards went back into the stub: one of them may come again; the burn stays out.
	e := board(t, tb, "", "5s9h8d")
	if e.Burn != NoCard || len(tb.Board()) != 3 {
		t.Fatalf("the redealt flop: %v", e)
	}
	if got := procs(tb.Log()); len(got) != 1 || got[0] != ProcFlopRedealt {
		t.Fatalf("procedures %v", got)
	}
}

// rule L5, seed 000: "Se prima di distribuire il flop, il dealer non ha bruciato una carta, o ha
// bruciato due carte, si rivolge al Direttore di Gara il quale, qualora non siano state già scoperte
// le carte del flop (boardcard), si accerta se sia possibile risolvere l'errore usando la corretta
// carta bruciata e il corretto flop altrimenti, il mazzo deve essere rimescolato. Se l'errore viene
// individuato dopo l'azione di almeno due giocatori, la mano prosegue regolarmente."
func TestRuleL5BurnErrors(t *testing.T) {
	start := func(t *testing.T) *Table {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		preflopCalls(t, tb)
		return tb
	}
	t.Run("double burn, no flop card turned: the second burned card is the flop's first", func(t *testing.T) {
		tb := start(t)
		board(t, tb, "3c8c", "")
		if err := tb.VerifyReportBoard(LiveBoard{Cards: cards("Ad9h4s")}); err != nil {
			t.Fatal(err)
		}
		if _, err := tb.ReportBoard(LiveBoard{Cards: cards("Ad9h4s")}); err == nil || !strings.Contains(err.Error(), "rule L5") {
			t.Fatalf("a restored flop without the card burned second: %v", err)
		}
		e := board(t, tb, "", "8c9h4s")
		if e.Burn != eval.MustParseCard("3c") || procs(tb.Log())[0] != ProcBurnRestored {
			t.Fatalf("restored flop %v, procedures %v", e, procs(tb.Log()))
		}
	})
	t.Run("missing burn, the flop turned: reshuffled, turned again without a burn", func(t *testing.T) {
		tb := start(t)
		board(t, tb, "", "Ad9h4s")
		if tb.Awaiting() != AwaitBoard || procs(tb.Log())[0] != ProcBurnReshuffled {
			t.Fatalf("awaiting %v, procedures %v", tb.Awaiting(), procs(tb.Log()))
		}
		board(t, tb, "", "4s9hAd")
	})
	t.Run("found after two players acted on the flop: the hand goes on", func(t *testing.T) {
		tb := start(t)
		board(t, tb, "3c", "Ad9h4s")
		run(t, tb, []step{{0, Check, 0, ""}})
		if err := tb.VerifyReportBurnError(); err == nil || !strings.Contains(err.Error(), "the floor decides") {
			t.Fatalf("after one action: %v", err)
		}
		run(t, tb, []step{{1, Check, 0, ""}})
		if _, err := tb.ReportBurnError(); err != nil {
			t.Fatal(err)
		}
		if tb.ToAct() != 2 || len(tb.Board()) != 3 || procs(tb.Log())[0] != ProcBurnGoesOn {
			t.Fatalf("the hand did not go on: to act %d", tb.ToAct())
		}
	})
	t.Run("found before anyone acted on the flop: the flop again", func(t *testing.T) {
		tb := start(t)
		board(t, tb, "3c", "Ad9h4s")
		if _, err := tb.ReportBurnError(); err != nil {
			t.Fatal(err)
		}
		if tb.Awaiting() != AwaitBoard || len(tb.Board()) != 0 {
			t.Fatalf("awaiting %v, board %v", tb.Awaiting(), tb.Board())
		}
		board(t, tb, "", "5s6s7s")
		checkDownLive(t, tb, []string{"8d 2d", "Td 3d"})
		if tb.Phase() != Complete || tb.TotalChips() != 3000 {
			t.Fatalf("phase %v", tb.Phase())
		}
	})
}

// rule L6, seed 000: "Un errore di distribuzione nella quarta carta nel board è rettificato in modo
// da non influenzare l'identità delle carte comuni che sarebbero state usate senza l'errore. Il
// dealer brucia e distribuisce piazzando la quinta carta al posto della quarta. Dopo il giro di
// puntate, il dealer rimescola il mazzo, compresa la carta precedentemente esclusa, escludendo le
// carte bruciate e gli scarti. Il dealer quindi taglia il mazzo e dispone l'ultima carta senza
// bruciarne alcuna. Se la quinta carta viene irregolarmente scoperta, il mazzo viene rimescolato e
// ridistribuito nello stesso modo."
func TestRuleL6CardDealtEarly(t *testing.T) {
	t.Run("the turn dealt before the flop's betting ended", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		preflopCalls(t, tb)
		board(t, tb, "3c", "Ad9h4s")
		run(t, tb, []step{{0, Check, 0, ""}})
		if _, err := tb.ReportEarlyCard(eval.MustParseCard("Jc")); err != nil {
			t.Fatal(err)
		}
		run(t, tb, []step{{1, Check, 0, ""}, {2, Check, 0, ""}})
		// The set-aside card cannot be the turn: it is out of the deck until the river.
		if tb.ReportBoard(LiveBoard{Burns: cards("5d"), Cards: cards("Jc")}); tb.Phase() != Voided {
			t.Fatal("the set-aside card dealt as the turn")
		}
		tb = liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		preflopCalls(t, tb)
		board(t, tb, "3c", "Ad9h4s")
		tb.ReportEarlyCard(eval.MustParseCard("Jc"))
		run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
		board(t, tb, "5d", "Tc") // what would have been the river, as the turn
		run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
		if err := tb.VerifyReportBoard(LiveBoard{Burns: cards("6d"), Cards: cards("Jc")}); err == nil {
			t.Fatal("the river after an early turn takes no burn")
		}
		e := board(t, tb, "", "Jc") // shuffled back: it may come as the river
		checkDownLive(t, tb, nil)
		if e.Burn != NoCard || tb.Phase() != Complete || tb.TotalChips() != 3000 {
			t.Fatalf("river %v, phase %v", e, tb.Phase())
		}
	})
	t.Run("the river exposed early: reshuffled, dealt without a burn", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		preflopCalls(t, tb)
		board(t, tb, "3c", "Ad9h4s")
		run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
		board(t, tb, "5d", "Tc")
		tb.ReportEarlyCard(eval.MustParseCard("Jc"))
		run(t, tb, []step{{0, Check, 0, ""}, {1, Check, 0, ""}, {2, Check, 0, ""}})
		e := board(t, tb, "", "Jc")
		checkDownLive(t, tb, nil)
		if e.Burn != NoCard || tb.Phase() != Complete {
			t.Fatalf("river %v", e)
		}
	})
}

// rule L7, seed 000: "Una carta scoperta nel mazzo non sarà considerata. Una carta non considerata
// verrà rimpiazzata dalla carta successiva nel mazzo, eccetto quando la carta successiva deve essere
// distribuita ad un altro giocatore, in quel caso, la carta che era scoperta nel mazzo verrà
// distribuita e sarà rimpiazzata dopo che tutte le altre carte sono state distribuite per quel giro."
func TestRuleL7FaceUpInDeck(t *testing.T) {
	t.Run("not used: the next card replaces it", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs")
		if _, err := tb.ReportFaceUpInDeck(eval.MustParseCard("Qd")); err != nil {
			t.Fatal(err)
		}
		deal(t, tb, "2c AhKh7d")
		if tb.HoleCards(2)[0] != eval.MustParseCard("2c") || tb.Awaiting() != AwaitNothing {
			t.Fatalf("seat 2 %v", tb.HoleCards(2))
		}
		preflopCalls(t, tb)
		if tb.ReportBoard(LiveBoard{Burns: cards("3c"), Cards: cards("Qd9h4s")}); tb.Phase() != Voided {
			t.Fatal("the card not used came back on the board")
		}
	})
	t.Run("dealt because the next card was another player's: replaced after the round, no misdeal", func(t *testing.T) {
		tb := liveTable(t)
		if _, err := tb.ReportHole(LiveCard{Card: eval.MustParseCard("Qd"), FaceUp: true, FromDeck: true}); err != nil {
			t.Fatal(err)
		}
		deal(t, tb, "Ks2c AhKh7d")
		if tb.Phase() != Betting || tb.Awaiting() != AwaitHoleCards {
			t.Fatalf("phase %v awaiting %v", tb.Phase(), tb.Awaiting())
		}
		deal(t, tb, "As")
		if tb.HoleCards(0)[0] != eval.MustParseCard("As") || tb.ToAct() != 2 {
			t.Fatalf("seat 0 %v", tb.HoleCards(0))
		}
		preflopCalls(t, tb)
		if e := board(t, tb, "3c", "Ad9h4s"); e.Burn != eval.MustParseCard("3c") {
			t.Fatalf("burn %v: the face-up card is not the dealer's error, the flop burns as usual", e.Burn)
		}
	})
}

// rule L8, seed 000: "Le carte cedute ad un altro giocatore costituiscono sempre una mano inattiva,
// sia che esse siano coperte che scoperte."
func TestRuleL8PassedCards(t *testing.T) {
	t.Run("a dead hand is folded at its turn and its chips stay", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		run(t, tb, []step{{2, Raise, 300, ""}})
		if _, err := tb.KillPassedHand(1); err != nil {
			t.Fatal(err)
		}
		run(t, tb, []step{{0, Call, 0, ""}})
		v := tb.View(FullView)
		if !v.Seats[1].Folded || tb.Round() != Flop || tb.TotalChips() != 3000 || v.Seats[1].Put != 100 {
			t.Fatalf("seat 1 %+v, round %v\n%v", v.Seats[1], tb.Round(), actionsOf(tb.Log()))
		}
	})
	t.Run("the player to act: folded at once", func(t *testing.T) {
		tb := liveTable(t)
		deal(t, tb, "AsKs2c AhKh7d")
		tb.KillPassedHand(2)
		if tb.ToAct() != 0 || !tb.View(FullView).Seats[2].Folded {
			t.Fatalf("to act %d", tb.ToAct())
		}
		if err := tb.VerifyKillPassedHand(2); err == nil {
			t.Fatal("a folded hand killed twice")
		}
	})
}

// rule L1 to rule L8 together, over 20,000 random live hands: the dealer reports a shuffled deck with
// random procedures (exposed, extra, early and face-up cards, too many flop cards, burn errors,
// passed cards) and random reports that do not fit; every hand ends complete or void, chips are
// conserved at every step, a void hand gives every chip back, and a refused report changes nothing.
func TestPropertyLiveProcedures(t *testing.T) {
	rng := NewSeededDeck(2026)
	var complete, voided int
	for hand := 0; hand < 20000; hand++ {
		n := 2 + rng.Intn(5)
		stacks := make([]int64, n)
		for i := range stacks {
			stacks[i] = int64(100 + rng.Intn(3000))
		}
		tb := newTestTable(t, Config{Live: true}, lv50, nil, stacks...)
		mustStart(t, tb)
		total := tb.TotalChips()
		var deck [52]eval.Card
		for i := range deck {
			deck[i] = eval.CardFromIndex(i)
		}
		for i := len(deck) - 1; i > 0; i-- {
			j := rng.Intn(i + 1)
			deck[i], deck[j] = deck[j], deck[i]
		}
		next := 0
		top := func() eval.Card { c := deck[next%52]; next++; return c }
		p := &randomPlayer{rng: rng}
		for steps := 0; tb.Phase() == Betting; steps++ {
			if steps > 300 {
				t.Fatalf("hand %d did not end\n%v", hand, actionsOf(tb.Log()))
			}
			if got := tb.TotalChips(); got != total {
				t.Fatalf("hand %d: chips %d, want %d\n%v", hand, got, total, actionsOf(tb.Log()))
			}
			// A report that may not fit now: refused, it changes nothing.
			h, live, logLen := tb.h, tb.live, len(tb.log)
			var err error
			switch rng.Intn(8) {
			case 0:
				err = tb.VerifyReportHole(LiveCard{Card: top()})
			case 1:
				err = tb.VerifyReportBoard(LiveBoard{Cards: []eval.Card{top()}})
			case 2:
				err = tb.VerifyReportExtraCard(top())
			case 3:
				err = tb.VerifyReportEarlyCard(top())
			case 4:
				err = tb.VerifyReportBurnError()
			}
			if tb.h != h || tb.live != live || len(tb.log) != logLen {
				t.Fatalf("a Verify changed the table (%v)", err)
			}
			switch tb.Awaiting() {
			case AwaitHoleCards:
				c := LiveCard{Card: top()}
				switch rng.Intn(40) {
				case 0:
					c.FaceUp = true
				case 1:
					c.FaceUp, c.FromDeck = true, true
				case 2:
					tb.ReportFaceUpInDeck(c.Card)
					continue
				case 3:
					c.Card = deck[rng.Intn(next)] // a card seen before: L1
				}
				if _, err := tb.ReportHole(c); err != nil {
					t.Fatal(err)
				}
			case AwaitBoard:
				b := LiveBoard{Burns: []eval.Card{top()}}
				if tb.wantBurns() == 0 {
					b.Burns = nil
				}
				k := 1
				if tb.Round() == Flop {
					k = 3
					switch rng.Intn(20) {
					case 0:
						k = 4 // L4
					case 1:
						b.Burns = append(b.Burns, top()) // L5
					}
				}
				for j := 0; j < k; j++ {
					b.Cards = append(b.Cards, top())
				}
				if tb.VerifyReportBoard(b) != nil {
					continue
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("panic %v: %+v\n%v", r, b, actionsOf(tb.Log()))
						}
					}()
					tb.ReportBoard(b)
				}()
			default:
				switch rng.Intn(60) {
				case 0:
					if tb.CanReportExtraCard(deck[next%52]) {
						tb.ReportExtraCard(top())
						continue
					}
				case 1:
					if tb.CanReportEarlyCard(deck[next%52]) {
						tb.ReportEarlyCard(top())
						continue
					}
				case 2:
					if tb.CanReportBurnError() {
						tb.ReportBurnError()
						continue
					}
				case 3:
					if s := rng.Intn(n); tb.CanKillPassedHand(s) {
						tb.KillPassedHand(s)
						continue
					}
				}
				p.act(tb)
			}
		}
		switch tb.Phase() {
		case Complete:
			complete++
			if tb.TotalChips() != total {
				t.Fatalf("hand %d: chips %d after it, want %d", hand, tb.TotalChips(), total)
			}
		case Voided:
			voided++
			for s, st := range stacks {
				if tb.Stack(s) != st {
					t.Fatalf("hand %d void: seat %d has %d, want %d back\n%v", hand, s, tb.Stack(s), st, actionsOf(tb.Log()))
				}
			}
		default:
			t.Fatalf("hand %d ended %v", hand, tb.Phase())
		}
	}
	if complete < 5000 || voided < 1000 {
		t.Fatalf("%d complete, %d void: too few of one to mean anything", complete, voided)
	}
	t.Logf("%d complete, %d void", complete, voided)
}
