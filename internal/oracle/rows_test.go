package oracle_test

import (
	"strings"
	"testing"
)

// The Oracle engine on the fake server loads what the embedded engine
// loads for issue 13 items 7, 9 and 12: numbers kept as text in CLOB
// JSON, an undeclared _sdc_deleted_at (soft and hard, the column added
// mid-run), a TIMESTAMP(9) date-time key with nine fraction digits.
func TestRowFixesMatchOnFake(t *testing.T) {
	big := "123456789012345678901234567890123456789012345"
	for _, c := range []struct{ settings, in string }{
		{`{"json_type":"clob"}`, strings.Join([]string{
			`{"type":"SCHEMA","stream":"j","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"o":{"type":["null","object"]}}}}`,
			`{"type":"RECORD","stream":"j","record":{"id":1,"o":{"n":` + big + `,"e":1e400}}}`,
		}, "\n") + "\n"},
		{`{"add_record_metadata":false}`, strings.Join([]string{
			`{"type":"SCHEMA","stream":"p","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`,
			`{"type":"RECORD","stream":"p","record":{"id":1,"v":"a"}}`,
			`{"type":"RECORD","stream":"p","record":{"id":2,"v":"b"}}`,
			`{"type":"RECORD","stream":"p","record":{"id":1,"_sdc_deleted_at":"2025-01-01T00:00:00Z"}}`,
		}, "\n") + "\n"},
		{`{"add_record_metadata":false,"hard_delete":true}`, strings.Join([]string{
			`{"type":"SCHEMA","stream":"p","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`,
			`{"type":"RECORD","stream":"p","record":{"id":1,"v":"a"}}`,
			`{"type":"RECORD","stream":"p","record":{"id":2,"v":"b"}}`,
			`{"type":"RECORD","stream":"p","record":{"id":1,"_sdc_deleted_at":"2025-01-01T00:00:00Z"}}`,
		}, "\n") + "\n"},
		{``, strings.Join([]string{
			`{"type":"SCHEMA","stream":"t","key_properties":["ts"],"schema":{"type":"object","properties":{"ts":{"type":"string","format":"date-time"}}}}`,
			`{"type":"RECORD","stream":"t","record":{"ts":"2025-01-01T00:00:00.123456789Z"}}`,
		}, "\n") + "\n"},
	} {
		r := defaultRig(t)
		if _, err := run(t, r.eng, c.settings, c.in); err != nil {
			t.Fatalf("%s: %v", c.settings, err)
		}
		m, _, err := runMemory(t, c.settings, c.in)
		if err != nil {
			t.Fatal(err)
		}
		compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(m, runMetadata))
	}
}
