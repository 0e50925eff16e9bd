package tablemap

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/table"
)

func TestRowStoredForms(t *testing.T) {
	root := tree(
		p("k", str),
		p("i", in|nl),
		p("d", num),
		p("dec", str, decimal(38, 2)),
		p("b", bl),
		p("ts", str, format("date-time")),
		p("dt", str, format("date")),
		p("tm", str, format("time")),
		p("s", str|nl),
		p("mix", str|in|bl),
		p("any", anyType),
		p("o", ob),
	)
	tests := []struct {
		name   string
		opts   table.Options
		record string
		want   map[string]string
	}{
		{"numbers", table.Options{}, `{"k":"x","i":12345678901234567890123456789012345678,"d":-123456789012345678.901234567890123456e0,"dec":"1.50"}`,
			map[string]string{"I": "12345678901234567890123456789012345678", "D": "-123456789012345678.901234567890123456", "DEC": "1.5"}},
		{"number forms", table.Options{}, `{"k":"x","i":-0,"d":1E-5}`, map[string]string{"I": "0", "D": "0.00001"}},
		{"bool as number", table.Options{}, `{"k":"x","b":true}`, map[string]string{"B": "1"}},
		{"bool false as number", table.Options{}, `{"k":"x","b":false}`, map[string]string{"B": "0"}},
		{"bool native", table.Options{BooleanNative: true}, `{"k":"x","b":false}`, map[string]string{"B": "false"}},
		{"date-time offset", table.Options{TimestampTZ: true}, `{"k":"x","ts":"2024-01-02T02:00:00+05:30"}`, map[string]string{"TS": "2024-01-01T20:30:00Z"}},
		{"date-time no tz column", table.Options{}, `{"k":"x","ts":"2024-01-02 02:00:00.123456789-01:00"}`, map[string]string{"TS": "2024-01-02T03:00:00.123456789Z"}},
		{"date and time", table.Options{}, `{"k":"x","dt":"2024-02-29","tm":"10:11:12.5+01:00"}`, map[string]string{"DT": "2024-02-29", "TM": "10:11:12.5+01:00"}},
		{"strings byte-exact", table.Options{}, `{"k":"x","s":"quote \" backslash \\ tab \t 日本 \u00e9 \ud83d\ude00 </"}`,
			map[string]string{"S": "quote \" backslash \\ tab \t 日本 é 😀 </"}},
		{"empty string is NULL", table.Options{}, `{"k":"x","s":""}`, map[string]string{"S": ""}},
		{"null", table.Options{}, `{"k":"x","s":null,"i":null}`, map[string]string{"S": "", "I": ""}},
		{"mixed scalars in text", table.Options{}, `{"k":"x","mix":1.50}`, map[string]string{"MIX": "1.5"}},
		{"mixed bool in text", table.Options{}, `{"k":"x","mix":true}`, map[string]string{"MIX": "true"}},
		{"untyped scalar is JSON", table.Options{JSONNative: true}, `{"k":"x","any":"a\"b"}`, map[string]string{"ANY": `"a\"b"`}},
		{"untyped number keeps text", table.Options{JSONNative: true}, `{"k":"x","any":1.50}`, map[string]string{"ANY": `1.50`}},
		{"json compact", table.Options{}, `{"k":"x","o":{ "b" : [ 1.0 , "x y" ] , "a" : {} }}`, map[string]string{"O": `{"b":[1.0,"x y"],"a":{}}`}},
		{"escaped key", table.Options{}, `{"\u006b":"x","s":"v"}`, map[string]string{"K": "x", "S": "v"}},
	}
	for _, tt := range tests {
		opts := tt.opts
		opts.IdentifierUpper = true
		l, err := NewLayout("s", root, []string{"k"}, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]string, l.Columns())
		if err := l.Row([]byte(tt.record), nil, row, make([]table.Stats, l.Columns()), nil); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		for name, want := range tt.want {
			if got := at(row, l.Table().ColumnIndex(name)); got != want {
				t.Errorf("%s: %s = %q, want %q", tt.name, name, got, want)
			}
		}
	}
}

func TestRowExistingTextColumns(t *testing.T) {
	// Date-times, numbers and booleans landing in existing text columns get
	// their canonical text.
	existing := &table.Table{Columns: []table.Column{
		{Name: "TS", Type: tV4000b, Nullable: true}, {Name: "N", Type: tV4000b, Nullable: true},
		{Name: "B", Type: tClob, Nullable: true}, {Name: "D", Type: tTSTZ6, Nullable: true},
	}}
	root := tree(p("ts", str, format("date-time")), p("n", num), p("b", bl), p("d", str, format("date")))
	l, err := NewLayout("s", root, nil, table.Options{IdentifierUpper: true}, existing)
	if err != nil {
		t.Fatal(err)
	}
	row := make([]string, l.Columns())
	if err := l.Row([]byte(`{"ts":"2024-01-01T00:00:00.100+01:00","n":2.50,"b":false,"d":"2024-03-01"}`), nil, row, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(row, "|"); got != "2023-12-31T23:00:00.1Z|2.5|false|2024-03-01T00:00:00Z" {
		t.Errorf("row %s", got)
	}
}

func TestRowIgnored(t *testing.T) {
	root := tree(p("id", in), p("secret", str), p("o", ob, props(p("keep", in), p("drop", str), p("inner", ob))),
		p("items", ar, items(p("", ob))))
	opts := table.Options{IdentifierUpper: true, IgnoredColumns: []string{"secret", "o.drop", "o.inner.x", "items.price"}}
	rec := `{"id":1,"secret":"s","o":{"z":1,"drop":"d","keep":1.10,"inner":{"x":1,"y":2e3}},"items":[{"price":1,"n":"a"},{"n":"b","price":2},3]}`
	tests := []struct {
		mode string
		want map[string]string
	}{
		{table.ModeHybrid, map[string]string{"O": `{"z":1,"keep":1.10,"inner":{"y":2e3}}`, "ITEMS": `[{"n":"a"},{"n":"b"},3]`}},
		{table.ModeFlattened, map[string]string{"O__KEEP": "1.1", "O__INNER": `{"y":2e3}`}},
		{table.ModeJSON, map[string]string{"DATA": `{"id":1,"o":{"z":1,"keep":1.10,"inner":{"y":2e3}},"items":[{"n":"a"},{"n":"b"},3]}`}},
	}
	for _, tt := range tests {
		opts.StorageMode, opts.FlatteningMaxDepth = tt.mode, 1
		l, err := NewLayout("s", root, []string{"id"}, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if l.Table().ColumnIndex("SECRET") >= 0 || l.Table().ColumnIndex("O__DROP") >= 0 {
			t.Errorf("%s: ignored column created: %s", tt.mode, columnsOf(l.Table()))
		}
		row := make([]string, l.Columns())
		var unknown []string
		if err := l.Row([]byte(rec), nil, row, nil, func(p string) { unknown = append(unknown, p) }); err != nil {
			t.Fatal(err)
		}
		for name, want := range tt.want {
			if got := at(row, l.Table().ColumnIndex(name)); got != want {
				t.Errorf("%s: %s = %s, want %s", tt.mode, name, got, want)
			}
		}
		if len(unknown) > 0 && !(tt.mode == table.ModeFlattened && strings.Join(unknown, ",") == "o.z") {
			t.Errorf("%s: unknown %v", tt.mode, unknown)
		}
	}
}

func TestRowErrors(t *testing.T) {
	root := tree(p("k", str, maxLen(3)), p("n", in), p("b", bl), p("ts", str, format("date-time")))
	l, err := NewLayout("s", root, []string{"k"}, table.Options{IdentifierUpper: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		record, property, msg string
	}{
		{`{"n":1}`, "k", "missing"},
		{`{"k":"","n":1}`, "k", "empty"},
		{`{"k":null}`, "k", "null"},
		{`{"k":"abcd"}`, "k", "does not fit"},
		{`{"k":"日本語x"}`, "k", "does not fit"},
		{`{"k":"a","n":"x"}`, "n", "number"},
		{`{"k":"a","n":1e200}`, "n", "number"},
		{`{"k":"a","b":1}`, "b", "boolean"},
		{`{"k":"a","ts":"yesterday"}`, "ts", "date-time"},
		{`[1]`, "", "not a JSON object"},
		{`{"k":"a",`, "", "malformed"},
	}
	for _, tt := range tests {
		row := make([]string, l.Columns())
		err := l.Row([]byte(tt.record), nil, row, nil, nil)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Property != tt.property || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Row(%s) = %v, want input error on %q mentioning %q", tt.record, err, tt.property, tt.msg)
		}
	}
	row := make([]string, l.Columns())
	if err := l.Row([]byte(`{"k":"日本語"}`), nil, row, nil, nil); err != nil {
		t.Errorf("3-character key: %v", err)
	}
}

func TestRowStatsAndUnknownOnce(t *testing.T) {
	root := tree(p("s", str), p("d", num, decimal(10, 2)), p("ts", str, format("date-time")))
	l, err := NewLayout("s", root, nil, table.Options{IdentifierUpper: true, AddRecordMetadata: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	stats := make([]table.Stats, l.Columns())
	row := make([]string, l.Columns())
	var unknown []string
	for _, rec := range []string{
		`{"s":"日本","d":123.456,"ts":"2024-01-01T00:00:00.1234567Z","x":1}`,
		`{"s":"abcdef","d":-1,"x":2,"y":{"z":1}}`,
	} {
		if err := l.Row([]byte(rec), &Meta{TimeExtracted: "2024-01-01T00:00:00.12Z", Sequence: 1700000000000000000}, row, stats, func(p string) { unknown = append(unknown, p) }); err != nil {
			t.Fatal(err)
		}
	}
	want := []table.Stats{{MaxBytes: 6, MaxChars: 6}, {MaxIntDigits: 3, MaxScale: 3}, {MaxFrac: 7}}
	for i, w := range want {
		if stats[i] != w {
			t.Errorf("stats[%d] = %+v, want %+v", i, stats[i], w)
		}
	}
	if s := stats[l.MetaIndex(table.MetaExtractedAt)]; s.MaxFrac != 2 {
		t.Errorf("extracted_at stats %+v", s)
	}
	if s := stats[l.MetaIndex(table.MetaSequence)]; s.MaxIntDigits != 19 {
		t.Errorf("sequence stats %+v", s)
	}
	if strings.Join(unknown, ",") != "x,y" {
		t.Errorf("unknown %v", unknown)
	}
	// The batch needs NUMBER(11,3) and TIMESTAMP(9): Reconcile widens.
	next, changes, err := table.Reconcile(l.Table(), l.Table(), stats, table.PolicyWiden, table.Options{})
	if err != nil || len(changes) != 2 {
		t.Fatalf("changes %v, %v", changes, err)
	}
	if next.Columns[1].Type.String() != "NUMBER(11,3)" || next.Columns[2].Type.String() != "TIMESTAMP(9)" {
		t.Errorf("next %s", columnsOf(next))
	}
}

func TestComment(t *testing.T) {
	cols := []table.Column{
		{Role: table.RoleProperty, Source: []string{"address", "city"}, Comment: "City; with semicolon"},
		{Role: table.RoleProperty, Source: []string{"a.b; c", "\"q\""}},
		{Role: table.RoleDocument},
		{Role: table.RoleMetadata, Source: []string{"_sdc_extracted_at"}, Comment: "d"},
	}
	wantText := []string{`target-oracle:path=["address","city"]; City; with semicolon`, `target-oracle:path=["a.b; c","\"q\""]`,
		"target-oracle:document", "target-oracle:metadata=_sdc_extracted_at; d"}
	for i, c := range cols {
		s := table.FormatComment(&c)
		if s != wantText[i] {
			t.Errorf("FormatComment = %s, want %s", s, wantText[i])
		}
		role, src, d, ok := table.ParseComment(s)
		if !ok || role != c.Role || strings.Join(src, "/") != strings.Join(c.Source, "/") || d != c.Comment {
			t.Errorf("ParseComment(%s) = %v %q %q %v", s, role, src, d, ok)
		}
	}
	if _, _, d, ok := table.ParseComment("hand written"); ok || d != "hand written" {
		t.Error("foreign comment parsed")
	}
	long := table.FormatComment(&table.Column{Role: table.RoleProperty, Source: []string{"a"}, Comment: strings.Repeat("é", 3000)})
	if len(long) > 4000 || !strings.HasSuffix(long, "é") {
		t.Errorf("long comment %d bytes", len(long))
	}
}

func BenchmarkRow(b *testing.B) {
	root := nested()
	opts := baseOpts()
	l, err := NewLayout("customers", root, []string{"id"}, opts, nil)
	if err != nil {
		b.Fatal(err)
	}
	row := make([]string, l.Columns())
	stats := make([]table.Stats, l.Columns())
	rec := []byte(nestedRecord)
	meta := &Meta{ReceivedAt: "2024-01-01T00:00:00Z", Sequence: 1}
	b.SetBytes(int64(len(rec)))
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Row(rec, meta, row, stats, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// appendSequence keeps the high digits of the last value: every value,
// in any order, still gets the text strconv gives it.
func TestAppendSequence(t *testing.T) {
	var l Layout
	vs := []int64{1, 999_999_999, 1_000_000_000, 1_764_000_000_000_000_000, 1_764_000_000_000_000_001,
		1_764_000_000_999_999_999, 1_764_000_001_000_000_000, 1_764_000_000_000_000_007, 1_000_000_001,
		math.MaxInt64, 42, -5, math.MinInt64, 1_764_000_001_000_000_123}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		vs = append(vs, rng.Int64())
	}
	for _, v := range vs {
		if got, want := string(l.appendSequence([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendSequence(%d) = %q, want %q", v, got, want)
		}
	}
}
