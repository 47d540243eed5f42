package floor

// Satellite is how a satellite pays: seats (tickets) in a target event, each worth the target's
// buy-in, as many as the prize pool buys, and what is left of the pool in cash to the next place.
//
// R6's floor of 10% of the field paid is for cash prizes; a satellite states its prizes as seats,
// so it may pay fewer (ten seats from a field of 500 is a normal satellite).
type Satellite struct {
	// TicketCents is one seat's value: the target event's buy-in, its fee included, in cents.
	TicketCents int64 `json:"ticketCents"`
	// GuaranteedSeats is how many seats the satellite awards whatever the field: when the pool does
	// not buy them, the house adds the difference (the overlay). 0: only the seats the pool buys.
	GuaranteedSeats int `json:"guaranteedSeats,omitempty"`
}

// SatellitePayouts is a satellite's prizes: Seats tickets of TicketCents for places 1 to Seats,
// then CashCents, if any, for place Seats+1. Prizes lists each paid place's value (first place
// first) so that AwardPrizes and the results read it like any payout; the values add up to
// PoolCents plus OverlayCents exactly.
type SatellitePayouts struct {
	PoolCents    int64   `json:"prizePoolCents"`         // what the entries paid in, less fees (R6)
	OverlayCents int64   `json:"overlayCents,omitempty"` // what the house adds for guaranteed seats
	Seats        int     `json:"seats"`
	TicketCents  int64   `json:"ticketCents"`
	CashCents    int64   `json:"cashCents,omitempty"` // the remainder, to place Seats+1
	Prizes       []int64 `json:"prizesCents"`
}

// SatelliteMinEntries is the fewest entries (at e's buy-in and fee, no rebuys) whose pool buys one
// seat of s: below it a satellite without a guaranteed seat cannot run.
func SatelliteMinEntries(e Entries, s Satellite) int {
	net := e.BuyIn - e.Fee
	if net <= 0 || s.TicketCents <= 0 {
		return 0
	}
	return int(max((s.TicketCents+net-1)/net, 2))
}

// SatellitePayout shares the pool of e as s says: seats = pool / ticket (at least the guaranteed
// seats), and the remainder, less than one ticket, in cash to the first place after the seats. A
// pool that buys no seat is refused unless a seat is guaranteed: a satellite awards seats, and
// paying a winner cash instead would make it another tournament. The seats must leave at least
// one entry without a prize, or there is nothing to play for.
func SatellitePayout(e Entries, s Satellite) (SatellitePayouts, error) {
	pool, err := PrizePool(e)
	if err != nil {
		return SatellitePayouts{}, err
	}
	return satelliteForPool(pool, e, s)
}

// satelliteForPool is SatellitePayout for a pool already summed (add-ons in it: BuyIns.Satellite).
func satelliteForPool(pool int64, e Entries, s Satellite) (SatellitePayouts, error) {
	n := e.Field()
	switch {
	case n < 2:
		return SatellitePayouts{}, ruleErr("R6", "%d entries: a satellite needs at least two", n)
	case s.TicketCents <= 0:
		return SatellitePayouts{}, ruleErr("R6", "ticket value %d cents: a seat must be worth the target event's buy-in, a positive amount", s.TicketCents)
	case s.GuaranteedSeats < 0:
		return SatellitePayouts{}, ruleErr("R6", "%d guaranteed seats: expected 0 (only the seats the pool buys) or more", s.GuaranteedSeats)
	case s.GuaranteedSeats >= n:
		return SatellitePayouts{}, ruleErr("R6", "%d guaranteed seats for %d entries: a satellite must leave at least one entry without a seat", s.GuaranteedSeats, n)
	}
	p := SatellitePayouts{PoolCents: pool, TicketCents: s.TicketCents, Seats: int(pool / s.TicketCents)}
	switch {
	case p.Seats < s.GuaranteedSeats:
		p.Seats = s.GuaranteedSeats
		p.OverlayCents = int64(s.GuaranteedSeats)*s.TicketCents - pool
	case p.Seats == 0:
		return SatellitePayouts{}, ruleErr("R6", "a prize pool of %d cents does not buy one seat of %d cents: %d entries are needed at this buy-in, or a guaranteed seat",
			pool, s.TicketCents, SatelliteMinEntries(e, s))
	case p.Seats >= n:
		return SatellitePayouts{}, ruleErr("R6", "the pool buys %d seats for %d entries: a ticket of %d cents is too cheap for this buy-in, every entry would win one", p.Seats, n, s.TicketCents)
	default:
		p.CashCents = pool - int64(p.Seats)*s.TicketCents
	}
	p.Prizes = make([]int64, p.Seats, p.Seats+1)
	for i := range p.Prizes {
		p.Prizes[i] = s.TicketCents
	}
	if p.CashCents > 0 {
		p.Prizes = append(p.Prizes, p.CashCents)
	}
	return p, nil
}

// SatelliteAward is one player's satellite prize: a seat (Ticket, Prize its value) or cash.
type SatelliteAward struct {
	Award
	Ticket bool `json:"ticket,omitempty"`
}

// SatelliteAwards pays the standings from p. A player whose place, and every place he shares
// (R7), is a seat wins a ticket. A ticket cannot be cut, so players who share places across the
// last seat share those places' value (seats and cash) in cash, split equally by AwardPrizes
// (to the cent, the odd cents to the first listed): the awards add up to the prizes exactly.
func SatelliteAwards(standings []Standing, p SatellitePayouts) []SatelliteAward {
	awards := AwardPrizes(standings, p.Prizes, 1)
	out := make([]SatelliteAward, len(awards))
	for i, a := range awards {
		last := a.Place + max(a.Shared, 1) - 1
		out[i] = SatelliteAward{Award: a, Ticket: a.Place >= 1 && last <= p.Seats}
	}
	return out
}
