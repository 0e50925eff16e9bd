package tablemap

import (
	"errors"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/conformance"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/singer"
	"github.com/target-oracle/target-oracle/internal/table"
)

// onePassPair is one stream's layout twice: g for the general path
// (ValidateRaw, then Row) and f for the one-pass one (RowOnePass).
type onePassPair struct {
	sch  *schema.Schema
	g, f *Layout
}

func newOnePassPair(t testing.TB, schemaText string, keys []string, opts table.Options) (*onePassPair, bool) {
	t.Helper()
	sch, err := schema.Compile([]byte(schemaText))
	if err != nil {
		return nil, false
	}
	g, err := NewLayout("s", sch.Root, keys, opts, nil)
	if err != nil {
		return nil, false
	}
	f, err := NewLayout("s", sch.Root, keys, opts, nil)
	if err != nil {
		t.Fatalf("second NewLayout failed where the first did not: %v", err)
	}
	sch.KeepNumberText(g.NumberTextPaths()) // as the pipeline does
	if !f.UseOnePass(sch) {
		return nil, false
	}
	return &onePassPair{sch: sch, g: g, f: f}, true
}

// compare runs one record both ways. The one-pass path may decline a record
// (ErrGeneralPath: the pipeline then asks the general path), but whatever it
// accepts must be valid and give the general path's row and stats, and a
// record the general path rejects must never get through. It reports
// whether the one-pass path accepted.
func (p *onePassPair) compare(t testing.TB, record []byte) bool {
	t.Helper()
	meta := &Meta{ReceivedAt: "2025-01-01T00:00:00Z", Sequence: 7}
	n := p.g.Columns()
	gRow, fRow := make([]string, n), make([]string, n)
	gStats, fStats := make([]table.Stats, n), make([]table.Stats, n)
	verr := p.sch.ValidateRaw(record)
	var gErr error
	if verr == nil {
		gErr = p.g.Row(record, meta, gRow, gStats, nil)
	}
	fErr := p.f.RowOnePass(record, meta, fRow, fStats, nil)
	switch {
	case fErr == nil && verr != nil:
		t.Fatalf("one-pass path accepted a record the validator rejects (%v): %s", verr, record)
	case fErr == nil && gErr != nil:
		t.Fatalf("one-pass path accepted a record Row rejects (%v): %s", gErr, record)
	case fErr == nil:
		if !slices.Equal(gRow, fRow) {
			t.Fatalf("rows differ for %s:\ngeneral %q\none-pass %q", record, gRow, fRow)
		}
		if !reflect.DeepEqual(gStats, fStats) {
			t.Fatalf("stats differ for %s:\ngeneral %+v\none-pass %+v", record, gStats, fStats)
		}
	case !errors.Is(fErr, ErrGeneralPath) && verr == nil && (gErr == nil || gErr.Error() != fErr.Error()):
		t.Fatalf("one-pass conversion error %q, general path %v: %s", fErr, gErr, record)
	}
	if fErr != nil && !errors.Is(fErr, ErrGeneralPath) {
		for _, s := range fStats {
			if s != (table.Stats{}) {
				t.Fatalf("a failed record changed the stats: %+v", fStats)
			}
		}
	}
	return fErr == nil
}

// readerGives reports whether the reader would hand record to the row
// builder: one JSON value in valid UTF-8.
func readerGives(record []byte) bool {
	return singer.CheckValue(record, 1) == nil
}

// TestRowOnePassConformance runs every record of every conformance stream
// through both paths, in each storage mode: they must agree, and the one-pass
// path must accept every record the general path loads (else the pipeline
// would silently fall back to two passes).
func TestRowOnePassConformance(t *testing.T) {
	dir := conformance.Dir(t)
	var files []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".singer") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no conformance streams under %s", dir)
	}
	var records, onePass int
	for _, mode := range []string{table.ModeHybrid, table.ModeFlattened, table.ModeJSON} {
		for _, file := range files {
			pairs := map[string]*onePassPair{}
			fh, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			r := singer.NewReader(fh, singer.ReaderOptions{})
			for {
				m, err := r.Next()
				if err != nil {
					break // end, or the malformed lines some streams end with
				}
				switch m.Type {
				case singer.TypeSchema:
					p, ok := newOnePassPair(t, string(m.Schema), m.KeyProperties, table.Options{StorageMode: mode})
					if !ok {
						p = nil
					}
					pairs[m.Stream] = p
				case singer.TypeRecord:
					p := pairs[m.Stream]
					if p == nil || !readerGives(m.Record) {
						continue
					}
					records++
					if p.compare(t, m.Record) {
						onePass++
					} else if p.sch.ValidateRaw(m.Record) == nil && p.g.Row(m.Record, nil, make([]string, p.g.Columns()), nil, nil) == nil {
						t.Errorf("%s (%s): the one-pass path declined a valid record: %s", filepath.Base(file), mode, m.Record)
					}
				}
			}
			fh.Close()
		}
	}
	if onePass == 0 {
		t.Fatalf("the one-pass path accepted none of %d records", records)
	}
	t.Logf("%d records compared, %d through the one-pass path", records, onePass)
}

// onePassSchemas seed FuzzRowOnePass: the constructs the one-pass walk handles
// itself (properties, required, additionalProperties, flattened objects)
// and ones it hands whole to the validator.
var onePassSchemas = []string{
	`{"type":"object","properties":{"id":{"type":"integer"},"uuid":{"type":"string","maxLength":36},"customer":{"type":["null","string"]},"amount":{"type":["null","number"],"multipleOf":0.01},"active":{"type":["null","boolean"]},"created_at":{"type":["null","string"],"format":"date-time"},"address":{"type":["null","object"],"properties":{"street":{"type":"string"},"zip":{"type":"string","pattern":"^[0-9]+$"}},"required":["street"]},"tags":{"type":["null","array"],"items":{"type":"string"}}},"required":["id"]}`,
	`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"integer","minimum":0}}}},"additionalProperties":false},"d":{"type":"string","format":"date"}},"additionalProperties":{"type":"string"}}`,
	`{"type":"object","properties":{"k":{"type":"string","minLength":1},"v":{"anyOf":[{"type":"integer"},{"type":"string","enum":["x","y"]}]},"o":{"type":"object","properties":{"p":{"type":"number"}},"minProperties":1}},"required":["k","missing"]}`,
	`{"type":"object","properties":{"n":{"type":"number","exclusiveMaximum":10},"s":{"type":"string","format":"time"},"j":{"type":"object"},"b":{"type":"boolean"}}}`,
}

var onePassRecords = []string{
	`{"id":1,"uuid":"0f8e","customer":"Ann","amount":12.5,"active":true,"created_at":"2024-01-02T03:04:05.123456+02:00","address":{"street":"Main","zip":"01234"},"tags":["a","b"]}`,
	`{"id":2,"address":{"zip":"x"}}`,
	`{"id":3,"address":null,"tags":null,"uuid":"0123456789012345678901234567890123456789"}`,
	`{"amount":0.001,"id":4}`,
	`{"a":{"b":{"c":-1}},"d":"2024-02-30"}`,
	`{"a":{"b":{"c":5},"z":1},"extra":"s","d":"2024-02-28"}`,
	`{"k":"","v":"z","o":{}}`,
	`{"k":"a","missing":1,"v":3,"o":{"p":1.5}}`,
	`{"n":10,"s":"25:00:00","j":{"x":[1,{"y":null}]},"b":1}`,
	`{"n":9.99,"s":"12:00:00Z","j":{"x" : [ 1 , 2 ] },"b":false}`,
	`{"id":5,"id":"dup"}`,
	`{"id":"\u0031","uuid":"\ud83d\ude00","customer":"tab\there"}`,
}

// FuzzRowOnePass checks the one-pass path against the general one on mutated
// schemas and records (see onePassPair.compare).
func FuzzRowOnePass(f *testing.F) {
	for _, s := range onePassSchemas {
		for _, r := range onePassRecords {
			f.Add(s, []byte(r), uint8(0))
		}
	}
	f.Add(onePassSchemas[0], []byte(onePassRecords[0]), uint8(1))
	f.Add(onePassSchemas[1], []byte(onePassRecords[5]), uint8(2))
	// Unloaded numbers beyond Oracle NUMBER (undeclared, ignored, ignored
	// inside JSON), with native JSON and ignored columns (mode 3 and up).
	f.Add(onePassSchemas[0], []byte(`{"id":1,"customer":1e200,"address":{"street":"s","zip":1e-200},"x":-1e300}`), uint8(4))
	f.Add(onePassSchemas[3], []byte(`{"n":1,"j":{"x":1e200,"p":[{"n":1e200}]},"y":123456789012345678901234567890123456789012}`), uint8(9))
	modes := []string{table.ModeHybrid, table.ModeFlattened, table.ModeJSON}
	type key struct {
		schema string
		mode   uint8
	}
	pairs := map[key]*onePassPair{}
	f.Fuzz(func(t *testing.T, schemaText string, record []byte, mode uint8) {
		// mode: the storage mode, then whether some paths of the seed
		// schemas are ignored, then whether JSON columns are native.
		mode %= uint8(4 * len(modes))
		opts := table.Options{StorageMode: modes[mode%3], JSONNative: mode/6 == 1}
		if mode/3%2 == 1 {
			opts.IgnoredColumns = []string{"customer", "address.zip", "tags", "j.x", "j.p.n", "a.b", "o.p", "n"}
		}
		valid := readerGives(record)
		k := key{schemaText, mode}
		p, ok := pairs[k]
		if !ok {
			p, _ = newOnePassPair(t, schemaText, nil, opts)
			if len(pairs) < 1000 {
				pairs[k] = p
			}
		}
		if p == nil {
			return
		}
		if !valid {
			// The walk is the syntax check of records the reader did not
			// check (singer.Message.DecodeRecord).
			row, stats := make([]string, p.f.Columns()), make([]table.Stats, p.f.Columns())
			if err := p.f.RowOnePass(record, nil, row, stats, nil); err == nil {
				t.Fatalf("one-pass path accepted a record the reader refuses (%v): %q", singer.CheckValue(record, 1), record)
			}
			return
		}
		p.compare(t, record)
	})
}

func TestAppendCompact(t *testing.T) {
	for in, want := range map[string]string{
		`{ "a" : [ 1 , 2 ] }`:           `{"a":[1,2]}`,
		"{\r\n\t\"k\": \"a b\\\" c\" }": `{"k":"a b\" c"}`,
		`["x y",  {"s" :"\\"} , null ]`: `["x y",{"s":"\\"},null]`,
		`"  spaced  "`:                  `"  spaced  "`,
		`12.50`:                         `12.50`,
		`{"a":"unterminated  `:          `{"a":"unterminated  `,
		`  [ ]  `:                       `[]`,
		`{"emoji":"😀 ", "cjk" : "漢 字"}`: `{"emoji":"😀 ","cjk":"漢 字"}`,
	} {
		if got := string(appendCompact([]byte("pre:"), []byte(in), nil)); got != "pre:"+want {
			t.Errorf("appendCompact(%q) = %q, want %q", in, got, "pre:"+want)
		}
		// Bounded (native JSON), the same text where every number fits.
		if got, err := compact([]byte("pre:"), []byte(in), 0, true, nil); err != nil || string(got) != "pre:"+want {
			t.Errorf("compact(%q, bound) = %q, %v, want %q", in, got, err, "pre:"+want)
		}
	}
}

// A native JSON value's number beyond Oracle NUMBER is found as the value
// is compacted, with its offset and its path inside the value; digits in
// strings and keys are no numbers.
func TestCompactBoundsNumbers(t *testing.T) {
	for _, c := range []struct{ in, number, path string }{
		{`1e200`, "1e200", ""},
		{`{"a1": "-9e999", "b" : [ 0, -0.0, 1E-5, {"c\u0064": 1e-131} ]}`, "1e-131", "b.3.cd"},
		{`[[], {}, "1e999", [123456789012345678901234567890123456789]]`, "123456789012345678901234567890123456789", "3.0"},
		{`{"ok": [1.5, -2, 3e125]}`, "", ""},
	} {
		_, err := compact(nil, []byte(c.in), 0, true, nil)
		var ne *numberError
		if c.number == "" {
			if err != nil {
				t.Errorf("%s: %v, want no error", c.in, err)
			}
			continue
		}
		if !errors.As(err, &ne) || ne.text != c.number || c.in[ne.at:ne.at+len(c.number)] != c.number {
			t.Errorf("%s: %v, want %s refused", c.in, err, c.number)
			continue
		}
		if got := strings.Join(pathTo([]byte(c.in), 0, ne.at), "."); got != c.path {
			t.Errorf("%s: path %q, want %q", c.in, got, c.path)
		}
		if !strings.Contains(err.Error(), c.number+" is not a valid number: ") {
			t.Errorf("%s: message %q", c.in, err)
		}
	}
}

// Duplicate keys: the last value of a key counts, as for the validator
// (encoding/json), for leaf columns, held conversion errors and whole
// flattened objects.
func TestDuplicateKeysLastWins(t *testing.T) {
	schemaText := `{"type":"object","properties":{"id":{"type":"integer"},"o":{"type":["null","object"],"properties":{"a":{"type":"string"},"b":{"type":"string"}}}}}`
	p, ok := newOnePassPair(t, schemaText, []string{"id"}, table.Options{StorageMode: table.ModeFlattened, FlatteningMaxDepth: 3})
	if !ok {
		t.Fatal("schema not covered by the one-pass decoder")
	}
	for _, c := range []struct {
		record, want, err string
	}{
		{`{"id":1,"o":{"a":"x","b":"y"},"o":{"a":"z"}}`, "1 z -", ""},
		{`{"id":1,"o":{"a":"x"},"o":null}`, "1 - -", ""},
		{`{"id":1,"o":null,"o":{"b":"y"}}`, "1 - y", ""},
		{`{"id":"x","id":2}`, "2 - -", ""},
		{`{"id":2,"id":"x"}`, "", `property "id"`},
		{`{"id":2,"o":{"a":{}},"o":{"a":"ok"}}`, "2 ok -", ""},
	} {
		p.compare(t, []byte(c.record))
		row := make([]string, p.g.Columns())
		err := p.g.Row([]byte(c.record), nil, row, nil, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.record, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.record, err)
			continue
		}
		var got []string
		for _, name := range []string{"id", "o__a", "o__b"} { // Options{} keeps the case
			v := row[p.g.Table().ColumnIndex(name)]
			if v == "" {
				v = "-"
			}
			got = append(got, v)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%s: got %q, want %q", c.record, strings.Join(got, " "), c.want)
		}
	}
}

// The one pass is the syntax check of records the reader did not check:
// it must never accept malformed JSON, whatever the schema lets through.
func TestRowOnePassRefusesMalformed(t *testing.T) {
	schemaText := `{"type":"object","properties":{"id":{"type":"integer"},"s":{"type":["null","string"]},` +
		`"o":{"type":["null","object"],"properties":{"a":{"type":"string"}}},"j":{}}}`
	for _, mode := range []string{table.ModeHybrid, table.ModeFlattened, table.ModeJSON} {
		p, ok := newOnePassPair(t, schemaText, nil, table.Options{StorageMode: mode})
		if !ok {
			t.Fatal("schema not covered by the one-pass decoder")
		}
		for _, record := range []string{
			`{"id":1,}`,
			`{"id":1}x`,
			`{"id":1,"s":"\ud800"}`,
			`{"id":1,"s":"\udc00\ud800"}`,
			"{\"id\":1,\"s\":\"\xff\"}",
			"{\"id\":1,\"s\":\"a\tb\"}",
			"{\"id\":1,\"k\tx\":1}",
			"{\"id\":1,\"\xc3\":1}",
			`{"id":1,"\ud800":1}`,
			`{"id":1,"o":{"a":"x",}}`,
			`{"id":1,"j":[1,]}`,
			`{"id":1,"j":{"a":01}}`,
			"{\"id\":1,\"j\":\"\xed\xa0\x80\"}",
			`{"id":1,"s":"a"`,
			`{"id":1 "s":"a"}`,
			`{"id":1,"j":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`, // deeper than singer.MaxDepth
		} {
			if readerGives([]byte(record)) {
				t.Fatalf("test record %q is valid JSON", record)
			}
			row, stats := make([]string, p.f.Columns()), make([]table.Stats, p.f.Columns())
			if err := p.f.RowOnePass([]byte(record), nil, row, stats, nil); err == nil {
				t.Errorf("%s: RowOnePass accepted malformed %.80q", mode, record)
			}
		}
	}
}

// The deepest record the reader accepts goes through the one pass.
func TestRowOnePassDepthLimit(t *testing.T) {
	p, ok := newOnePassPair(t, `{"type":"object","properties":{"j":{}}}`, nil, table.Options{StorageMode: table.ModeHybrid})
	if !ok {
		t.Fatal("schema not covered by the one-pass decoder")
	}
	record := []byte(`{"j":` + strings.Repeat("[", 998) + strings.Repeat("]", 998) + `}`)
	if !readerGives(record) {
		t.Fatal("the reader refuses the test record")
	}
	if !p.compare(t, record) {
		t.Error("the one pass declined a record at the depth limit")
	}
}

// The compaction passes feed oravalue.NameCheck (the fast path of the
// repeated-name check): whatever the exact scan finds, the check fed by
// either pass (plain, and bounded for native JSON) is unsure of, and it
// settles the plain values records carry.
func TestCompactFeedsNameCheck(t *testing.T) {
	for in, settled := range map[string]bool{
		`{"a":1,"b":2}`:                         true,
		` { "a" : [ 1 , { "a":1 } ] , "b":0 } `: true,
		`["foxtrot","charlie","golf"]`:          true,
		`{"s":"{\"a\":1,\"a\":2}","t":true}`:    true,
		`{"a":1,"a":2}`:                         false,
		`{"a" : 1 , "a":2}`:                     false,
		`[{"a":1},{"a":null,"a":false}]`:        false,
		`{"o":{"k":-1.5e3,"k":[]}}`:             false,
		`{"\u0061":1,"a":2}`:                    false,
		`{"x":{"a":1},"x":2}`:                   false,
	} {
		exact := oravalue.DuplicateName(in) != nil
		for _, bound := range []bool{false, true} {
			var nc oravalue.NameCheck[[]byte]
			if _, err := compact(nil, []byte(in), 0, bound, &nc); err != nil {
				t.Fatalf("compact(%s, %v): %v", in, bound, err)
			}
			if exact && !nc.Unsure() {
				t.Errorf("compact(%s, bound %v) settled a value the exact scan finds a repeat in", in, bound)
			}
			if settled && nc.Unsure() {
				t.Errorf("compact(%s, bound %v) left a plain value unsure", in, bound)
			}
		}
	}
}
