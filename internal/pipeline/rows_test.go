package pipeline_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Composite key values that hold NUL bytes stay apart: joined with NUL,
// ("a\u0000b","c") and ("a","b\u0000c") were one key, and one row
// vanished with exit 0 (issue 13 item 4). Both batches: one where the
// keys arrive unordered (the in-batch dedupe), and the engine's own key.
func TestCompositeKeysWithNULStayApart(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"c","key_properties":["a","b"],"schema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"v":{"type":"integer"}}}}`
	recs := []string{
		`{"type":"RECORD","stream":"c","record":{"a":"z","b":"z","v":0}}`,
		`{"type":"RECORD","stream":"c","record":{"a":"a\u0000b","b":"c","v":1}}`,
		`{"type":"RECORD","stream":"c","record":{"a":"a","b":"b\u0000c","v":2}}`,
	}
	for name, settings := range map[string]string{"one batch": "", "one row a batch": `{"batch_size_rows": 1}`} {
		t.Run(name, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, settings), input(append([]string{schema}, recs...)...)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range eng.Rows("DRY_RUN.C") {
				got = append(got, r["V"])
			}
			if strings.Join(got, ",") != "2,1,0" {
				t.Errorf("V in key order = %q, want 2,1,0 (three rows)", got)
			}
		})
	}
}

// Versions are canonical numbers (issue 13 item 11): "-0" is 0, in a
// RECORD (stored as 0) and in ACTIVATE_VERSION, so activating version 0
// keeps a row of version -0 and activating -0 keeps a row of version 0.
func TestVersionsAreCanonical(t *testing.T) {
	recAt := func(id int, version string) string {
		return `{"type":"RECORD","stream":"s","record":{"id":` + string(rune('0'+id)) + `,"v":"x"},"version":` + version + `}`
	}
	activate := func(version string) string {
		return `{"type":"ACTIVATE_VERSION","stream":"s","version":` + version + `}`
	}
	for name, lines := range map[string][]string{
		"record -0, activate 0": {schemaLine, recAt(1, "-0"), activate("0")},
		"record 0, activate -0": {schemaLine, recAt(1, "0"), activate("-0")},
		// the second record takes the one pass (the columns exist by then)
		"records 0 and -0, activate 0": {schemaLine, recAt(1, "0"), recAt(2, "-0"), activate("0")},
	} {
		t.Run(name, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, ""), input(lines...)); err != nil {
				t.Fatal(err)
			}
			for _, r := range eng.Rows("DRY_RUN.S") {
				if r["_SDC_TABLE_VERSION"] != "0" || r["_SDC_DELETED_AT"] != "" {
					t.Errorf("row %s: version %q, deleted at %q; want 0, not deleted", r["ID"], r["_SDC_TABLE_VERSION"], r["_SDC_DELETED_AT"])
				}
			}
		})
	}
}

// An invalid record breaking several rules gets one message, byte for
// byte, in the reject file, however often it comes (issue 13 item 15):
// through the one-pass decoder (a schema its plan covers) and the
// general validator (a schema it does not: "not").
func TestRejectMessagesAreDeterministic(t *testing.T) {
	props := `"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"},"d":{"type":"integer"}`
	bad := `{"type":"RECORD","stream":"d","record":{"d":"w","c":"x","b":"y","a":"z"}}`
	for name, schema := range map[string]string{
		"one pass":          `{"type":"SCHEMA","stream":"d","key_properties":[],"schema":{"type":"object","properties":{` + props + `}}}`,
		"general validator": `{"type":"SCHEMA","stream":"d","key_properties":[],"schema":{"type":"object","not":{"required":["e"]},"properties":{` + props + `}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rejects.jsonl")
			lines := []string{schema}
			for range 100 {
				lines = append(lines, bad)
			}
			if _, err := run(t, newEngine(), loadConfig(t, `{"on_invalid_record": "reject", "reject_path": "`+path+`"}`), input(lines...)); err != nil {
				t.Fatal(err)
			}
			rejects := strings.Split(strings.TrimSuffix(readFile(t, path), "\n"), "\n")
			if len(rejects) != 100 {
				t.Fatalf("%d rejects, want 100", len(rejects))
			}
			for i, l := range rejects {
				var r struct{ Error string }
				if err := json.Unmarshal([]byte(l), &r); err != nil {
					t.Fatal(err)
				}
				want := fmt.Sprintf(`line %d: stream "d": property "a": "z" is not of type integer`, i+2)
				if r.Error != want {
					t.Fatalf("reject %d: %q, want %q", i, r.Error, want)
				}
			}
		})
	}
}
