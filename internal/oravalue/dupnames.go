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
	if !mayRepeatName(doc) {
		return nil
	}
	return exactDuplicateName(doc)
}

// exactDuplicateName is DuplicateName without its fast path.
func exactDuplicateName[T ~string | ~[]byte](doc T) []string {
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

// Bounds of NameCheck's fixed state: past them it is unsure and defers to
// the exact scan, whose map serves objects with many members better than a
// linear search.
const (
	quickDepth    = 32 // containers open at once
	quickNames    = 64 // member names of the open objects together
	quickPerLevel = 16 // member names of one object
)

// NameCheck is DuplicateName's fast path, fed by a pass over a JSON text
// that meets its bytes anyway (a compaction; mayRepeatName's own loop):
// the pass reports each '{' and '}' outside strings (Open, Close) and each
// member name, a string followed by ':' (Name), and NameCheck compares the
// names of each object. Arrays need no report: the objects in them open
// and close on their own. It settles a text only when every object names
// its members with distinct unescaped strings; anything else (an escaped
// name, a repeat, nesting or member counts past its bounds, braces that
// do not pair) makes it Unsure, and the exact scan (DuplicateName)
// decides. Unescaped names are equal exactly when their bytes are, which
// is how the exact scan compares them too.
//
// It exists for speed: a second, recursive scan of every JSON value of a
// record cost the benchmark stream 12.8 % more instructions
// (docs/performance.md, thirteenth session), while nearly every value has
// no repeat to report. Its state is fixed arrays, so a NameCheck kept by
// its user costs nothing to reset.
type NameCheck[T ~string | ~[]byte] struct {
	open   [quickDepth]int32 // per open object: where its names start in names
	names  [quickNames]struct{ at, end int32 }
	depth  int32
	n      int32
	unsure bool
}

// Reset starts a new text.
func (c *NameCheck[T]) Reset() { c.depth, c.n, c.unsure = 0, 0, false }

// Unsure reports whether the text seen since Reset needs the exact scan.
func (c *NameCheck[T]) Unsure() bool { return c.unsure || c.depth != 0 }

// Open is a '{' outside strings.
func (c *NameCheck[T]) Open() {
	if c.depth == quickDepth {
		c.unsure = true
		return
	}
	c.open[c.depth] = c.n
	c.depth++
}

// Close is a '}' outside strings: the object's names end with it.
func (c *NameCheck[T]) Close() {
	if c.depth == 0 {
		c.unsure = true
		return
	}
	c.depth--
	c.n = c.open[c.depth]
}

// Name is the member name doc[at:end] (quotes included; esc when it
// holds an escape) of the innermost open object. Spans are int32: a
// longer text is left to the exact scan.
func (c *NameCheck[T]) Name(doc T, at, end int, esc bool) {
	if esc || c.depth == 0 || end > 1<<31-1 {
		c.unsure = true
		return
	}
	base := c.open[c.depth-1]
	if c.n-base >= quickPerLevel || c.n == quickNames {
		c.unsure = true
		return
	}
	name := doc[at:end]
	for _, k := range c.names[base:c.n] {
		if int(k.end-k.at) == len(name) && string(doc[k.at:k.end]) == string(name) {
			c.unsure = true
			return
		}
	}
	c.names[c.n] = struct{ at, end int32 }{int32(at), int32(end)}
	c.n++
}

// IsName reports whether the string ending before doc[end] is a member
// name: the next byte past white space is ':'.
func IsName[T ~string | ~[]byte](doc T, end int) bool {
	for ; end < len(doc); end++ {
		switch doc[end] {
		case ':':
			return true
		case ' ', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return false
}

// mayRepeatName runs a NameCheck over doc with a loop of its own, for
// callers that have no pass over the text to share.
func mayRepeatName[T ~string | ~[]byte](doc T) bool {
	var c NameCheck[T]
	for i := 0; i < len(doc) && !c.unsure; i++ {
		switch doc[i] {
		case '{':
			c.Open()
		case '}':
			c.Close()
		case '"':
			e, esc := -1, false
			for j := i + 1; j < len(doc); j++ {
				if b := doc[j]; b == '"' {
					e = j + 1
					break
				} else if b == '\\' {
					esc = true
					j++
				}
			}
			if e < 0 {
				return true
			}
			if IsName(doc, e) {
				c.Name(doc, i, e, esc)
			}
			i = e - 1
		}
	}
	return c.Unsure()
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
