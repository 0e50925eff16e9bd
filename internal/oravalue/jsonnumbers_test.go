package oravalue

import (
	"strings"
	"testing"
)

// TestNativeJSONKeepsNumbers: the JSON type holds a number as an Oracle
// NUMBER, so a native JSON column keeps each number in NUMBER's stored
// form, and a CLOB IS JSON column the text as written
// (cli.TestAttackNativeJSONKeepsNumberText). Both models of Oracle use
// it: Column.Assign (the embedded engine) and ToJSON (the fake's JSON(:n)).
func TestNativeJSONKeepsNumbers(t *testing.T) {
	native := &Column{Name: "J", Kind: KindJSON, Nullable: true}
	checked := &Column{Name: "J", Kind: KindJSON, JSONAsClob: true, Nullable: true}
	tests := []struct {
		in, want string
		code     int // the error's ORA code, 0 for none
	}{
		{`{"a":1}`, `{"a":1}`, 0},
		{`{"a":1.0,"b":1e2,"c":-0,"d":1.50,"e":0.1000}`, `{"a":1,"b":100,"c":0,"d":1.5,"e":0.1}`, 0},
		{`[1E+2,-1e-2,2.5e-3,12.5e1,-0.0e5,0e-999999999]`, `[100,-0.01,0.0025,125,0,0]`, 0},
		{`{"s":"1.0 and 1e2","t":"a\"1.0","n":[1.0,{"x":-10.00}]}`, `{"s":"1.0 and 1e2","t":"a\"1.0","n":[1,{"x":-10}]}`, 0},
		{`10.0`, `10`, 0}, // a top-level scalar
		{`"10.0"`, `"10.0"`, 0},
		{`true`, `true`, 0},
		{`[12345678901234567890123456789012345678]`, `[12345678901234567890123456789012345678]`, 0},
		{`[1.2345678901234567890123456789012345678e-92]`, `[0.` + strings.Repeat("0", 91) + `12345678901234567890123456789012345678]`, 0},
		{`[1e-130]`, `[0.` + strings.Repeat("0", 129) + `1]`, 0},
		{`[9.99e125]`, `[999` + strings.Repeat("0", 123) + `]`, 0},
		// Beyond NUMBER: where Oracle would round, the model refuses.
		{`[123456789012345678901234567890123456789]`, "", 1426},
		{`[1e126]`, "", 1426},
		{`[1e-131]`, "", 1426},
		{`[1.0000000000000000000000000000000000000001]`, "", 1426},
	}
	for _, tt := range tests {
		got, err := native.Assign(tt.in)
		code := 0
		if err != nil {
			code = err.Code
		}
		if got != tt.want || code != tt.code {
			t.Errorf("native JSON Assign(%s) = %q, %v; want %q, ORA %d", tt.in, got, err, tt.want, tt.code)
		}
		if tt.code != 0 && !strings.Contains(err.Msg, `"J"`) {
			t.Errorf("Assign(%s): %v does not name the column", tt.in, err)
		}
		if f, ferr := ToJSON(tt.in); f != got || (ferr == nil) != (err == nil) {
			t.Errorf("ToJSON(%s) = %q, %v; Assign gives %q, %v", tt.in, f, ferr, got, err)
		}
		if kept := native.Kept(tt.in); kept != (tt.code == 0 && tt.want == tt.in) {
			t.Errorf("Kept(%s) = %v, Assign %q", tt.in, kept, got)
		}
		if tt.in[0] == '{' || tt.in[0] == '[' {
			if got, err := checked.Assign(tt.in); err != nil || got != tt.in {
				t.Errorf("CLOB IS JSON Assign(%s) = %q, %v; want the text as written", tt.in, got, err)
			}
		}
	}
	if _, err := ToJSON(`{"a":1,"a":2}`); err == nil || err.Code != 40441 {
		t.Errorf("ToJSON of a repeated name: %v, want ORA-40441", err)
	}
	if !RowLevel(1426) {
		t.Errorf("ORA-01426 is not row-level")
	}
}
