package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// TestTryLoadRollsBack: the embedded engine's TryLoad (engine.Trier)
// reports what Load would, row-level codes classified, and leaves the
// tables as they were.
func TestTryLoadRollsBack(t *testing.T) {
	ctx := context.Background()
	tb := &table.Table{Schema: "S", Name: "T", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "V", Type: table.Type{Kind: table.KindVarchar, Length: 3}},
	}}
	e := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return time.Unix(0, 0) }})
	s, err := e.Session(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, engine.Change{Table: tb, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatal(err)
	}
	write := func(m engine.Method, rows ...engine.Row) []engine.Step {
		return []engine.Step{&engine.Write{Table: tb, Method: m, Columns: []string{"ID", "V"}, KeyColumns: []string{"ID"}, Rows: rows}}
	}
	if _, err := s.Load(ctx, write(engine.Insert, engine.Row{Line: 1, Values: []string{"1", "a"}})); err != nil {
		t.Fatal(err)
	}
	tr := s.(engine.Trier)
	for _, c := range []struct {
		name  string
		steps []engine.Step
		code  int // row-level code, 0: success
	}{
		{"fits", write(engine.Upsert, engine.Row{Line: 2, Values: []string{"2", "b"}}), 0},
		{"NOT NULL", write(engine.Upsert, engine.Row{Line: 2, Values: []string{"2", "b"}}, engine.Row{Line: 3, Values: []string{"3", ""}}), 1400},
		{"too long", write(engine.Upsert, engine.Row{Line: 2, Values: []string{"2", "long"}}), 12899},
		{"duplicate key on INSERT", write(engine.Insert, engine.Row{Line: 2, Values: []string{"1", "b"}}), 1},
	} {
		err := tr.TryLoad(ctx, c.steps)
		if got := engine.RowErrorCode(err); got != c.code || (c.code == 0) != (err == nil) {
			t.Errorf("%s: err %v (row-level code %d), want code %d", c.name, err, got, c.code)
		}
	}
	if rows := e.Rows("S.T"); len(rows) != 1 || rows[0]["ID"] != "1" || rows[0]["V"] != "a" {
		t.Errorf("rows after the trials: %v, want the one loaded", rows)
	}
}
