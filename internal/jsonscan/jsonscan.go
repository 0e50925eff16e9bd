// Package jsonscan is the one home of the JSON primitives the target's
// hand-written scanners share, as encoding/json/internal/jsonwire is the
// standard library's: the string searches of the reader (singer) and the
// validator (schema), eight bytes at a time; the escapes (Hex4,
// EscapeLen, DecodeEscape, AppendUnescaped); the skips that delimit a
// value by its strings and brackets (StringEnd, ValueEnd, ContainerEnd:
// the reader's record end, the row builder's and the stream maps' value
// skips); and the test of whether a property name appears in JSON as
// itself, by which the validator and the row builder compare keys in
// place.
package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// The masks below have, for each byte of a little-endian word, its high
// bit set when the byte is one searched for: (y-ones)&^y flags the zero
// bytes of y, x-ones*n&^x the bytes below n (n ≤ 0x80), x the bytes from
// 0x80. A borrow may flag bytes above a true hit, never below one, so the
// lowest set bit is exact.

// Special returns the index of the first byte at or after i that a string
// scan must look at — a quote, a backslash, a control character or a
// non-ASCII byte — or len(b).
func Special(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		q, bs := x^(ones*'"'), x^(ones*'\\')
		if m := ((q-ones)&^q | (bs-ones)&^bs | (x-ones*0x20)&^x | x) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(b) {
		if c := b[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			break
		}
		i++
	}
	return i
}

// Plain reports whether a string (a property name) appears in JSON text
// exactly as itself when written without escapes: valid UTF-8 without a
// quote, a backslash or a control character. Scanners compare such names
// with the input bytes in place.
func Plain(name string) bool {
	for _, c := range []byte(name) {
		if c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return utf8.ValidString(name)
}
