package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// atk4Run runs a dry run of input with settings and returns the exit
// code, stderr and the dump's rows of table DRY_RUN.S ("" when none).
func atk4Run(t *testing.T, settings, input string) (int, string, string) {
	t.Helper()
	in := writeFile(t, "in.singer", input)
	cfg := writeFile(t, "c.json", settings)
	dump := filepath.Join(t.TempDir(), "dump")
	_, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in, "--dry-run-dump", dump)
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	return code, errs, string(rows)
}

// TestAttackJSONDuplicateNameBypassesItsSchema: a JSON (CLOB IS JSON)
// column's value may repeat a member name; the validator reads the last
// member (Go's encoding/json), so {"x":"str","x":1} passes a schema whose
// x is an integer, and the column stores both members verbatim. Oracle's
// SQL/JSON reads the first one: JSON_VALUE(v, '$.x') gives "str" (and a
// native JSON column keeps one member, see oravalue's
// TestAttackNativeJSONDuplicateNamesKeptVerbatim). The reverse order,
// {"x":1,"x":"str"}, is refused as invalid: whether a record loads depends
// on which duplicate comes last, and what loads violates the schema as
// Oracle reads it. Reproduce: SCHEMA v {"type":"object","properties":
// {"x":{"type":"integer"}}}, RECORD {"id":1,"v":{"x":"str","x":1}}:
// exit 0, the dump holds "V":{"x":"str","x":1}. Not data loss; a value
// stored that its schema forbids (no clear error). Not verified on Oracle.
func TestAttackJSONDuplicateNameBypassesItsSchema(t *testing.T) {
	t.Skip(`finding: JSON column value {"x":"str","x":1} with x an integer validates (last member wins) and is stored verbatim; Oracle's SQL/JSON reads the first member, "str"`)
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"object","properties":{"x":{"type":"integer"}}}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"v":{"x":"str","x":1}}}
{"type":"STATE","value":1}
`
	code, errs, rows := atk4Run(t, `{"add_record_metadata":false}`, input)
	if code == ExitOK && strings.Contains(rows, `"x":"str"`) {
		t.Fatalf("exit 0 and the JSON column holds %s: a string where the schema wants an integer, the member Oracle's JSON_VALUE reads (want the record refused as invalid input, as {\"x\":1,\"x\":\"str\"} is)\n%s", strings.TrimSpace(rows), errs)
	}
}

// TestAttackEmptyTimeExtractedIsTakenAsAbsent: docs/types.md says the
// date-time rule "applies to time_extracted, _sdc_deleted_at and stream
// maps' fromisoformat", and "_sdc_deleted_at":"" is refused (invalid
// date-time ""), but "time_extracted":"" loads silently with
// _SDC_EXTRACTED_AT NULL (handle.go tests m.TimeExtracted != "", and the
// message keeps "" for absent). Reproduce: RECORD {"type":"RECORD",
// "stream":"s","record":{"id":1},"time_extracted":""}: exit 0. Not data
// loss (nothing was there); bad input without an error, unlike its sibling.
func TestAttackEmptyTimeExtractedIsTakenAsAbsent(t *testing.T) {
	t.Skip(`finding: "time_extracted":"" is accepted as absent (_SDC_EXTRACTED_AT NULL, exit 0) while "_sdc_deleted_at":"" is refused as an invalid date-time`)
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}
{"type":"RECORD","stream":"s","record":{"id":1},"time_extracted":""}
{"type":"STATE","value":1}
`
	code, errs, _ := atk4Run(t, `{}`, input)
	if code != ExitInput || !strings.Contains(errs, "time_extracted") {
		t.Fatalf("exit %d, want %d naming time_extracted (as \"_sdc_deleted_at\":\"\" is refused)\n%s", code, ExitInput, errs)
	}
}
