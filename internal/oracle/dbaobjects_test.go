package oracle_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

func dbaSchema(v string) string {
	return `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","` + v + `"]}}},"key_properties":["id"]}` + "\n"
}

// TestRewriteRefusedOverTheDBAsObjects: a rewrite of an adopted column
// that has an index, or a DEFAULT, of the DBA's is refused before any DDL
// (a schema_evolution refusal, exit 1), naming the table, the column, each
// object and what to do; the table keeps its column, rows and objects.
func TestRewriteRefusedOverTheDBAsObjects(t *testing.T) {
	for _, c := range []struct {
		name string
		ddl  []string
		want []string
	}{
		{"unique index", []string{
			`CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" NUMBER(38,0), CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`,
			`CREATE UNIQUE INDEX "DRY_RUN"."S_V_UQ" ON "DRY_RUN"."S" ("V")`,
			`CREATE INDEX "DRY_RUN"."S_IDV" ON "DRY_RUN"."S" ("ID", "V")`,
		}, []string{`index "S_IDV"`, `index "S_V_UQ"`, "DROP INDEX"}},
		{"default", []string{
			`CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" NUMBER(38,0) DEFAULT 5 NOT NULL, CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`,
		}, []string{"its DEFAULT (it is a DEFAULT column)", "rewrite the column by hand"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := defaultRig(t)
			for _, ddl := range c.ddl {
				if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
					t.Fatal(ddl, err)
				}
			}
			if _, err := run(t, r.eng, `{}`, dbaSchema("integer")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":7}}`+"\n"); err != nil {
				t.Fatal(err)
			}
			indexes := strings.Join(r.db.Indexes("DRY_RUN.S"), ";")
			before := len(r.db.Statements())
			_, err := run(t, r.eng, `{}`, dbaSchema("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"a"}}`+"\n")
			var ee *table.EvolutionError
			if !errors.As(err, &ee) {
				t.Fatalf("run 2: %v, want a schema_evolution refusal", err)
			}
			for _, w := range append([]string{"DRY_RUN.S", `column "V"`, "will not recreate them", "nothing was changed"}, c.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the refusal does not say %q: %v", w, err)
				}
			}
			for _, st := range r.db.Statements()[before:] {
				if strings.HasPrefix(st, "ALTER") || strings.HasPrefix(st, "COMMENT") || strings.HasPrefix(st, "UPDATE") {
					t.Errorf("run 2 ran %q", st)
				}
			}
			if got := strings.Join(r.db.Indexes("DRY_RUN.S"), ";"); got != indexes {
				t.Errorf("indexes %s, want %s", got, indexes)
			}
			rows := r.db.Rows("DRY_RUN.S")
			if len(rows) != 1 || rows[0]["V"] != "7" {
				t.Errorf("rows %v, want the one of run 1", rows)
			}
		})
	}
}

// TestRewriteRecreatesCustomIndexes: an index of custom_indexes on the
// column is the target's own: the rewrite makes it again, it is no
// reason to refuse.
func TestRewriteRecreatesCustomIndexes(t *testing.T) {
	r := defaultRig(t)
	const settings = `{"custom_indexes": {"s": [{"columns": ["v"]}]}}`
	if _, err := run(t, r.eng, settings, dbaSchema("integer")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":7}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	name := table.IndexName("S", []string{"V"}, 128)
	if _, err := run(t, r.eng, settings, dbaSchema("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"a"}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.db.Indexes("DRY_RUN.S"), ";"); !strings.Contains(got, name+" (V)") {
		t.Errorf("indexes %s, want %s (V) made again", got, name)
	}
	if rows := r.db.Rows("DRY_RUN.S"); len(rows) != 2 {
		t.Errorf("rows %v", rows)
	}
}

// TestRewriteOfABooleanNumberKeepsGoing: the IN (0, 1) check the target
// gives a NUMBER(1) boolean is its own (Renderer.OwnCheck): a rewrite of
// the column to text is not refused for it.
func TestRewriteOfABooleanNumberKeepsGoing(t *testing.T) {
	r := defaultRig(t)
	const settings = `{"boolean_type": "number"}`
	if _, err := run(t, r.eng, settings, dbaSchema("boolean")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":true}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, r.eng, settings, dbaSchema("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"a"}}`+"\n"); err != nil {
		t.Fatalf("run 2: %v", err)
	}
	got := map[string]string{}
	for _, row := range r.db.Rows("DRY_RUN.S") {
		got[row["ID"]] = row["V"]
	}
	if got["1"] != "true" || got["2"] != "a" {
		t.Errorf("rows %v, want 1:true 2:a", got)
	}
}

// TestRewriteKeepsTheDBAsCommentWhereverItStops: a rewrite of an adopted
// column (no target comment: its comment is a DBA's) gives the new column
// the DBA's text back, also when the run is killed at any DDL and a fresh
// engine finishes the migration from the marker's comment.
func TestRewriteKeepsTheDBAsCommentWhereverItStops(t *testing.T) {
	const note = "keep me; it's the DBA's"
	for nth := 0; nth <= 8; nth++ {
		r := defaultRig(t)
		tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
			prop("ID", integer, false), {Name: "C", Type: integer, Nullable: true, Comment: note}}}
		s := session(t, r, tbl)
		if _, err := r.db.Exec(oraclesql.Statement{SQL: `COMMENT ON COLUMN "DRY_RUN"."M"."C" IS 'keep me; it''s the DBA''s'`, Kind: oraclesql.KindDDL}); err != nil {
			t.Fatal(err)
		}
		w := &engine.Write{Table: tbl, Method: engine.Upsert, Columns: []string{"ID", "C"}, KeyColumns: []string{"ID"},
			Rows: []engine.Row{{Line: 1, Values: []string{"1", "10"}}}}
		if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
			t.Fatal(err)
		}
		next := tbl.Clone()
		next.Column("C").Type = text40
		if nth > 0 {
			r.db.Inject(fake.Fault{Op: fake.OpDDL, Nth: nth, Code: 1031})
		}
		err := s.Apply(context.Background(), engine.Change{Table: next, Change: table.Change{Kind: table.Migrate, Column: "C", From: integer, To: text40}})
		s.Close()
		fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
		if _, derr := fresh.Describe(context.Background(), schemaName, "M"); derr != nil {
			t.Fatalf("kill at DDL %d (%v): describe: %v", nth, err, derr)
		}
		got, derr := fresh.Describe(context.Background(), schemaName, "M")
		if derr != nil {
			t.Fatal(derr)
		}
		c := got.Column("C")
		if c == nil || c.Type != text40 && err == nil || c.Comment != note || c.Role != 0 {
			t.Errorf("kill at DDL %d (%v): C is %+v, want %s with the comment %q", nth, err, c, text40, note)
		}
		if rows := r.db.Rows("DRY_RUN.M"); len(rows) != 1 || rows[0]["C"] != "10" {
			t.Errorf("kill at DDL %d: rows %v", nth, rows)
		}
	}
}

// TestWideningRefusedPastTheDBAsJSONCheck: a CLOB JSON column whose IS
// JSON check is the DBA's (a system name, not one the target gives) would
// keep that check through a widening to a plain CLOB (the target drops
// only its own names), and every string would then fail with ORA-02290
// after the DDL: the widening is refused before any DDL, naming the check
// (table.widensPastDBAChecks; cli.TestAttackObjectWidenedToScalarKeepsISJSONCheck).
func TestWideningRefusedPastTheDBAsJSONCheck(t *testing.T) {
	r := defaultRig(t)
	ddl := `CREATE TABLE "DRY_RUN"."S" ("ID" NUMBER(38,0) NOT NULL, "V" CLOB CONSTRAINT "SYS_C0012345" CHECK ("V" IS JSON), CONSTRAINT "S_PK" PRIMARY KEY ("ID"))`
	if _, err := r.db.Exec(oraclesql.Statement{SQL: ddl, Kind: oraclesql.KindDDL}); err != nil {
		t.Fatal(ddl, err)
	}
	if _, err := run(t, r.eng, `{"add_record_metadata":false}`, dbaSchema("object")+`{"type":"RECORD","stream":"s","record":{"id":1,"v":{"a":1}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	before := len(r.db.Statements())
	_, err := run(t, r.eng, `{"add_record_metadata":false}`, dbaSchema("string")+`{"type":"RECORD","stream":"s","record":{"id":2,"v":"plain"}}`+"\n")
	var ee *table.EvolutionError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), `check constraint "SYS_C0012345" on it is not target-oracle's`) ||
		!strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("run 2: %v; want a refusal naming the DBA's check", err)
	}
	for _, st := range r.db.Statements()[before:] {
		if strings.HasPrefix(st, "ALTER") || strings.HasPrefix(st, "COMMENT") {
			t.Errorf("run 2 ran %q", st)
		}
	}
	if rows := r.db.Rows("DRY_RUN.S"); len(rows) != 1 || rows[0]["V"] != `{"a":1}` {
		t.Errorf("rows %v, want the one of run 1", rows)
	}
}
