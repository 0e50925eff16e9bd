package singer

import "io"

// What the BATCH file readers (internal/batchfile) share with the Reader:
// a jsonl BATCH file holds Singer lines without their envelope, so its rows
// are split by the Reader's line reader and checked by its scanner, and
// their errors read as the Reader's do.

// A LineReader splits its input into lines as the Reader does: lines end
// in "\n" or "\r\n" (the last may lack it), blank ones are skipped, and a
// line over the limit is read and dropped piece by piece, so memory stays
// bounded whatever the input.
type LineReader struct{ lr lineReader }

// NewLineReader reads r with a line limit of max bytes (0:
// DefaultMaxLineBytes).
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{newLineReader(r, max)}
}

// Reset starts reading r from line 1, keeping the buffers.
func (l *LineReader) Reset(r io.Reader) { l.lr.reset(r) }

// Next returns the next non-blank line without its line ending, valid until
// the next call. It returns io.EOF at the end of the input, ErrLineTooLong
// for (and after skipping) a line over the limit, and read errors as they
// are.
func (l *LineReader) Next() ([]byte, error) { return l.lr.next() }

// Line is the 1-based physical number of the last line read.
func (l *LineReader) Line() int64 { return l.lr.n }

// Max is the line limit in bytes.
func (l *LineReader) Max() int { return l.lr.max }

// ScanObject checks that line holds exactly one JSON object, with only
// whitespace around it, and returns the object's bytes. As for a line of
// the input, invalid UTF-8 anywhere in line is the error, whatever the scan
// tripped on first; errors name the 1-based byte offset.
func ScanObject(line []byte) ([]byte, error) {
	rec, err := scanObject(line)
	if err != nil {
		if off := invalidUTF8(line); off >= 0 {
			err = utf8Error(off)
		}
		return nil, err
	}
	return rec, nil
}

// ObjectErrorProperty returns the property (keys joined with ".") that
// holds the fault a ScanObject error of line points at, "" when the
// fault lies in none: a BATCH file's row names it as a RECORD line's
// syntax fault does.
func ObjectErrorProperty(line []byte, err error) string {
	se, ok := err.(*scanError)
	if !ok {
		return ""
	}
	return propertyAt(line, se.off)
}

// InvalidUTF8 returns the offset of the first invalid UTF-8 byte in b, or -1.
func InvalidUTF8(b []byte) int { return invalidUTF8(b) }

// AppendCompact checks that b is one JSON value, with only whitespace
// around it, nested at most MaxDepth levels with depth levels already
// around it, and appends it to dst without insignificant whitespace
// (numbers and string escapes as written). On error dst is returned as it
// was.
func AppendCompact(dst, b []byte, depth int) ([]byte, error) {
	s := scanner{data: b}
	s.skipSpace()
	if err := s.value(depth); err != nil {
		return dst, err
	}
	if err := s.end(); err != nil {
		return dst, err
	}
	return compact(dst, b), nil
}
