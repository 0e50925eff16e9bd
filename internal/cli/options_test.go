package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const partitionedInput = `{"type":"SCHEMA","stream":"events","key_properties":["id"],"schema":{"type":"object","required":["seen"],"properties":{"id":{"type":"integer"},"seen":{"type":["string"],"format":"date-time"},"v":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"events","record":{"id":1,"seen":"1999-12-31T23:00:00Z","v":"a"}}
{"type":"RECORD","stream":"events","record":{"id":2,"seen":"2024-05-06T07:08:09-02:00","v":"b"}}
{"type":"STATE","value":{"n":2}}
`

// Partitioning and compression reach the dry run's statements.sql and
// tables.json for a new table; a WITH TIME ZONE column partitions through
// its virtual UTC column.
func TestDryRunPartitioningAndCompression(t *testing.T) {
	cfg := writeFile(t, "c.json", `{"partitioning":{"column":"seen","interval":"month"},"compression":"advanced"}`)
	dump := filepath.Join(t.TempDir(), "dump")
	out, errs, code := runMain(t, partitionedInput, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if code != ExitOK || out != "{\"n\":2}\n" {
		t.Fatalf("exit %d, stdout %q\n%s", code, out, errs)
	}
	sql, err := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{
		`"SEEN$P" TIMESTAMP(6) GENERATED ALWAYS AS (SYS_EXTRACT_UTC("SEEN")) VIRTUAL`,
		`ROW STORE COMPRESS ADVANCED PARTITION BY RANGE ("SEEN$P") INTERVAL (NUMTOYMINTERVAL(1, 'MONTH')) (PARTITION P0 VALUES LESS THAN (TO_DATE('2000-01-01', 'YYYY-MM-DD'))) ENABLE ROW MOVEMENT`,
	} {
		if !strings.Contains(string(sql), w) {
			t.Errorf("statements.sql lacks %s:\n%s", w, sql)
		}
	}
	b, err := os.ReadFile(filepath.Join(dump, "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tables map[string]struct {
		Partitioning map[string]any `json:"partitioning"`
		Compression  string         `json:"compression"`
	}
	if err := json.Unmarshal(b, &tables); err != nil {
		t.Fatal(err)
	}
	got := tables["DRY_RUN.EVENTS"]
	want := map[string]any{"column": "SEEN$P", "source": "SEEN", "frac": 6.0, "interval": "month", "row_movement": true}
	if got.Compression != "advanced" || len(got.Partitioning) != len(want) {
		t.Fatalf("tables.json: %s", b)
	}
	for k, v := range want {
		if got.Partitioning[k] != v {
			t.Errorf("partitioning.%s = %v, want %v (%s)", k, got.Partitioning[k], v, b)
		}
	}
}

// A partitioning column that is not a key or required date-time property
// is a configuration error (exit 2) at the stream's SCHEMA; no state is
// written.
func TestPartitioningColumnRefused(t *testing.T) {
	for col, want := range map[string]string{
		"v":       "is neither a key nor a required property",
		"id":      "is not a date-time column",
		"missing": "is not a property of the stream",
	} {
		cfg := writeFile(t, "c.json", `{"partitioning":{"column":"`+col+`","interval":"day"}}`)
		out, errs, code := runMain(t, partitionedInput, nil, "--dry-run", "--config", cfg)
		if code != ExitConfig || out != "" || !strings.Contains(errs, want) || !strings.Contains(errs, `stream \"events\"`) && !strings.Contains(errs, `stream "events"`) {
			t.Errorf("column %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 naming the stream and %q", col, code, out, errs, want)
		}
	}
}

// With validation off a NULL partition key reaches the engine, which
// refuses it as Oracle would (ORA-14400); the record before it commits.
func TestPartitionKeyNull(t *testing.T) {
	in := partitionedInput + `{"type":"RECORD","stream":"events","record":{"id":3,"seen":null}}
{"type":"STATE","value":{"n":3}}
`
	cfg := writeFile(t, "c.json", `{"partitioning":{"column":"seen","interval":"day"},"validate_records":false,"timestamp_type":"timestamp"}`)
	out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
	if code == ExitOK || !strings.Contains(errs, "ORA-14400") {
		t.Fatalf("exit %d, stderr:\n%s\nwant a failure naming ORA-14400", code, errs)
	}
	if strings.Contains(out, `"n":3`) {
		t.Errorf("stdout %q holds the state after the refused record", out)
	}
}

// stream_overrides sets partitioning and compression per stream.
func TestPartitioningOverride(t *testing.T) {
	cfg := writeFile(t, "c.json", `{"stream_overrides":{"ev*":{"partitioning":{"column":"_sdc_received_at","interval":"year"},"compression":"query_low"}}}`)
	dump := filepath.Join(t.TempDir(), "dump")
	_, errs, code := runMain(t, partitionedInput, nil, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	sql, _ := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if w := `COLUMN STORE COMPRESS FOR QUERY LOW PARTITION BY RANGE ("_SDC_RECEIVED_AT$P") INTERVAL (NUMTOYMINTERVAL(1, 'YEAR'))`; !strings.Contains(string(sql), w) {
		t.Errorf("statements.sql lacks %s:\n%s", w, sql)
	}
}

// An existing table is never rebuilt for partitioning or compression: a
// second run that sets them over a table an earlier run created logs that
// they apply to new tables, and issues no partitioning DDL.
func TestPartitioningLeavesExistingTables(t *testing.T) {
	store := filepath.Join(t.TempDir(), "store")
	env := []string{StoreEnv + "=" + store}
	plain := writeFile(t, "c.json", `{}`)
	if _, errs, code := runMain(t, partitionedInput, env, "--dry-run", "--config", plain); code != ExitOK {
		t.Fatalf("first run: exit %d\n%s", code, errs)
	}
	cfg := writeFile(t, "c2.json", `{"partitioning":{"column":"seen","interval":"day"},"compression":"advanced"}`)
	dump := filepath.Join(t.TempDir(), "dump")
	out, errs, code := runMain(t, partitionedInput, env, "--dry-run", "--config", cfg, "--dry-run-dump", dump)
	if code != ExitOK || out != "{\"n\":2}\n" {
		t.Fatalf("second run: exit %d, stdout %q\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "partitioning and compression apply only to tables the target creates") {
		t.Errorf("no note about the existing table:\n%s", errs)
	}
	sql, _ := os.ReadFile(filepath.Join(dump, "statements.sql"))
	if strings.Contains(string(sql), "PARTITION") || strings.Contains(string(sql), "COMPRESS") {
		t.Errorf("the existing table got option DDL:\n%s", sql)
	}
}

// A partitioning column that may be NULL is refused at SCHEMA (exit 2):
// a nested property whose parent may be absent, or a required property
// whose type allows null. (A hostile probe loaded these until ORA-14400.)
func TestPartitioningColumnMayBeNull(t *testing.T) {
	for name, tc := range map[string]struct{ settings, schema, want string }{
		"nested": {`{"storage_mode":"flattened","partitioning":{"column":"a.b","interval":"day"}}`,
			`"a":{"type":"object","required":["b"],"properties":{"b":{"type":"string","format":"date-time"}}}`, "is a nested property"},
		"nullable": {`{"partitioning":{"column":"t","interval":"month"}}`,
			`"t":{"type":["null","string"],"format":"date-time"}`, "whose type allows null"},
	} {
		t.Run(name, func(t *testing.T) {
			in := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","required":["t","a"],"properties":{"id":{"type":"integer"},` + tc.schema + `}}}
{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":{"x":1}}
`
			cfg := writeFile(t, "c.json", tc.settings)
			out, errs, code := runMain(t, in, nil, "--dry-run", "--config", cfg)
			if code != ExitConfig || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and %q", code, out, errs, tc.want)
			}
		})
	}
}
