package streammap

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"
)

// jsonStyle chooses how Starlark values become JSON text.
type jsonStyle struct {
	itemSep, keySep string // "," ":" in records; ", " ": " for json.dumps (Python's default)
	ascii           bool   // escape non-ASCII as \uXXXX (Python's ensure_ascii)
	sortKeys        bool
	raw             bool // the whole record value keeps its input bytes
}

// recordStyle is the style of computed values in output records: compact,
// UTF-8, and the record itself (an expression "record") byte-exact.
var recordStyle = jsonStyle{itemSep: ",", keySep: ":", raw: true}

// appendJSON appends v as JSON. Python's json.dumps conventions hold: a
// tuple is an array, dict keys must be strings (ints are converted), floats
// use Python's repr; datetime values become ISO 8601 strings.
func appendJSON(dst []byte, v starlark.Value, st *jsonStyle, depth int) ([]byte, error) {
	if depth > maxDepth {
		return dst, errors.New("value nested too deeply (or cyclic)")
	}
	switch v := v.(type) {
	case starlark.NoneType:
		return append(dst, "null"...), nil
	case starlark.Bool:
		return strconv.AppendBool(dst, bool(v)), nil
	case starlark.Int:
		if n, ok := v.Int64(); ok {
			return strconv.AppendInt(dst, n, 10), nil
		}
		return v.BigInt().Append(dst, 10), nil
	case starlark.Float:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return dst, fmt.Errorf("cannot encode %s as JSON", v)
		}
		return appendPyFloat(dst, float64(v)), nil
	case starlark.String:
		return appendString(dst, string(v), st.ascii), nil
	case *dateTime:
		return appendString(dst, v.isoformat(), st.ascii), nil
	case *recordValue:
		return v.appendJSON(dst, st, depth)
	case *starlark.Dict:
		return appendDict(dst, v, st, depth)
	case *starlark.List, starlark.Tuple:
		return appendArray(dst, v.(starlark.Indexable), st, depth)
	}
	return dst, fmt.Errorf("cannot encode a %s as JSON", v.Type())
}

func appendArray(dst []byte, a starlark.Indexable, st *jsonStyle, depth int) ([]byte, error) {
	dst = append(dst, '[')
	for i := range a.Len() {
		if i > 0 {
			dst = append(dst, st.itemSep...)
		}
		var err error
		if dst, err = appendJSON(dst, a.Index(i), st, depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, ']'), nil
}

func appendDict(dst []byte, d *starlark.Dict, st *jsonStyle, depth int) ([]byte, error) {
	type kv struct {
		k string
		v starlark.Value
	}
	items := make([]kv, 0, d.Len())
	for _, it := range d.Items() {
		k, err := dictKey(it[0])
		if err != nil {
			return dst, err
		}
		items = append(items, kv{k, it[1]})
	}
	if st.sortKeys {
		slices.SortFunc(items, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	}
	dst = append(dst, '{')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, st.itemSep...)
		}
		dst = appendString(dst, it.k, st.ascii)
		dst = append(dst, st.keySep...)
		var err error
		if dst, err = appendJSON(dst, it.v, st, depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// dictKey converts a dict key as Python's json.dumps does.
func dictKey(k starlark.Value) (string, error) {
	switch k := k.(type) {
	case starlark.String:
		return string(k), nil
	case starlark.Int:
		return k.String(), nil
	case starlark.Bool:
		return strconv.FormatBool(bool(k)), nil
	case starlark.NoneType:
		return "null", nil
	case starlark.Float:
		return string(appendPyFloat(nil, float64(k))), nil
	}
	return "", fmt.Errorf("cannot use a %s as a JSON object key", k.Type())
}

// appendPyFloat formats f as Python's repr does: the shortest digits that
// round-trip, fixed notation for exponents -4..15 (with ".0" when
// integral), else d.ddde±XX.
func appendPyFloat(dst []byte, f float64) []byte {
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	p := slices.Index(e, 'e')
	exp, _ := strconv.Atoi(string(e[p+1:]))
	if exp >= -4 && exp < 16 {
		n := len(dst)
		dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
		if !slices.Contains(dst[n:], '.') {
			dst = append(dst, ".0"...)
		}
		return dst
	}
	dst = append(dst, e[:p]...)
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD.
func appendString(dst []byte, s string, ascii bool) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || ascii {
			dst = append(dst, s[start:i]...)
			if ascii {
				dst = appendU(dst, r)
			} else {
				dst = append(dst, `\ufffd`...)
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendU appends r as \uXXXX escapes (a surrogate pair above U+FFFF).
func appendU(dst []byte, r rune) []byte {
	if r > 0xFFFF {
		r -= 0x10000
		dst = appendU(dst, 0xD800+(r>>10))
		return appendU(dst, 0xDC00+(r&0x3FF))
	}
	return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}
