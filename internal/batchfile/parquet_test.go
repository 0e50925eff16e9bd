package batchfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/singer"
)

// writeParquet writes rows to a new file in a temporary directory, in row
// groups of groupRows rows (0: one group).
func writeParquet[T any](t testing.TB, rows []T, groupRows int64, opts ...parquet.WriterOption) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.parquet")
	if groupRows > 0 {
		opts = append(opts, parquet.MaxRowsPerRowGroup(groupRows))
	}
	if err := parquet.WriteFile(path, rows, opts...); err != nil {
		t.Fatal(err)
	}
	return path
}

// parquetMessage is a parquet BATCH message for manifest, on line 2.
func parquetMessage(compression string, manifest ...string) *singer.Message {
	return &singer.Message{Type: singer.TypeBatch, Line: 2, Stream: "orders",
		Encoding: singer.BatchEncoding{Format: "parquet", Compression: compression}, Manifest: manifest}
}

// records reads a parquet BATCH of one file and returns its records,
// checking that each is one valid JSON object.
func records(t *testing.T, path string) []string {
	t.Helper()
	rows, err := readBatch(t, parquetMessage("", path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]string, len(rows))
	for i, r := range rows {
		if r.file != path || r.fileLine != int64(i+1) {
			t.Errorf("row %d: file %q row %d", i+1, r.file, r.fileLine)
		}
		if _, err := singer.ScanObject([]byte(r.record)); err != nil {
			t.Errorf("row %d is not a JSON object: %v: %s", i+1, err, r.record)
		}
		recs[i] = r.record
	}
	return recs
}

// fixedDecimal is the 16-byte two's complement form of the integer s.
func fixedDecimal(s string) (b [16]byte) {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	if v.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	v.FillBytes(b[:])
	return b
}

func int96(days uint32, nanos uint64) deprecated.Int96 {
	return deprecated.Int96{uint32(nanos), uint32(nanos >> 32), days}
}

type pqScalars struct {
	Zeta    int64            `parquet:"zeta"` // not alphabetical: the file's order is kept
	Alpha   int32            `parquet:"alpha"`
	U8      uint8            `parquet:"u8"`
	U64     uint64           `parquet:"u64"`
	Flag    bool             `parquet:"flag"`
	F32     float32          `parquet:"f32"`
	F64     float64          `parquet:"f64"`
	Name    string           `parquet:"name"`
	Raw     []byte           `parquet:"raw"`
	Color   string           `parquet:"color,enum"`
	Doc     string           `parquet:"doc,json"`
	Price   int64            `parquet:"price,decimal(2:18)"`
	Dec32   int32            `parquet:"dec32,decimal(3:9)"`
	Big     [16]byte         `parquet:"big,decimal(4:38)"`
	TsMs    int64            `parquet:"ts_ms,timestamp(millisecond)"`
	TsUs    int64            `parquet:"ts_us,timestamp(microsecond:local)"`
	TsNs    int64            `parquet:"ts_ns,timestamp(nanosecond)"`
	Day     int32            `parquet:"day,date"`
	TMs     int32            `parquet:"t_ms,time(millisecond)"`
	TUs     int64            `parquet:"t_us,time(microsecond)"`
	TNs     int64            `parquet:"t_ns,time(nanosecond)"`
	ID      [16]byte         `parquet:"id,uuid"`
	Legacy  deprecated.Int96 `parquet:"legacy"`
	Opt     *int64           `parquet:"opt,optional"`
	OptName *string          `parquet:"opt_name,optional"`
}

func TestParquetScalars(t *testing.T) {
	opt, optName := int64(42), "x"
	rows := []pqScalars{{
		Zeta: math.MinInt64, Alpha: -7, U8: 255, U64: math.MaxUint64, Flag: true,
		F32: 0.1, F64: 1e21,
		Name:  "Köln \"q\" \\ \n\t\x01 \u2028",
		Raw:   []byte{0, 1, 2, 0xff},
		Color: "RED",
		Doc:   ` { "a" : [1, 2.50, "x y"] } `,
		Price: -5, Dec32: 123456, Big: fixedDecimal("-12345678901234567890123456789012345678"),
		TsMs: -1, TsUs: 1700000000123456, TsNs: 1700000000000000001,
		Day: -1, TMs: 45296789, TUs: 86399999999, TNs: 1,
		ID:     [16]byte{0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3, 0xa4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00},
		Legacy: int96(2460311, 3723000000001),
		Opt:    &opt, OptName: &optName,
	}, {
		F32: float32(math.Copysign(0, -1)), F64: 5e-324, Doc: "null",
		Price: 100, Dec32: 5, Big: fixedDecimal("1"),
		TsMs: 253402300799999, Day: 2932896, TUs: 1000,
		Legacy: int96(2440588, 0),
	}, {
		F32: 16777216, F64: -123.456, Doc: `"s"`, Price: 1234567890123456789, Dec32: -999999999,
		Big:  fixedDecimal("99999999999999999999999999999999999999"),
		TsMs: -62167219200000, Day: -719528, Legacy: int96(2440588, 0),
	}}
	want := []string{
		`{"zeta":-9223372036854775808,"alpha":-7,"u8":255,"u64":18446744073709551615,"flag":true,` +
			`"f32":0.1,"f64":1e+21,"name":"Köln \"q\" \\ \n\t\u0001 ` + "\u2028" + `","raw":"AAEC/w==","color":"RED",` +
			`"doc":{"a":[1,2.50,"x y"]},"price":-0.05,"dec32":123.456,"big":-1234567890123456789012345678901234.5678,` +
			`"ts_ms":"1969-12-31T23:59:59.999Z","ts_us":"2023-11-14T22:13:20.123456Z","ts_ns":"2023-11-14T22:13:20.000000001Z",` +
			`"day":"1969-12-31","t_ms":"12:34:56.789","t_us":"23:59:59.999999","t_ns":"00:00:00.000000001",` +
			`"id":"123e4567-e89b-12d3-a456-426614174000","legacy":"2024-01-01T01:02:03.000000001Z","opt":42,"opt_name":"x"}`,
		`{"zeta":0,"alpha":0,"u8":0,"u64":0,"flag":false,"f32":-0,"f64":5e-324,"name":"","raw":"","color":"",` +
			`"doc":null,"price":1.00,"dec32":0.005,"big":0.0001,` +
			`"ts_ms":"9999-12-31T23:59:59.999Z","ts_us":"1970-01-01T00:00:00Z","ts_ns":"1970-01-01T00:00:00Z",` +
			`"day":"9999-12-31","t_ms":"00:00:00","t_us":"00:00:00.001","t_ns":"00:00:00",` +
			`"id":"00000000-0000-0000-0000-000000000000","legacy":"1970-01-01T00:00:00Z","opt":null,"opt_name":null}`,
		`{"zeta":0,"alpha":0,"u8":0,"u64":0,"flag":false,"f32":1.6777216e+07,"f64":-123.456,"name":"","raw":"","color":"",` +
			`"doc":"s","price":12345678901234567.89,"dec32":-999999.999,"big":9999999999999999999999999999999999.9999,` +
			`"ts_ms":"0000-01-01T00:00:00Z","ts_us":"1970-01-01T00:00:00Z","ts_ns":"1970-01-01T00:00:00Z",` +
			`"day":"0000-01-01","t_ms":"00:00:00","t_us":"00:00:00","t_ns":"00:00:00",` +
			`"id":"00000000-0000-0000-0000-000000000000","legacy":"1970-01-01T00:00:00Z","opt":null,"opt_name":null}`,
	}
	got := records(t, writeParquet(t, rows, 0))
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d:\ngot  %s\nwant %s", i+1, got[i], want[i])
		}
	}
}

type pqInner struct {
	C string `parquet:"c"`
	D *int32 `parquet:"d,optional"`
}

type pqNested struct {
	ID  int32 `parquet:"id"`
	Obj struct {
		A  int32    `parquet:"a"`
		In *pqInner `parquet:"in,optional"`
	} `parquet:"obj"`
	Tags   []string         `parquet:"tags,list"`
	Maybe  []*string        `parquet:"maybe,list"`
	Matrix [][]int32        `parquet:"matrix,list"`
	Items  []pqInner        `parquet:"items,list"`
	Attrs  map[string]int64 `parquet:"attrs"`
	ByNum  map[int32]string `parquet:"by_num"`
	Rep    []int32          `parquet:"rep"`
	Amount int64            `parquet:"amount,decimal(2:12)"`
}

func TestParquetNested(t *testing.T) {
	d, q, x := int32(7), int32(3), "x"
	r1 := pqNested{ID: 1, Tags: []string{"a", "b"}, Maybe: []*string{&x, nil},
		Matrix: [][]int32{{1, 2}, {}, {3}}, Items: []pqInner{{"x", &q}, {"y", nil}},
		Attrs: map[string]int64{"k": 1}, ByNum: map[int32]string{7: "seven"}, Rep: []int32{5, 6}, Amount: -1999}
	r1.Obj.A = 1
	r1.Obj.In = &pqInner{"c", &d}
	got := records(t, writeParquet(t, []pqNested{r1, {}}, 0))
	want := []string{
		`{"id":1,"obj":{"a":1,"in":{"c":"c","d":7}},"tags":["a","b"],"maybe":["x",null],"matrix":[[1,2],[],[3]],` +
			`"items":[{"c":"x","d":3},{"c":"y","d":null}],"attrs":{"k":1},"by_num":{"7":"seven"},"rep":[5,6],"amount":-19.99}`,
		`{"id":0,"obj":{"a":0,"in":null},"tags":[],"maybe":[],"matrix":[],"items":[],"attrs":{},"by_num":{},"rep":[],"amount":0.00}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("\ngot  %q\nwant %q", got, want)
	}
}

// Schema elements for the assembly tests, which cover shapes and legacy
// annotations the parquet-go writer does not produce.

func pqRoot(children int32) format.SchemaElement {
	return format.SchemaElement{Name: "schema", NumChildren: thrift.New(children)}
}

func pqGroup(name string, rep format.FieldRepetitionType, children int32, logical format.LogicalTypeValue) format.SchemaElement {
	return format.SchemaElement{Name: name, RepetitionType: thrift.New(rep), NumChildren: thrift.New(children),
		LogicalType: format.LogicalType{Value: logical}}
}

func pqLeaf(name string, rep format.FieldRepetitionType, typ format.Type, logical format.LogicalTypeValue) format.SchemaElement {
	return format.SchemaElement{Name: name, RepetitionType: thrift.New(rep), Type: thrift.New(typ),
		LogicalType: format.LogicalType{Value: logical}}
}

func converted(e format.SchemaElement, c deprecated.ConvertedType) format.SchemaElement {
	e.ConvertedType = thrift.New(c)
	return e
}

func fixed(e format.SchemaElement, n int32) format.SchemaElement {
	e.TypeLength = thrift.New(n)
	return e
}

// lv sets the levels and column of a value.
func lv(v parquet.Value, rep, def, col int) parquet.Value { return v.Level(rep, def, col) }

func assembleRow(t *testing.T, elems []format.SchemaElement, row parquet.Row) (string, error) {
	t.Helper()
	root, err := parquetSchema(elems)
	if err != nil {
		t.Fatal(err)
	}
	a := assembler{cols: make([][]parquet.Value, root.end), pos: make([]int, root.end)}
	b, err := a.row(root, row)
	return string(b), err
}

const (
	req = format.Required
	opt = format.Optional
	rpt = format.Repeated
)

func TestParquetAssembleLists(t *testing.T) {
	i32 := parquet.Int32Value
	null := parquet.NullValue()
	// optional group l (LIST) { repeated group list { optional int32 element } }
	threeLevel := []format.SchemaElement{pqRoot(1), pqGroup("l", opt, 1, &format.ListType{}),
		pqGroup("list", rpt, 1, nil), pqLeaf("element", opt, format.Int32, nil)}
	// optional group l (LIST) { repeated int32 element }
	twoLevel := []format.SchemaElement{pqRoot(1), pqGroup("l", opt, 1, &format.ListType{}), pqLeaf("element", rpt, format.Int32, nil)}
	// group l (LIST) { repeated group <name> { required binary s (UTF8) } }: an object element
	named := func(name string) []format.SchemaElement {
		return []format.SchemaElement{pqRoot(1), converted(pqGroup("l", req, 1, nil), deprecated.List),
			pqGroup(name, rpt, 1, nil), converted(pqLeaf("s", req, format.ByteArray, nil), deprecated.UTF8)}
	}
	// group l (LIST) { repeated group pair { int32 a; int32 b } }
	pair := []format.SchemaElement{pqRoot(1), pqGroup("l", req, 1, &format.ListType{}),
		pqGroup("pair", rpt, 2, nil), pqLeaf("a", req, format.Int32, nil), pqLeaf("b", opt, format.Int32, nil)}
	s := parquet.ByteArrayValue([]byte("v"))
	for _, tt := range []struct {
		name  string
		elems []format.SchemaElement
		row   parquet.Row
		want  string
	}{
		{"3-level null", threeLevel, parquet.Row{lv(null, 0, 0, 0)}, `{"l":null}`},
		{"3-level empty", threeLevel, parquet.Row{lv(null, 0, 1, 0)}, `{"l":[]}`},
		{"3-level", threeLevel, parquet.Row{lv(i32(1), 0, 3, 0), lv(null, 1, 2, 0), lv(i32(2), 1, 3, 0)}, `{"l":[1,null,2]}`},
		{"2-level", twoLevel, parquet.Row{lv(i32(1), 0, 2, 0), lv(i32(2), 1, 2, 0)}, `{"l":[1,2]}`},
		{"2-level empty", twoLevel, parquet.Row{lv(null, 0, 1, 0)}, `{"l":[]}`},
		{"array", named("array"), parquet.Row{lv(s, 0, 1, 0), lv(s, 1, 1, 0)}, `{"l":[{"s":"v"},{"s":"v"}]}`},
		{"tuple", named("l_tuple"), parquet.Row{lv(s, 0, 1, 0)}, `{"l":[{"s":"v"}]}`},
		{"3-level by name", named("list"), parquet.Row{lv(s, 0, 1, 0)}, `{"l":["v"]}`},
		{"pairs", pair, parquet.Row{lv(i32(1), 0, 1, 0), lv(i32(3), 1, 1, 0), lv(i32(2), 0, 2, 1), lv(null, 1, 1, 1)},
			`{"l":[{"a":1,"b":2},{"a":3,"b":null}]}`},
	} {
		got, err := assembleRow(t, tt.elems, tt.row)
		if err != nil || got != tt.want {
			t.Errorf("%s: got %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}

func TestParquetAssembleMaps(t *testing.T) {
	key := func(k string) parquet.Value { return parquet.ByteArrayValue([]byte(k)) }
	// optional group m (MAP_KEY_VALUE, legacy) { repeated group map { required binary key (UTF8) } }: a set
	set := []format.SchemaElement{pqRoot(1), converted(pqGroup("m", opt, 1, nil), deprecated.MapKeyValue),
		pqGroup("map", rpt, 1, nil), converted(pqLeaf("key", req, format.ByteArray, nil), deprecated.UTF8)}
	// group m (MAP) { repeated group key_value { required int64 key; optional group value { int32 x } } }
	objects := []format.SchemaElement{pqRoot(1), pqGroup("m", req, 1, &format.MapType{}),
		pqGroup("key_value", rpt, 2, nil), pqLeaf("key", req, format.Int64, nil),
		pqGroup("value", opt, 1, nil), pqLeaf("x", req, format.Int32, nil)}
	i64, i32, null := parquet.Int64Value, parquet.Int32Value, parquet.NullValue()
	for _, tt := range []struct {
		name  string
		elems []format.SchemaElement
		row   parquet.Row
		want  string
	}{
		{"set", set, parquet.Row{lv(key("a\"b"), 0, 2, 0), lv(key("c"), 1, 2, 0)}, `{"m":{"a\"b":null,"c":null}}`},
		{"null set", set, parquet.Row{lv(null, 0, 0, 0)}, `{"m":null}`},
		{"empty set", set, parquet.Row{lv(null, 0, 1, 0)}, `{"m":{}}`},
		{"int keys", objects, parquet.Row{lv(i64(-1), 0, 1, 0), lv(i64(2), 1, 1, 0), lv(i32(5), 0, 2, 1), lv(null, 1, 1, 1)},
			`{"m":{"-1":{"x":5},"2":null}}`},
	} {
		got, err := assembleRow(t, tt.elems, tt.row)
		if err != nil || got != tt.want {
			t.Errorf("%s: got %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}

func TestParquetAssembleLeaves(t *testing.T) {
	bytesOf := func(b ...byte) parquet.Value { return parquet.ByteArrayValue(b) }
	flba := func(b ...byte) parquet.Value { return parquet.FixedLenByteArrayValue(b) }
	nine := append([]byte{0x01}, make([]byte, 8)...) // 2^64
	for _, tt := range []struct {
		name string
		elem format.SchemaElement
		v    parquet.Value
		want string
	}{
		{"UTF8", converted(pqLeaf("x", req, format.ByteArray, nil), deprecated.UTF8), bytesOf('h', 'i'), `"hi"`},
		{"ENUM", converted(pqLeaf("x", req, format.ByteArray, nil), deprecated.Enum), bytesOf('E'), `"E"`},
		{"JSON", converted(pqLeaf("x", req, format.ByteArray, nil), deprecated.Json), bytesOf('[', '1', ' ', ']'), `[1]`},
		{"BSON", pqLeaf("x", req, format.ByteArray, &format.BsonType{}), bytesOf(5, 0, 0, 0, 0), `"BQAAAAA="`},
		{"INTERVAL", fixed(converted(pqLeaf("x", req, format.FixedLenByteArray, nil), deprecated.Interval), 3), flba(1, 2, 3), `"AQID"`},
		{"plain BYTE_ARRAY", pqLeaf("x", req, format.ByteArray, nil), bytesOf('a'), `"YQ=="`},
		{"converted DECIMAL", func() format.SchemaElement {
			e := converted(pqLeaf("x", req, format.Int32, nil), deprecated.Decimal)
			e.Scale, e.Precision = thrift.New(int32(2)), thrift.New(int32(9))
			return e
		}(), parquet.Int32Value(-150), `-1.50`},
		{"DECIMAL BYTE_ARRAY -1", pqLeaf("x", req, format.ByteArray, &format.DecimalType{Scale: 2, Precision: 30}), bytesOf(0xff), `-0.01`},
		{"DECIMAL BYTE_ARRAY 2^64", pqLeaf("x", req, format.ByteArray, &format.DecimalType{Scale: 0, Precision: 30}), bytesOf(nine...), `18446744073709551616`},
		{"DECIMAL BYTE_ARRAY -2^71", pqLeaf("x", req, format.ByteArray, &format.DecimalType{Scale: 3, Precision: 30}),
			bytesOf(0x80, 0, 0, 0, 0, 0, 0, 0, 0), `-2361183241434822606.848`},
		{"DECIMAL FIXED 8", fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.DecimalType{Scale: 1, Precision: 18}), 8),
			flba(0x80, 0, 0, 0, 0, 0, 0, 0), `-922337203685477580.8`},
		{"TIMESTAMP_MILLIS", converted(pqLeaf("x", req, format.Int64, nil), deprecated.TimestampMillis), parquet.Int64Value(1500), `"1970-01-01T00:00:01.5Z"`},
		{"TIMESTAMP_MICROS", converted(pqLeaf("x", req, format.Int64, nil), deprecated.TimestampMicros), parquet.Int64Value(-1), `"1969-12-31T23:59:59.999999Z"`},
		{"TIME_MILLIS", converted(pqLeaf("x", req, format.Int32, nil), deprecated.TimeMillis), parquet.Int32Value(1), `"00:00:00.001"`},
		{"TIME_MICROS", converted(pqLeaf("x", req, format.Int64, nil), deprecated.TimeMicros), parquet.Int64Value(3600e6), `"01:00:00"`},
		{"DATE", converted(pqLeaf("x", req, format.Int32, nil), deprecated.Date), parquet.Int32Value(19723), `"2024-01-01"`},
		{"UINT_32", converted(pqLeaf("x", req, format.Int32, nil), deprecated.Uint32), parquet.Int32Value(-1), `4294967295`},
		{"UINT_64", converted(pqLeaf("x", req, format.Int64, nil), deprecated.Uint64), parquet.Int64Value(-1), `18446744073709551615`},
		{"INT_16", converted(pqLeaf("x", req, format.Int32, nil), deprecated.Int16), parquet.Int32Value(-300), `-300`},
		{"INT(16,false)", pqLeaf("x", req, format.Int32, &format.IntType{BitWidth: 16, IsSigned: false}), parquet.Int32Value(65535), `65535`},
		{"NULL", pqLeaf("x", req, format.Int32, &format.NullType{}), parquet.Int32Value(1), `null`},
		{"FLOAT16 1", fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.Float16Type{}), 2), flba(0x00, 0x3c), `1`},
		{"FLOAT16 -2", fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.Float16Type{}), 2), flba(0x00, 0xc0), `-2`},
		{"FLOAT16 max", fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.Float16Type{}), 2), flba(0xff, 0x7b), `65500`},
		{"FLOAT16 subnormal", fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.Float16Type{}), 2), flba(0x01, 0x00), `6e-08`},
		{"FLOAT16 third", fixed(pqLeaf("x", req, format.FixedLenByteArray, &format.Float16Type{}), 2), flba(0x55, 0x35), `0.3333`},
		{"TIME NANOS", pqLeaf("x", req, format.Int64, &format.TimeType{Unit: format.TimeUnit{Value: &format.NanoSeconds{}}}),
			parquet.Int64Value(86399999999999), `"23:59:59.999999999"`},
		{"TIMESTAMP NANOS", pqLeaf("x", req, format.Int64, &format.TimestampType{Unit: format.TimeUnit{Value: &format.NanoSeconds{}}}),
			parquet.Int64Value(math.MinInt64), `"1677-09-21T00:12:43.145224192Z"`},
		{"INT96", pqLeaf("x", req, format.Int96, nil), parquet.Int96Value(int96(2440589, 1)), `"1970-01-02T00:00:00.000000001Z"`},
	} {
		elems := []format.SchemaElement{pqRoot(1), tt.elem}
		got, err := assembleRow(t, elems, parquet.Row{lv(tt.v, 0, 0, 0)})
		if want := `{"x":` + tt.want + `}`; err != nil || got != want {
			t.Errorf("%s: got %s, %v; want %s", tt.name, got, err, want)
		}
	}
}

func TestParquetSchemaErrors(t *testing.T) {
	i32 := pqLeaf("e", req, format.Int32, nil)
	for _, tt := range []struct {
		name  string
		elems []format.SchemaElement
		want  string
	}{
		{"list of two", []format.SchemaElement{pqRoot(1), pqGroup("l", opt, 2, &format.ListType{}), pqLeaf("a", rpt, format.Int32, nil), pqLeaf("b", rpt, format.Int32, nil)},
			`parquet column "l": LIST group must have exactly one repeated field`},
		{"list not repeated", []format.SchemaElement{pqRoot(1), pqGroup("l", opt, 1, &format.ListType{}), i32},
			`parquet column "l": LIST group must have exactly one repeated field`},
		{"map without key", []format.SchemaElement{pqRoot(1), pqGroup("m", opt, 1, &format.MapType{}), pqLeaf("kv", rpt, format.Int32, nil)},
			`parquet column "m": MAP group must have exactly one repeated group`},
		{"map with group key", []format.SchemaElement{pqRoot(1), pqGroup("m", opt, 1, &format.MapType{}), pqGroup("kv", rpt, 1, nil), pqGroup("k", req, 1, nil), i32},
			`parquet column "m": MAP must have a primitive key and at most one value`},
		{"variant", []format.SchemaElement{pqRoot(1), pqGroup("v", opt, 1, &format.VariantType{}), i32},
			`parquet column "v": VARIANT columns are not supported`},
		{"empty group", []format.SchemaElement{pqRoot(1), pqGroup("g", opt, 0, nil)},
			`parquet column "g": group has no columns`},
		{"negative scale", []format.SchemaElement{pqRoot(1), pqLeaf("d", req, format.Int32, &format.DecimalType{Scale: -1, Precision: 5})},
			`parquet column "d": DECIMAL scale -1 is negative`},
		{"decimal on double", []format.SchemaElement{pqRoot(1), pqLeaf("d", req, format.Double, &format.DecimalType{Scale: 1, Precision: 5})},
			`parquet column "d": DECIMAL is not valid on DOUBLE`},
		{"time millis on int64", []format.SchemaElement{pqRoot(1), pqLeaf("t", req, format.Int64, &format.TimeType{Unit: format.TimeUnit{Value: &format.MilliSeconds{}}})},
			`parquet column "t": TIME(isAdjustedToUTC=false,unit=MILLIS) is not valid on INT64`},
		{"uuid of 15", []format.SchemaElement{pqRoot(1), fixed(pqLeaf("u", req, format.FixedLenByteArray, &format.UUIDType{}), 15)},
			`parquet column "u": UUID is not valid on FIXED_LEN_BYTE_ARRAY`},
		{"string on group", []format.SchemaElement{pqRoot(1), pqGroup("g", opt, 1, &format.StringType{}), i32},
			`parquet column "g": logical type STRING is not valid on a group`},
		{"too many children", []format.SchemaElement{pqRoot(3), i32},
			`parquet column "": invalid number of children 3`},
		{"UTF8 on INT32", []format.SchemaElement{pqRoot(1), converted(pqLeaf("s", req, format.Int32, nil), deprecated.UTF8)},
			`parquet column "s": UTF8 or ENUM is not valid on INT32`},
		{"TIMESTAMP_MILLIS on INT32", []format.SchemaElement{pqRoot(1), converted(pqLeaf("s", req, format.Int32, nil), deprecated.TimestampMillis)},
			`parquet column "s": TIMESTAMP_MILLIS is not valid on INT32`},
		{"bad name", []format.SchemaElement{pqRoot(1), pqLeaf("\xff", req, format.Int32, nil)},
			`parquet column "\xff": name is not valid UTF-8`},
	} {
		_, err := parquetSchema(tt.elems)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.want)
		}
	}
}

func TestParquetAssembleMalformed(t *testing.T) {
	i32 := parquet.Int32Value
	elems := []format.SchemaElement{pqRoot(2), pqLeaf("a", req, format.Int32, nil), pqLeaf("b", opt, format.Int32, nil)}
	for name, row := range map[string]parquet.Row{
		"missing column": {lv(i32(1), 0, 0, 0)},
		"extra value":    {lv(i32(1), 0, 0, 0), lv(i32(2), 0, 1, 1), lv(i32(3), 1, 1, 1)},
		"unknown column": {lv(i32(1), 0, 0, 0), lv(i32(2), 0, 1, 1), lv(i32(3), 0, 0, 2)},
		"empty":          {},
	} {
		if got, err := assembleRow(t, elems, row); !errors.Is(err, errMalformed) {
			t.Errorf("%s: got %s, %v; want errMalformed", name, got, err)
		}
	}
}

func TestAppendDecimal(t *testing.T) {
	for _, tt := range []struct {
		digits string
		scale  int
		want   string
	}{
		{"0", 0, "0"}, {"0", 2, "0.00"}, {"5", 3, "0.005"}, {"-5", 3, "-0.005"}, {"150", 2, "1.50"},
		{"-150", 2, "-1.50"}, {"123", 3, "0.123"}, {"-123", 0, "-123"}, {"1234", 3, "1.234"},
	} {
		if got := string(appendDecimal([]byte("x"), []byte(tt.digits), tt.scale)); got != "x"+tt.want {
			t.Errorf("appendDecimal(%s, %d) = %s, want x%s", tt.digits, tt.scale, got, tt.want)
		}
	}
}

type pqValues struct {
	ID   int32   `parquet:"id"`
	F64  float64 `parquet:"f64"`
	Name []byte  `parquet:"name,string"`
	Ts   int64   `parquet:"ts,timestamp(millisecond)"`
	Doc  []byte  `parquet:"doc,json"`
}

// A value without a JSON form is an *inputerr.Error naming the row and the
// column; the next row can still be read, as after a bad jsonl line.
func TestParquetValueErrors(t *testing.T) {
	ok := pqValues{Name: []byte("ok"), Doc: []byte("1")}
	bad := func(f func(*pqValues)) pqValues { v := ok; f(&v); return v }
	for _, tt := range []struct {
		row  pqValues
		want string
	}{
		{bad(func(v *pqValues) { v.F64 = math.NaN() }), `property "f64": BATCH file "%s" row 2: NaN has no JSON form`},
		{bad(func(v *pqValues) { v.F64 = math.Inf(-1) }), `property "f64": BATCH file "%s" row 2: -Inf has no JSON form`},
		{bad(func(v *pqValues) { v.Name = []byte("a\xffb") }), `property "name": BATCH file "%s" row 2: invalid UTF-8 at byte 2`},
		{bad(func(v *pqValues) { v.Ts = 253402300800000 }), `property "ts": BATCH file "%s" row 2: date-time is outside years 0000-9999`},
		{bad(func(v *pqValues) { v.Doc = []byte("{") }), `property "doc": BATCH file "%s" row 2: JSON value: invalid JSON`},
		{bad(func(v *pqValues) { v.Doc = []byte("1 2") }), `property "doc": BATCH file "%s" row 2: JSON value: invalid JSON: unexpected data after the top-level object at byte 3`},
	} {
		next := ok
		next.ID = 3
		path := writeParquet(t, []pqValues{ok, tt.row, next}, 0)
		b, err := Open(parquetMessage("", path), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Next(); err != nil {
			t.Fatal(err)
		}
		_, err = b.Next()
		var ie *inputerr.Error
		want := `line 2: stream "orders": ` + fmt.Sprintf(tt.want, path)
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("got %v\nwant *inputerr.Error %s", err, want)
		}
		m, err := b.Next()
		if err != nil || string(m.Record) != `{"id":3,"f64":0,"name":"ok","ts":"1970-01-01T00:00:00Z","doc":1}` || m.FileLine != 3 {
			t.Errorf("after the error: got %v, %v", m, err)
		}
		b.Close()
	}
}

func TestParquetRowLimit(t *testing.T) {
	path := writeParquet(t, []pqValues{{Name: []byte("short"), Doc: []byte("1")}, {Name: bytes.Repeat([]byte("x"), 100), Doc: []byte("1")}}, 0)
	rows, err := readBatch(t, parquetMessage("", path), Options{MaxLineBytes: 100})
	var ie *inputerr.Error
	if len(rows) != 1 || !errors.As(err, &ie) || !strings.HasSuffix(err.Error(), `row 2: longer than the limit of 100 bytes`) {
		t.Errorf("got %d rows, %v", len(rows), err)
	}
}

// A corrupt, truncated or missing file is a plain error (exit 1) naming
// the BATCH line and the file.
func TestParquetFileErrors(t *testing.T) {
	good, err := os.ReadFile(writeParquet(t, []pqValues{{ID: 1, Doc: []byte("1")}, {ID: 2, Doc: []byte("2")}}, 0))
	if err != nil {
		t.Fatal(err)
	}
	// Overwrite the data pages (they start after the 4-byte magic).
	pages := bytes.Clone(good)
	for i := 4; i < len(good)/2; i++ {
		pages[i] = 0xee
	}
	// A footer length of nearly 4 GiB in a file of a few hundred bytes:
	// parquet-go allocates that much before reading (TestHugeFooterLength).
	huge := bytes.Clone(good)
	binary.LittleEndian.PutUint32(huge[len(huge)-8:], 0xfffffff0)
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "not a readable parquet file"},
		{"eight bytes", []byte("PAR1PAR1"), "not a readable parquet file: its footer claims 827474256 bytes, more than the file's 8"},
		{"huge footer length", huge, fmt.Sprintf("not a readable parquet file: its footer claims 4294967280 bytes, more than the file's %d", len(huge))},
		{"jsonl", []byte(`{"id":1}` + "\n"), `not a readable parquet file: invalid magic header of parquet file: "{\"id"`},
		{"truncated", good[:len(good)-10], "not a readable parquet file"},
		{"no footer", good[:len(good)/2], "not a readable parquet file"},
		{"gzipped", gzipped(t, string(good)), "the file is gzip-compressed as a whole"},
		{"corrupt pages", pages, "read row 1: "},
		{"missing", nil, "no such file or directory"},
	} {
		path := writeFile(t, "x.parquet", tt.data)
		if tt.name == "missing" {
			path += ".gone"
		}
		rows, err := readBatch(t, parquetMessage("", "file://"+path), Options{})
		var ie *inputerr.Error
		prefix := fmt.Sprintf(`line 2: stream "orders": BATCH file "file://%s": `, path)
		if err == nil || errors.As(err, &ie) || !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %d rows, %v; want a plain error %s…%s", tt.name, len(rows), err, prefix, tt.want)
		}
	}
}

// The Singer SDK writes "compression": "gzip" parquet files with gzip
// pages; other codecs come from other writers. All read alike.
func TestParquetCompressedPages(t *testing.T) {
	rows := make([]pqNested, 50)
	for i := range rows {
		rows[i].ID = int32(i)
		rows[i].Tags = []string{strings.Repeat("t", i)}
	}
	want := records(t, writeParquet(t, rows, 0))
	for _, codec := range []parquet.WriterOption{
		parquet.Compression(&parquet.Gzip), parquet.Compression(&parquet.Snappy), parquet.Compression(&parquet.Zstd),
	} {
		path := writeParquet(t, rows, 7, codec)
		for _, compression := range []string{"gzip", "none", ""} {
			got, err := readBatch(t, parquetMessage(compression, path), Options{})
			if err != nil || len(got) != len(want) {
				t.Fatalf("%v: %d rows, %v", codec, len(got), err)
			}
			for i := range got {
				if got[i].record != want[i] {
					t.Errorf("%v row %d: got %s, want %s", codec, i+1, got[i].record, want[i])
				}
			}
		}
	}
}

type pqRecord struct {
	ID     int64    `parquet:"id"`
	Name   string   `parquet:"name"`
	Amount int64    `parquet:"amount,decimal(2:12)"`
	At     int64    `parquet:"at,timestamp(microsecond)"`
	Day    int32    `parquet:"day,date"`
	Tags   []string `parquet:"tags,list"`
	Note   *string  `parquet:"note,optional"`
	Obj    struct {
		Score float64  `parquet:"score"`
		In    *pqInner `parquet:"in,optional"`
	} `parquet:"obj"`
}

// pqRecordPair returns row i as a parquet row and as the jsonl line a tap
// would write for it.
func pqRecordPair(i int) (pqRecord, string) {
	var r pqRecord
	r.ID = int64(i)
	r.Name = fmt.Sprintf("name %d é \"%d\"", i, i%7)
	r.Amount = int64(i*37 - 5000)
	r.At = 1700000000000000 + int64(i)*1234567
	r.Day = int32(i - 500)
	r.Tags = []string{"a", fmt.Sprint(i)}[:i%3%2+1]
	r.Obj.Score = float64(i) / 8
	if i%4 == 0 {
		n := fmt.Sprint("note ", i)
		r.Note = &n
		d := int32(i)
		r.Obj.In = &pqInner{C: "c", D: &d}
	}
	sign, cents := "", r.Amount
	if cents < 0 {
		sign, cents = "-", -cents
	}
	name, _ := json.Marshal(r.Name)
	tags, _ := json.Marshal(r.Tags)
	note, in := "null", "null"
	if r.Note != nil {
		note = fmt.Sprintf("%q", *r.Note)
		in = fmt.Sprintf(`{"c":"c","d":%d}`, i)
	}
	line := fmt.Sprintf(`{"id": %d, "name": %s, "amount": %s%d.%02d, "at": %q, "day": %q, "tags": %s, "note": %s, "obj": {"score": %v, "in": %s}}`,
		i, name, sign, cents/100, cents%100,
		time.UnixMicro(r.At).UTC().Format("2006-01-02T15:04:05.999999Z07:00"),
		time.Unix(int64(r.Day)*86400, 0).UTC().Format("2006-01-02"),
		tags, note, r.Obj.Score, in)
	return r, line
}

func decodeNumbers(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return v
}

// A parquet BATCH file loads the same records as the equivalent jsonl
// file: equal when decoded, numbers compared as their text.
func TestParquetMatchesJSONL(t *testing.T) {
	const n = 2000
	rows := make([]pqRecord, n)
	var jsonl strings.Builder
	for i := range rows {
		var line string
		rows[i], line = pqRecordPair(i)
		jsonl.WriteString(line + "\n")
	}
	pq := writeParquet(t, rows, 300)
	jl := writeFile(t, "data.jsonl", []byte(jsonl.String()))
	fromJSONL, err := readBatch(t, batchMessage(t, "", jl, jl), Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromParquet, err := readBatch(t, parquetMessage("", pq, pq), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fromParquet) != 2*n || len(fromJSONL) != 2*n {
		t.Fatalf("got %d parquet rows and %d jsonl rows, want %d", len(fromParquet), len(fromJSONL), 2*n)
	}
	for i := range fromParquet {
		p, j := fromParquet[i], fromJSONL[i]
		if p.fileLine != j.fileLine || p.file != pq {
			t.Fatalf("row %d: parquet %s row %d, jsonl line %d", i, p.file, p.fileLine, j.fileLine)
		}
		if !reflect.DeepEqual(decodeNumbers(t, p.record), decodeNumbers(t, j.record)) {
			t.Fatalf("row %d:\nparquet %s\njsonl   %s", i, p.record, j.record)
		}
	}
}

func TestParquetEmptyFiles(t *testing.T) {
	none := writeParquet(t, []pqValues{}, 0)
	one := writeParquet(t, []pqValues{{ID: 9, Doc: []byte("0")}}, 0)
	rows, err := readBatch(t, parquetMessage("", none, one, none), Options{})
	if err != nil || len(rows) != 1 || rows[0].file != one || !strings.HasPrefix(rows[0].record, `{"id":9,`) {
		t.Errorf("got %v, %v", rows, err)
	}
}

type pqWide struct {
	ID     int64  `parquet:"id"`
	Name   string `parquet:"name"`
	Amount int64  `parquet:"amount,decimal(2:18)"`
	At     int64  `parquet:"at,timestamp(microsecond)"`
}

// writeWide streams n rows of about 150 bytes to a new uncompressed file.
func writeWide(tb testing.TB, n int, groupRows int64) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "wide.parquet")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	w := parquet.NewGenericWriter[pqWide](bw, parquet.MaxRowsPerRowGroup(groupRows), parquet.Compression(&parquet.Uncompressed))
	chunk := make([]pqWide, 0, 1000)
	for i := range n {
		chunk = append(chunk, pqWide{int64(i), fmt.Sprintf("%0128d", i*7919), int64(i) * 101, 1700000000000000 + int64(i)})
		if len(chunk) == cap(chunk) || i == n-1 {
			if _, err := w.Write(chunk); err != nil {
				tb.Fatal(err)
			}
			chunk = chunk[:0]
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// A big file is streamed: the heap grows by far less than the file.
func TestParquetLargeFileBoundedMemory(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	path := writeWide(t, n, int64(n/8))
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Live heap after a collection, not HeapInuse: garbage not yet
	// collected would make the figure depend on when the GC last ran
	// (CI saw 9.3 MB in use against 4.5-6.9 MB here, same code).
	// Two collections: sync.Pool keeps its items through the first one.
	live := func() int64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	base := live() // before the open: a reader that loads the file there counts
	b, err := Open(parquetMessage("", path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	peak := base
	count := 0
	for {
		m, err := b.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`{"id":%d,"name":"%0128d",`, count, count*7919); !bytes.HasPrefix(m.Record, []byte(want)) {
			t.Fatalf("row %d: %s", count+1, m.Record)
		}
		count++
		if count%5000 == 0 {
			peak = max(peak, live())
		}
	}
	if count != n {
		t.Fatalf("read %d rows, want %d", count, n)
	}
	growth := peak - base
	t.Logf("file %d bytes in 8 row groups, live heap grew by at most %d bytes", info.Size(), growth)
	if growth > info.Size()/4 {
		t.Errorf("heap grew by %d bytes reading a %d-byte file", growth, info.Size())
	}
}

// BenchmarkParquetBatch reads a file of typical records; see rows/s.
func BenchmarkParquetBatch(b *testing.B) {
	const n = 100_000
	rows := make([]pqRecord, n)
	for i := range rows {
		rows[i], _ = pqRecordPair(i)
	}
	path := writeParquet(b, rows, 20_000, parquet.Compression(&parquet.Snappy))
	msg := parquetMessage("", path)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		br, err := Open(msg, Options{})
		if err != nil {
			b.Fatal(err)
		}
		count := 0
		for {
			_, err := br.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			count++
		}
		br.Close()
		if count != n {
			b.Fatalf("read %d rows", count)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
}

// A footer length past the file's end is refused before parquet-go
// allocates a buffer of that length: the read takes little memory
// (FuzzParquetFile's corpus d9955c01c64e2ab4 took 3.2 GB before).
func TestHugeFooterLengthTakesNoMemory(t *testing.T) {
	good, err := os.ReadFile(writeParquet(t, []pqValues{{ID: 1, Doc: []byte("1")}}, 0))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint32(good[len(good)-8:], 0x7ffffff0)
	path := writeFile(t, "x.parquet", good)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := readBatch(t, parquetMessage("", "file://"+path), Options{}); err == nil || !strings.Contains(err.Error(), "footer claims") {
		t.Fatalf("err = %v, want the footer length refused", err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Fatalf("reading the file allocated %d MB", got>>20)
	}
}

// FuzzParquetFile checks that no file, however damaged, panics or yields
// a record that is not a JSON object.
func FuzzParquetFile(f *testing.F) {
	good := writeParquet(f, []pqNested{{ID: 1, Tags: []string{"a"}, Attrs: map[string]int64{"k": 1}}, {ID: 2}}, 1)
	data, err := os.ReadFile(good)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:len(data)-12])
	f.Add([]byte("PAR1PAR1"))
	path := filepath.Join(f.TempDir(), "f.parquet") // rewritten by each run, which run one at a time
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := Open(parquetMessage("", path), Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		for {
			m, err := b.Next()
			if err == io.EOF {
				return
			}
			var ie *inputerr.Error
			if errors.As(err, &ie) {
				continue
			}
			if err != nil {
				if !strings.Contains(err.Error(), path) {
					t.Fatalf("error does not name the file: %v", err)
				}
				return
			}
			if _, err := singer.ScanObject(m.Record); err != nil {
				t.Fatalf("record is not a JSON object: %v: %s", err, m.Record)
			}
		}
	})
}

// The date arithmetic agrees with package time over years 0000-9999.
func TestAppendDateTimeMatchesTime(t *testing.T) {
	check := func(sec int64) {
		got, err := appendDateTime(nil, sec, 0)
		want := `"` + time.Unix(sec, 0).UTC().Format("2006-01-02T15:04:05Z") + `"`
		if err != nil || string(got) != want {
			t.Fatalf("appendDateTime(%d) = %s, %v; want %s", sec, got, err, want)
		}
	}
	for sec := int64(minRFC3339Sec); sec <= maxRFC3339Sec; sec += 86400*97 + 3607 {
		check(sec)
	}
	for _, sec := range []int64{minRFC3339Sec, maxRFC3339Sec, -1, 0, 951782400, 951868800, 4107542400} {
		check(sec)
	}
	for _, sec := range []int64{minRFC3339Sec - 1, maxRFC3339Sec + 1} {
		if _, err := appendDateTime(nil, sec, 0); err == nil {
			t.Errorf("appendDateTime(%d): no error", sec)
		}
	}
}

// A file without columns (which parquet-go cannot write, so its footer is
// built here) still has rows: each is an empty object.
func TestParquetNoColumns(t *testing.T) {
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &format.FileMetaData{
		Version: 1, Schema: thrift.Slice[format.SchemaElement]{pqRoot(0)}, NumRows: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	data := append([]byte("PAR1"), footer...)
	data = binary.LittleEndian.AppendUint32(data, uint32(len(footer)))
	path := writeFile(t, "none.parquet", append(data, "PAR1"...))
	rows, err := readBatch(t, parquetMessage("", path), Options{})
	if want := fmt.Sprint([]row{{path, 1, "{}"}, {path, 2, "{}"}, {path, 3, "{}"}}); err != nil || fmt.Sprint(rows) != want {
		t.Errorf("got %v, %v; want %s", rows, err, want)
	}
}
