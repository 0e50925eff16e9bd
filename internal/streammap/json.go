package streammap

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"go.starlark.net/starlark"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
)

// member is one member of a JSON object as raw bytes of the input.
type member struct {
	key  []byte // the key token as written, quotes included
	name []byte // the decoded key (aliases key when it has no escapes)
	val  []byte // the value as written
}

var errNotObject = errors.New("not a JSON object")

// scanObject appends the members of the JSON object b to dst without
// decoding values. Values are delimited, not validated: malformed values
// pass through to the stages after mapping, which reject them.
func scanObject(dst []member, b []byte) ([]member, error) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return dst, errNotObject
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return dst, trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return dst, fmt.Errorf("offset %d: want a member name", i)
		}
		end, err := skipStringToken(b, i)
		if err != nil {
			return dst, err
		}
		m := member{key: b[i:end]}
		if m.name, err = decodeKey(m.key); err != nil {
			return dst, err
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return dst, fmt.Errorf("offset %d: want ':'", i)
		}
		start := skipSpace(b, i+1)
		if end, err = skipValue(b, start); err != nil {
			return dst, err
		}
		m.val = b[start:end]
		dst = append(dst, m)
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return dst, trailing(b, i+1)
		}
		return dst, fmt.Errorf("offset %d: want ',' or '}'", i)
	}
}

func trailing(b []byte, i int) error {
	if skipSpace(b, i) != len(b) {
		return fmt.Errorf("offset %d: data after the object", i)
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipStringToken returns the index just past the string starting at b[i].
func skipStringToken(b []byte, i int) (int, error) {
	if end, _ := jsonscan.StringEnd(b, i); end >= 0 {
		return end, nil
	}
	return 0, fmt.Errorf("offset %d: unterminated string", i)
}

// skipValue returns the index just past the value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if end := jsonscan.ValueEnd(b, i); end >= 0 {
		return end, nil
	}
	if i >= len(b) {
		return 0, fmt.Errorf("offset %d: want a value", i)
	}
	switch b[i] {
	case '"':
		return 0, fmt.Errorf("offset %d: unterminated string", i)
	case '{', '[':
		// The string that does not close, if one does not, else the
		// brackets.
		for j := i; j < len(b); j++ {
			if b[j] == '"' {
				end, err := skipStringToken(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			}
		}
		return 0, fmt.Errorf("offset %d: unterminated %c", i, b[i])
	}
	return 0, fmt.Errorf("offset %d: want a value", i)
}

// decodeKey returns the decoded name of a key token, without copying when
// the key has no escapes.
func decodeKey(tok []byte) ([]byte, error) {
	body := tok[1 : len(tok)-1]
	if !slices.Contains(body, '\\') {
		return body, nil
	}
	s, err := decodeString(tok)
	return []byte(s), err
}

// decodeString decodes a JSON string token (quotes included).
func decodeString(tok []byte) (string, error) {
	body := tok[1 : len(tok)-1]
	if !slices.Contains(body, '\\') {
		return string(body), nil
	}
	out, bad := jsonscan.AppendUnescaped(make([]byte, 0, len(body)), body, false)
	switch {
	case bad < 0:
		return string(out), nil
	case bad+1 >= len(body):
		return "", errors.New("bad escape at end of string")
	case body[bad+1] == 'u':
		return "", errors.New(`bad \u escape`)
	}
	return "", fmt.Errorf("bad escape \\%c", body[bad+1])
}

// decodeValue converts one raw JSON value to a Starlark value: strings,
// booleans, null, lists and dicts as Python's json module would; integers
// to Starlark ints (arbitrary precision, exact); numbers with a fraction or
// exponent to floats (the one lossy step, taken only for values an
// expression reads).
func decodeValue(b []byte) (starlark.Value, error) {
	d := decoder{b: b}
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if d.i = skipSpace(b, d.i); d.i != len(b) {
		return nil, fmt.Errorf("offset %d: data after the value", d.i)
	}
	return v, nil
}

type decoder struct {
	b []byte
	i int
}

// maxDepth bounds the decoder's recursion at the reader's limit.
const maxDepth = jsonscan.MaxDepth

func (d *decoder) value(depth int) (starlark.Value, error) {
	if depth > maxDepth {
		return nil, errors.New("value nested too deeply")
	}
	d.i = skipSpace(d.b, d.i)
	start := d.i
	end, err := skipValue(d.b, start)
	if err != nil {
		return nil, err
	}
	switch c := d.b[start]; {
	case c == '"':
		d.i = end
		s, err := decodeString(d.b[start:end])
		return starlark.String(s), err
	case c == '{':
		d.i = start + 1
		return d.object(depth)
	case c == '[':
		d.i = start + 1
		return d.array(depth)
	default:
		d.i = end
		return literal(d.b[start:end])
	}
}

func (d *decoder) object(depth int) (starlark.Value, error) {
	dict := starlark.NewDict(4)
	if d.i = skipSpace(d.b, d.i); d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return dict, nil
	}
	for {
		d.i = skipSpace(d.b, d.i)
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, fmt.Errorf("offset %d: want a member name", d.i)
		}
		end, err := skipStringToken(d.b, d.i)
		if err != nil {
			return nil, err
		}
		k, err := decodeString(d.b[d.i:end])
		if err != nil {
			return nil, err
		}
		if d.i = skipSpace(d.b, end); d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, fmt.Errorf("offset %d: want ':'", d.i)
		}
		d.i++
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := dict.SetKey(starlark.String(k), v); err != nil {
			return nil, err
		}
		if done, err := d.next('}'); done || err != nil {
			return dict, err
		}
	}
}

func (d *decoder) array(depth int) (starlark.Value, error) {
	var elems []starlark.Value
	if d.i = skipSpace(d.b, d.i); d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return starlark.NewList(elems), nil
	}
	for {
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		elems = append(elems, v)
		if done, err := d.next(']'); done || err != nil {
			return starlark.NewList(elems), err
		}
	}
}

// next consumes a ',' (false) or the closing byte (true).
func (d *decoder) next(closing byte) (bool, error) {
	d.i = skipSpace(d.b, d.i)
	if d.i < len(d.b) && d.b[d.i] == ',' {
		d.i++
		return false, nil
	}
	if d.i < len(d.b) && d.b[d.i] == closing {
		d.i++
		return true, nil
	}
	return false, fmt.Errorf("offset %d: want ',' or '%c'", d.i, closing)
}

// literal converts true, false, null or a number.
func literal(b []byte) (starlark.Value, error) {
	switch string(b) {
	case "true":
		return starlark.True, nil
	case "false":
		return starlark.False, nil
	case "null":
		return starlark.None, nil
	}
	if !isNumber(b) {
		return nil, fmt.Errorf("invalid JSON value %.40q", b)
	}
	if !slices.ContainsFunc(b, func(c byte) bool { return c == '.' || c == 'e' || c == 'E' }) {
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			return starlark.MakeInt64(n), nil
		}
		n, _ := new(big.Int).SetString(string(b), 10)
		return starlark.MakeBigInt(n), nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, fmt.Errorf("number %.40s is out of the float range", b)
	}
	return starlark.Float(f), nil
}

// isNumber reports whether b is a JSON number.
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}
