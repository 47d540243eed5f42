package floor

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestBuiltinStructuresB3R8(t *testing.T) { // rules B3, B1, R8
	for _, name := range StructureNames() {
		t.Run(name, func(t *testing.T) {
			s, err := BuiltinStructure(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			var colored []int64
			for i, l := range s.Levels {
				if len(l.ColorUp) > 0 {
					t.Logf("%s: break before level %d colours up %v", name, s.LevelNumber(i), l.ColorUp)
					if !l.Break {
						t.Errorf("levels[%d]: colour-up outside a break", i)
					}
				}
				colored = append(colored, l.ColorUp...)
			}
			if want := []int64{25, 100, 500, 1000, 5000, 25000}; !slices.Equal(colored, want) {
				t.Fatalf("colours up %v, want %v", colored, want)
			}
			if s.Levels[0].BigBlind != 200 || s.StartingStack < 50*200 {
				t.Fatalf("starts at %d/%d with %d", s.Levels[0].SmallBlind, s.Levels[0].BigBlind, s.StartingStack)
			}
		})
	}
	_, err := BuiltinStructure("hyper")
	wantRule(t, err, "B3")
}

func TestParseStructureB3(t *testing.T) { // rules B3, R2: a custom structure from a file
	data := `{
		"name": "home game",
		"startingStack": 5000,
		"chips": [25, 100, 500],
		"levels": [
			{"smallBlind": 25, "bigBlind": 50, "minutes": 15},
			{"smallBlind": 50, "bigBlind": 100, "minutes": 15},
			{"break": true, "minutes": 10, "colorUp": [25]},
			{"smallBlind": 100, "bigBlind": 200, "ante": 100, "minutes": 15}
		]
	}`
	s, err := ParseStructure([]byte(data), DecodeJSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Levels) != 4 || s.LevelNumber(3) != 3 || s.LevelNumber(2) != 3 || s.Levels[3].Ante != 100 {
		t.Fatalf("structure %+v", s)
	}
	// It travels between workflows as JSON unchanged.
	out, _ := json.Marshal(s)
	back, err := ParseStructure(out, DecodeJSON)
	if err != nil || !slices.EqualFunc(back.Levels, s.Levels, func(a, b Level) bool {
		return a.BigBlind == b.BigBlind && a.Minutes == b.Minutes && slices.Equal(a.ColorUp, b.ColorUp)
	}) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
}

func TestParseStructureErrorsB3B1R8(t *testing.T) { // rules B3, B1, B2, R1, R8: clear errors
	cases := []struct {
		name string
		data string
		want []string // each in the error text
	}{
		{"syntax", `{"levels": [`, []string{"structure file"}},
		{"unknown field", `{"startingStack": 100, "levels": [{"smallBlind": 1, "bigBlind": 2, "minutes": 1}], "blinds": 3}`, []string{`unknown field "blinds"`}},
		{"empty", `{"startingStack": 100, "levels": []}`, []string{"rule B3", "no levels"}},
		{"many problems at once", `{"name": "bad", "startingStack": 0, "levels": [
			{"break": true, "minutes": 5},
			{"smallBlind": 100, "bigBlind": 250, "minutes": 20},
			{"smallBlind": 50, "bigBlind": 100, "ante": -5, "minutes": 0},
			{"break": true, "minutes": 5, "bigBlind": 10}]}`, []string{
			`structure "bad"`,
			"rule R1: structure \"bad\": startingStack 0",
			"rule B3: structure \"bad\": levels[0] is a break",
			"levels[3] is a break: the schedule ends",
			"rule B1: structure \"bad\": levels[1] (level 1): big blind 250 is not twice the small blind 100",
			"levels[2] (level 2): minutes 0",
			"rule B2: structure \"bad\": levels[2] (level 2): ante -5",
			"levels[2] (level 2): blinds 50/100 ante -5 fall below the level before",
			"levels[3]: a break has no blinds",
		}},
		{"colour-up", `{"startingStack": 1010, "chips": [5, 25, 100], "levels": [
			{"smallBlind": 5, "bigBlind": 10, "minutes": 5},
			{"break": true, "minutes": 5, "colorUp": [25]},
			{"smallBlind": 10, "bigBlind": 20, "minutes": 5, "colorUp": [5]},
			{"smallBlind": 30, "bigBlind": 60, "minutes": 5, "colorUp": [25, 100]}]}`, []string{
			"rule R8: levels[1]: colorUp 25 is not the smallest chip in play (5)",
			"levels[2] (level 2): 10 cannot be paid in chips of 25",
			"levels[3] (level 3): colorUp 100 would leave no chips in play",
		}},
		{"colour-up without chips", `{"startingStack": 100, "levels": [{"smallBlind": 1, "bigBlind": 2, "minutes": 1, "colorUp": [1]}]}`,
			[]string{"colorUp 1, but the structure lists no chips"}},
		{"chips not ascending", `{"startingStack": 100, "chips": [5, 5], "levels": [{"smallBlind": 5, "bigBlind": 10, "minutes": 1}]}`,
			[]string{"denominations must be positive and ascending"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseStructure([]byte(c.data), DecodeJSON)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
	var re *RuleError
	_, err := ParseStructure([]byte(`{"startingStack": 100, "levels": []}`), DecodeJSON)
	if !errors.As(err, &re) || re.Rule != "B3" {
		t.Fatalf("error %v is not a B3 RuleError", err)
	}
}

func TestParseStructureOtherDecoders(t *testing.T) { // rule B3: TOML or YAML through the caller's decoder
	// A stand-in for toml.Unmarshal or yaml.Unmarshal: whatever fills the struct is validated.
	decode := func(data []byte, v any) error {
		*v.(*Structure) = Structure{StartingStack: 100, Levels: []Level{{SmallBlind: 1, BigBlind: 3, Minutes: 1}}}
		return nil
	}
	_, err := ParseStructure(nil, decode)
	wantRule(t, err, "B1")
	failing := func([]byte, any) error { return errors.New("toml: line 3: expected '='") }
	if _, err := ParseStructure(nil, failing); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("error %v", err)
	}
}
