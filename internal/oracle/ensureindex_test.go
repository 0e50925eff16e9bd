package oracle_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// lineInput loads one record into ORDER_LINE (k, id).
const lineInput = `{"type":"SCHEMA","stream":"order_line","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"integer"},"id":{"type":["null","integer"]}}}}
{"type":"RECORD","stream":"order_line","record":{"k":1,"id":10}}
{"type":"STATE","value":{"done":true}}
`

const lineIndexed = `{"custom_indexes": {"order_line": [{"columns": ["id"], "unique": true}]}}`

// runAgain runs the input on a fresh engine on r's database (a new run)
// and returns the CREATE INDEX statements it ran.
func runAgain(t *testing.T, r *rig, settings string) ([]string, error) {
	t.Helper()
	before := len(r.db.Statements())
	_, err := run(t, newEngine(t, r.db, oracle.Options{}, oraclesql.Options{}), settings, lineInput)
	var created []string
	for _, s := range r.db.Statements()[before:] {
		if strings.Contains(s, "CREATE UNIQUE INDEX") || strings.Contains(s, "CREATE INDEX") {
			created = append(created, s)
		}
	}
	return created, err
}

func hasLineIndex(t *testing.T, r *rig, want string) {
	t.Helper()
	if got := r.db.Indexes(schemaName + ".ORDER_LINE"); !slices.Contains(got, want) {
		t.Errorf("ORDER_LINE has indexes %q, want %q", got, want)
	}
}

// TestCustomIndexAddedToAnExistingTable: a custom_indexes entry added
// after the table was made used to be ignored forever (indexes were made
// only with CREATE TABLE). The next run creates it; the run after that
// finds it and runs no DDL for it.
func TestCustomIndexAddedToAnExistingTable(t *testing.T) {
	r := defaultRig(t)
	if _, err := runAgain(t, r, `{}`); err != nil {
		t.Fatal(err)
	}
	name := table.IndexName("ORDER_LINE", []string{"ID"}, 128)
	created, err := runAgain(t, r, lineIndexed)
	if err != nil {
		t.Fatal(err)
	}
	hasLineIndex(t, r, name+" (ID) UNIQUE")
	if len(created) != 1 {
		t.Errorf("second run created %q, want one CREATE UNIQUE INDEX", created)
	}
	if created, err = runAgain(t, r, lineIndexed); err != nil || len(created) != 0 {
		t.Errorf("third run: CREATE INDEX %q, err %v; want none", created, err)
	}
}

// TestDroppedCustomIndexIsRecreated: an index dropped by hand (or a run
// killed between CREATE TABLE and CREATE INDEX) is made again.
func TestDroppedCustomIndexIsRecreated(t *testing.T) {
	r := defaultRig(t)
	if _, err := runAgain(t, r, lineIndexed); err != nil {
		t.Fatal(err)
	}
	name := table.IndexName("ORDER_LINE", []string{"ID"}, 128)
	if _, err := r.db.Exec(oraclesql.Statement{SQL: `DROP INDEX "` + schemaName + `"."` + name + `"`, Kind: oraclesql.KindDDL}); err != nil {
		t.Fatal(err)
	}
	if _, err := runAgain(t, r, lineIndexed); err != nil {
		t.Fatal(err)
	}
	hasLineIndex(t, r, name+" (ID) UNIQUE")
}

// TestOldNamedIndexServes: an index an earlier release made under
// another name on the same columns serves: no second index, no DDL.
func TestOldNamedIndexServes(t *testing.T) {
	r := defaultRig(t)
	if _, err := runAgain(t, r, `{}`); err != nil {
		t.Fatal(err)
	}
	if _, err := r.db.Exec(oraclesql.Statement{SQL: `CREATE UNIQUE INDEX "` + schemaName + `"."ORDER_LINE_ID_IDX" ON "` + schemaName + `"."ORDER_LINE" ("ID")`, Kind: oraclesql.KindDDL}); err != nil {
		t.Fatal(err)
	}
	created, err := runAgain(t, r, lineIndexed)
	if err != nil || len(created) != 0 {
		t.Fatalf("CREATE INDEX %q, err %v; want none", created, err)
	}
	want := []string{"ORDER_LINE_ID_IDX (ID) UNIQUE", "ORDER_LINE_PK (K) UNIQUE"}
	if got := r.db.Indexes(schemaName + ".ORDER_LINE"); !slices.Equal(got, want) {
		t.Errorf("indexes %q, want %q", got, want)
	}
}

// TestNonUniqueIndexWhereUniqueWantedFails: the columns have a
// non-unique index; the unique entry fails the run naming it, instead
// of loading without the uniqueness asked for.
func TestNonUniqueIndexWhereUniqueWantedFails(t *testing.T) {
	r := defaultRig(t)
	if _, err := runAgain(t, r, `{"custom_indexes": {"order_line": [{"name": "BY_ID", "columns": ["id"]}]}}`); err != nil {
		t.Fatal(err)
	}
	_, err := runAgain(t, r, lineIndexed)
	if err == nil || !strings.Contains(err.Error(), `index "BY_ID" has these columns but is not unique`) ||
		!strings.Contains(err.Error(), "make the custom_indexes entry not unique") {
		t.Fatalf("err = %v, want the non-unique index named", err)
	}
}
