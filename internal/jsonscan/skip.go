package jsonscan

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// The skips below delimit JSON values by their strings and brackets
// alone, checking nothing else: the reader (singer) finds a record's end
// with ContainerEnd before anything checks its bytes, and the row builder
// (tablemap) and the stream maps (streammap) step over values of lines the
// reader has checked, or whose check follows.

// StringEnd returns the index just past the string whose opening quote is
// at b[i], and whether it holds escapes; end is -1 when it does not close.
func StringEnd(b []byte, i int) (end int, escaped bool) {
	// A plain byte loop: record strings are short, and for them it beats
	// a call to bytes.IndexByte and the word loop of ContainerEnd.
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '"':
			return j + 1, escaped
		case '\\':
			escaped = true
			j++
		}
	}
	return -1, false
}

// ValueEnd returns the index just past the JSON value starting at b[i],
// or -1: a string or a container as StringEnd and ContainerEnd find it
// (without a depth limit), any other value up to the next ',', '}', ']',
// ':' or white space; an empty one is -1.
func ValueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end, _ := StringEnd(b, i)
		return end
	case '{', '[':
		return ContainerEnd(b, i, math.MaxInt)
	}
	j := i
	for j < len(b) && scalarByte[b[j]] {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// scalarByte reports the bytes that do not end a number or a literal.
var scalarByte = func() (t [256]bool) {
	for c := range t {
		switch c {
		case ',', '}', ']', ':', ' ', '\t', '\n', '\r':
		default:
			t[c] = true
		}
	}
	return t
}()

// containerEndBytes returns the index just past the object or array at b[i],
// finding it by its brackets and strings alone: nothing else is checked.
// It returns -1 when b[i] opens neither, when the brackets do not close
// before the end of b, or when they nest deeper than maxDepth (counting
// the value at i as 1). For valid JSON the end is the one a parser finds.
// For anything else a validating scanner's first fault lies before the
// end ContainerEnd returns: until its first fault the scanner sees the
// same strings and brackets (a string it accepts closes where this skip
// finds it closes), so at the end's bracket it would have closed the
// value; and it reads no byte beyond a fault's few bytes of look-ahead,
// none of which can pass that bracket. Checking the bytes up to the end
// alone therefore finds the fault a check of the whole line finds (the
// reader relies on this: singer.Message.DecodeRecord).
func containerEndBytes(b []byte, i, maxDepth int) int {
	if i >= len(b) || b[i] != '{' && b[i] != '[' {
		return -1
	}
	depth := 0
	// A byte at a time between strings (records are dense: the gaps
	// between strings are a few bytes), a word at a time inside them,
	// written out here: a call per string and per gap was a third of the
	// walk (BenchmarkContainerEnd).
	for ; i < len(b); i++ {
		switch skipClass[b[i]] {
		case skipQuote:
			for i++; ; i += 2 { // i += 2: the escaped byte cannot close the string
				for ; i+8 <= len(b); i += 8 {
					x := binary.LittleEndian.Uint64(b[i:])
					q, bs := x^(ones*'"'), x^(ones*'\\')
					if m := ((q-ones)&^q | (bs-ones)&^bs) & highs; m != 0 {
						i += bits.TrailingZeros64(m) / 8
						break
					}
				}
				for i < len(b) && b[i] != '"' && b[i] != '\\' {
					i++
				}
				if i >= len(b) {
					return -1
				}
				if b[i] == '"' {
					break
				}
			}
		case skipOpen:
			if depth++; depth > maxDepth {
				return -1
			}
		case skipClose:
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// The bytes containerEndBytes stops at outside strings.
const (
	skipQuote = 1 + iota
	skipOpen
	skipClose
)

var skipClass = func() (t [256]uint8) {
	t['"'], t['{'], t['['], t['}'], t[']'] = skipQuote, skipOpen, skipOpen, skipClose, skipClose
	return t
}()
