package config

import (
	"strings"
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
		{"orders", StreamSettings{"json", "append-only", true, 5, 1, "", Partitioning{}, "none", "none", false}},
		{"ordinal", StreamSettings{"json", "overwrite", true, 5, 2, "", Partitioning{}, "none", "none", false}},
		{"owls", StreamSettings{"json", "upsert", true, 7, 1, "", Partitioning{}, "none", "none", false}},
		{"public-users", StreamSettings{"json", "upsert", true, 7, 2, "", Partitioning{}, "none", "none", false}},
		{"x", StreamSettings{"json", "upsert", true, 7, 2, "", Partitioning{}, "none", "none", false}},
	}
	for _, tc := range cases {
		if got := c.ForStream(tc.stream); got != tc.want {
			t.Errorf("ForStream(%q) = %+v, want %+v", tc.stream, got, tc.want)
		}
	}
	c, _ = mustLoad(t, nil, `{"load_method":"append-only","batch_size_rows":100}`)
	if got := c.ForStream("s"); got != (StreamSettings{"hybrid", "append-only", false, 100, 3, "", Partitioning{}, "none", "none", false}) {
		t.Errorf("no overrides: %+v", got)
	}
}

// default_target_schema is overridable per stream pattern, a literal or a
// {stream_schema} template; schema_mapping is read as given.
func TestForStreamSchema(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"default_target_schema":"raw",
		"schema_mapping":{"sales":"mart","public":"pub_copy"},
		"stream_overrides":{"crm-*":{"default_target_schema":"{stream_schema}"},"audit":{"schema":"audit_x"}}}`)
	for stream, want := range map[string]string{"crm-leads": "{stream_schema}", "audit": "audit_x", "orders": "raw"} {
		if got := c.ForStream(stream).DefaultTargetSchema; got != want {
			t.Errorf("ForStream(%q).DefaultTargetSchema = %q, want %q", stream, got, want)
		}
	}
	if c.SchemaMapping["sales"] != "mart" || c.SchemaMapping["public"] != "pub_copy" || len(c.SchemaMapping) != 2 {
		t.Errorf("schema_mapping = %v", c.SchemaMapping)
	}
	for _, bad := range []string{`{"schema_mapping":{"sales":""}}`, `{"schema_mapping":{"sales":"a\"b"}}`, `{"schema_mapping":{"sales":3}}`} {
		if _, _, err := loadJSON(t, nil, bad); err == nil || !strings.Contains(err.Error(), "schema_mapping") {
			t.Errorf("%s: err = %v, want a schema_mapping error", bad, err)
		}
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

// TestDeleteMissingSettings: delete_missing is overridable per stream, and
// the stream knows whether an override naming it exactly set it (SPEC §6.4:
// by name it is a configuration error on a keyless or non-upsert stream,
// by pattern or globally a warning). The fraction is a number from 0 to 1.
func TestDeleteMissingSettings(t *testing.T) {
	c, _ := mustLoad(t, nil, `{"delete_missing":"soft","delete_missing_max_fraction":0.2,
		"stream_overrides":{"orders":{"delete_missing":"hard"},"o*":{"delete_missing":"none"},"users":{"batch_size_rows":3}}}`)
	if c.DeleteMissingMaxFraction != 0.2 {
		t.Errorf("fraction %v, want 0.2", c.DeleteMissingMaxFraction)
	}
	for _, tc := range []struct {
		stream string
		mode   string
		byName bool
	}{
		{"orders", "hard", true},
		{"owls", "none", false},
		{"users", "soft", false}, // an override by name that does not set it
		{"x", "soft", false},
	} {
		got := c.ForStream(tc.stream)
		if got.DeleteMissing != tc.mode || got.DeleteMissingByName != tc.byName {
			t.Errorf("ForStream(%q): delete_missing %q by name %v, want %q %v", tc.stream, got.DeleteMissing, got.DeleteMissingByName, tc.mode, tc.byName)
		}
	}
	for _, bad := range []string{`{"delete_missing_max_fraction":1.5}`, `{"delete_missing_max_fraction":-0.1}`, `{"delete_missing_max_fraction":"half"}`, `{"delete_missing":"all"}`} {
		_, _, err := loadJSON(t, nil, bad)
		if err == nil {
			t.Errorf("%s: no error", bad)
			continue
		}
		if !strings.Contains(err.Error(), "delete_missing") || !strings.Contains(err.Error(), "expected") {
			t.Errorf("%s: error %q does not name the setting and what was expected", bad, err)
		}
	}
}
