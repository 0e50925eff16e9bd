package config

import (
	"slices"
	"testing"
)

// Every value code compares a setting with is one the settings table
// accepts for that setting.
func TestValuesAreInTheTable(t *testing.T) {
	enums := map[string][]string{}
	for _, s := range table() {
		enums[s.name] = s.enum
	}
	for _, tc := range []struct{ setting, value string }{
		{"identifier_max_bytes", Auto}, {"varchar_max_bytes", Auto}, {"max_columns", Auto},
		{"boolean_type", Auto}, {"json_type", Auto}, {"national_characters", Auto},
		{"load_method", MethodUpsert}, {"load_method", MethodAppendOnly}, {"load_method", MethodOverwrite}, {"load_method", MethodHistory},
		{"storage_mode", StorageHybrid}, {"storage_mode", StorageFlattened}, {"storage_mode", StorageJSON},
		{"delete_missing", DeleteMissingNone}, {"delete_missing", DeleteMissingHard},
		{"on_invalid_record", Skip}, {"on_invalid_record", Reject}, {"compression", CompressionNone}, {"on_database_error", Reject},
		{"schema_evolution", SchemaEvolutionFail}, {"identifier_case", IdentifierPreserve}, {"timestamp_type", TimestampPlain},
		{"boolean_type", BooleanNumber}, {"boolean_type", BooleanBoolean},
		{"json_type", JSONTypeJSON}, {"json_type", JSONTypeCLOB},
		{"national_characters", NationalAlways}, {"national_characters", NationalNever},
	} {
		if !slices.Contains(enums[tc.setting], tc.value) {
			t.Errorf("%s has no value %q (its values: %q)", tc.setting, tc.value, enums[tc.setting])
		}
	}
}

// An explicit value wins; auto, or nothing, takes the server's.
func TestAutoSettings(t *testing.T) {
	for _, tc := range []struct {
		setting string
		server  int
		want    int
	}{
		{"auto", 128, 128}, {"", 30, 30}, {"30", 128, 30}, {"128", 30, 128},
	} {
		c := &Config{IdentifierMaxBytes: tc.setting, VarcharMaxBytes: tc.setting, MaxColumns: tc.setting}
		if got := c.IdentifierMaxBytesFor(tc.server); got != tc.want {
			t.Errorf("identifier_max_bytes %q on %d: %d, want %d", tc.setting, tc.server, got, tc.want)
		}
		if got := c.VarcharMaxBytesFor(tc.server); got != tc.want {
			t.Errorf("varchar_max_bytes %q on %d: %d, want %d", tc.setting, tc.server, got, tc.want)
		}
		if got := c.MaxColumnsFor(tc.server); got != tc.want {
			t.Errorf("max_columns %q on %d: %d, want %d", tc.setting, tc.server, got, tc.want)
		}
	}
	for _, tc := range []struct {
		boolean, json, national string
		server, want            bool
	}{
		{"auto", "auto", "auto", true, true},
		{"auto", "auto", "auto", false, false},
		{"", "", "", true, true},
		{"boolean", "json", "always", false, true},
		{"number", "clob", "never", true, false},
	} {
		c := &Config{BooleanType: tc.boolean, JSONType: tc.json, NationalCharacters: tc.national}
		if b, j, n := c.BooleanNativeFor(tc.server), c.JSONNativeFor(tc.server), c.NationalFor(tc.server); b != tc.want || j != tc.want || n != tc.want {
			t.Errorf("%+v: boolean %v json %v national %v, want %v", tc, b, j, n, tc.want)
		}
	}
}
