package inputerr

import (
	"errors"
	"io"
	"testing"
)

// TestErrorText holds the message layout the CLI prints and tests across
// the project match: line, BATCH file row, stream, property, then what is
// wrong and its cause.
func TestErrorText(t *testing.T) {
	cases := []struct {
		err  Error
		want string
	}{
		{Error{Msg: "bad"}, "bad"},
		{Error{Line: 7, Stream: "s", Property: "a.b", Msg: "expected a string"}, `line 7: stream "s": property "a.b": expected a string`},
		{Error{Line: 3, File: "f.jsonl", FileLine: 2, Stream: "s", Msg: "not an object"}, `line 3: BATCH file "f.jsonl" row 2: stream "s": not an object`},
		{Error{Line: 1, Msg: "malformed", Err: io.ErrUnexpectedEOF}, "line 1: malformed: unexpected EOF"},
		{Error{Line: 3, Stream: "s2", Output: "s0", Property: "v", Msg: "bad"}, `line 3: stream "s2" (output "s0"): property "v": bad`},
		{Error{Err: io.ErrUnexpectedEOF}, "unexpected EOF"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.err, got, c.want)
		}
	}
	var ie *Error
	if wrapped := error(&Error{Msg: "x", Err: io.EOF}); !errors.Is(wrapped, io.EOF) || !errors.As(wrapped, &ie) {
		t.Error("an Error must unwrap to its cause and be found by errors.As")
	}
}
