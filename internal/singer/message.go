// Package singer reads the Singer message stream: one JSON object per line,
// numbers kept as their original text, every message tagged with its input
// line so errors and the state contract can point back at the input.
package singer

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// Type is the kind of a Singer message.
type Type int

const (
	TypeSchema Type = iota + 1
	TypeRecord
	TypeState
	TypeActivateVersion
	TypeBatch
)

func (t Type) String() string {
	switch t {
	case TypeSchema:
		return "SCHEMA"
	case TypeRecord:
		return "RECORD"
	case TypeState:
		return "STATE"
	case TypeActivateVersion:
		return "ACTIVATE_VERSION"
	case TypeBatch:
		return "BATCH"
	}
	return "UNKNOWN"
}

// Message is one decoded input line (or one row of a BATCH file). Only the
// fields of its Type are set.
//
// A Message returned by Reader.Next or batchfile.Reader.Next, and the bytes its
// json.RawMessage fields point at, are owned by the reader and valid only
// until its next call to Next: the reader reuses its buffers so that reading
// a RECORD does not allocate. Callers copy what they keep (see Clone).
type Message struct {
	Type Type
	// Line is the 1-based input line number (for BATCH file rows: the line
	// of the BATCH message; FileLine then names the row in the file).
	Line   int64
	Stream string

	// File and FileLine are set on the rows of a BATCH file: the manifest
	// entry as written in the BATCH message and the row's 1-based line in
	// that file. Both are zero for messages read from the input stream.
	File     string
	FileLine int64

	// SCHEMA
	Schema           json.RawMessage
	KeyProperties    []string
	HasKeyProperties bool // key_properties was present (absent means no key)

	// RECORD
	Record        json.RawMessage // the record object, exact bytes as received
	TimeExtracted string          // raw time_extracted text, "" when absent
	// HasTimeExtracted is time_extracted present, so that "" given is
	// told from absent (and refused as a date-time).
	HasTimeExtracted bool
	// Version is the RECORD/ACTIVATE_VERSION "version" as its JSON number
	// text ("" when absent); the reader guarantees it is an integer (no
	// fraction, no exponent) but not its size. Versions are compared
	// numerically.
	Version string
	// unchecked is set when the reader left Record's syntax to
	// DecodeRecord.
	unchecked bool
	recordAt  int        // Record's offset in its line, for error positions
	errStream string     // the stream a syntax error in Record names: as read before it
	use       *recordUse // the reader's, told how the record was read (nil: from no Reader)

	// STATE
	Value json.RawMessage // compact JSON text of "value" (numbers keep their text; null stays "null")

	// BATCH
	Encoding BatchEncoding
	Manifest []string
}

// BatchEncoding describes the files of a BATCH message.
type BatchEncoding struct {
	Format      string // "jsonl" or "parquet"
	Compression string // "gzip", "none" or ""
}

// Clone returns a deep copy of m that stays valid after the reader that
// returned m moves on.
func (m *Message) Clone() *Message {
	c := *m
	c.Schema = bytes.Clone(m.Schema)
	c.Record = bytes.Clone(m.Record)
	c.Value = bytes.Clone(m.Value)
	c.KeyProperties = slices.Clone(m.KeyProperties)
	c.Manifest = slices.Clone(m.Manifest)
	return &c
}

// DecodeRecord reads a RECORD's record through decode, the caller's walk
// over its bytes (the one-pass decoder), or only checks it when decode is
// nil. Every use of the Record of a message from Reader.Next goes through
// it first. decode must return nil only for a record that is one valid
// JSON value as CheckValue accepts it (a walk that checks the syntax as
// it converts). When decode fails, or is nil, DecodeRecord makes sure of
// the record's syntax: a malformed record gets the *inputerr.Error a read
// checking every byte of its line gives (line, stream, byte offset in the
// line), returned in place of decode's error; otherwise decode's error is
// returned as it is. From then on Record is valid JSON, unless DecodeRecord
// returned an error that is not decode's.
func (m *Message) DecodeRecord(decode func(record []byte) error) error {
	if decode == nil {
		m.use.readAlone(m.unchecked)
		return m.checkRecord()
	}
	m.use.walked()
	err := decode(m.Record)
	if err == nil {
		m.unchecked = false
		return nil
	}
	if serr := m.checkRecord(); serr != nil {
		return serr
	}
	return err
}

// checkRecord checks the syntax of a record the reader left unchecked. The
// other parts of the line were checked when it was read, and the record's
// bytes are exactly delimited (jsonscan.ContainerEnd), so the first fault of the line
// is the first fault of the record: the error is the one the full read of
// the line gives.
func (m *Message) checkRecord() error {
	if !m.unchecked {
		return nil
	}
	err := CheckValue(m.Record, 1)
	if err == nil {
		m.unchecked = false
		return nil
	}
	prop := ""
	if se, ok := err.(*scanError); ok {
		prop = propertyAt(m.Record, se.off)
		err = &scanError{se.off + m.recordAt, se.msg}
	}
	return &inputerr.Error{Line: m.Line, Stream: m.errStream, Property: prop, Msg: err.Error()}
}

// RawSize is the number of bytes AppendRaw copies.
func (m *Message) RawSize() int {
	return len(m.Record) + len(m.Schema) + len(m.Value)
}

// AppendRaw copies the bytes m points into (Schema, Record, Value) to the
// end of arena,
// points m at the copies and returns the arena. When the arena has to
// grow, the slices taken before stay valid (they keep the old array).
func (m *Message) AppendRaw(arena []byte) []byte {
	m.Schema, arena = appendKept(arena, m.Schema)
	m.Value, arena = appendKept(arena, m.Value)
	m.Record, arena = appendKept(arena, m.Record)
	return arena
}

func appendKept(arena, b []byte) ([]byte, []byte) {
	if b == nil {
		return nil, arena
	}
	n := len(arena)
	arena = append(arena, b...)
	return arena[n:len(arena):len(arena)], arena
}

// CheckValue checks that b is exactly one JSON value as the reader
// requires of a line's parts: RFC 8259 syntax, valid UTF-8, no unpaired
// surrogate escape, and nesting within MaxDepth when b sits depth levels
// deep. The error names the first fault (invalid UTF-8 first, as the
// reader reports it) with its byte offset in b.
func CheckValue(b []byte, depth int) error {
	s := scanner{data: b}
	s.skipSpace()
	err := s.value(depth)
	if s.skipSpace(); err == nil && s.pos != len(b) {
		err = &scanError{s.pos, "invalid JSON: unexpected data after the value"}
	}
	if err == nil {
		return nil
	}
	if off := invalidUTF8(b); off >= 0 {
		return utf8Error(off)
	}
	return err
}
