package oracle

import (
	"encoding/base64"
	"fmt"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Binary bind classes (RAW and BLOB columns, interpret_content_encoding).
// Their stored values are padded base64; they travel as bytes:
//
//   - bindRaw: [][]byte, a RAW bind (nil is NULL), for values within the
//     RAW limit (2000 bytes, 32767 with EXTENDED), into RAW or BLOB;
//   - bindLongRaw: [][]byte too, for longer values in a statement that
//     assigns bare placeholders (INSERT, the UPDATE of a split upsert):
//     go-ora sends a []byte longer than its RAW limit as LONG RAW
//     (parameter_encode.go:382-395) after the other binds;
//   - bindBlob: []go_ora.Blob, a temporary LOB per value (2 round trips
//     each, value_getter.go:199-205), only where neither fits: a MERGE's
//     select list (SPEC §6.1).
const (
	bindRaw bindClass = iota + 16
	bindLongRaw
	bindBlob
)

// rawLimit is the longest value bound as RAW: the RAW column limit that
// goes with the VARCHAR bind limit. go-ora's own switch to LONG RAW is
// at its maxLen.raw, 4000 or 32767 (connection.go:1390-1398), above
// 2000, so a value of 2001–4000 bytes on a STANDARD server travels as a
// RAW bind longer than any RAW column: it goes as LONG RAW or a BLOB
// here [verify on a real DB: how the server takes such a RAW bind].
func (b *binder) rawLimit() int {
	if b.maxString >= table.RawMaxBytesExtended {
		return table.RawMaxBytesExtended
	}
	return table.RawMaxBytesStandard
}

// goOraRawBytes is go-ora's own RAW bind limit (maxLen.raw): a longer
// []byte travels as LONG RAW.
func (b *binder) goOraRawBytes() int {
	if b.maxString >= table.RawMaxBytesExtended {
		return table.RawMaxBytesExtended
	}
	return DefaultMaxStringBytes
}

// binaryClass keeps one LONG RAW bind's values homogeneous: go-ora
// declares an array bind's type from its last element, so a value that
// go-ora would still send as RAW (2001–4000 bytes on a STANDARD server:
// above every RAW column, within go-ora's RAW limit) travels as a
// temporary BLOB instead of beside LONG RAW values. Other classes are
// returned unchanged.
func (b *binder) binaryClass(c bindClass, stored string) bindClass {
	if c == bindLongRaw && binaryLen(stored) <= b.goOraRawBytes() {
		return bindBlob
	}
	return c
}

// binaryLen is the number of bytes a stored (padded base64) value holds.
func binaryLen(stored string) int {
	n := len(stored) / 4 * 3
	for i := len(stored) - 1; i >= 0 && i >= len(stored)-2 && stored[i] == '='; i-- {
		n--
	}
	return n
}

// binaryColumn decodes the stored values of a binary bind into the slice
// type of class c. The values are decoded end to end into buf's bytes,
// reused by the next chunk like the slices.
func binaryColumn(c bindClass, bd *oraclesql.Bind, rows []engine.Row, buf *bindBuf) (any, error) {
	texts := buf.texts
	need := 0
	for _, s := range texts {
		need += base64.StdEncoding.DecodedLen(len(s)) + len(s) // the value and its text's copy
	}
	buf.bytes = grow(buf.bytes, need)
	vals := grow(buf.bin, len(texts))
	buf.bin = vals
	off := 0
	for i, s := range texts {
		if s == "" {
			vals[i] = nil // NULL
			continue
		}
		src := buf.bytes[need-len(s) : need]
		copy(src, s)
		need -= len(s)
		n, err := base64.StdEncoding.Decode(buf.bytes[off:need], src)
		if err != nil {
			line := int64(0)
			if i < len(rows) {
				line = rows[i].Line
			}
			return nil, fmt.Errorf("bind %q: the stored value of line %d is not base64: %v", bd.Column, line, err)
		}
		vals[i] = buf.bytes[off : off+n : off+n]
		off += n
	}
	if c != bindBlob {
		return vals, nil
	}
	out := grow(buf.blob, len(vals))
	for i, v := range vals {
		out[i] = go_ora.Blob{Data: v} // nil or empty Data is NULL
	}
	buf.blob = out
	return out, nil
}
