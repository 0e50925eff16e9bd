package pipeline_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/conformance"
	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// moreCase runs one file of ../shared/conformance-more with default
// settings. Expectations come from SPEC.md: validate_records is on by
// default (PipelineWise's own tests run with it off), upsert keeps the last
// record per key, names are conformed (§5.1), a schema that is not JSON
// Schema is invalid input.
type moreCase struct {
	file string
	// wantErr is a substring of the expected *inputerr.Error, with
	// wantLine its line; "" means the file loads.
	wantErr  string
	wantLine int64
	// lastState is a prefix of the last state line written ("" : none checked).
	lastState string
	rows      map[string]int // DRY_RUN.<TABLE> -> rows
}

func TestConformanceMore(t *testing.T) {
	dir := conformance.MoreDir(t)
	const (
		pgw = "pipelinewise-target-postgres/"
		sfw = "pipelinewise-target-snowflake/"
		rsw = "pipelinewise-target-redshift/"
		sdk = "meltano-sdk/"
		rad = "radbrt-target-oracle/"
	)
	cases := map[string]moreCase{
		// Bad input that PipelineWise's tests expect to fail.
		"pg invalid-json": {file: pgw + "invalid-json.json", wantErr: "invalid JSON", wantLine: 3,
			lastState: `{"currently_syncing":"tap_mysql_test-test_table_one"}`},
		"pg invalid-message-order": {file: pgw + "invalid-message-order.json", wantErr: "RECORD before any SCHEMA", wantLine: 3},
		"pg invalid-records":       {file: pgw + "messages-with-invalid-records.json", wantErr: `property "c_pk"`, wantLine: 4},
		// Valid under PipelineWise's validate_records: false, invalid under
		// SPEC's default (values that violate their schema, §5.2).
		"pg logical-streams":  {file: pgw + "messages-pg-logical-streams.json", wantErr: `property "cjson"`, wantLine: 22},
		"pg nested-schema":    {file: pgw + "messages-with-nested-schema.json", wantErr: `property "c_array"`, wantLine: 4},
		"pg unicode":          {file: pgw + "messages-with-unicode-characters.json", wantErr: "maxLength 16", wantLine: 4},
		"sf pg-invalid":       {file: sfw + "messages-pg-with-invalid-records.json", wantErr: `property "results"`, wantLine: 4},
		"sf unexpected-types": {file: sfw + "messages-with-unexpected-types.json", wantErr: `property "c_time"`, wantLine: 5},
		"sdk one_parent_many_children": {file: sdk + "parent_child__test_one_parent_many_children.singer.jsonl",
			wantErr: `property "pid"`, wantLine: 3},
		// A root schema of "type": "date-time" is not JSON Schema (§4).
		"sf changing-pk":        {file: sfw + "messages-with-changing-pk.json", wantErr: "date-time", wantLine: 1},
		"sf falsy-pk-values":    {file: sfw + "messages-with-falsy-pk-values.json", wantErr: "date-time", wantLine: 1},
		"sf new-pk":             {file: sfw + "messages-with-new-pk.json", wantErr: "date-time", wantLine: 1},
		"sf null-pk":            {file: sfw + "messages-with-null-pk.json", wantErr: "date-time", wantLine: 1},
		"sf streams_only_state": {file: sfw + "streams_only_state.json", wantErr: "date-time", wantLine: 1},
		// "2019-12-18T13:19:44+00:00+00:00" is no date-time (§4, §5.4).
		"pg reserved-name": {file: pgw + "messages-with-reserved-name-as-table-name.json", wantErr: `"_sdc_deleted_at"`, wantLine: 14,
			lastState: `{"currently_syncing":null,"bookmarks":{"my_db-order":{"version":1576670613163,"log_file":"mysql-bin.000004","log_pos":945}}}`,
			rows:      map[string]int{"MY_DB_ORDER": 4}},
		"pg space-in-table-name": {file: pgw + "messages-with-space-in-table-name.json", wantErr: `"_sdc_deleted_at"`, wantLine: 14,
			rows: map[string]int{"MY_DB_TABLE_WITH_SPACE_AND_UPPERCASE": 4}},
		"sf binary-columns": {file: sfw + "messages-with-binary-columns.json", wantErr: `"_sdc_deleted_at"`, wantLine: 14,
			rows: map[string]int{"TAP_MYSQL_TEST_TEST_BINARY": 4}},

		// Files that load.
		"pg logical-no-records": {file: pgw + "messages-pg-logical-streams-no-records.json",
			lastState: `{"currently_syncing":null,"bookmarks":{"logical1-logical1_edgydata":`,
			rows: map[string]int{"LOGICAL1_LOGICAL1_EDGYDATA": 0, "LOGICAL1_LOGICAL1_TABLE1": 0,
				"LOGICAL1_LOGICAL1_TABLE2": 0, "LOGICAL2_LOGICAL2_TABLE1": 0}},
		"pg long-texts": {file: pgw + "messages-with-long-texts.json",
			lastState: `{"currently_syncing":null,"bookmarks":{"tap_mysql_test-test_table_long_texts":{"initial_full_table_complete":true}}}`,
			rows:      map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_LONG_TEXTS": 5}},
		"pg multiple-streams-modified-column": {file: pgw + "messages-with-multiple-streams-modified-column.json",
			rows: map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_ONE": 1, "TAP_MYSQL_TEST_TEST_TABLE_TWO": 2, "TAP_MYSQL_TEST_TEST_TABLE_THREE": 2}},
		"pg multiple-streams": {file: pgw + "messages-with-multiple-streams.json",
			rows: map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_ONE": 1, "TAP_MYSQL_TEST_TEST_TABLE_TWO": 2,
				"TAP_MYSQL_TEST_TEST_TABLE_THREE": 3, "TAP_MYSQL_TEST_TEST_TABLE_FOUR": 3}},
		"pg non-db-friendly-columns": {file: pgw + "messages-with-non-db-friendly-columns.json",
			lastState: `{"currently_syncing":null,"bookmarks":{"tap_mysql_test-test_table_non_db_friendly_columns":{"initial_full_table_complete":true}}}`,
			rows:      map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_NON_DB_FRIENDLY_COLUMNS": 5}},
		"rs three-streams-upserts": {file: rsw + "messages-with-three-streams-upserts.json",
			lastState: `{"currently_syncing":"tap_mysql_test-test_table_three"`,
			rows:      map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_THREE": 4}},
		"sf pg-valid": {file: sfw + "messages-pg-with-valid-records.json",
			lastState: `{"bookmarks":{"pg-valid-records":{"replication_key":"id","replication_key_value":52799009`,
			rows:      map[string]int{"PG_VALID_RECORDS": 1}},
		"sf multi-schemas": {file: sfw + "messages-with-multi-schemas.json",
			rows: map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_ONE": 1, "TAP_MYSQL_TEST_TEST_TABLE_TWO": 2, "TAP_MYSQL_TEST_TEST_TABLE_THREE": 3}},
		"sf three-streams": {file: sfw + "messages-with-three-streams.json",
			rows: map[string]int{"TAP_MYSQL_TEST_TEST_TABLE_ONE": 1, "TAP_MYSQL_TEST_TEST_TABLE_TWO": 2, "TAP_MYSQL_TEST_TEST_TABLE_THREE": 3}},
		"sf same-schemas-multiple-times": {file: sfw + "same-schemas-multiple-times.json", rows: map[string]int{"PUBLIC_TABLE1": 4}},
		"sdk changed_key_properties": {file: sdk + "changed_key_properties.jsonl", lastState: `{"bookmarks":{"mystream":{}}}`,
			rows: map[string]int{"MYSTREAM": 3}},
		"sdk filter_records":     {file: sdk + "filter_records.jsonl", rows: map[string]int{"MYSTREAM": 2}},
		"sdk flatten_depth_1":    {file: sdk + "flatten_depth_1.jsonl", rows: map[string]int{"MYSTREAM": 3}},
		"sdk keep_all_fields":    {file: sdk + "keep_all_fields.jsonl", rows: map[string]int{"MYSTREAM": 3}},
		"sdk no_map":             {file: sdk + "no_map.jsonl", rows: map[string]int{"MYSTREAM": 3}},
		"sdk only_mapped_fields": {file: sdk + "only_mapped_fields.jsonl", rows: map[string]int{"MYSTREAM": 3}},
		"sdk record_to_column":   {file: sdk + "record_to_column.jsonl", rows: map[string]int{"MYSTREAM": 3}},
		"sdk sourced_stream_1":   {file: sdk + "sourced_stream_1.jsonl", rows: map[string]int{"SOURCED_STREAM_1": 3}},
		"sdk incremental_child": {file: sdk + "parent_child__test_incremental_child_stream.singer.jsonl",
			lastState: `{"bookmarks":{"child_incr":{"partitions":[{"context":{"pid":1}`,
			rows:      map[string]int{"PARENT_INCR": 2, "CHILD_INCR": 2}},
		"radbrt camelcase": {file: rad + "camelcase.singer", rows: map[string]int{"TESTCAMELCASE": 2}},
		"radbrt encoded_strings": {file: rad + "encoded_strings.singer", lastState: `{"test_strings":11,"test_strings_in_objects":11,"test_strings_in_arrays":6}`,
			rows: map[string]int{"TEST_STRINGS": 11, "TEST_STRINGS_IN_OBJECTS": 11, "TEST_STRINGS_IN_ARRAYS": 6}},
		"radbrt numerics": {file: rad + "numerics.singer", rows: map[string]int{"TESTNUMBERSTABLE": 2}},
		"radbrt stream1":  {file: rad + "stream1.jsonl", lastState: `{"test_schema_updates":6}`, rows: map[string]int{"TEST_SCHEMA_UPDATES": 6}},
		"radbrt stream2": {file: rad + "stream2.jsonl", lastState: `{"bookmarks":{"scott-badges3":`,
			rows: map[string]int{"SCOTT_BADGES3": 3}},
		"radbrt stream3": {file: rad + "stream3.jsonl", lastState: `{"currently_syncing":null,"bookmarks":{"dbo-IRB_i2b2_Direct_View":{"initial_full_table_complete":true}}}`,
			rows: map[string]int{"DBO_IRB_I2B2_DIRECT_VIEW": 2}},
		"datamill tap-github": {file: "datamill-target-postgres/tap",
			lastState: `{"bookmarks":{"datamill-co/target-postgres":{"stargazers":{"since":"2019-08-12T18:12:33.567936Z"}`,
			rows: map[string]int{"STARGAZERS": 31, "ASSIGNEES": 2, "ISSUES": 137, "COMMENTS": 227, "PULL_REQUESTS": 94,
				"REVIEWS": 160, "REVIEW_COMMENTS": 135, "COMMITS": 423}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			eng := newEngine()
			states, err := run(t, eng, loadConfig(t, ""), readFile(t, filepath.Join(dir, c.file)))
			if c.wantErr == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if c.wantErr != "" {
				var ie *inputerr.Error
				if !errors.As(err, &ie) {
					t.Fatalf("error %v, want an input error containing %q", err, c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) || ie.Line != c.wantLine {
					t.Fatalf("error %q (line %d): want %q on line %d", err, ie.Line, c.wantErr, c.wantLine)
				}
			}
			if c.lastState != "" && (len(states) == 0 || !strings.HasPrefix(states[len(states)-1], c.lastState)) {
				t.Errorf("last state of %q, want %s…", states, c.lastState)
			}
			tables := eng.Tables()
			for tbl, n := range c.rows {
				if _, ok := tables["DRY_RUN."+tbl]; !ok {
					t.Errorf("table DRY_RUN.%s missing; have %v", tbl, keys(tables))
					continue
				}
				if got := len(eng.Rows("DRY_RUN." + tbl)); got != n {
					t.Errorf("DRY_RUN.%s has %d rows, want %d", tbl, got, n)
				}
			}
		})
	}
}

// The SDK's BATCH resources (tests/core/resources), referenced by absolute
// file:// manifests as its tests write them: the two gzip JSONL files are
// one stream's four records, and the tap-countries Parquet files hold its
// 250 countries and 7 continents (SPEC §4: BATCH rows are RECORDs).
func TestConformanceMoreBatch(t *testing.T) {
	dir := filepath.Join(conformance.MoreDir(t), "meltano-sdk")
	schema := func(stream, key string, props ...string) string {
		var p []string
		for _, n := range props {
			p = append(p, `"`+n+`":{"type":["null","string"]}`)
		}
		p[0] = strings.Replace(p[0], `["null","string"]`, `"string"`, 1)
		return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["` + key + `"],"schema":{"type":"object","properties":{` +
			strings.Join(p, ",") + `}}}`
	}
	batch := func(stream, format, compression string, files ...string) string {
		var m []string
		for _, f := range files {
			m = append(m, `"file://`+filepath.Join(dir, f)+`"`)
		}
		return `{"type":"BATCH","stream":"` + stream + `","encoding":{"format":"` + format + `","compression":"` + compression +
			`"},"manifest":[` + strings.Join(m, ",") + `]}`
	}
	t.Run("jsonl gzip", func(t *testing.T) {
		eng := newEngine()
		in := input(`{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{`+
			`"id":{"type":"integer"},"name":{"type":["null","string"]}}}}`,
			batch("users", "jsonl", "gzip", "batch.1.jsonl.gz", "batch.2.jsonl.gz"),
			`{"type":"STATE","value":{"done":true}}`)
		states, err := run(t, eng, loadConfig(t, ""), in)
		if err != nil {
			t.Fatal(err)
		}
		if len(states) != 1 || states[0] != `{"done":true}` {
			t.Errorf("states %q", states)
		}
		wantValues(t, eng, "USERS", "NAME", "Chris", "Mike", "Bob", "Arnold")
	})
	t.Run("parquet", func(t *testing.T) {
		eng := newEngine()
		in := input(schema("countries", "code", "code", "name"), batch("countries", "parquet", "gzip", "countries.parquet.gz"),
			schema("continents", "code", "code", "name"), batch("continents", "parquet", "gzip", "continents.parquet.gz"))
		if _, err := run(t, eng, loadConfig(t, ""), in); err != nil {
			t.Fatal(err)
		}
		for tbl, n := range map[string]int{"COUNTRIES": 250, "CONTINENTS": 7} {
			if got := len(eng.Rows("DRY_RUN." + tbl)); got != n {
				t.Errorf("%s has %d rows, want %d", tbl, got, n)
			}
		}
	})
	// testfile.parquet is the SDK's sample Parquet tap's file: columns f0
	// (int64), f1 (string) and f2 (boolean), all optional, 24 rows written
	// as batches of the sample's four (f1 foo, bar, baz, null; f2 true,
	// null, false, true) with f0 49…72. Read as that tap declares it
	// (keyless: every row appended, SPEC §6.2), uncompressed Parquet
	// (SPEC §4), the types of SPEC §5.2 and nulls as NULL.
	t.Run("sdk testfile parquet", func(t *testing.T) {
		eng := newEngine()
		in := input(`{"type":"SCHEMA","stream":"testfile","key_properties":[],"schema":{"type":"object","properties":{`+
			`"f0":{"type":["null","integer"]},"f1":{"type":["null","string"]},"f2":{"type":["null","boolean"]}}}}`,
			batch("testfile", "parquet", "none", "testfile.parquet"),
			`{"type":"STATE","value":{"testfile":"done"}}`)
		states, err := run(t, eng, loadConfig(t, `{"add_record_metadata": false}`), in)
		if err != nil {
			t.Fatal(err)
		}
		if len(states) != 1 || states[0] != `{"testfile":"done"}` {
			t.Errorf("states %q", states)
		}
		var types []string
		for _, c := range eng.Tables()["DRY_RUN.TESTFILE"].Columns {
			types = append(types, c.Name+" "+c.Type.String())
		}
		if got, want := strings.Join(types, ", "), "F0 NUMBER(38,0), F1 VARCHAR2(4000 BYTE), F2 NUMBER(1)"; got != want {
			t.Errorf("columns %s, want %s", got, want)
		}
		rows := eng.Rows("DRY_RUN.TESTFILE")
		if len(rows) != 24 {
			t.Fatalf("%d rows, want 24", len(rows))
		}
		f1, f2 := []string{"foo", "bar", "baz", ""}, []string{"1", "", "0", "1"}
		for i, r := range rows {
			want := map[string]string{"F0": fmt.Sprint(49 + i), "F1": f1[i%4], "F2": f2[i%4]}
			for c, v := range want {
				if r[c] != v {
					t.Errorf("row %d: %s = %q, want %q (row %v)", i, c, r[c], v, r)
				}
			}
		}
	})
}

// Values of the conformance-more files that SPEC §5.1, §5.2 and §5.4 fix.
func TestConformanceMoreValues(t *testing.T) {
	dir := conformance.MoreDir(t)
	t.Run("radbrt numerics exact", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), readFile(t, filepath.Join(dir, "radbrt-target-oracle/numerics.singer"))); err != nil {
			t.Fatal(err)
		}
		wantValues(t, eng, "TESTNUMBERSTABLE", "VALUE", "1001.94593928398394944838238393", "99493837283283.39483783838383394")
	})
	t.Run("pg non-db-friendly column names", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), readFile(t, filepath.Join(dir, "pipelinewise-target-postgres/messages-with-non-db-friendly-columns.json"))); err != nil {
			t.Fatal(err)
		}
		for _, col := range []string{"C_PK", "CAMELCASECOLUMN", "MINUS_COLUMN"} {
			if eng.Tables()["DRY_RUN.TAP_MYSQL_TEST_TEST_TABLE_NON_DB_FRIENDLY_COLUMNS"].Column(col) == nil {
				t.Errorf("no column %s", col)
			}
		}
	})
	t.Run("pg long texts byte-exact", func(t *testing.T) {
		path := filepath.Join(dir, "pipelinewise-target-postgres/messages-with-long-texts.json")
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), readFile(t, path)); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, l := range lines(readFile(t, path)) {
			var m struct {
				Type   string
				Record struct {
					CPK      json.Number `json:"c_pk"`
					CVarchar string      `json:"c_varchar"`
				}
			}
			if json.Unmarshal([]byte(l), &m) == nil && m.Type == "RECORD" {
				want[m.Record.CPK.String()] = m.Record.CVarchar
			}
		}
		rows := eng.Rows("DRY_RUN.TAP_MYSQL_TEST_TEST_TABLE_LONG_TEXTS")
		for _, r := range rows {
			if r["C_VARCHAR"] != want[r["C_PK"]] {
				t.Errorf("c_pk %s: %d bytes, want %d exact", r["C_PK"], len(r["C_VARCHAR"]), len(want[r["C_PK"]]))
			}
		}
		if len(rows) != len(want) {
			t.Errorf("%d rows, want %d", len(rows), len(want))
		}
	})
}

// PipelineWise sends _sdc_deleted_at undeclared: SPEC §5.4 and §6.4 honour
// it, a soft delete by default (rows 4 and 5 of the long-texts file).
func TestConformanceMoreUndeclaredDeletedAt(t *testing.T) {
	path := filepath.Join(conformance.MoreDir(t), "pipelinewise-target-postgres/messages-with-long-texts.json")
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), readFile(t, path)); err != nil {
		t.Fatal(err)
	}
	wantValues(t, eng, "TAP_MYSQL_TEST_TEST_TABLE_LONG_TEXTS", "_SDC_DELETED_AT", "", "", "", "2019-02-10T15:51:50.215998Z", "2019-02-10T15:51:50.215998Z")
}

// With hard_delete the same records delete their rows (SPEC §6.4).
func TestConformanceMoreUndeclaredDeletedAtHard(t *testing.T) {
	path := filepath.Join(conformance.MoreDir(t), "pipelinewise-target-postgres/messages-with-long-texts.json")
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, `{"hard_delete": true}`), readFile(t, path)); err != nil {
		t.Fatal(err)
	}
	wantValues(t, eng, "TAP_MYSQL_TEST_TEST_TABLE_LONG_TEXTS", "C_PK", "1", "2", "3")
}
