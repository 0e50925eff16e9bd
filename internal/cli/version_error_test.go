package cli

import (
	"strings"
	"testing"
)

// A message's "version" that _SDC_TABLE_VERSION (NUMBER(38,0)) cannot hold
// is an input error naming the message's field, not a record property
// (it read `property "version"`, as if the record had such a column).
func TestVersionTooLongNamesTheField(t *testing.T) {
	const schema = `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}` + "\n"
	const v = "123456789012345678901234567890123456789012"
	for _, msg := range []string{
		`{"type":"RECORD","stream":"s","record":{"id":1},"version":` + v + `}`,
		`{"type":"ACTIVATE_VERSION","stream":"s","version":` + v + `}`,
	} {
		out, errs, code := runMain(t, schema+msg+"\n", nil, "--dry-run")
		if code != ExitInput || out != "" {
			t.Errorf("%s: exit %d (want %d), stdout %q", msg, code, ExitInput, out)
		}
		want := `line 2: stream "s": field "version" of the message: ` + v + ` is not a table version`
		if !strings.Contains(errs, want) || strings.Contains(errs, `property "version"`) {
			t.Errorf("%s: stderr lacks %q:\n%s", msg, want, errs)
		}
	}
}
