package phh

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
)

// Marshal writes the hand as canonical PHH: the required fields, then the optional ones that are set,
// in the order of the specification, then Extra; one field a line, "key = value", strings in single
// quotes where they can be. Parse reads the result back to an equal Hand.
//
// The actions written are Actions, as they were written; when Actions is empty they are ParsedActions
// in canonical notation. When both are set they must agree. Marshal reads its output back and returns
// an error, rather than a file, for a Hand that Parse would reject.
func (h *Hand) Marshal() ([]byte, error) {
	if len(h.Actions) > 0 && len(h.ParsedActions) > 0 && len(h.Actions) != len(h.ParsedActions) {
		return nil, fmt.Errorf("phh: %d Actions but %d ParsedActions: they must be the same actions", len(h.Actions), len(h.ParsedActions))
	}
	b := make([]byte, 0, 1024)
	b = appendStringField(b, fVariant, h.Variant, true)
	b = appendKey(b, fAnteTrimmingStatus)
	b = strconv.AppendBool(b, h.AnteTrimmingStatus)
	b = append(b, '\n')
	b = appendAmounts(b, fAntes, h.Antes, true)
	b = appendAmounts(b, fBlindsOrStraddles, h.BlindsOrStraddles, true)
	b = appendKey(b, fMinBet)
	b = strconv.AppendInt(b, h.MinBet, 10)
	b = append(b, '\n')
	b = appendAmounts(b, fStartingStacks, h.StartingStacks, true)
	b = appendKey(b, fActions)
	b = append(b, '[')
	if len(h.Actions) > 0 {
		for i, a := range h.Actions {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, a)
		}
	} else {
		var text []byte
		for i, a := range h.ParsedActions {
			if i > 0 {
				b = append(b, ", "...)
			}
			text = a.appendText(text[:0])
			b = appendString(b, string(text))
		}
	}
	b = append(b, "]\n"...)

	b = appendStringField(b, fAuthor, h.Author, false)
	b = appendStringField(b, fEvent, h.Event, false)
	b = appendStringField(b, fURL, h.URL, false)
	b = appendStringField(b, fVenue, h.Venue, false)
	b = appendStringField(b, fAddress, h.Address, false)
	b = appendStringField(b, fCity, h.City, false)
	b = appendStringField(b, fRegion, h.Region, false)
	b = appendStringField(b, fPostalCode, h.PostalCode, false)
	b = appendStringField(b, fCountry, h.Country, false)
	if h.Time != "" {
		var t toml.LocalTime
		if err := t.UnmarshalText([]byte(h.Time)); err != nil {
			return nil, fmt.Errorf("phh: Time %q is not a TOML local time such as 19:05:00", h.Time)
		}
		b = appendKey(b, fTime)
		b = append(b, h.Time...)
		b = append(b, '\n')
	}
	b = appendStringField(b, fTimeZone, h.TimeZone, false)
	b = appendStringField(b, fTimeZoneAbbreviation, h.TimeZoneAbbreviation, false)
	b = appendInt(b, fDay, h.Day)
	b = appendInt(b, fMonth, h.Month)
	b = appendInt(b, fYear, h.Year)
	b = appendLabel(b, fHand, h.Hand)
	b = appendInt(b, fLevel, h.Level)
	if h.Seats != nil {
		b = appendKey(b, fSeats)
		b = append(b, '[')
		for i, s := range h.Seats {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendInt(b, int64(s), 10)
		}
		b = append(b, "]\n"...)
	}
	b = appendInt(b, fSeatCount, h.SeatCount)
	b = appendLabel(b, fTable, h.Table)
	if h.Players != nil {
		b = appendKey(b, fPlayers)
		b = append(b, '[')
		for i, s := range h.Players {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendString(b, s)
		}
		b = append(b, "]\n"...)
	}
	b = appendAmounts(b, fFinishingStacks, h.FinishingStacks, false)
	b = appendAmounts(b, fWinnings, h.Winnings, false)
	b = appendStringField(b, fCurrency, h.Currency, false)
	b = appendStringField(b, fCurrencySymbol, h.CurrencySymbol, false)
	if h.TimeLimit != 0 {
		b = appendKey(b, fTimeLimit)
		b = appendSeconds(b, h.TimeLimit)
		b = append(b, '\n')
	}
	if h.TimeBanks != nil {
		b = appendKey(b, fTimeBanks)
		b = append(b, '[')
		for i, f := range h.TimeBanks {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendSeconds(b, f)
		}
		b = append(b, "]\n"...)
	}
	if len(h.Extra) > 0 {
		// Tables inline, one field a line like the rest: written as [a.b.c] headers, nested tables
		// would repeat their whole path on each level, and a small file would marshal to a huge one.
		var extra bytes.Buffer
		enc := toml.NewEncoder(&extra)
		enc.SetTablesInline(true)
		if err := enc.Encode(h.Extra); err != nil {
			return nil, fmt.Errorf("phh: Extra: %w", err)
		}
		b = append(b, extra.Bytes()...)
	}

	// Read it back: a Hand that does not make a valid hand history is an error here, not a bad file
	// later.
	var p Parser
	var back Hand
	if err := p.ParseInto(b, &back); err != nil {
		return nil, fmt.Errorf("phh: the hand is not valid: %w", err)
	}
	if len(h.Actions) > 0 && len(h.ParsedActions) > 0 {
		for i := range h.ParsedActions {
			if !equalAction(h.ParsedActions[i], back.ParsedActions[i]) {
				return nil, fmt.Errorf("phh: Actions[%d] is %q but ParsedActions[%d] is %q: they must be the same action", i, h.Actions[i], i, h.ParsedActions[i])
			}
		}
	}
	return b, nil
}

func equalAction(a, b Action) bool {
	if a.Player != b.Player || a.Kind != b.Kind || a.Amount != b.Amount || a.Unknown != b.Unknown ||
		a.Comment != b.Comment || len(a.Cards) != len(b.Cards) {
		return false
	}
	for i := range a.Cards {
		if a.Cards[i] != b.Cards[i] {
			return false
		}
	}
	return true
}

func appendKey(b []byte, f fieldID) []byte {
	b = append(b, fieldNames[f]...)
	return append(b, " = "...)
}

func appendStringField(b []byte, f fieldID, s string, always bool) []byte {
	if s == "" && !always {
		return b
	}
	b = appendKey(b, f)
	b = appendString(b, s)
	return append(b, '\n')
}

func appendInt(b []byte, f fieldID, n int) []byte {
	if n == 0 {
		return b
	}
	b = appendKey(b, f)
	b = strconv.AppendInt(b, int64(n), 10)
	return append(b, '\n')
}

func appendLabel(b []byte, f fieldID, l Label) []byte {
	if !l.Set {
		return b
	}
	b = appendKey(b, f)
	if l.IsText {
		b = appendString(b, l.Text)
	} else {
		b = strconv.AppendInt(b, l.Number, 10)
	}
	return append(b, '\n')
}

func appendAmounts(b []byte, f fieldID, a []int64, always bool) []byte {
	if a == nil && !always {
		return b
	}
	b = appendKey(b, f)
	b = append(b, '[')
	for i, n := range a {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return append(b, "]\n"...)
}

// appendSeconds writes a time: whole numbers as integers, others as TOML floats.
func appendSeconds(b []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case math.IsNaN(f):
		return append(b, "nan"...)
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.AppendInt(b, int64(f), 10)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// appendString writes s as a TOML string: a literal string in single quotes when s allows it (as
// PHH files are written), else a basic string with escapes.
func appendString(b []byte, s string) []byte {
	literal := utf8.ValidString(s)
	for i := 0; i < len(s) && literal; i++ {
		if c := s[i]; c == '\'' || c < 0x20 && c != '\t' || c == 0x7f {
			literal = false
		}
	}
	if literal {
		b = append(b, '\'')
		b = append(b, s...)
		return append(b, '\'')
	}
	b = append(b, '"')
	for _, r := range s {
		switch r {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\t':
			b = append(b, `\t`...)
		case '\r':
			b = append(b, `\r`...)
		default:
			if r < 0x20 || r == 0x7f {
				b = fmt.Appendf(b, `\u%04X`, r)
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return append(b, '"')
}
