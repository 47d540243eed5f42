package fairdeal

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/engine/replay"
	"github.com/pokerfloor/pokerfloor/eval"
)

// chacha is a deterministic reader for the server seeds of tests (production reads crypto/rand).
func chacha(seed byte) *rand.ChaCha8 {
	var s [32]byte
	s[0] = seed
	return rand.NewChaCha8(s)
}

// slowDeck is the package doc's algorithm written out the long way: the whole stream first, the
// whole deck shuffled; the Source's lazy draws must agree with it.
func slowDeck(d Deal) []eval.Card {
	mac := hmac.New(sha256.New, d.ServerSeed[:])
	msg := []byte(domain)
	for i, p := range d.Players {
		msg = binary.BigEndian.AppendUint32(msg, uint32(len(p)))
		msg = append(msg, p...)
		msg = binary.BigEndian.AppendUint32(msg, uint32(len(d.ClientSeeds[i])))
		msg = append(msg, d.ClientSeeds[i]...)
	}
	mac.Write(msg)
	key := mac.Sum(nil)
	var stream []uint64
	for b := uint64(0); b < 64; b++ {
		m := hmac.New(sha256.New, key)
		m.Write(binary.BigEndian.AppendUint64(nil, b))
		sum := m.Sum(nil)
		for i := 0; i < 4; i++ {
			stream = append(stream, binary.BigEndian.Uint64(sum[8*i:]))
		}
	}
	deck := make([]eval.Card, 52)
	for i := range deck {
		deck[i] = eval.CardFromIndex(i)
	}
	for k := 0; k < 52; k++ {
		left := uint64(52 - k)
		for {
			v := stream[0]
			stream = stream[1:]
			if v < (^uint64(0)/left)*left || (^uint64(0)/left)*left == 0 {
				j := k + int(v%left)
				deck[k], deck[j] = deck[j], deck[k]
				break
			}
		}
	}
	return deck
}

func TestSourceDealsThePublishedAlgorithm(t *testing.T) {
	src, err := NewSource(chacha(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, seeds := range [][2]string{{"", ""}, {"ada", "lucky"}, {"bo", ""}} {
		if err := src.SetClientSeed(seeds[0], seeds[1]); err != nil {
			t.Fatal(err)
		}
		commit := src.Commitment()
		src.Shuffle()
		var got []eval.Card
		for i := 0; i < 52; i++ {
			got = append(got, src.Draw())
		}
		if src.Draw() != 0xff {
			t.Fatal("a 53rd card")
		}
		d, ok := src.Reveal()
		if !ok || d.Commitment != commit || Commit(d.ServerSeed) != commit {
			t.Fatalf("revealed %+v, committed %s", d, commit)
		}
		if src.Commitment() == commit {
			t.Fatal("the next deal reuses the seed")
		}
		if want := slowDeck(d); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seeds %v: the source dealt\n%v\nthe algorithm deals\n%v", seeds, got, want)
		}
		if eval.NewCardSet(got...).Len() != 52 {
			t.Fatal("not a permutation of the deck")
		}
	}
}

// A client seed changes the deal: the server cannot know the deck before the players' seeds are in.
func TestClientSeedChangesTheDeal(t *testing.T) {
	d := Deal{ServerSeed: [32]byte{9}}
	d.Commitment = Commit(d.ServerSeed)
	a, err := d.Cards(9)
	if err != nil {
		t.Fatal(err)
	}
	d.Players, d.ClientSeeds = []string{"ada"}, []string{"x"}
	b, _ := d.Cards(9)
	if fmt.Sprint(a) == fmt.Sprint(b) {
		t.Fatal("the client seed did not change the cards")
	}
	d.Commitment = Commit([32]byte{8})
	if _, err := d.Cards(9); err == nil || !strings.Contains(err.Error(), "commitment") {
		t.Fatalf("a seed that is not the committed one: %v", err)
	}
}

// rule D1: the first card is uniform (a chi-square test over deterministic seeds: it cannot flake).
func TestRuleD1FirstCardUniform(t *testing.T) {
	const deals = 52 * 400
	var count [52]int
	r := chacha(3)
	for i := 0; i < deals; i++ {
		var d Deal
		r.Read(d.ServerSeed[:])
		d.Commitment = Commit(d.ServerSeed)
		c, _ := d.Cards(1)
		count[c[0].Index()]++
	}
	chi := 0.0
	for _, n := range count {
		x := float64(n) - deals/52.0
		chi += x * x / (deals / 52.0)
	}
	if chi > 90 { // 51 degrees of freedom: p < 0.001 above 90
		t.Fatalf("chi-square %.1f over 51 degrees of freedom: the first card is not uniform", chi)
	}
}

// playHands deals n hands of bots at a table with the source and returns their histories, annotated.
func playHands(t *testing.T, seats, n int) []*phh.Hand {
	t.Helper()
	src, err := NewSource(chacha(5))
	if err != nil {
		t.Fatal(err)
	}
	tb, err := engine.NewTable(engine.Config{Seats: seats}, engine.Level{SmallBlind: 50, BigBlind: 100, Ante: 10}, src)
	if err != nil {
		t.Fatal(err)
	}
	deciders := bot.Players(11, bot.KindRandom, bot.KindStrength)
	for s := 0; s < seats; s++ {
		id := fmt.Sprintf("p%02d", s)
		if err := tb.Sit(s, id, 5000, engine.Active); err != nil {
			t.Fatal(err)
		}
		if s%2 == 0 {
			src.SetClientSeed(id, fmt.Sprintf("seed of %s", id))
		}
	}
	if err := tb.SetButton(0); err != nil {
		t.Fatal(err)
	}
	var out []*phh.Hand
	for len(out) < n {
		for s := 0; s < seats; s++ { // keep everyone in: a fresh stack for the busted
			if tb.Stack(s) == 0 {
				_ = tb.SetStack(s, 5000)
				_ = tb.SetState(s, engine.Active)
			}
		}
		if err := tb.StartHand(); err != nil {
			t.Fatal(err)
		}
		for tb.Phase() == engine.Betting {
			s := tb.ToAct()
			v := tb.View(s)
			d, err := deciders.Decider(tb.Player(s).ID).Decide(context.Background(), &v)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tb.Act(s, d.Action, d.To); err != nil {
				t.Fatal(err)
			}
		}
		h, err := replay.Export(tb)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := src.Reveal()
		Annotate(h, d)
		b, err := h.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := phh.Parse(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		out = append(out, back)
	}
	return out
}

// rules D2, D3: every card of real hands, heads-up to nine-handed, re-derives from the recorded seeds.
func TestRuleD2VerifyAcceptsTheHandsDealt(t *testing.T) {
	for _, seats := range []int{2, 3, 6, 9} {
		hands := playHands(t, seats, 60)
		cards := 0
		for _, h := range hands {
			n, err := Verify(h)
			if err != nil {
				b, _ := h.Marshal()
				t.Fatalf("%d seats: %v\n%s", seats, err, b)
			}
			cards += n
		}
		if cards < 60*2*seats {
			t.Fatalf("%d seats: only %d cards checked", seats, cards)
		}
	}
}

// One changed card is rejected, wherever it is; so are a changed seed and a history without a deal.
func TestVerifyRejectsOneChangedCard(t *testing.T) {
	hands := playHands(t, 6, 40)
	var withBoard *phh.Hand
	for _, h := range hands {
		if strings.Contains(strings.Join(h.Actions, "\n"), "d db") {
			withBoard = h
			break
		}
	}
	if withBoard == nil {
		t.Fatal("no hand saw a flop")
	}
	b, _ := withBoard.Marshal()
	for i, a := range withBoard.ParsedActions {
		if a.Kind != phh.DealHole && a.Kind != phh.DealBoard {
			continue
		}
		// Swap the action's first card for one dealt nowhere in the hand.
		used := eval.CardSet(0)
		for _, x := range withBoard.ParsedActions {
			used = used | eval.NewCardSet(x.Cards...)
		}
		var spare eval.Card
		for j := 0; j < 52; j++ {
			if c := eval.CardFromIndex(j); !used.Has(c) {
				spare = c
				break
			}
		}
		// The same card changes wherever the history names it (a shown hand too), so that the
		// history still reads; only the deal can tell.
		old := withBoard.Actions[i]
		lines := append([]string(nil), withBoard.Actions...)
		for k, l := range lines {
			if k == i || strings.HasSuffix(l, " sm "+a.Cards[0].String()+a.Cards[1%len(a.Cards)].String()) {
				lines[k] = strings.Replace(l, a.Cards[0].String(), spare.String(), 1)
			}
		}
		h := *withBoard
		h.Actions, h.ParsedActions = lines, nil
		text, err := h.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := phh.Parse(text)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		var m Mismatch
		if _, err := Verify(back); !errors.As(err, &m) || m.History != spare {
			t.Fatalf("action %q changed to show %s: Verify says %v", old, spare, err)
		}
	}
	seed := withBoard.Extra[FieldServerSeed].(string)
	other := strings.Replace(string(b), seed, strings.Repeat("0", 64), 1)
	h, err := phh.Parse([]byte(other))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(h); err == nil || !strings.Contains(err.Error(), "commitment") {
		t.Fatalf("a changed server seed: %v", err)
	}
	plain := bytes.Split(b, []byte("\n_deal"))[0]
	if h, err = phh.Parse(plain); err != nil {
		t.Fatalf("%v\n%s", err, plain)
	}
	if _, err := Verify(h); err == nil || !strings.Contains(err.Error(), FieldCommitment) {
		t.Fatalf("a history without a deal: %v", err)
	}
}
