package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDatabaseRefusalExitsZero: under on_database_error: reject a dry run
// whose value needs a widening schema_evolution forbids rejects the record
// and exits 0, with the state after it, the summary counting it and a
// warning naming the count (SPEC §6.3).
func TestDatabaseRefusalExitsZero(t *testing.T) {
	dir := t.TempDir()
	rejects := filepath.Join(dir, "rejects.jsonl")
	cfg := writeFile(t, "config.json", `{"schema_evolution": "fail", "batch_size_rows": 1, "add_record_metadata": false,
		"on_database_error": "reject", "reject_path": "`+rejects+`"}`)
	long := strings.Repeat("x", 4001)
	in := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"short"}}
{"type":"RECORD","stream":"s","record":{"id":2,"v":"` + long + `"}}
{"type":"STATE","value":{"n":2}}
`
	dump := filepath.Join(dir, "dump")
	out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if out != "{\"n\":2}\n" {
		t.Errorf("states %q", out)
	}
	b, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"line":3,"stream":"s","error":"ORA-12899: value too large for column \"V\" (actual: 4001, maximum: 4000) (schema_evolution fail does not widen the column)","record":{"id":2,"v":"` + long + `"}}` + "\n"
	if string(b) != want {
		t.Errorf("reject file:\n%.300s\nwant\n%.300s", b, want)
	}
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	if string(rows) != "{\"ID\":1,\"V\":\"short\"}\n" {
		t.Errorf("rows %s", rows)
	}
	// read, written, inserted, updated, deleted, skipped, rejected, batches
	if !regexp.MustCompile(`\n\s+s\s+2\s+1\s+1\s+0\s+0\s+0\s+1\s+2\n`).MatchString(errs) {
		t.Errorf("summary does not count the rejected record:\n%s", errs)
	}
	if !strings.Contains(errs, "1 records the database refused were written to reject_path") {
		t.Errorf("no warning naming the count:\n%s", errs)
	}
}
