package floor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Level is one period of the published schedule (B3, R2): a blind level, or a break.
type Level struct {
	// Break marks a break: no hands are dealt, and it has no blinds.
	Break      bool  `json:"break,omitempty" toml:"break,omitempty" yaml:"break,omitempty"`
	SmallBlind int64 `json:"smallBlind,omitempty" toml:"smallBlind,omitempty" yaml:"smallBlind,omitempty"`
	BigBlind   int64 `json:"bigBlind,omitempty" toml:"bigBlind,omitempty" yaml:"bigBlind,omitempty"`
	Ante       int64 `json:"ante,omitempty" toml:"ante,omitempty" yaml:"ante,omitempty"`
	Minutes    int   `json:"minutes" toml:"minutes" yaml:"minutes"`
	// ColorUp lists the chip denominations that leave play when this period starts, smallest
	// first; each must be the smallest still in play (R8). Usually on a break.
	ColorUp []int64 `json:"colorUp,omitempty" toml:"colorUp,omitempty" yaml:"colorUp,omitempty"`
}

// Structure is a tournament's published blind structure (B3, R2): the starting stack and the
// schedule of levels and breaks. The last level lasts until the tournament ends.
type Structure struct {
	Name          string `json:"name,omitempty" toml:"name,omitempty" yaml:"name,omitempty"`
	StartingStack int64  `json:"startingStack" toml:"startingStack" yaml:"startingStack"`
	// Chips are the denominations in play at the start, ascending. Optional; needed for ColorUp,
	// and when given every blind and ante must be paid in chips still in play.
	Chips  []int64 `json:"chips,omitempty" toml:"chips,omitempty" yaml:"chips,omitempty"`
	Levels []Level `json:"levels" toml:"levels" yaml:"levels"`
	// Speed compresses every period by this factor (60: a 20-minute level lasts 20 seconds), for
	// simulations and demonstrations; 0 or 1 is real time.
	Speed int `json:"speed,omitempty" toml:"speed,omitempty" yaml:"speed,omitempty"`
}

// Duration is how long period i lasts on the clock, Speed applied.
func (s Structure) Duration(i int) time.Duration {
	d := time.Duration(s.Levels[i].Minutes) * time.Minute
	if s.Speed > 1 {
		d /= time.Duration(s.Speed)
	}
	return d
}

// LevelNumber is the number, from 1, of the blind level at or after period i: breaks are not
// counted, and a break has the number of the level that follows it.
func (s Structure) LevelNumber(i int) int {
	n := 0
	for k := 0; k <= i && k < len(s.Levels); k++ {
		if !s.Levels[k].Break {
			n++
		}
	}
	if i < len(s.Levels) && s.Levels[i].Break {
		n++
	}
	return n
}

// Validate checks the structure and returns every problem found, each a *RuleError naming the
// period (joined with errors.Join), or nil.
func (s Structure) Validate() error {
	var errs []error
	bad := func(rule, format string, args ...any) {
		prefix := ""
		if s.Name != "" {
			prefix = fmt.Sprintf("structure %q: ", s.Name)
		}
		errs = append(errs, &RuleError{Rule: rule, Reason: prefix + fmt.Sprintf(format, args...)})
	}
	if s.StartingStack <= 0 {
		bad("R1", "startingStack %d: every entry needs a positive starting stack", s.StartingStack)
	}
	if s.Speed < 0 {
		bad("B3", "speed %d is negative", s.Speed)
	}
	for i, c := range s.Chips {
		if c <= 0 || (i > 0 && c <= s.Chips[i-1]) {
			bad("R8", "chips %v: denominations must be positive and ascending", s.Chips)
			break
		}
	}
	if len(s.Levels) == 0 {
		bad("B3", "no levels: the schedule must be published before the start")
		return errors.Join(errs...)
	}
	if s.Levels[0].Break {
		bad("B3", "levels[0] is a break: the tournament starts with a blind level")
	}
	if s.Levels[len(s.Levels)-1].Break {
		bad("B3", "levels[%d] is a break: the schedule ends with the level that lasts to the end", len(s.Levels)-1)
	}
	chips := slices.Clone(s.Chips)
	if len(chips) > 0 && s.StartingStack%chips[0] != 0 {
		bad("R8", "startingStack %d cannot be paid in chips of %d", s.StartingStack, chips[0])
	}
	var prev *Level
	for i, l := range s.Levels {
		at := fmt.Sprintf("levels[%d]", i)
		if !l.Break {
			at = fmt.Sprintf("levels[%d] (level %d)", i, s.LevelNumber(i))
		}
		if l.Minutes <= 0 {
			bad("B3", "%s: minutes %d: every period needs a length", at, l.Minutes)
		}
		for _, d := range l.ColorUp {
			switch {
			case len(chips) == 0:
				bad("R8", "%s: colorUp %d, but the structure lists no chips in play", at, d)
			case d != chips[0]:
				bad("R8", "%s: colorUp %d is not the smallest chip in play (%d)", at, d, chips[0])
			case len(chips) == 1:
				bad("R8", "%s: colorUp %d would leave no chips in play", at, d)
			default:
				chips = chips[1:]
			}
		}
		if l.Break {
			if l.SmallBlind != 0 || l.BigBlind != 0 || l.Ante != 0 {
				bad("B3", "%s: a break has no blinds or ante", at)
			}
			continue
		}
		switch {
		case l.SmallBlind <= 0:
			bad("B1", "%s: small blind %d must be positive", at, l.SmallBlind)
		case l.BigBlind != 2*l.SmallBlind:
			bad("B1", "%s: big blind %d is not twice the small blind %d", at, l.BigBlind, l.SmallBlind)
		}
		if l.Ante < 0 {
			bad("B2", "%s: ante %d is negative", at, l.Ante)
		}
		if prev != nil && (l.BigBlind < prev.BigBlind || l.Ante < prev.Ante) {
			bad("B3", "%s: blinds %d/%d ante %d fall below the level before (%d/%d ante %d)",
				at, l.SmallBlind, l.BigBlind, l.Ante, prev.SmallBlind, prev.BigBlind, prev.Ante)
		}
		if len(chips) > 0 {
			for _, v := range []int64{l.SmallBlind, l.BigBlind, l.Ante} {
				if v%chips[0] != 0 {
					bad("R8", "%s: %d cannot be paid in chips of %d, the smallest in play", at, v, chips[0])
					break
				}
			}
		}
		prev = &s.Levels[i]
	}
	return errors.Join(errs...)
}

// Decoder decodes a structure file into v: toml.Unmarshal, yaml.Unmarshal or json.Unmarshal.
// The caller, which reads the file, chooses it by the file's extension; this package stays free
// of I/O and of third-party parsers.
type Decoder func(data []byte, v any) error

// ParseStructure decodes a custom structure with decode and validates it. Decoding errors and
// every validation problem are returned together, each naming the period it is about.
func ParseStructure(data []byte, decode Decoder) (Structure, error) {
	var s Structure
	if err := decode(data, &s); err != nil {
		return Structure{}, fmt.Errorf("structure file: %w", err)
	}
	if err := s.Validate(); err != nil {
		return Structure{}, err
	}
	return s, nil
}

// DecodeJSON is a strict JSON Decoder (unknown fields are errors), for structure files in JSON
// and for structures passed between the workflows.
func DecodeJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("data after the structure")
	}
	return nil
}

// The built-in structures.
const (
	StructureTurbo    = "turbo"
	StructureStandard = "standard"
	StructureDeep     = "deep"
)

// StructureNames lists the built-in structures.
func StructureNames() []string { return []string{StructureTurbo, StructureStandard, StructureDeep} }

// blindLadder is every built-in structure's blinds and antes, level by level. Blinds double the
// small blind; the ante (paid by everyone, B2) is about an eighth of the big blind, rounded to
// chips in play. 150, 250 and 75 need the 25 chip; from level 6 on everything is in 100s, from
// level 13 in 500s, from 15 in 1,000s, from 23 in 5,000s and from 30 in 25,000s: the first break
// at or after each of those colours up (TestBuiltinStructures prints where).
var blindLadder = [][3]int64{
	{100, 200, 0}, {150, 300, 0}, {200, 400, 50}, {250, 500, 50}, {300, 600, 75},
	{400, 800, 100}, {500, 1000, 100}, {600, 1200, 200}, {800, 1600, 200}, {1000, 2000, 300},
	{1200, 2400, 300}, {1500, 3000, 400}, {2000, 4000, 500}, {2500, 5000, 500}, {3000, 6000, 1000},
	{4000, 8000, 1000}, {5000, 10000, 1000}, {6000, 12000, 2000}, {8000, 16000, 2000}, {10000, 20000, 3000},
	{12000, 24000, 3000}, {15000, 30000, 4000}, {20000, 40000, 5000}, {25000, 50000, 5000}, {30000, 60000, 10000},
	{40000, 80000, 10000}, {50000, 100000, 10000}, {60000, 120000, 20000}, {80000, 160000, 20000}, {100000, 200000, 25000},
	{125000, 250000, 25000}, {150000, 300000, 50000}, {200000, 400000, 50000}, {250000, 500000, 50000}, {300000, 600000, 75000},
	{400000, 800000, 100000}, {500000, 1000000, 100000},
}

// builtinChips are the denominations of a live set.
var builtinChips = []int64{25, 100, 500, 1000, 5000, 25000, 100000}

// BuiltinStructure returns a built-in structure by name:
//   - turbo: 10,000 chips (50 big blinds), 10-minute levels, a 5-minute break every 6 levels;
//   - standard: 20,000 chips (100 big blinds), 20-minute levels, a 10-minute break every 4 levels;
//   - deep: 30,000 chips (150 big blinds), 30-minute levels, a 15-minute break every 4 levels.
//
// Each break colours up every smallest chip that no later level needs (R8).
func BuiltinStructure(name string) (Structure, error) {
	var stack int64
	var minutes, every, breakMinutes int
	switch name {
	case StructureTurbo:
		stack, minutes, every, breakMinutes = 10000, 10, 6, 5
	case StructureStandard:
		stack, minutes, every, breakMinutes = 20000, 20, 4, 10
	case StructureDeep:
		stack, minutes, every, breakMinutes = 30000, 30, 4, 15
	default:
		return Structure{}, ruleErr("B3", "no built-in structure %q (built in: %v)", name, StructureNames())
	}
	s := Structure{Name: name, StartingStack: stack, Chips: slices.Clone(builtinChips)}
	chips := builtinChips
	for i, b := range blindLadder {
		if i > 0 && i%every == 0 {
			brk := Level{Break: true, Minutes: breakMinutes}
			// Colour up the smallest chip while every level still to come is paid in the next one.
			for len(chips) > 1 && ladderPaidIn(blindLadder[i:], chips[1]) {
				brk.ColorUp = append(brk.ColorUp, chips[0])
				chips = chips[1:]
			}
			s.Levels = append(s.Levels, brk)
		}
		s.Levels = append(s.Levels, Level{SmallBlind: b[0], BigBlind: b[1], Ante: b[2], Minutes: minutes})
	}
	return s, nil
}

func ladderPaidIn(levels [][3]int64, chip int64) bool {
	for _, l := range levels {
		if l[0]%chip != 0 || l[1]%chip != 0 || l[2]%chip != 0 {
			return false
		}
	}
	return true
}
