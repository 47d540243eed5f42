package floor

import (
	"math"
	"slices"
	"testing"
	"time"
)

// icmByOrders is ICM's slow, obviously correct twin: every finishing order, its Malmuth–Harville
// probability (each place taken with the chips' share of those left), its prizes.
func icmByOrders(stacks, prizes []int64) []float64 {
	n := len(stacks)
	eq := make([]float64, n)
	var walk func(order []int, used int, p float64, chips int64)
	walk = func(order []int, used int, p float64, chips int64) {
		if len(order) == n {
			for place, i := range order {
				if place < len(prizes) {
					eq[i] += p * float64(prizes[place])
				}
			}
			return
		}
		for i := range n {
			if used&(1<<i) == 0 {
				walk(append(order, i), used|1<<i, p*float64(stacks[i])/float64(chips), chips-stacks[i])
			}
		}
	}
	walk(nil, 0, 1, sum64(stacks))
	return eq
}

func near(a, b []float64, tol float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) <= tol })
}

func TestICMKnownValuesR6(t *testing.T) { // deals: ICM against values worked by hand
	cases := []struct {
		name           string
		stacks, prizes []int64
		want           []float64
	}{
		// 50/30/20 of the chips, prizes 50/30/20: first 0.5, 0.3, 0.2; player 1 second with
		// 0.3*50/70 + 0.2*50/80 = 0.3393, third 0.1607: 25 + 10.1786 + 3.2143 = 38.3929.
		{"three players", []int64{50, 30, 20}, []int64{50, 30, 20}, []float64{38.392857142857, 32.75, 28.857142857143}},
		{"heads-up: second prize plus chip share of the difference", []int64{75, 25}, []int64{1000, 500}, []float64{875, 625}},
		{"equal stacks: equal equity", []int64{10, 10, 10, 10}, []int64{40, 30, 20, 10}, []float64{25, 25, 25, 25}},
		{"winner takes all: chip share", []int64{60, 30, 10}, []int64{100}, []float64{60, 30, 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ICM(c.stacks, c.prizes)
			if err != nil {
				t.Fatal(err)
			}
			if !near(got, c.want, 1e-9) {
				t.Fatalf("ICM = %v, want %v", got, c.want)
			}
		})
	}
}

func TestICMAgainstEveryOrder(t *testing.T) { // deals: the memoised ICM equals the enumeration of orders
	r := NewSeededReader(11)
	for trial := range 40 {
		n := 2 + trial%6
		stacks := make([]int64, n)
		for i := range stacks {
			k, _ := uniformInt(r, 100000)
			stacks[i] = int64(k + 1)
		}
		prizes := []int64{50000, 30000, 20000, 12000, 9000, 6000, 4000}[:min(n, 7)]
		got, err := ICM(stacks, prizes)
		if err != nil {
			t.Fatal(err)
		}
		if want := icmByOrders(stacks, prizes); !near(got, want, 1e-6) {
			t.Fatalf("stacks %v: ICM %v, orders %v", stacks, got, want)
		}
	}
}

func TestICMTenPlayersFast(t *testing.T) { // deals: ten players in milliseconds
	stacks := []int64{1200000, 950000, 800000, 640000, 500000, 420000, 300000, 210000, 150000, 90000}
	prizes := []int64{1000000, 620000, 450000, 340000, 260000, 200000, 160000, 130000, 110000, 95000}
	start := time.Now()
	eq, err := ICM(stacks, prizes)
	if took := time.Since(start); took > 50*time.Millisecond { // generous for a loaded machine
		t.Fatalf("ICM of ten took %v", took)
	}
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for i, e := range eq {
		sum += e
		if i > 0 && e > eq[i-1] {
			t.Fatalf("a shorter stack has more equity: %v", eq)
		}
	}
	if math.Abs(sum-float64(sum64(prizes))) > 1e-3 {
		t.Fatalf("equities add up to %f, prizes to %d", sum, sum64(prizes))
	}
}

func TestDealsSumExactlyR6(t *testing.T) { // deals: amounts rounded to the unit, summing to the prizes
	stacks := []int64{50, 30, 20}
	prizes := []int64{5000, 3000, 2000}
	got, err := ICMDeal(stacks, prizes, DealTerms{})
	if err != nil {
		t.Fatal(err)
	}
	// 3839.29, 3275, 2885.71: rounded down to 9999, the unit left to the largest fraction.
	if want := []int64{3839, 3275, 2886}; !slices.Equal(got, want) {
		t.Fatalf("ICMDeal = %v, want %v", got, want)
	}
	// Chip-chop: each sure of 2,000, the other 4,000 by chips: 2,000, 1,200, 800 more.
	got, err = ChipChop(stacks, prizes, DealTerms{})
	if err != nil || !slices.Equal(got, []int64{4000, 3200, 2800}) {
		t.Fatalf("ChipChop = %v, %v", got, err)
	}
	// In units of 100 with 1,000 kept back for the title: 9,000 dealt.
	got, err = ICMDeal(stacks, prizes, DealTerms{Unit: 100, Reserve: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if sum64(got) != 9000 || got[0]%100 != 0 || got[1]%100 != 0 || got[2]%100 != 0 {
		t.Fatalf("ICMDeal with reserve = %v", got)
	}
	// Odd total in units: the part below a unit goes to the chip leader.
	got, _ = ChipChop([]int64{10, 20}, []int64{1001, 500}, DealTerms{Unit: 100})
	if sum64(got) != 1501 || got[1]%100 != 1 {
		t.Fatalf("ChipChop = %v", got)
	}
}

func TestDealsRefuse(t *testing.T) { // deals
	cases := []struct {
		name           string
		stacks, prizes []int64
		terms          DealTerms
	}{
		{"one player", []int64{10}, []int64{10}, DealTerms{}},
		{"eleven players", make([]int64, 11), nil, DealTerms{}},
		{"a busted player", []int64{10, 0}, []int64{10, 5}, DealTerms{}},
		{"more prizes than players", []int64{10, 10}, []int64{3, 2, 1}, DealTerms{}},
		{"prizes rising", []int64{10, 10}, []int64{3, 5}, DealTerms{}},
		{"reserve too large", []int64{10, 10}, []int64{10, 5}, DealTerms{Reserve: 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ICMDeal(c.stacks, c.prizes, c.terms)
			wantRule(t, err, "R6")
		})
	}
}

func BenchmarkICM10(b *testing.B) {
	stacks := []int64{1200000, 950000, 800000, 640000, 500000, 420000, 300000, 210000, 150000, 90000}
	prizes := []int64{1000000, 620000, 450000, 340000, 260000, 200000, 160000, 130000, 110000, 95000}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ICM(stacks, prizes); err != nil {
			b.Fatal(err)
		}
	}
}
