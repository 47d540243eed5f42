package floor

import (
	"math"
	"math/bits"
)

// Entries is what the field paid in, in currency minor units (cents).
type Entries struct {
	Entries   int `json:"entries"`             // first entries
	ReEntries int `json:"reEntries,omitempty"` // re-entries (R1 policy): each a new entry
	Rebuys    int `json:"rebuys,omitempty"`    // rebuys and add-ons (R1 policy, 003 r18)
	// BuyIn is the price of one entry, fee included; Fee is the part of it kept by the house
	// (and taxes), which does not reach the prize pool (R6).
	BuyIn int64 `json:"buyIn"`
	Fee   int64 `json:"fee,omitempty"`
	// RebuyPrice and RebuyFee are a rebuy's; 0 means the same as BuyIn and Fee.
	RebuyPrice int64 `json:"rebuyPrice,omitempty"`
	RebuyFee   int64 `json:"rebuyFee,omitempty"`
}

// Field is the number of entries that count for places and for the share paid: first entries
// and re-entries.
func (e Entries) Field() int { return e.Entries + e.ReEntries }

// PrizePool is the sum of the entries and rebuys less their fees (R6).
func PrizePool(e Entries) (int64, error) {
	price, fee := e.RebuyPrice, e.RebuyFee
	if price == 0 {
		price, fee = e.BuyIn, e.Fee
	}
	switch {
	case e.Entries < 0 || e.ReEntries < 0 || e.Rebuys < 0:
		return 0, ruleErr("R6", "negative entries")
	case e.BuyIn <= 0 || e.Fee < 0 || e.Fee >= e.BuyIn:
		return 0, ruleErr("R6", "buy-in %d with fee %d leaves nothing for the pool", e.BuyIn, e.Fee)
	case fee < 0 || fee >= price:
		return 0, ruleErr("R6", "rebuy price %d with fee %d leaves nothing for the pool", price, fee)
	}
	hi1, pool := bits.Mul64(uint64(e.Field()), uint64(e.BuyIn-e.Fee))
	hi2, rebuys := bits.Mul64(uint64(e.Rebuys), uint64(price-fee))
	sum, carry := bits.Add64(pool, rebuys, 0)
	if hi1 != 0 || hi2 != 0 || carry != 0 || sum > math.MaxInt64 {
		return 0, ruleErr("R6", "prize pool overflows")
	}
	return int64(sum), nil
}

// The built-in payout structures. Prize i (from 1) is the min cash plus a share of the rest of the
// pool in proportion to 1/i^steepness: the higher the steepness, the more goes to the top.
const (
	PayoutStandard = "standard" // steepness 1: first place about 30% with 10 paid, 10% with 10,000
	PayoutTopHeavy = "top-heavy"
	PayoutFlat     = "flat"
	PayoutCustom   = "custom" // the Custom table of shares
)

var payoutSteepness = map[string]float64{
	PayoutStandard: 1.0,
	PayoutTopHeavy: 1.3,
	PayoutFlat:     0.75,
}

// MinPaidPercent is the smallest share of the field paid (R6, 000).
const MinPaidPercent = 10

// PayoutStructure chooses how the pool is shared.
type PayoutStructure struct {
	// Name is a built-in structure (PayoutStandard, the default, PayoutTopHeavy, PayoutFlat) or
	// PayoutCustom.
	Name string `json:"name,omitempty"`
	// PaidPercent is the share of the field paid, rounded up; at least MinPaidPercent (the
	// default). Ignored by a custom table, which pays as many places as it lists.
	PaidPercent int `json:"paidPercent,omitempty"`
	// Unit is the currency unit prizes are rounded down to, in minor units (100: whole dollars);
	// the remainder goes to first place. 0 means 1.
	Unit int64 `json:"unit,omitempty"`
	// Custom is a custom table: each place's share of the pool in basis points (1/100 of a
	// percent), first place first, non-increasing, summing to 10,000.
	Custom []int `json:"custom,omitempty"`
}

// Payouts is the prize for each place: Prizes[0] is first place's. Places past len(Prizes) win
// nothing.
type Payouts struct {
	Pool   int64   `json:"prizePool"`
	Prizes []int64 `json:"prizes"`
}

// PaidPlaces is how many places a field of n pays at paidPercent (at least MinPaidPercent):
// paidPercent of n rounded up, at least one.
func PaidPlaces(n, paidPercent int) int {
	paidPercent = max(paidPercent, MinPaidPercent)
	p := (n*paidPercent + 99) / 100
	return min(max(p, 1), n)
}

// ComputePayouts shares the prize pool of e by s (R6): at least 10% of the field paid, prizes
// non-increasing from first place, every prize at least the buy-in, each rounded down to the
// currency unit, the remainder to first place, so that the prizes add up to the pool exactly.
//
// Built-in structures give every paid place the min cash (the buy-in rounded up to the unit) and
// share the rest of the pool by weights 1/i^steepness; rounding can make neighbouring places
// equal far down a large field, which is how published tables pay in bands.
func ComputePayouts(e Entries, s PayoutStructure) (Payouts, error) {
	pool, err := PrizePool(e)
	if err != nil {
		return Payouts{}, err
	}
	return payoutsForPool(pool, e.Field(), e.BuyIn, s)
}

// payoutsForPool is ComputePayouts for a pool already summed: n entries, each prize at least
// minPrize (the buy-in). Add-ons (AddOnPayouts) reach the pool this way.
func payoutsForPool(pool int64, n int, minPrize int64, s PayoutStructure) (Payouts, error) {
	var err error
	if n < 2 {
		return Payouts{}, ruleErr("R6", "%d entries: a tournament needs two", n)
	}
	unit := s.Unit
	if unit == 0 {
		unit = 1
	}
	if unit < 0 {
		return Payouts{}, ruleErr("R6", "currency unit %d is negative", unit)
	}
	if s.PaidPercent != 0 && (s.PaidPercent < MinPaidPercent || s.PaidPercent > 100) {
		return Payouts{}, ruleErr("R6", "paid percent %d is outside %d..100", s.PaidPercent, MinPaidPercent)
	}
	minCash := (minPrize + unit - 1) / unit * unit
	var prizes []int64
	switch s.Name {
	case PayoutCustom:
		prizes, err = customPrizes(pool, n, s.Custom, unit)
	case "":
		prizes, err = curvePrizes(pool, PaidPlaces(n, s.PaidPercent), minCash, unit, payoutSteepness[PayoutStandard])
	default:
		steep, ok := payoutSteepness[s.Name]
		if !ok {
			return Payouts{}, ruleErr("R6", "no payout structure %q (built in: %s, %s, %s; or %s)",
				s.Name, PayoutStandard, PayoutTopHeavy, PayoutFlat, PayoutCustom)
		}
		prizes, err = curvePrizes(pool, PaidPlaces(n, s.PaidPercent), minCash, unit, steep)
	}
	if err != nil {
		return Payouts{}, err
	}
	if last := prizes[len(prizes)-1]; last < minPrize {
		return Payouts{}, ruleErr("R6", "place %d would win %d, less than the buy-in %d", len(prizes), last, minPrize)
	}
	return Payouts{Pool: pool, Prizes: prizes}, nil
}

func curvePrizes(pool int64, paid int, minCash, unit int64, steepness float64) ([]int64, error) {
	if int64(paid) > pool/minCash {
		return nil, ruleErr("R6", "a pool of %d cannot pay %d places the buy-in (%d) each", pool, paid, minCash)
	}
	weights := make([]float64, paid)
	var total float64
	for i := range weights {
		weights[i] = math.Pow(float64(i+1), -steepness)
		total += weights[i]
	}
	rest := float64(pool - int64(paid)*minCash)
	prizes := make([]int64, paid)
	var sum int64
	for i := paid - 1; i >= 1; i-- {
		p := minCash + int64(rest*weights[i]/total)/unit*unit
		if i < paid-1 {
			p = max(p, prizes[i+1]) // never below the place after, whatever the float rounding
		}
		prizes[i] = p
		sum += p
	}
	prizes[0] = pool - sum
	return prizes, nil
}

func customPrizes(pool int64, field int, shares []int, unit int64) ([]int64, error) {
	if len(shares) == 0 {
		return nil, ruleErr("R6", "the custom payout table is empty")
	}
	if need := PaidPlaces(field, MinPaidPercent); len(shares) < need {
		return nil, ruleErr("R6", "the custom payout table pays %d places; %d entries need at least %d (10%%)", len(shares), field, need)
	}
	if len(shares) > field {
		return nil, ruleErr("R6", "the custom payout table pays %d places for %d entries", len(shares), field)
	}
	totalBP := 0
	for i, bp := range shares {
		if bp <= 0 {
			return nil, ruleErr("R6", "custom payout place %d has share %d: every paid place needs a share", i+1, bp)
		}
		if i > 0 && bp > shares[i-1] {
			return nil, ruleErr("R6", "custom payout place %d (%d bp) pays more than place %d (%d bp): shares must decrease", i+1, bp, i, shares[i-1])
		}
		totalBP += bp
	}
	if totalBP != 10000 {
		return nil, ruleErr("R6", "custom payout shares add up to %d basis points, not 10000", totalBP)
	}
	prizes := make([]int64, len(shares))
	var sum int64
	for i := len(shares) - 1; i >= 1; i-- {
		hi, lo := bits.Mul64(uint64(pool), uint64(shares[i]))
		q, _ := bits.Div64(hi, lo, 10000) // hi < 10000 since shares[i] <= 10000
		prizes[i] = int64(q) / unit * unit
		sum += prizes[i]
	}
	prizes[0] = pool - sum
	return prizes, nil
}
