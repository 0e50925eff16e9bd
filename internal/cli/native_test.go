package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDryRunDumpShowsBinaryAsBase64: RAW and BLOB values appear in the
// dump as base64 of their bytes, whatever encoding the tap used, and the
// DDL creates RAW(n)/BLOB columns (SPEC §5.2, §11).
func TestDryRunDumpShowsBinaryAsBase64(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"files","key_properties":["digest"],"schema":{"type":"object","properties":{"digest":{"type":"string","contentEncoding":"base16","maxLength":8},"body":{"type":["null","string"],"contentEncoding":"base64"}}}}
{"type":"RECORD","stream":"files","record":{"digest":"deadbeef","body":"aGk="}}
`
	cfg := writeFile(t, "config.json", `{"interpret_content_encoding": true, "add_record_metadata": false}`)
	dump := filepath.Join(t.TempDir(), "dump")
	_, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.FILES.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"DIGEST":"3q2+7w==","BODY":"aGk="}` + "\n"; string(rows) != want {
		t.Errorf("rows %s, want %s", rows, want)
	}
	stmts, err := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(stmts), `"DIGEST" RAW(4) NOT NULL, "BODY" BLOB`) {
		t.Errorf("statements.sql lacks the RAW/BLOB columns:\n%s", stmts)
	}
}
