package oracle_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

func atk5Sch(s string) string {
	return `{"type":"SCHEMA","stream":"` + s + `","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}},"key_properties":["id"]}` + "\n"
}

func atk5Rec(s string, id, version int) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"v":"x"},"version":%d}`+"\n", s, id, version)
}

// atk5Live lists the IDs of the rows not soft-deleted.
func atk5Live(rows []map[string]string) string {
	var ids []string
	for _, r := range rows {
		if r["_SDC_DELETED_AT"] == "" {
			ids = append(ids, r["ID"])
		}
	}
	return strings.Join(ids, ",")
}

// TestAttackAdoptedSharedTableLosesAnEarlierRunsSharer (finding, data
// loss): last session's shared-table guards (ACTIVATE_VERSION refused,
// overwrite refused, delete_missing skipped when streams absent from the
// run also loaded the table) read the other streams from the table's
// comment, and table.RecordStreams adds a joining stream to it only when
// the table already has a target-oracle comment (evolve.go: "if
// current.Streams != nil"). A table a DBA created before the first run
// (the usual way to get a table of one's own design, adopted by name,
// SPEC §5.1) has none, and keeps none, however many streams
// table_name_mappings put there; so is a table whose comment a DBA
// replaced by a description. A later run of one stream alone then
// deletes the other's rows, exit 0, STATE emitted:
//
//   - ACTIVATE_VERSION with hard_delete: b's row 11 deleted;
//   - stream_overrides a delete_missing hard: b's row 11 pruned;
//   - stream_overrides a load_method overwrite: b's row 11 replaced away.
//
// Reproduction: CREATE TABLE "T" ("ID" NUMBER(38,0) NOT NULL, "V"
// VARCHAR2(100 BYTE), CONSTRAINT "T_PK" PRIMARY KEY ("ID")); --config
// {"table_name_mappings":{"a":"T","b":"T"},"hard_delete":true}; run 1:
// SCHEMA a, SCHEMA b, RECORD a {id 1} version 5, RECORD b {id 11}
// version 5, STATE 1; run 2: SCHEMA a, RECORD a {id 2} version 6,
// ACTIVATE_VERSION a 6, STATE 2 → T holds only 2.
func TestAttackAdoptedSharedTableLosesAnEarlierRunsSharer(t *testing.T) {
	t.Skip("finding: a pre-created (adopted) or DBA-commented table shared by table_name_mappings never records its streams; a later lone run's ACTIVATE_VERSION, delete_missing or overwrite deletes the other stream's rows")
	const ddl = `CREATE TABLE "DRY_RUN"."T" ("ID" NUMBER(38,0) NOT NULL, "V" VARCHAR2(100 BYTE), CONSTRAINT "T_PK" PRIMARY KEY ("ID"))`
	cases := []struct {
		name, set, run2 string
		dbaComment      bool
	}{
		{"activate_version", `{"table_name_mappings":{"a":"T","b":"T"},"hard_delete":true}`,
			atk5Sch("a") + atk5Rec("a", 2, 6) + `{"type":"ACTIVATE_VERSION","stream":"a","version":6}` + "\n" + `{"type":"STATE","value":2}` + "\n", false},
		{"activate_version, DBA's comment", `{"table_name_mappings":{"a":"T","b":"T"},"hard_delete":true}`,
			atk5Sch("a") + atk5Rec("a", 2, 6) + `{"type":"ACTIVATE_VERSION","stream":"a","version":6}` + "\n" + `{"type":"STATE","value":2}` + "\n", true},
		{"delete_missing", `{"table_name_mappings":{"a":"T","b":"T"},"stream_overrides":{"a":{"delete_missing":"hard"}},"delete_missing_max_fraction":1}`,
			atk5Sch("a") + atk5Rec("a", 1, 6) + `{"type":"STATE","value":2}` + "\n", false},
		{"overwrite", `{"table_name_mappings":{"a":"T","b":"T"},"stream_overrides":{"a":{"load_method":"overwrite"}}}`,
			atk5Sch("a") + atk5Rec("a", 1, 6) + `{"type":"STATE","value":2}` + "\n", false},
	}
	for _, c := range cases {
		r := defaultRig(t)
		if !c.dbaComment {
			if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := run(t, r.eng, c.set, atk5Sch("a")+atk5Sch("b")+atk5Rec("a", 1, 5)+atk5Rec("b", 11, 5)+`{"type":"STATE","value":1}`+"\n"); err != nil {
			t.Fatalf("%s: run 1: %v", c.name, err)
		}
		if c.dbaComment {
			r.db.SetTableComment("DRY_RUN.T", "Orders of both shops (finance team)")
		}
		eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{ColumnComments: true})
		states, err := run(t, eng, c.set, c.run2)
		if err != nil {
			continue // refused: b's row is kept
		}
		if live := atk5Live(r.db.Rows("DRY_RUN.T")); !strings.Contains(","+live+",", ",11,") {
			t.Errorf("%s: run 2 exit 0, STATE %v, T holds %q: stream b's row 11 is gone", c.name, states, live)
		}
	}
}
