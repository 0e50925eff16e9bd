package memory_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// TestPlanOnADBATable: the embedded engine on a real catalog's table (as
// --plan runs it) treats the database-filled columns as Oracle does: a
// NULL bound to a NOT NULL DEFAULT ON NULL column takes the default, and
// the identity the schema does not fill is left to the database.
func TestPlanOnADBATable(t *testing.T) {
	dba := &table.Table{Schema: "DRY_RUN", Name: "S", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "SEQ_NO", Type: table.Type{Kind: table.KindNumber}, Fill: table.FillIdentityAlways},
		{Name: "TOUCHED", Type: table.Type{Kind: table.KindVarchar, Length: 10}, Fill: table.FillDefaultOnNull},
	}}
	catalog := func(_ context.Context, schema, name string) (*table.Table, error) {
		if schema+"."+name == dba.QualifiedName() {
			return dba.Clone(), nil
		}
		return nil, nil
	}
	cfg, _, err := config.Load(config.Sources{})
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
	eng := memory.New(memory.Options{KeepRows: true, Now: now, Catalog: catalog})
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"touched":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"touched":null}}
`
	var out strings.Builder
	err = pipeline.Run(context.Background(), pipeline.Options{
		Config: cfg, Engine: eng, Input: strings.NewReader(input), StateOut: &out, Now: now,
		Server: pipeline.Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if rows := eng.Rows("DRY_RUN.S"); len(rows) != 1 || rows[0]["ID"] != "1" {
		t.Errorf("rows %v, want the one record", rows)
	}
}
