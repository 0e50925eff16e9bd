package pipeline_test

import (
	"errors"
	"strings"

	"context"
	"github.com/target-oracle/target-oracle/internal/inputerr"
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

// A value too long for an indexed VARCHAR2 column fails its batch (the
// column would become a LOB, which drops the index): the error names the
// line of the first record whose value needs the LOB, not the batch's
// first line, and no state passes the batch.
func TestIndexedColumnWideningNamesTheRecordsLine(t *testing.T) {
	long := strings.Repeat("x", 5000)
	in := input(
		`{"type":"SCHEMA","stream":"items","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"sku":{"type":["null","string"],"maxLength":100}}}}`,
		`{"type":"RECORD","stream":"items","record":{"id":1,"sku":"a"}}`,
		`{"type":"STATE","value":{"b":1}}`,
		`{"type":"RECORD","stream":"items","record":{"id":2,"sku":"b"}}`,
		`{"type":"RECORD","stream":"items","record":{"id":3,"sku":"c"}}`,
		`{"type":"SCHEMA","stream":"items","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"sku":{"type":["null","string"]}}}}`,
		`{"type":"RECORD","stream":"items","record":{"id":4,"sku":"d"}}`,
		`{"type":"RECORD","stream":"items","record":{"id":5,"sku":"`+long+`"}}`,
		`{"type":"RECORD","stream":"items","record":{"id":6,"sku":"`+long+`"}}`,
		`{"type":"STATE","value":{"b":2}}`,
	)
	cfg := loadConfig(t, `{"custom_indexes": {"items": [{"columns": ["sku"], "unique": true}]}}`)
	states, err := run(t, newEngine(), cfg, in)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 8 || !strings.Contains(err.Error(), "ORA-02327") || !strings.Contains(err.Error(), `"SKU"`) {
		t.Errorf("error %v, want an input error of line 8 naming SKU and ORA-02327", err)
	}
	if len(states) != 1 || states[0] != `{"b":1}` {
		t.Errorf("states %q, want only {\"b\":1}", states)
	}
}
