package table

import (
	"errors"
	"strings"
	"testing"
)

// TestWideningPastADBAsCheckIsRefused: a widening in place that drops the
// target's own IS JSON or 0/1 check is refused, before any change, when
// the column has a check constraint the target did not create (a DBA's
// IS JSON check under a system name would stay, and Oracle would refuse
// every string with ORA-02290 while the plan shows the load done). Without
// such a check, or for a widening that keeps the check, it goes ahead.
func TestWideningPastADBAsCheckIsRefused(t *testing.T) {
	jsonClob := Type{Kind: KindJSON, JSONAsClob: true}
	boolNum := Type{Kind: KindNumber, Precision: 1, BoolNumber: true}
	text := Type{Kind: KindJSON, JSONAsClob: true, JSONUnchecked: true}
	dba := []Dependent{{Kind: DependentCheck, Name: "SYS_C0012345"}}
	tests := []struct {
		name       string
		cur, want  Type
		dependents []Dependent
		refused    string // in the error; "" when the change goes ahead
	}{
		{"IS JSON to CLOB past a DBA's check", jsonClob, Type{Kind: KindVarchar, Length: 4000}, dba, `column "V" would widen from CLOB IS JSON to CLOB, dropping target-oracle's own IS JSON check, but check constraint "SYS_C0012345" on it is not target-oracle's`},
		{"0/1 to NUMBER past a DBA's check", boolNum, IntegerType(), dba, `dropping target-oracle's own IN (0, 1) check, but check constraint "SYS_C0012345"`},
		{"IS JSON to CLOB, only the target's check", jsonClob, Type{Kind: KindVarchar, Length: 4000}, nil, ""},
		{"IS JSON to CLOB past a DBA's index", jsonClob, Type{Kind: KindVarchar, Length: 4000}, []Dependent{{Kind: DependentIndex, Name: "V_IX"}}, ""},
		{"IS JSON kept (JSON text asked) past a DBA's check", jsonClob, text, dba, ""},
		{"VARCHAR2 longer past a DBA's check", Type{Kind: KindVarchar, Length: 10}, Type{Kind: KindVarchar, Length: 100}, dba, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := &Table{Schema: "S", Name: "T", Columns: []Column{{Name: "V", Type: tt.cur, Nullable: true, Dependents: tt.dependents}}}
			want := &Table{Schema: "S", Name: "T", Columns: []Column{{Name: "V", Type: tt.want, Nullable: true}}}
			next, changes, err := Reconcile(cur, want, nil, PolicyWiden, Options{})
			if tt.refused == "" {
				if err != nil || next == nil {
					t.Fatalf("Reconcile: %v; want the change to go ahead", err)
				}
				return
			}
			var ee *EvolutionError
			if !errors.As(err, &ee) || next != nil || changes != nil || !strings.Contains(err.Error(), tt.refused) ||
				!strings.Contains(err.Error(), "table S.T needs a widening that a check constraint target-oracle did not create may defeat") ||
				!strings.Contains(err.Error(), "nothing was changed") {
				t.Fatalf("Reconcile: %v (next %v); want a refusal containing %q", err, next, tt.refused)
			}
		})
	}
}
