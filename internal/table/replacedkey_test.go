package table

import (
	"fmt"
	"slices"
	"testing"
)

// TestReplacedKeyIsKeyless: a recorded empty key (the table had none) is
// matched by a keyless SCHEMA's nil key; nothing recorded matches nothing.
func TestReplacedKeyIsKeyless(t *testing.T) {
	_, recorded, ok := parseTableComment(FormatTableComment([]string{"s"}, []string{}))
	if !ok || recorded == nil {
		t.Fatalf("comment with an empty replaced key reads as %q %v", recorded, ok)
	}
	for _, tc := range []struct {
		recorded, key []string
		want          bool
	}{
		{recorded, nil, true},
		{recorded, []string{}, true},
		{recorded, []string{"ID"}, false},
		{nil, nil, false},
		{[]string{"ID"}, nil, false},
	} {
		if got := ReplacedKeyIs(tc.recorded, tc.key); got != tc.want {
			t.Errorf("ReplacedKeyIs(%q, %q) = %v, want %v", tc.recorded, tc.key, got, tc.want)
		}
	}
}

// Keys replaced one after another on the empty table are all recorded:
// Reconcile keeps the earlier ones, the comment writes and reads them back
// (a key column named like the separator included), and KeyReplaced knows
// each.
func TestEarlierKeys(t *testing.T) {
	col := func(n string) Column { return Column{Name: n, Type: Type{Kind: KindNumber}} }
	mk := func(key ...string) *Table {
		return &Table{Schema: "S", Name: "T", Streams: []string{"s"}, PrimaryKey: key,
			Columns: []Column{col("A"), col("B"), col("C; earlier_keys=[]")}}
	}
	cur := mk("A")
	for _, key := range [][]string{{"B"}, {"C; earlier_keys=[]"}, {"A"}} {
		next, _, err := Reconcile(cur, mk(key...), nil, "widen", Options{})
		if err != nil {
			t.Fatal(err)
		}
		cur = next
	}
	// [A] → [B] → [C…] → [A]: replaced [C…], earlier [B] (A is the key again).
	if !slices.Equal(cur.ReplacedKey, []string{"C; earlier_keys=[]"}) || len(cur.EarlierKeys) != 1 || !slices.Equal(cur.EarlierKeys[0], []string{"B"}) {
		t.Fatalf("replaced %q, earlier %q", cur.ReplacedKey, cur.EarlierKeys)
	}
	for _, tc := range []struct {
		key  []string
		want bool
	}{{[]string{"B"}, true}, {[]string{"C; earlier_keys=[]"}, true}, {[]string{"A", "B"}, false}, {nil, false}} {
		if got := cur.KeyReplaced(tc.key); got != tc.want {
			t.Errorf("KeyReplaced(%q) = %v", tc.key, got)
		}
	}
	c := FormatTableComment(cur.Streams, cur.ReplacedKey, cur.EarlierKeys...)
	if c != `target-oracle:streams=["s"]; replaced_key=["C; earlier_keys=[]"]; earlier_keys=[["B"]]` {
		t.Errorf("comment %s", c)
	}
	streams, key, earlier, ok := ParseTableCommentKeys(c)
	if !ok || !slices.Equal(streams, []string{"s"}) || !slices.Equal(key, cur.ReplacedKey) || len(earlier) != 1 || !slices.Equal(earlier[0], []string{"B"}) {
		t.Errorf("read back: %q %q %q %v", streams, key, earlier, ok)
	}
	if s, k, ok := parseTableComment(c); !ok || len(s) != 1 || !slices.Equal(k, cur.ReplacedKey) {
		t.Errorf("ParseTableComment: %q %q %v", s, k, ok)
	}
	for _, bad := range []string{c + "x", `target-oracle:streams=["s"]; replaced_key=["A"]; earlier_keys=[]`,
		`target-oracle:streams=["s"]; replaced_key=["A"]; earlier_keys=[null]`} {
		if _, _, _, ok := ParseTableCommentKeys(bad); ok {
			t.Errorf("%s read as a target comment", bad)
		}
	}
	// The oldest earlier keys are left out when the comment would not fit.
	var many [][]string
	for i := range 400 {
		many = append(many, []string{fmt.Sprintf("COLUMN_%03d", i)})
	}
	long := FormatTableComment([]string{"s"}, []string{"A"}, many...)
	_, _, got, ok := ParseTableCommentKeys(long)
	if !ok || len(long) > maxCommentBytes || len(got) == 0 || len(got) == len(many) || !slices.Equal(got[len(got)-1], many[len(many)-1]) {
		t.Errorf("long comment: %d bytes, %d of %d earlier keys, ok %v", len(long), len(got), len(many), ok)
	}
}

// parseTableComment is ParseTableCommentKeys without the earlier keys.
func parseTableComment(s string) (streams, replacedKey []string, ok bool) {
	streams, replacedKey, _, ok = ParseTableCommentKeys(s)
	return streams, replacedKey, ok
}
