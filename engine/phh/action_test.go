package phh

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/eval"
)

func TestParseAction(t *testing.T) {
	cards := eval.MustParseCards
	for _, tc := range []struct {
		in   string
		want Action
		out  string // String(), when it differs from in
	}{
		{"d dh p1 Kc8s", Action{Player: 1, Kind: DealHole, Cards: cards("Kc8s")}, ""},
		{"d dh p10 ????", Action{Player: 10, Kind: DealHole, Unknown: true}, ""},
		{"d db JcTs2d", Action{Kind: DealBoard, Cards: cards("JcTs2d")}, ""},
		{"d db As", Action{Kind: DealBoard, Cards: cards("As")}, ""},
		{"p3 f", Action{Player: 3, Kind: Fold}, ""},
		{"p2 cc", Action{Player: 2, Kind: CheckCall}, ""},
		{"p4 cbr 225", Action{Player: 4, Kind: CompleteBetRaise, Amount: 225}, ""},
		{"p4 cbr 225.0", Action{Player: 4, Kind: CompleteBetRaise, Amount: 225}, "p4 cbr 225"},
		{"p4 sm Js8h", Action{Player: 4, Kind: ShowMuck, Cards: cards("Js8h")}, ""},
		{"p4 sm", Action{Player: 4, Kind: ShowMuck}, ""},
		{"p4 sm ????", Action{Player: 4, Kind: ShowMuck, Unknown: true}, ""},
		{"p1 cbr 1387 # a shove", Action{Player: 1, Kind: CompleteBetRaise, Amount: 1387, Comment: "a shove"}, ""},
		{"  p1   f  #  tank fold ", Action{Player: 1, Kind: Fold, Comment: "tank fold"}, "p1 f # tank fold"},
		{"", Action{}, ""},
		{"   ", Action{}, ""},
		{"# Burn card 6s is exposed", Action{Comment: "Burn card 6s is exposed"}, ""},
	} {
		got, err := ParseAction(tc.in)
		if err != nil {
			t.Errorf("ParseAction(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseAction(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		out := tc.out
		if out == "" {
			out = strings.TrimSpace(tc.in)
		}
		if s := got.String(); s != out {
			t.Errorf("ParseAction(%q).String() = %q, want %q", tc.in, s, out)
		}
		if back, err := ParseAction(got.String()); err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("ParseAction(%q) does not read back its String(): %+v, %v", tc.in, back, err)
		}
	}
}

func TestParseActionErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"p1 xx", `unknown action "xx" (expected f, cc, cbr or sm)`},
		{"p1", "the action is missing after p1"},
		{"p0 f", `"p0" is not a player`},
		{"px f", `"px" is not a player`},
		{"q1 f", `unknown actor "q1"`},
		{"d", "the dealer's action is missing"},
		{"d dx p1 AhAd", `unknown dealer action "dx"`},
		{"d dh p1", `expected "d dh pN cards"`},
		{"d dh p1 Kc", "expected 2 cards, found 1"},
		{"d dh p1 Kc8s7d", "expected 2 cards, found 3"},
		{"d dh p1 Kc8", "each card is two characters"},
		{"d dh p1 Kx8s", `bad card "Kx": unknown suit`},
		{"d dh p1 kc8s", "PHH writes the rank in upper case"},
		{"d dh p1 KC8s", "PHH writes the rank in upper case"},
		{"d dh p1 KcKc", "card Kc appears twice"},
		{"d dh p1 ??Kc", "partly unknown cards are not supported"},
		{"d db ??????", "board cards must be known"},
		{"d db 2c3c4c5c6c7c", "expected 1 to 5 cards, found 6"},
		{"p1 f now", "f takes no argument"},
		{"p1 cc 100", "cc takes no argument"},
		{"p1 cbr", "cbr needs one amount"},
		{"p1 cbr 22.5", `amount "22.5" is not a whole number of chips`},
		{"p1 cbr -5", `amount "-5" is not a positive whole number of chips`},
		{"p1 cbr 0", `amount "0" must be positive`},
		{"p1 cbr 1e3", `amount "1e3" is not a positive whole number of chips`},
		{"p1 cbr 5.", `amount "5." is not a number`},
		{"p1 cbr 99999999999999999999", "is too large"},
		{"p1 sm Js8h extra", "sm takes at most one argument"},
		{"d dh p1 Kc8s now please", "too many words"},
		{"p1 sm Js", "expected 2 cards, found 1"},
		{"p1 pb", "pb is not an action of No-Limit Texas Hold'em"},
		{"p1 sd 7c", "sd is not an action of No-Limit Texas Hold'em"},
		{"p1 sm -", `"-" stands for the hole cards dealt earlier`},
	} {
		_, err := ParseAction(tc.in)
		var ae *ActionError
		if !errors.As(err, &ae) {
			t.Errorf("ParseAction(%q) = %v, want an *ActionError", tc.in, err)
			continue
		}
		if ae.Action != tc.in || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `"`+tc.in+`"`) {
			t.Errorf("ParseAction(%q) error %q, want it to quote the action and say %q", tc.in, err, tc.want)
		}
	}
}

func TestParseActionCardErrorsUnwrapToEval(t *testing.T) {
	_, err := ParseAction("d dh p1 Kx8s")
	var bad *eval.ErrBadCard
	if !errors.As(err, &bad) {
		t.Fatalf("error %v does not unwrap to *eval.ErrBadCard", err)
	}
	_, err = ParseAction("d db AhAh")
	var dup *eval.ErrDuplicateCard
	if !errors.As(err, &dup) {
		t.Fatalf("error %v does not unwrap to *eval.ErrDuplicateCard", err)
	}
}

func TestActionKindString(t *testing.T) {
	for k, want := range map[ActionKind]string{NoOp: "no-op", DealHole: "dh", DealBoard: "db", Fold: "f", CheckCall: "cc", CompleteBetRaise: "cbr", ShowMuck: "sm", 99: "ActionKind(99)"} {
		if got := k.String(); got != want {
			t.Errorf("ActionKind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestMucks(t *testing.T) {
	for in, want := range map[string]bool{"p1 sm": true, "p1 sm ????": true, "p1 sm AhAd": false, "p1 f": false} {
		a, err := ParseAction(in)
		if err != nil {
			t.Fatal(err)
		}
		if a.Mucks() != want {
			t.Errorf("ParseAction(%q).Mucks() = %v, want %v", in, a.Mucks(), want)
		}
	}
}
