package phh

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// The fast path. Hand histories are written in a small part of TOML: one "key = value" a line, bare
// keys, integers, simple floats, strings without escapes, booleans, arrays of those (on one line or
// several), comments. scan reads exactly that part and nothing else; for anything outside it (a
// table, a date, an escape, an error) it reports false and Parse hands the file to the TOML library,
// which reads the rest of TOML and words the syntax errors. What scan accepts, the library accepts
// with the same values: FuzzFastMatchesLibrary checks it.

// valueKind is the TOML type of a value.
type valueKind uint8

const (
	kindInt valueKind = iota + 1
	kindFloat
	kindString
	kindBool
	kindArray
	kindOther // a value of any other type, kept in value.other (library path only)
)

// value is one TOML value with the line it starts on. It holds no pointers, so that filling the
// Parser's arrays of them costs no garbage-collector write barriers: a string is a range of the
// Parser's src, an array a range of its elems.
type value struct {
	kind valueKind
	b    bool  // kindBool
	line int32 // 1-based
	a, z int32 // kindString: p.src[a:z]; kindArray: p.elems[a:z]
	i    int64 // kindInt; kindOther: the index of the decoded value in p.others
	f    float64
}

// field is one top-level key with its value.
type field struct {
	key string
	val value
	raw any // the library's decoded value (library path), for Extra
}

// str returns a string value's text.
func (p *Parser) str(v *value) string { return p.src[v.a:v.z] }

// elemsOf returns an array value's elements.
func (p *Parser) elemsOf(v *value) []value { return p.elems[v.a:v.z] }

// maxScanKeys is the most top-level keys scan reads; a file with more goes to the library.
const maxScanKeys = 64

// scan reads src into p.fields, or reports false when src is outside the subset it reads.
func (p *Parser) scan(src string) bool {
	p.fields = p.fields[:0]
	p.elems = p.elems[:0]
	p.src = src
	if len(src) > math.MaxInt32 || !utf8.ValidString(src) {
		return false
	}
	i, line := 0, 1
	var keys uint64 // a filter of the keys seen
	for {
		i = skipBlank(src, i)
		if i == len(src) {
			return true
		}
		switch src[i] {
		case '\n':
			i, line = i+1, line+1
			continue
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i, line = i+2, line+1
				continue
			}
			return false
		case '#':
			var ok bool
			if i, ok = skipComment(src, i); !ok {
				return false
			}
			continue
		}
		start := i
		for i < len(src) && isBareKeyChar(src[i]) {
			i++
		}
		if i == start {
			return false
		}
		key := src[start:i]
		i = skipBlank(src, i)
		if i == len(src) || src[i] != '=' {
			return false
		}
		i = skipBlank(src, i+1)
		// A duplicate key is for the library to word. Compare keys only when a cheap 64-bit filter of
		// the keys seen says this one may be among them.
		// Beyond maxScanKeys keys (a hand history has about 20) the library, with its map, is faster.
		if len(p.fields) == maxScanKeys {
			return false
		}
		if bit := uint64(1) << ((uint(len(key))*7 + uint(key[0]) + uint(key[len(key)-1])*3) & 63); keys&bit != 0 {
			for k := range p.fields {
				if p.fields[k].key == key {
					return false
				}
			}
		} else {
			keys |= bit
		}
		v := value{line: int32(line)}
		var ok bool
		if i < len(src) && src[i] == '[' {
			if i, line, ok = p.scanArray(src, i+1, line, &v); !ok {
				return false
			}
		} else if i, ok = scanScalar(src, i, &v); !ok {
			return false
		}
		// The rest of the line: blanks, perhaps a comment, then the end of the line or of the file.
		i = skipBlank(src, i)
		if i < len(src) {
			switch src[i] {
			case '#':
				if i, ok = skipComment(src, i); !ok {
					return false
				}
			case '\n', '\r':
			default:
				return false
			}
		}
		p.fields = append(p.fields, field{key: key, val: v})
	}
}

// scanArray reads the elements of an array whose "[" is just before src[i]. Elements are scalars.
func (p *Parser) scanArray(src string, i, line int, v *value) (int, int, bool) {
	first := len(p.elems)
	var ok bool
	for {
		if i, line, ok = skipArraySpace(src, i, line); !ok {
			return i, line, false
		}
		if src[i] == ']' {
			break
		}
		e := value{line: int32(line)}
		if i, ok = scanScalar(src, i, &e); !ok {
			return i, line, false
		}
		p.elems = append(p.elems, e)
		if i, line, ok = skipArraySpace(src, i, line); !ok {
			return i, line, false
		}
		if src[i] == ',' {
			i++
			continue
		}
		if src[i] != ']' {
			return i, line, false
		}
		break
	}
	v.kind, v.a, v.z = kindArray, int32(first), int32(len(p.elems))
	return i + 1, line, true
}

// skipArraySpace skips blanks, newlines and comments inside an array; it fails at the end of src.
func skipArraySpace(src string, i, line int) (int, int, bool) {
	var ok bool
	for i < len(src) {
		switch src[i] {
		case ' ', '\t':
			i++
		case '\n':
			i, line = i+1, line+1
		case '\r':
			if i+1 == len(src) || src[i+1] != '\n' {
				return i, line, false
			}
			i, line = i+2, line+1
		case '#':
			if i, ok = skipComment(src, i); !ok {
				return i, line, false
			}
		default:
			return i, line, true
		}
	}
	return i, line, false
}

// scanScalar reads an integer, a float written digits.digits, a string without escapes or a boolean.
func scanScalar(src string, i int, v *value) (int, bool) {
	if i == len(src) {
		return i, false
	}
	switch c := src[i]; {
	case c == '\'' || c == '"':
		if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
			return i, false // a multi-line string
		}
		// A literal string ('…') ends at the next quote; a basic one ("…") also stops at a backslash,
		// an escape, left to the library. Neither may hold a control character but tab.
		stop := &literalStop
		if c == '"' {
			stop = &basicStop
		}
		j := i + 1
		for j < len(src) && !stop[src[j]] {
			j++
		}
		if j == len(src) || src[j] != c {
			return j, false
		}
		v.kind, v.a, v.z = kindString, int32(i+1), int32(j)
		return j + 1, true
	case c == 't' || c == 'f':
		word := "true"
		if c == 'f' {
			word = "false"
		}
		if len(src)-i < len(word) || src[i:i+len(word)] != word || !endsValue(src, i+len(word)) {
			return i, false
		}
		v.kind, v.b = kindBool, c == 't'
		return i + len(word), true
	case c == '+' || c == '-' || '0' <= c && c <= '9':
		j := i
		if c == '+' || c == '-' {
			j++
		}
		d := j
		var n uint64 // the integer part, while it has at most 18 digits (and cannot overflow)
		for j < len(src) && '0' <= src[j] && src[j] <= '9' {
			n = n*10 + uint64(src[j]-'0')
			j++
		}
		if j == d || src[d] == '0' && j-d > 1 {
			return i, false // no digits, or a leading zero
		}
		isFloat := false
		if j < len(src) && src[j] == '.' {
			f := j + 1
			for j = f; j < len(src) && '0' <= src[j] && src[j] <= '9'; j++ {
			}
			if j == f {
				return i, false
			}
			isFloat = true
		}
		if !endsValue(src, j) {
			return i, false // an exponent, an underscore, a date, …
		}
		if !isFloat && j-d <= 18 {
			v.kind, v.i = kindInt, int64(n)
			if c == '-' {
				v.i = -v.i
			}
			return j, true
		}
		if isFloat {
			f, err := strconv.ParseFloat(src[i:j], 64)
			if err != nil {
				return i, false
			}
			v.kind, v.f = kindFloat, f
		} else {
			n, err := strconv.ParseInt(src[i:j], 10, 64)
			if err != nil {
				return i, false // out of range
			}
			v.kind, v.i = kindInt, n
		}
		return j, true
	}
	return i, false
}

// endsValue reports whether a value may end just before src[i].
func endsValue(src string, i int) bool {
	if i == len(src) {
		return true
	}
	switch src[i] {
	case ' ', '\t', '\n', '\r', ',', ']', '#':
		return true
	}
	return false
}

func skipBlank(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// skipComment skips from "#" to the end of the line (not including it); it fails on a control
// character, which TOML forbids in comments.
func skipComment(src string, i int) (int, bool) {
	for i++; i < len(src); i++ {
		switch b := src[i]; {
		case b == '\n':
			return i, true
		case b == '\r':
			return i, i+1 < len(src) && src[i+1] == '\n'
		case b < 0x20 && b != '\t', b == 0x7f:
			return i, false
		}
	}
	return i, true
}

func isBareKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// literalStop and basicStop mark the bytes where the scan of a string stops: its closing quote, a
// backslash in a basic string, and the control characters TOML forbids in strings (all but tab).
var literalStop, basicStop = stringStops('\''), stringStops('"')

func stringStops(quote byte) (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = c != '\t'
	}
	t[0x7f], t[quote] = true, true
	if quote == '"' {
		t['\\'] = true
	}
	return t
}
