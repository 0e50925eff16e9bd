package oracle_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/table"
)

// indexStreams are streams "order" (line_id) and "order_line" (id), each
// keyed by k, with the settings given.
func indexStreams(settings string) (string, string) {
	input := strings.Join([]string{
		`{"type":"SCHEMA","stream":"order","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"integer"},"line_id":{"type":["null","integer"]}}}}`,
		`{"type":"RECORD","stream":"order","record":{"k":1,"line_id":10}}`,
		`{"type":"SCHEMA","stream":"order_line","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"integer"},"id":{"type":["null","integer"]}}}}`,
		`{"type":"RECORD","stream":"order_line","record":{"k":2,"id":20}}`,
		`{"type":"STATE","value":{"done":true}}`,
	}, "\n") + "\n"
	return settings, input
}

// TestIndexNamesAreUniquePerSchema: Oracle's index names are unique per
// schema. The unnamed custom indexes ORDER(LINE_ID) and ORDER_LINE(ID)
// were both ORDER_LINE_ID_IDX; the second CREATE UNIQUE INDEX failed with
// ORA-00955, which counted as "done", and ORDER_LINE silently had neither
// the index nor its uniqueness. Both tables have theirs now.
func TestIndexNamesAreUniquePerSchema(t *testing.T) {
	settings, input := indexStreams(`{"custom_indexes": {"order": [{"columns": ["line_id"], "unique": true}], "order_line": [{"columns": ["id"], "unique": true}]}}`)
	r := defaultRig(t)
	if _, err := run(t, r.eng, settings, input); err != nil {
		t.Fatalf("run failed: %v", err)
	}
	for q, want := range map[string]string{schemaName + ".ORDER": " (LINE_ID) UNIQUE", schemaName + ".ORDER_LINE": " (ID) UNIQUE"} {
		got := r.db.Indexes(q)
		if !slices.ContainsFunc(got, func(ix string) bool { return strings.HasSuffix(ix, want) }) {
			t.Errorf("%s has indexes %q, want one on%s", q, got, want)
		}
	}
}

// TestIndexNameOfAnotherTableFails: a custom_indexes name given to two
// streams is taken by the first table's index. The second CREATE INDEX's
// ORA-00955 is no longer "done": the table has no index on its columns,
// and the run fails naming the index, instead of loading without it.
func TestIndexNameOfAnotherTableFails(t *testing.T) {
	settings, input := indexStreams(`{"custom_indexes": {"order": [{"name": "BY_LINE", "columns": ["line_id"], "unique": true}], "order_line": [{"name": "BY_LINE", "columns": ["id"], "unique": true}]}}`)
	r := defaultRig(t)
	_, err := run(t, r.eng, settings, input)
	if err == nil || !strings.Contains(err.Error(), `UNIQUE index "BY_LINE" on (`) || !strings.Contains(err.Error(), "ORA-00955") {
		t.Fatalf("err = %v, want the index named with ORA-00955", err)
	}
	// The table whose CREATE INDEX came first has it.
	order := r.db.Indexes(schemaName + ".ORDER")
	line := r.db.Indexes(schemaName + ".ORDER_LINE")
	if slices.Contains(order, "BY_LINE (LINE_ID) UNIQUE") == slices.Contains(line, "BY_LINE (ID) UNIQUE") {
		t.Errorf("ORDER has indexes %q, ORDER_LINE %q: want BY_LINE on one of them", order, line)
	}
}

// lineTable is ORDER_LINE keyed by K with the index ix on ID.
func lineTable(ix table.Index) *table.Table {
	ix.Columns = []string{"ID"}
	return &table.Table{Schema: schemaName, Name: "ORDER_LINE", PrimaryKey: []string{"K"}, Indexes: []table.Index{ix},
		Columns: []table.Column{prop("K", integer, false), prop("ID", integer, true)}}
}

// TestIndexOfAnEarlierReleaseIsKept: a run of a release before the
// unique names creates ORDER_LINE and its index ORDER_LINE_ID_IDX at the
// moment this run creates them (ORA-00955 on CREATE TABLE). This run's
// CREATE INDEX, under the new name, meets ORA-01408: the table has the
// index on these columns already, so the statement is done, and no second
// index is made. Run again, the index under this run's own name is found
// by its ORA-00955.
func TestIndexOfAnEarlierReleaseIsKept(t *testing.T) {
	r := defaultRig(t)
	legacy := table.DerivedName("ORDER_LINE", "_ID_IDX", 128)
	s := session(t, r, lineTable(table.Index{Name: legacy, Unique: true}))
	name := table.IndexName("ORDER_LINE", []string{"ID"}, 128)
	if name == legacy {
		t.Fatalf("the new name %s is the old one", name)
	}
	if err := s.Apply(context.Background(), createChange(t, lineTable(table.Index{Name: name, Unique: true}), "ORDER_LINE")); err != nil {
		t.Fatalf("CREATE INDEX on an indexed column list: %v", err)
	}
	want := []string{legacy + " (ID) UNIQUE", "ORDER_LINE_PK (K) UNIQUE"}
	if got := r.db.Indexes(schemaName + ".ORDER_LINE"); !slices.Equal(got, want) {
		t.Errorf("indexes %q, want %q", got, want)
	}

	r = defaultRig(t)
	s = session(t, r, lineTable(table.Index{Name: name, Unique: true}))
	if err := s.Apply(context.Background(), createChange(t, lineTable(table.Index{Name: name, Unique: true}), "ORDER_LINE")); err != nil {
		t.Fatalf("CREATE INDEX of an existing name: %v", err)
	}
	want = []string{name + " (ID) UNIQUE", "ORDER_LINE_PK (K) UNIQUE"}
	if got := r.db.Indexes(schemaName + ".ORDER_LINE"); !slices.Equal(got, want) {
		t.Errorf("indexes %q, want %q", got, want)
	}
}

// TestUniqueIndexOnNonUniqueIndexFails: the column list is indexed, but
// not uniquely (an earlier run with "unique": false). ORA-01408 is not
// "done" for a UNIQUE index: the run fails naming both indexes instead
// of loading without the uniqueness asked for.
func TestUniqueIndexOnNonUniqueIndexFails(t *testing.T) {
	r := defaultRig(t)
	s := session(t, r, lineTable(table.Index{Name: "OLD_ID_IDX"}))
	err := s.Apply(context.Background(), createChange(t, lineTable(table.Index{Name: "ID_UX", Unique: true}), "ORDER_LINE"))
	if err == nil || !strings.Contains(err.Error(), `index DRY_RUN.OLD_ID_IDX has these columns but is not unique`) || !strings.Contains(err.Error(), "ORA-01408") {
		t.Fatalf("err = %v, want the non-unique index named with ORA-01408", err)
	}
}

// TestIndexCheckSurvivesALostConnection: the connection lost while the
// catalog is read after ORA-00955 retries from the CREATE INDEX on a
// fresh session, which finds the index again.
func TestIndexCheckSurvivesALostConnection(t *testing.T) {
	r := defaultRig(t)
	name := table.IndexName("ORDER_LINE", []string{"ID"}, 128)
	s := session(t, r, lineTable(table.Index{Name: name}))
	// The CREATE TABLE's ORA-00955 reads the table and its comment first.
	r.db.Inject(fake.Fault{Op: fake.OpQuery, Nth: 3})
	if err := s.Apply(context.Background(), createChange(t, lineTable(table.Index{Name: name}), "ORDER_LINE")); err != nil {
		t.Fatal(err)
	}
	if got := r.db.Calls(fake.OpDial); got != 2 {
		t.Errorf("%d dials, want 2", got)
	}
	if got := r.db.Calls(fake.OpQuery); got != 4 {
		t.Errorf("%d queries, want 4 (the index check twice)", got)
	}
}

// TestTableNamedAsAnIndexFails: tables and indexes share a schema's
// names. A custom index of "order" named ORDER_LINE takes the name the
// next stream's table needs: its CREATE TABLE meets ORA-00955, which is
// not "a concurrent run made the table" (there is no such table), and the
// run fails saying another object has the name, not that a table lacks a
// column.
func TestTableNamedAsAnIndexFails(t *testing.T) {
	settings, input := indexStreams(`{"custom_indexes": {"order": [{"name": "ORDER_LINE", "columns": ["line_id"]}]}}`)
	r := defaultRig(t)
	_, err := run(t, r.eng, settings, input)
	if err == nil || !strings.Contains(err.Error(), "ORA-00955") || !strings.Contains(err.Error(), "another object") {
		t.Fatalf("err = %v, want ORA-00955 naming another object of the schema", err)
	}
}

// TestTableNamedAsAnIndexMadeBeforeFails: the same with the index made
// first (ORDER's first batch is loaded before stream "late" appears): the
// CREATE TABLE of LATE meets ORA-00955 and no table of that name exists.
func TestTableNamedAsAnIndexMadeBeforeFails(t *testing.T) {
	input := strings.Join([]string{
		`{"type":"SCHEMA","stream":"order","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"integer"},"line_id":{"type":["null","integer"]}}}}`,
		`{"type":"RECORD","stream":"order","record":{"k":1,"line_id":10}}`,
		`{"type":"STATE","value":{"at":1}}`,
		`{"type":"SCHEMA","stream":"late","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"integer"}}}}`,
		`{"type":"RECORD","stream":"late","record":{"k":2}}`,
	}, "\n") + "\n"
	r := defaultRig(t)
	_, err := run(t, r.eng, `{"batch_size_rows": 1, "custom_indexes": {"order": [{"name": "LATE", "columns": ["line_id"]}]}}`, input)
	if err == nil || !strings.Contains(err.Error(), "ORA-00955") || !strings.Contains(err.Error(), "another object") || !strings.Contains(err.Error(), "LATE") {
		t.Fatalf("err = %v, want ORA-00955 naming another object of the schema", err)
	}
	if got := r.db.Indexes(schemaName + ".ORDER"); !slices.Contains(got, "LATE (LINE_ID)") {
		t.Errorf("ORDER has indexes %q, want LATE made first", got)
	}
}
