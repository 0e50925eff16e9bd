package oracle_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/conformance"
)

// conformanceCases are the streams of ../shared/conformance, each run (in
// order, on one database) through the pipeline on the Oracle engine over
// the fake server and on the embedded engine. The tables, the state lines
// and whether the last file fails must agree.
var conformanceCases = map[string]struct {
	files    []string
	settings string
}{
	"array_data":                        {files: []string{"singer-sdk/array_data.singer"}},
	"camelcase":                         {files: []string{"singer-sdk/camelcase.singer"}},
	"camelcase_complex_schema":          {files: []string{"singer-sdk/camelcase_complex_schema.singer"}},
	"duplicate_records":                 {files: []string{"singer-sdk/duplicate_records.singer"}},
	"encoded_string_data":               {files: []string{"singer-sdk/encoded_string_data.singer"}},
	"invalid_schema":                    {files: []string{"singer-sdk/invalid_schema.singer"}},
	"multiple_state_messages":           {files: []string{"singer-sdk/multiple_state_messages.singer"}, settings: `{"batch_size_rows": 1, "max_parallelism": 1}`},
	"multiple_state_messages_parallel":  {files: []string{"singer-sdk/multiple_state_messages.singer"}, settings: `{"batch_size_rows": 2, "max_parallelism": 4}`},
	"no_primary_keys_append":            {files: []string{"singer-sdk/no_primary_keys.singer", "singer-sdk/no_primary_keys_append.singer"}},
	"optional_attributes":               {files: []string{"singer-sdk/optional_attributes.singer"}},
	"record_missing_fields":             {files: []string{"singer-sdk/record_missing_fields.singer"}},
	"pk_updates":                        {files: []string{"singer-sdk/pk_updates.singer"}},
	"record_before_schema":              {files: []string{"singer-sdk/record_before_schema.singer"}},
	"record_missing_key_property":       {files: []string{"singer-sdk/record_missing_key_property.singer"}},
	"record_missing_required_property":  {files: []string{"singer-sdk/record_missing_required_property.singer"}},
	"schema_no_properties":              {files: []string{"singer-sdk/schema_no_properties.singer"}},
	"schema_updates":                    {files: []string{"singer-sdk/schema_updates.singer"}},
	"special_chars_in_attributes":       {files: []string{"singer-sdk/special_chars_in_attributes.singer"}},
	"user_location_upsert":              {files: []string{"singer-sdk/user_location_data.singer", "singer-sdk/user_location_upsert_data.singer"}},
	"commits":                           {files: []string{"target-postgres/commits.singer"}},
	"encoded_strings":                   {files: []string{"target-postgres/encoded_strings.singer"}},
	"jsonb_data":                        {files: []string{"target-postgres/jsonb_data.singer"}},
	"jsonb_data_native":                 {files: []string{"target-postgres/jsonb_data.singer"}, settings: `{"json_type": "json"}`},
	"large_int":                         {files: []string{"target-postgres/large_int.singer"}},
	"large_numeric_primary_key":         {files: []string{"target-postgres/large_numeric_primary_key.singer"}},
	"missing_value":                     {files: []string{"target-postgres/missing_value.singer"}},
	"multiple_schema_messages":          {files: []string{"target-postgres/multiple_schema_messages.singer"}},
	"new_array_column":                  {files: []string{"target-postgres/new_array_column.singer"}},
	"reserved_keywords":                 {files: []string{"target-postgres/reserved_keywords.singer"}},
	"tap_aapl":                          {files: []string{"target-postgres/tap_aapl.singer"}},
	"tap_countries":                     {files: []string{"target-postgres/tap_countries.singer"}},
	"tap_countries_booleans_native":     {files: []string{"target-postgres/tap_countries.singer"}, settings: `{"boolean_type": "boolean"}`},
	"activate_version_hard":             {files: []string{"target-postgres/test_activate_version_hard.singer"}, settings: `{"hard_delete": true}`},
	"activate_version_soft":             {files: []string{"target-postgres/test_activate_version_soft.singer"}},
	"activate_version_soft_with_delete": {files: []string{"target-postgres/test_activate_version_soft.singer", "target-postgres/test_activate_version_soft_with_delete.singer"}},
	"activate_version_deletes_data_properly": {files: []string{"target-postgres/test_activate_version_deletes_data_properly.singer", "target-postgres/test_activate_version_deletes_data_properly_2.singer"},
		settings: `{"hard_delete": true}`},
	"activate_version_uppercase": {files: []string{"target-postgres/test_activate_version_uppercase_stream_name.singer"}},
	"no_pk_append":               {files: []string{"target-postgres/test_no_pk.singer", "target-postgres/test_no_pk_append.singer"}},
	"no_type":                    {files: []string{"target-postgres/test_no_type.singer"}},
	"uppercase_column_alter":     {files: []string{"target-postgres/uppercase_stream_name_with_column_alter.singer"}},
	"overwrite":                  {files: []string{"target-postgres/tap_countries.singer", "target-postgres/tap_countries.singer"}, settings: `{"load_method": "overwrite", "batch_size_rows": 50}`},
	"append_only":                {files: []string{"singer-sdk/user_location_data.singer", "singer-sdk/user_location_upsert_data.singer"}, settings: `{"load_method": "append-only"}`},
}

func TestConformanceMatchesEmbeddedEngine(t *testing.T) {
	dir := conformance.Dir(t)
	for name, c := range conformanceCases {
		t.Run(name, func(t *testing.T) {
			var inputs []string
			for _, f := range c.files {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, string(b))
			}
			mem, wantStates, wantErr := runMemory(t, c.settings, inputs...)
			r := defaultRig(t)
			var states []string
			var err error
			for _, in := range inputs {
				states, err = run(t, r.eng, c.settings, in)
			}
			if (err == nil) != (wantErr == nil) {
				t.Fatalf("error %v, embedded engine: %v", err, wantErr)
			}
			// With parallel workers, which intermediate states appear
			// depends on timing; the last one does not.
			got, want := strings.Join(states, "\n"), strings.Join(wantStates, "\n")
			if !strings.Contains(c.settings, `"max_parallelism": 1`) {
				got, want = last(states), last(wantStates)
			}
			if got != want {
				t.Errorf("states:\n%s\nembedded engine:\n%s", got, want)
			}
			compare(t, oracleSnapshot(t, r, nil), memorySnapshot(mem, nil))
			if err := r.eng.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}
