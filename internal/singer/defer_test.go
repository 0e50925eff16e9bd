package singer

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// newCheckingReader returns a Reader that checks every byte of every line
// itself, as one does for a caller that reads records without a decoder.
func newCheckingReader(r io.Reader, opts ReaderOptions) *Reader {
	rd := NewReader(r, opts)
	rd.use.check.Store(true)
	return rd
}

// declineAll is a decoder that declines every record, as the one pass does
// for a record it leaves to the general path: DecodeRecord then checks the
// syntax itself.
func declineAll([]byte) error { return errDeclined }

var errDeclined = errors.New("declined")

// readNext is Next, then, for a RECORD, DecodeRecord with a decoder that
// declines the record: what a line gives a caller, whoever checked it.
func readNext(r *Reader) (*Message, error) {
	m, err := r.Next()
	if err != nil || m.Type != TypeRecord {
		return m, err
	}
	if err := m.DecodeRecord(declineAll); err != errDeclined {
		return nil, err
	}
	return m, nil
}

// deferredCases are inputs whose deferred read must give what the full
// read gives (TestDeferredMatchesFull; they also seed FuzzDeferredRecord).
// want is the full read's first error ("" for none), so that a case
// proves it reaches the path it names.
var deferredCases = []struct {
	name, in, want string
}{
	{"plain", `{"type":"RECORD","stream":"s","record":{"a":1}}`, ""},
	{"object member after the record",
		`{"type":"RECORD","stream":"s","record":{"a":1},"x":{"b":2}}`, ""},
	{"array and object members after the record, then scalars",
		`{"type":"RECORD","stream":"s","record":{"a":1} , "x" : [ {"b":"}"} ] , "y":{"c":{}}, "version" : 1 }`, ""},
	{"stream after the record, behind an object",
		`{"type":"RECORD","record":{"a":1},"x":{},"stream":"t"}`, ""},
	{"type after the record turns it into a STATE",
		`{"type":"RECORD","stream":"s","record":{"a":1},"x":{"y":2},"type":"STATE","value":{"b":2}}`, ""},
	{"braces and brackets in strings and keys",
		`{"type":"RECORD","stream":"s","record":{"}{":"][","a":"{\"}\"","k\"]":[{"}":"]"}]},"t":"}"}`, ""},
	{"escaped quotes and backslashes",
		`{"type":"RECORD","stream":"s","record":{"a":"\\","b":"\\\"","c\\":"x\\\\\"}"},"time_extracted":"2025-01-01T00:00:00Z"}`, ""},
	{"time_extracted after the record",
		`{"type":"RECORD","stream":"s","record":{"a":1},"time_extracted":"2025-01-01T00:00:00.123456+00:00"}`, ""},
	{"deep nesting at the limit",
		`{"type":"RECORD","stream":"s","record":` + strings.Repeat(`{"a":`, 998) + `1` + strings.Repeat(`}`, 998) + `}`, ""},
	{"deep nesting beyond the limit",
		`{"type":"RECORD","stream":"s","record":` + strings.Repeat(`{"a":`, 1000) + `1` + strings.Repeat(`}`, 1000) + `}`,
		"line 1: stream \"s\": JSON nesting deeper than 1000 levels at byte 5035"},
	{"invalid number in the record",
		`{"type":"RECORD","stream":"s","record":{"a":01},"x":{"b":2}}`,
		`line 1: stream "s": property "a": invalid JSON: unexpected '1', want ',' or '}' at byte 46`},
	{"invalid literal in the record, object after it",
		`{"type":"RECORD","stream":"s","record":{"a":tru},"x":[1]}`,
		`line 1: stream "s": property "a": invalid JSON: unexpected 't', want a value at byte 45`},
	{"mismatched bracket in the record",
		`{"type":"RECORD","stream":"s","record":{"a":[1}]}`,
		`line 1: stream "s": property "a": invalid JSON: unexpected '}', want ',' or ']' at byte 47`},
	{"invalid after the record",
		`{"type":"RECORD","stream":"s","record":{"a":1},"x":{"b":}}`,
		`line 1: stream "s": invalid JSON: unexpected '}', want a value at byte 57`},
	{"invalid in and after the record: the first fault",
		`{"type":"RECORD","stream":"s","record":{"a":01},"x":{"b":}}`,
		`line 1: stream "s": property "a": invalid JSON: unexpected '1', want ',' or '}' at byte 46`},
	{"invalid UTF-8 after an invalid record wins",
		"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"a\":01},\"x\":\"\xff\"}",
		`line 1: stream "s": invalid UTF-8 at byte 54`},
	{"unpaired surrogate in the record",
		`{"type":"RECORD","stream":"s","record":{"a":"\ud800"},"x":{}}`,
		`line 1: stream "s": property "a": invalid UTF-16 in string: unpaired surrogate escape at byte 46`},
	{"control character in a record key",
		"{\"type\":\"RECORD\",\"stream\":\"s\",\"record\":{\"a\tb\":1}}",
		`line 1: stream "s": invalid JSON: control character in string at byte 43`},
	{"unterminated string in the record",
		`{"type":"RECORD","stream":"s","record":{"a":"x}}`,
		`line 1: stream "s": property "a": invalid JSON: unterminated string at byte 49`},
	{"stream named after the bad record",
		`{"type":"RECORD","record":{"a":tru},"stream":"s"}`,
		`line 1: property "a": invalid JSON: unexpected 't', want a value at byte 32`},
	{"two records",
		`{"type":"RECORD","stream":"s","record":{"a":01},"record":{"a":1}}`,
		`line 1: stream "s": property "a": invalid JSON: unexpected '1', want ',' or '}' at byte 46`},
	{"record of another type",
		`{"type":"SCHEMA","stream":"s","schema":{},"record":{"a":01}}`,
		`line 1: stream "s": property "a": invalid JSON: unexpected '1', want ',' or '}' at byte 58`},
	{"tails that change line to line", strings.Join([]string{
		`{"type":"RECORD","stream":"s","record":{"a":1},"version":2}`,
		`{"type":"RECORD","stream":"s","record":{"a":2},"version":2}`,
		`{"type":"RECORD","stream":"s","record":{"a":3},"x":{},"version":2}`,
		`{"type":"RECORD","stream":"s","record":{"a":4},"version":2}`,
		`{"type":"RECORD","stream":"s","record":{"a":5},"x":{"stream":"t"},"stream":"t","version":2}`,
		`{"type":"RECORD","stream":"s","record":{"a":6},"time_extracted":"2025-01-01T00:00:01Z"}`,
		`{"type":"RECORD","stream":"s","record":{"a":7},"time_extracted":"2025-01-01T00:00:02Z"}`,
		`{"type":"RECORD","stream":"s","record":{"a":8},"time_extracted":"2025-01-01T00:00:02Z"}`,
		`{"type":"RECORD","stream":"s","record":{"a":9},"time_extracted":"2025-01-01T00:00:02Z","type":"STATE","value":1}`,
		`{"type":"RECORD","stream":"s","record":{"a":10},"time_extracted":"2025-01-01T00:00:02Z"}`,
		`{"type":"RECORD","stream":"s","record":{"a":01},"time_extracted":"2025-01-01T00:00:02Z"}`,
	}, "\n"), `line 11: stream "s": property "a": invalid JSON: unexpected '1', want ',' or '}' at byte 46`},
	{"huge line", `{"type":"RECORD","stream":"s","record":{"a":"` + strings.Repeat(`x\"}{][`, 200000) + `"},"x":{"y":[1]},"time_extracted":"2025-01-01T00:00:00Z"}`, ""},
}

// TestDeferredMatchesFull: whatever a line holds, the deferred read gives
// the full read's message, or its error with the same line, stream and
// byte offset.
func TestDeferredMatchesFull(t *testing.T) {
	for _, c := range deferredCases {
		t.Run(c.name, func(t *testing.T) {
			sameAsFullReader(t, []byte(c.in), 8<<20)
			r := newCheckingReader(strings.NewReader(c.in), ReaderOptions{MaxLineBytes: 8 << 20})
			var first error
			for {
				if _, err := r.Next(); err != nil {
					if err.Error() != "EOF" {
						first = err
					}
					break
				}
			}
			if got := fmt.Sprint(first); c.want == "" && first != nil || c.want != "" && got != c.want {
				t.Errorf("full read: %v, want %q", first, c.want)
			}
		})
	}
}

// TestDecodeRecord: DecodeRecord returns a decoder's own error for a
// well-formed record and the reader's error for a malformed one; and where
// the syntax is checked follows the caller: the reader checks records
// itself after one was read without a decoder, and leaves them to
// DecodeRecord again once a decoder walks one. Each line's outcome is the
// same either way.
func TestDecodeRecord(t *testing.T) {
	const (
		bad  = `{"type":"RECORD","stream":"s","record":{"a":01},"x":{}}`
		good = `{"type":"RECORD","stream":"s","record":{"a":1},"x":{}}`
		want = `line %d: stream "s": property "a": invalid JSON: unexpected '1', want ',' or '}' at byte 46`
	)
	accept := func([]byte) error { return nil }
	steps := []struct {
		line     string
		decode   func([]byte) error
		fromNext bool  // the reader checked the line itself
		err      error // nil, errDeclined, or the syntax error (want)
	}{
		{bad, nil, false, errSyntaxWanted},        // left to DecodeRecord: found there
		{bad, declineAll, true, errSyntaxWanted},  // read without a decoder before: the reader checks
		{good, declineAll, true, errDeclined},     // checked by the reader: the decoder's error
		{bad, declineAll, false, errSyntaxWanted}, // a decoder walked the last: left to DecodeRecord
		{good, declineAll, false, errDeclined},
		{good, accept, false, nil},
		{good, nil, false, nil},
		{good, nil, true, nil},
	}
	var in strings.Builder
	for _, st := range steps {
		in.WriteString(st.line + "\n")
	}
	r := NewReader(strings.NewReader(in.String()), ReaderOptions{})
	r.use.walksToDefer = 1 // one record read by a decoder turns the reader back
	for i, st := range steps {
		line := i + 1
		m, err := r.Next()
		if st.fromNext {
			if st.line == bad {
				if got := fmt.Sprint(err); got != fmt.Sprintf(want, line) {
					t.Fatalf("line %d: Next: %v, want %s", line, err, fmt.Sprintf(want, line))
				}
				continue
			}
			if err != nil || m.unchecked {
				t.Fatalf("line %d: Next: %v, unchecked %v; want a checked record", line, err, m.unchecked)
			}
		} else if err != nil || st.line == bad && !m.unchecked {
			t.Fatalf("line %d: Next: %v; want the record left to DecodeRecord", line, err)
		}
		err = m.DecodeRecord(st.decode)
		switch {
		case st.err == errSyntaxWanted:
			if got := fmt.Sprint(err); got != fmt.Sprintf(want, line) {
				t.Errorf("line %d: DecodeRecord: %v, want %s", line, err, fmt.Sprintf(want, line))
			}
		case err != st.err:
			t.Errorf("line %d: DecodeRecord: %v, want %v", line, err, st.err)
		}
	}
}

var errSyntaxWanted = errors.New("the line's syntax error")

// A caller that reads each record without a decoder and then walks what
// it made of it (stream maps, then the one pass) keeps the reader
// checking records; walks alone turn it back after walksToDefer of them.
func TestRecordUseStaysChecked(t *testing.T) {
	line := `{"type":"RECORD","stream":"s","record":{"a":1}}` + "\n"
	r := NewReader(strings.NewReader(strings.Repeat(line, 3*defaultWalksToDefer)), ReaderOptions{})
	accept := func([]byte) error { return nil }
	for i := range 2 * defaultWalksToDefer {
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && m.unchecked {
			t.Fatalf("record %d left unchecked: the caller reads records without a decoder first", i+1)
		}
		if err := m.DecodeRecord(nil); err != nil {
			t.Fatal(err)
		}
		if err := m.DecodeRecord(accept); err != nil {
			t.Fatal(err)
		}
	}
	for i := range defaultWalksToDefer {
		m, _ := r.Next()
		if err := m.DecodeRecord(accept); err != nil {
			t.Fatal(err)
		}
		// The last pair's walk counts as the first in the row.
		if checks := r.use.check.Load(); checks != (i+2 < defaultWalksToDefer) {
			t.Fatalf("after %d walks alone: the reader checks records: %v", i+1, checks)
		}
	}
}
