package schema

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
	"github.com/target-oracle/target-oracle/internal/value"
)

// fastResult is the fast plan's verdict on a record.
type fastResult int8

const (
	fastAccept fastResult = iota // Validate accepts it too
	fastReject                   // it breaks a rule (Validate rejects it, except with duplicate keys)
	fastUnsure                   // not decided: bad JSON, nested too deep, or a huge exponent (numberInfo)
)

// maxFastDepth bounds the walker's recursion; deeper records are left to
// encoding/json and Validate. It is the reader's limit (see Checker.Check).
const maxFastDepth = jsonscan.MaxDepth

// String flags found by scanString.
const (
	strEscaped = 1 << iota // holds a backslash escape
	strHigh                // holds bytes >= 0x80
)

// walker validates one record's bytes against a plan. Every method takes
// the index of the first byte of a value and returns the index after it;
// a false result is a rejection, or with unsure set, no decision.
type walker struct {
	b      []byte
	depth  int
	unsure bool
	// The number scanned last: its start (-1 when none since Check
	// began), end, the index of its '.' (start-1 when none) and whether
	// it has an exponent. Checker.PlainNumberAt hands them to the row
	// builder, which then need not scan the number again.
	numStart, numEnd, numDot int
	numExp                   bool
	scratch                  [128]byte // unescaped keys and strings, when they fit
}

func fastValid(root *fnode, b []byte) fastResult {
	w := walker{b: b}
	end, ok := w.value(root, w.ws(0))
	switch {
	case w.unsure:
		return fastUnsure
	case !ok:
		return fastReject
	case w.ws(end) != len(b):
		return fastUnsure
	}
	return fastAccept
}

// at returns the byte at i, or 0 past the end.
func (w *walker) at(i int) byte {
	if i < len(w.b) {
		return w.b[i]
	}
	return 0
}

// ws returns the index of the first byte at or after i that is not
// whitespace. Most values follow their separator directly or after one
// space, so those cases do not call the loop.
func (w *walker) ws(i int) int {
	if i < len(w.b) && w.b[i] > ' ' {
		return i
	}
	if i+1 < len(w.b) && w.b[i] == ' ' && w.b[i+1] > ' ' {
		return i + 1
	}
	return w.wsLoop(i)
}

func (w *walker) wsLoop(i int) int {
	for i < len(w.b) {
		switch w.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// syntax gives up on malformed JSON (the decoder will report it) or on
// anything else the walker leaves to Validate.
func (w *walker) syntax(i int) (int, bool) {
	w.unsure = true
	return i, false
}

func (w *walker) value(n *fnode, i int) (int, bool) {
	if n.direct {
		switch w.at(i) {
		case '"':
			return w.string(n, i)
		case '{':
			return w.object(n, i)
		case '[':
			return w.array(n, i)
		case 't', 'f', 'n':
			return w.literal(n, i)
		}
		return w.number(n, i)
	}
	switch n.always {
	case 1:
		return w.skip(i)
	case -1:
		return i, false
	}
	if n.combOnly {
		return w.combined(n, i, -1)
	}
	var end int
	var ok bool
	switch c := w.at(i); c {
	case '{':
		end, ok = w.object(n, i)
	case '[':
		end, ok = w.array(n, i)
	case '"':
		end, ok = w.string(n, i)
	case 't', 'f', 'n':
		end, ok = w.literal(n, i)
	default:
		end, ok = w.number(n, i)
	}
	if !ok || len(n.all) == 0 && len(n.alts) == 0 {
		return end, ok
	}
	return w.combined(n, i, end)
}

// combined applies allOf and anyOf/oneOf to the value at i, walking it once
// per branch. end is where the value ends, or -1 when no walk has found
// that yet.
func (w *walker) combined(n *fnode, i, end int) (int, bool) {
	for _, a := range n.all {
		e, ok := w.value(a, i)
		if !ok {
			return e, false
		}
		end = e
	}
	coarse := w.coarseKind(i)
	depth := w.depth
	for _, list := range n.alts {
		found := false
		for _, a := range list {
			if a.possible&coarse == 0 {
				continue
			}
			e, ok := w.value(a, i)
			w.depth = depth // a failed branch may stop inside the value
			if w.unsure {
				return e, false
			}
			if ok {
				found, end = true, e
				break
			}
		}
		if !found {
			return i, false
		}
	}
	return end, true
}

// coarseKind is the kind of the value at i as far as its first byte tells.
func (w *walker) coarseKind(i int) kinds {
	switch w.at(i) {
	case '{':
		return kObject
	case '[':
		return kArray
	case '"':
		return kString
	case 't', 'f':
		return kBool
	case 'n':
		return kNull
	}
	return kNumber
}

func (w *walker) enter() bool {
	if w.depth++; w.depth > maxFastDepth {
		w.unsure = true
		return false
	}
	return true
}

func (w *walker) object(n *fnode, i int) (int, bool) {
	if n.types&kObject == 0 {
		return i, false
	}
	if !n.obj {
		return w.skip(i)
	}
	if !w.enter() {
		return i, false
	}
	var seen uint64
	hint := 0
	i = w.ws(i + 1)
	if w.at(i) == '}' {
		i++
	} else {
		for {
			if w.at(i) != '"' {
				return w.syntax(i)
			}
			// Most records list the properties in schema order: the
			// expected key is compared in place, without scanning it.
			p, kend := n.expected(w.b, i, hint)
			if p != nil {
				hint++
			} else {
				var flags int
				if kend, flags = w.scanString(i); kend < 0 {
					return w.syntax(i)
				}
				key := w.b[i+1 : kend-1]
				if flags != 0 {
					key = w.content(key, flags)
				}
				p = n.lookup(key, &hint)
			}
			if i = w.ws(kend); w.at(i) != ':' {
				return w.syntax(i)
			}
			i = w.ws(i + 1)
			child := n.addl
			if p != nil {
				seen |= p.bit
				if !p.viaAddl {
					child = p.node
				}
			}
			var ok bool
			if child == nil {
				i, ok = w.skip(i)
			} else {
				i, ok = w.value(child, i)
			}
			if !ok {
				return i, false
			}
			i = w.ws(i)
			if c := w.at(i); c == ',' {
				i = w.ws(i + 1)
				continue
			} else if c == '}' {
				i++
				break
			}
			return w.syntax(i)
		}
	}
	w.depth--
	return i, seen&n.reqMask == n.reqMask
}

// expected reports whether the key whose opening quote is at b[i] is the
// property at index hint, written without escapes, and returns it and the
// index after the key's closing quote.
func (n *fnode) expected(b []byte, i, hint int) (*fprop, int) {
	if hint >= len(n.props) || !n.props[hint].plain {
		return nil, 0
	}
	name := n.props[hint].name
	end := i + 1 + len(name)
	if end < len(b) && b[end] == '"' && string(b[i+1:end]) == name {
		return &n.props[hint], end + 1
	}
	return nil, 0
}

// lookup finds the property named key. Records usually list properties in
// schema order, so the one after the last match is tried first.
func (n *fnode) lookup(key []byte, hint *int) *fprop {
	if h := *hint; h < len(n.props) && n.props[h].name == string(key) {
		*hint = h + 1
		return &n.props[h]
	}
	if n.index != nil {
		if j, ok := n.index[string(key)]; ok {
			*hint = j + 1
			return &n.props[j]
		}
		return nil
	}
	for j := range n.props {
		if n.props[j].name == string(key) {
			*hint = j + 1
			return &n.props[j]
		}
	}
	return nil
}

func (w *walker) array(n *fnode, i int) (int, bool) {
	if n.types&kArray == 0 {
		return i, false
	}
	if !n.arr {
		return w.skip(i)
	}
	if !w.enter() {
		return i, false
	}
	count := 0
	i = w.ws(i + 1)
	if w.at(i) == ']' {
		i++
	} else {
		for {
			var ok bool
			if n.items == nil {
				i, ok = w.skip(i)
			} else {
				i, ok = w.value(n.items, i)
			}
			if !ok {
				return i, false
			}
			count++
			i = w.ws(i)
			if c := w.at(i); c == ',' {
				i = w.ws(i + 1)
				continue
			} else if c == ']' {
				i++
				break
			}
			return w.syntax(i)
		}
	}
	w.depth--
	if n.minItems >= 0 && count < n.minItems || n.maxItems >= 0 && count > n.maxItems {
		return i, false
	}
	return i, true
}

func (w *walker) string(n *fnode, i int) (int, bool) {
	if n.types&kString == 0 {
		return i, false
	}
	end, flags := w.scanString(i)
	if end < 0 {
		return w.syntax(i)
	}
	if !n.str {
		return end, true
	}
	raw := w.b[i+1 : end-1]
	// A string body of at most maxLength bytes has at most maxLength
	// runes once decoded (an escape or a UTF-8 sequence is one rune), so
	// only minLength or a longer body needs the count.
	if n.minLen > 0 || n.maxLen >= 0 && len(raw) > n.maxLen {
		l := runeCount(raw, flags)
		if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
			return end, false
		}
	}
	if n.format == fmtNone && n.pattern == nil && !n.hasEnum && !n.hasConst {
		return end, true
	}
	s := raw
	if flags != 0 {
		s = w.content(raw, flags)
	}
	if !checkFormat(n.format, s) {
		return end, false
	}
	if n.pattern != nil && !n.pattern.MatchString(string(s)) {
		return end, false
	}
	return end, n.scalarOK(kString, s, false, nil)
}

func checkFormat(f formatCheck, s []byte) bool {
	switch f {
	case fmtDateTime:
		_, err := value.ParseDateTime(s)
		return err == nil
	case fmtDate:
		return value.CheckDate(s) == nil
	case fmtTime:
		return value.CheckTime(s) == nil
	case fmtDecimal:
		_, err := value.CheckNumber(s)
		return err == nil
	}
	return true
}

// scalarOK applies enum and const to a scalar of kind k: its decoded text
// for a string, b for a boolean, d for a number.
func (n *fnode) scalarOK(k kinds, s []byte, b bool, d *decimal) bool {
	if n.hasEnum {
		found := false
		for j := range n.enum {
			if scalarEqual(&n.enum[j], k, s, b, d) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return !n.hasConst || scalarEqual(&n.cnst, k, s, b, d)
}

func scalarEqual(e *scalar, k kinds, s []byte, b bool, d *decimal) bool {
	switch {
	case e.kind != k:
		return false
	case k == kString:
		return e.s == string(s)
	case k == kBool:
		return e.b == b
	case k == kNull:
		return true
	}
	return cmpDecimal(&e.d, d) == 0
}

func (w *walker) literal(n *fnode, i int) (int, bool) {
	end, k, b := w.scanLiteral(i)
	if end < 0 {
		return w.syntax(i)
	}
	if n.types&k == 0 {
		return end, false
	}
	if !n.hasEnum && !n.hasConst {
		return end, true
	}
	return end, n.scalarOK(k, nil, b, nil)
}

// scanLiteral reads true, false or null.
func (w *walker) scanLiteral(i int) (end int, k kinds, b bool) {
	rest := w.b[i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		return i + 4, kBool, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		return i + 5, kBool, false
	case len(rest) >= 4 && string(rest[:4]) == "null":
		return i + 4, kNull, false
	}
	return -1, 0, false
}

func (w *walker) number(n *fnode, i int) (int, bool) {
	end, dot, exp := numberScan(w.b, i)
	if end < 0 {
		return w.syntax(i)
	}
	w.numStart, w.numEnd, w.numDot, w.numExp = i, end, dot, exp
	var info value.NumberInfo
	if !exp && end-i <= value.MaxSignificantDigits {
		// numberFacts' plain case, inline: valid, and only the scale to
		// find, from the '.' (trailing zeros do not count).
		if dot > i {
			last := end - 1
			for last > dot && w.b[last] == '0' {
				last--
			}
			info.Scale = last - dot
		}
		info.Integer = info.Scale == 0
	} else {
		var ok, sure bool
		if info, ok, sure = numberFacts(w.b[i:end], dot-i, exp); !sure {
			return w.syntax(i)
		} else if !ok {
			return end, false
		}
	}
	k := kFrac
	if info.Integer {
		k = kInt
	}
	if n.types&k == 0 {
		return end, false
	}
	if !n.num {
		return end, true
	}
	if n.mult != nil && len(n.bounds) == 0 && !n.hasEnum && !n.hasConst {
		if ok, known := n.mult.multipleByScale(info); known {
			return end, ok
		}
	}
	text := w.b[i:end]
	d, _ := parseDecimal(text) // valid: CheckNumber passed
	for j := range n.bounds {
		if failsBound(cmpDecimal(&d, &n.bounds[j].d), n.bounds[j].op) {
			return end, false
		}
	}
	if n.mult != nil && !n.mult.multiple(text, &d) {
		return end, false
	}
	return end, n.scalarOK(k, nil, false, &d)
}

func failsBound(c int, op int8) bool {
	switch op {
	case opMin:
		return c < 0
	case opMax:
		return c > 0
	case opXMin:
		return c <= 0
	}
	return c >= 0 // opXMax
}

// numberScan returns the end of the JSON number at b[i:], or -1 when there
// is none, the index of its '.' (i-1 when none) and whether it has an
// exponent: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func numberScan(b []byte, i int) (end, dot int, exp bool) {
	start := i
	dot = start - 1
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1, dot, false
	case b[i] == '0':
		i++
	case b[i]-'1' <= 8:
		for i++; i < len(b) && b[i]-'0' <= 9; i++ {
		}
	default:
		return -1, dot, false
	}
	if i < len(b) && b[i] == '.' {
		dot = i
		j := i + 1
		for j < len(b) && b[j]-'0' <= 9 {
			j++
		}
		if j == i+1 {
			return -1, dot, false
		}
		i = j
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := i
		for j < len(b) && b[j]-'0' <= 9 {
			j++
		}
		if j == i {
			return -1, dot, false
		}
		return j, dot, true
	}
	return i, dot, false
}

// skip walks any value, checking its syntax and that every number in it
// is one Validate accepts (value.CheckNumber, MaxNumberText).
func (w *walker) skip(i int) (int, bool) {
	switch w.at(i) {
	case '{':
		return w.skipObject(i)
	case '[':
		return w.skipArray(i)
	case '"':
		end, _ := w.scanString(i)
		if end < 0 {
			return w.syntax(i)
		}
		return end, true
	case 't', 'f', 'n':
		end, _, _ := w.scanLiteral(i)
		if end < 0 {
			return w.syntax(i)
		}
		return end, true
	}
	end, dot, exp := numberScan(w.b, i)
	if end < 0 {
		return w.syntax(i)
	}
	_, ok, sure := numberFacts(w.b[i:end], dot-i, exp)
	if !sure {
		return w.syntax(i)
	}
	return end, ok
}

// numberFacts validates number text that matches the JSON grammar as
// Validate does (value.CheckNumber, at most MaxNumberText characters). Text
// of at most 38 characters without an exponent has at most 37 digits and a
// magnitude far inside Oracle's range, so it is valid by construction and
// only its scale is computed here; anything else goes to value.CheckNumber.
// Only Scale and Integer of the result are meaningful.
//
// sure is false for an exponent of 10^18 or more: value.CheckNumber accepts
// such a number when it is zero, but the validator library cannot parse it
// into a big.Rat, so only Validate itself can say what it does with it.
//
// dot is the index of the '.' in text (-1 when none) and exp whether text
// has an exponent, as numberScan found them.
func numberFacts(text []byte, dot int, exp bool) (info value.NumberInfo, ok, sure bool) {
	if len(text) > MaxNumberText {
		return info, false, true
	}
	if exp {
		j := len(text) - 1
		for text[j]|0x20 != 'e' {
			j--
		}
		if hugeExponent(text[j+1:]) {
			return info, false, false
		}
		info, err := value.CheckNumber(text)
		return info, err == nil, true
	}
	if len(text) > value.MaxSignificantDigits {
		info, err := value.CheckNumber(text)
		return info, err == nil, true
	}
	if dot >= 0 {
		last := len(text) - 1
		for last > dot && text[last] == '0' {
			last--
		}
		info.Scale = last - dot
	}
	info.Integer = info.Scale == 0
	return info, true, true
}

// hugeExponent reports whether exponent text ([+-]digits) has 19 or more
// digits after its leading zeros.
func hugeExponent(exp []byte) bool {
	if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
		exp = exp[1:]
	}
	for len(exp) > 0 && exp[0] == '0' {
		exp = exp[1:]
	}
	return len(exp) > 18
}

func (w *walker) skipObject(i int) (int, bool) {
	if !w.enter() {
		return i, false
	}
	i = w.ws(i + 1)
	if w.at(i) == '}' {
		w.depth--
		return i + 1, true
	}
	for {
		if w.at(i) != '"' {
			return w.syntax(i)
		}
		kend, _ := w.scanString(i)
		if kend < 0 {
			return w.syntax(i)
		}
		if i = w.ws(kend); w.at(i) != ':' {
			return w.syntax(i)
		}
		var ok bool
		if i, ok = w.skip(w.ws(i + 1)); !ok {
			return i, false
		}
		i = w.ws(i)
		if c := w.at(i); c == ',' {
			i = w.ws(i + 1)
			continue
		} else if c == '}' {
			w.depth--
			return i + 1, true
		}
		return w.syntax(i)
	}
}

func (w *walker) skipArray(i int) (int, bool) {
	if !w.enter() {
		return i, false
	}
	i = w.ws(i + 1)
	if w.at(i) == ']' {
		w.depth--
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = w.skip(i); !ok {
			return i, false
		}
		i = w.ws(i)
		if c := w.at(i); c == ',' {
			i = w.ws(i + 1)
			continue
		} else if c == ']' {
			w.depth--
			return i + 1, true
		}
		return w.syntax(i)
	}
}

// scanString checks the string starting at the quote at i and returns the
// index after its closing quote (-1 when it is malformed) and whether it
// holds escapes or non-ASCII bytes. Plain ASCII is skipped eight bytes at a
// time. Malformed includes invalid UTF-8 and unpaired surrogate escapes,
// as for the reader: records whose syntax check the reader deferred rely
// on this walk for it (singer.Message.DecodeRecord).
func (w *walker) scanString(i int) (int, int) {
	b := w.b
	flags := 0
	j := i + 1
	for {
		// Eight bytes at a time to the next quote, backslash, control
		// character or non-ASCII byte (jsonscan.Special, inlined), then a
		// byte at a time over the last few.
		for ; j+8 <= len(b); j += 8 {
			x := binary.LittleEndian.Uint64(b[j : j+8])
			// x^0x02 turns '"' into 0x20 and keeps the control
			// characters below it, so one test "below 0x21" finds both.
			y, bs := x^(ones*0x02), x^(ones*'\\')
			if m := ((y-ones*0x21)&^y | (bs-ones)&^bs | x) & highs; m != 0 {
				j += bits.TrailingZeros64(m) / 8
				break
			}
		}
		for j < len(b) {
			if c := b[j]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				break
			}
			j++
		}
		if j >= len(b) {
			return -1, 0
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1, flags
		case c == '\\':
			n := jsonscan.EscapeLen(b, j)
			if n == 0 {
				return -1, 0
			}
			flags |= strEscaped
			j += n
		case c < 0x20:
			return -1, 0
		default:
			// A UTF-8 sequence, checked where it is (a quote is never
			// part of one, so decoding past the string's end is harmless).
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				return -1, 0
			}
			flags |= strHigh
			j += size
		}
	}
}

// Word masks for scanString: for each byte of a little-endian word, its
// high bit set when the byte is one searched for (see jsonscan.Special).
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// content returns the decoded text of a string body that holds escapes or
// non-ASCII bytes, as encoding/json decodes it: scanString passed it, so it
// is valid UTF-8 and its surrogate escapes are paired.
func (w *walker) content(raw []byte, flags int) []byte {
	if flags == strHigh { // valid UTF-8: scanString checked it
		return raw
	}
	out, _ := jsonscan.AppendUnescaped(w.scratch[:0], raw, false)
	return out
}

// runeCount counts the runes of the decoded string body raw, as
// utf8.RuneCountInString would on the decoded string, without decoding it.
func runeCount(raw []byte, flags int) int {
	switch {
	case flags == 0:
		return len(raw)
	case flags&strEscaped == 0:
		return utf8.RuneCount(raw) // an invalid byte decodes to one U+FFFD
	}
	n := 0
	for r := 0; r < len(raw); n++ {
		switch c := raw[r]; {
		case c == '\\':
			_, r, _ = jsonscan.DecodeEscape(raw, r)
		case c < utf8.RuneSelf:
			r++
		default:
			_, size := utf8.DecodeRune(raw[r:])
			r += size
		}
	}
	return n
}
