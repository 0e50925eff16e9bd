package pipeline_test

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// TestHardDeleteDoesNotWidenForAValueNeverStored (found by an attack): with hard_delete a
// record carrying _sdc_deleted_at only deletes its key's row, yet its
// other values still decide the column types. Input:
//
//	SCHEMA s {id, v: string, _sdc_deleted_at}
//	RECORD {"id":1,"v":"a"}   STATE 1
//	RECORD {"id":1,"v":"x"×5000,"_sdc_deleted_at":"2020-01-01T00:00:00Z"}   STATE 2
//
// With {"hard_delete":true} the load rewrites V from VARCHAR2(4000 BYTE)
// to CLOB (ADD V$M CLOB, LOCK TABLE … IN EXCLUSIVE MODE, UPDATE every row,
// SET UNUSED, RENAME: the whole table copied, and a column that can no
// longer be indexed or compared) and then runs DELETE … WHERE ID = 1: the
// 5000 bytes are never stored. With {"schema_evolution":"fail",
// "hard_delete":true} the run fails (exit 1, `line 4: … needs changes …
// rewrite "V" … to CLOB`) on a valid delete. Reproduction: target-oracle
// --dry-run --dry-run-dump d --config {"hard_delete":true} with the input
// above; d/statements.sql and d/tables.json ("V": CLOB).
func TestHardDeleteDoesNotWidenForAValueNeverStored(t *testing.T) {
	in := `{"type":"SCHEMA","stream":"s","schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"_sdc_deleted_at":{"type":["null","string"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}
{"type":"STATE","value":1}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"` + strings.Repeat("x", 5000) + `","_sdc_deleted_at":"2020-01-01T00:00:00Z"}}
{"type":"STATE","value":2}
`
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, `{"hard_delete":true}`), in); err != nil {
		t.Fatal(err)
	}
	if c := eng.Tables()["DRY_RUN.S"].Column("V"); c == nil || c.Type.Kind == table.KindClob {
		t.Errorf("column V is %v after a delete: the deleting record's value widened it", c)
	}
	eng = newEngine()
	states, err := run(t, eng, loadConfig(t, `{"hard_delete":true,"schema_evolution":"fail"}`), in)
	if err != nil || len(states) == 0 || states[len(states)-1] != "2" {
		t.Errorf("schema_evolution fail: states %q, err %v; want the delete applied and state 2", states, err)
	}
}
