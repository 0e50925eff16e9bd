package table

import (
	"strings"
	"testing"
)

// indexedTables are an existing table (key ID, column SKU) with the
// indexes have, and the wanted one with the custom index want.
func indexedTables(have []Index, want Index) (*Table, *Table) {
	cols := []Column{{Name: "ID", Type: Type{Kind: KindNumber, Precision: 38}}, {Name: "SKU", Type: Type{Kind: KindVarchar, Length: 10}, Nullable: true}}
	cur := &Table{Schema: "S", Name: "T", Columns: cols, PrimaryKey: []string{"ID"}, Indexes: have}
	w := cur.Clone()
	w.Indexes = []Index{want}
	return cur, w
}

// TestReconcileAddsMissingIndexes: indexes are matched by columns and
// uniqueness, not by name.
func TestReconcileAddsMissingIndexes(t *testing.T) {
	unique := Index{Name: "T_SKU_IDX", Columns: []string{"SKU"}, Unique: true}
	plain := Index{Name: "T_SKU_IDX", Columns: []string{"SKU"}}
	for _, tc := range []struct {
		name  string
		have  []Index
		want  Index
		adds  bool
		error string
	}{
		{name: "missing", want: unique, adds: true},
		{name: "old name", have: []Index{{Name: "OLD", Columns: []string{"SKU"}, Unique: true}}, want: unique},
		{name: "unique serves plain", have: []Index{{Name: "OLD", Columns: []string{"SKU"}, Unique: true}}, want: plain},
		{name: "primary key serves", want: Index{Name: "T_ID_IDX", Columns: []string{"ID"}}},
		{name: "other columns", have: []Index{{Name: "OLD", Columns: []string{"SKU", "ID"}, Unique: true}}, want: unique, adds: true},
		{name: "not unique", have: []Index{{Name: "OLD", Columns: []string{"SKU"}}}, want: unique, error: `index "OLD" has these columns but is not unique`},
	} {
		cur, want := indexedTables(tc.have, tc.want)
		next, changes, err := Reconcile(cur, want, nil, PolicyAdditive, Options{})
		switch {
		case tc.error != "":
			if err == nil || !strings.Contains(err.Error(), tc.error) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.error)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := len(changes) == 1 && changes[0].Kind == AddIndex && changes[0].Index.Name == tc.want.Name; got != tc.adds {
			t.Errorf("%s: changes %v, want add index %v", tc.name, changes, tc.adds)
		}
		if tc.adds && len(next.Indexes) != len(tc.have)+1 {
			t.Errorf("%s: next has indexes %v", tc.name, next.Indexes)
		}
	}
	// A catalog read that did not list the indexes compares nothing.
	cur, want := indexedTables(nil, unique)
	cur.IndexesUnread = true
	if _, changes, err := Reconcile(cur, want, nil, PolicyWiden, Options{}); err != nil || len(changes) != 0 {
		t.Errorf("unread indexes: changes %v, err %v; want none", changes, err)
	}
}

// schema_evolution fail (allow_alter_table false) builds no index on an
// existing table: it stops with the statement to run by hand.
func TestFailPolicyRefusesAMissingIndex(t *testing.T) {
	cur, want := indexedTables(nil, Index{Name: "T_SKU_IDX", Columns: []string{"SKU"}, Unique: true})
	_, _, err := Reconcile(cur, want, nil, PolicyFail, Options{})
	if err == nil || !strings.Contains(err.Error(), `CREATE UNIQUE INDEX "T_SKU_IDX" ON S.T (SKU)`) {
		t.Fatalf("err = %v, want the refusal with the CREATE INDEX to run by hand", err)
	}
}

// A value too long for an indexed VARCHAR2 column cannot make it a CLOB:
// Oracle cannot index a LOB (ORA-02327), and the rewrite would drop the
// index with the old column. Reconcile refuses before any change; the same
// column without an index is rewritten as before.
func TestReconcileRefusesToMakeAnIndexedColumnALOB(t *testing.T) {
	ix := Index{Name: "T_SKU_IDX", Columns: []string{"SKU"}, Unique: true}
	long := []Stats{{}, {MaxBytes: 5000}}
	for _, have := range [][]Index{{ix}, nil} { // in the catalog, or only wanted
		cur, want := indexedTables(have, ix)
		_, _, err := Reconcile(cur, want, long, PolicyWiden, Options{})
		if err == nil || !strings.Contains(err.Error(), "ORA-02327") || !strings.Contains(err.Error(), `"SKU"`) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("indexes %v: error %v, want a refusal naming SKU and ORA-02327", have, err)
		}
	}
	cur, want := indexedTables(nil, ix)
	want.Indexes = nil
	_, changes, err := Reconcile(cur, want, long, PolicyWiden, Options{})
	if err != nil || len(changes) != 1 || changes[0].Kind != Migrate || !changes[0].To.IsLOB() {
		t.Fatalf("no index: changes %+v, %v; want the rewrite to a LOB", changes, err)
	}
}
