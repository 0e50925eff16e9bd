package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// noTypeSchema is test_no_type.singer's shape (target-postgres
// conformance): scalars, objects and arrays in properties without a type.
const noTypeSchema = `{"type":"SCHEMA","stream":"no_type","key_properties":["Id"],"schema":{"type":"object","properties":{` +
	`"Id":{"type":"string"},"OldValue":{},"NewValue":{},"Os":{"type":["object","string","null"]},"Obj":{"type":["object","null"]}}}}`

// TestScalarsInUntypedPropertiesOn19c: on a server without RFC 8259
// (19c, the dry run's default) an untyped property's scalars load as JSON
// text into a CLOB without the IS JSON check, which Oracle would refuse
// them with (ORA-02290); an object-only property keeps the check. A table
// an earlier version made with the check keeps it: objects still load, a
// scalar fails naming the column and the fix.
func TestScalarsInUntypedPropertiesOn19c(t *testing.T) {
	cfg := loadConfig(t, `{"add_record_metadata": false}`)
	eng := newEngine()
	in := input(noTypeSchema,
		`{"type":"RECORD","stream":"no_type","record":{"Id":"a","OldValue":10.0,"NewValue":"2023-07-14","Os":"plain","Obj":{"x":1}}}`,
		`{"type":"RECORD","stream":"no_type","record":{"Id":"b","OldValue":true,"NewValue":[1.0,2.0],"Os":{"a":1},"Obj":null}}`,
		`{"type":"RECORD","stream":"no_type","record":{"Id":"c","OldValue":{"x":1},"NewValue":null,"Os":null,"Obj":null}}`)
	if _, err := run(t, eng, cfg, in); err != nil {
		t.Fatal(err)
	}
	tb := eng.Tables()["DRY_RUN.NO_TYPE"]
	text := table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true}
	for name, want := range map[string]table.Type{"OLDVALUE": text, "NEWVALUE": text, "OS": text,
		"OBJ": {Kind: table.KindJSON, JSONAsClob: true}} {
		if c := tb.Column(name); c == nil || c.Type != want {
			t.Errorf("column %s: %+v, want %+v", name, c, want)
		}
	}
	rows := eng.Rows("DRY_RUN.NO_TYPE")
	if len(rows) != 3 || rows[0]["OLDVALUE"] != "10.0" || rows[0]["NEWVALUE"] != `"2023-07-14"` || rows[0]["OS"] != `"plain"` ||
		rows[1]["OLDVALUE"] != "true" || rows[1]["NEWVALUE"] != "[1.0,2.0]" || rows[1]["OS"] != `{"a":1}` || rows[2]["OLDVALUE"] != `{"x":1}` {
		t.Errorf("rows %v", rows)
	}

	// An earlier version's table: CLOB IS JSON on the untyped column.
	old := newEngine()
	s, err := old.Session(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	checked := &table.Table{Schema: "DRY_RUN", Name: "NO_TYPE", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindVarchar, Length: 4000}, Role: table.RoleProperty, Source: []string{"Id"}},
		{Name: "OLDVALUE", Type: table.Type{Kind: table.KindJSON, JSONAsClob: true}, Nullable: true, Role: table.RoleProperty, Source: []string{"OldValue"}},
	}}
	if err := s.Apply(context.Background(), engine.Change{Table: checked, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	objects := input(noTypeSchema, `{"type":"RECORD","stream":"no_type","record":{"Id":"a","OldValue":{"x":1}}}`)
	if _, err := run(t, old, cfg, objects); err != nil {
		t.Fatal(err)
	}
	if c := old.Tables()["DRY_RUN.NO_TYPE"].Column("OLDVALUE"); c.Type != checked.Columns[1].Type {
		t.Errorf("the adopted IS JSON column became %+v", c.Type)
	}
	scalar := input(noTypeSchema, `{"type":"RECORD","stream":"no_type","record":{"Id":"b","OldValue":"str"}}`)
	_, err = run(t, old, cfg, scalar)
	if err == nil || !strings.Contains(err.Error(), "ORA-02290") || !strings.Contains(err.Error(), `"OLDVALUE"`) ||
		!strings.Contains(err.Error(), "DROP CONSTRAINT") {
		t.Errorf("a scalar into the adopted IS JSON column: %v", err)
	}
}
