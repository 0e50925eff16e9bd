package memory

import (
	"path/filepath"
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
