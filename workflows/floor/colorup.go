package floor

import (
	"cmp"
	"io"
	"slices"
)

// NeedsChipRace says whether colouring up to smallest (the smallest denomination left in play)
// needs a chip race (R8): only with physical chips (live), and only when some stack is not a whole
// number of the chips left. Online tables keep integer chip counts and never race.
func NeedsChipRace(live bool, stacks []int64, smallest int64) bool {
	if !live {
		return false
	}
	for _, s := range stacks {
		if s%smallest != 0 {
			return true
		}
	}
	return false
}

// RaceCard is a card dealt in the chip race: Rank 2..14 (ace high), Suit 0..3 in bridge order
// (clubs, diamonds, hearts, spades), the suit deciding between equal ranks.
type RaceCard struct {
	Rank int `json:"rank"`
	Suit int `json:"suit"`
}

func (c RaceCard) String() string {
	return string("23456789TJQKA"[c.Rank-2]) + string("cdhs"[c.Suit])
}

func (c RaceCard) compare(d RaceCard) int {
	return cmp.Or(cmp.Compare(c.Rank, d.Rank), cmp.Compare(c.Suit, d.Suit))
}

// Racer is a player at a table being coloured up.
type Racer struct {
	Seat   Seat     `json:"seat"`
	Player PlayerID `json:"player"`
	Stack  int64    `json:"stack"`
}

// RaceResult is the outcome of a chip race, in the order of the racers given.
type RaceResult struct {
	// Stacks are the stacks after the colour-up, all whole numbers of the new smallest chip.
	Stacks []int64 `json:"stacks"`
	// OddChips are each player's chips of the old denomination that could not be changed.
	OddChips []int `json:"oddChips"`
	// Cards are the race cards each player was dealt, one per odd chip.
	Cards [][]RaceCard `json:"cards"`
	// Winners won a new chip each, best card first.
	Winners []PlayerID `json:"winners,omitempty"`
	// Saved were left with no chips and were given one (nobody is raced out).
	Saved []PlayerID `json:"saved,omitempty"`
	// Added is the chips the race put in play (it can be negative); ChipLedger.ColorUp adds it up.
	Added int64 `json:"added"`
}

// ChipRace colours a table up when the chip removed leaves play and next becomes the smallest
// (R8, 003 r2, TDA). Each player changes all the removed chips he can; the rest are his odd chips.
// Their total value, rounded to the nearest next chip (half up), is the number of new chips
// raced. A deck shuffled with r is dealt one card at a time clockwise from seat 1, one card for
// each odd chip a player holds; the highest card wins the first new chip, the next highest of
// another player the second, and so on: a player wins at most one. A player left with no chips is
// given one chip of next: nobody is raced out.
func ChipRace(racers []Racer, removed, next int64, r io.Reader) (RaceResult, error) {
	deck := make([]RaceCard, 0, 52)
	for suit := range 4 {
		for rank := 2; rank <= 14; rank++ {
			deck = append(deck, RaceCard{Rank: rank, Suit: suit})
		}
	}
	if err := verifyRace(racers, removed, next); err != nil {
		return RaceResult{}, err
	}
	if err := shuffle(r, len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] }); err != nil {
		return RaceResult{}, err
	}
	return raceWithDeck(racers, removed, next, deck)
}

func verifyRace(racers []Racer, removed, next int64) error {
	if removed <= 0 || next <= removed || next%removed != 0 {
		return ruleErr("R8", "colouring up chips of %d to %d: the new chip must be a multiple of the old", removed, next)
	}
	seen := map[Seat]bool{}
	for _, p := range racers {
		if p.Stack <= 0 || p.Stack%removed != 0 {
			return ruleErr("R8", "%s's stack of %d is not a whole number of chips of %d", p.Player, p.Stack, removed)
		}
		if p.Seat < 1 || seen[p.Seat] {
			return ruleErr("R8", "%s's seat %d is missing or taken twice", p.Player, p.Seat)
		}
		seen[p.Seat] = true
	}
	return nil
}

// raceWithDeck runs the race dealing deck from its top: ChipRace's body, open to tests that fix
// the cards.
func raceWithDeck(racers []Racer, removed, next int64, deck []RaceCard) (RaceResult, error) {
	if err := verifyRace(racers, removed, next); err != nil {
		return RaceResult{}, err
	}
	n := len(racers)
	res := RaceResult{Stacks: make([]int64, n), OddChips: make([]int, n), Cards: make([][]RaceCard, n)}
	var odd, cards int64
	for i, p := range racers {
		v := p.Stack % next
		res.OddChips[i] = int(v / removed)
		res.Stacks[i] = p.Stack - v
		odd += v
		cards += v / removed
	}
	if cards > int64(len(deck)) {
		return RaceResult{}, ruleErr("R8", "the race needs %d cards, more than a deck: colour up in smaller steps", cards)
	}
	raced := odd / next
	if 2*(odd%next) >= next {
		raced++
	}
	// Deal clockwise from seat 1, a card a time, to every player still owed cards.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(racers[a].Seat, racers[b].Seat) })
	for dealt := 0; int64(dealt) < cards; {
		for _, i := range order {
			if len(res.Cards[i]) < res.OddChips[i] {
				res.Cards[i] = append(res.Cards[i], deck[dealt])
				dealt++
			}
		}
	}
	// Rank the players in the race by their best card; the first raced win a chip each.
	var inRace []int
	best := make([]RaceCard, n)
	for i, cs := range res.Cards {
		if len(cs) > 0 {
			inRace = append(inRace, i)
			best[i] = slices.MaxFunc(cs, RaceCard.compare)
		}
	}
	slices.SortFunc(inRace, func(a, b int) int { return best[b].compare(best[a]) })
	for _, i := range inRace[:raced] {
		res.Stacks[i] += next
		res.Winners = append(res.Winners, racers[i].Player)
	}
	for i := range res.Stacks {
		if res.Stacks[i] == 0 {
			res.Stacks[i] = next
			res.Saved = append(res.Saved, racers[i].Player)
		}
		res.Added += res.Stacks[i] - racers[i].Stack
	}
	return res, nil
}
