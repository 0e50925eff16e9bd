package singer

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime/debug"
)

const (
	// DefaultMaxLineBytes is the line length limit when
	// ReaderOptions.MaxLineBytes is 0.
	DefaultMaxLineBytes = 128 << 20

	maxMaxLineBytes = 1 << 40  // keeps limit arithmetic far from overflow
	readBufferSize  = 64 << 10 // lines up to this size are never copied
	keepScratch     = 16 << 20 // a bigger scratch buffer is dropped after use
)

// ErrLineTooLong is returned by lineReader for a line over its limit, after
// the line has been discarded.
var ErrLineTooLong = errors.New("line too long")

// lineReader splits its input into physical lines ending in "\n" or "\r\n"
// (the last may lack it), skipping blank ones. A line that fits the bufio
// buffer is returned in place; a longer one is gathered in a scratch buffer
// reused across lines; a line over the limit is read and dropped piece by
// piece, so memory stays bounded whatever the input.
type lineReader struct {
	br      *bufio.Reader
	scratch []byte
	max     int
	n       int64 // physical number of the last line read

	// owned: the last line is longer than keepScratch and was read into a
	// buffer of its own that the reader never reuses (see Reader.LineOwned).
	owned bool

	off   int64 // bytes taken from br
	nlEnd int64 // offset just past a newline known to be in br's buffer (see buffered)
}

func newLineReader(r io.Reader, max int) lineReader {
	switch {
	case max <= 0:
		max = DefaultMaxLineBytes
	case max > maxMaxLineBytes:
		max = maxMaxLineBytes
	}
	return lineReader{br: bufio.NewReaderSize(r, readBufferSize), max: max}
}

// reset starts reading r from line 1, keeping the buffers.
func (lr *lineReader) reset(r io.Reader) {
	lr.br.Reset(r)
	lr.n, lr.off, lr.nlEnd = 0, 0, 0
}

// next returns the next non-blank line without its line ending. The bytes
// are valid until the next call. It returns io.EOF at the end of the input,
// ErrLineTooLong for (and after skipping) a line over the limit, and read
// errors as they are.
func (lr *lineReader) next() ([]byte, error) {
	for {
		line, err := lr.read()
		if err != nil {
			return nil, err
		}
		if !blank(line) {
			return line, nil
		}
	}
}

func (lr *lineReader) read() ([]byte, error) {
	chunk, err := lr.slice()
	switch err {
	case nil:
	case io.EOF:
		if len(chunk) == 0 {
			return nil, io.EOF
		}
	case bufio.ErrBufferFull:
		return lr.readLong(chunk)
	default:
		return nil, err
	}
	lr.owned = false
	if cap(lr.scratch) > keepScratch {
		lr.scratch = nil // the long lines are over; give the memory back
	}
	lr.n++
	return lr.checkLen(chunk)
}

// readLong gathers a line longer than the bufio buffer, whose first part
// is chunk.
//
// The pieces are collected as they come and copied once into a buffer of
// the line's exact size: growing one buffer by append would copy a long
// line five times over (Go grows large slices by 1.25×) and hold the old
// and the new array at each step — 4× a 127 MiB line at the peak instead
// of 2× (SPEC §10's memory bound counts 2 × the longest line).
func (lr *lineReader) readLong(chunk []byte) ([]byte, error) {
	var pieces [][]byte
	total := 0
	err := bufio.ErrBufferFull
	for {
		// +2: the line ending, not yet told apart, does not count.
		if total+len(chunk) > lr.max+2 {
			lr.n++
			return nil, lr.discard(err)
		}
		// chunk aliases bufio's buffer, which the next read overwrites.
		pieces = append(pieces, bytes.Clone(chunk))
		total += len(chunk)
		if err != bufio.ErrBufferFull {
			break
		}
		chunk, err = lr.slice()
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	buf := lr.scratch[:0]
	lr.owned = total > keepScratch
	if cap(buf) < total || lr.owned {
		buf = make([]byte, 0, total)
	}
	for i, p := range pieces {
		buf = append(buf, p...)
		pieces[i] = nil // let the collector have each piece as soon as it is copied
	}
	if !lr.owned {
		lr.scratch = buf
	} else {
		// The pieces, as large as the line, are garbage now; the row
		// built from the line will be as large again. Collect them and
		// give their pages back to the system first: they are 64 KiB
		// spans the row's one large allocation cannot reuse, so until the
		// scavenger returned them RSS would hold three copies of the line
		// (SPEC §10 counts two). Lines this long are rare, and this costs
		// little next to reading one (its bytes hold no pointers to scan).
		pieces = nil
		debug.FreeOSMemory()
	}
	lr.n++
	return lr.checkLen(buf)
}

// discard drops the rest of a line over the limit; err is the error of the
// last ReadSlice.
func (lr *lineReader) discard(err error) error {
	for err == bufio.ErrBufferFull {
		_, err = lr.slice()
	}
	if err != nil && err != io.EOF {
		return err
	}
	return ErrLineTooLong
}

func (lr *lineReader) slice() ([]byte, error) {
	chunk, err := lr.br.ReadSlice('\n')
	lr.off += int64(len(chunk))
	return chunk, err
}

// buffered reports whether a whole line is in the buffer, not yet read.
// One search from the end of the buffer serves every line up to the last
// newline in it.
func (lr *lineReader) buffered() bool {
	if lr.off < lr.nlEnd {
		return true
	}
	ahead, _ := lr.br.Peek(lr.br.Buffered())
	k := bytes.LastIndexByte(ahead, '\n')
	if k < 0 {
		return false
	}
	lr.nlEnd = lr.off + int64(k) + 1
	return true
}

// checkLen strips the line ending and applies the limit. A UTF-8 byte
// order mark at the very start of the input (or of a BATCH file) goes too:
// RFC 8259 §8.1 lets a parser ignore it, and Windows tools write one
// (PowerShell's Out-File, Notepad). Elsewhere it stays, and is invalid.
func (lr *lineReader) checkLen(line []byte) ([]byte, error) {
	if lr.n == 1 {
		line = bytes.TrimPrefix(line, []byte("\ufeff"))
	}
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n > 1 && line[n-2] == '\r' {
			line = line[:n-2]
		}
	}
	if len(line) > lr.max {
		return nil, ErrLineTooLong
	}
	return line, nil
}

// blank reports whether line holds only JSON whitespace.
func blank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
