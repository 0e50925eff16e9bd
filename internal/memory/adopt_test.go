package memory_test

import (
	"context"
	"errors"
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
// runOnCatalog runs input through the pipeline into the embedded engine
// over a catalog that holds dba (as --plan does on a real database's
// table) and returns the engine and the run's error.
func runOnCatalog(t *testing.T, dba *table.Table, input string) (*memory.Engine, error) {
	t.Helper()
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
	var out strings.Builder
	err = pipeline.Run(context.Background(), pipeline.Options{
		Config: cfg, Engine: eng, Input: strings.NewReader(input), StateOut: &out, Now: now,
		Server: pipeline.Server{DefaultSchema: "DRY_RUN", IdentifierMaxBytes: 128, VarcharMaxBytes: 4000},
	})
	return eng, err
}

func TestPlanOnADBATable(t *testing.T) {
	dba := &table.Table{Schema: "DRY_RUN", Name: "S", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "SEQ_NO", Type: table.Type{Kind: table.KindNumber}, Fill: table.FillIdentityAlways},
		{Name: "TOUCHED", Type: table.Type{Kind: table.KindVarchar, Length: 10}, Fill: table.FillDefaultOnNull},
	}}
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"touched":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"touched":null}}
`
	eng, err := runOnCatalog(t, dba, input)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if rows := eng.Rows("DRY_RUN.S"); len(rows) != 1 || rows[0]["ID"] != "1" {
		t.Errorf("rows %v, want the one record", rows)
	}
}

// TestPlanRefusesARewriteOverTheDBAsObjects: the embedded engine on a
// real catalog's table refuses the rewrite the Oracle engine refuses (the
// plan both share): column V has a DBA's unique index and a DEFAULT,
// which the rewrite's SET UNUSED and new column would lose.
func TestPlanRefusesARewriteOverTheDBAsObjects(t *testing.T) {
	dba := &table.Table{Schema: "DRY_RUN", Name: "S", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "V", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Nullable: true, Fill: table.FillDefault,
			Dependents: []table.Dependent{{Kind: table.DependentIndex, Name: "S_V_UQ"}}},
	}}
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}
`
	eng, err := runOnCatalog(t, dba, input)
	var ee *table.EvolutionError
	if !errors.As(err, &ee) {
		t.Fatalf("run: %v, want a schema_evolution refusal", err)
	}
	for _, w := range []string{`column "V"`, `index "S_V_UQ"`, "its DEFAULT"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the refusal does not say %q: %v", w, err)
		}
	}
	if rows := eng.Rows("DRY_RUN.S"); len(rows) != 0 {
		t.Errorf("rows %v, want none", rows)
	}
}
