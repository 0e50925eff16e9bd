package pipeline_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every value lands exactly: numbers keep every digit, date-times keep
// their instant (in UTC), strings are byte-exact, JSON keeps its text.
func TestExactValues(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"exact","key_properties":["id"],"schema":{"type":"object","properties":{` +
		`"id":{"type":"integer"},"big":{"type":["null","integer"]},"dec":{"type":["null","number"]},` +
		`"at":{"type":["null","string"],"format":"date-time"},"day":{"type":["null","string"],"format":"date"},` +
		`"s":{"type":["null","string"]},"doc":{"type":["null","object"]},"flag":{"type":["null","boolean"]}}}}`
	recs := []string{
		`{"type":"RECORD","stream":"exact","record":{"id":1,"big":99999999999999999999999999999999999999,"dec":123456789012345678.123456789012345678,"at":"2024-02-29T23:30:00.123456+05:30","day":"2024-02-29","s":"quote \" backslash \\ tab \t 漢字 emoji 😀","doc":{"b":1.50,"a":[1e3,null,"x"]},"flag":true}}`,
		`{"type":"RECORD","stream":"exact","record":{"id":2,"big":-1,"dec":0.000000000000000000000000000001,"at":"2024-01-01 00:00:00","day":null,"s":"","doc":null,"flag":false}}`,
	}
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), input(append([]string{schema}, recs...)...)); err != nil {
		t.Fatal(err)
	}
	rows := eng.Rows("DRY_RUN.EXACT")
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	want := []map[string]string{
		{"BIG": "99999999999999999999999999999999999999", "DEC": "123456789012345678.123456789012345678",
			"AT": "2024-02-29T18:00:00.123456Z", "DAY": "2024-02-29", "S": "quote \" backslash \\ tab \t 漢字 emoji 😀",
			"DOC": `{"b":1.50,"a":[1e3,null,"x"]}`, "FLAG": "1"},
		{"BIG": "-1", "DEC": "0.000000000000000000000000000001", "AT": "2024-01-01T00:00:00Z", "DAY": "", "S": "", "DOC": "", "FLAG": "0"},
	}
	for i, w := range want {
		for col, v := range w {
			if got := rows[i][col]; got != v {
				t.Errorf("row %d %s = %q, want %q", i+1, col, got, v)
			}
		}
	}
	types := map[string]string{"ID": "NUMBER(38,0)", "BIG": "NUMBER(38,0)", "DEC": "NUMBER", "AT": "TIMESTAMP(6) WITH TIME ZONE",
		"DAY": "DATE", "S": "VARCHAR2(4000 BYTE)", "DOC": "CLOB", "FLAG": "NUMBER(1)"}
	for col, typ := range types {
		wantColumnType(t, eng, "EXACT", col, typ)
	}
}

// A value that does not fit its column widens the column first.
func TestValuesWidenColumns(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"w","key_properties":["id"],"schema":{"type":"object","properties":{` +
		`"id":{"type":"integer"},"s":{"type":["null","string"]},"at":{"type":["null","string"],"format":"date-time"},` +
		`"d":{"type":["null","string"],"format":"x-singer.decimal","precision":10,"scale":2}}}}`
	long := strings.Repeat("é", 2600) // 5200 bytes
	r1 := `{"type":"RECORD","stream":"w","record":{"id":1,"s":"short","at":"2024-01-01T00:00:00.123456Z","d":"12.34"}}`
	r2 := `{"type":"RECORD","stream":"w","record":{"id":2,"s":"` + long + `","at":"2024-01-01T00:00:00.1234567Z","d":"12.345"}}`
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, `{"batch_size_rows": 1}`), input(schema, r1, r2)); err != nil {
		t.Fatal(err)
	}
	wantColumnType(t, eng, "W", "S", "CLOB")
	wantColumnType(t, eng, "W", "AT", "TIMESTAMP(9) WITH TIME ZONE")
	wantColumnType(t, eng, "W", "D", "NUMBER(11,3)")
	rows := eng.Rows("DRY_RUN.W")
	if rows[1]["S"] != long || rows[0]["S"] != "short" || rows[1]["AT"] != "2024-01-01T00:00:00.1234567Z" || rows[1]["D"] != "12.345" {
		t.Fatalf("rows after widening: %v", rows)
	}
}

// The conformance streams' tables have the documented types on a 19c
// server, and the encoded strings arrive byte-exact.
func TestConformanceShapes(t *testing.T) {
	dir := needConformance(t)
	eng := newEngine()
	for _, f := range []string{"singer-sdk/encoded_string_data.singer", "target-postgres/large_int.singer",
		"target-postgres/commits.singer", "singer-sdk/camelcase.singer", "singer-sdk/special_chars_in_attributes.singer"} {
		if _, err := run(t, eng, loadConfig(t, ""), readFile(t, filepath.Join(dir, f))); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	wantColumnType(t, eng, "TEST_STRINGS", "INFO", "VARCHAR2(4000 BYTE)")
	wantColumnType(t, eng, "TEST_LARGE_INT", "ID", "NUMBER(38,0)")
	wantColumnType(t, eng, "COMMITS", "AUTHORED_DATE", "TIMESTAMP(6) WITH TIME ZONE")
	wantColumnType(t, eng, "COMMITS", "PARENT_IDS", "CLOB")
	wantColumnType(t, eng, "COMMITS", "LEGACY_ID", "VARCHAR2(4000 BYTE)")
	wantValues(t, eng, "TEST_LARGE_INT", "ID", "2", "99999999999999999")
	if tables := eng.Tables(); tables["DRY_RUN.TESTCAMELCASE"] == nil || tables["DRY_RUN.TEST_SPECIALCHARS_IN_ATTRIBUTES"] == nil {
		t.Fatalf("conformed table names missing: %v", keys(tables))
	}

	// Every string of test_strings, byte for byte.
	want := map[string]string{}
	f, err := os.Open(filepath.Join(dir, "singer-sdk/encoded_string_data.singer"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m struct {
			Type, Stream string
			Record       struct {
				ID   json.Number `json:"id"`
				Info string      `json:"info"`
			}
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Type == "RECORD" && m.Stream == "test_strings" {
			want[m.Record.ID.String()] = m.Record.Info
		}
	}
	for _, r := range eng.Rows("DRY_RUN.TEST_STRINGS") {
		if r["INFO"] != want[r["ID"]] {
			t.Errorf("id %s: %q, want %q", r["ID"], r["INFO"], want[r["ID"]])
		}
	}
	if len(want) != 11 {
		t.Fatalf("read %d strings from the stream", len(want))
	}
}
