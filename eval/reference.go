package eval

// The reference evaluator: slow and written to be obviously right. Tests hold the fast evaluator to
// it; BestFive uses it to pick the five cards a showdown shows.

// referenceClass names the poker hand of exactly five cards, the way a dealer reads it: is it a flush,
// is it a straight, and how are the ranks grouped.
func referenceClass(five *[5]Card) class {
	var ranks [5]Rank
	flush := true
	for i, c := range five {
		ranks[i] = c.Rank()
		flush = flush && c.Suit() == five[0].Suit()
	}
	sortDescending(ranks[:], func(a, b Rank) bool { return a > b })

	straight, top := false, ranks[0]
	if ranks[0]-ranks[4] == 4 && distinct(ranks[:]) {
		straight = true
	} else if ranks == [5]Rank{Ace, Five, Four, Three, Two} {
		straight, top = true, Five // the wheel: the ace plays low
	}

	// Group equal ranks, bigger groups first, then higher ranks first: KKK55 → K K K 5 5.
	var count [13]int
	for _, r := range ranks {
		count[r]++
	}
	laid := ranks
	sortDescending(laid[:], func(a, b Rank) bool {
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return a > b
	})

	switch {
	case straight && flush:
		return class{StraightFlush, straightRanks(top)}
	case count[laid[0]] == 4:
		return class{FourOfAKind, laid}
	case count[laid[0]] == 3 && count[laid[3]] == 2:
		return class{FullHouse, laid}
	case flush:
		return class{Flush, laid}
	case straight:
		return class{Straight, straightRanks(top)}
	case count[laid[0]] == 3:
		return class{ThreeOfAKind, laid}
	case count[laid[0]] == 2 && count[laid[2]] == 2:
		return class{TwoPair, laid}
	case count[laid[0]] == 2:
		return class{OnePair, laid}
	}
	return class{HighCard, laid}
}

// sortDescending is an insertion sort: before(a, b) says a goes first.
func sortDescending(rs []Rank, before func(a, b Rank) bool) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && before(rs[j], rs[j-1]); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

func distinct(ranks []Rank) bool {
	for i := 1; i < len(ranks); i++ {
		if ranks[i] == ranks[i-1] {
			return false
		}
	}
	return true
}

// forEachFive calls f with every five-card subset of cards.
func forEachFive(cards []Card, f func(*[5]Card)) {
	n := len(cards)
	var five [5]Card
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				for d := c + 1; d < n; d++ {
					for e := d + 1; e < n; e++ {
						five = [5]Card{cards[a], cards[b], cards[c], cards[d], cards[e]}
						f(&five)
					}
				}
			}
		}
	}
}

// ReferenceEvaluate is the slow evaluator: the best Value among all five-card subsets of 5 to 7
// cards, each read by referenceClass. It exists to check Evaluate and is far slower.
func ReferenceEvaluate(cards ...Card) Value {
	var best class
	forEachFive(cards, func(five *[5]Card) {
		if c := referenceClass(five); c.key() > best.key() {
			best = c
		}
	})
	if best.cat == NoHand {
		return 0
	}
	return valueOfClass(best)
}
