package oracle_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// atk3Migrate creates DRY_RUN.M (ID, C integer with description desc),
// loads 3 rows, runs C's migration to VARCHAR2(40 CHAR) with the nth DDL
// failing (0: none), and describes the table with a fresh engine (which
// finishes a killed migration). It returns the column C described, and
// the rows.
func atk3Migrate(t *testing.T, desc string, nth int) (*table.Column, []map[string]string) {
	t.Helper()
	c, rows, _ := atk3MigrateOn(t, defaultRig(t), desc, nth)
	return c, rows
}

func atk3MigrateOn(t *testing.T, r *rig, desc string, nth int) (*table.Column, []map[string]string, *oracle.Engine) {
	t.Helper()
	c := prop("C", integer, true)
	c.Comment = desc
	tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{prop("ID", integer, false), c}}
	s := session(t, r, tbl)
	w := &engine.Write{Table: tbl, Method: engine.Upsert, Columns: []string{"ID", "C"}, KeyColumns: []string{"ID"}}
	for i := 1; i <= 3; i++ {
		w.Rows = append(w.Rows, engine.Row{Line: int64(i), Values: []string{fmt.Sprint(i), fmt.Sprint(i * 10)}})
	}
	if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
		t.Fatal(err)
	}
	if nth > 0 {
		r.db.Inject(fake.Fault{Op: fake.OpDDL, Nth: nth, Code: 1031})
	}
	ch := migrateChange(integer, text40)
	ch.Table.Columns[1].Comment = desc
	err := s.Apply(context.Background(), ch)
	if nth == 0 && err != nil {
		t.Fatal(err)
	}
	fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
	// The first Describe finishes a killed migration; the second reads
	// the table as it is after that.
	if _, err := fresh.Describe(context.Background(), schemaName, "M"); err != nil {
		t.Fatalf("describe after a kill at DDL %d: %v", nth, err)
	}
	got, err := fresh.Describe(context.Background(), schemaName, "M")
	if err != nil {
		t.Fatal(err)
	}
	return got.Column("C"), r.db.Rows("DRY_RUN.M"), fresh
}

// TestAttackMigrationLongCommentLostOnKill: markerComment keeps C's
// comment only when "target-oracle:migration-of=["C"]; " + C's comment
// fits 4000 bytes; C's own comment may take all 4000 (FormatComment cuts
// the description there). A description of 3960 bytes: the migration
// killed after SET UNUSED (DDL 4, the RENAME, fails) is finished by a new
// engine's Describe with no comment at all on C (Source nil, description
// lost), though the migration run to its end keeps it. Later runs then
// match C by name only (a column_mappings or hashed name no longer
// matches its property). Reproduce: go test -run
// TestAttackMigrationLongCommentLostOnKill ./internal/oracle/ (skip removed).
func TestAttackMigrationLongCommentLostOnKill(t *testing.T) {
	// was: t.Skip("finding: a column whose comment is near 4000 bytes loses its whole comment (path and description) when its migration is killed after SET UNUSED and finished by Describe")
	desc := strings.Repeat("d", 3960)
	for _, nth := range []int{0, 1, 2, 3, 4, 5, 6} {
		c, rows := atk3Migrate(t, desc, nth)
		if len(rows) != 3 {
			t.Fatalf("kill at DDL %d: rows %v", nth, rows)
		}
		for i, row := range rows {
			if row["C"] != fmt.Sprint((i+1)*10) {
				t.Errorf("kill at DDL %d: row %d: C = %q", nth, i, row["C"])
			}
		}
		// The path must survive; the description (free text) may lose the
		// few bytes the marker's own head takes of Oracle's 4000.
		if c == nil || !slices.Equal(c.Source, []string{"c"}) || !strings.HasPrefix(desc, c.Comment) || len(c.Comment) < len(desc)-64 {
			var src []string
			n := -1
			if c != nil {
				src, n = c.Source, len(c.Comment)
			}
			t.Errorf("kill at DDL %d: C's path %v, description of %d bytes; want [c] and %d bytes", nth, src, n, len(desc))
		}
	}
}

// TestAttackMigrationKilledAtCommentRestoreSplitsColumn: the migration
// killed at its 5th DDL (ADD C$M, COMMENT C$M as marker, SET UNUSED C,
// RENAME C$M TO C, then COMMENT ON C restoring C's comment: this one
// fails) leaves C with the marker's comment migration-of=["C"]. A new
// engine's Describe does not take it for a marker (MigrationColumn("C") is
// C$M) nor restore the comment: C stays RoleMigration, Source [C]. The
// next load of property c then adds a new column C_2e7d2c03 and writes
// there: rows 1-3 keep c in C, row 4 has it in C_2e7d2c03 (the property's
// values split over two columns; the table's c reads NULL for new rows
// in C, and for old rows in the new column). STATE 4 is emitted.
// Reproduce: go test -run TestAttackMigrationKilledAtCommentRestoreSplitsColumn ./internal/oracle/ (skip removed).
func TestAttackMigrationKilledAtCommentRestoreSplitsColumn(t *testing.T) {
	// was: t.Skip("finding: a migration killed at its comment restore (DDL 5) leaves C with the marker comment; the next run adds C_2e7d2c03 and splits property c over two columns")
	r := defaultRig(t)
	c, _, fresh := atk3MigrateOn(t, r, "desc", 5)
	if c == nil || c.Role != table.RoleProperty || !slices.Equal(c.Source, []string{"c"}) {
		t.Errorf("C after a new engine's Describe: %+v, want the property column of [c]", c)
	}
	in := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":"string","maxLength":40,"description":"desc"}}}}
{"type":"RECORD","stream":"m","record":{"id":4,"c":"x"}}
{"type":"STATE","value":4}
`
	if _, err := run(t, fresh, `{"add_record_metadata":false}`, in); err != nil {
		t.Fatal(err)
	}
	if cols := r.db.Columns("DRY_RUN.M"); len(cols) != 2 {
		t.Errorf("columns after the next load: %v, want ID and C", cols)
	}
	want := []string{"10", "20", "30", "x"}
	for i, row := range r.db.Rows("DRY_RUN.M") {
		if i < len(want) && row["C"] != want[i] {
			t.Errorf("row %d: %v, want C = %s", i+1, row, want[i])
		}
	}
}

// TestAttackMigrationWithoutColumnCommentsKeepsMarkerComment: with
// column_comments false, markerComment still comments the marker
// (migration-of=["C"]) but the migration's finish restores no comment
// (Renderer.comment writes none), so after a migration that SUCCEEDED C
// keeps the marker's comment. The next run's Describe reads C as
// RoleMigration (Source [C]), not a property column, and adds C_2e7d2c03
// for property c: run 1 {id 1, c 10} (integer), run 2 {id 2, c "x"}
// (string: migrates C to VARCHAR2), run 3 the same as run 2: columns ID, C,
// C_2e7d2c03; row 2's c now in C_2e7d2c03; exit 0, STATE 2 each time.
// Every later value of c goes to the new column (data split, silently).
// Reproduce: go test -run TestAttackMigrationWithoutColumnCommentsKeepsMarkerComment ./internal/oracle/ (skip removed).
func TestAttackMigrationWithoutColumnCommentsKeepsMarkerComment(t *testing.T) {
	// was: t.Skip("finding: column_comments false: a finished migration leaves the marker comment on C; the next run adds C_2e7d2c03 and writes property c there")
	db := fake.New(fake.Options{Schema: schemaName, Now: clock})
	mk := func() *oracle.Engine {
		return oracle.New(oracle.Dialer(db.Dial), oraclesql.New(oraclesql.Options{}), oracle.Options{Sleep: instant})
	}
	in1 := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":"integer"}}}}
{"type":"RECORD","stream":"m","record":{"id":1,"c":10}}
{"type":"STATE","value":1}
`
	in2 := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":"string","maxLength":40}}}}
{"type":"RECORD","stream":"m","record":{"id":2,"c":"x"}}
{"type":"STATE","value":2}
`
	set := `{"add_record_metadata":false,"column_comments":false}`
	for i, in := range []string{in1, in2, in2} {
		if _, err := run(t, mk(), set, in); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	if cols := db.Columns("DRY_RUN.M"); len(cols) != 2 {
		t.Errorf("columns: %v, want ID and C", cols)
	}
	if rows := db.Rows("DRY_RUN.M"); len(rows) != 2 || rows[0]["C"] != "10" || rows[1]["C"] != "x" {
		t.Errorf("rows: %v, want C 10 and x", rows)
	}
}

// TestAttackHashedMarkerLostWhenIdentifierLimitChanges: a 30-byte column
// C (30 x "C") migrated on a server with 30-byte identifiers gets the
// hashed marker CCCCCCCCCCCCCCCCCCCCC_1b318e5c. Killed at DDL 4 (after SET
// UNUSED C), then resumed after the server moved to 128-byte identifiers
// (COMPATIBLE raised to 12.2 or later), markers() computes
// MigrationColumn(C) = C…C$M, does not match the marker whose comment
// names C, and finishes nothing: the table is ID and the marker only
// (C's values there, RoleMigration); the rerun migration then fails with
// ORA-00904 leaving ID, the old marker and a new C$M. Low likelihood (an
// upgrade between the kill and the resume); the marker's comment alone
// names the column, so the name check could be relaxed.
// Reproduce: go test -run TestAttackHashedMarkerLostWhenIdentifierLimitChanges ./internal/oracle/ (skip removed).
func TestAttackHashedMarkerLostWhenIdentifierLimitChanges(t *testing.T) {
	// was: t.Skip("finding: a killed migration's hashed marker (30-byte identifiers) is not recognized once the server allows 128 bytes: C stays gone, its values only in the marker column")
	name := strings.Repeat("C", 30)
	db := fake.New(fake.Options{Schema: schemaName, Now: clock})
	mk := func(limit int) *oracle.Engine {
		return oracle.New(oracle.Dialer(db.Dial), oraclesql.New(oraclesql.Options{ColumnComments: true, IdentifierMaxBytes: limit}), oracle.Options{Sleep: instant})
	}
	s, err := mk(30).Session(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{prop("ID", integer, false), prop(name, integer, true)}}
	if err := s.Apply(context.Background(), engine.Change{Table: tbl, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatal(err)
	}
	w := &engine.Write{Table: tbl, Method: engine.Upsert, Columns: []string{"ID", name}, KeyColumns: []string{"ID"},
		Rows: []engine.Row{{Line: 1, Values: []string{"1", "10"}}}}
	if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
		t.Fatal(err)
	}
	db.Inject(fake.Fault{Op: fake.OpDDL, Nth: 4, Code: 1031})
	next := tbl.Clone()
	next.Columns[1].Type = text40
	if err := s.Apply(context.Background(), engine.Change{Table: next, Change: table.Change{Kind: table.Migrate, Column: name, From: integer, To: text40}}); err == nil {
		t.Fatal("the migration did not fail")
	}
	s.Close()
	got, err := mk(128).Describe(context.Background(), schemaName, "M")
	if err != nil {
		t.Fatal(err)
	}
	if c := got.Column(name); c == nil || !slices.Equal(c.Source, []string{strings.ToLower(name)}) {
		t.Fatalf("after a new engine's Describe: columns %v, want %s (the property's) back", db.Columns("DRY_RUN.M"), name)
	}
}

// TestAttackForgedMarkerCommentLosesValues: a column C$M whose comment is
// one a user wrote to look like a marker (target-oracle:migration-of=["C"];
// copied from the old table) beside C is taken for a pending migration by
// Describe alone: the rerun copies C into C$M only where C$M IS NULL, drops
// C and renames C$M to C. Table ID, C NUMBER, C$M VARCHAR2 with rows
// {1, 10, "user"} and {2, 20, NULL}: after Describe, C VARCHAR2 holds
// "user" and "20": row 1's C = 10 is gone. Low likelihood (the comment
// must be exact), but the loss comes from a read (Describe) and the user's
// C$M was never the target's.
// Reproduce: go test -run TestAttackForgedMarkerCommentLosesValues ./internal/oracle/ (skip removed).
func TestAttackForgedMarkerCommentLosesValues(t *testing.T) {
	// was: t.Skip("finding: a user column C$M commented like a marker makes Describe drop C and keep C$M's values: row 1's C=10 lost")
	r := defaultRig(t)
	for _, sql := range []string{
		`CREATE TABLE "DRY_RUN"."M" ("ID" NUMBER(38,0) NOT NULL, "C" NUMBER(38,0), "C$M" VARCHAR2(40 CHAR), CONSTRAINT "M_PK" PRIMARY KEY ("ID"))`,
		`COMMENT ON COLUMN "DRY_RUN"."M"."C$M" IS 'target-oracle:migration-of=["C"]; copied from the old table'`,
	} {
		if _, err := r.db.Exec(oraclesql.Statement{SQL: sql, Kind: oraclesql.KindDDL}); err != nil {
			t.Fatal(err)
		}
	}
	tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: integer}, {Name: "C", Type: integer, Nullable: true}, {Name: "C$M", Type: text40, Nullable: true}}}
	if _, err := session(t, r).Load(context.Background(), []engine.Step{write(tbl, engine.Insert,
		map[string]string{"ID": "1", "C": "10", "C$M": "user"}, map[string]string{"ID": "2", "C": "20"})}); err != nil {
		t.Fatal(err)
	}
	_, err := r.eng.Describe(context.Background(), schemaName, "M")
	var ce *config.Error
	if err == nil || !errors.As(err, &ce) {
		t.Errorf("Describe: err %v, want a refusal (a configuration error: exit 2)", err)
	} else if msg := err.Error(); !strings.Contains(msg, "DRY_RUN.M") || !strings.Contains(msg, `"C$M"`) || !strings.Contains(msg, `column "C"`) ||
		!strings.Contains(msg, "nothing was changed") || strings.Contains(msg, "config: ") {
		t.Errorf("Describe: %q does not name the table and both columns, or says nothing of what to do", msg)
	}
	rows := r.db.Rows("DRY_RUN.M")
	if len(rows) != 2 || rows[0]["C"] != "10" || rows[0]["C$M"] != "user" || rows[1]["C"] != "20" || rows[1]["C$M"] != "" {
		t.Fatalf("after Describe: columns %v rows %v, want C 10 and C$M user kept", r.db.Columns("DRY_RUN.M"), rows)
	}
	if cols := r.db.Columns("DRY_RUN.M"); len(cols) != 3 {
		t.Errorf("after Describe: columns %v, want ID, C, C$M", cols)
	}
	// A C$M holding a value where C is NULL is no copy's either.
	if _, err := session(t, r).Load(context.Background(), []engine.Step{write(tbl, engine.Insert,
		map[string]string{"ID": "3", "C$M": "only"})}); err != nil {
		t.Fatal(err)
	}
	if _, err := session(t, r).Load(context.Background(), []engine.Step{write(tbl, engine.Upsert,
		map[string]string{"ID": "1", "C": "10", "C$M": "10"})}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.eng.Describe(context.Background(), schemaName, "M"); !errors.As(err, &ce) {
		t.Errorf("Describe with C$M set where C is NULL: err %v, want a refusal", err)
	}
	if n := len(r.db.Rows("DRY_RUN.M")); n != 3 || len(r.db.Columns("DRY_RUN.M")) != 3 {
		t.Errorf("after the refusal: %d rows, columns %v", n, r.db.Columns("DRY_RUN.M"))
	}
}
