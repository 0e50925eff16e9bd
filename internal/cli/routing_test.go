package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The dry run routes by {stream_schema}: the dump's statements.sql creates
// each table in its routed schema, public goes to the dry run's schema
// (DRY_RUN), and tables.json lists the routed tables.
func TestDryRunDumpRoutesSchemas(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"SCHEMA","stream":"sales-orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`,
		`{"type":"SCHEMA","stream":"public-users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`,
		`{"type":"RECORD","stream":"sales-orders","record":{"id":1}}`,
		`{"type":"RECORD","stream":"public-users","record":{"id":1}}`,
	}, "\n") + "\n"
	cfg := writeFile(t, "c.json", `{"default_target_schema":"{stream_schema}","schema_mapping":{"sales":"mart"}}`)
	dump := filepath.Join(t.TempDir(), "dump")
	_, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	sql, err := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`CREATE TABLE "MART"."ORDERS"`, `CREATE TABLE "DRY_RUN"."USERS"`} {
		if !strings.Contains(string(sql), w) {
			t.Errorf("statements.sql lacks %s:\n%s", w, sql)
		}
	}
	tables, err := os.ReadFile(filepath.Join(dump, "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`MART`, `ORDERS`, `DRY_RUN`, `USERS`} {
		if !strings.Contains(string(tables), w) {
			t.Errorf("tables.json lacks %s:\n%s", w, tables)
		}
	}
}
