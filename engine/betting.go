package engine

import (
	"math/bits"

	"github.com/pokerfloor/pokerfloor/eval"
)

// advanceTurn gives the turn to the first player after seat from who must act, or closes the round.
func (t *Table) advanceTurn(from int8) {
	h := &t.h
	if h.phase != Betting {
		return
	}
	if h.killAtTurn != 0 && bits.OnesCount16(h.in&^h.killAtTurn) == 1 {
		// Every opponent left is a hand still to kill (T4, T5, P3, L8): a dead hand never wins, so
		// they are killed now and the one live player takes the pot.
		for m := clockwise(h.in&h.killAtTurn, from); m != 0; m &= m - 1 {
			s := int8(bits.TrailingZeros32(m) % 16)
			t.foldSeat(s)
			t.ev(EvKill, s, 1, 0)
		}
		h.killAtTurn = 0
	}
	if h.inHand == 1 {
		t.finishUncontested()
		return
	}
	// Who must still act (A2): able to act and not settled (acted since the last bet and matched
	// it, or without a decision when the round opened: openRound).
	need := h.act &^ h.settled
	if need == 0 {
		t.endRound()
		return
	}
	after := need >> uint(from+1) << uint(from+1) // the seats after from, clockwise before wrapping
	if after == 0 {
		after = need
	}
	s := int8(bits.TrailingZeros16(after))
	if h.killAtTurn&(1<<uint(s)) != 0 {
		// An absent player's first turn: his hand is killed, and the turn moves on.
		h.killAtTurn &^= 1 << uint(s)
		t.foldSeat(s)
		t.ev(EvKill, s, 0, 0)
		t.advanceTurn(s)
		return
	}
	h.toAct = s
	h.seq++
}

// openRound settles, as the round opens, every player who has no decision in it: he owes nothing and
// nobody else in the hand has chips beyond his bet, so he could not be called (a player alone
// with chips against all-in players, or one whose opponents cannot even match the bet he has in).
// Such a player is asked again only if someone bets or raises. Once a round is open, everyone who
// had a decision is asked in turn, even when he can only check (PHH writes that check).
func (t *Table) openRound() {
	h := &t.h
	// Only a player who owes nothing can be without a decision: before the flop, the big blind.
	var owesNothing uint16
	for m := h.act &^ h.killAtTurn; m != 0; m &= m - 1 { // a hand still to kill is folded at its turn
		if s := bits.TrailingZeros16(m); h.bet[s] >= h.currentBet {
			owesNothing |= 1 << uint(s)
		}
	}
	if owesNothing == 0 {
		return
	}
	// The two largest totals (bet and stack) of the players in the hand, and whose the largest is.
	var top1, top2 int64
	who := int8(-1)
	for m := h.in; m != 0; m &= m - 1 {
		s := int8(bits.TrailingZeros16(m))
		switch tot := h.bet[s] + t.seats[s].stack; {
		case tot > top1:
			top1, top2, who = tot, top1, s
		case tot > top2:
			top2 = tot
		}
	}
	for m := owesNothing; m != 0; m &= m - 1 {
		s := int8(bits.TrailingZeros16(m))
		others := top1
		if s == who {
			others = top2
		}
		if others <= h.bet[s] {
			h.settled |= 1 << uint(s)
		}
	}
}

// endRound closes a betting round: the uncalled part of the last bet goes back, then the next street,
// or the showdown.
func (t *Table) endRound() {
	h := &t.h
	h.toAct = -1
	t.returnUncalled()
	if h.round == River || h.canAct <= 1 {
		// Betting is over for the hand (A2). The showdown starts with the last player who bet or
		// raised in the last round; when nobody did (or the board is run out with everyone all-in),
		// with the first player still in after the button (S5).
		if h.round == River && h.aggressor >= 0 && !h.folded[h.aggressor] {
			h.showFirst = h.aggressor
		} else {
			h.showFirst = t.nextInHand(h.button)
		}
		if h.in&^h.act != 0 {
			t.showAll() // betting closed with an all-in: every hand face up (S4)
		}
		h.runout = true
		t.runout()
		return
	}
	h.round++
	h.bet, h.acted, h.actedTo = [MaxSeats]int64{}, [MaxSeats]bool{}, [MaxSeats]int64{}
	h.settled, h.calledOOT = 0, 0
	if h.nDeclared > 0 { // a declaration out of turn is for the round it was made in
		t.decl, h.nDeclared = [MaxSeats]declaration{}, 0
	}
	h.currentBet, h.lastFullRaise, h.aggressor = 0, h.level.BigBlind, -1
	if !t.dealStreet() {
		return
	}
	// No openRound after the flop: every bet is 0 and two players have chips, so each has a decision.
	t.advanceTurn(h.button)
}

// runout deals the rest of the board once betting is over, then the showdown. A live table pauses
// at each street for the dealer's cards and comes back here.
func (t *Table) runout() {
	h := &t.h
	for h.round < River {
		h.round++
		if !t.dealStreet() {
			return
		}
	}
	t.showdown()
}

// streetDealt goes on after a live dealer's street: the betting round, or the rest of the run-out.
func (t *Table) streetDealt() {
	if t.h.runout {
		t.runout()
		return
	}
	t.advanceTurn(t.h.button) // every player with chips has a decision after the flop (openRound)
}

// dealStreet burns one card and deals the flop, turn or river (D3).
func (t *Table) dealStreet() bool {
	h := &t.h
	if t.cfg.Live {
		h.await = AwaitBoard // the dealer reports the street (ReportBoard)
		return false
	}
	k := 1
	if h.round == Flop {
		k = 3
	}
	var buf [4]eval.Card // the burn, then the street
	if !t.drawInto(buf[:k+1]) {
		return false
	}
	e := t.ev(EvBoard, 0, 0, 0)
	e.N, e.Burn = uint8(k), buf[0]
	for i, c := range buf[1 : k+1] { // a loop, not copy: three cards are not worth a memmove call
		e.Cards[i] = c
		h.board[int(h.nBoard)+i] = c
	}
	h.nBoard += int8(k)
	return true
}

// returnUncalled gives back the part of the round's largest bet that nobody matched.
func (t *Table) returnUncalled() {
	h := &t.h
	// The largest bet of a player still in, against the largest of everyone else (a folded or killed
	// hand's bet is dead money and never comes back).
	top, first := int8(-1), int64(0)
	for s := int8(0); s < t.n; s++ {
		if h.bet[s] > first && !h.folded[s] {
			top, first = s, h.bet[s]
		}
	}
	if top < 0 {
		return
	}
	second := int64(0)
	for s := int8(0); s < t.n; s++ {
		if s != top && h.bet[s] > second {
			second = h.bet[s]
		}
	}
	if first <= second {
		return
	}
	x := first - second
	h.bet[top] -= x
	h.put[top] -= x
	t.seats[top].stack += x
	if h.allIn[top] {
		h.allIn[top] = false
		if !h.folded[top] {
			h.canAct++
			h.act |= 1 << uint(top)
		}
	}
	if h.currentBet > h.bet[top] {
		h.currentBet = h.bet[top]
	}
	t.ev(EvUncalled, top, x, 0)
}

// nextInHand returns the first seat after s, clockwise, still in the hand.
func (t *Table) nextInHand(s int8) int8 {
	for k := int8(0); k < t.n; k++ {
		s = t.next(s)
		if t.h.dealt[s] && !t.h.folded[s] {
			return s
		}
	}
	return -1
}

// showAll turns every hand still in face up, in showdown order (S4).
func (t *Table) showAll() {
	h := &t.h
	for m := clockwise(h.in, h.showFirst-1); m != 0; m &= m - 1 {
		if s := int8(bits.TrailingZeros32(m) % 16); !h.shown[s] {
			h.shown[s] = true
			e := t.ev(EvShow, s, 0, 0)
			e.N, e.Cards[0], e.Cards[1] = 2, h.hole[s][0], h.hole[s][1]
		}
	}
	h.allShown = true
}

// returnUnmatched gives back the chips of folded players above everything the players still in
// put in, when every one of those is all-in: nobody in the hand can win them (S3). It happens only
// when the players left are all-in for less than a forced bet of a player who folded (an ante, a
// killed blind, a blind under A9). A player still in with chips wins folded chips whole.
func (t *Table) returnUnmatched() {
	h := &t.h
	if h.in&h.act != 0 {
		return
	}
	var live int64
	for m := h.in; m != 0; m &= m - 1 {
		live = max(live, h.put[bits.TrailingZeros16(m)])
	}
	for m := clockwise(h.dealtM&^h.in, h.button); m != 0; m &= m - 1 { // clockwise: the log does not depend on seat numbers
		s := int8(bits.TrailingZeros32(m) % 16)
		if x := h.put[s] - live; x > 0 {
			h.put[s] -= x
			if h.bet[s] >= x {
				h.bet[s] -= x
			}
			t.seats[s].stack += x
			t.ev(EvUncalled, s, x, 0)
		}
	}
}

// finishUncontested pushes the pot to the last player in the hand, who shows nothing.
func (t *Table) finishUncontested() {
	h := &t.h
	h.toAct = -1
	t.returnUncalled()
	t.returnUnmatched()
	w := t.nextInHand(h.button)
	total := h.potTotal()
	t.seats[w].stack += total
	h.result.Won[w] += total
	h.result.Pots[0] = Pot{Amount: total, Eligible: 1 << uint(w), Winners: 1 << uint(w)}
	h.result.NPots = 1
	t.ev(EvWin, w, total, 0)
	t.finishHand()
}

// Pot is a main or side pot: its chips, who may win it (a bit per seat) and who won it.
type Pot struct {
	Amount            int64
	Eligible, Winners uint16
}

// pots splits the chips into the main pot and side pots (S3): each level of the players still in
// makes a pot that those who put in at least that much may win. Dead money goes to the main pot.
func (t *Table) pots(out *[MaxSeats + 1]Pot) int {
	h := &t.h
	// Most showdowns have one pot: every player still in put in the same.
	level, one := int64(-1), true
	for m := h.in; m != 0; m &= m - 1 {
		s := bits.TrailingZeros16(m)
		if level >= 0 && h.put[s] != level {
			one = false
		}
		level = h.put[s]
	}
	if one {
		out[0] = Pot{Amount: h.potTotal(), Eligible: h.in}
		return 1
	}
	var levels [MaxSeats]int64
	nl := 0
	for s := int8(0); s < t.n; s++ {
		if !h.dealt[s] || h.folded[s] {
			continue
		}
		v := h.put[s]
		i := 0
		for i < nl && levels[i] < v {
			i++
		}
		if i < nl && levels[i] == v {
			continue
		}
		copy(levels[i+1:nl+1], levels[i:nl])
		levels[i] = v
		nl++
	}
	np := 0
	prev := int64(0)
	var total int64
	for _, lv := range levels[:nl] {
		var p Pot
		for s := int8(0); s < t.n; s++ {
			if c := h.put[s]; c > prev {
				p.Amount += min(c, lv) - prev
			}
			if h.dealt[s] && !h.folded[s] && h.put[s] >= lv {
				p.Eligible |= 1 << uint(s)
			}
		}
		if p.Amount == 0 && np > 0 {
			continue
		}
		total += p.Amount
		out[np] = p
		np++
		prev = lv
	}
	out[0].Amount += h.dead
	total += h.dead
	if rest := h.potTotal() - total; rest > 0 && np > 0 {
		out[np-1].Amount += rest // cannot happen: returnUnmatched gave such chips back
	}
	return np
}

// showdown decides each pot separately (S3), winners show and losers muck in showdown order (S5,
// S6), equal hands split with odd chips from the first seat after the button (S2).
func (t *Table) showdown() {
	h := &t.h
	var board eval.CardSet
	for i := int8(0); i < h.nBoard; i++ {
		board = board.Add(h.board[i])
	}
	var value [MaxSeats]eval.Value
	for m := h.in; m != 0; m &= m - 1 {
		s := bits.TrailingZeros16(m)
		value[s] = eval.EvalSet(board.Add(h.hole[s][0]).Add(h.hole[s][1]))
	}
	r := &h.result
	t.returnUnmatched()
	r.NPots = t.pots(&r.Pots)
	for i := 0; i < r.NPots; i++ {
		p := &r.Pots[i]
		var best eval.Value
		for m := p.Eligible; m != 0; m &= m - 1 {
			s := bits.TrailingZeros16(m)
			if value[s] > best {
				best, p.Winners = value[s], 0
			}
			if value[s] == best {
				p.Winners |= 1 << uint(s)
			}
		}
	}
	if !h.allShown {
		// S5, S6: the first in showdown order always shows. Each next player shows only if his hand
		// wins or ties a pot he is in against the hands shown so far in it (so every winner shows,
		// and a side pot's best hand shows even when nobody shown is in that pot); otherwise he
		// mucks, and his cards reach nobody but the full history.
		var shownBest [MaxSeats + 1]eval.Value // the best hand shown in each pot, 0 while none
		first := true
		for m := clockwise(h.in, h.showFirst-1); m != 0; m &= m - 1 {
			s := int8(bits.TrailingZeros32(m) % 16)
			show := first
			for i := 0; i < r.NPots && !show; i++ {
				show = r.Pots[i].Eligible&(1<<uint(s)) != 0 && value[s] >= shownBest[i]
			}
			first = false
			if !show {
				t.ev(EvMuck, s, 0, 0)
				continue
			}
			for i := 0; i < r.NPots; i++ {
				if r.Pots[i].Eligible&(1<<uint(s)) != 0 && value[s] > shownBest[i] {
					shownBest[i] = value[s]
				}
			}
			h.shown[s] = true
			e := t.ev(EvShow, s, 0, 0)
			e.N, e.Cards[0], e.Cards[1] = 2, h.hole[s][0], h.hole[s][1]
		}
	}
	// Side pots first, the main pot last (003 r4).
	for i := r.NPots - 1; i >= 0; i-- {
		p := &r.Pots[i]
		k := int64(bits.OnesCount16(p.Winners))
		share, odd := p.Amount/k, p.Amount%k
		for m := clockwise(p.Winners, h.button); m != 0; m &= m - 1 {
			s := int8(bits.TrailingZeros32(m) % 16)
			amt := share
			if odd > 0 {
				amt++
				odd--
			}
			t.seats[s].stack += amt
			r.Won[s] += amt
			t.ev(EvWin, s, amt, 0).Pot = uint8(i)
		}
	}
	t.finishHand()
}

// clockwise lays the seats of mask out so that taking the lowest bit first visits them clockwise from
// the first seat after `after`: the seats after it in the low 16 bits, the others moved above.
func clockwise(mask uint16, after int8) uint32 {
	if after < 0 {
		return uint32(mask)
	}
	hi := mask >> uint(after+1) << uint(after+1)
	return uint32(hi) | uint32(mask&^hi)<<16
}

// finishHand reports eliminations (R7) and keeps the positions for the next hand (B4).
func (t *Table) finishHand() {
	h := &t.h
	r := &h.result
	for m := clockwise(h.dealtM, h.button); m != 0; m &= m - 1 {
		if s := int8(bits.TrailingZeros32(m) % 16); t.seats[s].stack == 0 {
			t.seats[s].state = Eliminated
			r.elim[r.nElim] = s
			r.nElim++
			t.ev(EvEliminated, s, h.startStack[s], 0)
		}
	}
	h.phase = Complete
	h.toAct = -1
	t.handNumber = h.number
	t.holdButton = h.holdNext
	t.button, t.sbSeat, t.bbSeat, t.played = h.button, h.sb, h.bb, true
	t.ev(EvHandEnd, 0, 0, 0)
}

// Elimination is a player who lost every chip in a hand, with his stack at its start (rule R7).
type Elimination struct {
	Seat          int
	ID            string
	StartingStack int64
}

// Result describes a completed hand.
type Result struct {
	Number      int64
	Pots        [MaxSeats + 1]Pot
	NPots       int
	Won         [MaxSeats]int64 // chips each seat took from the pot
	Eliminated  [MaxSeats]Elimination
	NEliminated int
}

// handResult is what the hand keeps for Result, without strings, so that resetting a hand stays a
// plain memory clear.
type handResult struct {
	Pots  [MaxSeats + 1]Pot
	NPots int
	Won   [MaxSeats]int64
	elim  [MaxSeats]int8 // seats eliminated, clockwise from the first after the button
	nElim int
}

// Result returns the outcome of the last completed hand.
func (t *Table) Result() Result {
	h := &t.h
	r := Result{Number: h.number, Pots: h.result.Pots, NPots: h.result.NPots, Won: h.result.Won}
	if h.phase != Complete {
		return Result{}
	}
	for _, s := range h.result.elim[:h.result.nElim] {
		r.Eliminated[r.NEliminated] = Elimination{Seat: int(s), ID: t.seats[s].id, StartingStack: h.startStack[s]}
		r.NEliminated++
	}
	return r
}
