package phh

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/eval"
)

// A small valid hand, heads-up, to edit in tests.
const headsUp = `variant = 'NT'
ante_trimming_status = false
antes = [0, 0]
blinds_or_straddles = [100, 50]
min_bet = 100
starting_stacks = [1000, 1000]
actions = ['d dh p1 AhAd', 'd dh p2 KcKd', 'p2 cc', 'p1 cc', 'd db 2c7d9h', 'p1 cc', 'p2 cc', 'd db Ts', 'p1 cc', 'p2 cc', 'd db 3s', 'p1 cbr 200', 'p2 f']
`

// parseBoth parses src by both paths. They must agree: the same Hand, or errors with the same text
// (when the fast path did not hand the file to the library). It returns the Hand or the error.
func parseBoth(t *testing.T, src string) (*Hand, error) {
	t.Helper()
	var fast, lib Parser
	var a, b Hand
	errA := fast.ParseInto([]byte(src), &a)
	errB := lib.parseWithLibrary([]byte(src), &b)
	switch {
	case (errA == nil) != (errB == nil):
		t.Fatalf("the paths disagree on\n%s\nfast: %v\nlibrary: %v", src, errA, errB)
	case errA != nil && !fast.general && errA.Error() != errB.Error():
		t.Fatalf("the paths word the error differently on\n%s\nfast:    %v\nlibrary: %v", src, errA, errB)
	case errA == nil && !equalHands(&a, &b):
		t.Fatalf("the paths read different hands from\n%s\nfast:    %+v\nlibrary: %+v", src, a, b)
	}
	if errA != nil {
		return nil, errA
	}
	return &a, nil
}

func TestParseHeadsUp(t *testing.T) {
	h, err := parseBoth(t, headsUp)
	if err != nil {
		t.Fatal(err)
	}
	if h.Variant != "NT" || h.MinBet != 100 || !reflect.DeepEqual(h.BlindsOrStraddles, []int64{100, 50}) ||
		!reflect.DeepEqual(h.StartingStacks, []int64{1000, 1000}) || len(h.Actions) != 13 || len(h.ParsedActions) != 13 {
		t.Fatalf("parsed %+v", h)
	}
	if a := h.ParsedActions[11]; a.Player != 1 || a.Kind != CompleteBetRaise || a.Amount != 200 {
		t.Errorf("actions[11] = %+v", a)
	}
	if h.Players != nil || h.FinishingStacks != nil || h.Hand.Set || h.Extra != nil {
		t.Errorf("absent optional fields are set: %+v", h)
	}
}

func TestParseAllFields(t *testing.T) {
	src := `variant = "NT"
ante_trimming_status = true
antes = [
  25, # small blind
  25.0,
  25,
]
blinds_or_straddles = [50, 100, 0]
min_bet = 100.0
starting_stacks = [10000, 9000.0, 8000]
actions = [
  'd dh p1 ????',
  'd dh p2 ????',
  'd dh p3 AsKs # the hero',
  'p3 cbr 300',
  'p1 f',
  'p2 f',
  '# nobody called',
]
author = 'Jane Doe'
event = 'Sunday Million'
url = 'https://example.com/'
venue = 'Online'
address = '1 Main St'
city = 'Toronto'
region = 'Ontario'
postal_code = 'M5V'
country = 'Canada'
time = 19:05:00
time_zone = 'America/Toronto'
time_zone_abbreviation = 'EDT'
day = 22
month = 6
year = 2023
hand = 'final hand'
level = 12
seats = [1, 4, 9]
seat_count = 9
table = 3
players = ['A', "B", '']
finishing_stacks = [9975, 8875, 8150]
winnings = [0, 0, 275]
currency = 'USD'
currency_symbol = '$'
time_limit = 30
time_banks = [60, 60.5, inf]
_sponsors = ["", "GGPoker", ""]
_rating = 1.5
_table_note = { seats = 9 }
future_field = true
`
	h, err := parseBoth(t, src)
	if err != nil {
		t.Fatal(err)
	}
	want := &Hand{
		Variant: "NT", AnteTrimmingStatus: true,
		Antes: []int64{25, 25, 25}, BlindsOrStraddles: []int64{50, 100, 0}, MinBet: 100,
		StartingStacks: []int64{10000, 9000, 8000},
		Actions:        []string{"d dh p1 ????", "d dh p2 ????", "d dh p3 AsKs # the hero", "p3 cbr 300", "p1 f", "p2 f", "# nobody called"},
		ParsedActions: []Action{
			{Player: 1, Kind: DealHole, Unknown: true}, {Player: 2, Kind: DealHole, Unknown: true},
			{Player: 3, Kind: DealHole, Cards: eval.MustParseCards("AsKs"), Comment: "the hero"},
			{Player: 3, Kind: CompleteBetRaise, Amount: 300}, {Player: 1, Kind: Fold}, {Player: 2, Kind: Fold},
			{Comment: "nobody called"},
		},
		Author: "Jane Doe", Event: "Sunday Million", URL: "https://example.com/", Venue: "Online",
		Address: "1 Main St", City: "Toronto", Region: "Ontario", PostalCode: "M5V", Country: "Canada",
		Time: "19:05:00", TimeZone: "America/Toronto", TimeZoneAbbreviation: "EDT",
		Day: 22, Month: 6, Year: 2023, Hand: TextLabel("final hand"), Level: 12,
		Seats: []int{1, 4, 9}, SeatCount: 9, Table: NumberLabel(3), Players: []string{"A", "B", ""},
		FinishingStacks: []int64{9975, 8875, 8150}, Winnings: []int64{0, 0, 275},
		Currency: "USD", CurrencySymbol: "$", TimeLimit: 30, TimeBanks: []float64{60, 60.5, math.Inf(1)},
		Extra: map[string]any{
			"_sponsors":    []any{"", "GGPoker", ""},
			"_rating":      1.5,
			"_table_note":  map[string]any{"seats": int64(9)},
			"future_field": true,
		},
	}
	if !equalHands(h, want) {
		t.Fatalf("parsed\n%+v\nwant\n%+v", h, want)
	}
	roundTrip(t, h)
}

// The fast path reads the usual hand histories, and hands everything else to the library.
func TestFastPathFallsBack(t *testing.T) {
	var p Parser
	var h Hand
	base := strings.TrimSuffix(headsUp, "\n")
	for _, tc := range []struct {
		extra    string
		fallback bool
	}{
		{"", false},
		{"\n# a comment\n\n_note = 'x' # trailing\n", false},
		{"\r\n_note = 'x'\r\n", false},
		{"\n_note = [1, 2.5, 'a', \"b\", true]", false},
		{"\ntime = 19:05:00", true},
		{"\n_note = \"tab\\there\"", true},
		{"\n_note = '''multi\nline'''", true},
		{"\n_note = 1_000", true},
		{"\n_note = 1e3", true},
		{"\n_note = [[1]]", true},
		{"\n\"_quoted\" = 1", true},
		{"\n_a.b = 1", true},
		{"\n[_table]\nx = 1", true},
	} {
		if err := p.ParseInto([]byte(base+tc.extra), &h); err != nil {
			t.Errorf("%q: %v", tc.extra, err)
			continue
		}
		if p.general != tc.fallback {
			t.Errorf("%q: general path = %v, want %v", tc.extra, p.general, tc.fallback)
		}
		parseBoth(t, base+tc.extra)
	}
}

func TestParseErrors(t *testing.T) {
	// replace returns headsUp with the line of key replaced by line.
	replace := func(key, line string) string {
		lines := strings.Split(headsUp, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, key+" = ") {
				lines[i] = line
			}
		}
		return strings.Join(lines, "\n")
	}
	for _, tc := range []struct {
		name, src string
		line      int
		field     string
		want      string
	}{
		{"unknown variant", replace("variant", "variant = 'FT'"), 1, "variant", `unsupported variant "FT"`},
		{"variant not a string", replace("variant", "variant = 5"), 1, "variant", "expected a string, found the integer 5"},
		{"missing variant", replace("variant", ""), 0, "variant", "missing"},
		{"missing actions", replace("actions", ""), 0, "actions", "missing"},
		{"arrays of different lengths", replace("antes", "antes = [0, 0, 0]"), 3, "antes", "3 values, but starting_stacks has 2 (expected one per player)"},
		{"players of a different length", headsUp + "players = ['a']\n", 8, "players", "1 values, but starting_stacks has 2"},
		{"one player", replace("starting_stacks", "starting_stacks = [1000]"), 6, "starting_stacks", "a hand needs at least 2 players, found 1"},
		{"negative stack", replace("starting_stacks", "starting_stacks = [1000, -5]"), 6, "starting_stacks[1]", "-5: a stack or forced bet must be positive"},
		{"zero stack", replace("starting_stacks", "starting_stacks = [0, 1000]"), 6, "starting_stacks[0]", "must be positive"},
		{"negative ante", replace("antes", "antes = [-1, 0]"), 3, "antes[0]", "-1: a stack or forced bet cannot be negative"},
		{"negative finishing stack", headsUp + "finishing_stacks = [1, -1]\n", 8, "finishing_stacks[1]", "cannot be negative"},
		{"fractional stack", replace("starting_stacks", "starting_stacks = [1000, 999.5]"), 6, "starting_stacks[1]", "999.5 is not a whole number of chips"},
		{"infinite stack", replace("starting_stacks", "starting_stacks = [1000, inf]"), 6, "starting_stacks[1]", "infinite amounts are not supported"},
		{"string stack", replace("starting_stacks", "starting_stacks = [1000, 'lots']"), 6, "starting_stacks[1]", `expected a whole number of chips, found the string "lots"`},
		{"stacks not an array", replace("starting_stacks", "starting_stacks = 1000"), 6, "starting_stacks", "expected an array of chip amounts"},
		{"zero min bet", replace("min_bet", "min_bet = 0"), 5, "min_bet", "the minimum bet must be positive"},
		{"malformed action", replace("actions", "actions = ['d dh p1 AhAd', 'd dh p2 KcKd', 'p2 raise 300']"), 7, "actions[2]", `malformed action "p2 raise 300": unknown action "raise"`},
		{"action not a string", replace("actions", "actions = ['d dh p1 AhAd', 5]"), 7, "actions[1]", "expected an action string, found the integer 5"},
		{"player out of range", replace("actions", "actions = ['d dh p1 AhAd', 'd dh p2 KcKd', 'p3 f']"), 7, "actions[2]", `"p3 f": player p3 does not exist: the hand has 2 players (p1 to p2)`},
		{"card dealt twice", replace("actions", "actions = ['d dh p1 AhAd', 'd dh p2 AhKd']"), 7, "actions[1]", "Ah was dealt already"},
		{"board card dealt twice", replace("actions", "actions = ['d dh p1 AhAd', 'd dh p2 KcKd', 'd db 2c3c4c', 'd db 2c']"), 7, "actions[3]", "2c was dealt already"},
		{"player dealt twice", replace("actions", "actions = ['d dh p1 AhAd', 'd dh p1 KcKd']"), 7, "actions[1]", "p1 was dealt hole cards already (actions[0])"},
		{"six board cards", replace("actions", "actions = ['d db 2c3c4c', 'd db 5c', 'd db 6c', 'd db 7c']"), 7, "actions[3]", "the board would have 6 cards"},
		{"shows other cards", replace("actions", "actions = ['d dh p1 AhAd', 'd dh p2 KcKd', 'p1 sm AhAs']"), 7, "actions[2]", "p1 shows AhAs but was dealt AhAd"},
		{"shows a card of the board", replace("actions", "actions = ['d dh p1 ????', 'd dh p2 KcKd', 'd db 2c3c4c', 'p1 sm 2cAs']"), 7, "actions[3]", "2c was dealt to someone else or to the board"},
		{"dash with unknown cards", replace("actions", "actions = ['d dh p1 ????', 'd dh p2 KcKd', 'p1 sm -']"), 7, "actions[2]", `"-" shows the hole cards dealt, but p1's are not known`},
		{"multi-line action error names its line", replace("actions", "actions = [\n  'd dh p1 AhAd',\n  'd dh p2 KcKd',\n  'p2 cbr 1.5',\n]"), 10, "actions[2]", `amount "1.5" is not a whole number of chips`},
		{"bring-in in NT", headsUp + "bring_in = 5\n", 8, "bring_in", "not a field of No-Limit Texas Hold'em"},
		{"day out of range", headsUp + "day = 32\n", 8, "day", "32 is out of range (expected 1 to 31)"},
		{"hand a float", headsUp + "hand = 1.5\n", 8, "hand", "expected an integer or a string, found the float 1.5"},
		{"time a string", headsUp + "time = '19:05'\n", 8, "time", "expected a TOML local time"},
		{"seat beyond seat_count", headsUp + "seats = [1, 7]\nseat_count = 6\n", 8, "seats[1]", "seat 7 is beyond seat_count 6"},
		{"negative time limit", headsUp + "time_limit = -1\n", 8, "time_limit", "expected a time of 0 or more"},
		{"TOML syntax: unterminated array", replace("antes", "antes = [0, 0"), 4, "antes", "TOML: expected ',' or ']'"},
		{"TOML syntax: duplicate key", headsUp + "min_bet = 5\n", 8, "min_bet", "TOML: key min_bet is already defined"},
		{"TOML syntax: two values", replace("min_bet", "min_bet = 100 200"), 5, "min_bet", "TOML: expected newline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseBoth(t, tc.src)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if e.Line != tc.line || e.Field != tc.field || !strings.Contains(e.Msg, tc.want) {
				t.Fatalf("error %q (line %d, field %q), want line %d, field %q, saying %q", err, e.Line, e.Field, tc.line, tc.field, tc.want)
			}
		})
	}
}

func TestParseShowWithDash(t *testing.T) {
	src := strings.Replace(headsUp, "'p1 cbr 200', 'p2 f'", "'p1 cc', 'p2 cc', 'p1 sm -', 'p2 sm'", 1)
	h, err := parseBoth(t, src)
	if err != nil {
		t.Fatal(err)
	}
	show := h.ParsedActions[len(h.ParsedActions)-2]
	if show.Kind != ShowMuck || eval.CardsString(show.Cards) != "AhAd" {
		t.Fatalf("p1 sm - parsed as %+v, want AhAd shown", show)
	}
	if h.Actions[len(h.Actions)-2] != "p1 sm -" {
		t.Fatalf("the raw action is %q", h.Actions[len(h.Actions)-2])
	}
	roundTrip(t, h)
}

func TestParseFileNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.phh")
	if err := os.WriteFile(path, []byte(strings.Replace(headsUp, "'p2 f'", "'p2 fold'", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ParseFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":7: actions[12]: malformed action \"p2 fold\"") {
		t.Fatalf("ParseFile error %q, want it to start with the file, line and field", err)
	}
	if _, err := ParseFile(filepath.Join(t.TempDir(), "missing.phh")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ParseFile of a missing file: %v", err)
	}
}

func TestMarshalFromParsedActions(t *testing.T) {
	h, err := Parse([]byte(headsUp))
	if err != nil {
		t.Fatal(err)
	}
	want := *h
	h.Actions = nil // as a Hand built by the engine would be
	out, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if !equalHands(back, &want) {
		t.Fatalf("Marshal from ParsedActions wrote\n%s", out)
	}
}

func TestMarshalRejectsInvalidHands(t *testing.T) {
	parsed := func() *Hand {
		h, err := Parse([]byte(headsUp))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	for _, tc := range []struct {
		name string
		edit func(*Hand)
		want string
	}{
		{"no variant", func(h *Hand) { h.Variant = "" }, `unsupported variant ""`},
		{"short antes", func(h *Hand) { h.Antes = h.Antes[:1] }, "antes: 1 values"},
		{"bad time", func(h *Hand) { h.Time = "19:05\nvariant = 'NT'" }, "is not a TOML local time"},
		{"actions disagree", func(h *Hand) { h.ParsedActions[2].Kind = Fold }, "Actions[2] is \"p2 cc\" but ParsedActions[2] is \"p2 f\""},
		{"actions of different lengths", func(h *Hand) { h.ParsedActions = h.ParsedActions[:3] }, "13 Actions but 3 ParsedActions"},
		{"extra clashes with a field", func(h *Hand) { h.Extra = map[string]any{"min_bet": 5} }, "min_bet is already defined"},
	} {
		h := parsed()
		tc.edit(h)
		if _, err := h.Marshal(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Marshal error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestMarshalQuotesStrings(t *testing.T) {
	h, err := Parse([]byte(headsUp))
	if err != nil {
		t.Fatal(err)
	}
	h.Players = []string{`O'Brien "the rock"`, "tab\there\nnewline\\ \x01 é"}
	h.Event = "it's"
	roundTrip(t, h)
}

// roundTrip checks that Marshal writes h so that Parse reads it back equal.
func roundTrip(t *testing.T, h *Hand) {
	t.Helper()
	out, err := h.Marshal()
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	back, err := parseBoth(t, string(out))
	if err != nil {
		t.Fatalf("Parse(Marshal()): %v\n%s", err, out)
	}
	if !equalHands(h, back) {
		t.Fatalf("round trip changed the hand; Marshal wrote\n%s\nbefore %+v\nafter  %+v", out, h, back)
	}
}

// equalHands is reflect.DeepEqual, but for NaN, which equals itself here (a NaN read from a file
// round-trips).
func equalHands(a, b *Hand) bool {
	x, y := *a, *b
	if !equalFloats(x.TimeBanks, y.TimeBanks) || !equalValues(x.Extra, y.Extra) ||
		!(x.TimeLimit == y.TimeLimit || math.IsNaN(x.TimeLimit) && math.IsNaN(y.TimeLimit)) {
		return false
	}
	x.TimeBanks, y.TimeBanks, x.Extra, y.Extra, x.TimeLimit, y.TimeLimit = nil, nil, nil, nil, 0, 0
	return reflect.DeepEqual(x, y)
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func equalValues(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValues(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || (x == nil) != (y == nil) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equalValues(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// Numbers, strings and arrays at the edges of what the fast path reads: both paths agree on each.
func TestScanEdgesMatchLibrary(t *testing.T) {
	for _, v := range []string{
		"0", "-0", "+5", "-5", "00", "01", "0.0", "-0.5", "+1.25", "1.", ".5", "1.5.5",
		"999999999999999999", "-999999999999999999", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "123456789012345678901234", "1.7976931348623157e308", "1_0", "0x10",
		"true", "false", "trueish", "True", "''", `""`, "'''a'''", `"a\"b"`, "'a\"b'", `"a'b"`, "'tab\there'",
		"'bell\a'", "'unterminated", "'a' 'b'", "[]", "[,]", "[1,]", "[1,,2]", "[1 2]", "[ 1 , 2 , ]",
		"[\n1,\n# c\n2\n]", "[\r\n1\r\n]", "[1\r2]", "[[]]", "{}", "'é'", "'\xff'", "",
	} {
		src := headsUp + "_x = " + v + "\n"
		parseBoth(t, src)
	}
	for _, src := range []string{
		headsUp + "_x = 1 # comment with \x01\n",
		headsUp + "_x = 1\r",
		headsUp + "_x = 1\n_x = 2\n",
		headsUp + "_x= 1\n_y =2\n",
		headsUp + "  _x = 1\n\t_y = 2\n",
		headsUp + "-_- = 1\n",
		headsUp + "= 1\n",
		headsUp + "_x\n",
		"\ufeff" + headsUp,
	} {
		parseBoth(t, src)
	}
}

// Nested user tables marshal inline: as [a.b.c] headers each level would repeat the whole path, and a
// 30 KB file would marshal to 100 MB (the fuzzer found it as a hang).
func TestMarshalNestedExtraStaysSmall(t *testing.T) {
	const depth = 5000
	src := headsUp + "_x = " + strings.Repeat("{a=", depth) + "1" + strings.Repeat("}", depth) + "\n"
	h, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := h.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 2*len(src) {
		t.Fatalf("Marshal wrote %d bytes for a %d-byte file", len(out), len(src))
	}
	roundTrip(t, h)
}
