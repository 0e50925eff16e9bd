package oracle_test

import (
	"sort"
	"strings"
	"testing"
)

// An append-only batch with hard deletes (keys repeat in it) gives on the
// Oracle engine what loading its records one by one gives: the engine runs
// the batch's DELETE by key before its INSERT, so rows appended after a
// key's delete stay and rows before it go (SPEC §6.2, §6.4).
func TestAppendOnlyHardDeleteOnFake(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}`
	first := strings.Join([]string{schema,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"old1"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":2,"v":"old2"}}`,
	}, "\n") + "\n"
	second := strings.Join([]string{schema,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"b"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":1,"_sdc_deleted_at":"2025-01-01T00:00:00Z"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"c"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":2,"v":"d"}}`,
	}, "\n") + "\n"
	settings := `{"load_method": "append-only", "hard_delete": true}`
	r := defaultRig(t)
	for _, in := range []string{first, second} {
		if _, err := run(t, r.eng, settings, in); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, row := range r.db.Rows("DRY_RUN.S") {
		got = append(got, row["ID"]+"="+row["V"])
	}
	sort.Strings(got)
	if g, want := strings.Join(got, " "), "1=c 2=d 2=old2"; g != want {
		t.Errorf("rows on the fake %s, want %s", g, want)
	}
	m, _, err := runMemory(t, settings, first, second)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
}
