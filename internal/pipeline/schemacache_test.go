package pipeline_test

import (
	"strings"
	"testing"
)

// Streams that send the same SCHEMA text share its compiled form
// (schema.Cache), but where each keeps number text as received is its
// own: stream "a" loads as a document (json, its numbers kept as text),
// stream "b" the same schema flattened into NUMBER columns. A number
// Oracle's NUMBER cannot hold is a document's text in "a" and an invalid
// record in "b", whichever stream's SCHEMA came last.
func TestSameSchemaTextKeepsEachStreamsNumberRules(t *testing.T) {
	const props = `"schema":{"type":"object","properties":{"id":{"type":"integer"},"doc":{"type":"object","properties":{"n":{"type":"number"}}}}}`
	schemaOf := func(stream string) string {
		return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["id"],` + props + `}`
	}
	cfg := `{"stream_overrides": {"a": {"storage_mode": "json"}, "b": {"storage_mode": "flattened"}}}`
	for _, order := range [][]string{{"a", "b"}, {"b", "a"}} {
		t.Run(strings.Join(order, ","), func(t *testing.T) {
			head := []string{schemaOf(order[0]), schemaOf(order[1])}
			eng := newEngine()
			lines := append(head, `{"type":"RECORD","stream":"a","record":{"id":1,"doc":{"n":1e400}}}`)
			if _, err := run(t, eng, loadConfig(t, cfg), input(lines...)); err != nil {
				t.Fatalf("stream a (json): %v", err)
			}
			if rows := eng.Rows("DRY_RUN.A"); len(rows) != 1 || !strings.Contains(rows[0]["DATA"], "1e400") {
				t.Fatalf("stream a: rows %v, want the document with 1e400 as sent", rows)
			}
			lines = append(head, `{"type":"RECORD","stream":"b","record":{"id":1,"doc":{"n":1e400}}}`)
			_, err := run(t, newEngine(), loadConfig(t, cfg), input(lines...))
			wantInputError(t, err, "doc")
		})
	}
}
