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

// TestAttackMigrationDropsTheDBAsUniqueIndex (finding, a constraint
// lost silently): a table a DBA made (adopted by name) has a unique index
// of the DBA's on column V. A SCHEMA change of v from integer to string
// rewrites V (ADD V$M, copy, SET UNUSED (V) CASCADE CONSTRAINTS, RENAME):
// SET UNUSED drops every index on V, and the rewrite restores only the
// indexes in the table it was given (Renderer.restore: t.Indexes), which
// holds the catalog's indexes only when the stream has custom_indexes
// (catalog.indexes reads ALL_INDEXES only then). So S_V_UQ is gone after
// the run, exit 0, no warning: V's uniqueness, which the DBA relied on,
// no longer holds (the same for a plain index: queries lose it; and for a
// VARCHAR2 rewritten to CLOB, which the docs refuse for a custom index
// because "it would drop the index with the old column (a unique one's
// guarantee too)"). Reproduction (fake): CREATE TABLE "S" ("ID"
// NUMBER(38,0) NOT NULL, "V" NUMBER(38,0), PRIMARY KEY ("ID")); CREATE
// UNIQUE INDEX "S_V_UQ" ON "S" ("V"); run 1: SCHEMA s {id, v integer},
// RECORD {id 1, v 7}; run 2: SCHEMA with v string, RECORD {id 2, v "a"}
// → exit 0, indexes [S_PK (ID)].
func TestAttackMigrationDropsTheDBAsUniqueIndex(t *testing.T) {
	// was: t.Skip("finding: a rewrite migration of an adopted table's column silently drops the DBA's (unique) index on it: SET UNUSED drops it and only custom_indexes are re-created")
	r := defaultRig(t)
	for _, ddl := range []string{
		`CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" NUMBER(38,0), CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`,
		`CREATE UNIQUE INDEX "DRY_RUN"."S_V_UQ" ON "DRY_RUN"."S" ("V")`,
	} {
		if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
			t.Fatal(ddl, err)
		}
	}
	sch := func(tv string) string {
		return `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","` + tv + `"]}}},"key_properties":["id"]}` + "\n"
	}
	if _, err := run(t, r.eng, `{}`, sch("integer")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":7}}`+"\n"+`{"type":"STATE","value":1}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if ix := r.db.Indexes("DRY_RUN.S"); !slices.Contains(ix, "S_V_UQ (V) UNIQUE") {
		t.Fatalf("after run 1 the indexes are %v", ix)
	}
	states, err := run(t, r.eng, `{}`, sch("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"a"}}`+"\n"+`{"type":"STATE","value":2}`+"\n")
	ix := r.db.Indexes("DRY_RUN.S")
	unique := slices.ContainsFunc(ix, func(s string) bool { return strings.Contains(s, "(V) UNIQUE") })
	if err == nil && !unique {
		t.Errorf("run 2 exit 0, STATE %v: the table's indexes are now %v; the DBA's unique index on V is gone (want it re-created, or the migration refused naming it)", states, ix)
	}
	if err != nil && len(r.db.Rows("DRY_RUN.S")) != 1 {
		t.Errorf("run 2 failed (%v) with rows %v", err, r.db.Rows("DRY_RUN.S"))
	}
}

// TestAttackMigrationErasesTheDBAsColumnComment (finding, a DBA's text
// destroyed): an adopted table's column V has a comment of the DBA's
// (keep me: the DBA's note), which loads leave alone (run 1 keeps
// it). A rewrite of V (integer to string) ends with
// Renderer.ColumnComment, which writes an empty comment for a column without a role
// (no target-oracle comment: an adopted one), and the marker's comment
// carried no DBA text either (MigrationComment keeps only a comment the
// target wrote): the note is gone after the run, exit 0, with
// column_comments true and false alike. The table comment keeps a DBA's
// text since 0a2ff3a ("a DBA's text kept"); a column's does not survive
// a migration. Reproduction (fake): CREATE TABLE "S" ("ID" NUMBER(38,0)
// NOT NULL, "V" NUMBER(38,0), PRIMARY KEY ("ID")); COMMENT ON COLUMN
// "S"."V" IS 'keep me…'; run 1: SCHEMA s {id, v integer}; run 2: v
// string → ALL_COL_COMMENTS has no comment on V.
func TestAttackMigrationErasesTheDBAsColumnComment(t *testing.T) {
	// was: t.Skip("finding: a rewrite migration of an adopted column erases the DBA's column comment (COMMENT ... IS '')")
	const note = "keep me: the DBA's note"
	for _, cc := range []bool{true, false} {
		r := defaultRig(t)
		for _, ddl := range []string{
			`CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" NUMBER(38,0), CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`,
			`COMMENT ON COLUMN "DRY_RUN"."S"."V" IS 'keep me: the DBA''s note'`,
		} {
			if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
				t.Fatal(ddl, err)
			}
		}
		eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{ColumnComments: cc})
		set := `{"column_comments":false}`
		if cc {
			set = `{}`
		}
		sch := func(tv string) string {
			return `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","` + tv + `"]}}},"key_properties":["id"]}` + "\n"
		}
		if _, err := run(t, eng, set, sch("integer")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":7}}`+"\n"); err != nil {
			t.Fatal(err)
		}
		if d, err := eng.Describe(context.Background(), "DRY_RUN", "S"); err != nil || d.Column("V").Comment != note {
			t.Fatalf("column_comments %v: after run 1 V's comment is not the DBA's: %v", cc, err)
		}
		states, err := run(t, eng, set, sch("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"a"}}`+"\n"+`{"type":"STATE","value":2}`+"\n")
		if err != nil {
			t.Fatalf("column_comments %v: run 2: %v", cc, err)
		}
		d, err := eng.Describe(context.Background(), "DRY_RUN", "S")
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Column("V").Comment; !strings.Contains(got, note) {
			t.Errorf("column_comments %v: run 2 exit 0, STATE %v: V (now %s) has the comment %q; the DBA's %q is gone", cc, states, d.Column("V").Type, got, note)
		}
	}
}

// TestAttackMigrationDropsTheDBAsDefault (finding, the DBA's table
// changed behind its back): an adopted column V NUMBER(38,0) DEFAULT 5
// NOT NULL (the stream's property v fills it; SPEC §5.5 binds a property
// matched to a DEFAULT column). A rewrite of V for v's change to string
// adds V$M without the DEFAULT and renames it over V, restoring NOT NULL
// only: V is NOT NULL with no default after the run (exit 0, no
// warning), so every other program that inserts rows without V (relying
// on the DEFAULT) now fails with ORA-01400. Same root as
// TestAttackMigrationDropsTheDBAsUniqueIndex: the rewrite rebuilds only
// what the target knows of the column. Reproduction (fake): CREATE TABLE
// "S" ("ID" NUMBER(38,0) NOT NULL, "V" NUMBER(38,0) DEFAULT 5 NOT NULL,
// PRIMARY KEY ("ID")); run 1: v integer; run 2: v string → ALL_TAB_COLS
// shows V without DATA_DEFAULT.
func TestAttackMigrationDropsTheDBAsDefault(t *testing.T) {
	// was: t.Skip("finding: a rewrite migration of an adopted column drops its DEFAULT (NOT NULL kept): other writers relying on it fail with ORA-01400")
	r := defaultRig(t)
	ddl := `CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" NUMBER(38,0) DEFAULT 5 NOT NULL, CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`
	if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
		t.Fatal(err)
	}
	sch := func(tv string) string {
		return `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","` + tv + `"]}}},"key_properties":["id"]}` + "\n"
	}
	if _, err := run(t, r.eng, `{}`, sch("integer")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":7}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	d, err := r.eng.Describe(context.Background(), "DRY_RUN", "S")
	if err != nil || d.Column("V").Fill == table.FillNone {
		t.Fatalf("after run 1 V is not a DEFAULT column: %v %+v", err, d.Column("V"))
	}
	states, err := run(t, r.eng, `{}`, sch("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"a"}}`+"\n"+`{"type":"STATE","value":2}`+"\n")
	if err != nil {
		return // refused: the table is unchanged
	}
	d, err = r.eng.Describe(context.Background(), "DRY_RUN", "S")
	if err != nil {
		t.Fatal(err)
	}
	if c := d.Column("V"); c.Fill == table.FillNone {
		t.Errorf("run 2 exit 0, STATE %v: V is now %s NOT NULL=%v with %s; the DBA's DEFAULT is gone", states, c.Type, !c.Nullable, c.Fill)
	}
}

// atk7Conn runs before() once, just before the first statement whose SQL
// holds trigger: a concurrent writer's turn between two of the engine's
// statements.
type atk7Conn struct {
	oracle.Conn
	trigger string
	before  func()
	done    *bool
}

func (c atk7Conn) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if !*c.done && strings.Contains(st.SQL, c.trigger) {
		*c.done = true
		c.before()
	}
	return c.Conn.Exec(ctx, st, args)
}

// TestAttackMigrationLosesAConcurrentWrite (finding, data loss and stale
// values under concurrent writers): SPEC §5.5 says "A rewrite migration
// locks the table (LOCK TABLE … IN EXCLUSIVE MODE …) so concurrent
// writers cannot leave stale copies". The lock is taken per copy chunk
// and ends with the chunk's commit (session.chunk); the copy loop ends
// with a chunk that updates no row and commits, and only then does the
// next DDL, SET UNUSED (C), run. A writer whose statement lands between
// the two (another target-oracle run on the table, or any application)
// is not stopped: its update of row 1 (C = 111, after C$M got the copy
// "10") and its new row 4 (C = 40, C$M NULL) are then thrown away with
// C: after the migration row 1 holds the stale "10" and row 4 has no C,
// though the writer's commit succeeded (and, for a loader, its STATE was
// written). The same holds between any two chunks for rows already
// copied. Reproduction (fake; the writer runs just before SET UNUSED):
// table M (ID, C integer), rows 1..3; migrate C to VARCHAR2(40 CHAR)
// while a second session upserts (1, 111) and (4, 40) → M holds 1:"10",
// 4:NULL.
func TestAttackMigrationLosesAConcurrentWrite(t *testing.T) {
	// was: t.Skip("finding: a concurrent write between the migration's last copy chunk and SET UNUSED is lost (the table lock is per chunk): stale value, lost value")
	// Now the old column is renamed away before the catch-up and the drop:
	// a writer before the rename lands in C and the catch-up carries it; a
	// writer after it fails on C's name, having committed nothing.
	for _, c := range []struct {
		trigger    string
		mustCommit bool
	}{
		{`RENAME COLUMN "C" TO`, true}, // after the last copy chunk
		{"SET UNUSED", false},          // after the rename away
	} {
		db := fake.New(fake.Options{Schema: schemaName, Now: clock})
		old := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
			prop("ID", integer, false), prop("C", integer, true)}}
		writer := newEngine(t, db, oracle.Options{}, oraclesql.Options{})
		done, committed := false, false
		concurrent := func() {
			s, err := writer.Session(context.Background(), "writer")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			w := &engine.Write{Table: old, Method: engine.Upsert, Columns: []string{"ID", "C"}, KeyColumns: []string{"ID"},
				Rows: []engine.Row{{Line: 1, Values: []string{"1", "111"}}, {Line: 2, Values: []string{"2", ""}}, {Line: 3, Values: []string{"4", "40"}}}}
			if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
				t.Logf("%s: the concurrent write failed (fine: nothing it committed is lost): %v", c.trigger, err)
				return
			}
			committed = true
		}
		dial := func(ctx context.Context) (oracle.Conn, error) {
			conn, err := db.Dial(ctx)
			if err != nil {
				return nil, err
			}
			return atk7Conn{Conn: conn, trigger: c.trigger, before: concurrent, done: &done}, nil
		}
		eng := oracle.New(dial, oraclesql.New(oraclesql.Options{ColumnComments: true}), oracle.Options{Sleep: instant})
		r := &rig{db: db, eng: eng}
		s := migrationTable(t, r, 3)
		if err := s.Apply(context.Background(), migrateChange(integer, text40)); err != nil {
			t.Fatal(err)
		}
		if !done {
			t.Fatalf("%s: the migration ran no such statement", c.trigger)
		}
		if c.mustCommit && !committed {
			t.Fatalf("%s: the concurrent write did not commit", c.trigger)
		}
		got := map[string]string{}
		for _, row := range db.Rows("DRY_RUN.M") {
			got[row["ID"]] = row["C"]
		}
		if committed && (got["1"] != "111" || got["2"] != "" || got["4"] != "40") {
			t.Errorf("%s: after the migration M holds %v: the concurrent writer's committed C = 111 for row 1, NULL for row 2 and 40 for row 4 are lost", c.trigger, got)
		}
		if !committed && (got["1"] != "10" || got["2"] != "20" || got["4"] != "") {
			t.Errorf("%s: after the migration M holds %v, the failed writer's values or lost copies", c.trigger, got)
		}
	}
}
