package singer

import (
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// TestAttackNonFiniteNumbersExplained (finding, a real tap's output
// refused without a reason): Python's json.dumps and simplejson write a
// float nan or inf as NaN, Infinity or -Infinity unless allow_nan=False
// (singer-python and the Singer SDK keep the default), so a tap reading a
// database's NaN (PostgreSQL float8 and numeric hold one) sends
// {"f":NaN}. That is not JSON (RFC 8259 §6) and the run rightly fails
// (SPEC §8: malformed JSON always fails), but the error said only
// `unexpected 'N', want a value` (for -Infinity `invalid number`): the
// user could not tell what the tap did wrong. Now the error names the
// literal and the cause, on every path that reads a line: a RECORD's
// record left to DecodeRecord, a line checked in full (a STATE value), a
// record read without deferral, and a BATCH file's row (ScanObject).
func TestAttackNonFiniteNumbersExplained(t *testing.T) {
	// was: t.Skip("finding: NaN, Infinity and -Infinity (Python json.dumps' default for float nan/inf) are refused as \"unexpected 'N', want a value\" / \"invalid number\", naming neither the literal nor the cause")
	const hint = "is not a JSON number (JSON has no NaN or Infinity; Python's json.dumps writes a float nan or inf so unless allow_nan=False"
	cases := []struct{ line, want string }{
		{`{"type":"RECORD","stream":"s","record":{"id":1,"f":NaN}}`,
			`line 1: stream "s": property "f": invalid JSON: NaN ` + hint},
		{`{"type":"RECORD","stream":"s","record":{"id":1,"f":[1,-Infinity]}}`,
			`line 1: stream "s": property "f": invalid JSON: -Infinity ` + hint},
		{`{"type":"STATE","value":{"bookmarks":{"s":{"x":Infinity}}}}`,
			`line 1: invalid JSON: Infinity ` + hint},
		{`{"type":"RECORD","stream":"s","record":{"f":NaN},"record":{"f":1}}`,
			`line 1: stream "s": property "f": invalid JSON: NaN ` + hint},
	}
	for _, c := range cases {
		_, err := readAll(t, c.line+"\n", ReaderOptions{})
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s…", c.line, err, c.want)
		}
		// A reader that checks every record itself gives the same text.
		r := NewReader(strings.NewReader(c.line+"\n"), ReaderOptions{})
		r.use.check.Store(true)
		m, ferr := r.Next()
		if ferr == nil {
			ferr = m.DecodeRecord(nil)
		}
		if ferr == nil || err == nil || ferr.Error() != err.Error() {
			t.Errorf("%s: checked in full %v, deferred %v", c.line, ferr, err)
		}
	}
	// A BATCH file's row is checked by the same scanner.
	if _, err := ScanObject([]byte(`{"id":1,"f":NaN}`)); err == nil || !strings.Contains(err.Error(), "NaN "+hint) {
		t.Errorf("ScanObject: %v", err)
	}
	// Other bytes keep their message; the words as strings are values.
	for line, want := range map[string]string{
		`{"type":"RECORD","stream":"s","record":{"f":Nan}}`:  `unexpected 'N', want a value`,
		`{"type":"RECORD","stream":"s","record":{"f":-Inf}}`: `invalid number`,
		`{"type":"RECORD","stream":"s","record":{"f":Inf}}`:  `unexpected 'I', want a value`,
	} {
		if _, err := readAll(t, line+"\n", ReaderOptions{}); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "allow_nan") {
			t.Errorf("%s: %v, want %q", line, err, want)
		}
	}
	msgs, err := readAll(t, `{"type":"RECORD","stream":"s","record":{"f":"NaN","g":"-Infinity"}}`+"\n", ReaderOptions{})
	if err != nil || len(msgs) != 1 || string(msgs[0].Record) != `{"f":"NaN","g":"-Infinity"}` {
		t.Errorf("strings NaN/-Infinity: %v, %v", msgs, err)
	}
}
