package oravalue

import (
	"strings"
	"testing"
)

// TestISJSONRefusesTopLevelScalars: a CLOB's IS JSON check before Oracle
// 21c with COMPATIBLE >= 20 accepts RFC 4627 JSON only, an object or an
// array at top level (Oracle JSON Developer's Guide, "Support for RFC
// 8259: JSON Scalars"): ORA-02290 for a scalar, by Assign, Check and Kept
// alike, with a message naming the column and the fix. The JSON type
// (COMPATIBLE >= 20) takes scalars.
func TestISJSONRefusesTopLevelScalars(t *testing.T) {
	clob := Column{Schema: "S", Table: "T", Name: "ANY", Kind: KindJSON, JSONAsClob: true, Nullable: true}
	native := Column{Schema: "S", Table: "T", Name: "ANY", Kind: KindJSON, Nullable: true}
	for _, v := range []string{`"str"`, `5`, `-1.5`, `true`, `false`, `null`} {
		if _, err := clob.Assign(v); err == nil || err.Code != 2290 || !strings.Contains(err.Error(), `"S"."T"."ANY"`) ||
			!strings.Contains(err.Error(), "DROP CONSTRAINT") {
			t.Errorf("Assign(%s) on CLOB IS JSON: %v, want ORA-02290 naming the column and the fix", v, err)
		}
		if err := clob.Check(v); err == nil || err.Code != 2290 {
			t.Errorf("Check(%s) on CLOB IS JSON: %v, want ORA-02290", v, err)
		}
		if clob.Kept(v) {
			t.Errorf("Kept(%s) on CLOB IS JSON", v)
		}
		if got, err := native.Assign(v); err != nil || got != v {
			t.Errorf("Assign(%s) on JSON: %q, %v", v, got, err)
		}
	}
	for _, v := range []string{`{"a":1}`, `[1,"x"]`, `[]`} {
		if got, err := clob.Assign(v); err != nil || got != v || !clob.Kept(v) || clob.Check(v) != nil {
			t.Errorf("%s on CLOB IS JSON: %q, %v", v, got, err)
		}
	}
}
