package oracle_test

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// Through the Oracle engine: a stream joining a table another stream made
// adds itself to the table's comment (table.RecordStreams renders a
// COMMENT ON TABLE), and a later run of the first stream alone is then
// refused its ACTIVATE_VERSION instead of deleting the other's row.
func TestSharedTableCommentNamesEveryStream(t *testing.T) {
	r := defaultRig(t)
	sch := func(s string) string {
		return `{"type":"SCHEMA","stream":"` + s + `","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}` + "\n"
	}
	set := `{"table_name_mappings":{"a":"T","b":"T"}}`
	if _, err := run(t, r.eng, set, sch("a")+`{"type":"RECORD","stream":"a","record":{"id":1},"version":5}`+"\n"+`{"type":"STATE","value":1}`+"\n"); err != nil {
		t.Fatal(err)
	}
	eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{ColumnComments: true})
	if _, err := run(t, eng, set, sch("b")+`{"type":"RECORD","stream":"b","record":{"id":11},"version":5}`+"\n"+`{"type":"STATE","value":2}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if c := r.db.TableComment("DRY_RUN.T"); !strings.Contains(c, `"a"`) || !strings.Contains(c, `"b"`) {
		t.Fatalf("table comment %q, want both streams", c)
	}
	eng = newEngine(t, r.db, oracle.Options{}, oraclesql.Options{ColumnComments: true})
	_, err := run(t, eng, set, sch("a")+`{"type":"RECORD","stream":"a","record":{"id":2},"version":6}`+"\n"+`{"type":"ACTIVATE_VERSION","stream":"a","version":6}`+"\n"+`{"type":"STATE","value":3}`+"\n")
	if err == nil || !strings.Contains(err.Error(), "would delete the rows of stream(s) b") {
		t.Fatalf("err = %v, want the ACTIVATE_VERSION refused", err)
	}
	if rows := r.db.Rows("DRY_RUN.T"); len(rows) != 3 {
		t.Fatalf("rows %v, want 1, 11 and 2", rows)
	}
}
