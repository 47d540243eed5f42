package floor

import (
	"fmt"
	"slices"
	"testing"
)

func TestPrizePoolR6R1(t *testing.T) { // rules R6, R1
	cases := []struct {
		e    Entries
		want int64
	}{
		{Entries{Entries: 100, BuyIn: 11000, Fee: 1000}, 1000000},
		{Entries{Entries: 100, ReEntries: 20, BuyIn: 11000, Fee: 1000}, 1200000},
		{Entries{Entries: 100, Rebuys: 30, BuyIn: 11000, Fee: 1000}, 1300000},
		{Entries{Entries: 100, Rebuys: 30, BuyIn: 11000, Fee: 1000, RebuyPrice: 5000, RebuyFee: 0}, 1150000},
		{Entries{Entries: 9, BuyIn: 500}, 4500}, // 002 art. 8 counts all of it
	}
	for _, c := range cases {
		if got, err := PrizePool(c.e); err != nil || got != c.want {
			t.Errorf("PrizePool(%+v) = %d, %v; want %d", c.e, got, err, c.want)
		}
	}
	for _, e := range []Entries{
		{Entries: 10, BuyIn: 100, Fee: 100},
		{Entries: 10, BuyIn: 0},
		{Entries: -1, BuyIn: 100},
		{Entries: 10, BuyIn: 100, Rebuys: 1, RebuyPrice: 50, RebuyFee: 60},
		{Entries: 1 << 40, BuyIn: 1 << 40},
	} {
		_, err := PrizePool(e)
		wantRule(t, err, "R6")
	}
}

func TestPaidPlacesR6(t *testing.T) { // rule R6: at least 10% paid
	cases := []struct{ n, pct, want int }{
		{2, 10, 1}, {9, 10, 1}, {9, 15, 2}, {10, 10, 1}, {11, 10, 2}, {100, 10, 10}, {100, 15, 15},
		{100, 0, 10}, {100, 5, 10}, {1000, 10, 100}, {100000, 10, 10000}, {100001, 10, 10001}, {3, 100, 3},
	}
	for _, c := range cases {
		if got := PaidPlaces(c.n, c.pct); got != c.want {
			t.Errorf("PaidPlaces(%d, %d) = %d, want %d", c.n, c.pct, got, c.want)
		}
	}
}

func checkPayouts(t *testing.T, e Entries, s PayoutStructure, p Payouts) {
	t.Helper()
	pool, _ := PrizePool(e)
	var sum int64
	for _, x := range p.Prizes {
		sum += x
	}
	if sum != pool || p.Pool != pool {
		t.Fatalf("prizes add up to %d, pool %d (reported %d)", sum, pool, p.Pool)
	}
	if 10*len(p.Prizes) < e.Field() {
		t.Fatalf("%d places paid of %d entries: less than 10%%", len(p.Prizes), e.Field())
	}
	if s.Name != PayoutCustom && len(p.Prizes) != PaidPlaces(e.Field(), s.PaidPercent) {
		t.Fatalf("%d places paid, want %d", len(p.Prizes), PaidPlaces(e.Field(), s.PaidPercent))
	}
	for i := 1; i < len(p.Prizes); i++ {
		if p.Prizes[i] > p.Prizes[i-1] {
			t.Fatalf("place %d wins %d, more than place %d's %d", i+1, p.Prizes[i], i, p.Prizes[i-1])
		}
		if p.Prizes[i]%max(s.Unit, 1) != 0 {
			t.Fatalf("place %d wins %d, not a whole unit %d", i+1, p.Prizes[i], s.Unit)
		}
	}
	if n := len(p.Prizes); n > 1 && p.Prizes[0] <= p.Prizes[1] {
		t.Fatalf("first place %d does not beat second %d", p.Prizes[0], p.Prizes[1])
	}
	if last := p.Prizes[len(p.Prizes)-1]; last < e.BuyIn {
		t.Fatalf("min cash %d is less than the buy-in %d", last, e.BuyIn)
	}
}

func TestComputePayoutsFieldsR6(t *testing.T) { // rule R6: 2, 9, 100, 1,000, 10,000 and 100,000 entries
	for _, n := range []int{2, 9, 100, 1000, 10000, 100000} {
		for _, s := range []PayoutStructure{
			{}, {Name: PayoutTopHeavy}, {Name: PayoutFlat}, {PaidPercent: 15, Unit: 100},
			{Name: PayoutFlat, PaidPercent: 20, Unit: 500}, {Name: PayoutTopHeavy, Unit: 100},
		} {
			for _, e := range []Entries{
				{Entries: n, BuyIn: 11000, Fee: 1000},
				{Entries: n, ReEntries: n / 5, Rebuys: n / 3, BuyIn: 2500, Fee: 300},
				{Entries: n, BuyIn: 999},
			} {
				t.Run(fmt.Sprintf("%d_%s_%d%%_%+v", n, s.Name, s.PaidPercent, e), func(t *testing.T) {
					p, err := ComputePayouts(e, s)
					if err != nil {
						t.Fatal(err)
					}
					checkPayouts(t, e, s, p)
				})
			}
		}
	}
}

func TestComputePayoutsKnownR6(t *testing.T) { // rule R6: values worked by hand
	// 100 entries of 100, no fee: pool 10,000; 10 paid; each gets 100 plus 9,000 x (1/i) / H(10);
	// first takes what rounding leaves.
	p, err := ComputePayouts(Entries{Entries: 100, BuyIn: 100}, PayoutStructure{})
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{3176, 1636, 1124, 868, 714, 612, 538, 484, 441, 407}
	if !slices.Equal(p.Prizes, want) {
		t.Fatalf("prizes %v, want %v", p.Prizes, want)
	}
	// Two entries: one paid, the whole pool.
	p, _ = ComputePayouts(Entries{Entries: 2, BuyIn: 100}, PayoutStructure{})
	if !slices.Equal(p.Prizes, []int64{200}) {
		t.Fatalf("heads-up prizes %v", p.Prizes)
	}
	// Rounded to whole units of 100, the remainder to first.
	p, _ = ComputePayouts(Entries{Entries: 30, BuyIn: 1010, Fee: 10}, PayoutStructure{Unit: 100})
	checkPayouts(t, Entries{Entries: 30, BuyIn: 1010, Fee: 10}, PayoutStructure{Unit: 100}, p)
	if p.Prizes[0]%100 != 0 || len(p.Prizes) != 3 || p.Prizes[2] < 1100 {
		t.Fatalf("prizes %v", p.Prizes)
	}
}

func TestComputePayoutsCustomR6(t *testing.T) { // rule R6: a custom table
	e := Entries{Entries: 100, BuyIn: 11000, Fee: 1000}
	s := PayoutStructure{Name: PayoutCustom, Unit: 100, Custom: []int{3000, 2000, 1400, 1000, 800, 600, 450, 300, 250, 200}}
	p, err := ComputePayouts(e, s)
	if err != nil {
		t.Fatal(err)
	}
	checkPayouts(t, e, s, p)
	if want := []int64{300000, 200000, 140000, 100000, 80000, 60000, 45000, 30000, 25000, 20000}; !slices.Equal(p.Prizes, want) {
		t.Fatalf("prizes %v, want %v", p.Prizes, want)
	}
	bad := []struct {
		name   string
		shares []int
	}{
		{"empty", nil},
		{"too few places", []int{6000, 4000}},
		{"not decreasing", []int{3000, 2000, 1400, 1000, 800, 600, 450, 300, 200, 250}},
		{"not 100%", []int{3000, 2000, 1400, 1000, 800, 600, 450, 300, 250, 100}},
		{"min cash below the buy-in", []int{5000, 1000, 1000, 1000, 500, 500, 500, 200, 200, 100}},
		{"a place with nothing", []int{5000, 2000, 1000, 1000, 500, 500, 0, 0, 0, 0}},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			_, err := ComputePayouts(e, PayoutStructure{Name: PayoutCustom, Custom: b.shares})
			wantRule(t, err, "R6")
		})
	}
}

func TestComputePayoutsRefusesR6(t *testing.T) { // rule R6
	cases := []struct {
		name string
		e    Entries
		s    PayoutStructure
	}{
		{"unknown structure", Entries{Entries: 100, BuyIn: 100}, PayoutStructure{Name: "lottery"}},
		{"paid percent below 10", Entries{Entries: 100, BuyIn: 100}, PayoutStructure{PaidPercent: 5}},
		{"one entry", Entries{Entries: 1, BuyIn: 100}, PayoutStructure{}},
		{"fees eat the min cash", Entries{Entries: 100, BuyIn: 100, Fee: 95}, PayoutStructure{PaidPercent: 50}},
		{"negative unit", Entries{Entries: 100, BuyIn: 100}, PayoutStructure{Unit: -1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ComputePayouts(c.e, c.s)
			wantRule(t, err, "R6")
		})
	}
}

func BenchmarkComputePayouts100000(b *testing.B) {
	e := Entries{Entries: 100000, BuyIn: 11000, Fee: 1000}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ComputePayouts(e, PayoutStructure{Unit: 100}); err != nil {
			b.Fatal(err)
		}
	}
}
