package singer

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/jsonscan"
)

// MaxDepth is the deepest nesting of objects and arrays a line may have,
// counting the message object itself as level 1 (jsonscan.MaxDepth, the
// one limit every JSON walk shares). Deeper input is an *inputerr.Error
// rather than a risk to the stack.
const MaxDepth = jsonscan.MaxDepth

// scanError is a JSON syntax error at a byte offset of the scanned line.
type scanError struct {
	off int // 0-based offset in the line
	msg string
}

func (e *scanError) Error() string {
	return fmt.Sprintf("%s at byte %d", e.msg, e.off+1)
}

// scanner validates JSON text in place. It checks the full grammar of RFC
// 8259, that strings are valid UTF-8 and hold no unpaired surrogate escape,
// and the nesting limit. It never converts numbers and never allocates
// unless it reports an error.
type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) skipSpace() {
	if s.pos < len(s.data) && s.data[s.pos] > ' ' {
		return // the usual case: compact JSON
	}
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// value scans the value at s.pos, which must not be whitespace. depth is the
// nesting level of the container holding the value.
func (s *scanner) value(depth int) error {
	if s.pos >= len(s.data) {
		return s.unexpected("a value")
	}
	switch c := s.data[s.pos]; c {
	case '{':
		return s.object(depth + 1)
	case '[':
		return s.array(depth + 1)
	case '"':
		_, err := s.str()
		return err
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return s.number()
		}
		if err := s.nonFinite(); err != nil {
			return err
		}
		return s.unexpected("a value")
	}
}

// nonFinite explains NaN, Infinity and -Infinity at s.pos: Python's json
// and simplejson write a float nan or inf so by default (allow_nan), and
// a tap reading a database's NaN or a float that overflowed sends them.
// They are not JSON (RFC 8259 §6), and no NUMBER column holds them: the
// error says what the bytes are instead of only that 'N' is unexpected.
// nil when the bytes at s.pos are none of them.
func (s *scanner) nonFinite() error {
	rest := s.data[s.pos:]
	for _, lit := range [...]string{"NaN", "Infinity", "-Infinity"} {
		if bytes.HasPrefix(rest, []byte(lit)) {
			return &scanError{s.pos, "invalid JSON: " + lit + " is not a JSON number " +
				"(JSON has no NaN or Infinity; Python's json.dumps writes a float nan or inf so unless allow_nan=False: the tap must send null or a string)"}
		}
	}
	return nil
}

func (s *scanner) object(depth int) error {
	if depth > MaxDepth {
		return s.tooDeep()
	}
	s.pos++ // '{'
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return nil
	}
	for {
		if _, err := s.key(); err != nil {
			return err
		}
		if err := s.value(depth); err != nil {
			return err
		}
		if done, err := s.next('}'); done || err != nil {
			return err
		}
	}
}

func (s *scanner) array(depth int) error {
	if depth > MaxDepth {
		return s.tooDeep()
	}
	s.pos++ // '['
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return nil
	}
	for {
		if err := s.value(depth); err != nil {
			return err
		}
		if done, err := s.next(']'); done || err != nil {
			return err
		}
	}
}

// key scans an object key, the colon and the whitespace up to the value,
// and returns the key's content (without quotes, maybe escaped).
func (s *scanner) key() ([]byte, error) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return nil, s.unexpected("a string (object key)")
	}
	start := s.pos + 1
	if _, err := s.str(); err != nil {
		return nil, err
	}
	key := s.data[start : s.pos-1]
	s.skipSpace()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		return nil, s.unexpected("':'")
	}
	s.pos++
	s.skipSpace()
	return key, nil
}

// next scans the whitespace and separator after a member or element: it
// reports done at the closing byte and otherwise leaves s.pos at the next
// member or element.
func (s *scanner) next(closing byte) (done bool, err error) {
	s.skipSpace()
	if s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',':
			s.pos++
			s.skipSpace()
			return false, nil
		case closing:
			s.pos++
			return true, nil
		}
	}
	return false, s.unexpected(fmt.Sprintf("',' or '%c'", closing))
}

// str scans the string at s.pos and reports whether it holds escapes.
func (s *scanner) str() (escaped bool, err error) {
	data := s.data
	i := s.pos + 1
	for {
		i = jsonscan.Special(data, i)
		if i >= len(data) {
			return false, &scanError{len(data), "invalid JSON: unterminated string"}
		}
		switch c := data[i]; {
		case c == '"':
			s.pos = i + 1
			return escaped, nil
		case c == '\\':
			n, err := s.escape(i)
			if err != nil {
				return false, err
			}
			escaped = true
			i += n
		case c < 0x20:
			return false, &scanError{i, "invalid JSON: control character in string"}
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 {
				return false, utf8Error(i)
			}
			i += size
		}
	}
}

// escape checks the escape sequence at data[i] and returns its length.
func (s *scanner) escape(i int) (int, error) {
	data := s.data
	if n := jsonscan.EscapeLen(data, i); n > 0 {
		return n, nil
	}
	switch {
	case i+1 >= len(data):
		return 0, &scanError{i, "invalid JSON: unterminated string"}
	case data[i+1] != 'u':
		return 0, &scanError{i, "invalid JSON: invalid escape sequence in string"}
	}
	if _, ok := jsonscan.Hex4(data[i+2:]); !ok {
		return 0, &scanError{i, "invalid JSON: invalid \\u escape in string"}
	}
	return 0, &scanError{i, "invalid UTF-16 in string: unpaired surrogate escape"}
}

// number scans a number per the JSON grammar, keeping no value.
func (s *scanner) number() error {
	data, i := s.data, s.pos
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = skipDigits(data, i+1)
	default:
		if err := s.nonFinite(); err != nil {
			return err // -Infinity
		}
		return &scanError{s.pos, "invalid JSON: invalid number"}
	}
	if i < len(data) && data[i] == '.' {
		j := skipDigits(data, i+1)
		if j == i+1 {
			return &scanError{s.pos, "invalid JSON: invalid number"}
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := skipDigits(data, i)
		if j == i {
			return &scanError{s.pos, "invalid JSON: invalid number"}
		}
		i = j
	}
	s.pos = i
	return nil
}

func skipDigits(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

func (s *scanner) literal(lit string) error {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(lit)) {
		return s.unexpected("a value")
	}
	s.pos += len(lit)
	return nil
}

func (s *scanner) tooDeep() error {
	return &scanError{s.pos, fmt.Sprintf("JSON nesting deeper than %d levels", MaxDepth)}
}

// unexpected reports the byte at s.pos (or the end of the line) where want
// was expected.
func (s *scanner) unexpected(want string) error {
	if s.pos >= len(s.data) {
		return &scanError{s.pos, "invalid JSON: unexpected end of line, want " + want}
	}
	c := s.data[s.pos]
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(s.data[s.pos:])
		if r == utf8.RuneError && size == 1 {
			return utf8Error(s.pos)
		}
		return &scanError{s.pos, fmt.Sprintf("invalid JSON: unexpected %q, want %s", r, want)}
	}
	return &scanError{s.pos, fmt.Sprintf("invalid JSON: unexpected %q, want %s", c, want)}
}

func utf8Error(off int) error {
	return &scanError{off, "invalid UTF-8"}
}

// invalidUTF8 returns the offset of the first invalid UTF-8 byte in b, or -1.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// scanObject validates that line holds exactly one JSON object, with only
// whitespace around it, and returns the object's bytes.
func scanObject(line []byte) ([]byte, error) {
	s := scanner{data: line}
	s.skipSpace()
	start := s.pos
	if s.pos < len(line) && line[s.pos] != '{' {
		return nil, notObject(line, start)
	}
	if err := s.value(0); err != nil {
		return nil, err
	}
	end := s.pos
	if err := s.end(); err != nil {
		return nil, err
	}
	return line[start:end], nil
}

// end checks that only whitespace follows s.pos.
func (s *scanner) end() error {
	s.skipSpace()
	if s.pos < len(s.data) {
		if off := invalidUTF8(s.data[s.pos:]); off == 0 {
			return utf8Error(s.pos)
		}
		return &scanError{s.pos, "invalid JSON: unexpected data after the top-level object"}
	}
	return nil
}

// notObject explains why the line whose first non-blank byte is at start is
// not a JSON object: a syntax error, or a valid value of another kind.
func notObject(line []byte, start int) error {
	s := scanner{data: line, pos: start}
	if err := s.value(0); err != nil {
		return err
	}
	if err := s.end(); err != nil {
		return err
	}
	kind := "a number"
	switch line[start] {
	case '[':
		kind = "an array"
	case '"':
		kind = "a string"
	case 't', 'f':
		kind = "a boolean"
	case 'n':
		kind = "null"
	}
	return &scanError{start, "line is not a JSON object but " + kind}
}

// compact appends validated JSON src to dst without insignificant
// whitespace, leaving every other byte (numbers, string escapes) unchanged.
func compact(dst, src []byte) []byte {
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			dst = append(dst, c)
			switch c {
			case '\\':
				i++
				dst = append(dst, src[i])
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			inString = true
		}
		dst = append(dst, c)
	}
	return dst
}

// eachElement calls fn with the bytes of each element of the validated JSON
// array arr.
func eachElement(arr []byte, fn func(elem []byte) error) error {
	s := scanner{data: arr, pos: 1}
	s.skipSpace()
	if arr[s.pos] == ']' {
		return nil
	}
	for {
		start := s.pos
		if err := s.value(1); err != nil {
			return err
		}
		if err := fn(arr[start:s.pos]); err != nil {
			return err
		}
		if done, err := s.next(']'); done || err != nil {
			return err
		}
	}
}

// eachMember calls fn with the raw key (without quotes, maybe escaped) and
// the value bytes of each member of the validated JSON object obj.
func eachMember(obj []byte, fn func(key, val []byte) error) error {
	s := scanner{data: obj, pos: 1}
	s.skipSpace()
	if obj[s.pos] == '}' {
		return nil
	}
	for {
		key, err := s.key()
		if err != nil {
			return err
		}
		vstart := s.pos
		if err := s.value(1); err != nil {
			return err
		}
		if err := fn(key, obj[vstart:s.pos]); err != nil {
			return err
		}
		if done, err := s.next('}'); done || err != nil {
			return err
		}
	}
}
