package oracle_test

import (
	"context"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// TestJSONTextReadsBack: JSON text in a plain CLOB (a property admitting
// top-level scalars before COMPATIBLE 20) is created without an IS JSON
// check and described on the next run as the same JSON-text column, not
// as a CLOB of text; a CLOB IS JSON column stays checked.
func TestJSONTextReadsBack(t *testing.T) {
	r := defaultRig(t)
	jsonText := table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true}
	want := &table.Table{Schema: schemaName, Name: "JSON_TEXT", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("ANY", jsonText, true),
		prop("DOC", table.Type{Kind: table.KindJSON, JSONAsClob: true}, true),
	}}
	session(t, r, want)
	got, err := r.eng.Describe(context.Background(), schemaName, "JSON_TEXT")
	if err != nil || got == nil || len(got.Columns) != 3 {
		t.Fatalf("described %+v, %v", got, err)
	}
	for i, c := range want.Columns {
		if g := got.Columns[i]; g.Type != c.Type {
			t.Errorf("column %s described as %+v, created as %+v", c.Name, g.Type, c.Type)
		}
	}
	if _, changes, err := table.Reconcile(got, want, nil, table.PolicyFail, table.Options{}); err != nil || len(changes) != 0 {
		t.Errorf("reconciling the described table asks for %v (%v)", changes, err)
	}
}
