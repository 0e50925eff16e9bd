package oracle_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// A column that only has a migration marker's name is never taken for a
// marker: a DBA's table with C and C$M (no comments, as a table made by
// hand or by an earlier release with column_comments false for a property
// "c$m") keeps both columns and their values. Before markers were known by
// their comment, Describe "finished" a migration here: it dropped C and
// renamed C$M to C.
func TestColumnNamedLikeAMarkerIsLeftAlone(t *testing.T) {
	r := defaultRig(t)
	ddl := `CREATE TABLE "DRY_RUN"."M" ("ID" NUMBER(38,0) NOT NULL, "C" NUMBER(38,0), "C$M" VARCHAR2(40 CHAR), CONSTRAINT "M_PK" PRIMARY KEY ("ID"))`
	if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
		t.Fatal(err)
	}
	tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: integer}, {Name: "C", Type: integer, Nullable: true}, {Name: "C$M", Type: text40, Nullable: true}}}
	if _, err := session(t, r).Load(context.Background(), []engine.Step{write(tbl, engine.Insert, map[string]string{"ID": "1", "C": "10", "C$M": "kept"})}); err != nil {
		t.Fatal(err)
	}
	got, err := r.eng.Describe(context.Background(), schemaName, "M")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got.Columns {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"ID", "C", "C$M"}) {
		t.Fatalf("columns after Describe: %v, want ID, C, C$M", names)
	}
	rows := r.db.Rows("DRY_RUN.M")
	if len(rows) != 1 || rows[0]["C"] != "10" || rows[0]["C$M"] != "kept" {
		t.Fatalf("rows after Describe: %v", rows)
	}
}

// A migration killed after its old column was dropped is finished with
// the column's comment back (the marker's comment carries it): later runs
// match the column to its property by the comment, not by name alone.
func TestFinishedMigrationGetsItsCommentBack(t *testing.T) {
	r := defaultRig(t)
	s := migrationTable(t, r, 3)
	r.db.Inject(fake.Fault{Op: fake.OpDDL, Nth: 4, Code: 1031}) // ADD, COMMENT, SET UNUSED, RENAME
	if err := s.Apply(context.Background(), migrateChange(integer, text40)); err == nil {
		t.Fatal("the migration did not fail")
	}
	if cols := r.db.Columns("DRY_RUN.M"); len(cols) != 2 || !strings.HasPrefix(cols[1], "C$M ") {
		t.Fatalf("columns after the kill: %v", cols)
	}
	fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
	wantMigrated(t, &rig{db: r.db, eng: fresh}, 3)
	got, err := fresh.Describe(context.Background(), schemaName, "M")
	if err != nil {
		t.Fatal(err)
	}
	if c := got.Column("C"); c == nil || !slices.Equal(c.Source, []string{"c"}) {
		t.Fatalf("column C after the finish: %+v, want its comment's path [c]", c)
	}
}
