package phh

import (
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sync"

	"github.com/pelletier/go-toml/v2"
	"github.com/pokerfloor/pokerfloor/eval"
)

// Parse reads one PHH hand history. Errors are *Error values naming the line, the field and what is
// wrong.
func Parse(data []byte) (*Hand, error) {
	p := parsers.Get().(*Parser)
	defer parsers.Put(p)
	h := new(Hand)
	if err := p.ParseInto(data, h); err != nil {
		return nil, err
	}
	return h, nil
}

var parsers = sync.Pool{New: func() any { return new(Parser) }}

// ParseFile reads the hand history in the file at path. A parse error is an *Error whose File is path.
func ParseFile(path string) (*Hand, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	h, err := Parse(data)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.File = path
		}
		return nil, err
	}
	return h, nil
}

// Parser parses hand histories, keeping its working memory from one to the next. It is not safe for
// concurrent use; the zero value is ready.
type Parser struct {
	fields  []field
	elems   []value
	lines   [numFields]int // the line of each field present, 0 when absent
	seen    [numFields]bool
	actions []value // the elements of actions, for the lines of its errors
	src     string  // the text of the string values
	others  []any   // values of the library path that are not int, float, string, bool or array
	cards   []eval.Card
	dashes  []int // the actions written "pN sm -"
	holes   []hole
	general bool // the fields came from the TOML library
}

// hole is what the checks of finish know of one player's hole cards.
type hole struct {
	cards        [2]eval.Card
	dealt, known bool
	action       int // the index of the deal
}

// ParseInto is Parse writing into h, reusing the memory of its slices; what h held before is
// overwritten (slices it returned earlier may change). On an error h is left part-filled.
func (p *Parser) ParseInto(data []byte, h *Hand) error {
	// One copy of the file: every string of the Hand read by the fast path is a part of it.
	src := string(data)
	p.general = false
	if !p.scan(src) {
		if err := p.decode(data); err != nil {
			return err
		}
		p.general = true
	}
	return p.build(h)
}

// build fills h from p.fields.
func (p *Parser) build(h *Hand) error {
	*h = Hand{
		Antes:             h.Antes[:0],
		BlindsOrStraddles: h.BlindsOrStraddles[:0],
		StartingStacks:    h.StartingStacks[:0],
		Actions:           h.Actions[:0],
		ParsedActions:     h.ParsedActions[:0],
		Seats:             h.Seats[:0],
		Players:           h.Players[:0],
		FinishingStacks:   h.FinishingStacks[:0],
		Winnings:          h.Winnings[:0],
		TimeBanks:         h.TimeBanks[:0],
	}
	p.lines = [numFields]int{}
	p.seen = [numFields]bool{}
	p.actions = nil
	p.cards = nil
	p.dashes = p.dashes[:0]
	for k := range p.fields {
		f := &p.fields[k]
		id, known := lookupField(f.key)
		if !known {
			if notNT(f.key) {
				return &Error{Line: int(f.val.line), Field: f.key, Msg: "not a field of No-Limit Texas Hold'em (variant NT): it belongs to stud or fixed-limit games"}
			}
			if h.Extra == nil {
				h.Extra = make(map[string]any)
			}
			if p.general {
				h.Extra[f.key] = f.raw
			} else {
				h.Extra[f.key] = p.toAny(&f.val)
			}
			continue
		}
		p.seen[id], p.lines[id] = true, int(f.val.line)
		if err := p.set(h, id, &f.val); err != nil {
			return err
		}
	}
	// Absent arrays are nil, as they are in a Hand parsed afresh.
	if !p.seen[fAntes] {
		h.Antes = nil
	}
	if !p.seen[fBlindsOrStraddles] {
		h.BlindsOrStraddles = nil
	}
	if !p.seen[fStartingStacks] {
		h.StartingStacks = nil
	}
	if !p.seen[fActions] {
		h.Actions, h.ParsedActions = nil, nil
	}
	if !p.seen[fSeats] {
		h.Seats = nil
	}
	if !p.seen[fPlayers] {
		h.Players = nil
	}
	if !p.seen[fFinishingStacks] {
		h.FinishingStacks = nil
	}
	if !p.seen[fWinnings] {
		h.Winnings = nil
	}
	if !p.seen[fTimeBanks] {
		h.TimeBanks = nil
	}
	return p.finish(h)
}

// set reads one known field into h.
func (p *Parser) set(h *Hand, id fieldID, v *value) error {
	name := fieldNames[id]
	if s := h.stringField(id); s != nil {
		if v.kind != kindString {
			return p.typeError(v, name, "a string")
		}
		*s = p.str(v)
		if id == fVariant && p.str(v) != Variant {
			return &Error{Line: int(v.line), Field: name, Msg: fmt.Sprintf("unsupported variant %q: pokerfloor reads No-Limit Texas Hold'em, %q, only", p.str(v), Variant)}
		}
		return nil
	}
	if n, min, max := h.intField(id); n != nil {
		if v.kind != kindInt {
			return p.typeError(v, name, "an integer")
		}
		if v.i < int64(min) || v.i > int64(max) {
			return &Error{Line: int(v.line), Field: name, Msg: fmt.Sprintf("%d is out of range (expected %d to %d)", v.i, min, max)}
		}
		*n = int(v.i)
		return nil
	}
	if a, zeroOK := h.amountsField(id); a != nil {
		if v.kind != kindArray {
			return p.typeError(v, name, "an array of chip amounts, one per player")
		}
		*a = slices.Grow(*a, len(p.elemsOf(v)))
		for i := range p.elemsOf(v) {
			e := &p.elemsOf(v)[i]
			n, err := p.amount(e, name, i)
			if err != nil {
				return err
			}
			if n < 0 || n == 0 && !zeroOK {
				what := "cannot be negative"
				if !zeroOK {
					what = "must be positive (a player needs chips to be dealt in)"
				}
				return &Error{Line: int(e.line), Field: indexed(name, i), Msg: fmt.Sprintf("%d: a stack or forced bet %s", n, what)}
			}
			*a = append(*a, n)
		}
		return nil
	}
	switch id {
	case fAnteTrimmingStatus:
		if v.kind != kindBool {
			return p.typeError(v, name, "true or false")
		}
		h.AnteTrimmingStatus = v.b
	case fMinBet:
		n, err := p.amount(v, name, -1)
		if err != nil {
			return err
		}
		if n <= 0 {
			return &Error{Line: int(v.line), Field: name, Msg: fmt.Sprintf("%d: the minimum bet must be positive", n)}
		}
		h.MinBet = n
	case fActions:
		if v.kind != kindArray {
			return p.typeError(v, name, "an array of action strings")
		}
		elems := p.elemsOf(v)
		p.actions = elems
		h.Actions = slices.Grow(h.Actions, len(elems))[:len(elems)]
		h.ParsedActions = slices.Grow(h.ParsedActions, len(elems))[:len(elems)]
		// All of the hand's cards share one array: at most 2 for each deal or show, 5 on the board.
		p.cards = make([]eval.Card, 0, 2*len(elems)+5)
		for i := range elems {
			e := &elems[i]
			if e.kind != kindString {
				return p.typeError(e, indexed(name, i), "an action string")
			}
			s := p.str(e)
			cards, dash, err := parseActionInto(&h.ParsedActions[i], s, p.cards)
			p.cards = cards
			if err != nil {
				return &Error{Line: int(e.line), Field: indexed(name, i), Msg: err.Error(), Err: err}
			}
			if dash {
				p.dashes = append(p.dashes, i) // resolved by finish, once the deals are known
			}
			h.Actions[i] = s
		}
	case fPlayers:
		if v.kind != kindArray {
			return p.typeError(v, name, "an array of player names")
		}
		h.Players = slices.Grow(h.Players, len(p.elemsOf(v)))
		for i := range p.elemsOf(v) {
			e := &p.elemsOf(v)[i]
			if e.kind != kindString {
				return p.typeError(e, indexed(name, i), "a player's name")
			}
			h.Players = append(h.Players, p.str(e))
		}
	case fSeats:
		if v.kind != kindArray {
			return p.typeError(v, name, "an array of seat numbers")
		}
		for i := range p.elemsOf(v) {
			e := &p.elemsOf(v)[i]
			if e.kind != kindInt {
				return p.typeError(e, indexed(name, i), "a seat number")
			}
			if e.i < 1 || e.i > maxPlayers {
				return &Error{Line: int(e.line), Field: indexed(name, i), Msg: fmt.Sprintf("seat %d is out of range (expected 1 to %d)", e.i, maxPlayers)}
			}
			h.Seats = append(h.Seats, int(e.i))
		}
	case fHand, fTable:
		l := &h.Hand
		if id == fTable {
			l = &h.Table
		}
		switch v.kind {
		case kindInt:
			*l = NumberLabel(v.i)
		case kindString:
			*l = TextLabel(p.str(v))
		default:
			return p.typeError(v, name, "an integer or a string")
		}
	case fTime:
		t, ok := p.other(v).(toml.LocalTime)
		if v.kind != kindOther || !ok {
			return p.typeError(v, name, "a TOML local time such as 19:05:00 (unquoted)")
		}
		h.Time = t.String()
	case fTimeLimit:
		f, err := p.seconds(v, name)
		if err != nil {
			return err
		}
		h.TimeLimit = f
	case fTimeBanks:
		if v.kind != kindArray {
			return p.typeError(v, name, "an array of times in seconds, one per player")
		}
		for i := range p.elemsOf(v) {
			f, err := p.seconds(&p.elemsOf(v)[i], indexed(name, i))
			if err != nil {
				return err
			}
			h.TimeBanks = append(h.TimeBanks, f)
		}
	}
	return nil
}

// finish checks what needs all the fields: the required ones are there, the arrays have one entry per
// player, the actions name players that exist and deal each card once.
func (p *Parser) finish(h *Hand) error {
	for _, id := range [...]fieldID{fVariant, fAntes, fBlindsOrStraddles, fMinBet, fStartingStacks, fActions} {
		if !p.seen[id] {
			return &Error{Field: fieldNames[id], Msg: "missing: PHH requires it for No-Limit Texas Hold'em"}
		}
	}
	n := len(h.StartingStacks)
	if n < 2 {
		return &Error{Line: p.lines[fStartingStacks], Field: "starting_stacks", Msg: fmt.Sprintf("a hand needs at least 2 players, found %d", n)}
	}
	for _, c := range [...]struct {
		id  fieldID
		len int
	}{
		{fAntes, len(h.Antes)}, {fBlindsOrStraddles, len(h.BlindsOrStraddles)}, {fSeats, len(h.Seats)},
		{fPlayers, len(h.Players)}, {fFinishingStacks, len(h.FinishingStacks)},
		{fWinnings, len(h.Winnings)}, {fTimeBanks, len(h.TimeBanks)},
	} {
		if p.seen[c.id] && c.len != n {
			return &Error{Line: p.lines[c.id], Field: fieldNames[c.id], Msg: fmt.Sprintf("%d values, but starting_stacks has %d (expected one per player)", c.len, n)}
		}
	}
	if h.SeatCount > 0 {
		for i, s := range h.Seats {
			if s > h.SeatCount {
				return &Error{Line: p.lines[fSeats], Field: indexed("seats", i), Msg: fmt.Sprintf("seat %d is beyond seat_count %d", s, h.SeatCount)}
			}
		}
	}
	return p.checkActions(h, n)
}

// checkActions checks that each action names a player of the hand and that no card is dealt twice,
// and fills in the cards of "pN sm -".
func (p *Parser) checkActions(h *Hand, n int) error {
	if cap(p.holes) < n {
		p.holes = make([]hole, n)
	}
	holes := p.holes[:n]
	clear(holes)
	var dealt eval.CardSet
	board := 0
	dashes := p.dashes
	for i := range h.ParsedActions {
		a := &h.ParsedActions[i]
		dash := len(dashes) > 0 && dashes[0] == i
		if dash {
			dashes = dashes[1:]
		}
		fail := func(format string, args ...any) error {
			line := p.lines[fActions]
			if i < len(p.actions) {
				line = int(p.actions[i].line)
			}
			return &Error{Line: line, Field: indexed("actions", i), Msg: fmt.Sprintf("%q: ", h.Actions[i]) + fmt.Sprintf(format, args...)}
		}
		if a.Player > n {
			return fail("player p%d does not exist: the hand has %d players (p1 to p%d)", a.Player, n, n)
		}
		switch a.Kind {
		case DealHole:
			ho := &holes[a.Player-1]
			if ho.dealt {
				return fail("p%d was dealt hole cards already (actions[%d])", a.Player, ho.action)
			}
			ho.dealt, ho.action = true, i
			if a.Unknown {
				continue
			}
			for _, c := range a.Cards {
				if dealt.Has(c) {
					return fail("%s was dealt already", c)
				}
				dealt = dealt.Add(c)
			}
			ho.known = true
			copy(ho.cards[:], a.Cards)
		case DealBoard:
			if board += len(a.Cards); board > 5 {
				return fail("the board would have %d cards (at most 5)", board)
			}
			for _, c := range a.Cards {
				if dealt.Has(c) {
					return fail("%s was dealt already", c)
				}
				dealt = dealt.Add(c)
			}
		case ShowMuck:
			ho := &holes[a.Player-1]
			if dash {
				if !ho.known {
					return fail(`"-" shows the hole cards dealt, but p%d's are not known`, a.Player)
				}
				p.cards = append(p.cards, ho.cards[:]...)
				a.Cards = p.cards[len(p.cards)-2 : len(p.cards) : len(p.cards)]
				continue
			}
			if len(a.Cards) == 0 {
				continue
			}
			if !ho.dealt {
				return fail("p%d shows cards but was dealt none", a.Player)
			}
			if ho.known {
				if shown := eval.NewCardSet(a.Cards...); shown != eval.NewCardSet(ho.cards[:]...) {
					return fail("p%d shows %s but was dealt %s", a.Player, eval.CardsString(a.Cards), eval.CardsString(ho.cards[:]))
				}
				continue
			}
			for _, c := range a.Cards {
				if dealt.Has(c) {
					return fail("%s was dealt to someone else or to the board", c)
				}
				dealt = dealt.Add(c)
			}
			ho.known = true
			copy(ho.cards[:], a.Cards)
		}
	}
	return nil
}

// amount reads a number of chips: an integer, or a float that is whole. index is the element's index
// in its array, -1 for a field that is not an array.
func (p *Parser) amount(v *value, name string, index int) (int64, error) {
	switch v.kind {
	case kindInt:
		return v.i, nil
	case kindFloat:
		f := v.f
		switch {
		case math.IsInf(f, 0) || math.IsNaN(f):
			return 0, &Error{Line: int(v.line), Field: indexed(name, index), Msg: fmt.Sprintf("%v chips: unknown or infinite amounts are not supported (expected a whole number of chips)", f)}
		case f != math.Trunc(f):
			return 0, &Error{Line: int(v.line), Field: indexed(name, index), Msg: fmt.Sprintf("%v is not a whole number of chips", f)}
		case f < -(1<<63) || f >= 1<<63:
			return 0, &Error{Line: int(v.line), Field: indexed(name, index), Msg: fmt.Sprintf("%v chips is too large", f)}
		}
		return int64(f), nil
	}
	return 0, p.typeError(v, indexed(name, index), "a whole number of chips")
}

// seconds reads a time in seconds: a non-negative number, perhaps infinite.
func (p *Parser) seconds(v *value, name string) (float64, error) {
	var f float64
	switch v.kind {
	case kindInt:
		f = float64(v.i)
	case kindFloat:
		f = v.f
	default:
		return 0, p.typeError(v, name, "a number of seconds")
	}
	if f < 0 || math.IsNaN(f) {
		return 0, &Error{Line: int(v.line), Field: name, Msg: fmt.Sprintf("%v seconds: expected a time of 0 or more", f)}
	}
	return f, nil
}

func (p *Parser) typeError(v *value, field, want string) error {
	return &Error{Line: int(v.line), Field: field, Msg: fmt.Sprintf("expected %s, found %s", want, p.describe(v))}
}

// indexed returns "name[i]", or name when i is negative.
func indexed(name string, i int) string {
	if i < 0 {
		return name
	}
	return fmt.Sprintf("%s[%d]", name, i)
}

// describe names a value for an error message: "the string 'abc'", "an array".
func (p *Parser) describe(v *value) string {
	switch v.kind {
	case kindInt:
		return fmt.Sprintf("the integer %d", v.i)
	case kindFloat:
		return fmt.Sprintf("the float %v", v.f)
	case kindString:
		s := p.str(v)
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return fmt.Sprintf("the string %q", s)
	case kindBool:
		return fmt.Sprintf("%t", v.b)
	case kindArray:
		return "an array"
	}
	switch p.other(v).(type) {
	case map[string]any:
		return "a table"
	case []any:
		return "an array"
	case toml.LocalTime:
		return "a time"
	case toml.LocalDate:
		return "a date"
	}
	return "a date and time"
}

// toAny returns the value as the TOML library decodes it into an any.
func (p *Parser) toAny(v *value) any {
	switch v.kind {
	case kindInt:
		return v.i
	case kindFloat:
		return v.f
	case kindString:
		return p.str(v)
	case kindBool:
		return v.b
	case kindArray:
		out := make([]any, len(p.elemsOf(v)))
		for i := range p.elemsOf(v) {
			out[i] = p.toAny(&p.elemsOf(v)[i])
		}
		return out
	}
	return p.other(v)
}

// parseWithLibrary is ParseInto with the fast path turned off, for tests that compare the two.
func (p *Parser) parseWithLibrary(data []byte, h *Hand) error {
	if err := p.decode(data); err != nil {
		return err
	}
	p.general = true
	return p.build(h)
}

// other returns a kindOther value's decoded value.
func (p *Parser) other(v *value) any {
	if v.kind != kindOther {
		return nil
	}
	return p.others[v.i]
}
