package pipeline_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// --plan: the embedded engine starts from the real catalog (here a stand
// in) and renders only what a run would change: the existing table is
// adopted, a new property becomes ALTER TABLE … ADD, no CREATE.
func TestPlanStartsFromTheCatalog(t *testing.T) {
	existing := &table.Table{Schema: "DRY_RUN", Name: "S", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Source: []string{"id"}, Role: table.RoleProperty},
		{Name: "V", Type: table.Type{Kind: table.KindVarchar, Length: 4000}, Nullable: true, Source: []string{"v"}, Role: table.RoleProperty},
	}}
	catalog := func(_ context.Context, schema, name string) (*table.Table, error) {
		if schema+"."+name == "DRY_RUN.S" {
			return existing, nil
		}
		return nil, nil
	}
	eng := memory.New(memory.Options{Catalog: catalog, Render: oraclesql.New(oraclesql.Options{}), Now: func() time.Time { return fixedNow }})
	cfg := loadConfig(t, `{"add_record_metadata": false}`)
	if _, err := run(t, eng, cfg, input(schemaLine, rec(1, "a"))); err != nil {
		t.Fatal(err)
	}
	sql := strings.Join(eng.Statements(), "\n/\n")
	if strings.Contains(sql, "CREATE TABLE") {
		t.Fatalf("the plan creates a table the catalog has:\n%s", sql)
	}
	if !strings.Contains(sql, `ALTER TABLE "DRY_RUN"."S" ADD ("_SDC_DELETED_AT"`) || !strings.Contains(sql, `MERGE INTO "DRY_RUN"."S"`) {
		t.Fatalf("plan:\n%s", sql)
	}
}

// --plan shows the table each stream gets: a catalog table whose comment
// names another stream is not the plan's target; the plan creates the
// suffixed table with its comment.
func TestPlanShowsTableCollisions(t *testing.T) {
	existing := &table.Table{Schema: "DRY_RUN", Name: "__", PrimaryKey: []string{"ID"}, Streams: []string{"日本"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Source: []string{"id"}, Role: table.RoleProperty},
	}}
	catalog := func(_ context.Context, schema, name string) (*table.Table, error) {
		if schema+"."+name == "DRY_RUN.__" {
			return existing, nil
		}
		return nil, nil
	}
	eng := memory.New(memory.Options{Catalog: catalog, Render: oraclesql.New(oraclesql.Options{}), Now: func() time.Time { return fixedNow }})
	cfg := loadConfig(t, `{"add_record_metadata": false}`)
	if _, err := run(t, eng, cfg, input(streamSchema("中国"), streamRecord("中国", 1, "b"))); err != nil {
		t.Fatal(err)
	}
	sql := strings.Join(eng.Statements(), "\n/\n")
	hashed := `"DRY_RUN"."__` + table.NameHash("中国") + `"`
	for _, want := range []string{"CREATE TABLE " + hashed, "COMMENT ON TABLE " + hashed + ` IS 'target-oracle:streams=["\u4e2d\u56fd"]'`, "MERGE INTO " + hashed} {
		if !strings.Contains(sql, want) {
			t.Errorf("plan lacks %s:\n%s", want, sql)
		}
	}
	if strings.Contains(sql, `"DRY_RUN"."__" `) {
		t.Errorf("the plan writes to the other stream's table:\n%s", sql)
	}
}
