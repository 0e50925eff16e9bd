package pipeline_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// unmatchedWarnings runs input with settings and returns the warnings
// about mapping entries that matched nothing, as "msg key=value ..." text
// without the time and level.
func unmatchedWarnings(t *testing.T, settings, in string) ([]string, error) {
	t.Helper()
	var logs strings.Builder
	h := slog.NewTextHandler(&logs, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey || a.Key == slog.LevelKey {
			return slog.Attr{}
		}
		return a
	}})
	err := pipeline.Run(context.Background(), pipeline.Options{Config: loadConfig(t, settings), Engine: newEngine(),
		Server: testServer,
		Input:  strings.NewReader(in), StateOut: io.Discard, Log: slog.New(h)})
	var out []string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "matched no") {
			out = append(out, l)
		}
	}
	return out, err
}

// Mapping entries that matched no stream or property of the whole input
// draw one warning each at the end of the run.
func TestUnmatchedMappingsWarn(t *testing.T) {
	settings := `{
		"table_name_mappings": {"orders": "ORD", "ghost": "G"},
		"column_mappings": {"orders": {"id": "OID", "customer.name": "CNAME", "old": "OLD_COL", "nope": "X"}, "ghost": {"a": "B"}},
		"ignored_columns": {"*": ["customer.addr", "absent", "meta.anything"], "orders": ["tags.x", "missing"], "users": ["email"], "ghost2": ["a"]},
		"stream_overrides": {"ord*": {"batch_size_rows": 5}, "zzz*": {"batch_size_rows": 5}, "exact": {"hard_delete": true}, "users": {"hard_delete": true}},
		"custom_indexes": {"users": [{"columns": ["id"], "unique": true}], "Orders": [{"columns": ["id"]}]}
	}`
	in := input(
		`{"type":"SCHEMA","stream":"orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},`+
			`"old":{"type":["null","string"]},"customer":{"type":["null","object"],"properties":{"name":{"type":"string"},"addr":{"type":"string"}}}}}}`,
		`{"type":"RECORD","stream":"orders","record":{"id":1,"old":"x"}}`,
		// A later SCHEMA without "old": its mapping matched the first one.
		`{"type":"SCHEMA","stream":"orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},`+
			`"customer":{"type":["null","object"],"properties":{"name":{"type":"string"},"addr":{"type":"string"}}},`+
			`"meta":{"type":["null","object"]},"tags":{"type":["null","array"],"items":{"type":"object"}}}}}`,
		`{"type":"RECORD","stream":"orders","record":{"id":2}}`,
		`{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":"string"}}}}`,
	)
	got, err := unmatchedWarnings(t, settings, in)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`msg="table_name_mappings entry matched no stream of the input" stream=ghost table=G`,
		`msg="column_mappings entry matched no stream of the input" stream=ghost`,
		`msg="column_mappings entry matched no property of the stream's schemas" stream=orders property=nope`,
		`msg="ignored_columns entry matched no property of any stream's schemas" property=absent`,
		`msg="ignored_columns entry matched no stream of the input" stream=ghost2`,
		`msg="ignored_columns entry matched no property of the stream's schemas" stream=orders property=missing`,
		`msg="custom_indexes entry matched no stream of the input" stream=Orders`,
		`msg="stream_overrides entry matched no stream of the input" pattern=zzz*`,
		`msg="stream_overrides entry matched no stream of the input" pattern=exact`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A run that fails, or sees no stream, does not know what would have
	// matched: no warnings.
	for name, in := range map[string]string{
		"failed":   input(`{"type":"SCHEMA","stream":"orders","schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`, `{"type":"RECORD","stream":"orders","record":{"id":"x"}}`),
		"no input": "",
	} {
		got, _ := unmatchedWarnings(t, settings, in)
		if len(got) != 0 {
			t.Errorf("%s: warnings %q", name, got)
		}
	}
}
