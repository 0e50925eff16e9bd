package pipeline_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/memory"
)

// A stream that gains its key (SCHEMA without key_properties, then SCHEMA
// [id] on the still empty table) replays like any key change (SPEC §7.6):
// the comment records the empty key replaced, and the keyless SCHEMA
// re-sent by a resumed run is the input replayed. Before, a keyless
// SCHEMA never matched the recorded empty key and the replay failed with
// "key_properties changed from [ID] to []".
func TestReplayFromKeylessAcrossAKeyChange(t *testing.T) {
	keyless := strings.Replace(schemaLine, `"key_properties":["id"],`, ``, 1)
	in := input(keyless, schemaLine, rec(1, "a"), rec(2, "b"), state(1), rec(1, "c"), rec(3, "d"), state(2))
	cfg := loadConfig(t, `{"batch_size_rows": 2, "max_parallelism": 1}`)
	clean, loads := uninterrupted(t, cfg, in)
	if pk := clean.Tables()["DRY_RUN.S"].PrimaryKey; !reflect.DeepEqual(pk, []string{"ID"}) {
		t.Fatalf("uninterrupted run: primary key %v, want [ID]", pk)
	}
	crashEachLoad(t, cfg, in, loads, masked(clean), nil)
}

// The replay rule is the table's own stream's: another stream mapped to
// the table, with the key the table had before, disagrees with its key
// (SPEC §4) and fails at its SCHEMA, before the STATE after it. Before,
// that SCHEMA passed as "replayed", the STATE after it was written, and
// the run failed only at the stream's first record, without a line.
func TestReplayRuleIsTheTablesStreams(t *testing.T) {
	newKey := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["id","v"]`, 1)
	cfg := loadConfig(t, `{"max_parallelism": 1, "table_name_mappings": {"s": "S", "t": "S"}}`)
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }})
	if _, err := run(t, eng, cfg, input(schemaLine, newKey, rec(1, "a"), state(1))); err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(schemaLine, `"stream":"s"`, `"stream":"t"`, 1)
	otherRec := strings.Replace(rec(5, "e"), `"stream":"s"`, `"stream":"t"`, 1)
	states, err := run(t, eng, cfg, input(other, state(8), otherRec, state(9)))
	if err == nil || !strings.Contains(err.Error(), "line 1:") || !strings.Contains(err.Error(), "key_properties changed") {
		t.Fatalf("second run: %v, want the key change refused at line 1", err)
	}
	if len(states) != 0 {
		t.Errorf("states %q, want none", states)
	}
}

// A record under a replaced key fails at its batch's key check; the error
// names the record's line (SPEC §8). Before, it named no line.
func TestBatchKeyCheckNamesTheLine(t *testing.T) {
	newKey := strings.Replace(schemaLine, `"key_properties":["id"]`, `"key_properties":["id","v"]`, 1)
	cfg := loadConfig(t, `{"max_parallelism": 1}`)
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }})
	if _, err := run(t, eng, cfg, input(schemaLine, newKey, rec(1, "a"), state(1))); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, eng, cfg, input(schemaLine, state(8), rec(5, "e"), state(9)))
	if err == nil || !strings.Contains(err.Error(), `line 3: stream "s": key_properties changed`) {
		t.Fatalf("second run: %v, want the key change refused at line 3", err)
	}
}
