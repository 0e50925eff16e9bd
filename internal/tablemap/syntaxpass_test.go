package tablemap

import (
	"errors"
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

// syntaxPair is one stream's layout twice, for validate_records false: g
// for the general path (Row, after the reader's syntax check) and f for the
// one pass without rules (UseOnePassSyntax, then RowOnePass).
type syntaxPair struct {
	g, f *Layout
}

func newSyntaxPair(t testing.TB, schemaText string, keys []string, opts table.Options) (*syntaxPair, bool) {
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
	if !f.PrepareOnePass(sch, false) {
		t.Fatal("PrepareOnePass without rules declined a layout")
	}
	return &syntaxPair{g: g, f: f}, true
}

// compare runs one record both ways and reports whether the one pass took
// it. A record the reader refuses must get an error from the one pass (it
// is the syntax check then); one the reader gives must get Row's row and
// stats, Row's error, or ErrGeneralPath (the caller then asks Row).
func (p *syntaxPair) compare(t testing.TB, record []byte) bool {
	t.Helper()
	meta := &Meta{ReceivedAt: "2025-01-01T00:00:00Z", Sequence: 7}
	n := p.g.Columns()
	gRow, fRow := make([]string, n), make([]string, n)
	gStats, fStats := make([]table.Stats, n), make([]table.Stats, n)
	fErr := p.f.RowOnePass(record, meta, fRow, fStats, nil)
	if !readerGives(record) {
		if fErr == nil {
			t.Fatalf("one pass without rules accepted a record the reader refuses (%v): %q", singer.CheckValue(record, 1), record)
		}
		return false
	}
	gErr := p.g.Row(record, meta, gRow, gStats, nil)
	switch {
	case fErr == nil && gErr != nil:
		t.Fatalf("one pass without rules accepted a record Row rejects (%v): %s", gErr, record)
	case fErr == nil:
		if !slices.Equal(gRow, fRow) {
			t.Fatalf("rows differ for %s:\nRow      %q\none pass %q", record, gRow, fRow)
		}
		if !reflect.DeepEqual(gStats, fStats) {
			t.Fatalf("stats differ for %s:\nRow      %+v\none pass %+v", record, gStats, fStats)
		}
	case !errors.Is(fErr, ErrGeneralPath) && (gErr == nil || gErr.Error() != fErr.Error()):
		t.Fatalf("one pass without rules: error %q, Row %v: %s", fErr, gErr, record)
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

// TestOnePassSyntaxConformance runs every conformance record (valid,
// invalid and malformed) through Row and through the one pass without
// rules, in each storage mode: they must agree, and the one pass must take
// every record Row converts (else validate_records false would fall back
// to two walks), but for numbers the validator's own checks refuse.
func TestOnePassSyntaxConformance(t *testing.T) {
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
			pairs := map[string]*syntaxPair{}
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
					p, ok := newSyntaxPair(t, string(m.Schema), m.KeyProperties, table.Options{StorageMode: mode})
					if !ok {
						p = nil
					}
					pairs[m.Stream] = p
				case singer.TypeRecord:
					p := pairs[m.Stream]
					if p == nil {
						continue
					}
					if m.DecodeRecord(nil) != nil {
						continue // a malformed record: the reader's error, not the one pass's
					}
					records++
					if p.compare(t, m.Record) {
						onePass++
					} else if readerGives(m.Record) && p.g.Row(m.Record, nil, make([]string, p.g.Columns()), nil, nil) == nil &&
						!strings.ContainsAny(string(m.Record), "eE") {
						t.Errorf("%s (%s): the one pass without rules declined a record Row converts: %s", filepath.Base(file), mode, m.Record)
					}
				}
			}
			fh.Close()
		}
	}
	if onePass == 0 {
		t.Fatalf("the one pass without rules accepted none of %d records", records)
	}
	t.Logf("%d records compared, %d through the one pass without rules", records, onePass)
}

// The one pass without rules converts what breaks the schema's rules
// exactly as Row does (validate_records false loads it), and refuses what
// the reader refuses.
func TestOnePassSyntaxIgnoresRules(t *testing.T) {
	schemaText := `{"type":"object","properties":{"id":{"type":"integer","minimum":10},"s":{"type":["null","string"],"maxLength":2},` +
		`"d":{"type":["null","string"],"format":"date-time"},"o":{"type":["null","object"],"properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},"j":{}},"required":["s"]}`
	for _, mode := range []string{table.ModeHybrid, table.ModeFlattened, table.ModeJSON} {
		p, _ := newSyntaxPair(t, schemaText, []string{"id"}, table.Options{StorageMode: mode})
		for _, c := range []struct {
			record string
			took   bool // the one pass gives the row (Row's)
		}{
			{`{"id":1,"s":"too long","o":{"b":1}}`, true},          // minimum, maxLength, required, additionalProperties
			{`{"id":"12","s":"x"}`, true},                          // a string for an integer: converted as Row does
			{`{"id":12,"s":12.50,"o":{"a":[1,{"x":null}]}}`, true}, // a number for a string, an array for a string
			{`{"id":12,"d":"not a time"}`, mode == table.ModeJSON}, // Row's conversion error (json: not converted)
			{`{"id":"x"}`, false},                                  // Row's conversion error
			{`{"s":"x"}`, false},                                   // the key is missing
			{`{"id":1,"s":"a",}`, false},                           // malformed
			{"{\"id\":1,\"s\":\"\xff\"}", false},                   // malformed
			{`{"id":1,"o":{"a":"x",}}`, false},                     // malformed, inside a flattened object
			{`{"id":1}  x`, false},                                 // malformed after the record
		} {
			if got := p.compare(t, []byte(c.record)); got != c.took {
				t.Errorf("%s: %s: one pass took it: %v, want %v", mode, c.record, got, c.took)
			}
		}
	}
}

// FuzzOnePassSyntax checks the one pass without rules against Row on
// mutated schemas and records (see syntaxPair.compare).
func FuzzOnePassSyntax(f *testing.F) {
	for _, s := range onePassSchemas {
		for _, r := range onePassRecords {
			f.Add(s, []byte(r), uint8(0))
		}
	}
	f.Add(onePassSchemas[0], []byte(onePassRecords[0]), uint8(1))
	f.Add(onePassSchemas[1], []byte(onePassRecords[5]), uint8(2))
	modes := []string{table.ModeHybrid, table.ModeFlattened, table.ModeJSON}
	type key struct {
		schema string
		mode   uint8
	}
	pairs := map[key]*syntaxPair{}
	f.Fuzz(func(t *testing.T, schemaText string, record []byte, mode uint8) {
		mode %= uint8(len(modes))
		k := key{schemaText, mode}
		p, ok := pairs[k]
		if !ok {
			p, _ = newSyntaxPair(t, schemaText, nil, table.Options{StorageMode: modes[mode], FlatteningMaxDepth: 3})
			if len(pairs) < 1000 {
				pairs[k] = p
			}
		}
		if p == nil {
			return
		}
		p.compare(t, record)
	})
}
