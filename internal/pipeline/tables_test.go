package pipeline_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
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
