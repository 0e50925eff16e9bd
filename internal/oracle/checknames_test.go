package oracle_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
)

// TestCheckNamesAreUniquePerSchema: Oracle's constraint names are unique
// per schema. Streams "order" (line_active) and "order_line" (active),
// booleans as NUMBER(1) and JSON as CLOB IS JSON, gave both tables the
// checks ORDER_LINE_ACTIVE_BOOL and ORDER_LINE_DOC_JSON, and the second
// CREATE TABLE failed with ORA-02264 (the fake models the namespace). Both
// tables load now, each with its checks.
func TestCheckNamesAreUniquePerSchema(t *testing.T) {
	input := strings.Join([]string{
		`{"type":"SCHEMA","stream":"order","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"line_active":{"type":["null","boolean"]},"line_doc":{"type":["null","object"]}}}}`,
		`{"type":"RECORD","stream":"order","record":{"id":1,"line_active":true,"line_doc":{"a":1}}}`,
		`{"type":"SCHEMA","stream":"order_line","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"active":{"type":["null","boolean"]},"doc":{"type":["null","object"]}}}}`,
		`{"type":"RECORD","stream":"order_line","record":{"id":2,"active":false,"doc":{"b":2}}}`,
		`{"type":"STATE","value":{"done":true}}`,
	}, "\n") + "\n"
	const settings = `{"boolean_type": "number", "json_type": "clob"}`
	r := defaultRig(t)
	states, err := run(t, r.eng, settings, input)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	if len(states) != 1 {
		t.Fatalf("states %v, want the one STATE", states)
	}
	mem, _, err := runMemory(t, settings, input)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, oracleSnapshot(t, r, nil), memorySnapshot(mem, nil))
}

// TestNonASCIIStreamOnANonUnicodeDatabase: a table's comment records its
// stream. A stream named "日本" on a WE8MSWIN1252 database failed its first
// run at COMMENT ON TABLE (text the character set cannot hold, exit 3),
// and a second run then adopted the uncommented table. The comment's JSON
// is ASCII now: the run loads, and the comment reads back as the stream.
func TestNonASCIIStreamOnANonUnicodeDatabase(t *testing.T) {
	r := fakeRig(t, fake.Options{Charset: "WE8MSWIN1252"}, oracle.Options{Charset: "WE8MSWIN1252"})
	input := strings.Join([]string{
		`{"type":"SCHEMA","stream":"日本","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`,
		`{"type":"RECORD","stream":"日本","record":{"id":1,"v":"a"}}`,
		`{"type":"STATE","value":{"done":true}}`,
	}, "\n") + "\n"
	states, err := run(t, r.eng, `{}`, input)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	if len(states) != 1 {
		t.Fatalf("states %v, want the one STATE", states)
	}
	got, err := r.eng.Describe(context.Background(), schemaName, "__")
	if err != nil || got == nil {
		t.Fatalf("describe: %v, %v", got, err)
	}
	if !slices.Equal(got.Streams, []string{"日本"}) {
		t.Errorf("the table comment reads back as streams %q, want [日本]", got.Streams)
	}
}

// A property description the database character set cannot hold fails
// the run at its COMMENT, and the error names the setting that helps
// (column_comments), not national_characters, which changes column types
// only.
func TestNonASCIIDescriptionOnANonUnicodeDatabase(t *testing.T) {
	r := fakeRig(t, fake.Options{Charset: "WE8MSWIN1252"}, oracle.Options{Charset: "WE8MSWIN1252"})
	input := strings.Join([]string{
		`{"type":"SCHEMA","stream":"d","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"],"description":"a → b"}}}}`,
		`{"type":"RECORD","stream":"d","record":{"id":1,"v":"a"}}`,
	}, "\n") + "\n"
	_, err := run(t, r.eng, `{}`, input)
	if err == nil || !strings.Contains(err.Error(), "column_comments: false") || strings.Contains(err.Error(), "national_characters") {
		t.Fatalf("error %v, want one naming column_comments: false and not national_characters", err)
	}
}
