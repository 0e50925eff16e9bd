package oracle_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/testkit"
)

// TestHalfDoneMigrationIsFinishedBeforeWrites: a run dies after the first
// chunk of a rewrite migration was copied into the marker column; the
// next run, which needs no migration, must not write beside the marker
// (its new values would be skipped by the copy later, SPEC §5.5): the
// migration is finished before any write, and every row ends with the
// newest value.
func TestHalfDoneMigrationIsFinishedBeforeWrites(t *testing.T) {
	first, second, third := testkit.HalfMigrationInputs()
	ro := oraclesql.Options{MigrationChunkRows: 3}
	r := newRig(t, oracle.Options{}, ro)
	r.db.Inject(fake.Fault{Op: fake.OpUpdate, Nth: 2, Code: 1031}) // the first chunk commits, the second fails
	if _, err := run(t, r.eng, upsertSettings, first); err == nil || !strings.Contains(err.Error(), "ORA-01031") {
		t.Fatalf("first run: err = %v, want the injected ORA-01031", err)
	}
	if cols := strings.Join(r.db.Columns("DRY_RUN.M"), ","); !strings.Contains(cols, "C$M ") {
		t.Fatalf("the first run left no half-done migration: %s", cols)
	}
	for i, in := range []string{second, third} {
		eng := newEngine(t, r.db, oracle.Options{}, ro) // a new process
		if _, err := run(t, eng, upsertSettings, in); err != nil {
			t.Fatalf("run %d: %v", i+2, err)
		}
		eng.Close()
	}
	if cols := strings.Join(r.db.Columns("DRY_RUN.M"), ","); strings.Contains(cols, "$M") {
		t.Errorf("a marker column is left: %s", cols)
	}
	rows := r.db.Rows("DRY_RUN.M")
	if len(rows) != 7 {
		t.Fatalf("%d rows, want 7", len(rows))
	}
	for _, row := range rows {
		var id int
		fmt.Sscan(row["ID"], &id)
		if want := fmt.Sprint(id * 100); row["C"] != want {
			t.Errorf("row %s: C = %q, want the second run's %q", row["ID"], row["C"], want)
		}
	}
}

// fullSchema is a SCHEMA of n properties p0 … p(n-1), key p0, all
// integers but p1 when p1String.
func fullSchema(n int, p1String bool) string {
	var b strings.Builder
	b.WriteString(`{"type":"SCHEMA","stream":"full","key_properties":["p0"],"schema":{"type":"object","properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		typ := "integer"
		if i == 1 && p1String {
			typ = "string"
		}
		fmt.Fprintf(&b, `"p%d":{"type":["null","%s"]}`, i, typ)
	}
	b.WriteString(`}}}`)
	return b.String()
}

// TestRewriteOnFullTableRefusedBeforeItStarts: on the Oracle engine, a
// rewrite migration of a 1000-column table is refused before any DDL
// (Oracle would stop at the temporary column with ORA-01792, half-way),
// as invalid input naming the stream, with the manual procedure.
func TestRewriteOnFullTableRefusedBeforeItStarts(t *testing.T) {
	const settings = `{"add_record_metadata": false}`
	rec := `{"type":"RECORD","stream":"full","record":{"p0":1}}`
	r := defaultRig(t)
	if _, err := run(t, r.eng, settings, fullSchema(1000, false)+"\n"+rec+"\n"); err != nil {
		t.Fatal(err)
	}
	ddl := r.db.Calls(fake.OpDDL)
	eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
	_, err := run(t, eng, settings, fullSchema(1000, true)+"\n"+rec+"\n")
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Stream != "full" || ie.Line != 1 || !strings.Contains(err.Error(), "temporary column") || !strings.Contains(err.Error(), "DROP UNUSED COLUMNS") {
		t.Fatalf("err = %v, want an input error of line 1, stream full, with the manual procedure", err)
	}
	if got := r.db.Calls(fake.OpDDL); got != ddl {
		t.Errorf("%d DDL statements ran before the refusal", got-ddl)
	}
	if cols := r.db.Columns("DRY_RUN.FULL"); len(cols) != 1000 || !strings.HasPrefix(cols[1], "P1 NUMBER") {
		t.Errorf("the table changed: %d columns, %s", len(cols), cols[1])
	}
}

// TestColumnsAddedPastUnusedOnesRefused: the catalog read counts the
// UNUSED columns a migration left (ALL_UNUSED_COL_TABS), so a column
// added to a table they fill is refused before any DDL, with DROP UNUSED
// COLUMNS as the way out, not stopped by ORA-01792.
func TestColumnsAddedPastUnusedOnesRefused(t *testing.T) {
	const settings = `{"add_record_metadata": false}`
	rec := `{"type":"RECORD","stream":"full","record":{"p0":1}}`
	r := defaultRig(t)
	if _, err := run(t, r.eng, settings, fullSchema(999, false)+"\n"+rec+"\n"+fullSchema(999, true)+"\n"+rec+"\n"); err != nil {
		t.Fatal(err) // 999 columns and one UNUSED after the rewrite of P1
	}
	ddl := r.db.Calls(fake.OpDDL)
	eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
	_, err := run(t, eng, settings, fullSchema(1000, true)+"\n"+rec+"\n")
	var ie *inputerr.Error
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "1 UNUSED") || !strings.Contains(err.Error(), "DROP UNUSED COLUMNS") {
		t.Fatalf("err = %v, want an input error naming the UNUSED column and DROP UNUSED COLUMNS", err)
	}
	if got := r.db.Calls(fake.OpDDL); got != ddl {
		t.Errorf("%d DDL statements ran before the refusal", got-ddl)
	}
}

// TestTableCommentDecidesTheStreamsTable: on the Oracle engine, a created
// table's comment records its stream (COMMENT ON TABLE), the catalog read
// returns it, and a later run's stream whose name conforms alike takes
// the suffixed name instead of writing into the other stream's table
// (SPEC §5.1); the next run of the first stream adopts its table by the
// comment.
func TestTableCommentDecidesTheStreamsTable(t *testing.T) {
	schemaOf := func(stream string) string {
		return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`
	}
	recordOf := func(stream string, id int) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d}}`, stream, id)
	}
	r := defaultRig(t)
	for _, in := range []string{
		schemaOf("日本") + "\n" + recordOf("日本", 1) + "\n",
		schemaOf("中国") + "\n" + recordOf("中国", 2) + "\n",
		schemaOf("日本") + "\n" + recordOf("日本", 3) + "\n",
	} {
		eng := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
		if _, err := run(t, eng, upsertSettings, in); err != nil {
			t.Fatal(err)
		}
		eng.Close()
	}
	if got := r.db.TableComment("DRY_RUN.__"); got != `target-oracle:streams=["\u65e5\u672c"]` {
		t.Errorf("comment of __: %q", got)
	}
	hashed := "DRY_RUN.__" + table.NameHash("中国")
	if got := r.db.TableComment(hashed); got != `target-oracle:streams=["\u4e2d\u56fd"]` {
		t.Errorf("comment of %s: %q", hashed, got)
	}
	if ids := rowIDs(r.db.Rows("DRY_RUN.__")); ids != "1,3" {
		t.Errorf("table __ holds ids %s, want 1,3", ids)
	}
	if ids := rowIDs(r.db.Rows(hashed)); ids != "2" {
		t.Errorf("table %s holds ids %s, want 2", hashed, ids)
	}
	got, err := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{}).Describe(t.Context(), "DRY_RUN", "__")
	if err != nil || got == nil || strings.Join(got.Streams, ",") != "日本" {
		t.Fatalf("Describe: %+v, %v; want the streams of the comment", got, err)
	}
}

func rowIDs(rows []map[string]string) string {
	var ids []string
	for _, r := range rows {
		ids = append(ids, r["ID"])
	}
	return strings.Join(ids, ",")
}

// TestConcurrentCreateForAnotherStream: a CREATE TABLE that finds the
// table made at the same moment by another pipeline for another stream
// (its comment names that stream) fails instead of relabelling it and
// writing into it.
func TestConcurrentCreateForAnotherStream(t *testing.T) {
	r := defaultRig(t)
	tbl := &table.Table{Schema: schemaName, Name: "__", PrimaryKey: []string{"ID"}, Streams: []string{"中国"},
		Columns: []table.Column{prop("ID", integer, false)}}
	other := tbl.Clone()
	other.Streams = []string{"日本"}
	session(t, r, other)
	s := session(t, r)
	err := s.Apply(t.Context(), engine.Change{Table: tbl, Change: table.Change{Kind: table.CreateTable}})
	if err == nil || !strings.Contains(err.Error(), "another run") || !strings.Contains(err.Error(), "日本") {
		t.Fatalf("err = %v, want the table named as another run's", err)
	}
	if got := r.db.TableComment("DRY_RUN.__"); got != `target-oracle:streams=["\u65e5\u672c"]` {
		t.Errorf("comment relabelled: %q", got)
	}
}
