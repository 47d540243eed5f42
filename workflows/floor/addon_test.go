package floor

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// rebuyStructure: levels 1 and 2, a break, levels 3 and 4, a break, level 5.
func rebuyStructure() Structure {
	return Structure{StartingStack: 10000, Levels: []Level{
		{SmallBlind: 25, BigBlind: 50, Minutes: 20}, {SmallBlind: 50, BigBlind: 100, Minutes: 20}, {Break: true, Minutes: 10},
		{SmallBlind: 75, BigBlind: 150, Minutes: 20}, {SmallBlind: 100, BigBlind: 200, Minutes: 20}, {Break: true, Minutes: 10},
		{SmallBlind: 150, BigBlind: 300, Minutes: 20},
	}}
}

// rule R1: add-ons are sold at the break that ends the rebuy period, and nowhere else.
func TestAddOnBreakR1(t *testing.T) {
	s := rebuyStructure()
	for rebuyLevel, want := range map[int]int{2: 2, 4: 5} {
		if got, err := AddOnBreak(s, rebuyLevel); err != nil || got != want {
			t.Errorf("AddOnBreak(level %d) = %d, %v; want period %d", rebuyLevel, got, err, want)
		}
	}
	_, err := AddOnBreak(s, 3)
	wantRule(t, err, "R1")
	if !strings.Contains(err.Error(), "breaks after levels 2, 4") {
		t.Errorf("%v: should say where the breaks are", err)
	}
	_, err = AddOnBreak(s, 0)
	wantRule(t, err, "R1")
}

// rule R1: who may take an add-on, how many, and when.
func TestVerifyAddOnR1(t *testing.T) {
	s := rebuyStructure()
	one := AddOn{Chips: 15000, PriceCents: 1000}
	two := AddOn{Chips: 15000, PriceCents: 1000, Max: 2}
	cases := []struct {
		name string
		a    AddOn
		r    AddOnRequest
		want string // "" accepted
	}{
		{"at the break, a big stack too", one, AddOnRequest{Player: "a", Period: 2, Stack: 50000}, ""},
		{"a short stack", one, AddOnRequest{Player: "a", Period: 2, Stack: 1}, ""},
		{"in level 2", one, AddOnRequest{Player: "a", Period: 1, Stack: 500}, "only at the break after level 2 (period 2)"},
		{"at the later break", one, AddOnRequest{Player: "a", Period: 5, Stack: 500}, "only at the break"},
		{"busted", one, AddOnRequest{Player: "a", Period: 2}, "re-enters or rebuys"},
		{"a second one", one, AddOnRequest{Player: "a", Period: 2, Stack: 500, Taken: 1}, "at most 1 an entry"},
		{"a double add-on", two, AddOnRequest{Player: "a", Period: 2, Stack: 500, Count: 2}, ""},
		{"a third", two, AddOnRequest{Player: "a", Period: 2, Stack: 500, Taken: 1, Count: 2}, "at most 2"},
		{"no chips sold", AddOn{PriceCents: 1000}, AddOnRequest{Player: "a", Period: 2, Stack: 500}, "expected a positive stack"},
		{"free", AddOn{Chips: 100}, AddOnRequest{Player: "a", Period: 2, Stack: 500}, "expected a positive price"},
		{"all fee", AddOn{Chips: 100, PriceCents: 100, FeeCents: 100}, AddOnRequest{Player: "a", Period: 2, Stack: 500}, "less than the price"},
	}
	for _, c := range cases {
		err := c.a.VerifyAddOn(s, 2, c.r)
		if c.want == "" {
			if err != nil || !c.a.CanAddOn(s, 2, c.r) {
				t.Errorf("%s: refused: %v", c.name, err)
			}
			continue
		}
		wantRule(t, err, "R1")
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
}

// rules R1, R6: add-ons reach the prize pool (less their fee) and the chips in play.
func TestBuyInsWithAddOnsR1R6(t *testing.T) {
	b := BuyIns{
		Entries:       Entries{Entries: 100, Rebuys: 40, BuyIn: 1100, Fee: 100},
		AddOns:        80,
		AddOn:         AddOn{Chips: 15000, PriceCents: 1050, FeeCents: 50},
		StartingStack: 10000,
	}
	p, err := b.Purse()
	if err != nil {
		t.Fatal(err)
	}
	want := Purse{PaidInCents: 140*1100 + 80*1050, FeesCents: 140*100 + 80*50, PrizePoolCents: 140*1000 + 80*1000, Chips: 140*10000 + 80*15000}
	if p != want {
		t.Fatalf("purse %+v, want %+v", p, want)
	}
	l, _ := b.Ledger()
	if l.Total() != p.Chips {
		t.Fatalf("ledger holds %d chips, the buy-ins bought %d", l.Total(), p.Chips)
	}
	pay, err := b.Payouts(PayoutStructure{})
	if err != nil || pay.Pool != 220000 || sumPrizes(pay.Prizes) != 220000 || len(pay.Prizes) != 10 {
		t.Fatalf("payouts %+v, %v", pay, err)
	}
	b.AddOns = -1
	_, err = b.Purse()
	wantRule(t, err, "R1")
}

// rules R1, R6 over random events: money paid in is fees, prize pool and bounties, to the cent;
// the chips are what was bought; the payouts pay the whole pool.
func TestBuyInsConservePropertyR6(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 6))
	paid := 0
	for k := 0; k < 3000; k++ {
		b := BuyIns{
			Entries:       Entries{Entries: 2 + rng.IntN(3000), ReEntries: rng.IntN(100), Rebuys: rng.IntN(500), BuyIn: 200 + rng.Int64N(20000)},
			AddOns:        rng.IntN(3000),
			AddOn:         AddOn{Chips: 1 + rng.Int64N(50000), PriceCents: 1 + rng.Int64N(20000)},
			StartingStack: 1 + rng.Int64N(50000),
			RebuyChips:    rng.Int64N(50000),
		}
		b.Entries.Fee = rng.Int64N(b.Entries.BuyIn / 4)
		b.AddOn.FeeCents = rng.Int64N(b.AddOn.PriceCents)
		if rng.IntN(2) == 0 {
			b.Entries.RebuyPrice = 100 + rng.Int64N(10000)
			b.Entries.RebuyFee = rng.Int64N(b.Entries.RebuyPrice / 4)
		}
		if rng.IntN(3) == 0 {
			b.Bounty = Bounty{StartCents: 1 + rng.Int64N(b.Entries.BuyIn-b.Entries.Fee-1)}
		}
		p, err := b.Purse()
		if err != nil {
			t.Fatalf("%+v: %v", b, err)
		}
		if p.FeesCents+p.PrizePoolCents+p.BountyPoolCents != p.PaidInCents {
			t.Fatalf("%+v: fees %d + pool %d + bounties %d != paid in %d", b, p.FeesCents, p.PrizePoolCents, p.BountyPoolCents, p.PaidInCents)
		}
		if l, _ := b.Ledger(); l.Total() != p.Chips {
			t.Fatalf("ledger %d chips, bought %d", l.Total(), p.Chips)
		}
		pay, err := b.Payouts(PayoutStructure{})
		if err != nil {
			wantRule(t, err, "R6") // a pool too small for 10% at the min cash
			continue
		}
		if sumPrizes(pay.Prizes) != p.PrizePoolCents {
			t.Fatalf("prizes add up to %d, pool %d", sumPrizes(pay.Prizes), p.PrizePoolCents)
		}
		paid++
	}
	if paid < 1500 {
		t.Fatalf("only %d of 3000 events had payouts", paid)
	}
}

// rule R6: a satellite with add-ons counts them in the seats.
func TestBuyInsSatelliteR6(t *testing.T) {
	b := BuyIns{Entries: Entries{Entries: 50, BuyIn: 1100, Fee: 100}, AddOns: 30, AddOn: AddOn{Chips: 5000, PriceCents: 1000}, StartingStack: 5000}
	p, err := b.Satellite(Satellite{TicketCents: 21500})
	if err != nil || p.Seats != 3 || p.CashCents != 80000-3*21500 {
		t.Fatalf("%+v, %v", p, err)
	}
}
