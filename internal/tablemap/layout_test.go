package tablemap

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// nested is the schema used by the storage mode tests.
func nested() *schema.Property {
	return tree(
		p("id", in),
		p("name", str|nl, maxLen(50), desc("Customer name")),
		p("address", ob|nl, props(
			p("city", str),
			p("geo", ob, props(
				p("lat", num),
				p("deep", ob, props(p("x", in))),
			)),
		)),
		p("tags", ar, items(p("", str))),
		p("updated_at", str, format("date-time")),
	)
}

func baseOpts() table.Options {
	return table.Options{Schema: "S", IdentifierUpper: true, ColumnComments: true, FlatteningMaxDepth: 2,
		AddRecordMetadata: true, TimestampTZ: true}
}

func columnsOf(t *table.Table) string {
	var b strings.Builder
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", c.Name, c.Type)
		if !c.Nullable {
			b.WriteString(" NOT NULL")
		}
	}
	return b.String()
}

const metaCols = "_SDC_EXTRACTED_AT TIMESTAMP(6) WITH TIME ZONE, _SDC_RECEIVED_AT TIMESTAMP(6) WITH TIME ZONE, " +
	"_SDC_BATCHED_AT TIMESTAMP(6) WITH TIME ZONE, _SDC_LOADED_AT TIMESTAMP(6) WITH TIME ZONE, " +
	"_SDC_DELETED_AT TIMESTAMP(6) WITH TIME ZONE, _SDC_SEQUENCE NUMBER(38,0), _SDC_TABLE_VERSION NUMBER(38,0), " +
	"_SDC_SYNC_STARTED_AT TIMESTAMP(6) WITH TIME ZONE"

const nestedRecord = `{"tags": ["a", "b"], "id": 7, "address": {"city": "Zürich", "geo": {"lat": 47.37e0, "deep": {"x": 1}}},
	"name": "Ann", "updated_at": "2024-01-02T02:00:00.5+05:30", "extra": true}`

func TestStorageModes(t *testing.T) {
	tests := []struct {
		mode    string
		columns string
		values  map[string]string
	}{
		{table.ModeHybrid,
			"ID NUMBER(38,0) NOT NULL, NAME VARCHAR2(50 CHAR), ADDRESS CLOB, TAGS CLOB, UPDATED_AT TIMESTAMP(6) WITH TIME ZONE, " + metaCols,
			map[string]string{"ID": "7", "NAME": "Ann", "ADDRESS": `{"city":"Zürich","geo":{"lat":47.37e0,"deep":{"x":1}}}`,
				"TAGS": `["a","b"]`, "UPDATED_AT": "2024-01-01T20:30:00.5Z", "_SDC_SEQUENCE": "42"}},
		{table.ModeFlattened,
			"ID NUMBER(38,0) NOT NULL, NAME VARCHAR2(50 CHAR), ADDRESS__CITY VARCHAR2(4000 BYTE), ADDRESS__GEO__LAT NUMBER, " +
				"ADDRESS__GEO__DEEP CLOB, TAGS CLOB, UPDATED_AT TIMESTAMP(6) WITH TIME ZONE, " + metaCols,
			map[string]string{"ID": "7", "ADDRESS__CITY": "Zürich", "ADDRESS__GEO__LAT": "47.37", "ADDRESS__GEO__DEEP": `{"x":1}`,
				"TAGS": `["a","b"]`}},
		{table.ModeJSON,
			"ID NUMBER(38,0) NOT NULL, DATA CLOB, " + metaCols,
			map[string]string{"ID": "7", "DATA": `{"tags":["a","b"],"id":7,"address":{"city":"Zürich","geo":{"lat":47.37e0,"deep":{"x":1}}},"name":"Ann","updated_at":"2024-01-02T02:00:00.5+05:30","extra":true}`}},
	}
	for _, tt := range tests {
		opts := baseOpts()
		opts.StorageMode = tt.mode
		l, err := NewLayout("customers", nested(), []string{"id"}, opts, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.mode, err)
		}
		if got := columnsOf(l.Table()); got != tt.columns {
			t.Errorf("%s: columns\n%s\nwant\n%s", tt.mode, got, tt.columns)
		}
		if pk := l.Table().PrimaryKey; len(pk) != 1 || pk[0] != "ID" {
			t.Errorf("%s: primary key %v", tt.mode, pk)
		}
		row := make([]string, l.Columns())
		stats := make([]table.Stats, l.Columns())
		var unknown []string
		err = l.Row([]byte(nestedRecord), &Meta{Sequence: 42}, row, stats, func(p string) { unknown = append(unknown, p) })
		if err != nil {
			t.Fatalf("%s: Row: %v", tt.mode, err)
		}
		for name, want := range tt.values {
			i := l.Table().ColumnIndex(name)
			if i < 0 || row[i] != want {
				t.Errorf("%s: %s = %q, want %q", tt.mode, name, at(row, i), want)
			}
		}
		wantUnknown := "extra"
		if tt.mode == table.ModeJSON {
			wantUnknown = "" // the document keeps it
		}
		if strings.Join(unknown, ",") != wantUnknown {
			t.Errorf("%s: unknown = %v", tt.mode, unknown)
		}
	}
}

func at(row []string, i int) string {
	if i < 0 {
		return "<no column>"
	}
	return row[i]
}

func TestLayoutNames(t *testing.T) {
	root := tree(
		p("a-b", str), p("a_b", str), p("SELECT", in), p("1st", in), p("café", str),
		p("rowid", str), p("sys_x", str), p(strings.Repeat("x", 150), str), p("quo\"te", str),
	)
	l, err := NewLayout("public-orders", root, nil, table.Options{IdentifierUpper: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A_B", "A_B" + table.NameHash("a_b"), "SELECT", "1ST", "CAF_", "ROWID" + table.NameHash("rowid"),
		"_SYS_X" + table.NameHash("sys_x"), strings.Repeat("X", 119) + table.NameHash(strings.Repeat("x", 150)), "QUO_TE"}
	got := l.Table().Columns
	if l.Table().Name != "PUBLIC_ORDERS" {
		t.Errorf("table = %q", l.Table().Name)
	}
	for i, w := range want {
		if got[i].Name != w {
			t.Errorf("column %d = %q, want %q", i, got[i].Name, w)
		}
	}
	// 30-byte identifiers.
	l30, err := NewLayout("s", root, nil, table.Options{IdentifierUpper: true, IdentifierMaxBytes: 30}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range l30.Table().Columns {
		if len(c.Name) > 30 {
			t.Errorf("column %q over 30 bytes", c.Name)
		}
	}
}

func TestLayoutMappingsAndOrdering(t *testing.T) {
	root := tree(p("zeta", str), p("id", str, maxLen(20)), p("alpha", in), p("addr", ob, props(p("zip", str))))
	opts := table.Options{IdentifierUpper: true, ColumnOrdering: "alphabetical", StorageMode: table.ModeFlattened, FlatteningMaxDepth: 1,
		ColumnMappings: map[string]string{"addr.zip": "Postal Code", "zeta": "Zeta"}, TableName: "My Table",
		CustomIndexes: []table.Index{{Columns: []string{"alpha", "Postal Code"}}}}
	l, err := NewLayout("s", root, []string{"id"}, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := columnsOf(l.Table()); got != "ID VARCHAR2(20 CHAR) NOT NULL, ALPHA NUMBER(38,0), Postal Code VARCHAR2(4000 BYTE), Zeta VARCHAR2(4000 BYTE)" {
		t.Errorf("columns %s", got)
	}
	if l.Table().Name != "My Table" {
		t.Errorf("table %q", l.Table().Name)
	}
	if ix := l.Table().Indexes; len(ix) != 1 || ix[0].Name != "My Table_ALPHA_Postal Code_6200c7ad_IDX" || ix[0].Columns[1] != "Postal Code" {
		t.Errorf("indexes %+v", ix)
	}
	for _, bad := range []map[string]string{{"zeta": "a\"b"}, {"zeta": "a\x00"}, {"zeta": strings.Repeat("z", 129)}, {"zeta": "ID", "alpha": "ID"}, {"zeta": "ROWID"}} {
		opts.ColumnMappings = bad
		var ce *table.ConfigError
		if _, err := NewLayout("s", root, []string{"id"}, opts, nil); !errors.As(err, &ce) {
			t.Errorf("mapping %v: err = %v, want ConfigError", bad, err)
		}
	}
}

func TestLayoutMetadata(t *testing.T) {
	root := tree(p("id", in), p("_sdc_deleted_at", str|nl, format("date-time")))
	tests := []struct {
		opts table.Options
		want string
	}{
		{table.Options{IdentifierUpper: true}, "ID NUMBER(38,0) NOT NULL, _SDC_DELETED_AT TIMESTAMP(6)"},
		{table.Options{IdentifierUpper: true, UsesVersions: true}, "ID NUMBER(38,0) NOT NULL, _SDC_DELETED_AT TIMESTAMP(6), _SDC_TABLE_VERSION NUMBER(38,0)"},
	}
	for _, tt := range tests {
		l, err := NewLayout("s", root, []string{"id"}, tt.opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := columnsOf(l.Table()); got != tt.want {
			t.Errorf("columns %s, want %s", got, tt.want)
		}
		row := make([]string, l.Columns())
		if err := l.Row([]byte(`{"id":1,"_sdc_deleted_at":"2024-05-01 10:00:00"}`), &Meta{TableVersion: "9"}, row, nil, nil); err != nil {
			t.Fatal(err)
		}
		if row[l.MetaIndex(table.MetaDeletedAt)] != "2024-05-01T10:00:00Z" {
			t.Errorf("deleted = %q", row[l.MetaIndex(table.MetaDeletedAt)])
		}
		if i := l.MetaIndex(table.MetaTableVersion); i >= 0 && row[i] != "9" {
			t.Errorf("version = %q", row[i])
		}
		if l.MetaIndex(table.MetaBatchedAt) != -1 {
			t.Error("batched_at present without add_record_metadata")
		}
	}
	// Without _sdc_deleted_at, versions or deletes: no metadata at all.
	l, _ := NewLayout("s", tree(p("id", in)), nil, table.Options{}, nil)
	if l.Columns() != 1 {
		t.Errorf("columns %s", columnsOf(l.Table()))
	}
}

func TestLayoutKeys(t *testing.T) {
	tests := []struct {
		name string
		root *schema.Property
		keys []string
		opts table.Options
		want string // columns, or "error: substring"
	}{
		{"one unbounded", tree(p("k", str)), []string{"k"}, table.Options{}, "k VARCHAR2(4000 BYTE) NOT NULL"},
		{"extended ceiling", tree(p("k", str)), []string{"k"}, table.Options{VarcharMaxBytes: 32767}, "k VARCHAR2(6000 BYTE) NOT NULL"},
		{"two unbounded", tree(p("a", str), p("b", str)), []string{"a", "b"}, table.Options{}, "a VARCHAR2(3000 BYTE) NOT NULL, b VARCHAR2(3000 BYTE) NOT NULL"},
		{"bounded and unbounded", tree(p("a", str, maxLen(100)), p("b", str), p("n", in)), []string{"a", "b", "n"}, table.Options{},
			"a VARCHAR2(100 CHAR) NOT NULL, b VARCHAR2(4000 BYTE) NOT NULL, n NUMBER(38,0) NOT NULL"},
		{"big bounded", tree(p("a", str, maxLen(1000)), p("b", str, maxLen(1000))), []string{"a", "b"}, table.Options{},
			"a VARCHAR2(3000 BYTE) NOT NULL, b VARCHAR2(3000 BYTE) NOT NULL"},
		{"json key", tree(p("k", ob)), []string{"k"}, table.Options{}, "error: LOB"},
		{"clob key", tree(p("k", str, maxLen(5000))), []string{"k"}, table.Options{}, "error: CLOB"},
		{"missing key", tree(p("k", str)), []string{"x"}, table.Options{}, "error: not in the schema"},
		{"date-time key", tree(p("k", str, format("date-time"))), []string{"k"}, table.Options{}, "k TIMESTAMP(9) NOT NULL"}, // keys never widen: no fraction is too fine
	}
	for _, tt := range tests {
		l, err := NewLayout("s", tt.root, tt.keys, tt.opts, nil)
		if msg, ok := strings.CutPrefix(tt.want, "error: "); ok {
			var ie *inputerr.Error
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), msg) {
				t.Errorf("%s: err = %v, want input error with %q", tt.name, err, msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := columnsOf(l.Table()); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestLayoutTooManyColumns(t *testing.T) {
	var ps []*schema.Property
	for i := range 1001 {
		ps = append(ps, p(fmt.Sprintf("c%d", i), in))
	}
	_, err := NewLayout("s", tree(ps...), nil, table.Options{}, nil)
	if err == nil || !strings.Contains(err.Error(), "storage_mode json") {
		t.Errorf("err = %v", err)
	}
	if _, err := NewLayout("s", tree(ps...), nil, table.Options{StorageMode: table.ModeJSON}, nil); err != nil {
		t.Errorf("json mode: %v", err)
	}
}

func TestLayoutExisting(t *testing.T) {
	existing := &table.Table{Schema: "S", Name: "T", Columns: []table.Column{
		{Name: "Id", Type: table.Type{Kind: table.KindNumber, Precision: 10}, Nullable: false},
		{Name: "RENAMED", Type: tV30b, Nullable: true, Comment: `target-oracle:path=["city"]; old`},
		{Name: "AMOUNT", Type: tDec102, Nullable: true},
		{Name: "A_B", Type: tV4000b, Nullable: true, Comment: `target-oracle:path=["gone"]`},
		{Name: "LEGACY", Type: tV4000b, Nullable: true},
	}, PrimaryKey: []string{"Id"}}
	root := tree(p("id", in), p("city", str), p("amount", num, decimal(12, 4)), p("a-b", str), p("new", bl))
	l, err := NewLayout("s", root, []string{"id"}, table.Options{IdentifierUpper: true}, existing)
	if err != nil {
		t.Fatal(err)
	}
	// The key column keeps NUMBER(10,0): keys never widen (SPEC §5.2).
	want := "Id NUMBER(10,0) NOT NULL, RENAMED VARCHAR2(4000 BYTE), AMOUNT NUMBER(12,4), A_B VARCHAR2(4000 BYTE), LEGACY VARCHAR2(4000 BYTE), " +
		"A_B" + table.NameHash("a-b") + " VARCHAR2(4000 BYTE), NEW NUMBER(1)"
	if got := columnsOf(l.Table()); got != want {
		t.Errorf("columns\n%s\nwant\n%s", got, want)
	}
	row := make([]string, l.Columns())
	if err := l.Row([]byte(`{"id":1,"city":"x","a-b":"y","new":true}`), nil, row, nil, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Join(row, "|") != "1|x||||y|1" {
		t.Errorf("row %q", row)
	}
	// An existing NOT NULL column the schema does not fill.
	existing.Columns[4].Nullable = false
	if _, err := NewLayout("s", root, []string{"id"}, table.Options{IdentifierUpper: true}, existing); err == nil || !strings.Contains(err.Error(), "LEGACY") {
		t.Errorf("NOT NULL legacy: %v", err)
	}
}

// TestLayoutStable checks that a second run on the table the first created
// maps every property to the same column, whatever the collisions.
func TestLayoutStable(t *testing.T) {
	root := tree(p("a-b", str), p("a_b", str), p(strings.Repeat("y", 200), str), p("x", ob))
	opts := table.Options{IdentifierUpper: true, ColumnComments: true, AddRecordMetadata: true}
	first, err := NewLayout("s", root, nil, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	existing := first.Table().Clone()
	for i := range existing.Columns { // what the catalog returns: names, types, comments
		c := &existing.Columns[i]
		c.Comment, c.Source, c.Role = table.FormatComment(c), nil, 0
	}
	// The schema now lists the properties in another order.
	root2 := tree(p("a_b", str), p("x", ob), p("a-b", str), p(strings.Repeat("y", 200), str))
	second, err := NewLayout("s", root2, nil, opts, existing)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := columnsOf(first.Table()), columnsOf(second.Table()); a != b {
		t.Errorf("second run\n%s\nfirst run\n%s", b, a)
	}
}

func FuzzNewLayout(f *testing.F) {
	f.Add([]byte("a\x01b\x02c\x40d"), uint8(0), uint8(30))
	f.Add([]byte("id\x01id\x02ID\x00x.y\x05"), uint8(1), uint8(128))
	f.Add([]byte("\x00\x00\x00"), uint8(2), uint8(30))
	f.Fuzz(func(t *testing.T, spec []byte, mode uint8, max uint8) {
		root := fuzzTree(spec)
		opts := table.Options{IdentifierUpper: mode&4 == 0, IdentifierMaxBytes: 30, FlatteningMaxDepth: int(mode>>4) % 4,
			StorageMode: []string{table.ModeHybrid, table.ModeFlattened, table.ModeJSON}[int(mode)%3], AddRecordMetadata: mode&8 != 0}
		if max >= 128 {
			opts.IdentifierMaxBytes = 128
		}
		var keys []string
		if len(root.Properties) > 0 && mode&64 != 0 {
			keys = []string{root.Properties[0].Name}
		}
		l, err := NewLayout("stream", root, keys, opts, nil)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, c := range l.Table().Columns {
			if seen[c.Name] {
				t.Fatalf("duplicate column %q", c.Name)
			}
			seen[c.Name] = true
			if err := table.CheckName(c.Name, opts.IdentifierMaxBytes); err != nil {
				t.Fatal(err)
			}
		}
		row := make([]string, l.Columns())
		_ = l.Row([]byte(`{"a":{"b":1},"x":[1,{"y":"z"}],"id":"k"}`), &Meta{}, row, make([]table.Stats, l.Columns()), nil)
	})
}

// fuzzTree builds a small property tree from bytes: a name (bytes up to a
// control byte), then the control byte picks the type and nesting.
func fuzzTree(spec []byte) *schema.Property {
	root := &schema.Property{Types: schema.Object, MaxLength: -1, HasProperties: true}
	stack := []*schema.Property{root}
	name := []byte{}
	for _, c := range spec {
		if c >= 0x20 || len(stack) == 0 {
			name = append(name, c)
			continue
		}
		parent := stack[len(stack)-1]
		types := []schema.TypeSet{str, in, num, bl, ob, ar, str | in, schema.Any}[c%8]
		pr := &schema.Property{Name: string(name), Types: types, MaxLength: -1}
		if c&8 != 0 {
			pr.MaxLength = int(c)
		}
		name = name[:0]
		parent.Properties = append(parent.Properties, pr)
		switch {
		case types == ob && len(stack) < 4:
			pr.HasProperties = true
			stack = append(stack, pr)
		case c&16 != 0 && len(stack) > 1:
			stack = stack[:len(stack)-1]
		}
	}
	setPaths(root, nil)
	return root
}

func TestLayoutInvalid(t *testing.T) {
	free := &schema.Property{Types: ob, MaxLength: -1} // {"type":"object"} without properties
	if _, err := NewLayout("s", free, nil, table.Options{}, nil); err == nil {
		t.Error("schema without properties accepted in hybrid mode")
	}
	l, err := NewLayout("s", free, nil, table.Options{StorageMode: table.ModeJSON, JSONColumnName: "doc"}, nil)
	if err != nil {
		t.Fatalf("json mode: %v", err)
	}
	row := make([]string, l.Columns())
	if err := l.Row([]byte(`{"a" : 1}`), nil, row, nil, nil); err != nil || row[0] != `{"a":1}` || l.Table().Columns[0].Name != "doc" {
		t.Errorf("json mode row %q, %v", row, err)
	}
	var ce *table.ConfigError
	if _, err := NewLayout("s", tree(p("id", in)), []string{"id"}, table.Options{IgnoredColumns: []string{"id"}}, nil); !errors.As(err, &ce) {
		t.Errorf("ignored key: %v", err)
	}
	if _, err := NewLayout("s", tree(p("id", in)), nil, table.Options{StorageMode: "wide"}, nil); !errors.As(err, &ce) {
		t.Errorf("bad mode: %v", err)
	}
	if _, err := NewLayout("s", tree(p("id", in)), nil, table.Options{CustomIndexes: []table.Index{{Columns: []string{"nope"}}}}, nil); !errors.As(err, &ce) {
		t.Errorf("bad index: %v", err)
	}
}

// A custom index on a column Oracle cannot index (a CLOB from a long
// string, an object's JSON) is a configuration error when the layout is
// made, before any row of the stream: on Oracle, CREATE INDEX would fail
// with ORA-02327 after the table was created. A VARCHAR2 column is fine.
func TestCustomIndexOnLOBIsAConfigError(t *testing.T) {
	schemaTree := func() *schema.Property {
		return tree(p("id", in), p("body", str, maxLen(100000)), p("tags", ob), p("name", str, maxLen(40)))
	}
	for _, col := range []string{"body", "tags"} {
		_, err := NewLayout("docs", schemaTree(), []string{"id"}, table.Options{CustomIndexes: []table.Index{{Columns: []string{"id", col}}}}, nil)
		var ce *table.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "ORA-02327") || !strings.Contains(err.Error(), `"`+col+`"`) {
			t.Errorf("index on %s: error %v, want a custom_indexes configuration error naming it and ORA-02327", col, err)
		}
	}
	l, err := NewLayout("docs", schemaTree(), []string{"id"}, table.Options{CustomIndexes: []table.Index{{Columns: []string{"name"}}}}, nil)
	if err != nil || len(l.Table().Indexes) != 1 {
		t.Fatalf("index on a VARCHAR2 column: %v", err)
	}
}

// custom_indexes name metadata columns by their Singer names, as other
// targets' settings do (_sdc_batched_at), or by their column names; a
// property of that name would win.
func TestCustomIndexOnMetadataColumnBySingerName(t *testing.T) {
	for _, ref := range []string{"_sdc_batched_at", "_SDC_BATCHED_AT"} {
		opts := table.Options{IdentifierUpper: true, AddRecordMetadata: true, CustomIndexes: []table.Index{{Columns: []string{ref}}}}
		l, err := NewLayout("docs", tree(p("id", in)), []string{"id"}, opts, nil)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if ix := l.Table().Indexes; len(ix) != 1 || len(ix[0].Columns) != 1 || ix[0].Columns[0] != "_SDC_BATCHED_AT" {
			t.Errorf("%s: indexes %+v, want one on _SDC_BATCHED_AT", ref, ix)
		}
	}
}

// A custom index whose columns may pass Oracle's index key limit (two
// unbounded strings: VARCHAR2(4000) each) draws a warning at the SCHEMA;
// one within it (bounded strings) does not.
func TestCustomIndexPastTheKeyLimitWarns(t *testing.T) {
	for _, tc := range []struct {
		maxLen int
		warns  bool
	}{{-1, true}, {200, false}} {
		opts := table.Options{IdentifierUpper: true, CustomIndexes: []table.Index{{Columns: []string{"n", "m"}}}}
		l, err := NewLayout("a", tree(p("id", in), p("n", str, maxLen(tc.maxLen)), p("m", str, maxLen(tc.maxLen))), []string{"id"}, opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		warned := slices.ContainsFunc(l.Warnings(), func(w string) bool { return strings.Contains(w, "ORA-01450") && strings.Contains(w, `"N", "M"`) })
		if warned != tc.warns {
			t.Errorf("maxLength %d: warnings %q, want a key limit warning: %v", tc.maxLen, l.Warnings(), tc.warns)
		}
	}
}

// custom_indexes entries Oracle would refuse among themselves or against
// the primary key are configuration errors at the SCHEMA (the load would
// fail at CREATE INDEX after the table was made; the dry run passed):
// two names alike (ORA-00955), the primary key constraint's name or the
// table's own (ORA-00955), a column twice (ORA-00957), a UNIQUE entry on
// a plain one's columns (ORA-01408). An
// entry another serves (the same columns, the key's columns) is not
// kept, as the load counts its ORA-01408 done.
func TestCustomIndexesOracleWouldRefuse(t *testing.T) {
	ix := func(name string, unique bool, cols ...string) table.Index {
		return table.Index{Name: name, Unique: unique, Columns: cols}
	}
	for _, tc := range []struct {
		name  string
		ix    []table.Index
		want  string // "" = made
		index []string
	}{
		{"same name", []table.Index{ix("IX", false, "n"), ix("IX", false, "id", "n")}, "ORA-00955", nil},
		{"key's name", []table.Index{ix("A_PK", false, "n")}, "ORA-00955", nil},
		{"unique after plain", []table.Index{ix("", false, "n"), ix("N_U", true, "n")}, "ORA-01408", nil},
		{"plain after unique", []table.Index{ix("N_U", true, "n"), ix("", false, "n")}, "", []string{"N_U"}},
		{"twice", []table.Index{ix("", false, "n"), ix("", false, "n")}, "", []string{"A_N_IDX"}},
		{"key's columns", []table.Index{ix("", true, "id"), ix("", false, "n", "id")}, "", []string{"A_N_ID_6e11f62b_IDX"}},
		{"column twice", []table.Index{ix("", false, "n", "n")}, "ORA-00957", nil},
		{"property and its column", []table.Index{ix("", false, "n", "N")}, "ORA-00957", nil},
		{"table's name", []table.Index{ix("A", false, "n")}, "ORA-00955", nil},
	} {
		opts := table.Options{IdentifierUpper: true, CustomIndexes: tc.ix}
		l, err := NewLayout("a", tree(p("id", in), p("n", str, maxLen(40))), []string{"id"}, opts, nil)
		var ce *table.ConfigError
		if tc.want != "" {
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want a custom_indexes configuration error with %s", tc.name, err, tc.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var names []string
		for _, x := range l.Table().Indexes {
			names = append(names, x.Name)
		}
		if !slices.Equal(names, tc.index) {
			t.Errorf("%s: indexes %q, want %q", tc.name, names, tc.index)
		}
	}
}

// Oracle's B-tree indexes take at most 32 columns (ORA-01793): a
// custom_indexes entry of 33 is a configuration error at the SCHEMA, one
// of 32 is made.
func TestCustomIndexOfMoreThan32Columns(t *testing.T) {
	var props []*schema.Property
	var cols []string
	for i := range 33 {
		props = append(props, p(fmt.Sprintf("c%d", i), in))
		cols = append(cols, fmt.Sprintf("c%d", i))
	}
	for _, n := range []int{32, 33} {
		opts := table.Options{IdentifierUpper: true, CustomIndexes: []table.Index{{Columns: cols[:n]}}}
		_, err := NewLayout("a", tree(append([]*schema.Property{p("id", in)}, props...)...), []string{"id"}, opts, nil)
		var ce *table.ConfigError
		switch {
		case n == 32 && err != nil:
			t.Errorf("32 columns: %v", err)
		case n == 33 && (!errors.As(err, &ce) || !strings.Contains(err.Error(), "ORA-01793")):
			t.Errorf("33 columns: error %v, want a custom_indexes configuration error with ORA-01793", err)
		}
	}
}
