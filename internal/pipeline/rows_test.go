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

// A record's _sdc_deleted_at is honoured whether or not the SCHEMA
// declares it (issue 13 item 7, SPEC §5.4, §6.4): PipelineWise-style taps
// send it undeclared. A soft delete changes only _SDC_DELETED_AT (and
// metadata) of an existing row, a hard delete removes the row, and with
// add_record_metadata false the column is added before the record's
// batch is written.
func TestUndeclaredDeletedAt(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"p","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`
	recP := func(body string) string { return `{"type":"RECORD","stream":"p","record":{` + body + `}}` }
	in := input(schema, recP(`"id":1,"v":"a"`), recP(`"id":2,"v":"b"`), state(1),
		recP(`"id":1,"_sdc_deleted_at":"2025-01-01T00:00:00Z"`), recP(`"id":3,"v":"c","_sdc_deleted_at":null`), state(2))
	for _, c := range []struct {
		name, settings string
		want           string // ID:V:_SDC_DELETED_AT per row
	}{
		{"soft", ``, "1:a:2025-01-01T00:00:00Z 2:b: 3:c:"},
		{"hard", `{"hard_delete": true}`, "2:b: 3:c:"},
		{"soft, no metadata", `{"add_record_metadata": false}`, "1:a:2025-01-01T00:00:00Z 2:b: 3:c:"},
		{"hard, no metadata", `{"add_record_metadata": false, "hard_delete": true}`, "2:b: 3:c:"},
		{"soft, one row a batch", `{"batch_size_rows": 1, "add_record_metadata": false}`, "1:a:2025-01-01T00:00:00Z 2:b: 3:c:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng := newEngine()
			states, err := run(t, eng, loadConfig(t, c.settings), in)
			if err != nil {
				t.Fatal(err)
			}
			if len(states) == 0 || states[len(states)-1] != `{"n":2}` {
				t.Errorf("states %q", states)
			}
			var got []string
			for _, r := range eng.Rows("DRY_RUN.P") {
				got = append(got, r["ID"]+":"+r["V"]+":"+r["_SDC_DELETED_AT"])
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("rows %q, want %q", strings.Join(got, " "), c.want)
			}
		})
	}
	t.Run("null only: no column", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, `{"add_record_metadata": false}`), input(schema, recP(`"id":3,"v":"c","_sdc_deleted_at":null`))); err != nil {
			t.Fatal(err)
		}
		if c := eng.Tables()["DRY_RUN.P"].Column("_SDC_DELETED_AT"); c != nil {
			t.Errorf("a null _sdc_deleted_at added %+v", c)
		}
	})
	for _, settings := range []string{``, `{"add_record_metadata": false}`} {
		t.Run("not a date-time "+settings, func(t *testing.T) {
			bad := input(schema, recP(`"id":1,"v":"a"`), state(1), recP(`"id":2,"v":"b","_sdc_deleted_at":"yesterday"`), recP(`"id":3,"v":"c"`), state(2))
			eng := newEngine()
			states, err := run(t, eng, loadConfig(t, settings), bad)
			wantInputError(t, err, `line 4: stream "p": property "_sdc_deleted_at"`)
			if strings.Join(states, "|") != `{"n":1}` || ids(eng, "P") != "1" {
				t.Errorf("states %q, rows %s", states, ids(eng, "P"))
			}
			cfg := `{"on_invalid_record": "skip"}`
			if settings != "" {
				cfg = `{"on_invalid_record": "skip", "add_record_metadata": false}`
			}
			eng = newEngine()
			if _, err := run(t, eng, loadConfig(t, cfg), bad); err != nil {
				t.Fatal(err)
			}
			if ids(eng, "P") != "1,3" {
				t.Errorf("rows %s, want 1,3", ids(eng, "P"))
			}
		})
	}
}

// A key value its column cannot hold is invalid input naming the line,
// the stream and the key, found when the row is built: on_invalid_record
// applies and the batch's other records commit; keys never widen (issue
// 13 item 9, SPEC §5.2). New tables give date-time keys TIMESTAMP(9).
func TestKeyValueThatDoesNotFit(t *testing.T) {
	decimal := `{"type":"SCHEMA","stream":"d","key_properties":["k"],"schema":{"type":"object","properties":{"k":{"type":"string","format":"x-singer.decimal","precision":5,"scale":2},"v":{"type":"integer"}}}}`
	recD := func(k string, v int) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":"d","record":{"k":%q,"v":%d}}`, k, v)
	}
	// An existing TIMESTAMP(6) key: the column was made as a property,
	// then became the key of the empty table.
	tsSchema := func(key string) string {
		return `{"type":"SCHEMA","stream":"t","key_properties":["` + key + `"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"ts":{"type":"string","format":"date-time"}}}}`
	}
	recT := func(id int, ts string) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":"t","record":{"id":%d,"ts":%q}}`, id, ts)
	}
	cases := []struct {
		name, table, col string
		prepare, in      string
		err              string
		want             string // the key column's values after on_invalid_record skip
	}{
		{"decimal digits before the point", "D", "K", "", input(decimal, recD("1.25", 1), recD("1234.5", 2), state(1), recD("2", 3), state(2)),
			`line 3: stream "d": property "k": key value 1234.5 does not fit its column NUMBER(5,2); keys never widen`, "1.25,2"},
		{"decimal scale", "D", "K", "", input(decimal, recD("1.25", 1), recD("2.125", 2), state(1), recD("2", 3), state(2)),
			`line 3: stream "d": property "k": key value 2.125 does not fit its column NUMBER(5,2); keys never widen`, "1.25,2"},
		{"seventh fraction digit in TIMESTAMP(6)", "T", "TS", input(tsSchema("id")),
			input(tsSchema("ts"), recT(1, "2025-01-01T00:00:00.123456Z"), recT(2, "2025-01-01T00:00:00.1234567Z"), state(1), recT(3, "2025-01-02T00:00:00Z"), state(2)),
			`line 3: stream "t": property "ts": key value 2025-01-01T00:00:00.1234567Z does not fit its column TIMESTAMP(6); keys never widen`,
			"2025-01-01T00:00:00.123456Z,2025-01-02T00:00:00Z"},
	}
	for _, c := range cases {
		for _, policy := range []string{"fail", "skip"} {
			t.Run(c.name+" "+policy, func(t *testing.T) {
				eng := newEngine()
				if c.prepare != "" {
					// timestamp_type timestamp: a key may not be WITH TIME ZONE (ORA-02329).
					if _, err := run(t, eng, loadConfig(t, `{"timestamp_type": "timestamp"}`), c.prepare); err != nil {
						t.Fatal(err)
					}
				}
				states, err := run(t, eng, loadConfig(t, `{"timestamp_type": "timestamp", "on_invalid_record": "`+policy+`"}`), c.in)
				if policy == "fail" {
					wantInputError(t, err, c.err)
					if !strings.HasPrefix(err.Error(), c.err) {
						t.Errorf("error %q, want it to start with %q", err, c.err)
					}
					if len(states) != 0 {
						t.Errorf("states %q, want none", states)
					}
					wantValues(t, eng, c.table, c.col, strings.Split(c.want, ",")[0])
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(states) == 0 || states[len(states)-1] != `{"n":2}` {
					t.Errorf("states %q", states)
				}
				wantValues(t, eng, c.table, c.col, strings.Split(c.want, ",")...)
				if typ := eng.Tables()["DRY_RUN."+c.table].Column(c.col).Type.String(); typ != map[string]string{"D": "NUMBER(5,2)", "T": "TIMESTAMP(6)"}[c.table] {
					t.Errorf("key column widened to %s", typ)
				}
			})
		}
	}
	t.Run("new date-time key is TIMESTAMP(9)", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(tsSchema("ts"), recT(1, "2025-01-01T00:00:00.123456789Z"))); err != nil {
			t.Fatal(err)
		}
		// Never WITH TIME ZONE in a key: Oracle refuses it there (ORA-02329).
		wantColumnType(t, eng, "T", "TS", "TIMESTAMP(9)")
		wantColumnType(t, eng, "T", "_SDC_RECEIVED_AT", "TIMESTAMP(6) WITH TIME ZONE")
		wantValues(t, eng, "T", "TS", "2025-01-01T00:00:00.123456789Z")
	})
	t.Run("a key on an existing WITH TIME ZONE column is refused", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(tsSchema("id"), recT(1, "2025-01-01T00:00:00Z"))); err != nil {
			t.Fatal(err)
		}
		_, err := run(t, eng, loadConfig(t, ""), input(tsSchema("ts"), recT(2, "2025-01-02T00:00:00Z")))
		wantInputError(t, err, `stream "t": property "ts": key property's existing column "TS" is TIMESTAMP(6) WITH TIME ZONE, which Oracle cannot put in a primary key (ORA-02329)`)
		wantColumnType(t, eng, "T", "TS", "TIMESTAMP(6) WITH TIME ZONE")
		// append-only makes no PRIMARY KEY constraint: the column serves.
		if _, err := run(t, eng, loadConfig(t, `{"load_method": "append-only"}`), input(tsSchema("ts"), recT(3, "2025-01-03T00:00:00Z"))); err != nil {
			t.Fatalf("append-only keyed on the WITH TIME ZONE column: %v", err)
		}
	})
}

// CLOB JSON columns and documents keep number text as received, however
// many digits (issue 13 item 12, SPEC §5.3): only NUMBER columns and
// native JSON columns are bounded by Oracle NUMBER.
func TestNumberTextInClobJSON(t *testing.T) {
	const big = "123456789012345678901234567890123456789012345"
	schema := `{"type":"SCHEMA","stream":"j","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"o":{"type":["null","object"],"properties":{"n":{"type":"number"}}},"a":{"type":["null","array"],"items":{"type":"number"}},"any":{},"n":{"type":["null","number"]}}}}`
	recJ := func(body string) string { return `{"type":"RECORD","stream":"j","record":{"id":1,` + body + `}}` }
	for _, c := range []struct {
		name, settings, body string
		col, want, err       string
	}{
		{"object in a CLOB JSON column", `{"json_type": "clob"}`, `"o":{"n":` + big + `}`, "O", `{"n":` + big + `}`, ""},
		{"array in a CLOB JSON column", `{"json_type": "clob"}`, `"a":[1e400,-` + big + `.5]`, "A", `[1e400,-` + big + `.5]`, ""},
		{"bare number in a CLOB JSON column", `{"json_type": "clob"}`, `"any":` + big, "ANY", big, ""},
		{"the dry run's default", ``, `"o":{"n":` + big + `}`, "O", `{"n":` + big + `}`, ""},
		{"document of storage_mode json", `{"json_type": "clob", "storage_mode": "json"}`, `"n":` + big + `,"o":{"n":1e400}`, "DATA", `{"id":1,"n":` + big + `,"o":{"n":1e400}}`, ""},
		{"NUMBER column", `{"json_type": "clob"}`, `"n":` + big, "", "", `property "n": ` + big + ` is not a valid number`},
		{"native JSON column", `{"json_type": "json"}`, `"o":{"n":` + big + `}`, "", "", `property "o.n": ` + big + ` is not a valid number`},
		{"native JSON document", `{"json_type": "json", "storage_mode": "json"}`, `"n":` + big, "", "", `property "n": ` + big + ` is not a valid number`},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng := newEngine()
			// twice: the first record of a stream and the one pass after it
			in := input(schema, recJ(c.body), strings.Replace(recJ(c.body), `"id":1`, `"id":2`, 1))
			_, err := run(t, eng, loadConfig(t, c.settings), in)
			if c.err != "" {
				wantInputError(t, err, c.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rows := eng.Rows("DRY_RUN.J")
			if len(rows) != 2 {
				t.Fatalf("%d rows, want 2", len(rows))
			}
			for i, r := range rows {
				want := strings.Replace(c.want, `"id":1`, fmt.Sprintf(`"id":%d`, i+1), 1)
				if r[c.col] != want {
					t.Errorf("row %d: %s = %s, want %s", i+1, c.col, r[c.col], want)
				}
			}
		})
	}
}

// A number no column or JSON value holds — an undeclared property outside
// storage_mode json, an ignored one, an ignored path inside a JSON column
// or document — is never loaded, so Oracle NUMBER's bounds do not apply to
// it (SPEC §5.2), with and without validate_records (hostile review
// finding 05). TestLoadedNumbersStayBounded has the other side.
func TestUnloadedNumbersAreNotBounded(t *testing.T) {
	bodies := []string{
		`,"extra":1e250`, // undeclared
		`,"skip":` + unloadedBig,
		`,"o":{"k":1,"skip":1e200}`,
		`,"a":[{"skip":1e-200},{"skip":-` + unloadedBig + `}]`,
	}
	for _, mode := range []string{"hybrid", "flattened", "json"} {
		for _, jsonType := range []string{"clob", "json"} {
			for _, validate := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/validate=%v", mode, jsonType, validate), func(t *testing.T) {
					settings := fmt.Sprintf(`{"storage_mode":%q,"json_type":%q,"validate_records":%v,%s}`, mode, jsonType, validate, unloadedIgnored)
					cases := bodies
					if mode == "json" && jsonType == "json" {
						cases = cases[1:] // an undeclared member is part of the native JSON document
					}
					lines := []string{unloadedSchema}
					for i, b := range cases {
						// twice each: the first record of a stream and the one pass after it
						lines = append(lines, unloadedRecord(2*i+1, b), unloadedRecord(2*i+2, b))
					}
					lines = append(lines, `{"type":"STATE","value":{"done":true}}`)
					eng := newEngine()
					states, err := run(t, eng, loadConfig(t, settings), input(lines...))
					if err != nil {
						t.Fatal(err)
					}
					if len(states) != 1 || states[0] != `{"done":true}` {
						t.Errorf("states = %q, want the final one", states)
					}
					rows := eng.Rows("DRY_RUN.U")
					if len(rows) != 2*len(cases) {
						t.Fatalf("%d rows, want %d", len(rows), 2*len(cases))
					}
					for _, r := range rows {
						if r["N"] != "1" && !strings.Contains(r["DATA"], `"n":1`) {
							t.Errorf("row %s: N = %q, DATA = %q: the loaded property is lost", r["ID"], r["N"], r["DATA"])
						}
						for col, v := range r {
							if strings.Contains(v, "e200") || strings.Contains(v, "e-200") || strings.Contains(v, unloadedBig) || strings.Contains(col, "SKIP") {
								t.Errorf("row %s: %s = %s: an ignored value was loaded", r["ID"], col, v)
							}
						}
					}
				})
			}
		}
	}
}

// Where a number is loaded — a NUMBER column, a native JSON column or
// document — Oracle NUMBER's bounds hold; and a property that is not
// loaded still obeys its schema's own rules (SPEC §5.2, §5.3).
func TestLoadedNumbersStayBounded(t *testing.T) {
	for _, c := range []struct {
		name, settings, body, err string
		unvalidated               bool // refused with validate_records false too
	}{
		{"NUMBER column", `"json_type":"clob"`, `,"n2":1e200`, `property "n2": `, true},
		{"flattened NUMBER column", `"storage_mode":"flattened","json_type":"clob"`, `,"o":{"k":` + unloadedBig + `}`, `property "o.k": `, true},
		{"undeclared member of a native JSON column", `"json_type":"json"`, `,"o":{"x":1e200}`, `property "o.x": 1e200 is not a valid number`, true},
		{"undeclared member of a native JSON document", `"storage_mode":"json","json_type":"json"`, `,"extra":1e200`, `property "extra": 1e200 is not a valid number`, true},
		{"ignored property's maximum", `"json_type":"clob"`, `,"capped":1e300`, `property "capped": 1e300 is greater than the maximum 5`, false},
	} {
		for _, validate := range []bool{true, false} {
			if !validate && !c.unvalidated {
				continue
			}
			t.Run(fmt.Sprintf("%s/validate=%v", c.name, validate), func(t *testing.T) {
				settings := fmt.Sprintf(`{%s,"validate_records":%v,%s}`, c.settings, validate, unloadedIgnored)
				in := input(unloadedSchema, unloadedRecord(1, ""), `{"type":"STATE","value":{"one":1}}`, unloadedRecord(2, c.body), unloadedRecord(3, c.body))
				eng := newEngine()
				states, err := run(t, eng, loadConfig(t, settings), in)
				wantInputError(t, err, c.err)
				if got := ids(eng, "U"); got != "1" {
					t.Errorf("rows %q, want only 1", got)
				}
				if len(states) != 1 || states[0] != `{"one":1}` {
					t.Errorf("states = %q, want only the one before the refused record", states)
				}
			})
		}
	}
}

// The stream of TestUnloadedNumbersAreNotBounded and
// TestLoadedNumbersStayBounded.
const (
	unloadedBig    = "123456789012345678901234567890123456789012" // 42 significant digits
	unloadedSchema = `{"type":"SCHEMA","stream":"u","key_properties":["id"],"schema":{"type":"object","properties":{` +
		`"id":{"type":"integer"},"n":{"type":["null","number"]},"n2":{"type":["null","number"]},"skip":{"type":["null","number"]},` +
		`"capped":{"type":["null","number"],"maximum":5},` +
		`"o":{"type":["null","object"],"properties":{"k":{"type":["null","integer"]},"skip":{"type":["null","number"]}}},` +
		`"a":{"type":["null","array"],"items":{"type":"object","properties":{"skip":{"type":"number"}}}}}}}`
	unloadedIgnored = `"ignored_columns":["skip","capped","o.skip","a.skip"]`
)

func unloadedRecord(id int, body string) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"u","record":{"id":%d,"n":1%s}}`, id, body)
}

// A number a native JSON column or document cannot hold (Oracle NUMBER's
// bounds, SPEC §5.3) is an invalid record with validate_records false as
// with it on, with the same message naming the line, the stream, the
// number's path and the bound, and on_invalid_record applies: before, the
// unvalidated path loaded 1e200 into native JSON. The check runs where the
// value is compacted anyway.
func TestNativeJSONNumbersBoundedWithoutValidation(t *testing.T) {
	for _, c := range []struct {
		name, settings, body, err string
	}{
		{"native JSON column", `"json_type":"json"`, `,"o":{"x":1e200}`,
			`property "o.x": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
		{"inside an array of a native JSON column", `"json_type":"json"`, `,"o":{"x":[1,{"y":` + unloadedBig + `}]}`,
			`property "o.x.1.y": ` + unloadedBig + ` is not a valid number: 42 significant digits, at most 38 expected`},
		{"declared member too small", `"json_type":"json"`, `,"o":{"k":-1e-200}`,
			`property "o.k": -1e-200 is not a valid number: non-zero magnitude below 1e-130, at least 1e-130 expected`},
		{"native JSON column with ignored paths", `"json_type":"json",` + unloadedIgnored, `,"o":{"skip":1,"x":1e200}`,
			`property "o.x": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
		{"native JSON document", `"storage_mode":"json","json_type":"json"`, `,"extra":{"a":[1e200]}`,
			`property "extra.a.0": 1e200 is not a valid number: magnitude 1e126 or more, less expected`},
	} {
		for _, validate := range []bool{true, false} {
			for _, policy := range []string{"fail", "skip", "reject"} {
				t.Run(fmt.Sprintf("%s/validate=%v/%s", c.name, validate, policy), func(t *testing.T) {
					rejects := filepath.Join(t.TempDir(), "rejects.jsonl")
					settings := fmt.Sprintf(`{%s,"validate_records":%v,"on_invalid_record":%q,"reject_path":%q}`, c.settings, validate, policy, rejects)
					good := `,"o":{"x":-0.50,"k":1E5}`
					in := input(unloadedSchema, unloadedRecord(1, good), `{"type":"STATE","value":{"one":1}}`,
						unloadedRecord(2, c.body), unloadedRecord(3, good), `{"type":"STATE","value":{"two":2}}`)
					eng := newEngine()
					states, err := run(t, eng, loadConfig(t, settings), in)
					want := `line 4: stream "u": ` + c.err
					wantIDs, wantStates := "1,3", `{"two":2}` // the last state: the one before it may be passed over
					if policy == "fail" {
						wantInputError(t, err, want)
						if !strings.HasPrefix(err.Error(), want) {
							t.Errorf("err = %v, want %s", err, want)
						}
						wantIDs, wantStates = "1", `{"one":1}`
						if len(states) != 1 {
							t.Errorf("states %q, want only the one before the refused record", states)
						}
					} else if err != nil {
						t.Fatal(err)
					}
					if got := ids(eng, "U"); got != wantIDs {
						t.Errorf("rows %q, want %s", got, wantIDs)
					}
					if len(states) == 0 || states[len(states)-1] != wantStates {
						t.Errorf("states %q, want the last %s", states, wantStates)
					}
					for _, r := range eng.Rows("DRY_RUN.U") {
						if v := r["O"] + r["DATA"]; !strings.Contains(v, `"x":-0.50`) && !strings.Contains(v, `"x":-0.5`) {
							t.Errorf("row %s: %q, want the good record's JSON", r["ID"], v)
						}
					}
					if policy == "reject" {
						rs := readRejects(t, rejects)
						if len(rs) != 1 || rs[0].Line != 4 || rs[0].Stream != "u" || rs[0].Error != want {
							t.Errorf("rejected %+v, want one: line 4, stream u, error %q", rs, want)
						}
					}
				})
			}
		}
	}
}
