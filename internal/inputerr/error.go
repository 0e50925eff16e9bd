// Package inputerr holds the error for input that is wrong on its own: the
// reader, the BATCH file readers, the row builder and the engines' checks of
// values return it, and the CLI maps it to exit code 3. It imports nothing of
// the project, so every layer can return it without depending on the reader.
package inputerr

import (
	"fmt"
	"strings"
)

// Error reports input that is wrong on its own, whatever the database
// does: a malformed line, an invalid schema or record, a value that cannot be
// stored exactly. The CLI maps it to exit code 3.
type Error struct {
	Line     int64  // 1-based input line, 0 when unknown
	File     string // the BATCH file of the row at fault, "" for none
	FileLine int64  // the row's 1-based line (jsonl) or row number (Parquet) in File
	Stream   string // "" when not known
	Output   string // the stream map's output stream Stream's record was mapped into, "" when none or the same
	Property string // property path ("a.b"), "" when not about one property
	Msg      string // what was expected / what is wrong
	Err      error  // optional cause
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.File != "" {
		fmt.Fprintf(&b, "BATCH file %q row %d: ", e.File, e.FileLine)
	}
	if e.Stream != "" {
		fmt.Fprintf(&b, "stream %q", e.Stream)
		if e.Output != "" {
			fmt.Fprintf(&b, " (output %q)", e.Output)
		}
		b.WriteString(": ")
	}
	if e.Property != "" {
		fmt.Fprintf(&b, "property %q: ", e.Property)
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		if e.Msg != "" {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }
