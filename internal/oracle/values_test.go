package oracle_test

import (
	"context"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// valueCases are bad and edge values, each written alone (one INSERT of
// one row) into a column of its type. Both engines apply Oracle's value
// rules from internal/oravalue: the embedded engine to the stored value,
// the fake Oracle to what the Oracle engine binds (through go-ora and the
// wire peer with TARGET_ORACLE_TEST_WIRE=1). Both must report the same
// ORA code, or keep the same value.
var valueCases = []struct {
	name string
	typ  table.Type
	v    string
	// code is the ORA error both engines report (0: none); stored the
	// value the column then keeps ("" with a code).
	code   int
	stored string
	// notNull makes the column NOT NULL.
	notNull bool
}{
	// BOOLEAN (23ai): TO_BOOLEAN's strings; anything else is ORA-61800,
	// the BOOLEAN conversions' code (the embedded engine said ORA-01722).
	{name: "boolean true", typ: boolean, v: "true", stored: "true"},
	{name: "boolean yes", typ: boolean, v: "yes", stored: "true"},
	{name: "boolean OFF", typ: boolean, v: "OFF", stored: "false"},
	{name: "boolean maybe", typ: boolean, v: "maybe", code: 61800},
	{name: "boolean 2", typ: boolean, v: "2", code: 61800},
	// NUMBER(1) CHECK IN (0,1): precision before the check constraint.
	{name: "bool number 1", typ: boolNumber, v: "1", stored: "1"},
	{name: "bool number 5", typ: boolNumber, v: "5", code: 2290},
	{name: "bool number 10", typ: boolNumber, v: "10", code: 1438},
	{name: "bool number yes", typ: boolNumber, v: "yes", code: 1722},
	// NUMBER(p,s) and NUMBER.
	{name: "decimal fits", typ: decimal, v: "-99999999.99", stored: "-99999999.99"},
	{name: "decimal integer digits", typ: decimal, v: "123456789", code: 1438},
	{name: "decimal third decimal", typ: decimal, v: "1.234", code: 1438},
	{name: "decimal not a number", typ: decimal, v: "1e5", code: 1722},
	{name: "decimal empty fraction", typ: decimal, v: "1.", stored: "1"},
	{name: "decimal leading zeros", typ: decimal, v: "007.50", stored: "7.5"},
	{name: "decimal negative zero", typ: decimal, v: "-0", stored: "0"},
	{name: "number 125 digits", typ: number, v: "9" + strings.Repeat("0", 124), stored: "9" + strings.Repeat("0", 124)},
	{name: "number 1e126", typ: number, v: "1" + strings.Repeat("0", 126), code: 1426},
	{name: "number dot", typ: number, v: ".", code: 1722},
	// VARCHAR2 and NVARCHAR2 limits.
	{name: "varchar bytes fit", typ: varcharBytes, v: "abcd", stored: "abcd"},
	{name: "varchar bytes too long", typ: varcharBytes, v: "ñandú", code: 12899},
	{name: "varchar chars fit", typ: varcharChars, v: "ñandú", stored: "ñandú"},
	{name: "varchar chars too long", typ: varcharChars, v: "ñandús", code: 12899},
	{name: "nvarchar too long", typ: nvarchar, v: "日本語テキスト", code: 12899},
	{name: "varchar not null", typ: varcharChars, v: "", code: 1400, notNull: true},
	// DATE: Oracle's code per field (the embedded engine checked none).
	{name: "date leap day", typ: date, v: "2024-02-29", stored: "2024-02-29"},
	{name: "date not a leap year", typ: date, v: "2023-02-29", code: 1839},
	{name: "date day 32", typ: date, v: "2024-01-32", code: 1847},
	{name: "date month 13", typ: date, v: "2024-13-01", code: 1843},
	{name: "date year 0", typ: date, v: "0000-01-01", code: 1841},
	{name: "date other format", typ: date, v: "2024/01/01", code: 1861},
	{name: "date garbage", typ: date, v: "yesterday", code: 1861},
	// TIMESTAMP [WITH TIME ZONE].
	{name: "timestamp fits", typ: tsTZ, v: "2024-01-02T03:04:05.123456Z", stored: "2024-01-02T03:04:05.123456Z"},
	{name: "timestamp bare date", typ: tsTZ, v: "2024-01-02", stored: "2024-01-02T00:00:00Z"},
	{name: "timestamp seventh digit", typ: tsTZ, v: "2024-01-02T03:04:05.1234567Z", code: 1830},
	{name: "timestamp hour 24", typ: tsTZ, v: "2024-01-02T24:00:00Z", code: 1850},
	{name: "timestamp minute 60", typ: timestamp9, v: "2024-01-02T23:60:00Z", code: 1851},
	{name: "timestamp second 60", typ: timestamp9, v: "2024-01-02T23:59:60Z", code: 1852},
	{name: "timestamp April 31", typ: timestamp9, v: "2024-04-31T00:00:00Z", code: 1839},
	{name: "timestamp year 0", typ: timestamp9, v: "0000-12-31T00:00:00Z", code: 1841},
	{name: "timestamp ten digits", typ: timestamp9, v: "2024-01-02T03:04:05.1234567891Z", code: 1861},
	{name: "timestamp no zone", typ: timestamp9, v: "2024-01-02T03:04:05", code: 1861},
	// JSON: the JSON type's parser, or a CLOB's IS JSON check.
	{name: "json document", typ: jsonNative, v: `{"a":[1,2]}`, stored: `{"a":[1,2]}`},
	{name: "json not json", typ: jsonNative, v: "not json", code: 40441},
	{name: "json truncated", typ: jsonNative, v: `{"a":1`, code: 40441},
	{name: "clob is json not json", typ: jsonClob, v: "not json", code: 2290},
	{name: "clob is json truncated", typ: jsonClob, v: `[1,2`, code: 2290},
	// IS JSON before COMPATIBLE 20 (RFC 4627): an object or an array only;
	// a CLOB without the check holds a scalar as JSON text; native JSON
	// (COMPATIBLE >= 20) takes scalars.
	{name: "clob is json string", typ: jsonClob, v: `"str"`, code: 2290},
	{name: "clob is json number", typ: jsonClob, v: `5`, code: 2290},
	{name: "clob is json true", typ: jsonClob, v: `true`, code: 2290},
	{name: "clob is json array", typ: jsonClob, v: `[1]`, stored: `[1]`},
	{name: "clob json text string", typ: jsonText, v: `"str"`, stored: `"str"`},
	{name: "clob json text number", typ: jsonText, v: `10.0`, stored: `10.0`},
	{name: "json scalar", typ: jsonNative, v: `"str"`, stored: `"str"`},
	// RAW: bytes (stored as padded base64).
	{name: "raw fits", typ: raw2, v: "AQI=", stored: "AQI="},
	{name: "raw too long", typ: raw2, v: "AQID", code: 12899},
	// VECTOR (23ai): dimensions and the element format.
	{name: "vector fits", typ: vector3, v: "[1,2,3]", stored: "[1,2,3]"},
	{name: "vector dimensions", typ: vector3, v: "[1,2]", code: 51803},
	{name: "vector syntax", typ: vector3, v: "[1,2", code: 51804},
	{name: "vector element", typ: vector3, v: `[1,"a",3]`, code: 51805},
	{name: "vector float32 range", typ: vector3, v: "[1,2,1e39]", code: 51806},
	{name: "vector int8 range", typ: vectorInt8, v: "[1,300]", code: 51806},
	{name: "vector int8 fraction", typ: vectorInt8, v: "[1.5]", code: 51806},
}

var (
	boolean      = table.Type{Kind: table.KindBoolean}
	boolNumber   = table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}
	decimal      = table.Type{Kind: table.KindNumber, Precision: 10, Scale: 2}
	number       = table.Type{Kind: table.KindNumber}
	varcharBytes = table.Type{Kind: table.KindVarchar, Length: 4}
	varcharChars = table.Type{Kind: table.KindVarchar, Length: 5, CharSemantics: true}
	nvarchar     = table.Type{Kind: table.KindVarchar, Length: 6, CharSemantics: true, National: true}
	date         = table.Type{Kind: table.KindDate}
	timestamp9   = table.Type{Kind: table.KindTimestamp, Frac: 9}
	jsonNative   = table.Type{Kind: table.KindJSON}
	jsonClob     = table.Type{Kind: table.KindJSON, JSONAsClob: true}
	jsonText     = table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true}
	raw2         = table.Type{Kind: table.KindRaw, Length: 2}
	vector3      = table.Type{Kind: table.KindVector, Dim: 3, VectorFormat: table.VectorFloat32}
	vectorInt8   = table.Type{Kind: table.KindVector, VectorFormat: table.VectorInt8}
)

// outcome is what one engine did with a value: the ORA code, or the
// value the column keeps.
type outcome struct {
	code   int
	stored string
}

func TestValueRulesMatchOnBothEngines(t *testing.T) {
	for _, c := range valueCases {
		t.Run(c.name, func(t *testing.T) {
			tbl := &table.Table{Schema: schemaName, Name: "VALS", PrimaryKey: []string{"ID"}, Columns: []table.Column{
				prop("ID", integer, false),
				prop("C", c.typ, !c.notNull),
			}}
			w := write(tbl, engine.Insert, map[string]string{"ID": "1", "C": c.v})

			m := newMemory()
			mem := loadOne(t, m, tbl, w, func() []map[string]string { return m.Rows(tbl.QualifiedName()) })
			r := defaultRig(t)
			fake := loadOne(t, r.eng, tbl, w, func() []map[string]string { return r.db.Rows(tbl.QualifiedName()) })

			want := outcome{code: c.code, stored: c.stored}
			if mem != fake {
				t.Errorf("%q into %s: embedded engine %+v, fake Oracle %+v", c.v, c.typ, mem, fake)
			}
			if mem != want {
				t.Errorf("%q into %s: embedded engine %+v, want %+v", c.v, c.typ, mem, want)
			}
			if fake != want {
				t.Errorf("%q into %s: fake Oracle %+v, want %+v", c.v, c.typ, fake, want)
			}
		})
	}
}

// loadOne creates tbl on eng, runs w and returns the outcome: the error's
// ORA code (row-level: on_database_error reject would refuse the row), or
// the value of column C that rows reads back.
func loadOne(t *testing.T, eng engine.Engine, tbl *table.Table, w *engine.Write, rows func() []map[string]string) outcome {
	t.Helper()
	ctx := context.Background()
	s, err := eng.Session(ctx, "values")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Apply(ctx, engine.Change{Table: tbl, Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatalf("%T: create: %v", eng, err)
	}
	if _, err := s.Load(ctx, []engine.Step{w}); err != nil {
		code := engine.RowErrorCode(err)
		if code == 0 {
			t.Fatalf("%T: %v: not an error of the row's values", eng, err)
		}
		return outcome{code: code}
	}
	got := rows()
	if len(got) != 1 {
		t.Fatalf("%T: %d rows, want 1", eng, len(got))
	}
	return outcome{stored: got[0]["C"]}
}

var _ engine.Engine = (*memory.Engine)(nil)
