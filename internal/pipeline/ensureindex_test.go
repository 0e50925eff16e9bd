package pipeline_test

import (
	"context"
	"io"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// TestCustomIndexAddedLaterOnTheEmbeddedEngine: a custom_indexes entry
// added after the table exists is created on the next run (table.AddIndex,
// recorded on the embedded engine's table), and the run after that makes
// no DDL.
func TestCustomIndexAddedLaterOnTheEmbeddedEngine(t *testing.T) {
	var kinds []table.ChangeKind
	eng := memory.New(memory.Options{KeepRows: true, Hooks: memory.Hooks{Apply: func(ch engine.Change) error {
		kinds = append(kinds, ch.Change.Kind)
		return nil
	}}})
	in := `{"type":"SCHEMA","stream":"items","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"sku":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"items","record":{"id":1,"sku":"a"}}
`
	indexed := `{"custom_indexes": {"items": [{"columns": ["sku"], "unique": true}]}}`
	for i, settings := range []string{`{}`, indexed, indexed} {
		kinds = nil
		if err := pipeline.Run(context.Background(), runOptions(loadConfig(t, settings), eng, in, io.Discard)); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		switch i {
		case 1:
			if len(kinds) != 1 || kinds[0] != table.AddIndex {
				t.Errorf("run 2 changes %v, want one add index", kinds)
			}
		case 2:
			if len(kinds) != 0 {
				t.Errorf("run 3 changes %v, want none", kinds)
			}
		}
	}
	var tbl *table.Table
	for _, tb := range eng.Tables() {
		tbl = tb
	}
	if tbl == nil || len(tbl.Indexes) != 1 || !tbl.Indexes[0].Unique || tbl.Indexes[0].Columns[0] != "SKU" {
		t.Fatalf("table %+v, want one UNIQUE index on SKU", tbl)
	}
}
