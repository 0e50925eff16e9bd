package batchfile

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// checkThriftLengths walks a Thrift compact-protocol struct (a Parquet
// footer's FileMetaData) and fails when a list, set, map or binary claims
// more entries or bytes than remain in the buffer. parquet-go's decoder
// allocates what a list claims before it reads an element: a 20-byte file
// whose schema list claimed 5,000,000 elements took 480 MB (2^31 would
// take some 200 GB). Every element takes at least one byte, so a claim
// past the buffer's end is damage, and no valid footer is refused.
func checkThriftLengths(b []byte) error {
	w := thriftWalker{b: b}
	w.structure(0)
	return w.err
}

type thriftWalker struct {
	b    []byte
	i    int
	err  error
	what string // what b is, for errors: "" is the footer
}

func (w *thriftWalker) name() string {
	if w.what == "" {
		return "the footer"
	}
	return w.what
}

const thriftMaxDepth = 64 // FileMetaData nests a few levels; deeper is damage

var errThriftShort = errors.New("the footer ends inside a value")

func (w *thriftWalker) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

func (w *thriftWalker) byte() byte {
	if w.i >= len(w.b) {
		w.fail(errThriftShort)
		return 0
	}
	c := w.b[w.i]
	w.i++
	return c
}

func (w *thriftWalker) varint() uint64 {
	v, n := binary.Uvarint(w.b[min(w.i, len(w.b)):])
	if n <= 0 {
		w.fail(errThriftShort)
		return 0
	}
	w.i += n
	return v
}

// claim checks that n items of at least one byte each fit in what is left.
func (w *thriftWalker) claim(n uint64, what string) bool {
	if left := uint64(len(w.b) - min(w.i, len(w.b))); n > left {
		w.fail(fmt.Errorf("%s claims a %s of %d, with %d bytes left", w.name(), what, n, left))
		return false
	}
	return true
}

func (w *thriftWalker) skip(n int) {
	if w.i+n > len(w.b) {
		w.fail(errThriftShort)
		return
	}
	w.i += n
}

func (w *thriftWalker) structure(depth int) {
	if depth > thriftMaxDepth {
		w.fail(fmt.Errorf("%s nests more than %d levels", w.name(), thriftMaxDepth))
		return
	}
	for w.err == nil {
		h := w.byte()
		if h == 0 {
			return // STOP
		}
		if h>>4 == 0 {
			w.varint() // the field id, when it is no small delta
		}
		w.value(h&0x0f, depth, true)
	}
}

// value skips one value of compact type t; inField says a boolean's value
// is in its type (a field), not in a byte of its own (a list element).
func (w *thriftWalker) value(t byte, depth int, inField bool) {
	switch t {
	case 1, 2: // BOOLEAN_TRUE, BOOLEAN_FALSE
		if !inField {
			w.skip(1)
		}
	case 3: // BYTE
		w.skip(1)
	case 4, 5, 6: // I16, I32, I64 (zigzag varints)
		w.varint()
	case 7: // DOUBLE
		w.skip(8)
	case 8: // BINARY
		if n := w.varint(); w.claim(n, "string") {
			w.skip(int(n))
		}
	case 9, 10: // LIST, SET
		h := w.byte()
		n := uint64(h >> 4)
		if n == 15 {
			n = w.varint()
		}
		if !w.claim(n, "list") {
			return
		}
		for k := uint64(0); k < n && w.err == nil; k++ {
			w.value(h&0x0f, depth+1, false)
		}
	case 11: // MAP
		n := w.varint()
		if n == 0 || !w.claim(n, "map") {
			return
		}
		kv := w.byte()
		for k := uint64(0); k < n && w.err == nil; k++ {
			w.value(kv>>4, depth+1, false)
			w.value(kv&0x0f, depth+1, false)
		}
	case 12: // STRUCT
		w.structure(depth + 1)
	case 13: // UUID
		w.skip(16)
	default:
		w.fail(fmt.Errorf("%s holds a value of unknown type %d", w.name(), t))
	}
}

// pageHeader reads the sizes of the Thrift compact PageHeader b starts
// with, and its length in bytes; errThriftShort when b ends inside it.
// Field 2 is uncompressed_page_size, field 3 compressed_page_size (i32).
func pageHeader(b []byte) (compressed, uncompressed int64, n int, err error) {
	w := thriftWalker{b: b, what: "the page header"}
	id := int64(0)
	for w.err == nil {
		h := w.byte()
		if h == 0 || w.err != nil {
			break // STOP
		}
		if d := int64(h >> 4); d != 0 {
			id += d
		} else {
			v := w.varint()
			id = int64(v>>1) ^ -int64(v&1)
		}
		if t := h & 0x0f; t == 5 && (id == 2 || id == 3) {
			v := w.varint()
			size := int64(int32(uint32(v>>1) ^ -uint32(v&1)))
			if id == 2 {
				uncompressed = size
			} else {
				compressed = size
			}
			continue
		}
		w.value(h&0x0f, 0, true)
	}
	return compressed, uncompressed, w.i, w.err
}
