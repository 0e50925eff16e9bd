package table

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestConformName(t *testing.T) {
	tests := []struct {
		in    string
		upper bool
		want  string
	}{
		{"public-orders", true, "PUBLIC_ORDERS"},
		{"public-orders", false, "public_orders"},
		{"tap_x", true, "TAP_X"},
		{"Select", true, "SELECT"}, // reserved words are kept: names are always quoted
		{"1st", true, "1ST"},       // leading digits are kept
		{"_sdc", true, "_SDC"},
		{"a$b#c", true, "A$B#C"},
		{"café", true, "CAF_"},       // one '_' per character, not per byte
		{"日本語", false, "___"},        // CJK
		{"a\"b\x00c", true, "A_B_C"}, // quote and NUL never survive
		{"a.b c", false, "a_b_c"},
		{"\xff\xfe", true, "__"}, // invalid UTF-8: one '_' per byte
		{"ß", true, "_"},         // ASCII-only upper-casing
	}
	for _, tt := range tests {
		if got := ConformName(tt.in, tt.upper); got != tt.want {
			t.Errorf("ConformName(%q, %v) = %q, want %q", tt.in, tt.upper, got, tt.want)
		}
	}
}

func TestNameHash(t *testing.T) {
	// Pinned: these names live in users' databases across releases.
	if got := NameHash("a_b"); got != "_648fa9b3" {
		t.Errorf("NameHash(a_b) = %q", got)
	}
	if got := NameHash(""); got != "_e3b0c442" {
		t.Errorf("NameHash(\"\") = %q", got)
	}
}

func TestFitName(t *testing.T) {
	long := strings.Repeat("X", 150)
	tests := []struct {
		name, src string
		max       int
		want      string
	}{
		{"ID", "id", 128, "ID"},
		{"SELECT", "select", 128, "SELECT"},
		{long, strings.Repeat("x", 150), 128, long[:119] + "_a09244d5"},
		{long[:30], "p", 30, long[:30]},
		{long[:31], "p", 30, long[:21] + NameHash("p")},
		{"ROWID", "rowid", 128, "ROWID_4c984aaa"},
		{"rowid", "rowid", 128, "rowid_4c984aaa"},
		{"SYS_X", "SYS_X", 128, "_SYS_X_f2709c28"},
		{"sys_x", "s", 128, "_sys_x" + NameHash("s")},
		{"ORA$PTT_T", "t", 128, "_ORA$PTT_T" + NameHash("t")},
		{"", "", 128, "_e3b0c442"},
		{"ROWIDS", "r", 128, "ROWIDS"},
		// Cutting a long name can itself form the reserved prefix: "sYs" + "_hash".
		{"sYs0000000000", "s", 12, "_sY" + NameHash("s")},
		{"SYS" + long, "s", 30, "SYS" + long[:18] + NameHash("s")},
	}
	for _, tt := range tests {
		got := FitName(tt.name, tt.src, tt.max)
		if got != tt.want {
			t.Errorf("FitName(%q, %q, %d) = %q, want %q", tt.name, tt.src, tt.max, got, tt.want)
		}
		if len(got) > tt.max {
			t.Errorf("FitName(%q) = %q exceeds %d bytes", tt.name, got, tt.max)
		}
	}
}

func TestCutUTF8(t *testing.T) {
	s := "ab日本" // 2 + 3 + 3 bytes
	for n, want := range map[int]string{0: "", 2: "ab", 3: "ab", 4: "ab", 5: "ab日", 7: "ab日", 8: s, 20: s} {
		if got := cutUTF8(s, n); got != want {
			t.Errorf("cutUTF8(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNamerCollisions(t *testing.T) {
	n := NewNamer(128)
	if got := n.Name("A_B", "a-b"); got != "A_B" {
		t.Fatalf("first = %q", got)
	}
	if got := n.Name("A_B", "a_b"); got != "A_B_648fa9b3" {
		t.Errorf("second = %q, want A_B_648fa9b3", got)
	}
	// A third source with the same path text still gets a unique name.
	third := n.Name("A_B", "a_b")
	if third == "A_B" || third == "A_B_648fa9b3" || n.Reserve(third) {
		t.Errorf("third = %q, not unique", third)
	}
	// 30-byte limit: the suffixed name is cut to fit.
	n30 := NewNamer(30)
	base := strings.Repeat("C", 30)
	n30.Name(base, "c1")
	got := n30.Name(base, "c2")
	if len(got) != 30 || got != base[:21]+NameHash("c2") {
		t.Errorf("30-byte collision = %q", got)
	}
}

func TestCheckName(t *testing.T) {
	good := []string{"MyTable", "select", "日本", strings.Repeat("a", 128)}
	bad := []string{"", "a\"b", "a\x00b", strings.Repeat("a", 129), "\xff"}
	for _, s := range good {
		if err := CheckName(s, 128); err != nil {
			t.Errorf("CheckName(%q) = %v", s, err)
		}
	}
	for _, s := range bad {
		if err := CheckName(s, 128); err == nil {
			t.Errorf("CheckName(%q) = nil, want error", s)
		}
	}
	if err := CheckName(strings.Repeat("a", 31), 30); err == nil {
		t.Error("31 bytes accepted under a 30-byte limit")
	}
}

func TestTableName(t *testing.T) {
	tests := []struct {
		stream string
		opts   Options
		want   string
	}{
		{"public-orders", Options{IdentifierUpper: true}, "PUBLIC_ORDERS"},
		{"orders", Options{IdentifierUpper: true, TablePrefix: "stg_", TableSuffix: "_v1"}, "STG_ORDERS_V1"},
		{"orders", Options{TableName: "My \"Orders\""}, ""}, // error
		{"orders", Options{TableName: "My Orders"}, "My Orders"},
		{strings.Repeat("s", 150), Options{IdentifierUpper: true}, strings.Repeat("S", 119) + NameHash(strings.Repeat("s", 150))},
		{strings.Repeat("s", 40), Options{IdentifierMaxBytes: 30}, strings.Repeat("s", 21) + NameHash(strings.Repeat("s", 40))},
		// Names that conform to underscores only are names (docs/types.md);
		// an empty stream name names no table, mapped, prefixed or not.
		{"...", Options{IdentifierUpper: true}, "___"},
		{"___", Options{IdentifierUpper: true}, "___"},
		{"-", Options{IdentifierUpper: true}, "_"},
		{"", Options{IdentifierUpper: true}, ""},
		{"", Options{IdentifierUpper: true, TablePrefix: "stg_"}, ""},
		{"", Options{TableName: "T"}, ""},
	}
	for _, tt := range tests {
		got, err := TableName(tt.stream, &tt.opts)
		if tt.want == "" {
			if err == nil {
				t.Errorf("TableName(%q) = %q, want error", tt.stream, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("TableName(%q) = %q, %v; want %q", tt.stream, got, err, tt.want)
		}
	}
	if got := SchemaName("tap_x", true, 128); got != "TAP_X" {
		t.Errorf("SchemaName = %q", got)
	}
}

func TestDerivedName(t *testing.T) {
	if got := PrimaryKeyName("ORDERS", 128); got != "ORDERS_PK" {
		t.Errorf("PrimaryKeyName = %q", got)
	}
	long := strings.Repeat("T", 28)
	got := PrimaryKeyName(long, 30)
	if len(got) != 30 || got != (long + "_PK")[:21]+NameHash(long+"_PK") {
		t.Errorf("PrimaryKeyName(28 bytes, 30) = %q", got)
	}
	// The hash suffixes are the first 4 bytes of SHA-256 of the whole
	// name, written out here so that a change of the hash shows.
	jp := "日本日本日本日本日本" // 30 bytes, 3 a character
	for _, tt := range []struct {
		base, suffix string
		max          int
		want         string
	}{
		{"ORDERS", "_STG", 128, "ORDERS_STG"},
		{"ORDERS", "_STG", 10, "ORDERS_STG"},  // fits exactly: no hash
		{"ORDERS", "_STG", 9, "_d864d552"},    // no room left for the name
		{jp, "_STG", 30, "日本日本日本日_57130e8f"},  // 21 bytes of name left: 7 characters
		{jp, "_STG", 32, "日本日本日本日_57130e8f"},  // 23 bytes left: the 8th character does not fit whole
		{jp, "_STG", 33, "日本日本日本日本_57130e8f"}, // 24 bytes left: 8 characters
	} {
		got := DerivedName(tt.base, tt.suffix, tt.max)
		if got != tt.want || !utf8.ValidString(got) || len(got) > tt.max {
			t.Errorf("DerivedName(%q, %q, %d) = %q, want %q", tt.base, tt.suffix, tt.max, got, tt.want)
		}
	}
}

// TestIndexNameIsUniquePerSchema: the (table, columns) pairs whose plain
// joined names collide get different index names, within the limit, and
// the one unambiguous shape (one column, no "_") keeps the plain name.
func TestIndexNameIsUniquePerSchema(t *testing.T) {
	if got := IndexName("ORDERS", []string{"AMOUNT"}, 128); got != "ORDERS_AMOUNT_IDX" {
		t.Errorf("IndexName(ORDERS, AMOUNT) = %q", got)
	}
	long := strings.Repeat("T", 30)
	for _, pair := range [][2][]string{
		{{"ORDER", "LINE_ID"}, {"ORDER_LINE", "ID"}},
		{{"A", "B_C"}, {"A", "B", "C"}},
		{{"A", "B", "C"}, {"A_B", "C"}},
		{{long, "A_LONG_COLUMN"}, {long + "_A", "LONG_COLUMN"}},
	} {
		for _, max := range []int{MaxBytesShort, MaxBytesLong} {
			a, b := IndexName(pair[0][0], pair[0][1:], max), IndexName(pair[1][0], pair[1][1:], max)
			if a == b || len(a) > max || len(b) > max {
				t.Errorf("IndexName of %q and %q (limit %d): %q and %q", pair[0], pair[1], max, a, b)
			}
		}
	}
}

func TestQuote(t *testing.T) {
	if got := Quote("SELECT"); got != `"SELECT"` {
		t.Errorf("Quote = %s", got)
	}
}

func FuzzConformName(f *testing.F) {
	for _, s := range []string{"public-orders", "a\"b", "a\x00b", "日本語", "ROWID", "SYS_x", strings.Repeat("é", 100), ""} {
		f.Add(s, true, 30)
		f.Add(s, false, 128)
	}
	f.Fuzz(func(t *testing.T, s string, upper bool, max int) {
		if max < 10 || max > 128 {
			max = 30
		}
		c := ConformName(s, upper)
		got := FitName(c, s, max)
		if strings.ContainsAny(got, "\"\x00") {
			t.Fatalf("name %q holds a quote or NUL", got)
		}
		if len(got) > max || got == "" || !utf8.ValidString(got) {
			t.Fatalf("name %q: %d bytes, limit %d", got, len(got), max)
		}
		if reservedName(got) {
			t.Fatalf("name %q is reserved", got)
		}
		if again := FitName(ConformName(s, upper), s, max); again != got {
			t.Fatalf("not deterministic: %q vs %q", got, again)
		}
		if err := CheckName(got, max); err != nil {
			t.Fatal(err)
		}
	})
}

// TestTableComment: a table comment round-trips its streams and the key a
// key replacement replaced; names too long for Oracle's 4000 bytes are
// recorded by digest and still match; other comments are not the
// target's, and comments of earlier releases read with no replaced key.
func TestTableComment(t *testing.T) {
	long := make([]string, 32)
	for i := range long {
		long[i] = strings.Repeat(string(rune('A'+i%26)), 128)
	}
	for _, streams := range [][]string{{"日本"}, {"a", `quote" and \ back`, "nul\x00"}, {strings.Repeat("s", 5000)}} {
		for _, key := range [][]string{nil, {}, {"ID"}, {"ID", "K;2"}, long} {
			c := FormatTableComment(streams, key)
			if len(c) > 4000 {
				t.Fatalf("comment of %d bytes", len(c))
			}
			got, gotKey, ok := parseTableComment(c)
			if !ok {
				t.Fatalf("%q does not parse", c)
			}
			for _, s := range streams {
				if !StreamsInclude(got, s) {
					t.Errorf("comment %.80q does not include %.40q", c, s)
				}
			}
			if StreamsInclude(got, "other") {
				t.Errorf("comment %.80q includes another stream", c)
			}
			if key == nil {
				if gotKey != nil {
					t.Errorf("comment %.80q: replaced key %q, want none", c, gotKey)
				}
				continue
			}
			if !ReplacedKeyIs(gotKey, key) {
				t.Errorf("comment %.80q: replaced key %q does not match %q", c, gotKey, key)
			}
			if ReplacedKeyIs(gotKey, []string{"OTHER"}) {
				t.Errorf("comment %.80q: replaced key matches another key", c)
			}
		}
	}
	if s, k, ok := parseTableComment(`target-oracle:streams=["s"]`); !ok || len(s) != 1 || k != nil {
		t.Errorf("an earlier release's comment reads as %q %q %v", s, k, ok)
	}
	for _, c := range []string{"", "a DBA's note", "target-oracle:streams=", "target-oracle:streams=[1]", "target-oracle:path=[\"a\"]",
		`target-oracle:streams=["s"] trailing`, `target-oracle:streams=["s"]; replaced_key=`, `target-oracle:streams=["s"]; replaced_key=null`} {
		if s, _, ok := parseTableComment(c); ok {
			t.Errorf("%q parsed as %q", c, s)
		}
	}
}
