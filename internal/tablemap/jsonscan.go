package tablemap

import (
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
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
// space; strings and numbers keep their exact text.
func appendCompact(dst, b []byte) []byte {
	run := 0 // start of the bytes not yet copied: copied in runs, not byte by byte
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case isWS(c):
			dst = append(dst, b[run:i]...)
			run = i + 1
		case c == '"':
			e, _, err := stringEnd(b, i)
			if err != nil {
				return append(dst, b[run:]...)
			}
			i = e - 1
		}
	}
	return append(dst, b[run:]...)
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
func appendFiltered(dst, b []byte, i int, f *trie, scratch *[]byte) ([]byte, int, error) {
	i = skipWS(b, i)
	if i >= len(b) {
		return dst, i, errSyntax
	}
	if f == nil || (b[i] != '{' && b[i] != '[') {
		e, err := valueEnd(b, i)
		if err != nil {
			return dst, i, err
		}
		return appendCompact(dst, b[i:e]), e, nil
	}
	if b[i] == '[' {
		return appendFilteredArray(dst, b, i, f, scratch)
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
			if dst, j, err = appendFiltered(dst, b, j, sub, scratch); err != nil {
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

func appendFilteredArray(dst, b []byte, i int, f *trie, scratch *[]byte) ([]byte, int, error) {
	dst = append(dst, '[')
	i = skipWS(b, i+1)
	first := true
	var err error
	for i < len(b) && b[i] != ']' {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		if dst, i, err = appendFiltered(dst, b, i, f, scratch); err != nil {
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
