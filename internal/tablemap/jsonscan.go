package tablemap

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/value"
)

// A minimal scanner over one record's raw JSON. Records were validated
// before they reach the table model, so the scanner checks structure only
// as far as needed to never read out of bounds or loop; it allocates
// nothing itself.

var errSyntax = errors.New("malformed JSON")

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(b []byte, i int) int {
	for i < len(b) && isWS(b[i]) {
		i++
	}
	return i
}

// stringEnd returns the index just past the string starting at b[i] == '"'
// and whether it holds escapes (jsonscan.StringEnd).
func stringEnd(b []byte, i int) (end int, escaped bool, err error) {
	if end, escaped = jsonscan.StringEnd(b, i); end < 0 {
		return 0, false, errSyntax
	}
	return end, escaped, nil
}

// valueEnd returns the index just past the JSON value starting at b[i]
// (i at its first byte; jsonscan.ValueEnd).
func valueEnd(b []byte, i int) (int, error) {
	if e := jsonscan.ValueEnd(b, i); e >= 0 {
		return e, nil
	}
	return 0, errSyntax
}

// appendUnescaped appends the text of the JSON string body raw (without
// its quotes) to dst. A lone UTF-16 surrogate escape is an error: strings
// must be valid UTF-8.
func appendUnescaped(dst, raw []byte) ([]byte, error) {
	dst, bad := jsonscan.AppendUnescaped(dst, raw, true)
	if bad < 0 {
		return dst, nil
	}
	if bad+1 < len(raw) && raw[bad+1] == 'u' {
		if _, ok := jsonscan.Hex4(raw[bad+2:]); ok {
			return dst, fmt.Errorf("lone UTF-16 surrogate in string: %w", errSyntax)
		}
	}
	return dst, errSyntax
}

// appendCompact appends b (one JSON value) without insignificant white
// space; strings and numbers keep their exact text. A non-nil nc is fed
// the value's braces and member names as the loop meets them, so the
// check for repeated member names (oravalue.NameCheck) needs no pass of
// its own.
func appendCompact(dst, b []byte, nc *oravalue.NameCheck[[]byte]) []byte {
	run := 0 // start of the bytes not yet copied: copied in runs, not byte by byte
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case isWS(c):
			dst = append(dst, b[run:i]...)
			run = i + 1
		case c == '"':
			e, esc, err := stringEnd(b, i)
			if err != nil {
				return append(dst, b[run:]...)
			}
			if nc != nil && oravalue.IsName(b, e) {
				nc.Name(b, i, e, esc)
			}
			i = e - 1
		case c == '{':
			if nc != nil {
				nc.Open()
			}
		case c == '}':
			if nc != nil {
				nc.Close()
			}
		}
	}
	return append(dst, b[run:]...)
}

// compact appends b, one JSON value found at offset base of the bytes
// scanned, compacted (appendCompact). With bound, every number is checked
// against Oracle NUMBER (value.CheckNumber) in the same scan, as a native
// JSON column or document holds it (SPEC §5.3): the first one beyond it
// is a *numberError. nc is appendCompact's.
func compact(dst, b []byte, base int, bound bool, nc *oravalue.NameCheck[[]byte]) ([]byte, error) {
	if !bound {
		return appendCompact(dst, b, nc), nil
	}
	return appendCompactBounded(dst, b, base, nc)
}

// appendCompactBounded is appendCompact checking every number as it goes
// (see compact). The check costs nothing where there is no number: the
// copying loop (compactUntilNumber) makes no call, as appendCompact's.
func appendCompactBounded(dst, b []byte, base int, nc *oravalue.NameCheck[[]byte]) ([]byte, error) {
	for i := 0; ; {
		dst, i = compactUntilNumber(dst, b, i, nc)
		if i >= len(b) {
			return dst, nil
		}
		e, err := boundedNumber(b, i, base)
		if err != nil {
			return dst, err
		}
		dst, i = append(dst, b[i:e]...), e
	}
}

// compactUntilNumber appends b[start:] compacted as appendCompact does
// (feeding nc as it does), up to the first number, and returns the index
// of that number (len(b) when there is none). Outside strings only
// numbers hold '-' or digits.
func compactUntilNumber(dst, b []byte, start int, nc *oravalue.NameCheck[[]byte]) ([]byte, int) {
	run := start // start of the bytes not yet copied
	for i := start; i < len(b); i++ {
		c := b[i]
		if c > '9' {
			// ':', brackets, braces, the letters of true, false, null
			if nc != nil {
				if c == '{' {
					nc.Open()
				} else if c == '}' {
					nc.Close()
				}
			}
			continue
		}
		switch {
		case c == '"':
			e, esc, err := stringEnd(b, i)
			if err != nil {
				return append(dst, b[run:]...), len(b)
			}
			if nc != nil && oravalue.IsName(b, e) {
				nc.Name(b, i, e, esc)
			}
			i = e - 1
		case c == ',':
		case isWS(c):
			dst = append(dst, b[run:i]...)
			run = i + 1
		case c == '-' || c >= '0':
			return append(dst, b[run:i]...), i
		}
	}
	return append(dst, b[run:]...), len(b)
}

// boundedNumber checks the number at b[i] against Oracle NUMBER and
// returns the index past it (out of appendCompactBounded's loop, which
// stays as tight as appendCompact's).
func boundedNumber(b []byte, i, base int) (int, error) {
	e := i + 1
	for e < len(b) && isNumberByte(b[e]) {
		e++
	}
	if _, err := value.CheckNumber(b[i:e]); err != nil {
		return e, &numberError{at: base + i, text: string(b[i:e]), err: err}
	}
	return e, nil
}

func isNumberByte(c byte) bool {
	return c-'0' < 10 || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// numberError is a number of a native JSON value that Oracle NUMBER
// cannot hold exactly, at offset at of the bytes compact scanned.
type numberError struct {
	at   int
	text string
	err  error    // value.CheckNumber's
	path []string // inside the value, when the caller found it (pathTo)
}

// Error is the validator's text for such a number (schema.InvalidNumber),
// so that validate_records on and off say the same.
func (e *numberError) Error() string { return schema.InvalidNumber(e.text, e.err) }

// pathTo returns the path (member names, array indexes in decimal) from
// the JSON value at b[i] to the value starting at offset at, inside it.
// It is for error messages only: it walks the value once more.
func pathTo(b []byte, i, at int) []string {
	var path []string
	var scratch []byte
	for {
		i = skipWS(b, i)
		if i >= at || i >= len(b) || (b[i] != '{' && b[i] != '[') {
			return path
		}
		closing, n := byte('}'), 0
		if b[i] == '[' {
			closing = ']'
		}
		j := skipWS(b, i+1)
		for {
			if j >= len(b) || b[j] == closing {
				return path
			}
			name := strconv.Itoa(n)
			if closing == '}' {
				ke, esc, err := stringEnd(b, j)
				if err != nil {
					return path
				}
				name = string(b[j+1 : ke-1])
				if esc {
					scratch, _ = appendUnescaped(scratch[:0], b[j+1:ke-1])
					name = string(scratch)
				}
				if j = skipWS(b, ke); j >= len(b) || b[j] != ':' {
					return path
				}
				j = skipWS(b, j+1)
			}
			e, err := valueEnd(b, j)
			if err != nil {
				return path
			}
			if at < e {
				path, i = append(path, name), j
				break
			}
			var done bool
			if j, done, err = nextMember(b, e, closing); err != nil || done {
				return path
			}
			n++
		}
	}
}

// trie holds ignored property paths: drop marks a path to remove; kids
// are the next keys.
type trie struct {
	drop bool
	kids map[string]*trie
}

func (t *trie) add(path []string) {
	n := t
	for _, k := range path {
		if n.kids == nil {
			n.kids = make(map[string]*trie)
		}
		c := n.kids[k]
		if c == nil {
			c = &trie{}
			n.kids[k] = c
		}
		n = c
	}
	n.drop = true
}

// child returns the sub-trie of key, or nil.
func (t *trie) child(key string) *trie {
	if t == nil {
		return nil
	}
	return t.kids[key]
}

// paths appends to out the paths t removes, each after prefix.
func (t *trie) paths(prefix []string, out [][]string) [][]string {
	if t == nil {
		return out
	}
	if t.drop {
		return append(out, prefix)
	}
	for k, kid := range t.kids {
		out = kid.paths(append(slices.Clip(prefix), k), out)
	}
	return out
}

// appendFiltered appends the compact form of the value starting at b[i]
// with the paths in f removed, and returns the index past the value. f
// applies to the keys of an object; arrays pass f on to each element, so
// "items.price" drops price from every object in the items array. A nil f
// copies the value. scratch is reused for unescaping keys.
//
// bound bounds the numbers by Oracle NUMBER as they are copied (native
// JSON, SPEC §5.3; see compact): a number beyond it is a *numberError.
func appendFiltered(dst, b []byte, i int, f *trie, scratch *[]byte, bound bool) ([]byte, int, error) {
	i = skipWS(b, i)
	if i >= len(b) {
		return dst, i, errSyntax
	}
	if f == nil || (b[i] != '{' && b[i] != '[') {
		e, err := valueEnd(b, i)
		if err != nil {
			return dst, i, err
		}
		dst, err = compact(dst, b[i:e], i, bound, nil) // the caller checks the whole value for repeated names
		return dst, e, err
	}
	if b[i] == '[' {
		return appendFilteredArray(dst, b, i, f, scratch, bound)
	}
	dst = append(dst, '{')
	i = skipWS(b, i+1)
	first := true
	for i < len(b) && b[i] != '}' {
		ke, esc, err := stringEnd(b, i)
		if err != nil || b[i] != '"' {
			return dst, i, errSyntax
		}
		key := b[i+1 : ke-1]
		if esc {
			*scratch, err = appendUnescaped((*scratch)[:0], key)
			if err != nil {
				return dst, i, err
			}
			key = *scratch
		}
		sub := f.kids[string(key)]
		j := skipWS(b, ke)
		if j >= len(b) || b[j] != ':' {
			return dst, j, errSyntax
		}
		j = skipWS(b, j+1)
		if sub != nil && sub.drop {
			if j, err = valueEnd(b, j); err != nil {
				return dst, j, err
			}
		} else {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, b[i:ke]...)
			dst = append(dst, ':')
			if dst, j, err = appendFiltered(dst, b, j, sub, scratch, bound); err != nil {
				return dst, j, err
			}
		}
		if i, _, err = nextMember(b, j, '}'); err != nil {
			return dst, i, err
		}
	}
	if i >= len(b) {
		return dst, i, errSyntax
	}
	return append(dst, '}'), i + 1, nil
}

func appendFilteredArray(dst, b []byte, i int, f *trie, scratch *[]byte, bound bool) ([]byte, int, error) {
	dst = append(dst, '[')
	i = skipWS(b, i+1)
	first := true
	var err error
	for i < len(b) && b[i] != ']' {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		if dst, i, err = appendFiltered(dst, b, i, f, scratch, bound); err != nil {
			return dst, i, err
		}
		if i, _, err = nextMember(b, i, ']'); err != nil {
			return dst, i, err
		}
	}
	if i >= len(b) {
		return dst, i, errSyntax
	}
	return append(dst, ']'), i + 1, nil
}

// nextMember moves past the ',' after a member and the white space after
// it, returning the index of the next member, or reports done at the
// closing byte, returning its index.
func nextMember(b []byte, i int, closing byte) (next int, done bool, err error) {
	i = skipWS(b, i)
	if i >= len(b) {
		return i, false, errSyntax
	}
	switch b[i] {
	case ',':
		return skipWS(b, i+1), false, nil
	case closing:
		return i, true, nil
	}
	return i, false, errSyntax
}

// validKey reports whether a key's raw body (between its quotes) holds no
// control character and is valid UTF-8; its escapes are checked when it is
// unescaped.
func validKey(body []byte) bool {
	high := false
	for _, c := range body {
		if c < 0x20 {
			return false
		}
		high = high || c >= utf8.RuneSelf
	}
	return !high || utf8.Valid(body)
}
