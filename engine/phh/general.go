package phh

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// The general path: the TOML library reads the whole file, with every part of TOML, and words the
// syntax errors. Its values become the same fields the fast path makes, with lines taken from the
// library's syntax tree, so both paths build the Hand with the same code.

// decode reads data with the TOML library into p.fields, in the order of their lines in the file.
func (p *Parser) decode(data []byte) error {
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		return syntaxError(data, err)
	}
	pos := keyPositions(data)
	p.fields = p.fields[:0]
	p.elems = p.elems[:0]
	p.others = p.others[:0]
	var text []byte // the string values, one after another: p.src
	for key, raw := range m {
		kp := pos[key]
		f := field{key: key, raw: raw}
		f.val, text = p.valueOf(raw, kp.line, kp.elems, text)
		p.fields = append(p.fields, f)
	}
	p.src = string(text)
	// Fields in file order, so that the first error reported is the first in the file, as in the fast
	// path; fields without a line (defined in a [table]) go last.
	sort.Slice(p.fields, func(i, j int) bool {
		a, b := p.fields[i].val.line, p.fields[j].val.line
		if (a == 0) != (b == 0) {
			return b == 0
		}
		if a != b {
			return a < b
		}
		return p.fields[i].key < p.fields[j].key
	})
	return nil
}

// valueOf turns a decoded TOML value into a value, one level deep (an array's elements that are
// arrays or tables are kindOther), appending its strings to text.
func (p *Parser) valueOf(raw any, line int, elemLines []int, text []byte) (value, []byte) {
	arr, ok := raw.([]any)
	if !ok {
		return p.scalarOf(raw, line, text)
	}
	elems := make([]value, len(arr))
	for i, e := range arr {
		l := line
		if i < len(elemLines) && elemLines[i] > 0 {
			l = elemLines[i]
		}
		elems[i], text = p.scalarOf(e, l, text)
	}
	first := len(p.elems)
	p.elems = append(p.elems, elems...)
	return value{kind: kindArray, line: int32(line), a: int32(first), z: int32(len(p.elems))}, text
}

func (p *Parser) scalarOf(raw any, line int, text []byte) (value, []byte) {
	v := value{line: int32(line)}
	switch x := raw.(type) {
	case int64:
		v.kind, v.i = kindInt, x
	case float64:
		v.kind, v.f = kindFloat, x
	case string:
		v.kind, v.a = kindString, int32(len(text))
		text = append(text, x...)
		v.z = int32(len(text))
	case bool:
		v.kind, v.b = kindBool, x
	default:
		v.kind, v.i = kindOther, int64(len(p.others))
		p.others = append(p.others, raw)
	}
	return v, text
}

// keyPos is where a top-level key is: its line, and the lines of its array's scalar elements.
type keyPos struct {
	line  int
	elems []int
}

// keyPositions finds the line of each top-level key of a document the library has accepted.
func keyPositions(data []byte) map[string]keyPos {
	lineOf := lineFinder(data)
	out := make(map[string]keyPos)
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
		e := p.Expression()
		if e.Kind == unstable.Table || e.Kind == unstable.ArrayTable {
			break // the keys after a table header belong to that table
		}
		if e.Kind != unstable.KeyValue {
			continue
		}
		k := e.Key()
		if !k.Next() || !k.IsLast() {
			continue // a dotted key defines a table
		}
		key := k.Node()
		kp := keyPos{line: lineOf(int(key.Raw.Offset))}
		if v := e.Value(); v.Kind == unstable.Array {
			for it := v.Children(); it.Next(); {
				l := 0
				if c := it.Node(); c.Raw.Length > 0 {
					l = lineOf(int(c.Raw.Offset))
				}
				kp.elems = append(kp.elems, l)
			}
		}
		out[string(key.Data)] = kp
	}
	return out
}

// lineFinder returns a function from a byte offset in data to its 1-based line.
func lineFinder(data []byte) func(offset int) int {
	var starts []int // the offset of each line after the first
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(offset int) int {
		n, _ := slices.BinarySearch(starts, offset+1)
		return n + 1
	}
}

// syntaxError turns the library's error into an *Error naming the line and the field being read.
func syntaxError(data []byte, err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &Error{Msg: "TOML: " + strings.TrimPrefix(err.Error(), "toml: "), Err: err}
	}
	line, col := de.Position()
	field := strings.Join(de.Key(), ".")
	if field == "" {
		field = keyBefore(data, line, col)
	}
	return &Error{Line: line, Column: col, Field: field, Msg: "TOML: " + strings.TrimPrefix(de.Error(), "toml: "), Err: err}
}

// keyBefore returns the last key that starts a line ("key = ...") before line:col, the field the
// library was reading when it met an error there; "" when there is none.
func keyBefore(data []byte, line, col int) string {
	lines := bytes.Split(data, []byte("\n"))
	for l := min(line, len(lines)) - 1; l >= 0; l-- {
		text := bytes.TrimLeft(lines[l], " \t")
		indent := len(lines[l]) - len(text)
		n := 0
		for n < len(text) && isBareKeyChar(text[n]) {
			n++
		}
		if n == 0 || l == line-1 && indent >= col-1 {
			continue // not a key, or a key that starts where the error is
		}
		if rest := bytes.TrimLeft(text[n:], " \t"); len(rest) > 0 && rest[0] == '=' {
			return string(text[:n])
		}
	}
	return ""
}
