package config

import (
	"testing"
)

func TestForStream(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"load_method":"upsert","batch_size_rows":100,"storage_mode":"hybrid","flattening_max_depth":2,
		"stream_overrides":{
			"orders":{"load_method":"append-only"},
			"ord*":{"batch_size_rows":5,"load_method":"overwrite"},
			"*":{"batch_size_rows":7,"hard_delete":true,"storage_mode":"json"},
			"o*s":{"flattening_max_depth":1,"load_method":"MERGE"},
			"public-*":{"storage_mode":"flattened"}
		}}`)
	wantOrder := []string{"orders", "ord*", "*", "o*s", "public-*"}
	for i, o := range c.StreamOverrides {
		if i >= len(wantOrder) || o.Pattern != wantOrder[i] {
			t.Fatalf("override %d pattern %q, want config order %q", i, o.Pattern, wantOrder)
		}
	}
	cases := []struct {
		stream string
		want   StreamSettings
	}{
		// exact name beats patterns; earlier patterns beat later ones, per field.
		{"orders", StreamSettings{"json", "append-only", true, 5, 1}},
		{"ordinal", StreamSettings{"json", "overwrite", true, 5, 2}},
		{"owls", StreamSettings{"json", "upsert", true, 7, 1}},
		{"public-users", StreamSettings{"json", "upsert", true, 7, 2}},
		{"x", StreamSettings{"json", "upsert", true, 7, 2}},
	}
	for _, tc := range cases {
		if got := c.ForStream(tc.stream); got != tc.want {
			t.Errorf("ForStream(%q) = %+v, want %+v", tc.stream, got, tc.want)
		}
	}
	c, _ = mustLoad(t, nil, `{"load_method":"append-only","batch_size_rows":100}`)
	if got := c.ForStream("s"); got != (StreamSettings{"hybrid", "append-only", false, 100, 3}) {
		t.Errorf("no overrides: %+v", got)
	}
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "", true},
		{"*", "abc", true},
		{"a*", "abc", true},
		{"a*", "bac", false},
		{"*c", "abc", true},
		{"a*c", "ac", true},
		{"a*c", "abcbc", true},
		{"a*c", "abcb", false},
		{"*b*", "abc", true},
		{"a**b", "ab", true},
		{"a?c", "abc", false}, // only * is special
		{"a?c", "a?c", true},
		{"[ab]", "a", false},
		{"tap-*-orders", "tap-x-orders", true},
		{"tap-*-orders", "tap-x-order", false},
	}
	for _, tc := range cases {
		if got := globMatch(tc.pattern, tc.name); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func BenchmarkForStream(b *testing.B) {
	c, _, err := Load(Sources{})
	if err != nil {
		b.Fatal(err)
	}
	s, i, n := "x", 3, 5
	for range 20 {
		c.StreamOverrides = append(c.StreamOverrides, StreamOverride{Pattern: "tap-*-orders", LoadMethod: &s, BatchSizeRows: &i, FlatteningMaxDepth: &n})
	}
	b.ReportAllocs()
	for b.Loop() {
		c.ForStream("tap-x-orders")
	}
}
