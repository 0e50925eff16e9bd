package oracle_test

import (
	"strings"
	"testing"
)

// The fake server tells composite keys apart however their values hold
// NUL bytes (issue 13 item 4): ("a\u0000b","c") and ("a","b\u0000c") are
// two rows, batch by batch (MERGE against the primary key index) as in
// one batch, on the fake as on the embedded engine.
func TestCompositeKeysWithNULOnFake(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"SCHEMA","stream":"c","key_properties":["a","b"],"schema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"v":{"type":"integer"}}}}`,
		`{"type":"RECORD","stream":"c","record":{"a":"a\u0000b","b":"c","v":1}}`,
		`{"type":"RECORD","stream":"c","record":{"a":"a","b":"b\u0000c","v":2}}`,
	}, "\n") + "\n"
	for _, settings := range []string{`{"batch_size_rows": 1}`, ""} {
		r := defaultRig(t)
		if _, err := run(t, r.eng, settings, in); err != nil {
			t.Fatalf("%s: %v", settings, err)
		}
		if rows := r.db.Rows("DRY_RUN.C"); len(rows) != 2 {
			t.Errorf("%s: %d rows on the fake, want 2: %q", settings, len(rows), rows)
		}
		m, _, err := runMemory(t, settings, in)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
	}
}
