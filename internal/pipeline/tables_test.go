package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

var errKilled = errors.New("killed")

// halfMigrationInputs are the three runs of the stale-copy scenario: the
// first loads seven rows with an integer C, then a SCHEMA makes C text (a
// rewrite migration); the second loads new values for the same keys
// under the old schema, which needs no migration; the third sends the
// text schema again.
func halfMigrationInputs() (first, second, third string) {
	v1 := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":["null","integer"]}}}}`
	v2 := `{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"c":{"type":["null","string"],"maxLength":40}}}}`
	rows := func(factor int) string {
		var b strings.Builder
		for i := 1; i <= 7; i++ {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":"m","record":{"id":%d,"c":%d}}`+"\n", i, i*factor)
		}
		return b.String()
	}
	return v1 + "\n" + rows(10) + v2 + "\n", v1 + "\n" + rows(100), v2 + "\n"
}

// TestHalfDoneMigrationIsFinishedBeforeWrites: on the embedded engine's
// persistent store, a run stops after the first committed chunk of a
// rewrite migration; the next run, which needs no migration, finds the
// migration finished before it writes (SPEC §5.5), and every row ends
// with the newest value after a third run.
func TestHalfDoneMigrationIsFinishedBeforeWrites(t *testing.T) {
	first, second, third := halfMigrationInputs()
	store := filepath.Join(t.TempDir(), "store.json")
	open := func(hooks memory.Hooks) *memory.Engine {
		t.Helper()
		e, err := memory.Open(memory.Options{StorePath: store, MigrationChunkRows: 3, Hooks: hooks, Now: func() time.Time { return fixedNow }})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	kill := memory.Hooks{Chunk: func(_ engine.Change, n int) error {
		if n == 2 {
			return errKilled
		}
		return nil
	}}
	if _, err := run(t, open(kill), loadConfig(t, ""), first); !errors.Is(err, errKilled) {
		t.Fatalf("first run: err = %v, want the stop after the first chunk", err)
	}
	if got := columnNames(open(memory.Hooks{}).Tables()["DRY_RUN.M"]); !strings.Contains(got, "C$M") {
		// Tables does not finish the migration; Describe does.
		t.Fatalf("the first run left no half-done migration: %s", got)
	}
	for i, in := range []string{second, third} {
		if _, err := run(t, open(memory.Hooks{}), loadConfig(t, ""), in); err != nil {
			t.Fatalf("run %d: %v", i+2, err)
		}
		// The second run needs no migration; it finishes the one left
		// before its first write all the same.
		if got := columnNames(open(memory.Hooks{}).Tables()["DRY_RUN.M"]); strings.Contains(got, "$M") {
			t.Fatalf("after run %d a marker column is left: %s", i+2, got)
		}
	}
	e := open(memory.Hooks{})
	if got := columnNames(e.Tables()["DRY_RUN.M"]); strings.Contains(got, "$M") {
		t.Errorf("a marker column is left: %s", got)
	}
	rows := e.Rows("DRY_RUN.M")
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

// columnNames lists a table's columns, space-separated.
func columnNames(t *table.Table) string {
	if t == nil {
		return "(no table)"
	}
	var names []string
	for _, c := range t.Columns {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

// fullSchema is a SCHEMA of n properties p0 … p(n-1), key p0, all
// integers but those listed as strings.
func fullSchema(n int, strs ...int) string {
	var b strings.Builder
	b.WriteString(`{"type":"SCHEMA","stream":"full","key_properties":["p0"],"schema":{"type":"object","properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		typ := "integer"
		for _, s := range strs {
			if s == i {
				typ = "string"
			}
		}
		fmt.Fprintf(&b, `"p%d":{"type":["null","%s"]}`, i, typ)
	}
	b.WriteString(`}}}`)
	return b.String()
}

// TestRewriteOnFullTableRefusedBeforeItStarts: a rewrite migration on a
// table of 1000 columns needs a 1001st, temporary one: it is refused
// before any change (exit 3, the line and stream, the manual procedure;
// SPEC §5.2), and the table is as it was. The same holds for a column
// added to a table whose UNUSED columns (left by migrations) fill the
// limit.
func TestRewriteOnFullTableRefusedBeforeItStarts(t *testing.T) {
	cfg := loadConfig(t, `{"add_record_metadata": false}`)
	rec := `{"type":"RECORD","stream":"full","record":{"p0":1}}`
	for _, c := range []struct {
		name          string
		before, after string
		want          []string
	}{
		{"rewrite", fullSchema(1000), fullSchema(1000, 1),
			[]string{"1001 columns", "temporary column", `SET UNUSED ("P1")`, "DROP UNUSED COLUMNS"}},
		{"add after a rewrite", fullSchema(999) + "\n" + rec + "\n" + fullSchema(999, 1), fullSchema(1000, 1),
			[]string{"1001 columns", "1 UNUSED left", "DROP UNUSED COLUMNS CHECKPOINT"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, cfg, input(c.before, rec)); err != nil {
				t.Fatal(err)
			}
			before := eng.Tables()["DRY_RUN.FULL"]
			_, err := run(t, eng, cfg, input(c.after, rec))
			wantInputError(t, err, c.want[0])
			for _, w := range c.want[1:] {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if !strings.Contains(err.Error(), `stream "full"`) && !strings.Contains(err.Error(), "full") {
				t.Errorf("error does not name the stream: %v", err)
			}
			after := eng.Tables()["DRY_RUN.FULL"]
			if columnNames(after) != columnNames(before) || after.Column("P1").Type != before.Column("P1").Type {
				t.Errorf("the table changed: P1 %s, was %s", after.Column("P1").Type, before.Column("P1").Type)
			}
		})
	}
}

func streamSchema(stream string) string {
	return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`
}

func streamRecord(stream string, id int, v string) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"v":%q}}`, stream, id, v)
}

// tablesOfStreams maps each table of eng to the v values of its rows,
// "table:v1,v2".
func tablesOfStreams(eng *memory.Engine) string {
	var out []string
	for q := range eng.Tables() {
		var vs []string
		for _, r := range eng.Rows(q) {
			vs = append(vs, r["V"])
		}
		out = append(out, q+":"+strings.Join(vs, ","))
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestStreamsWhoseNamesConformAlikeNeverShareATable: two streams whose
// generated names conform to one table name get two tables (SPEC §5.1):
// the first in the input keeps the name, the other takes the name cut and
// suffixed with the hash of its own name; each table's comment records
// its stream, so later runs decide by comment, whatever the order or the
// streams present; with several workers the outcome is the same on every
// run.
func TestStreamsWhoseNamesConformAlikeNeverShareATable(t *testing.T) {
	hashed := func(base, stream string) string { return "DRY_RUN." + base + table.NameHash(stream) }
	for _, c := range []struct {
		a, b, base string
	}{
		{"日本", "中国", "__"},
		{"public-orders", "public_orders", "PUBLIC_ORDERS"},
	} {
		t.Run(c.a+"/"+c.b, func(t *testing.T) {
			want := fmt.Sprintf("DRY_RUN.%s:a1,a2 %s:b1", c.base, hashed(c.base, c.b))
			both := input(streamSchema(c.a), streamSchema(c.b), streamRecord(c.a, 1, "a1"), streamRecord(c.b, 1, "b1"), streamRecord(c.a, 2, "a2"))
			for i := 0; i < 20; i++ {
				eng := newEngine()
				if _, err := run(t, eng, loadConfig(t, `{"max_parallelism": 4, "batch_size_rows": 1}`), both); err != nil {
					t.Fatal(err)
				}
				if got := tablesOfStreams(eng); got != want {
					t.Fatalf("run %d: tables %s, want %s", i, got, want)
				}
				if s := eng.Tables()["DRY_RUN."+c.base].Streams; !slices.Equal(s, []string{c.a}) {
					t.Fatalf("table %s records streams %q", c.base, s)
				}
			}
			var log bytes.Buffer
			o := runOptions(loadConfig(t, ""), newEngine(), both, io.Discard)
			o.Log = slog.New(slog.NewTextHandler(&log, nil))
			err := pipeline.Run(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"table name collision", fmt.Sprintf("stream=%s", c.b), fmt.Sprintf("stream %q of this run", c.a), hashed(c.base, c.b)} {
				if !strings.Contains(log.String(), strings.ReplaceAll(w, `"`, `\"`)) { // quotes escaped in a quoted value
					t.Errorf("the log lacks %s:\n%s", w, log.String())
				}
			}
			// Across runs (each a new process on the persistent test
			// store): the first stream alone, then the second alone (the
			// comment names the first, absent now), then both in the other
			// order: the same two tables.
			store := filepath.Join(t.TempDir(), "store.json")
			var eng *memory.Engine
			for _, in := range []string{
				input(streamSchema(c.a), streamRecord(c.a, 1, "a1")),
				input(streamSchema(c.b), streamRecord(c.b, 1, "b1")),
				input(streamSchema(c.b), streamSchema(c.a), streamRecord(c.b, 1, "b1"), streamRecord(c.a, 2, "a2")),
			} {
				var err error
				if eng, err = memory.Open(memory.Options{StorePath: store, Now: func() time.Time { return fixedNow }}); err != nil {
					t.Fatal(err)
				}
				if _, err := run(t, eng, loadConfig(t, ""), in); err != nil {
					t.Fatal(err)
				}
			}
			if got := tablesOfStreams(eng); got != want {
				t.Fatalf("after three runs: tables %s, want %s", got, want)
			}
		})
	}
}

// TestTableNameRulesOfAdoption: a table without a target-oracle comment
// is adopted by name; a table whose comment names another stream is
// never taken by a generated name, but a mapping uses it verbatim and
// shares it deliberately; collisions are per schema.
func TestTableNameRulesOfAdoption(t *testing.T) {
	eng := newEngine()
	sess, err := eng.Session(t.Context(), "test")
	if err != nil {
		t.Fatal(err)
	}
	legacy := &table.Table{Schema: "DRY_RUN", Name: "LEGACY", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "V", Type: table.Type{Kind: table.KindVarchar, Length: 4000}, Nullable: true},
	}}
	if err := sess.Apply(t.Context(), engine.Change{Table: legacy, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatal(err)
	}
	cfg := `{"add_record_metadata": false}`
	if _, err := run(t, eng, loadConfig(t, cfg), input(streamSchema("legacy"), streamRecord("legacy", 1, "l1"),
		streamSchema("owned"), streamRecord("owned", 1, "o1"))); err != nil {
		t.Fatal(err)
	}
	mapped := loadConfig(t, `{"add_record_metadata": false, "table_name_mappings": {"other": "OWNED"}}`)
	if _, err := run(t, eng, mapped, input(streamSchema("other"), streamRecord("other", 2, "x2"), streamSchema("OWNED"), streamRecord("OWNED", 3, "y3"))); err != nil {
		t.Fatal(err)
	}
	other := loadConfig(t, `{"add_record_metadata": false, "default_target_schema": "ELSEWHERE"}`)
	if _, err := run(t, eng, other, input(streamSchema("Owned"), streamRecord("Owned", 4, "z4"))); err != nil {
		t.Fatal(err)
	}
	want := "DRY_RUN.LEGACY:l1 DRY_RUN.OWNED:o1,x2 DRY_RUN.OWNED" + table.NameHash("OWNED") + ":y3 ELSEWHERE.OWNED:z4"
	if got := tablesOfStreams(eng); got != want {
		t.Fatalf("tables %s, want %s", got, want)
	}
}

// TestStreamKeepsItsSuffixedTable: a stream whose table got the suffixed
// name in an earlier run (its generated name was another stream's) keeps
// it when the generated name is free again: the comment decides.
func TestStreamKeepsItsSuffixedTable(t *testing.T) {
	eng := newEngine()
	sess, err := eng.Session(t.Context(), "test")
	if err != nil {
		t.Fatal(err)
	}
	own := &table.Table{Schema: "DRY_RUN", Name: "__" + table.NameHash("中国"), PrimaryKey: []string{"ID"}, Streams: []string{"中国"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Role: table.RoleProperty, Source: []string{"id"}},
		{Name: "V", Type: table.Type{Kind: table.KindVarchar, Length: 4000}, Nullable: true, Role: table.RoleProperty, Source: []string{"v"}},
	}}
	if err := sess.Apply(t.Context(), engine.Change{Table: own, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, eng, loadConfig(t, `{"add_record_metadata": false}`), input(streamSchema("中国"), streamRecord("中国", 1, "b1"))); err != nil {
		t.Fatal(err)
	}
	if got, want := tablesOfStreams(eng), "DRY_RUN."+own.Name+":b1"; got != want {
		t.Fatalf("tables %s, want %s", got, want)
	}
}
