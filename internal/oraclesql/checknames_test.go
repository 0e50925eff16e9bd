package oraclesql

import (
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// TestWideningDropsTheCheckByEveryName: a CLOB IS JSON (or NUMBER(1)
// boolean) column that widens loses its check whatever identifier limit
// the table was made under: the check of a table made at 30 bytes has a
// name cut and hashed at 30, which the 128-byte name alone missed
// (ORA-02443 ignored, the check stayed: cli.TestAttackObjectWidenedToScalarKeepsISJSONCheck).
// OwnCheck knows the same names, so a rewrite does not take them for a
// DBA's objects.
func TestWideningDropsTheCheckByEveryName(t *testing.T) {
	tests := []struct {
		limit       int
		tbl, col    string
		from        table.Type
		suffix      string
		mustInclude []string // names made under each limit
	}{
		// Short names: one name under both limits, one statement.
		{128, "S", "V", table.Type{Kind: table.KindJSON, JSONAsClob: true}, "_JSON", []string{"S_V_JSON"}},
		{30, "S", "V", table.Type{Kind: table.KindJSON, JSONAsClob: true}, "_JSON", []string{"S_V_JSON"}},
		// Long names: the 30-byte name of the table made at 30, and the
		// 128-byte ones (hashed for the "_" in the name, and unhashed as
		// earlier releases named it).
		{128, "CUSTOMER_ORDERS_ARCHIVE", "SHIPPING_PAYLOAD", table.Type{Kind: table.KindJSON, JSONAsClob: true}, "_JSON",
			[]string{"CUSTOMER_ORDERS_ARCHIVE_SHIPPING_PAYLOAD_5875247b_JSON", "CUSTOMER_ORDERS_ARCHIVE_SHIPPING_PAYLOAD_JSON"}},
		{128, "CUSTOMER_ORDERS_ARCHIVE", "IS_PRIORITY_CUSTOMER", table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}, "_BOOL", nil},
		// At 30 bytes no 128-byte name can exist.
		{30, "CUSTOMER_ORDERS_ARCHIVE", "SHIPPING_PAYLOAD", table.Type{Kind: table.KindJSON, JSONAsClob: true}, "_JSON", nil},
	}
	for _, tt := range tests {
		r := New(Options{IdentifierMaxBytes: tt.limit})
		base := &table.Table{Schema: "S", Name: tt.tbl, Columns: []table.Column{{Name: tt.col, Type: tt.from, Nullable: true}}}
		made30 := New(Options{IdentifierMaxBytes: 30}).checkName(tt.tbl, tt.col, tt.suffix)
		madeNow := r.checkName(tt.tbl, tt.col, tt.suffix)
		ss, err := r.Change(widenChange(base, tt.col, tt.from, table.Type{Kind: table.KindClob}))
		if tt.suffix == "_BOOL" {
			ss, err = r.Change(widenChange(base, tt.col, tt.from, table.NumberType()))
		}
		if err != nil {
			t.Fatal(err)
		}
		var dropped []string
		for _, s := range ss {
			if _, n, ok := strings.Cut(s.SQL, " DROP CONSTRAINT "); ok {
				dropped = append(dropped, strings.Trim(n, `"`))
				if !slices.Contains(s.IgnoreCodes, oraNoSuchConstraint) {
					t.Errorf("%s: does not ignore ORA-02443", s.SQL)
				}
			}
		}
		want := append([]string{madeNow, made30}, tt.mustInclude...)
		for _, n := range want {
			if !slices.Contains(dropped, n) {
				t.Errorf("limit %d, %s.%s: drops %q, not %q", tt.limit, tt.tbl, tt.col, dropped, n)
			}
			if !r.OwnCheck(tt.tbl, tt.col, n) {
				t.Errorf("limit %d: OwnCheck(%q) false", tt.limit, n)
			}
		}
		for _, n := range dropped {
			if len(n) > tt.limit {
				t.Errorf("limit %d: drops %q, longer than the limit", tt.limit, n)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(dropped)))) != len(dropped) {
			t.Errorf("a name dropped twice: %q", dropped)
		}
		if r.OwnCheck(tt.tbl, tt.col, "SYS_C0012345") {
			t.Errorf("a system-named check taken for the target's own")
		}
	}
}
