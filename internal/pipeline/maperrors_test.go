package pipeline_test

import (
	"errors"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/streammap"
)

// Stream-map errors name the line, the stream and the property once each
// (SPEC §8), then what the map says: before, the stream map's own text
// named the stream and the property again ("stream "users": property
// "x": stream map of "users": property "x": …", and "stream_maps:
// stream_maps: …" for a map that does not fit the schema).
func TestStreamMapErrorText(t *testing.T) {
	const schema = `{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":["null","string"]}}}}`
	const record = `{"type":"RECORD","stream":"users","record":{"id":1,"email":"a@b"}}`
	const badInt = `int: invalid literal with base 10: a@b (set on_invalid_record to skip or reject to load the other records)`
	for _, tc := range []struct {
		name, maps string
		want       string
		config     bool // a configuration error (exit 2), not input
	}{
		{"property", `{"users": {"x": "int(email)"}}`,
			`line 2: stream "users": property "x": stream map: expression "int(email)": ` + badInt, false},
		{"filter", `{"users": {"__filter__": "int(email) > 0"}}`,
			`line 2: stream "users": property "__filter__": stream map: expression "int(email) > 0": ` + badInt, false},
		{"aliased", `{"users": {"__alias__": "people", "x": "int(email)"}}`,
			`line 2: stream "users": property "x": stream map (output "people"): expression "int(email)": ` + badInt, false},
		{"unknown name", `{"users": {"x": "nosuch + 1"}}`,
			`config: stream_maps: line 1: stream "users", property "x": expression "nosuch + 1": name "nosuch" is neither a property of stream "users" nor a helper (md5, sha256, datetime, json, config, record, self, _ or a built-in)`, true},
		{"key not in output", `{"users": {"__key_properties__": ["zz"]}}`,
			`config: stream_maps: line 1: stream "users", property "__key_properties__": key property "zz" is not in the output of stream "users"; list it (or change __key_properties__)`, true},
		{"schema", `{"users": {"x": "1"}}`,
			`line 1: stream "users": stream map: schema: properties: not a JSON object`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := input(schema, record)
			if tc.name == "schema" {
				in = input(`{"type":"SCHEMA","stream":"users","key_properties":[],"schema":{"properties":[1]}}`)
			}
			_, err := run(t, newEngine(), loadConfig(t, `{"stream_maps": `+tc.maps+`}`), in)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n%v\nwant\n%s", err, tc.want)
			}
			var ce *config.Error
			if errors.As(err, &ce) != tc.config {
				t.Errorf("configuration error %v, want %v", !tc.config, tc.config)
			}
			var ee *streammap.EvalError
			if !tc.config && tc.name != "schema" && !errors.As(err, &ee) {
				t.Errorf("the error does not unwrap to the *streammap.EvalError")
			}
		})
	}
}
