package oracle_test

import (
	"context"
	"fmt"
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
	r.db.Inject(fake.Fault{Op: fake.OpDDL, Nth: 5, Code: 1031}) // ADD, COMMENT, RENAME away, SET UNUSED, RENAME
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

// A migration column that a killed run added but did not mark yet (the
// run stopped between the ADD and its COMMENT) is finished by the next
// Describe only when it is provably nothing but that ADD: no comment,
// nullable, no default, a type a migration of its column adds, NULL in
// every row. Any other column of that name is left alone with its values.
func TestUnmarkedMigrationColumn(t *testing.T) {
	cases := []struct {
		name, def, comment string
		value              *string // C$M's value in row 1; nil: C$M left out of the INSERT
		empty              bool    // no row at all
		finished           bool
	}{
		{name: "killed before the marker comment", def: `VARCHAR2(40 CHAR)`, finished: true},
		{name: "killed before the marker comment, no rows", def: `VARCHAR2(40 CHAR)`, empty: true, finished: true},
		{name: "a value", def: `VARCHAR2(40 CHAR)`, value: ptr("kept")},
		{name: "a DBA's comment", def: `VARCHAR2(40 CHAR)`, comment: "reserved for finance"},
		{name: "a default", def: `VARCHAR2(40 CHAR) DEFAULT 'x'`, value: ptr("")},
		{name: "NOT NULL", def: `VARCHAR2(40 CHAR) NOT NULL`, empty: true},
		{name: "not a migration's type", def: `NUMBER(38,0)`},
		{name: "widened in place, not migrated", def: `NUMBER(38,2)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := defaultRig(t)
			ddl := `CREATE TABLE "DRY_RUN"."M" ("ID" NUMBER(38,0) NOT NULL, "C" NUMBER(38,0), "C$M" ` + c.def + `, CONSTRAINT "M_PK" PRIMARY KEY ("ID"))`
			if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
				t.Fatal(err)
			}
			if c.comment != "" {
				if _, err := r.db.Exec(oraclesql.Statement{SQL: `COMMENT ON COLUMN "DRY_RUN"."M"."C$M" IS '` + c.comment + `'`, Kind: oraclesql.KindDDL}); err != nil {
					t.Fatal(err)
				}
			}
			tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
				{Name: "ID", Type: integer}, {Name: "C", Type: integer, Nullable: true}}}
			row := map[string]string{"ID": "1", "C": "10"}
			if c.value != nil {
				tbl.Columns = append(tbl.Columns, table.Column{Name: "C$M", Type: text40, Nullable: true})
				row["C$M"] = *c.value
			}
			if !c.empty {
				if _, err := session(t, r).Load(context.Background(), []engine.Step{write(tbl, engine.Insert, row)}); err != nil {
					t.Fatal(err)
				}
			}
			before := r.db.Rows("DRY_RUN.M")
			ro := newEngine(t, r.db, oracle.Options{ReadOnly: true}, oraclesql.Options{})
			_, roErr := ro.Describe(context.Background(), schemaName, "M")
			got, err := r.eng.Describe(context.Background(), schemaName, "M")
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, col := range got.Columns {
				names = append(names, col.Name)
			}
			rows := r.db.Rows("DRY_RUN.M")
			if c.finished {
				if roErr == nil || !strings.Contains(roErr.Error(), "must be finished first") {
					t.Errorf("read-only Describe: %v, want the half-done migration refused", roErr)
				}
				if !slices.Equal(names, []string{"ID", "C"}) || got.Column("C").Type != text40 || len(rows) != len(before) || len(rows) > 0 && rows[0]["C"] != "10" {
					t.Fatalf("after Describe columns %v (C %+v), rows %v; want ID, C VARCHAR2(40 CHAR) holding 10", names, got.Column("C"), rows)
				}
				return
			}
			if roErr != nil {
				t.Errorf("read-only Describe: %v", roErr)
			}
			if !slices.Equal(names, []string{"ID", "C", "C$M"}) || got.Column("C").Type != integer || fmt.Sprint(rows) != fmt.Sprint(before) {
				t.Fatalf("after Describe columns %v, rows %v; want ID, C, C$M and rows %v as they were", names, rows, before)
			}
		})
	}
}

func ptr(s string) *string { return &s }
