package oracle_test

import (
	"strings"
	"testing"
)

// The hostile tester's input (f2-shared-table.singer): two streams mapped
// to one table, stream a's schema without y; b's record first, then a's.
// On the Oracle engine (the fake server, or go-ora and the wire peer with
// TARGET_ORACLE_TEST_WIRE=1) the table holds a's record, Y NULL (the MERGE
// sets the columns a lacks to NULL), with one worker or four, as on the
// embedded engine (SPEC §4, §6.2, §7.6).
func TestStreamsSharingATableOnOracle(t *testing.T) {
	const in = `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]}}},"key_properties":["id"]}
{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]},"y":{"type":["string","null"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"b","record":{"id":1,"x":"from-b-first","y":"y-from-b"}}
{"type":"RECORD","stream":"a","record":{"id":1,"x":"from-a-second"}}
{"type":"STATE","value":{"s":1}}
{"type":"RECORD","stream":"b","record":{"id":2,"x":"b2","y":"y2"}}
{"type":"RECORD","stream":"a","record":{"id":2,"x":"a2"}}
{"type":"RECORD","stream":"b","record":{"id":2,"x":"b2-again","y":"y2-again"}}
{"type":"STATE","value":{"s":2}}
`
	for _, settings := range []string{
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":1}`,
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4}`,
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4,"batch_size_rows":1}`,
	} {
		t.Run(settings, func(t *testing.T) {
			r := defaultRig(t)
			states, err := run(t, r.eng, settings, in)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(states, "|"); got != `{"s":2}` && got != `{"s":1}|{"s":2}` {
				t.Errorf("states %q", got)
			}
			var rows []string
			for _, row := range r.db.Rows(schemaName + ".T") {
				y, ok := row["Y"]
				if !ok {
					y = "<nil>"
				}
				rows = append(rows, row["ID"]+" "+row["X"]+" "+y)
			}
			if got, want := strings.Join(rows, "|"), "1 from-a-second <nil>|2 b2-again y2-again"; got != want {
				t.Errorf("table T holds %q, want %q", got, want)
			}
			mem, _, err := runMemory(t, settings, in)
			if err != nil {
				t.Fatal(err)
			}
			compare(t, oracleSnapshot(t, r, runMetadata), memorySnapshot(mem, runMetadata))
			if err := r.eng.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
