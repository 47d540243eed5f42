package floor

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func sumPrizes(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// rule R6: a satellite pays seats, fewer than 10% of the field if that is what the pool buys, and
// the remainder in cash to the next place, to the cent.
func TestSatellitePayoutSeatsAndCashR6(t *testing.T) {
	cases := []struct {
		name               string
		e                  Entries
		s                  Satellite
		seats              int
		cash, overlay, sum int64
	}{
		// 500 entries at $11 ($1 fee) for $215 seats: 23 seats (4.6% of the field) and $55 cash.
		{"remainder", Entries{Entries: 500, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500}, 23, 5500, 0, 500000},
		{"exact", Entries{Entries: 43, BuyIn: 500}, Satellite{TicketCents: 2150}, 10, 0, 0, 21500},
		{"re-entries and rebuys count", Entries{Entries: 40, ReEntries: 3, Rebuys: 7, BuyIn: 500}, Satellite{TicketCents: 2150}, 11, 1350, 0, 25000},
		// 50 entries guaranteed 3 seats: the pool buys 2, the house adds $145 for the third.
		{"overlay", Entries{Entries: 50, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500, GuaranteedSeats: 3}, 3, 0, 14500, 64500},
		{"guarantee below the pool", Entries{Entries: 500, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500, GuaranteedSeats: 3}, 23, 5500, 0, 500000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := SatellitePayout(c.e, c.s)
			if err != nil {
				t.Fatal(err)
			}
			if p.Seats != c.seats || p.CashCents != c.cash || p.OverlayCents != c.overlay {
				t.Fatalf("got %d seats, cash %d, overlay %d; want %d, %d, %d", p.Seats, p.CashCents, p.OverlayCents, c.seats, c.cash, c.overlay)
			}
			pool, _ := PrizePool(c.e)
			if got := sumPrizes(p.Prizes); got != c.sum || got != pool+p.OverlayCents || p.PoolCents != pool {
				t.Fatalf("prizes add up to %d; pool %d + overlay %d, want %d", got, pool, p.OverlayCents, c.sum)
			}
			for i, x := range p.Prizes[:p.Seats] {
				if x != c.s.TicketCents {
					t.Fatalf("seat %d is worth %d, not the ticket %d", i+1, x, c.s.TicketCents)
				}
			}
			if want := p.Seats + min(int(p.CashCents), 1); len(p.Prizes) != want {
				t.Fatalf("%d places paid, want %d", len(p.Prizes), want)
			}
		})
	}
}

// rule R6: what a satellite cannot do is refused, saying what is wrong and what is expected.
func TestSatellitePayoutRefusedR6(t *testing.T) {
	cases := []struct {
		name string
		e    Entries
		s    Satellite
		want string
	}{
		{"pool short of one seat", Entries{Entries: 10, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500}, "22 entries are needed"},
		{"ticket too cheap", Entries{Entries: 10, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 500}, "every entry would win one"},
		{"no ticket value", Entries{Entries: 10, BuyIn: 1100}, Satellite{}, "a positive amount"},
		{"negative guarantee", Entries{Entries: 10, BuyIn: 1100}, Satellite{TicketCents: 5000, GuaranteedSeats: -1}, "expected 0"},
		{"guarantee seats everyone", Entries{Entries: 3, BuyIn: 1100}, Satellite{TicketCents: 5000, GuaranteedSeats: 3}, "at least one entry without a seat"},
		{"one entry", Entries{Entries: 1, BuyIn: 1100}, Satellite{TicketCents: 500}, "at least two"},
		{"bad buy-in", Entries{Entries: 10, BuyIn: 100, Fee: 100}, Satellite{TicketCents: 500}, "leaves nothing"},
	}
	for _, c := range cases {
		_, err := SatellitePayout(c.e, c.s)
		wantRule(t, err, "R6")
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
	// A guaranteed seat runs the small field the pool alone cannot.
	if p, err := SatellitePayout(Entries{Entries: 10, BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500, GuaranteedSeats: 1}); err != nil || p.Seats != 1 || p.OverlayCents != 11500 {
		t.Fatalf("guaranteed seat: %+v, %v", p, err)
	}
	if n := SatelliteMinEntries(Entries{BuyIn: 1100, Fee: 100}, Satellite{TicketCents: 21500}); n != 22 {
		t.Fatalf("SatelliteMinEntries = %d, want 22", n)
	}
}

// rule R6 over random satellites: seats are equal, the cash place is less than a seat, every cent
// of the pool (and the overlay) is paid, and never every entry.
func TestSatellitePayoutConservesMoneyR6(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	paid, overlays := 0, 0
	for k := 0; k < 5000; k++ {
		e := Entries{Entries: 2 + rng.IntN(5000), ReEntries: rng.IntN(50), Rebuys: rng.IntN(50), BuyIn: 100 + rng.Int64N(10000)}
		e.Fee = rng.Int64N(e.BuyIn / 5)
		s := Satellite{TicketCents: 1 + rng.Int64N(200000), GuaranteedSeats: rng.IntN(3)}
		p, err := SatellitePayout(e, s)
		if err != nil {
			wantRule(t, err, "R6")
			continue
		}
		pool, _ := PrizePool(e)
		if sumPrizes(p.Prizes) != pool+p.OverlayCents || p.Seats >= e.Field() || p.CashCents >= s.TicketCents || p.CashCents < 0 || p.OverlayCents < 0 {
			t.Fatalf("%+v %+v: %+v", e, s, p)
		}
		if p.OverlayCents > 0 && (p.Seats != s.GuaranteedSeats || p.CashCents != 0) {
			t.Fatalf("overlay with %d seats and cash %d: %+v", p.Seats, p.CashCents, p)
		}
		paid++
		overlays += min(int(p.OverlayCents), 1)
	}
	if paid < 2500 || overlays < 20 {
		t.Fatalf("only %d satellites paid, %d with an overlay: the cases do not test much", paid, overlays)
	}
}

// rules R6, R7: seats go to whole places; players sharing places across the last seat share their
// value in cash, exactly.
func TestSatelliteAwardsR7(t *testing.T) {
	p, err := SatellitePayout(Entries{Entries: 5, BuyIn: 500}, Satellite{TicketCents: 1000}) // 2 seats, 500 cash
	if err != nil || p.Seats != 2 || p.CashCents != 500 {
		t.Fatalf("%+v, %v", p, err)
	}
	standings := []Standing{{"a", 1, 1}, {"b", 2, 2}, {"c", 2, 2}, {"d", 4, 1}, {"e", 5, 1}}
	got := SatelliteAwards(standings, p)
	want := []struct {
		prize  int64
		ticket bool
	}{{1000, true}, {750, false}, {750, false}, {0, false}, {0, false}}
	var sum int64
	for i, w := range want {
		if got[i].Prize != w.prize || got[i].Ticket != w.ticket {
			t.Errorf("%s: prize %d ticket %v, want %d %v", got[i].Player, got[i].Prize, got[i].Ticket, w.prize, w.ticket)
		}
		sum += got[i].Prize
	}
	if sum != sumPrizes(p.Prizes) {
		t.Fatalf("awards add up to %d, prizes to %d", sum, sumPrizes(p.Prizes))
	}
	// Two sharing the two seats both win a ticket.
	got = SatelliteAwards([]Standing{{"a", 1, 2}, {"b", 1, 2}, {"c", 3, 1}}, p)
	if !got[0].Ticket || !got[1].Ticket || got[2].Ticket || got[2].Prize != 500 {
		t.Fatalf("shared seats: %+v", got)
	}
}
