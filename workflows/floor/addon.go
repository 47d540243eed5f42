package floor

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
)

// AddOn is an event's add-on (R1 policy, beside rebuys and re-entries): at the break that ends the
// rebuy period every player still in may buy a fixed stack at a fixed price, whatever his stack,
// where a rebuy is only for a short stack (003 r18). The chips are in front of him at once.
type AddOn struct {
	Chips      int64 `json:"chips"`
	PriceCents int64 `json:"priceCents"`
	FeeCents   int64 `json:"feeCents,omitempty"` // of the price, to the house
	// Max is how many add-ons one entry may buy at that break; 0 means 1.
	Max int `json:"max,omitempty"`
}

func (a AddOn) max() int { return max(a.Max, 1) }

// Verify says what is wrong with the add-on's terms, or returns nil.
func (a AddOn) Verify() error {
	switch {
	case a.Chips <= 0:
		return ruleErr("R1", "an add-on of %d chips: expected a positive stack", a.Chips)
	case a.PriceCents <= 0 || a.FeeCents < 0 || a.FeeCents >= a.PriceCents:
		return ruleErr("R1", "an add-on priced %d cents with a fee of %d: expected a positive price and a fee from 0 to less than the price", a.PriceCents, a.FeeCents)
	case a.Max < 0:
		return ruleErr("R1", "at most %d add-ons an entry: expected 1 or more (0 means 1)", a.Max)
	}
	return nil
}

// AddOnBreak is the period (an index in s.Levels) at which add-ons are sold: the break straight
// after level rebuyLevel, the last level in which rebuys are open. A structure with no break
// there cannot sell add-ons, and the error says where its breaks are.
func AddOnBreak(s Structure, rebuyLevel int) (int, error) {
	if rebuyLevel < 1 {
		return 0, ruleErr("R1", "rebuy period ends at level %d: an add-on needs a rebuy period of 1 level or more", rebuyLevel)
	}
	var after []string
	for i := 1; i < len(s.Levels); i++ {
		if !s.Levels[i].Break || s.Levels[i-1].Break {
			continue
		}
		n := s.LevelNumber(i - 1)
		if n == rebuyLevel {
			return i, nil
		}
		after = append(after, fmt.Sprint(n))
	}
	where := "it has none"
	if len(after) > 0 {
		where = "it has breaks after levels " + strings.Join(after, ", ")
	}
	return 0, ruleErr("R1", "add-ons are sold at the break after level %d, where rebuys close, and the structure has no break there (%s)", rebuyLevel, where)
}

// AddOnRequest is a player asking for add-ons.
type AddOnRequest struct {
	Player PlayerID `json:"player"`
	Period int      `json:"period"` // the clock's period (ClockState.Period) when he asks
	Stack  int64    `json:"stack"`  // his chips now
	Taken  int      `json:"taken"`  // add-ons he has bought already
	Count  int      `json:"count"`  // how many he asks for now; 0 means 1
}

// CanAddOn reports whether VerifyAddOn accepts the request.
func (a AddOn) CanAddOn(s Structure, rebuyLevel int, r AddOnRequest) bool {
	return a.VerifyAddOn(s, rebuyLevel, r) == nil
}

// VerifyAddOn says why the request is refused (R1), or returns nil: add-ons are sold only at the
// add-on break (AddOnBreak), to players still in (a busted player re-enters or rebuys), up to Max
// an entry.
func (a AddOn) VerifyAddOn(s Structure, rebuyLevel int, r AddOnRequest) error {
	if err := a.Verify(); err != nil {
		return err
	}
	at, err := AddOnBreak(s, rebuyLevel)
	if err != nil {
		return err
	}
	count := max(r.Count, 1)
	switch {
	case r.Period != at:
		return ruleErr("R1", "%s asks for an add-on in period %d: add-ons are sold only at the break after level %d (period %d)", r.Player, r.Period, rebuyLevel, at)
	case r.Stack <= 0:
		return ruleErr("R1", "%s has no chips: a busted player re-enters or rebuys, an add-on is for a player still in", r.Player)
	case r.Count < 0:
		return ruleErr("R1", "%s asks for %d add-ons: expected 1 or more", r.Player, r.Count)
	case r.Taken+count > a.max():
		return ruleErr("R1", "%s has bought %d add-ons and asks for %d: at most %d an entry", r.Player, r.Taken, count, a.max())
	}
	return nil
}

// BuyIns is everything an event's entries bought: entries, re-entries and rebuys (Entries), the
// add-ons, and the bounty share of each buy-in in a PKO event. It answers where the money went and
// how many chips it put in play.
type BuyIns struct {
	Entries Entries `json:"entries"`
	AddOns  int     `json:"addOns,omitempty"`
	AddOn   AddOn   `json:"addOn,omitzero"`
	Bounty  Bounty  `json:"bounty,omitzero"` // StartCents 0: no bounties
	// StartingStack is an entry's chips; RebuyChips a rebuy's, 0 meaning the starting stack.
	StartingStack int64 `json:"startingStack"`
	RebuyChips    int64 `json:"rebuyChips,omitempty"`
}

// Purse is where the money paid in went, to the cent, and the chips it bought.
type Purse struct {
	PaidInCents     int64 `json:"paidInCents"`
	FeesCents       int64 `json:"feesCents"`
	PrizePoolCents  int64 `json:"prizePoolCents"`
	BountyPoolCents int64 `json:"bountyPoolCents,omitempty"`
	// Chips is the chips bought (ChipLedger.Total before disqualifications and chip races).
	Chips int64 `json:"chips"`
}

// prizeEntries is the entries as the prize pool sees them (the bounties taken out).
func (b BuyIns) prizeEntries() (Entries, error) {
	if b.Bounty.StartCents == 0 {
		return b.Entries, nil
	}
	return b.Bounty.PrizeEntries(b.Entries)
}

func (b BuyIns) verify() error {
	if b.AddOns < 0 {
		return ruleErr("R1", "%d add-ons: expected 0 or more", b.AddOns)
	}
	if b.AddOns > 0 {
		if err := b.AddOn.Verify(); err != nil {
			return err
		}
	}
	if b.StartingStack <= 0 || b.RebuyChips < 0 {
		return ruleErr("R1", "a starting stack of %d and rebuys of %d chips: expected a positive stack", b.StartingStack, b.RebuyChips)
	}
	return nil
}

// mulAdd returns acc + n*x, or false on overflow.
func mulAdd(acc int64, n int, x int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(n), uint64(x))
	sum, carry := bits.Add64(uint64(acc), lo, 0)
	return int64(sum), hi == 0 && carry == 0 && sum <= math.MaxInt64
}

// Purse sums the money paid in and the chips bought. Its invariant, checked in the tests: the
// fees, the prize pool and the bounty pool add up to what was paid in.
func (b BuyIns) Purse() (Purse, error) {
	if err := b.verify(); err != nil {
		return Purse{}, err
	}
	pe, err := b.prizeEntries()
	if err != nil {
		return Purse{}, err
	}
	pool, err := PrizePool(pe)
	if err != nil {
		return Purse{}, err
	}
	e := b.Entries
	price, fee := e.RebuyPrice, e.RebuyFee
	if price == 0 {
		price, fee = e.BuyIn, e.Fee
	}
	rebuyChips := b.RebuyChips
	if rebuyChips == 0 {
		rebuyChips = b.StartingStack
	}
	var p Purse
	ok := true
	step := func(acc int64, n int, x int64) int64 {
		v, fine := mulAdd(acc, n, x)
		ok = ok && fine
		return v
	}
	p.PaidInCents = step(step(step(0, e.Field(), e.BuyIn), e.Rebuys, price), b.AddOns, b.AddOn.PriceCents)
	p.FeesCents = step(step(step(0, e.Field(), e.Fee), e.Rebuys, fee), b.AddOns, b.AddOn.FeeCents)
	p.PrizePoolCents = step(pool, b.AddOns, b.AddOn.PriceCents-b.AddOn.FeeCents)
	p.BountyPoolCents = step(0, e.Field(), b.Bounty.StartCents)
	p.Chips = step(step(step(0, e.Field(), b.StartingStack), e.Rebuys, rebuyChips), b.AddOns, b.AddOn.Chips)
	if !ok {
		return Purse{}, ruleErr("R6", "the sums of %d entries, %d rebuys and %d add-ons overflow", e.Field(), e.Rebuys, b.AddOns)
	}
	return p, nil
}

// Ledger is the chip ledger the buy-ins start: add-on chips count with the rebuys'.
func (b BuyIns) Ledger() (ChipLedger, error) {
	p, err := b.Purse()
	if err != nil {
		return ChipLedger{}, err
	}
	field := int64(b.Entries.Field())
	return ChipLedger{Entries: b.Entries.Field(), StartingStack: b.StartingStack, RebuyChips: p.Chips - field*b.StartingStack}, nil
}

// Payouts shares the prize pool, add-ons and rebuys included and bounties out, by s (R6): the
// same curve as ComputePayouts, every prize at least an entry's prize share of the buy-in.
func (b BuyIns) Payouts(s PayoutStructure) (Payouts, error) {
	p, err := b.Purse()
	if err != nil {
		return Payouts{}, err
	}
	return payoutsForPool(p.PrizePoolCents, b.Entries.Field(), b.Entries.BuyIn-b.Bounty.StartCents, s)
}

// Satellite shares the prize pool, add-ons and rebuys included, as seats (SatellitePayout).
func (b BuyIns) Satellite(s Satellite) (SatellitePayouts, error) {
	p, err := b.Purse()
	if err != nil {
		return SatellitePayouts{}, err
	}
	return satelliteForPool(p.PrizePoolCents, b.Entries, s)
}
