package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// End to end through the dry run's dump (issue 13 items 7 and 9): a
// PipelineWise-style delete (an undeclared _sdc_deleted_at) soft-deletes
// or, with hard_delete, removes the row; a key value its column cannot
// hold is exit 3 naming line, stream and key, and the batch's valid
// records are in the dump, with on_invalid_record skip and with fail.
func TestRowFixesEndToEnd(t *testing.T) {
	pw := `{"type":"SCHEMA","stream":"public-users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"public-users","record":{"id":1,"name":"ada"}}
{"type":"RECORD","stream":"public-users","record":{"id":2,"name":"bob"}}
{"type":"STATE","value":{"s":1}}
{"type":"RECORD","stream":"public-users","record":{"id":1,"name":null,"_sdc_deleted_at":"2025-01-01T00:00:00+00:00"}}
{"type":"STATE","value":{"s":2}}
`
	dec := `{"type":"SCHEMA","stream":"d","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"string","format":"x-singer.decimal","precision":5,"scale":2}}}}
{"type":"RECORD","stream":"d","record":{"k":"1.25"}}
{"type":"RECORD","stream":"d","record":{"k":"2.125"}}
{"type":"RECORD","stream":"d","record":{"k":"3"}}
{"type":"STATE","value":{"s":1}}
`
	// A number a native JSON column cannot hold is invalid input whether
	// or not records are validated (SPEC §5.3).
	native := `{"type":"SCHEMA","stream":"j","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"o":{"type":["null","object"]}}}}
{"type":"RECORD","stream":"j","record":{"id":1,"o":{"n":1.5}}}
{"type":"STATE","value":{"s":1}}
{"type":"RECORD","stream":"j","record":{"id":2,"o":{"n":[1e200]}}}
{"type":"RECORD","stream":"j","record":{"id":3,"o":{"n":-2}}}
{"type":"STATE","value":{"s":2}}
`
	nativeErr := `line 4: stream "j": property "o.n.0": 1e200 is not a valid number: magnitude 1e126 or more, less expected`
	for _, c := range []struct {
		name, in, config, table string
		code                    int
		state, rows, errText    string
	}{
		{"soft delete", pw, `{"add_record_metadata": false}`, "DRY_RUN.PUBLIC_USERS", 0, `{"s":2}`,
			`{"ID":1,"NAME":"ada","_SDC_DELETED_AT":"2025-01-01T00:00:00Z"}` + "\n" + `{"ID":2,"NAME":"bob","_SDC_DELETED_AT":null}` + "\n", ""},
		{"hard delete", pw, `{"add_record_metadata": false, "hard_delete": true}`, "DRY_RUN.PUBLIC_USERS", 0, `{"s":2}`,
			`{"ID":2,"NAME":"bob","_SDC_DELETED_AT":null}` + "\n", ""},
		{"key value too fine, skip", dec, `{"add_record_metadata": false, "on_invalid_record": "skip"}`, "DRY_RUN.D", 0, `{"s":1}`,
			`{"K":1.25}` + "\n" + `{"K":3}` + "\n", `line 3: stream \"d\": property \"k\": key value 2.125 does not fit its column NUMBER(5,2)`},
		{"key value too fine, fail", dec, `{"add_record_metadata": false}`, "DRY_RUN.D", ExitInput, ``,
			`{"K":1.25}` + "\n", `target-oracle: invalid input: line 3: stream "d": property "k": key value 2.125 does not fit its column NUMBER(5,2); keys never widen`},
		{"native JSON number, unvalidated, fail", native, `{"add_record_metadata": false, "json_type": "json", "validate_records": false}`, "DRY_RUN.J", ExitInput, `{"s":1}`,
			`{"ID":1,"O":{"n":1.5}}` + "\n", "target-oracle: invalid input: " + nativeErr},
		{"native JSON number, validated, fail", native, `{"add_record_metadata": false, "json_type": "json"}`, "DRY_RUN.J", ExitInput, `{"s":1}`,
			`{"ID":1,"O":{"n":1.5}}` + "\n", "target-oracle: invalid input: " + nativeErr},
		{"native JSON number, unvalidated, skip", native, `{"add_record_metadata": false, "json_type": "json", "validate_records": false, "on_invalid_record": "skip"}`, "DRY_RUN.J", 0, `{"s":2}`,
			`{"ID":1,"O":{"n":1.5}}` + "\n" + `{"ID":3,"O":{"n":-2}}` + "\n", strings.ReplaceAll(nativeErr, `"`, `\"`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dump := filepath.Join(t.TempDir(), "dump")
			out, errs, code := runMain(t, c.in, nil, "--dry-run", "--config", writeFile(t, "config.json", c.config), "--dry-run-dump", dump)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, errs)
			}
			if got := strings.TrimSuffix(out, "\n"); c.state != "" && !strings.HasSuffix(got, c.state) || c.state == "" && got != "" {
				t.Errorf("states %q, want the last %q", out, c.state)
			}
			if c.errText != "" && !strings.Contains(errs, c.errText) {
				t.Errorf("stderr lacks %q:\n%s", c.errText, errs)
			}
			rows, err := os.ReadFile(filepath.Join(dump, "tables", c.table+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if string(rows) != c.rows {
				t.Errorf("rows:\n%s\nwant:\n%s", rows, c.rows)
			}
		})
	}
}
