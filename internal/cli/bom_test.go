package cli

import (
	"strings"
	"testing"
)

// Input that starts with a UTF-8 byte order mark (a file saved by
// PowerShell's Out-File or Notepad, then piped or given to --input) loads
// (exit 0), in the main input and at the start of a BATCH file; a byte
// order mark after the start is invalid input (exit 3) naming its line.
func TestByteOrderMarkAtStartOfInput(t *testing.T) {
	const bom = "\ufeff"
	schema := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`
	part := writeFile(t, "part.jsonl", bom+`{"id":2}`+"\r\n")
	in := bom + schema + "\r\n" + `{"type":"RECORD","stream":"s","record":{"id":1}}` + "\r\n" +
		`{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + part + `"]}` + "\r\n" +
		`{"type":"STATE","value":{"a":1}}` + "\r\n"
	out, errs, code := runMain(t, in, nil, "--dry-run")
	if code != 0 || out != `{"a":1}`+"\n" || !strings.Contains(errs, "2 records") {
		t.Fatalf("exit %d, states %q, stderr:\n%s", code, out, errs)
	}
	_, errs, code = runMain(t, schema+"\n"+bom+`{"type":"STATE","value":{"a":1}}`+"\n", nil, "--dry-run")
	if code != 3 || !strings.Contains(errs, "line 2: invalid JSON") {
		t.Fatalf("a byte order mark on line 2: exit %d, stderr:\n%s", code, errs)
	}
}
