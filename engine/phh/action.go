package phh

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pokerfloor/pokerfloor/eval"
)

// ActionKind says what an action does.
type ActionKind uint8

// The kinds of action in No-Limit Texas Hold'em PHH notation. The zero value is NoOp: an empty action
// string or a commentary alone, which changes nothing.
const (
	NoOp             ActionKind = iota // "" or "# commentary"
	DealHole                           // d dh pN cards: the dealer deals player N's hole cards
	DealBoard                          // d db cards: the dealer deals flop, turn or river
	Fold                               // pN f
	CheckCall                          // pN cc
	CompleteBetRaise                   // pN cbr amount: bet or raise to amount
	ShowMuck                           // pN sm [cards]: show the cards, or muck without them
)

var kindNames = [...]string{"no-op", "dh", "db", "f", "cc", "cbr", "sm"}

// String returns the kind's PHH code ("dh", "cbr") or "no-op".
func (k ActionKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "ActionKind(" + strconv.Itoa(int(k)) + ")"
}

// Action is one parsed PHH action.
type Action struct {
	Player  int // 1-based player ("p3" is 3); 0 for the dealer and for a no-op
	Kind    ActionKind
	Amount  int64       // CompleteBetRaise: the total the player bets or raises to
	Cards   []eval.Card // DealHole, DealBoard, ShowMuck: the cards, nil when unknown or mucked
	Unknown bool        // the cards were written as unknown ("????")
	Comment string      // the commentary after "#", trimmed
}

// Mucks reports whether a ShowMuck action mucks the hand: no cards, or unknown ones.
func (a Action) Mucks() bool { return a.Kind == ShowMuck && len(a.Cards) == 0 }

// String writes the action in PHH notation: "d dh p1 Kc8s", "p3 cbr 225 # commentary".
func (a Action) String() string { return string(a.appendText(nil)) }

func (a Action) appendText(b []byte) []byte {
	start := len(b)
	switch a.Kind {
	case NoOp:
	case DealHole:
		b = append(b, "d dh p"...)
		b = strconv.AppendInt(b, int64(a.Player), 10)
		b = append(b, ' ')
		b = appendCards(b, a.Cards, a.Unknown)
	case DealBoard:
		b = append(b, "d db "...)
		b = appendCards(b, a.Cards, a.Unknown)
	default:
		b = append(b, 'p')
		b = strconv.AppendInt(b, int64(a.Player), 10)
		b = append(b, ' ')
		b = append(b, a.Kind.String()...)
		if a.Kind == CompleteBetRaise {
			b = append(b, ' ')
			b = strconv.AppendInt(b, a.Amount, 10)
		}
		if a.Kind == ShowMuck && (a.Unknown || len(a.Cards) > 0) {
			b = append(b, ' ')
			b = appendCards(b, a.Cards, a.Unknown)
		}
	}
	if a.Comment != "" {
		if len(b) > start {
			b = append(b, ' ')
		}
		b = append(b, "# "...)
		b = append(b, a.Comment...)
	}
	return b
}

func appendCards(b []byte, cards []eval.Card, unknown bool) []byte {
	if unknown {
		return append(b, "????"...)
	}
	for _, c := range cards {
		b = append(b, c.String()...)
	}
	return b
}

// ParseAction reads one action string: "d dh p1 Kc8s" (hole cards, "????" when unknown),
// "d db JcTs2d", "p2 f", "p2 cc", "p2 cbr 225" (an amount may be written "225.0"), "p2 sm Js8h",
// "p2 sm" or "p2 sm ????" (a muck), each optionally followed by "# commentary"; an empty string or a
// commentary alone is a NoOp. Errors are *ActionError. The short form "pN sm -" (show the cards dealt)
// needs the hand it belongs to, so only Parse accepts it.
func ParseAction(s string) (Action, error) {
	var a Action
	_, dash, err := parseActionInto(&a, s, nil)
	if err == nil && dash {
		return Action{}, &ActionError{Action: s, Reason: `"-" stands for the hole cards dealt earlier in the hand; parse the whole hand to resolve it`}
	}
	return a, err
}

// parseActionInto is ParseAction writing into *a and appending the cards to buf, so that a hand's
// cards share one array. dash reports a ShowMuck written "pN sm -", whose cards the caller fills in.
func parseActionInto(a *Action, s string, buf []eval.Card) (_ []eval.Card, dash bool, err error) {
	*a = Action{}
	body := s
	if i := strings.IndexByte(s, '#'); i >= 0 {
		body = s[:i]
		a.Comment = strings.TrimSpace(s[i+1:])
	}
	var w [4]string
	n := 0
	for i := 0; i < len(body); {
		for i < len(body) && isSpace(body[i]) {
			i++
		}
		if i == len(body) {
			break
		}
		start := i
		for i < len(body) && !isSpace(body[i]) {
			i++
		}
		if n == len(w) {
			*a = Action{}
			return buf, false, &ActionError{Action: s, Reason: "too many words (an action is at most 4, as in \"d dh p1 Kc8s\")"}
		}
		w[n] = body[start:i]
		n++
	}
	bad := func(format string, args ...any) ([]eval.Card, bool, error) {
		*a = Action{}
		return buf, false, &ActionError{Action: s, Reason: fmt.Sprintf(format, args...)}
	}
	switch {
	case n == 0:
		return buf, false, nil
	case w[0] == "d":
		if n < 2 {
			return bad("the dealer's action is missing (expected dh or db)")
		}
		switch w[1] {
		case "dh":
			if n != 4 {
				return bad(`expected "d dh pN cards", as in "d dh p1 Kc8s"`)
			}
			p, ok := parsePlayer(w[2])
			if !ok {
				return bad("%q is not a player (expected p1, p2, …)", w[2])
			}
			a.Kind, a.Player = DealHole, p
			return parseActionCards(a, s, w[3], buf, 2, 2, true)
		case "db":
			if n != 3 {
				return bad(`expected "d db cards", as in "d db JcTs2d"`)
			}
			a.Kind = DealBoard
			return parseActionCards(a, s, w[2], buf, 1, 5, false)
		default:
			return bad("unknown dealer action %q (expected dh or db)", w[1])
		}
	case w[0][0] == 'p':
		p, ok := parsePlayer(w[0])
		if !ok {
			return bad("%q is not a player (expected p1, p2, …)", w[0])
		}
		a.Player = p
		if n < 2 {
			return bad("the action is missing after %s (expected f, cc, cbr or sm)", w[0])
		}
		switch w[1] {
		case "f", "cc":
			if n != 2 {
				return bad("%s takes no argument", w[1])
			}
			a.Kind = Fold
			if w[1] == "cc" {
				a.Kind = CheckCall
			}
			return buf, false, nil
		case "cbr":
			if n != 3 {
				return bad(`cbr needs one amount, as in "%s cbr 300"`, w[0])
			}
			amt, reason := parseAmount(w[2])
			if reason != "" {
				return bad("%s", reason)
			}
			a.Kind, a.Amount = CompleteBetRaise, amt
			return buf, false, nil
		case "sm":
			a.Kind = ShowMuck
			switch {
			case n == 2:
				return buf, false, nil
			case n != 3:
				return bad("sm takes at most one argument, the cards shown")
			case w[2] == "-":
				return buf, true, nil
			}
			return parseActionCards(a, s, w[2], buf, 2, 2, true)
		case "pb", "sd":
			return bad("%s is not an action of No-Limit Texas Hold'em", w[1])
		default:
			return bad("unknown action %q (expected f, cc, cbr or sm)", w[1])
		}
	default:
		return bad("unknown actor %q (expected d for the dealer or pN for player N)", w[0])
	}
}

// parseActionCards reads the cards of a deal or show into a: between min and max of them, all known
// or (when unknownOK) all unknown.
func parseActionCards(a *Action, s, text string, buf []eval.Card, min, max int, unknownOK bool) ([]eval.Card, bool, error) {
	start := len(buf)
	fail := func(reason string, err error) ([]eval.Card, bool, error) {
		*a = Action{}
		return buf[:start], false, &ActionError{Action: s, Reason: reason, Err: err}
	}
	if len(text)%2 != 0 {
		return fail(fmt.Sprintf("cards %q: each card is two characters, rank then suit, as in Kc8s", text), nil)
	}
	count := len(text) / 2
	if count < min || count > max {
		want := strconv.Itoa(min)
		if max != min {
			want = fmt.Sprintf("%d to %d", min, max)
		}
		return fail(fmt.Sprintf("cards %q: expected %s cards, found %d", text, want, count), nil)
	}
	unknown := 0
	var seen eval.CardSet
	for i := 0; i < len(text); i += 2 {
		t := text[i : i+2]
		if t == "??" {
			unknown++
			continue
		}
		r, su := rankOf[t[0]], suitOf[t[1]]
		if r < 0 || su < 0 {
			_, err := eval.ParseCard(t)
			if err == nil { // a lower-case rank or an upper-case suit: eval accepts it, PHH does not
				err = &eval.ErrBadCard{Text: t, Reason: "PHH writes the rank in upper case and the suit in lower case"}
			}
			return fail(err.Error(), err)
		}
		c := eval.NewCard(eval.Rank(r), eval.Suit(su))
		if seen.Has(c) {
			return fail(fmt.Sprintf("card %s appears twice", c), &eval.ErrDuplicateCard{Card: c})
		}
		seen = seen.Add(c)
		buf = append(buf, c)
	}
	switch {
	case unknown == count && unknownOK:
		a.Unknown = true
	case unknown == count:
		return fail(fmt.Sprintf("cards %q: board cards must be known", text), nil)
	case unknown > 0:
		return fail(fmt.Sprintf("cards %q: partly unknown cards are not supported (write all of them, or ????)", text), nil)
	default:
		a.Cards = buf[start:len(buf):len(buf)]
	}
	return buf, false, nil
}

// rankOf and suitOf read PHH's card characters, -1 for any other byte: ranks "23456789TJQKA" in upper
// case, suits "cdhs" in lower case.
var rankOf, suitOf = cardCharTable("23456789TJQKA"), cardCharTable("cdhs")

func cardCharTable(chars string) (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(chars); i++ {
		t[chars[i]] = int8(i)
	}
	return t
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// maxPlayers bounds the player numbers an action may name, far above any table, so that a number
// never overflows.
const maxPlayers = 1 << 16

// parsePlayer reads "p3" as 3.
func parsePlayer(t string) (int, bool) {
	if len(t) < 2 || t[0] != 'p' || t[1] == '0' {
		return 0, false
	}
	n := 0
	for i := 1; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
		n = n*10 + int(t[i]-'0')
		if n > maxPlayers {
			return 0, false
		}
	}
	return n, true
}

// parseAmount reads a bet: a positive whole number of chips, written "225" or "225.0". It returns
// the reason when the text is not one.
func parseAmount(t string) (int64, string) {
	digits, frac := t, ""
	if i := strings.IndexByte(t, '.'); i >= 0 {
		digits, frac = t[:i], t[i+1:]
		if frac == "" {
			return 0, fmt.Sprintf("amount %q is not a number", t)
		}
	}
	if digits == "" {
		return 0, fmt.Sprintf("amount %q is not a number", t)
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, fmt.Sprintf("amount %q is not a positive whole number of chips", t)
		}
		if n > (1<<63-1-9)/10 {
			return 0, fmt.Sprintf("amount %q is too large", t)
		}
		n = n*10 + int64(c-'0')
	}
	for i := 0; i < len(frac); i++ {
		switch c := frac[i]; {
		case c == '0':
		case '1' <= c && c <= '9':
			return 0, fmt.Sprintf("amount %q is not a whole number of chips", t)
		default:
			return 0, fmt.Sprintf("amount %q is not a number", t)
		}
	}
	if n == 0 {
		return 0, fmt.Sprintf("amount %q must be positive", t)
	}
	return n, ""
}
