package jsonscan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Hex4 decodes the 4 hex digits at the start of b (of a \uXXXX escape),
// or reports false.
func Hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// EscapeLen returns the length of the escape sequence at b[i] (a
// backslash) when it is valid, else 0. A surrogate escape is valid only as
// the high half of a pair, which is one escape of 12 bytes: a string that
// passes holds valid UTF-16 in its escapes, as RFC 8259 strings must to
// be UTF-8 text.
func EscapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		r, ok := Hex4(b[i+2:])
		switch {
		case !ok:
		case !utf16.IsSurrogate(r):
			return 6
		case r < 0xDC00 && i+7 < len(b) && b[i+6] == '\\' && b[i+7] == 'u':
			if r2, ok := Hex4(b[i+8:]); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				return 12
			}
		}
	}
	return 0
}

// DecodeEscape decodes the escape sequence at b[i] (a backslash) as
// encoding/json does and returns its rune and the index after it, or
// next < 0 when it is malformed (cut short, an unknown escape, bad hex
// digits). A surrogate pair is one escape; a surrogate escape that is not
// the first of a pair decodes to U+FFFD, consuming its own 6 bytes, with
// lone set.
func DecodeEscape(b []byte, i int) (r rune, next int, lone bool) {
	if i+1 >= len(b) {
		return 0, -1, false
	}
	switch b[i+1] {
	case '"', '\\', '/':
		return rune(b[i+1]), i + 2, false
	case 'b':
		return '\b', i + 2, false
	case 'f':
		return '\f', i + 2, false
	case 'n':
		return '\n', i + 2, false
	case 'r':
		return '\r', i + 2, false
	case 't':
		return '\t', i + 2, false
	case 'u':
		r, ok := Hex4(b[i+2:])
		if !ok {
			return 0, -1, false
		}
		if !utf16.IsSurrogate(r) {
			return r, i + 6, false
		}
		if i+7 < len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
			if r2, ok := Hex4(b[i+8:]); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return d, i + 12, false
				}
			}
		}
		return utf8.RuneError, i + 6, true
	}
	return 0, -1, false
}

// AppendUnescaped appends the decoded text of the JSON string body raw
// (without its quotes) to dst; bytes other than escapes are copied as they
// are. It stops at the first malformed escape and returns its offset in
// raw as bad (else bad is -1); with strict, a surrogate escape that is not
// the first of a pair is malformed too, and otherwise it decodes to
// U+FFFD (encoding/json's choice).
func AppendUnescaped(dst, raw []byte, strict bool) (out []byte, bad int) {
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '\\')
		if j < 0 {
			return append(dst, raw[i:]...), -1
		}
		dst = append(dst, raw[i:i+j]...)
		i += j
		r, next, lone := DecodeEscape(raw, i)
		if next < 0 || lone && strict {
			return dst, i
		}
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, r)
		}
		i = next
	}
}
