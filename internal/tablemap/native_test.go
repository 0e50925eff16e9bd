package tablemap

import (
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

func compileRoot(t *testing.T, text string) *schema.Property {
	t.Helper()
	sch, err := schema.Compile([]byte(text))
	if err != nil {
		t.Fatalf("compile %s: %v", text, err)
	}
	return sch.Root
}

// columnType maps one property "x" of the schema text and returns its
// column's type.
func columnType(t *testing.T, prop string, o table.Options) table.Type {
	t.Helper()
	root := compileRoot(t, `{"type":"object","properties":{"x":`+prop+`}}`)
	l, err := NewLayout("s", root, nil, o, nil)
	if err != nil {
		t.Fatalf("NewLayout %s: %v", prop, err)
	}
	return l.Table().Columns[0].Type
}

func TestBinaryPropertyTypes(t *testing.T) {
	on := table.Options{InterpretContentEncoding: true}
	ext := table.Options{InterpretContentEncoding: true, VarcharMaxBytes: 32767}
	cases := []struct {
		prop string
		o    table.Options
		want string
	}{
		{`{"type":"string","contentEncoding":"base64","maxLength":24}`, on, "RAW(18)"},
		{`{"type":"string","contentEncoding":"base64","maxLength":2}`, on, "RAW(1)"},
		{`{"type":"string","contentEncoding":"base64","maxLength":1}`, on, "BLOB"}, // n = 0
		{`{"type":["string","null"],"contentEncoding":"BASE16","maxLength":32}`, on, "RAW(16)"},
		{`{"type":"string","contentEncoding":"base16","maxLength":4000}`, on, "RAW(2000)"},
		{`{"type":"string","contentEncoding":"base16","maxLength":4002}`, on, "BLOB"},
		{`{"type":"string","contentEncoding":"base16","maxLength":4002}`, ext, "RAW(2001)"},
		{`{"type":"string","contentEncoding":"base64","maxLength":43692}`, ext, "BLOB"},
		{`{"type":"string","contentEncoding":"base64"}`, on, "BLOB"},
		{`{"type":"string","contentEncoding":"quoted-printable","maxLength":10}`, on, "VARCHAR2(10 CHAR)"},
		// Off (the default): text as before.
		{`{"type":"string","contentEncoding":"base64","maxLength":24}`, table.Options{}, "VARCHAR2(24 CHAR)"},
		{`{"anyOf":[{"type":"string","contentEncoding":"base64","maxLength":8},{"type":"null"}]}`, on, "RAW(6)"},
		{`{"anyOf":[{"type":"string","contentEncoding":"base64","maxLength":8},{"type":"string","maxLength":8}]}`, on, "VARCHAR2(8 CHAR)"},
	}
	for _, c := range cases {
		if got := columnType(t, c.prop, c.o).String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.prop, got, c.want)
		}
	}
}

func TestBinaryRows(t *testing.T) {
	root := compileRoot(t, `{"type":"object","properties":{
		"id":{"type":"string","contentEncoding":"base16","maxLength":8},
		"b64":{"type":["string","null"],"contentEncoding":"base64","maxLength":8},
		"blob":{"type":["string","null"],"contentEncoding":"base64"}}}`)
	l, err := NewLayout("s", root, []string{"id"}, table.Options{InterpretContentEncoding: true, IdentifierUpper: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, c := range l.Table().Columns[:3] {
		types = append(types, c.Name+" "+c.Type.String())
	}
	if got := strings.Join(types, ", "); got != "ID RAW(4), B64 RAW(6), BLOB BLOB" {
		t.Fatalf("columns: %s", got)
	}
	cases := []struct {
		rec     string
		want    []string // ID, B64, BLOB in stored form
		wantErr string
	}{
		{rec: `{"id":"deadBEEF","b64":"AAEC","blob":"aGVsbG8="}`, want: []string{"3q2+7w==", "AAEC", "aGVsbG8="}},
		{rec: `{"id":"00","b64":null,"blob":""}`, want: []string{"AA==", "", ""}},
		{rec: `{"id":"0g","b64":"AAEC"}`, wantErr: `property "id": not base16`},
		{rec: `{"id":"abc","b64":"AAEC"}`, wantErr: `property "id": not base16`},
		{rec: `{"id":"00","b64":"AAE"}`, wantErr: `property "b64": not base64 (RFC 4648 §4, padded)`},
		{rec: `{"id":"00","b64":"AA-_"}`, wantErr: `property "b64": not base64`},
		{rec: `{"id":"00","b64":"AAF="}`, wantErr: `property "b64": not base64`}, // non-zero padding bits
		{rec: `{"id":"0000000000","b64":"AAEC"}`, wantErr: `property "id": key value`},
		{rec: `{"id":"00","blob":5}`, wantErr: `property "blob": expected a base64 string, got a JSON number`},
	}
	for _, c := range cases {
		row := make([]string, l.Columns())
		stats := make([]table.Stats, l.Columns())
		err := l.Row([]byte(c.rec), nil, row, stats, nil)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: error %v, want %q", c.rec, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.rec, err)
			continue
		}
		if got := row[:3]; strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: row %q, want %q", c.rec, got, c.want)
		}
	}
	// The stats count decoded bytes: 5 bytes widen RAW(4).
	row, stats := make([]string, l.Columns()), make([]table.Stats, l.Columns())
	if err := l.Row([]byte(`{"id":"00","b64":"AAECAwQF"}`), nil, row, stats, nil); err != nil {
		t.Fatal(err)
	}
	if stats[1].MaxBytes != 6 {
		t.Errorf("stats of 6 bytes: %+v", stats[1])
	}
}

func TestBinaryKeys(t *testing.T) {
	on := table.Options{InterpretContentEncoding: true}
	root := compileRoot(t, `{"type":"object","properties":{"id":{"type":"string","contentEncoding":"base64"}}}`)
	_, err := NewLayout("s", root, []string{"id"}, on, nil)
	if err == nil || !strings.Contains(err.Error(), "BLOB column, which Oracle cannot index") {
		t.Errorf("BLOB key: %v", err)
	}
	root = compileRoot(t, `{"type":"object","properties":{"id":{"type":"string","contentEncoding":"base16","maxLength":20000}}}`)
	_, err = NewLayout("s", root, []string{"id"}, table.Options{InterpretContentEncoding: true, VarcharMaxBytes: 32767}, nil)
	if err == nil || !strings.Contains(err.Error(), "index key limit") {
		t.Errorf("RAW(10000) key: %v", err)
	}
}

func TestBinaryJoinedWithTextWarns(t *testing.T) {
	root := compileRoot(t, `{"type":"object","properties":{"x":{"type":"string","contentEncoding":"base64","maxLength":8}}}`)
	existing := &table.Table{Schema: "S", Name: "S", Columns: []table.Column{{Name: "X", Type: table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, Nullable: true, Role: table.RoleProperty}}}
	l, err := NewLayout("s", root, nil, table.Options{InterpretContentEncoding: true, IdentifierUpper: true}, existing)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Table().Column("X").Type.String(); got != "VARCHAR2(100 CHAR)" {
		t.Errorf("column %s, want the existing VARCHAR2(100 CHAR)", got)
	}
	if w := l.Warnings(); len(w) != 1 || !strings.Contains(w[0], "stay text in their encoded form") {
		t.Errorf("warnings %q", w)
	}
	row := make([]string, l.Columns())
	if err := l.Row([]byte(`{"x":"AAEC"}`), nil, row, nil, nil); err != nil || row[0] != "AAEC" {
		t.Errorf("text keeps the encoded form: %q, %v", row[0], err)
	}
}

func TestVectorPropertyTypes(t *testing.T) {
	on := table.Options{VectorNative: true}
	cases := []struct {
		prop string
		o    table.Options
		want string
	}{
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3}}`, on, "VECTOR(3, FLOAT32)"},
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"pgvector","x-sql-datatype-properties":{"dim":8,"format":"FLOAT64"}}`, on, "VECTOR(8, FLOAT64)"},
		{`{"type":["array","null"],"items":{"type":"integer"},"minItems":4,"maxItems":4,"x-sql-datatype":"vector","x-sql-datatype-properties":{"format":"int8"}}`, on, "VECTOR(4, INT8)"},
		{`{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":4,"x-sql-datatype":"vector"}`, on, "VECTOR(*, FLOAT32)"},
		{`{"anyOf":[{"type":"array","items":{"type":"number"},"x-sql-datatype":"vector"},{"type":"null"}]}`, on, "VECTOR(*, FLOAT32)"},
		// Not a vector: items that are not numbers, no items, another x-sql-datatype.
		{`{"type":"array","items":{"type":"string"},"x-sql-datatype":"vector"}`, on, "CLOB"},
		{`{"type":"array","x-sql-datatype":"vector"}`, on, "CLOB"},
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"json"}`, on, "CLOB"},
		// No VECTOR on the server: the JSON type.
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3}}`, table.Options{JSONNative: true}, "JSON"},
	}
	for _, c := range cases {
		if got := columnType(t, c.prop, c.o).String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.prop, got, c.want)
		}
	}
}

func TestVectorSchemaErrorsAndJoins(t *testing.T) {
	on := table.Options{VectorNative: true}
	for _, c := range []struct{ schema, key, want string }{
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"format":"float16"}}`, "", `format "float16": float32, float64 or int8 expected`},
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":70000}}`, "", "at most 65535"},
		{`{"type":"array","items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":3}}`, "x", "VECTOR(3, FLOAT32) column, which Oracle cannot index"},
	} {
		root := compileRoot(t, `{"type":"object","properties":{"x":`+c.schema+`}}`)
		var keys []string
		if c.key != "" {
			keys = []string{c.key}
		}
		_, err := NewLayout("s", root, keys, on, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.schema, err, c.want)
		}
	}
	v3 := table.Type{Kind: table.KindVector, Dim: 3, VectorFormat: table.VectorFloat32}
	json := table.Type{Kind: table.KindJSON}
	for _, c := range []struct {
		a, b table.Type
		want string
	}{
		{json, v3, "JSON"}, // the server got VECTOR: the JSON column stays
		{v3, table.Type{Kind: table.KindVector, Dim: 4, VectorFormat: table.VectorFloat32}, "CLOB"},
		{table.Type{Kind: table.KindVector}, v3, "VECTOR"}, // shape unknown from the catalog: kept
	} {
		if got := table.Join(c.a, c.b, 4000).String(); got != c.want {
			t.Errorf("Join(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
	if _, err := table.MigrateValue(v3, table.Type{Kind: table.KindClob}, "[1,2,3]"); err == nil {
		t.Error("VECTOR to CLOB: want no exact conversion")
	}
}

// TestNativeOnePassMatchesGeneral: the one-pass checks (RowOnePass) give the
// general path's rows and errors for binary and vector columns.
func TestNativeOnePassMatchesGeneral(t *testing.T) {
	const s = `{"type":"object","properties":{"id":{"type":"integer"},` +
		`"b":{"type":["null","string"],"contentEncoding":"base16","maxLength":8},` +
		`"blob":{"type":["null","string"],"contentEncoding":"base64"},` +
		`"v":{"type":["null","array"],"items":{"type":"number"},"x-sql-datatype":"vector","x-sql-datatype-properties":{"dimensions":2,"format":"int8"}}}}`
	pair, ok := newOnePassPair(t, s, []string{"id"}, table.Options{InterpretContentEncoding: true, VectorNative: true, AddRecordMetadata: true})
	if !ok {
		t.Fatal("no one-pass pair")
	}
	for _, rec := range []string{
		`{"id":1,"b":"00ff","blob":"aGk=","v":[1,2]}`,
		`{"id":2,"b":null,"blob":null,"v":null}`,
		`{"id":3,"b":"0","v":[1,2]}`,
		`{"id":4,"blob":"a","v":[1,2]}`,
		`{"id":5,"v":[1,200]}`,
		`{"id":6,"v":[1]}`,
		`{"id":7,"b":"123456789","v":[1,2]}`,
		`{"id":8,"b":"00","b":"zz"}`,
	} {
		pair.compare(t, []byte(rec))
	}
}
