package wirepeer

import (
	"database/sql"
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// TTC messages of a query's reply.
const (
	msgRowHeader = 6
	msgDescribe  = 16
	fnFetch      = 0x05
	oraNoData    = 1403 // ORA-01403: the end of a query's rows (not an error)
)

// describedCharLen is the length every query column is described with:
// the peer describes all columns as VARCHAR2(4000) in the database
// character set (the backend's values are text), so the client's
// decoding of other column types is not exercised.
const describedCharLen = 4000

// cursorRows are a query's rows not fetched yet.
type cursorRows struct {
	rows [][]sql.NullString
	cols int
}

// queryReply writes a query's first reply: the describe information, the
// first rows (at most the prefetch count the client asked for) and the
// summary, with ORA-01403 when no rows are left for a fetch.
func (s *session) queryReply(w *ttcWriter, c *Call, e *Execute, cols []string, data [][]sql.NullString) {
	if e.Cursor == 0 {
		s.cursors++
		e.Cursor = s.cursors
	}
	s.describe(w, cols)
	rest := s.writeRows(w, data, len(cols), max(e.Prefetch, 1))
	if len(rest) > 0 {
		if s.open == nil {
			s.open = map[int]*cursorRows{}
		}
		s.open[e.Cursor] = &cursorRows{rows: rest, cols: len(cols)}
	}
	if id := s.p.facts.QueryID; id != 0 {
		s.queryID(w, id)
	}
	s.rowsSummary(w, c, e.Cursor, len(data)-len(rest), len(rest) == 0)
}

// queryID writes the return parameters message with a query id: no SCN
// values, no key/value pairs, then the id's bytes (little-endian in its
// last 8 bytes, as go-ora reads it).
func (s *session) queryID(w *ttcWriter, id uint64) {
	w.ub1(msgParameter)
	w.ub(2) // SCN values
	w.ub(0)
	w.ub(0)
	w.ub(0) // another count
	w.ub(0) // key/value pairs
	if s.ttc >= 4 {
		w.ub(8)
		w.b = binary.LittleEndian.AppendUint64(w.b, id)
	}
}

// fetch answers a fetch call (cursor, rows wanted) with the next rows of
// an open query.
func (s *session) fetch(c *Call, w *ttcWriter) error {
	cursor, err := s.r.ub4()
	if err != nil {
		return err
	}
	n, err := s.r.ub4()
	if err != nil {
		return err
	}
	cr := s.open[cursor]
	if cr == nil {
		s.fail(w, c, 1001, "invalid cursor")
		return nil
	}
	before := len(cr.rows)
	cr.rows = s.writeRows(w, cr.rows, cr.cols, max(n, 1))
	if len(cr.rows) == 0 {
		delete(s.open, cursor)
	}
	s.rowsSummary(w, c, cursor, before-len(cr.rows), len(cr.rows) == 0)
	return nil
}

func (s *session) rowsSummary(w *ttcWriter, c *Call, cursor, sent int, done bool) {
	sm := summary{rows: sent, cursor: cursor}
	if done {
		sm.ora, sm.msg = oraNoData, "ORA-01403: no data found\n"
	}
	s.summary(w, sm)
}

// describe writes message 16: per column its type, lengths, character
// set and name, in the layout of TTC field version s.ttc.
func (s *session) describe(w *ttcWriter, cols []string) {
	cs := s.p.facts.Charset
	w.ub1(msgDescribe)
	w.ub1(0) // no preceding bytes
	w.ub(uint64(describedCharLen * max(len(cols), 1)))
	w.ub(uint64(len(cols)))
	if len(cols) > 0 {
		w.ub1(0)
	}
	for _, name := range cols {
		w.ub1(TypeVarchar, 0, 0, 0) // type, flags, precision, scale
		w.ub(describedCharLen)      // max length in bytes
		w.ub(0)                     // array elements
		w.ub(0)                     // contflag
		w.ub(0)                     // no TOID
		w.ub(0)                     // type version
		w.ub(uint64(cs))            // character set
		w.ub1(1)                    // form: the database set
		w.ub(describedCharLen)      // max length in characters
		if s.ttc >= 8 {
			w.ub(0) // collation
		}
		w.ub1(1) // nullable
		w.ub1(0) // v7 name length
		w.dlc(encodeCharset(cs, strings.ToUpper(name)))
		w.dlc(nil) // schema of the type
		w.dlc(nil) // type name
		if s.ttc >= 3 {
			w.ub(0) // column position
		}
		if s.ttc >= 6 {
			w.ub(0) // UDS flags
		}
	}
	w.dlc(nil)
	if s.ttc >= 3 {
		w.ub(0)
		w.ub(0)
	}
	if s.ttc >= 4 {
		w.ub(0)
		w.ub(0)
	}
	if s.ttc >= 5 {
		w.dlc(nil)
	}
}

// writeRows writes at most n rows, each a row header and a row-data
// message with every column, and returns the rows left.
func (s *session) writeRows(w *ttcWriter, rows [][]sql.NullString, cols, n int) [][]sql.NullString {
	cs := s.p.facts.Charset
	k := min(n, len(rows))
	for _, row := range rows[:k] {
		w.ub1(msgRowHeader, 0) // flags
		w.ub(uint64(cols))     // columns
		w.ub(0)                // iteration number
		w.ub(0)                // rows
		w.ub(0)                // buffer length
		w.dlc(nil)             // bit vector: every column sent
		w.dlc(nil)             // rxhrid
		w.ub1(msgRowData)
		for i := 0; i < cols; i++ {
			if i >= len(row) || !row[i].Valid || row[i].String == "" {
				w.ub1(0)
				continue
			}
			w.clr(encodeCharset(cs, row[i].String))
		}
	}
	return rows[k:]
}

// dlc writes a byte string as its UB4 length then, when not empty, its
// CLR.
func (w *ttcWriter) dlc(b []byte) {
	w.ub(uint64(len(b)))
	if len(b) > 0 {
		w.clr(b)
	}
}

// encodeCharset encodes text in a character set the peer knows; a
// character WE8MSWIN1252 cannot hold becomes '?'.
func encodeCharset(cs int, text string) []byte {
	switch cs {
	case WE8MSWIN1252:
		out := make([]byte, 0, len(text))
		for _, r := range text {
			out = append(out, encode1252(r))
		}
		return out
	case AL16UTF16:
		var out []byte
		for _, u := range utf16.Encode([]rune(text)) {
			out = append(out, byte(u>>8), byte(u))
		}
		return out
	}
	return []byte(text)
}

func encode1252(r rune) byte {
	switch {
	case r < 0x80 || r >= 0xA0 && r <= 0xFF:
		return byte(r)
	}
	for i, m := range cp1252 {
		if m == r && m != 0 {
			return byte(0x80 + i)
		}
	}
	return '?'
}
