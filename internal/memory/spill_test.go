package memory

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// UpdateDumps rewrites testdata/dumps from the current code (go test
// -update): TestDumpGolden and TestSpilledRowsMatchKeptRows compare dumps
// with the ones recorded there.
var UpdateDumps = flag.Bool("update", false, "rewrite testdata/dumps from the current code")

// TestSpilledRowsMatchKeptRows runs the same random loads on two dump
// engines, one keeping its rows as maps, one spilling committed rows to
// disk (spill.go): upserts of new and existing keys, inserts, hard and
// soft deletes, ACTIVATE_VERSION, Replace, failed and trial loads, an
// added column and a widened one, into a table with a primary key and one
// without. After every step both hold the same rows, and their dumps are
// the same bytes, which are the bytes recorded in testdata/dumps/steps-N
// before the rows moved to a compact form (issue 18).
func TestSpilledRowsMatchKeptRows(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			kept, spilled := newDumpPair(t)
			ctx := context.Background()
			defs := map[string]*table.Table{}
			for _, pk := range []bool{true, false} {
				d := spillTable(pk)
				defs[d.QualifiedName()] = d
				for _, e := range []*Engine{kept, spilled} {
					apply(t, e, engine.Change{Table: d, Change: table.Change{Kind: table.CreateTable}})
				}
			}
			for step := range 120 {
				for _, name := range slices.Sorted(maps.Keys(defs)) { // one order: the recorded dumps depend on it
					d := defs[name]
					steps := randomSteps(rng, d, step)
					fail := rng.IntN(8) == 0
					try := rng.IntN(10) == 0
					var errs [2]error
					for i, e := range []*Engine{kept, spilled} {
						errs[i] = runSteps(ctx, e, steps, fail, try)
					}
					if (errs[0] == nil) != (errs[1] == nil) {
						t.Fatalf("step %d %s: kept engine %v, spilling engine %v", step, name, errs[0], errs[1])
					}
					if a, b := kept.Rows(name), spilled.Rows(name); !reflect.DeepEqual(a, b) {
						t.Fatalf("step %d %s: rows differ\nkept    %v\nspilled %v", step, name, a, b)
					}
				}
				if step == 60 {
					for name, d := range defs { // schema evolution mid-run
						n := d.Clone()
						n.Columns = append(n.Columns, table.Column{Name: "EXTRA", Type: table.Type{Kind: table.KindVarchar, Length: 10}, Nullable: true})
						n.Columns[1].Type.Length = 200
						for _, e := range []*Engine{kept, spilled} {
							apply(t, e, engine.Change{Table: n, Change: table.Change{Kind: table.AddColumn, Column: "EXTRA"}})
						}
						defs[name] = n
					}
				}
			}
			if spilled.spill == nil || spilled.spill.size == 0 {
				t.Fatal("the spilling engine wrote nothing to disk")
			}
			for _, e := range []*Engine{kept, spilled} {
				if err := e.Close(); err != nil {
					t.Fatal(err)
				}
			}
			for name := range defs {
				f := filepath.Join("tables", DumpFileName(name))
				a, err := os.ReadFile(filepath.Join(kept.opts.DumpDir, f))
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(spilled.opts.DumpDir, f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a, b) {
					t.Errorf("%s: dumps differ (%d and %d bytes)", f, len(a), len(b))
				}
				golden := filepath.Join("testdata", "dumps", fmt.Sprint("steps-", seed), f)
				if *UpdateDumps {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, b, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(b, want) {
					t.Errorf("%s: the dump is not the one recorded in %s (%v)", f, golden, err)
				}
			}
		})
	}
}

var errCommit = errors.New("commit refused")

// failNext makes the Commit hook of the engines newDumpPair returns fail.
var failNext = map[*Engine]bool{}

// newDumpPair returns two dump engines whose Commit hook fails while
// failNext says so; the first keeps its rows in memory.
func newDumpPair(t *testing.T) (kept, spilled *Engine) {
	mk := func() *Engine {
		var e *Engine
		e = New(Options{DumpDir: filepath.Join(t.TempDir(), "dump"), Hooks: Hooks{Commit: func([]engine.Step) error {
			if failNext[e] {
				return errCommit
			}
			return nil
		}}})
		return e
	}
	kept, spilled = mk(), mk()
	kept.noSpill = true
	t.Cleanup(func() { spilled.spill.close() })
	return kept, spilled
}

func apply(t *testing.T, e *Engine, ch engine.Change) {
	t.Helper()
	s, _ := e.Session(context.Background(), "s")
	if err := s.Apply(context.Background(), ch); err != nil {
		t.Fatal(err)
	}
}

func runSteps(ctx context.Context, e *Engine, steps []engine.Step, fail, try bool) error {
	s, _ := e.Session(ctx, "s")
	if try {
		return s.(engine.Trier).TryLoad(ctx, steps)
	}
	failNext[e] = fail
	defer delete(failNext, e)
	_, err := s.Load(ctx, steps)
	if fail && !errors.Is(err, errCommit) {
		return fmt.Errorf("want the commit failure, got %v", err)
	}
	if fail {
		return nil
	}
	return err
}

func spillTable(pk bool) *table.Table {
	d := &table.Table{Schema: "S", Name: "NOKEY", Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber}},
		{Name: "V", Type: table.Type{Kind: table.KindVarchar, Length: 100}, Nullable: true},
		{Name: "_SDC_DELETED_AT", Type: table.Type{Kind: table.KindVarchar, Length: 100}, Nullable: true},
		{Name: "_SDC_TABLE_VERSION", Type: table.Type{Kind: table.KindNumber}, Nullable: true},
	}}
	if pk {
		d.Name, d.PrimaryKey = "KEYED", []string{"ID"}
	}
	return d
}

// randomSteps is one batch: mostly writes, sometimes a table-wide step.
func randomSteps(rng *rand.Rand, d *table.Table, step int) []engine.Step {
	cols := make([]string, len(d.Columns))
	for i, c := range d.Columns {
		cols[i] = c.Name
	}
	version := fmt.Sprint(step / 30)
	row := func(kind engine.RowKind, id int) engine.Row {
		vals := make([]string, len(cols))
		vals[0] = fmt.Sprint(id)
		if kind == engine.RowUpsert {
			vals[1] = fmt.Sprintf("v%d.%d", id, rng.IntN(1000))
			vals[3] = version
			if len(vals) > 4 && rng.IntN(2) == 0 {
				vals[4] = "x"
			}
		}
		if kind == engine.RowSoftDelete {
			vals[2] = "2025-01-01T00:00:00Z"
		}
		return engine.Row{Kind: kind, Line: int64(id), Values: vals}
	}
	switch rng.IntN(20) {
	case 0:
		return []engine.Step{&engine.DeleteVersions{Table: d, Version: version, Hard: rng.IntN(2) == 0, At: "2025-01-01T00:00:00Z",
			VersionColumn: "_SDC_TABLE_VERSION", DeletedColumn: "_SDC_DELETED_AT"}}
	case 1:
		return []engine.Step{&engine.Replace{Table: d}}
	}
	w := &engine.Write{Table: d, Method: engine.Upsert, Columns: cols, KeyColumns: []string{"ID"}, MetadataColumns: []string{"_SDC_DELETED_AT"}}
	if len(d.PrimaryKey) == 0 && rng.IntN(2) == 0 {
		w.Method = engine.Insert
	}
	seen := map[int]bool{}
	for range 1 + rng.IntN(12) {
		id := rng.IntN(60)
		if seen[id] {
			continue // one row per key in a batch, as the loader collapses them
		}
		seen[id] = true
		kind := engine.RowUpsert
		switch n := rng.IntN(10); {
		case w.Method == engine.Insert && n > 0:
		case n == 0:
			kind = engine.RowHardDelete
		case n == 1:
			kind = engine.RowSoftDelete
		}
		w.Rows = append(w.Rows, row(kind, id))
	}
	return []engine.Step{w}
}
