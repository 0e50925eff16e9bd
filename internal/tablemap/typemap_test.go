package tablemap

import (
	"testing"

	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// TestPropertyType covers every row of the SPEC §5.2 table.
func TestPropertyType(t *testing.T) {
	def := table.Options{}
	native := table.Options{BooleanNative: true, JSONNative: true, TimestampTZ: false, VarcharMaxBytes: 32767}
	tz := table.Options{TimestampTZ: true}
	nat := table.Options{National: true}
	tests := []struct {
		name string
		prop *schema.Property
		opts table.Options
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

// TestJSONScalarsWithoutNativeJSON: before RFC 8259 support (no native
// JSON) IS JSON refuses a top-level scalar, so a property whose schema
// admits one besides objects or arrays (no type, ["object","string"],
// anyOf [array, integer]) gets JSON text in a CLOB without the check;
// objects and arrays alone keep the check; native JSON takes scalars.
func TestJSONScalarsWithoutNativeJSON(t *testing.T) {
	checked := table.Type{Kind: table.KindJSON, JSONAsClob: true}
	text := table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true}
	for _, c := range []struct {
		name  string
		types schema.TypeSet
		opts  table.Options
		want  table.Type
	}{
		{"no type", schema.Any, table.Options{}, text},
		{"object or string", ob | str | nl, table.Options{}, text},
		{"array or integer", ar | in, table.Options{}, text},
		{"object or boolean", ob | bl, table.Options{}, text},
		{"object", ob | nl, table.Options{}, checked},
		{"object or array", ob | ar, table.Options{}, checked},
		{"no type, national", schema.Any, table.Options{National: true}, table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true, National: true}},
		{"no type, native", schema.Any, table.Options{JSONNative: true}, table.Type{Kind: table.KindJSON}},
	} {
		if got := PropertyType(p("x", c.types), &c.opts); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
