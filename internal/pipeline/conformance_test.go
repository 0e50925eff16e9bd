package pipeline_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// conformanceCase runs files (in order, on one engine) from
// ../shared/conformance and states what its README implies.
type conformanceCase struct {
	files    []string
	settings string
	// wantErr is a substring of the expected *inputerr.Error of the
	// last file; "" means every file loads.
	wantErr string
	// states is the exact list of state lines of the last file; nil
	// means: no check beyond lastState.
	states    []string
	lastState string
	rows      map[string]int // DRY_RUN.<TABLE> -> row count after the last file
	check     func(t *testing.T, eng *memory.Engine)
}

func TestConformance(t *testing.T) {
	dir := needConformance(t)
	cases := map[string]conformanceCase{
		"array_data": {files: []string{"singer-sdk/array_data.singer"},
			rows: map[string]int{"TEST_ARRAY_DATA": 4},
			check: func(t *testing.T, eng *memory.Engine) {
				wantColumnType(t, eng, "TEST_ARRAY_DATA", "FRUITS", "CLOB")
			}},
		"camelcase": {files: []string{"singer-sdk/camelcase.singer"}, rows: map[string]int{"TESTCAMELCASE": 2}},
		"camelcase_complex_schema": {files: []string{"singer-sdk/camelcase_complex_schema.singer"},
			rows: map[string]int{"FORECASTINGTYPETOCATEGORY": 0}},
		"duplicate_records": {files: []string{"singer-sdk/duplicate_records.singer"},
			rows:      map[string]int{"TEST_DUPLICATE_RECORDS": 2},
			lastState: `{"test_duplicate_records":2}`,
			check: func(t *testing.T, eng *memory.Engine) {
				wantValues(t, eng, "TEST_DUPLICATE_RECORDS", "METRIC", "100", "20")
			}},
		"encoded_string_data": {files: []string{"singer-sdk/encoded_string_data.singer"},
			rows: map[string]int{"TEST_STRINGS": 11, "TEST_STRINGS_IN_OBJECTS": 11, "TEST_STRINGS_IN_ARRAYS": 6}},
		"invalid_schema": {files: []string{"singer-sdk/invalid_schema.singer"}, wantErr: "schema has no properties",
			rows: map[string]int{}},
		"multiple_state_messages_batch_1": {files: []string{"singer-sdk/multiple_state_messages.singer"},
			settings: `{"batch_size_rows": 1, "max_parallelism": 1}`,
			states: []string{
				`{"test_multiple_state_messages_a":1,"test_multiple_state_messages_b":0}`,
				`{"test_multiple_state_messages_a":2,"test_multiple_state_messages_b":1}`,
				`{"test_multiple_state_messages_a":3,"test_multiple_state_messages_b":2}`,
				`{"test_multiple_state_messages_a":5,"test_multiple_state_messages_b":3}`,
				`{"test_multiple_state_messages_a":5,"test_multiple_state_messages_b":6}`,
			},
			rows: map[string]int{"TEST_MULTIPLE_STATE_MESSAGES_A": 6, "TEST_MULTIPLE_STATE_MESSAGES_B": 6}},
		"multiple_state_messages_defaults": {files: []string{"singer-sdk/multiple_state_messages.singer"},
			lastState: `{"test_multiple_state_messages_a":5,"test_multiple_state_messages_b":6}`,
			rows:      map[string]int{"TEST_MULTIPLE_STATE_MESSAGES_A": 6, "TEST_MULTIPLE_STATE_MESSAGES_B": 6}},
		"no_primary_keys_append": {files: []string{"singer-sdk/no_primary_keys.singer", "singer-sdk/no_primary_keys_append.singer"},
			rows: map[string]int{"TEST_NO_PK": 8}},
		"optional_attributes": {files: []string{"singer-sdk/optional_attributes.singer"},
			rows: map[string]int{"TEST_OPTIONAL_ATTRIBUTES": 4}},
		"record_missing_fields": {files: []string{"singer-sdk/record_missing_fields.singer"},
			rows: map[string]int{"RECORD_MISSING_FIELDS": 2}},
		"pk_updates": {files: []string{"singer-sdk/pk_updates.singer"}, rows: map[string]int{"EXAMPLE_STREAM": 2}},
		"record_before_schema": {files: []string{"singer-sdk/record_before_schema.singer"},
			wantErr: "RECORD before any SCHEMA", rows: map[string]int{}},
		"record_missing_key_property": {files: []string{"singer-sdk/record_missing_key_property.singer"},
			wantErr: `"id"`, rows: map[string]int{"TEST_RECORD_MISSING_KEY_PROPERTY": 0}},
		"record_missing_required_property": {files: []string{"singer-sdk/record_missing_required_property.singer"},
			wantErr: "id", rows: map[string]int{"TEST_RECORD_MISSING_REQUIRED_PROPERTY": 0}},
		"schema_no_properties": {files: []string{"singer-sdk/schema_no_properties.singer"},
			rows: map[string]int{"TEST_OBJECT_SCHEMA_WITH_PROPERTIES": 2, "TEST_OBJECT_SCHEMA_NO_PROPERTIES": 2}},
		"schema_updates": {files: []string{"singer-sdk/schema_updates.singer"}, rows: map[string]int{"TEST_SCHEMA_UPDATES": 6}},
		"special_chars_in_attributes": {files: []string{"singer-sdk/special_chars_in_attributes.singer"},
			rows: map[string]int{"TEST_SPECIALCHARS_IN_ATTRIBUTES": 1}},
		"user_location_upsert": {files: []string{"singer-sdk/user_location_data.singer", "singer-sdk/user_location_upsert_data.singer"},
			rows: map[string]int{"TEST_USERS": 8, "TEST_LOCATIONS": 5, "TEST_USER_IN_LOCATION": 5}},
		"commits":                   {files: []string{"target-postgres/commits.singer"}, rows: map[string]int{"COMMITS": 30}},
		"encoded_strings":           {files: []string{"target-postgres/encoded_strings.singer"}, rows: map[string]int{"TEST_STRINGS": 11}},
		"jsonb_data":                {files: []string{"target-postgres/jsonb_data.singer"}, rows: map[string]int{"TEST_JSONB_DATA": 2}},
		"large_int":                 {files: []string{"target-postgres/large_int.singer"}, rows: map[string]int{"TEST_LARGE_INT": 2}},
		"large_numeric_primary_key": {files: []string{"target-postgres/large_numeric_primary_key.singer"}, rows: map[string]int{"TEST_LARGE_NUMERIC_PRIMARY_KEY": 1}},
		"missing_value":             {files: []string{"target-postgres/missing_value.singer"}, rows: map[string]int{"TEST_MISSING_VALUE": 5}},
		"multiple_schema_messages":  {files: []string{"target-postgres/multiple_schema_messages.singer"}, rows: map[string]int{"TEST_MULTIPLE_SCHEMA_MESSAGES": 6}},
		"new_array_column":          {files: []string{"target-postgres/new_array_column.singer"}, rows: map[string]int{"TEST_NEW_ARRAY_COLUMN": 1}},
		"reserved_keywords":         {files: []string{"target-postgres/reserved_keywords.singer"}, rows: map[string]int{"RESERVED_KEYWORDS": 1}},
		"tap_aapl":                  {files: []string{"target-postgres/tap_aapl.singer"}, rows: map[string]int{"AAPL": 1}},
		"tap_countries":             {files: []string{"target-postgres/tap_countries.singer"}, rows: map[string]int{"CONTINENTS": 7, "COUNTRIES": 250}},
		"activate_version_hard": {files: []string{"target-postgres/test_activate_version_hard.singer"},
			settings: `{"hard_delete": true}`,
			rows:     map[string]int{"TEST_ACTIVATE_VERSION_HARD": 7},
			check: func(t *testing.T, eng *memory.Engine) {
				for _, r := range eng.Rows("DRY_RUN.TEST_ACTIVATE_VERSION_HARD") {
					if r["CODE"] == "XX" {
						t.Errorf("row XX of an older version survived a hard ACTIVATE_VERSION")
					}
				}
			}},
		"activate_version_soft": {files: []string{"target-postgres/test_activate_version_soft.singer"},
			rows: map[string]int{"TEST_ACTIVATE_VERSION_SOFT": 7},
			check: func(t *testing.T, eng *memory.Engine) {
				wantDeleted(t, eng, "TEST_ACTIVATE_VERSION_SOFT", map[string]bool{})
			}},
		"activate_version_soft_with_delete": {files: []string{"target-postgres/test_activate_version_soft.singer", "target-postgres/test_activate_version_soft_with_delete.singer"},
			rows: map[string]int{"TEST_ACTIVATE_VERSION_SOFT": 7},
			check: func(t *testing.T, eng *memory.Engine) {
				// SA came only with the older version: the newer activation marks it deleted.
				wantDeleted(t, eng, "TEST_ACTIVATE_VERSION_SOFT", map[string]bool{"SA": true})
			}},
		"activate_version_deletes_data_properly": {files: []string{"target-postgres/test_activate_version_deletes_data_properly.singer", "target-postgres/test_activate_version_deletes_data_properly_2.singer"},
			settings: `{"hard_delete": true}`,
			rows:     map[string]int{"TEST_ACTIVATE_VERSION_DELETES_DATA_PROPERLY": 0}},
		"activate_version_uppercase": {files: []string{"target-postgres/test_activate_version_uppercase_stream_name.singer"},
			rows: map[string]int{"ACCOUNT": 7}},
		"no_pk_append": {files: []string{"target-postgres/test_no_pk.singer", "target-postgres/test_no_pk_append.singer"},
			rows: map[string]int{"TEST_NO_PK": 8}},
		"no_type": {files: []string{"target-postgres/test_no_type.singer"}, rows: map[string]int{"TEST_NO_TYPE": 15}},
		"uppercase_column_alter": {files: []string{"target-postgres/uppercase_stream_name_with_column_alter.singer"},
			rows: map[string]int{"UPPERCASE_STREAM_NAME_WITH_COLUMN_ALTER": 2},
			check: func(t *testing.T, eng *memory.Engine) {
				wantColumnType(t, eng, "UPPERCASE_STREAM_NAME_WITH_COLUMN_ALTER", "CLIENTNUMBER", "VARCHAR2(4000 BYTE)")
				wantValues(t, eng, "UPPERCASE_STREAM_NAME_WITH_COLUMN_ALTER", "CLIENTNUMBER", "1", "2")
			}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			eng := newEngine()
			var states []string
			var err error
			for i, f := range c.files {
				cfg := loadConfig(t, c.settings)
				states, err = run(t, eng, cfg, readFile(t, filepath.Join(dir, f)))
				if i < len(c.files)-1 && err != nil {
					t.Fatalf("%s: %v", f, err)
				}
			}
			if c.wantErr == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if c.wantErr != "" {
				var ie *inputerr.Error
				if !errors.As(err, &ie) {
					t.Fatalf("error %v, want an input error containing %q", err, c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) || ie.Line == 0 {
					t.Fatalf("error %q: want %q and a line number", err, c.wantErr)
				}
			}
			if c.states != nil && strings.Join(states, "\n") != strings.Join(c.states, "\n") {
				t.Errorf("states:\n%s\nwant:\n%s", strings.Join(states, "\n"), strings.Join(c.states, "\n"))
			}
			if c.lastState != "" && (len(states) == 0 || states[len(states)-1] != c.lastState) {
				t.Errorf("last state of %q, want %q", states, c.lastState)
			}
			tables := eng.Tables()
			for tbl, n := range c.rows {
				if _, ok := tables["DRY_RUN."+tbl]; !ok {
					if n > 0 {
						t.Errorf("table DRY_RUN.%s missing; have %v", tbl, keys(tables))
					}
					continue
				}
				if got := len(eng.Rows("DRY_RUN." + tbl)); got != n {
					t.Errorf("DRY_RUN.%s has %d rows, want %d", tbl, got, n)
				}
			}
			if c.check != nil {
				c.check(t, eng)
			}
		})
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func wantColumnType(t *testing.T, eng *memory.Engine, tbl, col, typ string) {
	t.Helper()
	tt := eng.Tables()["DRY_RUN."+tbl]
	if tt == nil {
		t.Fatalf("no table %s", tbl)
	}
	c := tt.Column(col)
	if c == nil {
		t.Fatalf("table %s has no column %s", tbl, col)
	}
	if got := c.Type.String(); got != typ {
		t.Errorf("%s.%s is %s, want %s", tbl, col, got, typ)
	}
}

// wantValues checks a column's values in dump order.
func wantValues(t *testing.T, eng *memory.Engine, tbl, col string, want ...string) {
	t.Helper()
	var got []string
	for _, r := range eng.Rows("DRY_RUN." + tbl) {
		got = append(got, r[col])
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s.%s = %q, want %q", tbl, col, got, want)
	}
}

// wantDeleted checks which rows (by CODE) have _SDC_DELETED_AT set.
func wantDeleted(t *testing.T, eng *memory.Engine, tbl string, deleted map[string]bool) {
	t.Helper()
	for _, r := range eng.Rows("DRY_RUN." + tbl) {
		if got := r["_SDC_DELETED_AT"] != ""; got != deleted[r["CODE"]] {
			t.Errorf("row %s: deleted=%v, want %v", r["CODE"], got, deleted[r["CODE"]])
		}
	}
}
