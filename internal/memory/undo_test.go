package memory

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// A failed Load leaves every table as it was, whatever it did before the
// failure: rows updated, soft- and hard-deleted, inserted, the table
// emptied by a Replace. The engine changes tables in place with an undo
// log (undo.go), so this is what proves the log complete. With spilled
// rows (a dump run, spill.go) the rows the failed Load warmed come back
// as they were, and the rows on disk stay where they are.
func TestFailedLoadRollsBack(t *testing.T) {
	def := func(pk bool) *table.Table {
		d := &table.Table{Schema: "S", Name: "T", Columns: []table.Column{
			{Name: "ID", Type: table.Type{Kind: table.KindNumber}},
			{Name: "V", Type: table.Type{Kind: table.KindVarchar, Length: 100}, Nullable: true},
			{Name: "_SDC_DELETED_AT", Type: table.Type{Kind: table.KindVarchar, Length: 100}, Nullable: true},
		}}
		if pk {
			d.PrimaryKey = []string{"ID"}
		}
		return d
	}
	row := func(kind engine.RowKind, id int, v string) engine.Row {
		return engine.Row{Kind: kind, Line: int64(id), Values: []string{fmt.Sprint(id), v, ""}}
	}
	write := func(d *table.Table, m engine.Method, rows ...engine.Row) *engine.Write {
		return &engine.Write{Table: d, Method: m, Columns: []string{"ID", "V", "_SDC_DELETED_AT"}, Rows: rows,
			KeyColumns: []string{"ID"}, MetadataColumns: []string{"_SDC_DELETED_AT"}}
	}
	soft := engine.Row{Kind: engine.RowSoftDelete, Line: 9, Values: []string{"2", "", "2025-01-01T00:00:00Z"}}
	for _, pk := range []bool{true, false} {
		d := def(pk)
		cases := []struct {
			name  string
			steps []engine.Step
		}{
			{"update, delete, insert", []engine.Step{write(d, engine.Upsert, row(0, 1, "changed"), row(engine.RowHardDelete, 3, ""), row(0, 7, "new")), write(d, engine.Upsert, soft)}},
			{"insert", []engine.Step{write(d, engine.Insert, row(0, 8, "a"), row(0, 9, "b"))}},
			{"replace then insert", []engine.Step{&engine.Replace{Table: d}, write(d, engine.Insert, row(0, 1, "only"))}},
			{"keep keys, delete missing", []engine.Step{
				&engine.KeepKeys{Table: d, KeyColumns: []string{"ID"}, Rows: []engine.Row{{Values: []string{"1"}}}, RunColumn: "V", RunID: "run"},
				&engine.DeleteMissing{Table: d, RunColumn: "V", RunID: "run", DeletedColumn: "_SDC_DELETED_AT", At: "2025-01-01T00:00:00Z", MaxFraction: 1}}},
			{"delete missing, hard", []engine.Step{&engine.DeleteMissing{Table: d, RunColumn: "V", RunID: "run", Hard: true, MaxFraction: 1}}},
			{"two writes", []engine.Step{write(d, engine.Upsert, row(0, 2, "x")), write(d, engine.Upsert, row(0, 2, "y"), row(engine.RowHardDelete, 1, ""))}},
		}
		for _, c := range cases {
			for _, spill := range []bool{false, true} {
				t.Run(fmt.Sprintf("pk %v, spill %v, %s", pk, spill, c.name), func(t *testing.T) {
					boom := errors.New("commit failed")
					fail := false
					o := Options{KeepRows: true, Hooks: Hooks{Commit: func([]engine.Step) error {
						if fail {
							return boom
						}
						return nil
					}}}
					if spill {
						o.DumpDir = t.TempDir()
					}
					e := New(o)
					t.Cleanup(func() { e.Close() })
					e.tables["S.T"] = newMemTable(d, true, e.spillFile())
					if spill && e.spill == nil {
						t.Fatal("no spill file")
					}
					ctx := context.Background()
					s, err := e.Session(ctx, "s")
					if err != nil {
						t.Fatal(err)
					}
					if _, err := s.Load(ctx, []engine.Step{write(d, engine.Upsert, row(0, 1, "one"), row(0, 2, "two"), row(0, 3, "three"))}); err != nil {
						t.Fatal(err)
					}
					var before []map[string]string // copies: Rows returns the table's own maps
					for _, r := range e.Rows("S.T") {
						before = append(before, maps.Clone(r))
					}
					fail = true
					if _, err := s.Load(ctx, c.steps); !errors.Is(err, boom) {
						t.Fatalf("load: %v, want the commit failure", err)
					}
					if got := e.Rows("S.T"); !reflect.DeepEqual(got, before) {
						t.Fatalf("after the failed load\n got %v\nwant %v", got, before)
					}
					fail = false // the table still works: its key index was rebuilt
					if _, err := s.Load(ctx, []engine.Step{write(d, engine.Upsert, row(0, 2, "again"))}); err != nil {
						t.Fatal(err)
					}
					if got := e.Rows("S.T"); len(got) != 3 || got[1]["V"] != "again" {
						t.Fatalf("after a load that succeeded: %v", got)
					}
				})
			}
		}
	}
}
