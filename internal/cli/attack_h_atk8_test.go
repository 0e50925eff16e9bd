package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// atk8Run runs input in --dry-run with settings and returns the exit
// code, stderr, the rows of DRY_RUN.S and the reject file's lines (with
// settings naming reject_path REJECTS, replaced by a file of the test's).
func atk8Run(t *testing.T, settings, input string) (code int, errs, rows, rejects string) {
	t.Helper()
	dir := t.TempDir()
	rej := filepath.Join(dir, "rejects.jsonl")
	settings = strings.ReplaceAll(settings, "REJECTS", rej)
	in := writeFile(t, "in.singer", input)
	cfg := writeFile(t, "c.json", settings)
	dump := filepath.Join(dir, "dump")
	_, errs, code = runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in, "--dry-run-dump", dump)
	b, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	r, _ := os.ReadFile(rej)
	return code, errs, string(b), string(r)
}

// TestAttackMultipleOfBelowNumberRangeRefusesStream (finding): a numeric
// property whose multipleOf is outside Oracle NUMBER (1e-200 below
// 1e-130, 39 significant digits, 1e200) made the whole stream invalid
// input at its SCHEMA ("multipleOf 1e-200: outside what the target checks
// exactly"), exit 3 before any record. The schema is valid JSON Schema;
// the column is NUMBER either way (multipleOf never picks a scale). Now
// the schema is accepted and each record is checked exactly against the
// divisor: a non-multiple, or a number NUMBER cannot hold, is a
// record-level error naming line, stream and property (rejected with
// on_invalid_record: reject). A divisor whose exponent the validator
// cannot compute with (1e-99999) is not checked, with one warning.
func TestAttackMultipleOfBelowNumberRangeRefusesStream(t *testing.T) {
	// was: t.Skip("finding: multipleOf 1e-200 (below Oracle NUMBER's range) refuses the whole stream at its SCHEMA")
	schema := func(m string) string {
		return `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"n":{"type":["null","number"],"multipleOf":` + m + `}}}}` + "\n"
	}
	rec := func(id, n string) string {
		return `{"type":"RECORD","stream":"s","record":{"id":` + id + `,"n":` + n + `}}` + "\n"
	}
	const state = `{"type":"STATE","value":1}` + "\n"

	// Every value NUMBER holds is a multiple of 1e-200: all load exactly.
	code, errs, rows, _ := atk8Run(t, `{"add_record_metadata":false}`, schema("1e-200")+rec("1", "1.5")+rec("2", "3e-50")+rec("3", "1e-130")+state)
	want := `{"ID":1,"N":1.5}
{"ID":2,"N":0.00000000000000000000000000000000000000000000000003}
{"ID":3,"N":0.` + strings.Repeat("0", 129) + `1}
`
	if code != ExitOK || rows != want {
		t.Fatalf("multipleOf 1e-200: exit %d, rows\n%s\nwant exit 0, rows\n%s\n%s", code, rows, want, lastLines(errs, 3))
	}

	// 3e-200: 3e-130 is a multiple, 1e-130 is not, 1e-140 is no NUMBER.
	code, errs, rows, rejects := atk8Run(t, `{"add_record_metadata":false,"on_invalid_record":"reject","reject_path":"REJECTS"}`,
		schema("3e-200")+rec("1", "3e-130")+rec("2", "1e-130")+rec("3", "3e-140")+rec("4", "0.3")+state)
	if code != ExitOK || rows != `{"ID":1,"N":0.`+strings.Repeat("0", 129)+`3}`+"\n"+`{"ID":4,"N":0.3}`+"\n" {
		t.Fatalf("multipleOf 3e-200: exit %d, rows\n%s\n%s", code, rows, lastLines(errs, 3))
	}
	for _, w := range []string{
		`"line":3,"stream":"s","error":"line 3: stream \"s\": property \"n\": 1e-130 is not a multiple of 0.`,
		`"line":4,"stream":"s","error":"line 4: stream \"s\": property \"n\": 3e-140 is not a valid number: non-zero magnitude below 1e-130`,
	} {
		if !strings.Contains(rejects, w) {
			t.Errorf("rejects lack %q:\n%s", w, rejects)
		}
	}

	// 39 significant digits and 1e200 are valid divisors too.
	for _, m := range []string{"0.123456789012345678901234567890123456789", "1e200"} {
		code, errs, rows, _ = atk8Run(t, `{"add_record_metadata":false}`, schema(m)+rec("1", "0")+rec("2", "1")+state)
		if code != ExitInput || rows != `{"ID":1,"N":0}`+"\n" || !strings.Contains(errs, `line 3: stream "s": property "n": 1 is not a multiple of`) {
			t.Errorf("multipleOf %s: exit %d, rows %q; want exit 3 at line 3 (1 is no multiple) after row 1\n%s", m, code, rows, lastLines(errs, 3))
		}
	}

	// Beyond the validator's means: loaded unchecked, with a warning.
	code, errs, rows, _ = atk8Run(t, `{"add_record_metadata":false}`, schema("1e-99999")+rec("1", "1.5")+state)
	if code != ExitOK || rows != `{"ID":1,"N":1.5}`+"\n" || !strings.Contains(errs, "multipleOf 1e-99999 is not checked") {
		t.Errorf("multipleOf 1e-99999: exit %d, rows %q; want exit 0 with a warning\n%s", code, rows, lastLines(errs, 4))
	}
}
