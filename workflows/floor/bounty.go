package floor

import (
	"cmp"
	"math/bits"
	"slices"
)

// BountySplit says who takes a bounty when several players win chips from the player knocked out.
type BountySplit string

// The bounty splits.
const (
	// BountyLastChips (the default) is the big sites' published rule (GGPoker and Natural8's FAQ,
	// bwin's PKO page): the bounty goes to whoever wins the knocked-out player's last chips, the
	// pot holding the top of his stack, even when another player won a lower pot from him; players
	// who split that pot split the bounty equally, the odd cents to the earliest position.
	BountyLastChips BountySplit = "lastChips"
	// BountyChipsWon shares the bounty among everyone who won chips from him in the hand, in
	// proportion to those chips: a reading of "split by the chips won" for events that state it.
	BountyChipsWon BountySplit = "chipsWon"
)

// DefaultBountyCashPercent is the usual progressive knockout: half of a bounty in cash, half onto
// the eliminator's own bounty.
const DefaultBountyCashPercent = 50

// Bounty is a progressive knockout (PKO) event's rule. Part of every buy-in, first entries and
// re-entries alike, is the entry's starting bounty; it is kept apart from the prize pool and the
// fee. Knocking a player out pays CashPercent of his bounty in cash at once and adds the rest to
// the eliminator's own bounty; the winner is paid his own bounty at the end. Rebuys and add-ons
// buy chips and the prize pool only: a bounty is one per entry.
type Bounty struct {
	// StartCents is the starting bounty each entry's buy-in pays for, in cents.
	StartCents int64 `json:"startCents"`
	// CashPercent is the share of a bounty paid in cash to whoever knocks its player out, 1 to 100
	// (100: a plain knockout, nothing carried); 0 means DefaultBountyCashPercent.
	CashPercent int `json:"cashPercent,omitempty"`
	// Split is BountyLastChips (the default, "" too) or BountyChipsWon.
	Split BountySplit `json:"split,omitempty"`
}

func (b Bounty) cashPercent() int {
	if b.CashPercent == 0 {
		return DefaultBountyCashPercent
	}
	return b.CashPercent
}

// Verify says what is wrong with the rule for entries at e's buy-in, or returns nil.
func (b Bounty) Verify(e Entries) error {
	switch {
	case b.StartCents <= 0:
		return ruleErr("R6", "starting bounty %d cents: expected a positive part of the buy-in", b.StartCents)
	case b.StartCents >= e.BuyIn-e.Fee:
		return ruleErr("R6", "starting bounty %d cents leaves nothing of the buy-in %d (fee %d) for the prize pool: expected less than %d",
			b.StartCents, e.BuyIn, e.Fee, e.BuyIn-e.Fee)
	}
	return b.verifySplit()
}

// verifySplit checks how a bounty is shared: the cash share and the split.
func (b Bounty) verifySplit() error {
	if b.CashPercent < 0 || b.CashPercent > 100 {
		return ruleErr("R6", "bounty cash share %d%%: expected 1 to 100 (0 for the usual %d)", b.CashPercent, DefaultBountyCashPercent)
	}
	switch b.Split {
	case "", BountyLastChips, BountyChipsWon:
		return nil
	}
	return ruleErr("R6", "bounty split %q: expected %q or %q", b.Split, BountyLastChips, BountyChipsWon)
}

// PrizeEntries is e as the prize pool sees it: each entry's buy-in less its bounty, so that
// PrizePool and ComputePayouts share only the prize part (R6). Rebuys keep their price.
func (b Bounty) PrizeEntries(e Entries) (Entries, error) {
	if err := b.Verify(e); err != nil {
		return Entries{}, err
	}
	if e.RebuyPrice == 0 {
		e.RebuyPrice, e.RebuyFee = e.BuyIn, e.Fee
	}
	e.BuyIn -= b.StartCents
	return e, nil
}

// PoolCents is the bounty share of the buy-ins: every entry's starting bounty. Everything paid
// out for bounties adds up to it.
func (b Bounty) PoolCents(e Entries) int64 { return int64(e.Field()) * b.StartCents }

// BountyTaker is a player who won chips from the knocked-out player in the hand that busted him.
type BountyTaker struct {
	Player PlayerID `json:"player"`
	// ChipsWon is how many of the knocked-out player's chips he won in that hand.
	ChipsWon int64 `json:"chipsWon"`
	// LastChips is set when he won, or shares, the pot holding the knocked-out player's last chips.
	LastChips bool `json:"lastChips,omitempty"`
}

// Knockout is one player busted and the players who won his chips, listed in the table's order
// from the first seat after the button (S2's order, which takes the odd cents).
type Knockout struct {
	Player      PlayerID      `json:"player"`
	BountyCents int64         `json:"bountyCents"` // his bounty when he busted
	Takers      []BountyTaker `json:"takers"`
}

// BountyShare is what one eliminator gets from a knockout: cash now, and the rest onto his bounty.
type BountyShare struct {
	Player    PlayerID `json:"player"`
	CashCents int64    `json:"cashCents"`
	HeadCents int64    `json:"headCents"` // added to his own bounty
}

// SplitKnockout shares a knocked-out player's bounty among the takers by b's split, then each
// share into cash and bounty. To the cent: the split's odd cents go one each to the takers in the
// order given; a share's cash is CashPercent of it rounded down, and the odd cent stays on the
// eliminator's bounty, so it is paid in the end and nothing is lost. The shares add up to the
// bounty exactly.
func (b Bounty) SplitKnockout(k Knockout) ([]BountyShare, error) {
	if err := b.verifySplit(); err != nil {
		return nil, err
	}
	if k.Player == "" {
		return nil, ruleErr("R6", "a knockout names no player")
	}
	if k.BountyCents < 0 {
		return nil, ruleErr("R6", "%s's bounty is %d cents: expected 0 or more", k.Player, k.BountyCents)
	}
	if len(k.Takers) == 0 {
		return nil, ruleErr("R6", "%s's knockout names no player who won his chips: a bust has an eliminator", k.Player)
	}
	weights := make([]int64, len(k.Takers))
	var total int64
	for i, t := range k.Takers {
		switch {
		case t.Player == "" || t.Player == k.Player:
			return nil, ruleErr("R6", "taker %d of %s's bounty is %q: expected another player at his table", i+1, k.Player, t.Player)
		case t.ChipsWon < 0:
			return nil, ruleErr("R6", "%s won %d chips from %s: expected 0 or more", t.Player, t.ChipsWon, k.Player)
		case slices.ContainsFunc(k.Takers[:i], func(o BountyTaker) bool { return o.Player == t.Player }):
			return nil, ruleErr("R6", "%s is listed twice among %s's eliminators", t.Player, k.Player)
		}
		switch b.Split {
		case BountyChipsWon:
			weights[i] = t.ChipsWon
		default:
			if t.LastChips {
				weights[i] = 1
			}
		}
		sum, carry := bits.Add64(uint64(total), uint64(weights[i]), 0)
		if carry != 0 || sum > 1<<62 {
			return nil, ruleErr("R6", "the chips won from %s overflow", k.Player)
		}
		total = int64(sum)
	}
	if total == 0 {
		if b.Split == BountyChipsWon {
			return nil, ruleErr("R6", "nobody won chips from %s: a knockout needs a taker who won some", k.Player)
		}
		return nil, ruleErr("R6", "nobody is marked as winning %s's last chips: the pot holding them has a winner", k.Player)
	}
	shares := make([]int64, len(weights))
	var given int64
	for i, w := range weights {
		hi, lo := bits.Mul64(uint64(k.BountyCents), uint64(w))
		q, _ := bits.Div64(hi, lo, uint64(total)) // hi < total since w <= total
		shares[i] = int64(q)
		given += shares[i]
	}
	for i := 0; given < k.BountyCents; i = (i + 1) % len(shares) {
		if weights[i] > 0 {
			shares[i]++
			given++
		}
	}
	pct := int64(b.cashPercent())
	var out []BountyShare
	for i, s := range shares {
		if weights[i] == 0 {
			continue
		}
		hi, lo := bits.Mul64(uint64(s), uint64(pct))
		cash, _ := bits.Div64(hi, lo, 100)
		out = append(out, BountyShare{Player: k.Takers[i].Player, CashCents: int64(cash), HeadCents: s - int64(cash)})
	}
	return out, nil
}

// BountyBoard is the bounties of a set of entries, with what they have been paid: for a small
// event the whole field, at scale one section's players (a knockout is always between players
// at one table). Its invariant, Check: the bounties on the heads still in, plus the cash paid,
// plus the unclaimed, equal the starting bounty of every entry.
type BountyBoard struct {
	Rule    Bounty             `json:"rule"`
	Entries int                `json:"entries"`
	Heads   map[PlayerID]int64 `json:"headsCents"`
	// PaidCents is the cash paid for knockouts and to the winner.
	PaidCents int64 `json:"paidCents"`
	// UnclaimedCents is the bounties of players who left with nobody knocking them out (a
	// disqualified player, P4): it goes to the winner with his own.
	UnclaimedCents int64 `json:"unclaimedCents,omitempty"`
}

// NewBountyBoard starts an empty board for the rule (which Verify checks against the buy-in).
func NewBountyBoard(rule Bounty) (*BountyBoard, error) {
	if rule.StartCents <= 0 {
		return nil, ruleErr("R6", "starting bounty %d cents: expected a positive part of the buy-in", rule.StartCents)
	}
	if err := rule.verifySplit(); err != nil {
		return nil, err
	}
	return &BountyBoard{Rule: rule, Heads: map[PlayerID]int64{}}, nil
}

// Enter puts a new entry's (or re-entry's) starting bounty on his head.
func (bb *BountyBoard) Enter(p PlayerID) error {
	if _, in := bb.Heads[p]; in || p == "" {
		return ruleErr("R1", "entry %q is empty or already has a bounty: each entry is a new player ID", p)
	}
	bb.Heads[p] = bb.Rule.StartCents
	bb.Entries++
	return nil
}

// Withdraw takes back an entry's bounty with his refund (unregistered before the start, or a
// no-show removed): it returns the bounty refunded, which was never played for.
func (bb *BountyBoard) Withdraw(p PlayerID) (int64, error) {
	h, in := bb.Heads[p]
	if !in {
		return 0, ruleErr("R1", "%s has no bounty on the board", p)
	}
	if h != bb.Rule.StartCents {
		return 0, ruleErr("R1", "%s's bounty is %d cents, not the starting %d: he has knocked players out and cannot be refunded", p, h, bb.Rule.StartCents)
	}
	delete(bb.Heads, p)
	bb.Entries--
	return h, nil
}

// KnockoutPaid is a knockout as paid: the bounty and its shares.
type KnockoutPaid struct {
	Player      PlayerID      `json:"player"`
	BountyCents int64         `json:"bountyCents"`
	Shares      []BountyShare `json:"shares"`
}

// Knockout pays the bounty of a player busted: k's BountyCents is read from the board. Players
// knocked out in one hand are each paid on his own, in any order: a taker is never busted.
func (bb *BountyBoard) Knockout(k Knockout) (KnockoutPaid, error) {
	h, in := bb.Heads[k.Player]
	if !in {
		return KnockoutPaid{}, ruleErr("R6", "%s has no bounty on the board: already out, or never entered", k.Player)
	}
	for _, t := range k.Takers {
		if _, ok := bb.Heads[t.Player]; !ok {
			return KnockoutPaid{}, ruleErr("R6", "%s won %s's chips but is not in the tournament", t.Player, k.Player)
		}
	}
	k.BountyCents = h
	shares, err := bb.Rule.SplitKnockout(k)
	if err != nil {
		return KnockoutPaid{}, err
	}
	delete(bb.Heads, k.Player)
	for _, s := range shares {
		bb.PaidCents += s.CashCents
		bb.Heads[s.Player] += s.HeadCents
	}
	return KnockoutPaid{Player: k.Player, BountyCents: h, Shares: shares}, nil
}

// Forfeit removes a player who leaves without a knockout (disqualified, P4): his bounty waits,
// unclaimed, for the winner.
func (bb *BountyBoard) Forfeit(p PlayerID) error {
	h, in := bb.Heads[p]
	if !in {
		return ruleErr("P4", "%s has no bounty on the board", p)
	}
	delete(bb.Heads, p)
	bb.UnclaimedCents += h
	return nil
}

// Finish pays the winner, the last player with a bounty, his own bounty and the unclaimed ones,
// in cash (R5). It returns what he is paid.
func (bb *BountyBoard) Finish(winner PlayerID) (int64, error) {
	h, in := bb.Heads[winner]
	if !in || len(bb.Heads) != 1 {
		return 0, ruleErr("R5", "%s cannot take the last bounty: %d players still have one", winner, len(bb.Heads))
	}
	paid := h + bb.UnclaimedCents
	delete(bb.Heads, winner)
	bb.UnclaimedCents = 0
	bb.PaidCents += paid
	return paid, nil
}

// Check verifies the board's invariant: bounties on heads, cash paid and unclaimed add up to the
// starting bounties of its entries.
func (bb *BountyBoard) Check() error {
	var heads int64
	for _, h := range bb.Heads {
		heads += h
	}
	if got, want := heads+bb.PaidCents+bb.UnclaimedCents, int64(bb.Entries)*bb.Rule.StartCents; got != want {
		return ruleErr("R6", "bounties add up to %d cents (heads %d, paid %d, unclaimed %d), the entries paid %d", got, heads, bb.PaidCents, bb.UnclaimedCents, want)
	}
	return nil
}

// Leaders are the players with the largest bounties, at most n, largest first (ties by player).
func (bb *BountyBoard) Leaders(n int) []BountyShare {
	out := make([]BountyShare, 0, len(bb.Heads))
	for p, h := range bb.Heads {
		out = append(out, BountyShare{Player: p, HeadCents: h})
	}
	slices.SortFunc(out, func(a, b BountyShare) int {
		return cmp.Or(cmp.Compare(b.HeadCents, a.HeadCents), cmp.Compare(a.Player, b.Player))
	})
	return out[:min(n, len(out))]
}
