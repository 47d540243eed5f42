package floor

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// rule R6: a knockout pays half the bounty in cash and puts half on the eliminator's head; the
// odd cent stays on the head.
func TestBountyHalfCashHalfHeadR6(t *testing.T) {
	cases := []struct {
		rule       Bounty
		bounty     int64
		cash, head int64
	}{
		{Bounty{StartCents: 1000}, 1000, 500, 500},
		{Bounty{StartCents: 1000}, 1001, 500, 501},
		{Bounty{StartCents: 1000, CashPercent: 100}, 1001, 1001, 0}, // a plain knockout
		{Bounty{StartCents: 1000, CashPercent: 25}, 1003, 250, 753},
		{Bounty{StartCents: 1000}, 0, 0, 0},
	}
	for _, c := range cases {
		got, err := c.rule.SplitKnockout(Knockout{Player: "v", BountyCents: c.bounty, Takers: []BountyTaker{{Player: "a", ChipsWon: 10, LastChips: true}}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []BountyShare{{"a", c.cash, c.head}}; !reflect.DeepEqual(got, want) {
			t.Errorf("%+v, bounty %d: %+v, want %+v", c.rule, c.bounty, got, want)
		}
	}
}

// rule R6, BountyLastChips: bwin's example. Three all in: p1 10,000 chips (KK), p2 5,000 (QQ), p3
// 1,000 (AA). p3 wins the main pot, p1 the side pot holding p2's last chips: p1 takes p2's bounty
// although p3 also won chips from him. Players who split that pot split the bounty equally, the
// odd cent to the first after the button.
func TestBountyLastChipsRuleR6(t *testing.T) {
	b := Bounty{StartCents: 1000}
	got, err := b.SplitKnockout(Knockout{Player: "p2", BountyCents: 1000, Takers: []BountyTaker{
		{Player: "p3", ChipsWon: 1000}, {Player: "p1", ChipsWon: 4000, LastChips: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []BountyShare{{"p1", 500, 500}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got, err = b.SplitKnockout(Knockout{Player: "v", BountyCents: 1001, Takers: []BountyTaker{
		{Player: "a", ChipsWon: 500, LastChips: true}, {Player: "b", ChipsWon: 500, LastChips: true},
	}})
	if want := []BountyShare{{"a", 250, 251}, {"b", 250, 250}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("split pot: got %+v, %v; want %+v", got, err, want)
	}
}

// rule R6, BountyChipsWon: shares in proportion to the chips each won from the player, exact.
func TestBountyChipsWonRuleR6(t *testing.T) {
	b := Bounty{StartCents: 1000, Split: BountyChipsWon}
	got, err := b.SplitKnockout(Knockout{Player: "v", BountyCents: 1000, Takers: []BountyTaker{
		{Player: "a", ChipsWon: 3000}, {Player: "b", ChipsWon: 1000, LastChips: true},
	}})
	if want := []BountyShare{{"a", 375, 375}, {"b", 125, 125}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
	got, err = b.SplitKnockout(Knockout{Player: "v", BountyCents: 1001, Takers: []BountyTaker{
		{Player: "a", ChipsWon: 1}, {Player: "b", ChipsWon: 1}, {Player: "c", ChipsWon: 1}, {Player: "d"},
	}})
	if want := []BountyShare{{"a", 167, 167}, {"b", 167, 167}, {"c", 166, 167}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
	// Large amounts do not overflow.
	got, err = b.SplitKnockout(Knockout{Player: "v", BountyCents: 1 << 40, Takers: []BountyTaker{{Player: "a", ChipsWon: 1 << 50}, {Player: "b", ChipsWon: 1 << 50}}})
	if err != nil || got[0].CashCents+got[0].HeadCents != 1<<39 {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// rule R6: bad rules and bad knockouts are refused, saying what is expected.
func TestBountyRefusedR6(t *testing.T) {
	e := Entries{Entries: 10, BuyIn: 1100, Fee: 100}
	for _, c := range []struct {
		b    Bounty
		want string
	}{
		{Bounty{}, "expected a positive part"},
		{Bounty{StartCents: 1000}, "expected less than 1000"},
		{Bounty{StartCents: 500, CashPercent: 101}, "expected 1 to 100"},
		{Bounty{StartCents: 500, Split: "even"}, `expected "lastChips" or "chipsWon"`},
	} {
		err := c.b.Verify(e)
		wantRule(t, err, "R6")
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.b, err, c.want)
		}
	}
	b := Bounty{StartCents: 500}
	for _, c := range []struct {
		k    Knockout
		want string
	}{
		{Knockout{BountyCents: 5}, "names no player"},
		{Knockout{Player: "v", BountyCents: 5}, "a bust has an eliminator"},
		{Knockout{Player: "v", BountyCents: 5, Takers: []BountyTaker{{Player: "v", LastChips: true}}}, "expected another player"},
		{Knockout{Player: "v", BountyCents: 5, Takers: []BountyTaker{{Player: "a", LastChips: true}, {Player: "a"}}}, "listed twice"},
		{Knockout{Player: "v", BountyCents: 5, Takers: []BountyTaker{{Player: "a", ChipsWon: 5}}}, "last chips"},
		{Knockout{Player: "v", BountyCents: -1, Takers: []BountyTaker{{Player: "a", LastChips: true}}}, "expected 0 or more"},
	} {
		_, err := b.SplitKnockout(c.k)
		wantRule(t, err, "R6")
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.k, err, c.want)
		}
	}
	_, err := Bounty{StartCents: 500, CashPercent: 150}.SplitKnockout(Knockout{Player: "v", BountyCents: 5, Takers: []BountyTaker{{Player: "a", LastChips: true}}})
	wantRule(t, err, "R6")
	_, err = Bounty{StartCents: 500, Split: BountyChipsWon}.SplitKnockout(Knockout{Player: "v", Takers: []BountyTaker{{Player: "a", LastChips: true}}})
	wantRule(t, err, "R6")
}

// rule R6: the buy-in is the fee, the prize pool's part and the bounty; the prize pool and its
// payouts see only their part, and every cent paid in is accounted for.
func TestBountyPrizeEntriesR6(t *testing.T) {
	b := Bounty{StartCents: 500}
	e := Entries{Entries: 100, ReEntries: 10, Rebuys: 5, BuyIn: 1100, Fee: 100}
	pe, err := b.PrizeEntries(e)
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := PrizePool(pe)
	if want := int64(110*500 + 5*1000); pool != want {
		t.Fatalf("prize pool %d, want %d (the rebuys pay the prize pool only)", pool, want)
	}
	if b.PoolCents(e) != 110*500 {
		t.Fatalf("bounty pool %d", b.PoolCents(e))
	}
	paidIn := int64(110)*1100 + 5*1100
	if fees := int64(115) * 100; pool+b.PoolCents(e)+fees != paidIn {
		t.Fatalf("pool %d + bounties %d + fees %d != %d paid in", pool, b.PoolCents(e), fees, paidIn)
	}
	p, err := ComputePayouts(pe, PayoutStructure{})
	if err != nil || sumPrizes(p.Prizes) != pool {
		t.Fatalf("payouts %+v, %v", p, err)
	}
}

// rules R6, R5, P4 over random PKO tournaments: at every knockout the bounties on heads, the cash
// paid and the unclaimed add up to the bounty share of the buy-ins, and once the winner is paid
// all of it has been paid in cash.
func TestBountyBoardConservesPropertyR6(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for game := 0; game < 300; game++ {
		rule := Bounty{StartCents: 1 + rng.Int64N(5000), CashPercent: []int{0, 25, 50, 100}[rng.IntN(4)]}
		if rng.IntN(2) == 0 {
			rule.Split = BountyChipsWon
		}
		bb, err := NewBountyBoard(rule)
		if err != nil {
			t.Fatal(err)
		}
		var in []PlayerID
		next := 0
		enter := func() {
			next++
			p := PlayerID(fmt.Sprintf("e%d", next))
			if err := bb.Enter(p); err != nil {
				t.Fatal(err)
			}
			in = append(in, p)
		}
		for range 2 + rng.IntN(60) {
			enter()
		}
		if rng.IntN(3) == 0 { // one unregisters before the start
			k := rng.IntN(len(in))
			if h, err := bb.Withdraw(in[k]); err != nil || h != rule.StartCents {
				t.Fatalf("withdraw: %d, %v", h, err)
			}
			in = append(in[:k], in[k+1:]...)
			if len(in) < 2 {
				enter()
			}
		}
		for len(in) > 1 {
			k := rng.IntN(len(in))
			victim := in[k]
			in = append(in[:k], in[k+1:]...)
			switch {
			case rng.IntN(40) == 0:
				if err := bb.Forfeit(victim); err != nil {
					t.Fatal(err)
				}
			default:
				var takers []BountyTaker
				for _, j := range rng.Perm(len(in))[:1+rng.IntN(min(3, len(in)))] {
					takers = append(takers, BountyTaker{Player: in[j], ChipsWon: 1 + rng.Int64N(100000)})
				}
				takers[rng.IntN(len(takers))].LastChips = true
				paid, err := bb.Knockout(Knockout{Player: victim, Takers: takers})
				if err != nil {
					t.Fatal(err)
				}
				var sum int64
				for _, s := range paid.Shares {
					sum += s.CashCents + s.HeadCents
				}
				if sum != paid.BountyCents {
					t.Fatalf("shares add up to %d of a %d bounty", sum, paid.BountyCents)
				}
			}
			if rng.IntN(10) == 0 { // a re-entry: a new entry, a new bounty
				enter()
			}
			if err := bb.Check(); err != nil {
				t.Fatal(err)
			}
		}
		won, err := bb.Finish(in[0])
		if err != nil || won <= 0 && bb.Entries > 1 {
			t.Fatalf("finish: %d, %v", won, err)
		}
		if err := bb.Check(); err != nil || bb.PaidCents != int64(bb.Entries)*rule.StartCents || len(bb.Heads) != 0 {
			t.Fatalf("after the end paid %d of %d, %d heads, %v", bb.PaidCents, int64(bb.Entries)*rule.StartCents, len(bb.Heads), err)
		}
	}
}

// rules R6, R5: a board's own refusals.
func TestBountyBoardRefusesR6(t *testing.T) {
	bb, err := NewBountyBoard(Bounty{StartCents: 1000})
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewBountyBoard(Bounty{})
	wantRule(t, err, "R6")
	_, err = NewBountyBoard(Bounty{StartCents: 1, CashPercent: -1})
	wantRule(t, err, "R6")
	for _, p := range []PlayerID{"a", "b", "c"} {
		if err := bb.Enter(p); err != nil {
			t.Fatal(err)
		}
	}
	wantRule(t, bb.Enter("a"), "R1")
	if _, err := bb.Knockout(Knockout{Player: "c", Takers: []BountyTaker{{Player: "x", LastChips: true}}}); err == nil {
		t.Fatal("a taker not in the tournament was paid")
	}
	if _, err := bb.Knockout(Knockout{Player: "c", Takers: []BountyTaker{{Player: "a", LastChips: true}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := bb.Knockout(Knockout{Player: "c", Takers: []BountyTaker{{Player: "a", LastChips: true}}}); err == nil {
		t.Fatal("a player was knocked out twice")
	}
	_, err = bb.Withdraw("a") // he has won a bounty: in play
	wantRule(t, err, "R1")
	_, err = bb.Finish("a")
	wantRule(t, err, "R5")
	if got := bb.Leaders(1); len(got) != 1 || got[0].Player != "a" || got[0].HeadCents != 1500 {
		t.Fatalf("leaders %+v", got)
	}
	if err := bb.Forfeit("b"); err != nil {
		t.Fatal(err)
	}
	if won, err := bb.Finish("a"); err != nil || won != 2500 || bb.PaidCents != 3000 {
		t.Fatalf("winner paid %d (%v), in all %d", won, err, bb.PaidCents)
	}
}
