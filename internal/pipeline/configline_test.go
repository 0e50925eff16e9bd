package pipeline_test

import (
	"errors"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

// A setting a stream's SCHEMA cannot take is a configuration error (exit
// 2) that names the SCHEMA's line, as every other error about the input
// does (SPEC §8: line, stream, property, what was expected): `config: KEY:
// line N: stream "s": …`. Before, the layout's errors (column_mappings,
// ignored_columns, a metadata name a property holds: internal/tablemap,
// through inputErrorFrom), history's and delete_missing's named the stream
// but not the line: `config: column_mappings: stream "b": …`.
func TestSchemaConfigurationErrorsNameTheLine(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	b := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"},"x":{"type":"integer"},"y":{"type":"integer"},"a":{"type":"object","properties":{"b":{"type":"string"}}},"a.b":{"type":"string"}}},"key_properties":["id"]}`
	keyless := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":[]}`
	withRunID := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"},"_sdc_run_id":{"type":["null","string"]}}},"key_properties":["id"]}`
	head := []string{a, `{"type":"RECORD","stream":"a","record":{"id":1}}`, `{"type":"STATE","value":1}`}
	for _, tc := range []struct {
		name, before, settings, schema, want string
	}{
		{"column_mappings collision", "", `{"column_mappings":{"b":{"x":"Q","y":"Q"}}}`, b,
			`config: column_mappings: line 4: stream "b": properties "x" and "y" are both mapped to column "Q": one column cannot hold both`},
		{"ignored key", "", `{"ignored_columns":{"b":["id"]}}`, b,
			`config: ignored_columns: line 4: stream "b": key property "id" cannot be ignored`},
		{"ambiguous path", "", `{"storage_mode":"flattened","column_mappings":{"b":{"a.b":"AB"}}}`, b,
			`config: column_mappings: line 4: stream "b": path "a.b" names two properties, ["a","b"] and ["a.b"]: a path joins property names with ".", so a name holding "." cannot be told from nesting; ` +
				`rename one with a stream map (stream_maps {"b": {"a_b": "record['a.b']", "a.b": null}} renames a key "a.b") and use the new name`},
		{"history without keys", "", `{"stream_overrides":{"b":{"load_method":"history"}}}`, keyless,
			`config: load_method: line 4: stream "b": load_method history needs key_properties, and the stream's SCHEMA has none: give the stream another load_method (stream_overrides)`},
		{"history and delete_missing hard", "", `{"stream_overrides":{"b":{"load_method":"history","delete_missing":"hard"}}}`, b,
			`config: delete_missing: line 4: stream "b": delete_missing hard conflicts with load_method history, which never deletes a row: remove one (stream_overrides)`},
		{"history_valid_from", "", `{"history_valid_from":"nope","stream_overrides":{"b":{"load_method":"history"}}}`, b,
			`config: history_valid_from: line 4: stream "b": history_valid_from "nope" is not a column of table DRY_RUN.B: it must name a date-time property stored in its own column (top level, or flattened)`},
		{"delete_missing by name", "", `{"stream_overrides":{"b":{"delete_missing":"soft"}}}`, keyless,
			`config: stream_overrides: line 4: stream "b": delete_missing soft needs an upsert stream with key_properties, but the stream has no key_properties`},
		{"metadata name held by a property", "{}", `{"stream_overrides":{"b":{"delete_missing":"soft"}}}`, withRunID,
			`config: delete_missing: line 4: stream "b": column _SDC_RUN_ID of table DRY_RUN.B holds property "_sdc_run_id", and delete_missing needs a metadata column of that name: ` +
				`load the stream into a new table (table_name_mappings), rename the column in the database, or leave delete_missing off for this stream`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			in := input(append(head, tc.schema, `{"type":"RECORD","stream":"b","record":{"id":1}}`, `{"type":"STATE","value":2}`)...)
			if tc.before != "" { // a first run makes table B
				if _, err := run(t, eng, loadConfig(t, tc.before), in); err != nil {
					t.Fatalf("first run: %v", err)
				}
			}
			states, err := run(t, eng, loadConfig(t, tc.settings), in)
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("err %v (%T), want a *config.Error", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			if len(states) != 1 || states[0] != "1" {
				t.Errorf("states %q, want only 1 (stream a's)", states)
			}
		})
	}
}
