package memory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Table names are the user's (table_name_mappings): the dump's file for a
// table stays inside tables/ whatever the name holds.
func TestDumpFileName(t *testing.T) {
	for in, want := range map[string]string{
		"DRY_RUN.ORDERS":             "DRY_RUN.ORDERS.jsonl",
		"APP.T$1#x-y":                "APP.T$1#x-y.jsonl",
		"DRY_RUN.x/../../../escaped": "DRY_RUN.x%2F..%2F..%2F..%2Fescaped.jsonl",
		`DRY_RUN.a\b:c*d`:            "DRY_RUN.a%5Cb%3Ac%2Ad.jsonl",
		"DRY_RUN.naïve table":        "DRY_RUN.na%C3%AFve%20table.jsonl",
	} {
		got := DumpFileName(in)
		if got != want {
			t.Errorf("DumpFileName(%q) = %q, want %q", in, got, want)
		}
		if filepath.Base(got) != got || got == ".." {
			t.Errorf("DumpFileName(%q) = %q is not a plain file name", in, got)
		}
	}
}

// The dump's quick path for plain strings writes what the JSON encoder
// writes.
func TestEncodeMatchesMarshal(t *testing.T) {
	w := newRowWriter(&table.Table{}, nil)
	for _, s := range []string{"", "plain text 123", `a"b`, `back\slash`, "tab\there", "\x7f", "<html>&", "naïve", "\u2028", "\xff", "~ ok !"} {
		want, err := marshal(s, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := w.encode(s); string(got) != string(want) {
			t.Errorf("encode(%q) = %s, want %s", s, got, want)
		}
	}
}

// A qualified name longer than a file name may be (two 128-byte
// identifiers, or a non-ASCII one written as %XX) gets a file name of at
// most 255 bytes, cut outside a %XX sequence, unique per name.
func TestDumpFileNameFitsTheFileSystem(t *testing.T) {
	long := strings.Repeat("S", 128) + "." + strings.Repeat("T", 128)
	multi := "APP." + strings.Repeat("é", 64) // 128 bytes, 384 written
	seen := map[string]string{}
	for _, in := range []string{long, long[:len(long)-1] + "U", multi, multi + "x", strings.Repeat("A", 250)} {
		got := DumpFileName(in)
		if len(got) > 255 || !strings.HasSuffix(got, ".jsonl") || filepath.Base(got) != got {
			t.Errorf("DumpFileName(%.20q…) = %q (%d bytes)", in, got, len(got))
		}
		if i := strings.LastIndexByte(got, '%'); i >= 0 && !isHexPair(got[i+1:]) {
			t.Errorf("DumpFileName(%.20q…) = %q: cut inside a %%XX", in, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%.20q… and %.20q… share the file %q", in, other, got)
		}
		seen[got] = in
		if f := filepath.Join(t.TempDir(), got); os.WriteFile(f, nil, 0o644) != nil {
			t.Errorf("cannot create %q", got)
		}
	}
	if got := DumpFileName(strings.Repeat("A", 249)); got != strings.Repeat("A", 249)+".jsonl" {
		t.Errorf("a name that fits was changed: %q", got)
	}
}

func isHexPair(s string) bool {
	return len(s) >= 2 && strings.IndexByte("0123456789ABCDEF", s[0]) >= 0 && strings.IndexByte("0123456789ABCDEF", s[1]) >= 0
}

// A reader of the dump finds a table's rows from tables.json: where the
// file's name is not SCHEMA.TABLE.jsonl (a name %XX-written or cut to fit
// the file system) the table's entry names it.
func TestTablesJSONNamesFilesThatAreNotTheTableName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dump")
	e := New(Options{DumpDir: dir})
	long := strings.Repeat("S", 128) + "." + strings.Repeat("T", 128)
	names := []string{long, "APP.A/B", "APP.PLAIN"}
	for _, n := range names {
		schema, name, _ := strings.Cut(n, ".")
		d := &table.Table{Schema: schema, Name: name, Columns: []table.Column{{Name: "ID", Type: table.Type{Kind: table.KindNumber}}}}
		e.tables[n] = newMemTable(d, true, e.spillFile())
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "tables.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]struct {
		File *string `json:"file"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		entry, ok := got[n]
		switch {
		case !ok:
			t.Errorf("tables.json has no entry for %.20q…", n)
		case n == "APP.PLAIN":
			if entry.File != nil {
				t.Errorf("%s: file %q, want none (the file is the table's name)", n, *entry.File)
			}
		case entry.File == nil:
			t.Errorf("%.20q…: no file named, but its rows are in tables/%s", n, DumpFileName(n))
		default:
			if _, err := os.Stat(filepath.Join(dir, *entry.File)); err != nil {
				t.Errorf("%.20q…: file %q: %v", n, *entry.File, err)
			}
		}
	}
}
