package eval

import (
	"errors"
	"testing"
)

func TestParseCard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		err  string
	}{
		{in: "Ah", want: "Ah"},
		{in: "td", want: "Td"},
		{in: "2C", want: "2c"},
		{in: "10s", want: "Ts"},
		{in: "1h", err: `bad card "1h": unknown rank '1' (expected a rank of 23456789TJQKA followed by a suit of cdhs, like Ah or Td)`},
		{in: "Ax", err: `bad card "Ax": unknown suit 'x' (expected a rank of 23456789TJQKA followed by a suit of cdhs, like Ah or Td)`},
		{in: "A", err: `bad card "A": a card is two characters (expected a rank of 23456789TJQKA followed by a suit of cdhs, like Ah or Td)`},
	} {
		c, err := ParseCard(tc.in)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseCard(%q) error %v, want %s", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("ParseCard(%q): %v", tc.in, err)
		case c.String() != tc.want:
			t.Errorf("ParseCard(%q) = %s, want %s", tc.in, c, tc.want)
		}
	}
}

func TestParseCards(t *testing.T) {
	cs, err := ParseCards("AhKd Qc,Js")
	if err != nil || CardsString(cs) != "AhKdQcJs" {
		t.Fatalf("ParseCards = %v, %v", cs, err)
	}
	_, err = ParseCards("AhAh")
	var dup *ErrDuplicateCard
	if !errors.As(err, &dup) || dup.Card.String() != "Ah" {
		t.Errorf("duplicate: %v", err)
	}
	if cs, err := ParseCards(""); err != nil || len(cs) != 0 {
		t.Errorf("empty: %v %v", cs, err)
	}
	if _, err := ParseCards("AhK"); err == nil {
		t.Error("odd length accepted")
	}
}

func TestCardsRoundTrip(t *testing.T) {
	var all CardSet
	for i := 0; i < NumCards; i++ {
		c := CardFromIndex(i)
		if c.Index() != i || !c.Valid() {
			t.Fatalf("card %d: %v index %d", i, c, c.Index())
		}
		back, err := ParseCard(c.String())
		if err != nil || back != c {
			t.Fatalf("%v does not round-trip: %v %v", c, back, err)
		}
		all = all.Add(c)
	}
	if all != FullDeck || all.Len() != 52 || len(all.Cards()) != 52 {
		t.Errorf("deck set %x", uint64(all))
	}
}
