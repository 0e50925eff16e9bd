package table

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/schema"
)

// TestPropertyType covers every row of the SPEC §5.2 table.
func TestPropertyType(t *testing.T) {
	def := Options{}
	native := Options{BooleanNative: true, JSONNative: true, TimestampTZ: false, VarcharMaxBytes: 32767}
	tz := Options{TimestampTZ: true}
	nat := Options{National: true}
	tests := []struct {
		name string
		prop *schema.Property
		opts Options
		want string
	}{
		{"integer", p("x", in), def, "NUMBER(38,0)"},
		{"nullable integer", p("x", in|nl), def, "NUMBER(38,0)"},
		{"number", p("x", num), def, "NUMBER"},
		{"integer or number", p("x", in|num), def, "NUMBER"},
		{"decimal", p("x", num, decimal(10, 2)), def, "NUMBER(10,2)"},
		{"decimal string", p("x", str, decimal(12, 4)), def, "NUMBER(12,4)"},
		{"decimal too precise", p("x", num, decimal(50, 2)), def, "NUMBER"},
		{"boolean number", p("x", bl), def, "NUMBER(1)"},
		{"boolean native", p("x", bl), native, "BOOLEAN"},
		{"string maxLength", p("x", str, maxLen(36)), def, "VARCHAR2(36 CHAR)"},
		{"string maxLength = ceiling", p("x", str, maxLen(4000)), def, "VARCHAR2(4000 CHAR)"},
		{"string", p("x", str), def, "VARCHAR2(4000 BYTE)"},
		{"string extended", p("x", str), native, "VARCHAR2(32767 BYTE)"},
		{"string maxLength > ceiling", p("x", str, maxLen(4001)), def, "CLOB"},
		{"date-time tz", p("x", str, format("date-time")), tz, "TIMESTAMP(6) WITH TIME ZONE"},
		{"date-time", p("x", str, format("date-time")), def, "TIMESTAMP(6)"},
		{"date", p("x", str, format("date")), def, "DATE"},
		{"time", p("x", str, format("time")), def, "VARCHAR2(32 CHAR)"},
		{"object", p("x", ob), def, "CLOB"},
		{"object native", p("x", ob), native, "JSON"},
		{"array", p("x", ar), native, "JSON"},
		{"untyped", p("x", schema.Any), native, "JSON"},
		{"string or object", p("x", str|ob), native, "JSON"},
		{"several scalars", p("x", str|in), def, "VARCHAR2(4000 BYTE)"},
		{"several scalars", p("x", bl|num|nl), def, "VARCHAR2(4000 BYTE)"},
		{"null only", p("x", nl), def, "VARCHAR2(4000 BYTE)"},
		{"national string", p("x", str), nat, "NVARCHAR2(2000)"},
		{"national maxLength", p("x", str, maxLen(100)), nat, "NVARCHAR2(100)"},
		{"national big", p("x", str, maxLen(2001)), nat, "NCLOB"},
		{"national json clob", p("x", ob), nat, "NCLOB"},
		{"email format is an annotation", p("x", str, format("email")), def, "VARCHAR2(4000 BYTE)"},
	}
	for _, tt := range tests {
		got := PropertyType(tt.prop, &tt.opts)
		if got.String() != tt.want {
			t.Errorf("%s: PropertyType = %s, want %s", tt.name, got, tt.want)
		}
	}
}

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
