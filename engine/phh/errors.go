package phh

import (
	"fmt"
	"strconv"
	"strings"
)

// Error is what Parse returns for a file it cannot read: where (file, line, column when known), which
// field ("antes", "actions[3]") and what is wrong or expected.
type Error struct {
	File   string // set by ParseFile
	Line   int    // 1-based; 0 when unknown (a missing field has no line)
	Column int    // 1-based; 0 when unknown
	Field  string // the field, with the index of an array element: "starting_stacks[2]"
	Msg    string
	Err    error // the underlying error, if any (an *ActionError, a TOML decoding error)
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
		if e.Line > 0 {
			b.WriteString(strconv.Itoa(e.Line))
			b.WriteString(":")
			if e.Column > 0 {
				b.WriteString(strconv.Itoa(e.Column))
				b.WriteString(":")
			}
		}
		b.WriteString(" ")
	} else if e.Line > 0 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteString(", column ")
			b.WriteString(strconv.Itoa(e.Column))
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// ActionError says that an action string is not valid PHH notation for No-Limit Texas Hold'em.
type ActionError struct {
	Action string // the action as written
	Reason string
	Err    error // the card error, when a card is the problem
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("malformed action %q: %s", e.Action, e.Reason)
}

func (e *ActionError) Unwrap() error { return e.Err }
