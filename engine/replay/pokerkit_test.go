package replay

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/eval"
)

// referee plays a PHH file by the rules of the PHH standard as PokerKit applies them (PokerKit's
// State in cash-game mode, which is what its PHH reader builds), written from PokerKit's own rules
// and independent of the engine: heads-up arrays reverse-assigned, antes trimmed or dead by
// ante_trimming_status, the preflop opener after the largest blind, actors in order with no turn
// skipped (a player who owes nothing still acts with an explicit cc), a completion, bet or raise only
// where some other player could call more, PokerKit's minimum raise and its reopening rule, pots
// from each player's contributions, and odd chips all to the first winner. It is the CI stand-in for
// PokerKit, which cannot be installed here.
type referee struct {
	n                 int
	stacks, bets, put []int64
	dead              int64 // antes as dead money (ante_trimming_status false)
	in                []bool
	hole              [][]eval.Card
	shown             []bool
	board             []eval.Card
	actors            []int // the players still to act in this round, in order
	acted             map[int]bool
	completion        int64   // PokerKit's completion_betting_or_raising_amount
	allInRaises       []int64 // consecutive all-in raise amounts since the last non-all-in one
	minBet            int64
	street            int // 0 preflop .. 3 river, 4 after the river's betting
	betting, showdown bool
	allIn             bool // betting is over for the hand: showdown then the rest of the board
	opener            int
}

func (r *referee) fail(i int, a phh.Action, format string, args ...any) error {
	return fmt.Errorf("action %d %q: %s", i+1, a.String(), fmt.Sprintf(format, args...))
}

func maxOf(v []int64) int64 {
	m := int64(0)
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// play runs h and returns the final stacks, or the first action PokerKit would refuse.
func (r *referee) play(h *phh.Hand) ([]int64, error) {
	n := h.NumPlayers()
	r.n, r.minBet = n, h.MinBet
	r.stacks = slices.Clone(h.StartingStacks)
	r.bets, r.put = make([]int64, n), make([]int64, n)
	r.in, r.shown = make([]bool, n), make([]bool, n)
	r.hole = make([][]eval.Card, n)
	r.acted = map[int]bool{}
	for i := range r.in {
		r.in[i] = true
	}
	antes, blinds := slices.Clone(h.Antes), slices.Clone(h.BlindsOrStraddles)
	if n == 2 { // the effective values are the reversed arrays (phh-std, PokerKit)
		slices.Reverse(antes)
		slices.Reverse(blinds)
	}
	// Antes, collected at once; with trimming, the largest ante above the next largest goes back.
	for i := range antes {
		a := min(antes[i], r.stacks[i])
		r.stacks[i] -= a
		r.bets[i] = a
	}
	if h.AnteTrimmingStatus {
		sorted := slices.Clone(r.bets)
		slices.Sort(sorted)
		cut := sorted[len(sorted)-2]
		for i := range r.bets {
			if r.bets[i] > cut {
				r.stacks[i] += r.bets[i] - cut
				r.bets[i] = cut
			}
		}
		for i := range r.bets {
			r.put[i] += r.bets[i]
		}
	} else {
		for i := range r.bets {
			r.dead += r.bets[i]
		}
	}
	clear(r.bets)
	for i := range blinds {
		b := min(blinds[i], r.stacks[i])
		r.stacks[i] -= b
		r.bets[i] = b
		r.put[i] += b
	}
	// The opener: after the player with the largest key (his bet if he posted a blind, else 0; then
	// his index).
	best, bestKey := 0, int64(-1)
	for i := range r.bets {
		key := int64(0)
		if blinds[i] > 0 {
			key = r.bets[i]
		}
		if key >= bestKey {
			best, bestKey = i, key
		}
	}
	r.beginBetting((best + 1) % n)

	for i, a := range h.ParsedActions {
		switch a.Kind {
		case phh.NoOp:
			continue
		case phh.DealHole:
			if r.street != 0 || r.betting && len(r.acted) > 0 {
				return nil, r.fail(i, a, "hole cards dealt after the betting began")
			}
			r.hole[a.Player-1] = a.Cards
			continue
		case phh.DealBoard:
			if r.betting || r.showdown {
				return nil, r.fail(i, a, "the board is dealt while players are still to act or show")
			}
			want := map[int]int{1: 3, 2: 1, 3: 1}[r.street+1]
			if r.street >= 3 || len(a.Cards) != want {
				return nil, r.fail(i, a, "%d board cards at street %d", len(a.Cards), r.street+1)
			}
			r.board = append(r.board, a.Cards...)
			r.street++
			if r.allIn {
				continue
			}
			r.beginBetting(0)
			continue
		case phh.ShowMuck:
			p := a.Player - 1
			if !r.showdown || !r.in[p] || r.shown[p] {
				return nil, r.fail(i, a, "p%d cannot show or muck now", a.Player)
			}
			if a.Mucks() {
				r.in[p] = false
			} else {
				r.shown[p] = true
			}
			r.showdownDone()
			continue
		}
		// A player's action: it must be the actor's.
		if !r.betting || len(r.actors) == 0 {
			return nil, r.fail(i, a, "nobody is to act")
		}
		p := r.actors[0]
		if a.Player-1 != p {
			return nil, r.fail(i, a, "p%d is to act", p+1)
		}
		top := maxOf(r.bets)
		switch a.Kind {
		case phh.Fold:
			r.actors = r.actors[1:]
			r.acted[p] = true
			r.in[p] = false
		case phh.CheckCall:
			r.actors = r.actors[1:]
			r.acted[p] = true
			amt := min(r.stacks[p], top-r.bets[p])
			r.stacks[p] -= amt
			r.bets[p] += amt
			r.put[p] += amt
		case phh.CompleteBetRaise:
			if len(r.allInRaises) > 0 && sum(r.allInRaises) < r.completion && r.acted[p] {
				return nil, r.fail(i, a, "already acted: cannot raise a non-full all-in")
			}
			if r.stacks[p] <= top-r.bets[p] {
				return nil, r.fail(i, a, "covered by the bet in front: call instead")
			}
			answer := false
			for o := range r.n {
				if o != p && r.in[o] && r.stacks[o]+r.bets[o] > top {
					answer = true
				}
			}
			if !answer {
				return nil, r.fail(i, a, "every other player has folded or is all-in: no reason to bet or raise")
			}
			lo := min(max(r.completion, r.minBet)+top, r.stacks[p]+r.bets[p])
			hi := r.stacks[p] + r.bets[p]
			if a.Amount < lo || a.Amount > hi {
				return nil, r.fail(i, a, "amount outside [%d, %d]", lo, hi)
			}
			raise := a.Amount - top
			r.stacks[p] -= a.Amount - r.bets[p]
			r.put[p] += a.Amount - r.bets[p]
			r.bets[p] = a.Amount
			r.actors = r.actors[:0]
			for k := 1; k < r.n; k++ {
				if o := (p + k) % r.n; r.in[o] && r.stacks[o] > 0 {
					r.actors = append(r.actors, o)
				}
			}
			r.opener = p
			if raise >= r.completion {
				clear(r.acted)
			}
			r.acted[p] = true
			r.completion = max(r.completion, raise)
			if r.stacks[p] > 0 {
				r.allInRaises = r.allInRaises[:0]
			} else {
				r.allInRaises = append(r.allInRaises, raise)
			}
		}
		r.updateBetting()
	}
	if r.betting || r.showdown || r.street < 3 && r.live() > 1 {
		return nil, fmt.Errorf("the actions end before the hand does (street %d, %d to act, showdown %v)", r.street, len(r.actors), r.showdown)
	}
	return r.push(), nil
}

func sum(v []int64) (s int64) {
	for _, x := range v {
		s += x
	}
	return s
}

func (r *referee) live() (k int) {
	for _, in := range r.in {
		if in {
			k++
		}
	}
	return k
}

// beginBetting opens a round from opener: actors in order, without those folded or out of chips or
// of opponents; a lone actor who owes nothing has no turn.
func (r *referee) beginBetting(opener int) {
	r.opener = opener
	r.actors = r.actors[:0]
	clear(r.acted)
	r.completion = 0
	r.allInRaises = r.allInRaises[:0]
	for k := range r.n {
		o := (opener + k) % r.n
		if r.in[o] && r.stacks[o] > 0 && r.effectiveStack(o) > 0 {
			r.actors = append(r.actors, o)
		}
	}
	r.betting = true
	if len(r.actors) == 1 && r.bets[r.actors[0]] >= maxOf(r.bets) {
		r.endBetting()
		return
	}
	r.updateBetting()
}

func (r *referee) effectiveStack(p int) int64 {
	var eff []int64
	for o := range r.n {
		if r.in[o] {
			eff = append(eff, r.bets[o]+r.stacks[o])
		}
	}
	slices.Sort(eff)
	return min(r.stacks[p], max(0, eff[len(eff)-2]-r.bets[p]))
}

func (r *referee) updateBetting() {
	if len(r.actors) == 0 || r.live() <= 1 {
		r.endBetting()
	}
}

// endBetting collects the bets (the largest above the next largest goes back) and moves to the next
// street, the showdown, or the end.
func (r *referee) endBetting() {
	r.betting = false
	sorted := slices.Clone(r.bets)
	slices.Sort(sorted)
	cut := sorted[len(sorted)-2]
	for i := range r.bets {
		if r.bets[i] > cut {
			r.stacks[i] += r.bets[i] - cut
			r.put[i] -= r.bets[i] - cut
		}
	}
	clear(r.bets)
	if r.live() <= 1 {
		r.street = 4
		return
	}
	withChips := 0
	for o := range r.n {
		if r.in[o] && r.stacks[o] > 0 {
			withChips++
		}
	}
	if r.street == 3 || withChips <= 1 {
		r.allIn = r.street < 3
		r.showdown = true
	}
}

func (r *referee) showdownDone() {
	for o := range r.n {
		if r.in[o] && !r.shown[o] {
			return
		}
	}
	r.showdown = false
}

// push awards the pots: levels of contribution, each to the best shown hand among the players in it,
// the odd chips to the first of them.
func (r *referee) push() []int64 {
	out := slices.Clone(r.stacks)
	if r.live() == 1 {
		for o := range r.n {
			if r.in[o] {
				out[o] += sum(r.put) + r.dead
			}
		}
		return out
	}
	levels := slices.Clone(r.put)
	slices.Sort(levels)
	levels = slices.Compact(levels)
	prev := int64(0)
	amount := r.dead
	type pot struct {
		amount  int64
		players []int
	}
	var pots []pot
	for _, lv := range levels {
		var players []int
		for o := range r.n {
			if r.put[o] >= lv {
				amount += lv - prev
			}
			if r.put[o] >= lv && r.in[o] {
				players = append(players, o)
			}
		}
		for len(pots) > 0 && slices.Equal(pots[len(pots)-1].players, players) {
			amount += pots[len(pots)-1].amount
			pots = pots[:len(pots)-1]
		}
		if amount > 0 {
			pots = append(pots, pot{amount, players})
		}
		amount, prev = 0, lv
	}
	var board eval.CardSet
	for _, c := range r.board {
		board = board.Add(c)
	}
	for _, p := range pots {
		var best eval.Value
		var winners []int
		for _, o := range p.players {
			v := eval.EvalSet(board.Add(r.hole[o][0]).Add(r.hole[o][1]))
			if v > best {
				best, winners = v, winners[:0]
			}
			if v == best {
				winners = append(winners, o)
			}
		}
		if len(winners) == 0 {
			continue // PokerKit burns them (never in the engine's hands)
		}
		q, rem := p.amount/int64(len(winners)), p.amount%int64(len(winners))
		for k, o := range winners {
			out[o] += q
			if k == 0 {
				out[o] += rem
			}
		}
	}
	return out
}

// TestExportFollowsPHHStandard: hands of every kind the engine plays (2 to 10 players, antes of
// both modes, short stacks, players sitting out), exported, are accepted action by action by the
// PokerKit referee and end with the same stacks, except the hands whose RuleDifferencesField names
// an intended difference (A9, A10, B2, P3, S2).
func TestExportFollowsPHHStandard(t *testing.T) {
	rng := engine.NewSeededDeck(7)
	hands, differing := 0, map[string]int{}
	for table := 0; table < 400; table++ {
		n := 2 + rng.Intn(9)
		cfg := engine.Config{Seats: n, AnteMode: engine.AnteMode(rng.Intn(2)), ShortOpen: engine.ShortOpenRule(rng.Intn(2))}
		lv := engine.Level{SmallBlind: 50, BigBlind: 100, Ante: int64(rng.Intn(3)) * 25}
		tb, err := engine.NewTable(cfg, lv, engine.NewSeededDeck(uint64(1000+table)))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			st := engine.Active
			if rng.Intn(8) == 0 {
				st = engine.SittingOut
			}
			tb.Sit(i, fmt.Sprintf("p%d", i), int64(1+rng.Intn(3000)), st)
		}
		tb.SetButton(rng.Intn(n))
		for hand := 0; hand < 30 && tb.StartHand() == nil; hand++ {
			for tb.Phase() == engine.Betting {
				l := tb.LegalActions()
				var a engine.Action
				switch k := rng.Intn(10); {
				case k < 2:
					a = engine.Fold
				case k < 6:
					a = engine.Call
					if l.Check {
						a = engine.Check
					}
				case k < 8 && (l.Bet || l.Raise):
					a = engine.Raise
					if l.Bet {
						a = engine.Bet
					}
				case l.AllIn:
					a = engine.AllIn
				default:
					a = engine.Fold
				}
				to := l.MinTo
				if l.MaxTo > l.MinTo && rng.Intn(2) == 0 {
					to += int64(rng.Intn(int(l.MaxTo - l.MinTo + 1)))
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
				t.Fatal(err)
			}
			back, err := phh.Parse(text)
			if err != nil {
				t.Fatalf("parse:\n%s\n%v", text, err)
			}
			var ref referee
			got, err := ref.play(back)
			if diff, ok := back.Extra[RuleDifferencesField]; ok {
				differing[fmt.Sprint(diff)]++
				continue
			}
			if err != nil {
				t.Fatalf("PokerKit's rules refuse the export:\n%s\n%v", text, err)
			}
			if !slices.Equal(got, back.FinishingStacks) {
				t.Fatalf("PokerKit's rules end with %v, the export says %v:\n%s", got, back.FinishingStacks, text)
			}
		}
	}
	t.Logf("%d hands, intended differences: %v", hands, differing)
	if hands < 5000 {
		t.Fatalf("only %d hands", hands)
	}
}

// The rules the referee applies, on hands written by hand: it is not a copy of the engine, and it
// refuses what PokerKit refuses.
func TestRefereeRefusesWhatPokerKitRefuses(t *testing.T) {
	const head = "variant = 'NT'\nante_trimming_status = true\nmin_bet = 2\n"
	for _, c := range []struct{ name, file, err string }{
		{"heads-up, the standard order: p2 (button, small blind 1) acts first",
			"antes = [0, 0]\nblinds_or_straddles = [1, 2]\nstarting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\nfinishing_stacks = [101, 99]\n", ""},
		{"heads-up written big blind first is read as a big blind of 1",
			"antes = [0, 0]\nblinds_or_straddles = [2, 1]\nstarting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p1 f']\nfinishing_stacks = [99, 101]\n", ""},
		{"a missing cc of the big blind when everyone else folded to it",
			"antes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nstarting_stacks = [1, 100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 f', 'd db AdKd9h']\nfinishing_stacks = [0, 101, 100]\n",
			"the board is dealt while players are still to act"},
		{"a raise nobody can call",
			"antes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nstarting_stacks = [1, 100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 f', 'p2 cbr 10']\nfinishing_stacks = [0, 101, 100]\n",
			"no reason to bet or raise"},
		{"a killed hand left out of the actions",
			"antes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nstarting_stacks = [100, 100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p1 f']\nfinishing_stacks = [99, 101, 100]\n",
			"p3 is to act"},
		{"the bettor raising a short all-in raise",
			"antes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nstarting_stacks = [100, 100, 13]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 cc', 'p1 cc', 'p2 cc', 'd db AdKd9h', 'p1 cbr 10', 'p2 cc', 'p3 cbr 11', 'p1 cbr 40']\n",
			"cannot raise a non-full all-in"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := phh.Parse([]byte(head + c.file))
			if err != nil {
				t.Fatal(err)
			}
			var ref referee
			got, err := ref.play(h)
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want %q", err, c.err)
			case c.err == "" && !slices.Equal(got, h.FinishingStacks):
				t.Fatalf("stacks %v, want %v", got, h.FinishingStacks)
			}
		})
	}
}

// rule L2, rule L4, rule L8 in hand histories: a live hand that went through dealing procedures
// exports the cards as finally dealt, lists the procedures in LiveProceduresField, and is read both
// by the PokerKit referee and by our reader to the same stacks.
func TestExportLiveProcedures(t *testing.T) {
	tb, err := engine.NewTable(engine.Config{Seats: 3, Live: true}, engine.Level{SmallBlind: 50, BigBlind: 100}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		tb.Sit(i, fmt.Sprintf("p%d", i), 1000, engine.Active)
	}
	tb.SetButton(2)
	if err := tb.StartHand(); err != nil {
		t.Fatal(err)
	}
	must := func(_ engine.Event, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for k, c := range eval.MustParseCards("AsKs2cAhKh7dQd") {
		must(tb.ReportHole(engine.LiveCard{Card: c, FaceUp: k == 3})) // seat 0's second card exposed, then replaced by Qd
	}
	must(tb.Call(2))
	must(tb.KillPassedHand(1)) // the big blind passed his cards: dead at his turn
	must(tb.Call(0))
	must(tb.ReportBoard(engine.LiveBoard{Cards: eval.MustParseCards("Ad9h4s5s")})) // four cards: redealt
	must(tb.ReportBoard(engine.LiveBoard{Cards: eval.MustParseCards("5s9h8d")}))
	for tb.Phase() == engine.Betting {
		if tb.Awaiting() == engine.AwaitBoard {
			burn, c := eval.MustParseCards("3d"), eval.MustParseCards("Tc")
			if tb.Round() == engine.River {
				burn, c = eval.MustParseCards("4d"), eval.MustParseCards("Jc")
			}
			must(tb.ReportBoard(engine.LiveBoard{Burns: burn, Cards: c}))
			continue
		}
		s := tb.ToAct()
		if tb.CanCheck(s) {
			must(tb.Check(s))
		} else {
			must(tb.Call(s))
		}
	}
	h, err := Export(tb)
	if err != nil {
		t.Fatal(err)
	}
	text, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := phh.Parse(text)
	if err != nil {
		t.Fatalf("%s\n%v", text, err)
	}
	got := fmt.Sprint(back.Extra[LiveProceduresField])
	for _, want := range []string{"L2 exposed card, dealt on, p1: Ah", "L2 exposed card replaced, p1", "L8 cards passed, dead hand, p2", "L4 flop redealt: Ad9h4s5s"} {
		if !strings.Contains(got, want) {
			t.Fatalf("%s = %s, want %q in it", LiveProceduresField, got, want)
		}
	}
	var ref referee
	stacks, err := ref.play(back)
	if err != nil || !slices.Equal(stacks, back.FinishingStacks) {
		t.Fatalf("PokerKit's rules: %v %v, the export %v\n%s", stacks, err, back.FinishingStacks, text)
	}
	var r Replayer
	if err := r.Check(back); err != nil {
		t.Fatalf("%s\n%v", text, err)
	}
}
