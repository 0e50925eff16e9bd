package oravalue

import (
	"encoding/json"
	"strconv"
	"sync"
)

// Repeated member names. Oracle's JSON type holds unique member names
// only ("A JSON type instance is always STRICT and has unique keys"): the
// JSON() constructor keeps one of the repeated members, and SQL/JSON
// (JSON_VALUE, dot notation) reads the first one of a text, where the
// loader's validator reads the last. A document that repeats a name in
// one of its objects is therefore refused, before the validator's reading
// and Oracle's can differ.

// DuplicateName returns the path (member names and array indexes, from
// the top) to the first member of an object of JSON text doc whose name
// repeats an earlier member of the same object, or nil when there is
// none. Text that is not JSON reports nil: its syntax is checked
// elsewhere.
func DuplicateName[T ~string | ~[]byte](doc T) []string {
	kp := namePool.Get().(*[]nameSpan)
	d := dupScan[T]{b: doc, keys: (*kp)[:0]}
	_, path, ok := d.value(0)
	*kp = d.keys[:0]
	namePool.Put(kp)
	if !ok {
		return nil
	}
	return path
}

// namePool keeps the name stacks of DuplicateName, which would otherwise
// allocate one for every document (the scanner's recursion makes its
// state escape).
var namePool = sync.Pool{New: func() any { s := make([]nameSpan, 0, 32); return &s }}

type dupScan[T ~string | ~[]byte] struct {
	b    T
	keys []nameSpan // the names of the objects being scanned, outermost first
}

// nameSpan is a member name's string (quotes included) in the text.
type nameSpan struct {
	at, end int
	esc     bool
}

// name is the member name of k, unescaped.
func (d *dupScan[T]) name(k nameSpan) string {
	if !k.esc {
		return string(d.b[k.at+1 : k.end-1])
	}
	var s string
	_ = json.Unmarshal([]byte(string(d.b[k.at:k.end])), &s)
	return s
}

// same reports whether two member names are equal.
func (d *dupScan[T]) same(a, b nameSpan) bool {
	if !a.esc && !b.esc {
		return string(d.b[a.at:a.end]) == string(d.b[b.at:b.end])
	}
	return d.name(a) == d.name(b)
}

func (d *dupScan[T]) ws(i int) int {
	for i < len(d.b) && (d.b[i] == ' ' || d.b[i] == '\t' || d.b[i] == '\n' || d.b[i] == '\r') {
		i++
	}
	return i
}

// str returns the index past the string at i (d.b[i] == '"') and whether
// it holds an escape.
func (d *dupScan[T]) str(i int) (int, bool, bool) {
	esc := false
	for j := i + 1; j < len(d.b); j++ {
		switch d.b[j] {
		case '"':
			return j + 1, esc, true
		case '\\':
			esc = true
			j++
		}
	}
	return 0, false, false
}

// value scans the JSON value at i and returns the index after it and the
// path to a repeated name inside it (nil for none); ok is false for text
// that is not JSON.
func (d *dupScan[T]) value(i int) (next int, path []string, ok bool) {
	i = d.ws(i)
	if i >= len(d.b) {
		return i, nil, false
	}
	switch d.b[i] {
	case '"':
		e, _, ok := d.str(i)
		return e, nil, ok
	case '[':
		i = d.ws(i + 1)
		if i < len(d.b) && d.b[i] == ']' {
			return i + 1, nil, true
		}
		for n := 0; ; n++ {
			e, p, ok := d.value(i)
			if !ok {
				return e, nil, false
			}
			if p != nil {
				return e, append([]string{strconv.Itoa(n)}, p...), true
			}
			i = d.ws(e)
			if i >= len(d.b) {
				return i, nil, false
			}
			switch d.b[i] {
			case ',':
				i++
			case ']':
				return i + 1, nil, true
			default:
				return i, nil, false
			}
		}
	case '{':
		// The object's names are popped here, not by a defer: a defer in
		// this recursion cost more instructions than the scan itself.
		base := len(d.keys)
		e, p, ok := d.object(i)
		d.keys = d.keys[:base]
		return e, p, ok
	}
	// A number or a literal: up to the next delimiter.
	j := i
	for j < len(d.b) {
		switch d.b[j] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return j, nil, j > i
		}
		j++
	}
	return j, nil, j > i
}

// object scans the object at i (d.b[i] == '{') as value does, pushing its
// member names on d.keys; the caller pops them.
func (d *dupScan[T]) object(i int) (next int, path []string, ok bool) {
	base := len(d.keys)
	var set map[string]bool
	i = d.ws(i + 1)
	if i < len(d.b) && d.b[i] == '}' {
		return i + 1, nil, true
	}
	for {
		if i >= len(d.b) || d.b[i] != '"' {
			return i, nil, false
		}
		ke, esc, ok := d.str(i)
		if !ok {
			return i, nil, false
		}
		key := nameSpan{i, ke, esc}
		if esc && !json.Valid([]byte(string(d.b[i:ke]))) {
			return i, nil, false
		}
		level := d.keys[base:]
		dup := false
		if set != nil {
			name := d.name(key)
			dup = set[name]
			set[name] = true
		} else {
			for _, k := range level {
				if d.same(k, key) {
					dup = true
					break
				}
			}
			if len(level) >= 16 {
				set = make(map[string]bool, 2*len(level))
				for _, k := range level {
					set[d.name(k)] = true
				}
				set[d.name(key)] = true
			}
		}
		if dup {
			return i, []string{d.name(key)}, true
		}
		d.keys = append(d.keys, key)
		j := d.ws(ke)
		if j >= len(d.b) || d.b[j] != ':' {
			return j, nil, false
		}
		e, p, ok := d.value(j + 1)
		if !ok {
			return e, nil, false
		}
		if p != nil {
			return e, append([]string{d.name(key)}, p...), true
		}
		i = d.ws(e)
		if i >= len(d.b) {
			return i, nil, false
		}
		switch d.b[i] {
		case ',':
			i = d.ws(i + 1)
		case '}':
			return i + 1, nil, true
		default:
			return i, nil, false
		}
	}
}
