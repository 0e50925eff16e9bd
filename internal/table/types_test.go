package table

import "testing"

func TestTypeString(t *testing.T) {
	tests := []struct {
		t    Type
		want string
	}{
		{Type{Kind: KindNumber, Precision: 38}, "NUMBER(38,0)"},
		{Type{Kind: KindNumber}, "NUMBER"},
		{Type{Kind: KindNumber, Precision: 1, BoolNumber: true}, "NUMBER(1)"},
		{Type{Kind: KindNumber, Precision: 10, Scale: 2}, "NUMBER(10,2)"},
		{Type{Kind: KindVarchar, Length: 4000}, "VARCHAR2(4000 BYTE)"},
		{Type{Kind: KindVarchar, Length: 36, CharSemantics: true}, "VARCHAR2(36 CHAR)"},
		{Type{Kind: KindVarchar, Length: 100, CharSemantics: true, National: true}, "NVARCHAR2(100)"},
		{Type{Kind: KindClob}, "CLOB"},
		{Type{Kind: KindClob, National: true}, "NCLOB"},
		{Type{Kind: KindDate}, "DATE"},
		{Type{Kind: KindTimestamp, Frac: 6, TZ: true}, "TIMESTAMP(6) WITH TIME ZONE"},
		{Type{Kind: KindTimestamp, Frac: 9}, "TIMESTAMP(9)"},
		{Type{Kind: KindBoolean}, "BOOLEAN"},
		{Type{Kind: KindJSON}, "JSON"},
		{Type{Kind: KindJSON, JSONAsClob: true}, "CLOB"},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.t, got, tt.want)
		}
	}
}
