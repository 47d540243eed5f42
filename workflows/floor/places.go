package floor

// Elimination is one player out of chips, with his stack at the start of the hand that busted
// him: it decides his place against the others busted with him (R7).
type Elimination struct {
	Player PlayerID `json:"player"`
	Stack  int64    `json:"stack"`
}

// Standing is a finishing place. Players who share places (R7: busted together with equal stacks)
// all have the best place of the group as Place, and Shared says how many share the places from
// Place to Place+Shared-1.
type Standing struct {
	Player PlayerID `json:"player"`
	Place  int      `json:"place"`
	Shared int      `json:"shared"`
}

// Result is the standings so far, best place first, and whether the tournament is over.
type Result struct {
	Standings []Standing `json:"standings"`
	Finished  bool       `json:"finished"`
	Left      []PlayerID `json:"left,omitempty"` // players still in, in entry order
}

// Places gives the finishing places from the eliminations so far (R5, R7). field is every entry;
// busts holds one group per hand, or per hand-for-hand round, that eliminated anyone, in the order
// they happened. A group takes the worst places still free; within it the larger starting stack
// places higher, and equal stacks share places (listed by player ID). The tournament ends at the
// second-to-last elimination (R5): the one player left is first.
func Places(field []PlayerID, busts [][]Elimination) (Result, error) {
	in := make(map[PlayerID]bool, len(field))
	for _, p := range field {
		if p == "" || in[p] {
			return Result{}, ruleErr("R5", "entry %q is missing or repeated", p)
		}
		in[p] = true
	}
	left := len(field)
	var standings []Standing
	for k, group := range busts {
		if left <= 1 {
			return Result{}, ruleErr("R5", "elimination group %d comes after the tournament ended", k+1)
		}
		if len(group) >= left {
			return Result{}, ruleErr("R5", "elimination group %d busts all %d players left: one must win the hand", k+1, left)
		}
		for _, e := range group {
			if !in[e.Player] {
				return Result{}, ruleErr("R5", "%q is not in the tournament", e.Player)
			}
			in[e.Player] = false
		}
		placed, err := PlaceGroup(left, group)
		if err != nil {
			return Result{}, err
		}
		standings = append(placed, standings...)
		left -= len(group)
	}
	res := Result{Standings: standings}
	for _, p := range field {
		if in[p] {
			res.Left = append(res.Left, p)
		}
	}
	if left == 1 {
		res.Finished = true
		res.Standings = append([]Standing{{Player: res.Left[0], Place: 1, Shared: 1}}, standings...)
		res.Left = nil
	}
	return res, nil
}

// Award is one player's prize.
type Award struct {
	Standing
	Prize int64 `json:"prize"`
}

// AwardPrizes pays the standings from the prizes (prizes[0] first place's). Players who share
// places split the sum of those places' prizes equally, rounded down to unit, and the units left
// over go one each to the sharing players in the order listed, so the awards add up exactly.
func AwardPrizes(standings []Standing, prizes []int64, unit int64) []Award {
	if unit <= 0 {
		unit = 1
	}
	prize := func(place int) int64 {
		if place >= 1 && place <= len(prizes) {
			return prizes[place-1]
		}
		return 0
	}
	awards := make([]Award, len(standings))
	for i := 0; i < len(standings); {
		s := standings[i]
		n := max(s.Shared, 1)
		j := min(i+n, len(standings))
		var sum int64
		for pl := s.Place; pl < s.Place+n; pl++ {
			sum += prize(pl)
		}
		base := sum / int64(n) / unit * unit
		rest := sum - base*int64(n)
		for k := i; k < j; k++ {
			extra := min(unit, rest)
			rest -= extra
			awards[k] = Award{Standing: standings[k], Prize: base + extra}
		}
		if rest > 0 {
			awards[i].Prize += rest
		}
		i = j
	}
	return awards
}

// HandForHand says whether play goes hand-for-hand (R7): from playersBefore players before the
// money (at least 1: the bubble) until the money is reached. Eliminations in one hand-for-hand
// round are then one group for Places.
func HandForHand(playersLeft, paidPlaces, playersBefore int) bool {
	playersBefore = max(playersBefore, 1)
	return playersLeft > paidPlaces && playersLeft <= paidPlaces+playersBefore
}
