package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// atk8Run runs input in --dry-run with settings and returns the exit
// code, stderr, the rows of DRY_RUN.S and the reject file's lines (with
// settings naming reject_path REJECTS, replaced by a file of the test's).
func atk8Run(t *testing.T, settings, input string) (code int, errs, rows, rejects string) {
	t.Helper()
	dir := t.TempDir()
	rej := filepath.Join(dir, "rejects.jsonl")
	settings = strings.ReplaceAll(settings, "REJECTS", rej)
	in := writeFile(t, "in.singer", input)
	cfg := writeFile(t, "c.json", settings)
	dump := filepath.Join(dir, "dump")
	_, errs, code = runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in, "--dry-run-dump", dump)
	b, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	r, _ := os.ReadFile(rej)
	return code, errs, string(b), string(r)
}

// TestAttackMultipleOfBelowNumberRangeRefusesStream (finding): a numeric
// property whose multipleOf is outside Oracle NUMBER (1e-200 below
// 1e-130, 39 significant digits, 1e200) made the whole stream invalid
// input at its SCHEMA ("multipleOf 1e-200: outside what the target checks
// exactly"), exit 3 before any record. The schema is valid JSON Schema;
// the column is NUMBER either way (multipleOf never picks a scale). Now
// the schema is accepted and each record is checked exactly against the
// divisor: a non-multiple, or a number NUMBER cannot hold, is a
// record-level error naming line, stream and property (rejected with
// on_invalid_record: reject). A divisor whose exponent the validator
// cannot compute with (1e-99999) is not checked, with one warning.
func TestAttackMultipleOfBelowNumberRangeRefusesStream(t *testing.T) {
	// was: t.Skip("finding: multipleOf 1e-200 (below Oracle NUMBER's range) refuses the whole stream at its SCHEMA")
	schema := func(m string) string {
		return `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"n":{"type":["null","number"],"multipleOf":` + m + `}}}}` + "\n"
	}
	rec := func(id, n string) string {
		return `{"type":"RECORD","stream":"s","record":{"id":` + id + `,"n":` + n + `}}` + "\n"
	}
	const state = `{"type":"STATE","value":1}` + "\n"

	// Every value NUMBER holds is a multiple of 1e-200: all load exactly.
	code, errs, rows, _ := atk8Run(t, `{"add_record_metadata":false}`, schema("1e-200")+rec("1", "1.5")+rec("2", "3e-50")+rec("3", "1e-130")+state)
	want := `{"ID":1,"N":1.5}
{"ID":2,"N":0.00000000000000000000000000000000000000000000000003}
{"ID":3,"N":0.` + strings.Repeat("0", 129) + `1}
`
	if code != ExitOK || rows != want {
		t.Fatalf("multipleOf 1e-200: exit %d, rows\n%s\nwant exit 0, rows\n%s\n%s", code, rows, want, lastLines(errs, 3))
	}

	// 3e-200: 3e-130 is a multiple, 1e-130 is not, 1e-140 is no NUMBER.
	code, errs, rows, rejects := atk8Run(t, `{"add_record_metadata":false,"on_invalid_record":"reject","reject_path":"REJECTS"}`,
		schema("3e-200")+rec("1", "3e-130")+rec("2", "1e-130")+rec("3", "3e-140")+rec("4", "0.3")+state)
	if code != ExitOK || rows != `{"ID":1,"N":0.`+strings.Repeat("0", 129)+`3}`+"\n"+`{"ID":4,"N":0.3}`+"\n" {
		t.Fatalf("multipleOf 3e-200: exit %d, rows\n%s\n%s", code, rows, lastLines(errs, 3))
	}
	for _, w := range []string{
		`"line":3,"stream":"s","error":"line 3: stream \"s\": property \"n\": 1e-130 is not a multiple of 0.`,
		`"line":4,"stream":"s","error":"line 4: stream \"s\": property \"n\": 3e-140 is not a valid number: non-zero magnitude below 1e-130`,
	} {
		if !strings.Contains(rejects, w) {
			t.Errorf("rejects lack %q:\n%s", w, rejects)
		}
	}

	// 39 significant digits and 1e200 are valid divisors too.
	for _, m := range []string{"0.123456789012345678901234567890123456789", "1e200"} {
		code, errs, rows, _ = atk8Run(t, `{"add_record_metadata":false}`, schema(m)+rec("1", "0")+rec("2", "1")+state)
		if code != ExitInput || rows != `{"ID":1,"N":0}`+"\n" || !strings.Contains(errs, `line 3: stream "s": property "n": 1 is not a multiple of`) {
			t.Errorf("multipleOf %s: exit %d, rows %q; want exit 3 at line 3 (1 is no multiple) after row 1\n%s", m, code, rows, lastLines(errs, 3))
		}
	}

	// Beyond the validator's means: loaded unchecked, with a warning.
	code, errs, rows, _ = atk8Run(t, `{"add_record_metadata":false}`, schema("1e-99999")+rec("1", "1.5")+state)
	if code != ExitOK || rows != `{"ID":1,"N":1.5}`+"\n" || !strings.Contains(errs, "multipleOf 1e-99999 is not checked") {
		t.Errorf("multipleOf 1e-99999: exit %d, rows %q; want exit 0 with a warning\n%s", code, rows, lastLines(errs, 4))
	}
}

// TestAttackTimeFormatRefusesValidRFC3339Times (finding): date-times RFC
// 3339 allows were refused as "not a valid date-time": a leap second
// (2016-12-31T23:59:60Z) and more than 9 fraction digits
// (2024-01-02T03:04:05.1234567890Z). Decision (docs/types.md, Types):
// SPEC §4's grammar accepts 1 to 9 fraction digits and Oracle's
// TIMESTAMP holds seconds 00-59 and 9 digits, so both stay refused, but
// as what they are: a record-level error saying the date-time is one
// Oracle cannot store exactly, naming line, stream and property,
// rejected under on_invalid_record: reject, with validate_records on or
// off; never a silent change.
func TestAttackTimeFormatRefusesValidRFC3339Times(t *testing.T) {
	// was: t.Skip("finding: valid RFC 3339 date-times (a leap second, 10 fraction digits) are refused as not valid date-times")
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"t":{"type":["null","string"],"format":"date-time"}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"t":"2016-12-31T23:59:60Z"}}
{"type":"RECORD","stream":"s","record":{"id":2,"t":"2024-01-02T03:04:05.1234567890Z"}}
{"type":"RECORD","stream":"s","record":{"id":3,"t":"2024-01-02T03:04:05.1234567891Z"}}
{"type":"RECORD","stream":"s","record":{"id":4,"t":"2024-01-02T03:04:05.123456789Z"}}
{"type":"STATE","value":1}
`
	for _, validate := range []string{"true", "false"} {
		code, errs, rows, rejects := atk8Run(t, `{"add_record_metadata":false,"validate_records":`+validate+`,"on_invalid_record":"reject","reject_path":"REJECTS"}`, input)
		want := `{"ID":4,"T":"2024-01-02T03:04:05.123456789Z"}
`
		if code != ExitOK || rows != want {
			t.Fatalf("validate_records %s: exit %d, rows\n%s\nwant\n%s\n%s", validate, code, rows, want, lastLines(errs, 3))
		}
		var wants []string
		for _, c := range []struct {
			line       int
			value, why string
		}{
			{2, "2016-12-31T23:59:60Z", "second 60 (a leap second): Oracle's TIMESTAMP and DATE hold seconds 00-59"},
			{3, "2024-01-02T03:04:05.1234567890Z", "more than 9 fractional second digits: Oracle's TIMESTAMP keeps 9"},
			{4, "2024-01-02T03:04:05.1234567891Z", "more than 9 fractional second digits: Oracle's TIMESTAMP keeps 9"},
		} {
			w := fmt.Sprintf(`{"line":%d,"stream":"s","error":"line %d: stream \"s\": property \"t\": `, c.line, c.line)
			if validate == "true" {
				w += `\"` + c.value + `\" is a valid date-time that Oracle cannot store exactly: ` + c.why
			} else {
				w += `date-time \"` + c.value + `\" cannot be stored exactly: ` + c.why
			}
			wants = append(wants, w)
		}
		for _, w := range wants {
			if !strings.Contains(rejects, w) {
				t.Errorf("validate_records %s: rejects lack %q:\n%s", validate, w, rejects)
			}
		}
	}
	// Under on_invalid_record: fail the run stops at the leap second
	// (exit 3) with that message, not with an unclear load failure.
	code, errs, _, _ := atk8Run(t, `{"add_record_metadata":false}`, input)
	if code != ExitInput || !strings.Contains(errs, `line 2: stream "s": property "t": "2016-12-31T23:59:60Z" is a valid date-time that Oracle cannot store exactly`) {
		t.Errorf("on_invalid_record fail: exit %d; want 3 naming the leap second\n%s", code, lastLines(errs, 2))
	}
}

// atk8Stored runs input in --dry-run against the persistent test store
// (TARGET_ORACLE_TEST_STORE) and returns the exit code, stderr, the
// dump's statements.sql and the rows of table.
func atk8Stored(t *testing.T, store, settings, input, table string) (code int, errs, sql, rows string) {
	t.Helper()
	dir := t.TempDir()
	in := writeFile(t, "in.singer", input)
	cfg := writeFile(t, "c.json", settings)
	dump := filepath.Join(dir, "dump")
	_, errs, code = runMain(t, "", []string{"TARGET_ORACLE_TEST_STORE=" + store}, "--dry-run", "--config", cfg, "--input", in, "--dry-run-dump", dump)
	s, _ := os.ReadFile(filepath.Join(dump, "statements.sql"))
	r, _ := os.ReadFile(filepath.Join(dump, "tables", table+".jsonl"))
	return code, errs, string(s), string(r)
}

// TestAttackObjectWidenedToScalarKeepsISJSONCheck (finding): a property
// first an object (a CLOB with an IS JSON check constraint on 19c and in
// the dry run) whose later SCHEMA makes it a string widens the column to
// a plain CLOB: the widening drops the check, and the embedded engine then
// loads any string. It dropped the check by the name the current
// identifier limit gives it only (ORA-02443 ignored): a table made while
// the limit was 30 bytes (identifier_max_bytes: 30, or COMPATIBLE below
// 12.2 before an upgrade) has its long check name cut and hashed at 30
// bytes, so on Oracle the check stayed, every string failed with
// ORA-02290 (exit 1, after the DDL), and the dry run and --plan showed the
// load done: a silent divergence. Now the widening drops the check by
// every name the target gives or gave it (oraclesql.checkNames), under
// either limit; and a check the target did not make (a DBA's IS JSON under
// a system name, which would stay) refuses the widening before any DDL
// (oracle.TestWideningRefusedPastTheDBAsJSONCheck: the dry run has no
// DBA). The other case of the finding, anyOf object|string on the
// checked column, is modelled: the embedded engine refuses a string
// there with ORA-02290 as Oracle does (docs/types.md, "JSON scalars
// before 21c"; pipeline.TestScalarsInUntypedPropertiesOn19c), naming the
// column and the fix, and objects keep loading.
func TestAttackObjectWidenedToScalarKeepsISJSONCheck(t *testing.T) {
	// was: t.Skip("finding: object (CLOB IS JSON) widened to string: the IS JSON check stays on Oracle while the embedded engine accepts strings")
	const stream = "customer_orders_archive"
	schema := func(v string) string {
		return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"shipping_payload":` + v + `}}}` + "\n"
	}
	rec := func(id, v string) string {
		return `{"type":"RECORD","stream":"` + stream + `","record":{"id":` + id + `,"shipping_payload":` + v + `}}` + "\n"
	}
	const state = `{"type":"STATE","value":1}` + "\n"
	const tbl = "DRY_RUN.CUSTOMER_ORDERS_ARCHIVE"
	checkName := func(sql string) string {
		_, after, ok := strings.Cut(sql, `"SHIPPING_PAYLOAD" CLOB CONSTRAINT "`)
		name, _, _ := strings.Cut(after, `"`)
		if !ok || !strings.Contains(sql, `CHECK ("SHIPPING_PAYLOAD" IS JSON)`) {
			t.Fatalf("no IS JSON check in the CREATE TABLE:\n%s", sql)
		}
		return name
	}

	// One run: the check made is the check dropped.
	code, errs, sql, rows := atk8Stored(t, filepath.Join(t.TempDir(), "store"), `{"add_record_metadata":false}`,
		schema(`{"type":"object"}`)+rec("1", `{"a":1}`)+schema(`{"type":"string"}`)+rec("2", `"plain"`)+state, tbl)
	name := checkName(sql)
	if code != ExitOK || !strings.Contains(sql, `ALTER TABLE "`+strings.Replace(tbl, ".", `"."`, 1)+`" DROP CONSTRAINT "`+name+`"`) ||
		rows != `{"ID":1,"SHIPPING_PAYLOAD":"{\"a\":1}"}`+"\n"+`{"ID":2,"SHIPPING_PAYLOAD":"plain"}`+"\n" {
		t.Fatalf("one run: exit %d, check %s, rows\n%s\nstatements:\n%s\n%s", code, name, rows, sql, lastLines(errs, 3))
	}

	// Two runs, the table made under the 30-byte limit: the second run
	// (128 bytes) drops the check by its 30-byte name too.
	store := filepath.Join(t.TempDir(), "store")
	code, errs, sql, _ = atk8Stored(t, store, `{"add_record_metadata":false,"identifier_max_bytes":"30"}`,
		schema(`{"type":"object"}`)+rec("1", `{"a":1}`)+state, tbl)
	name30 := checkName(sql)
	if code != ExitOK || len(name30) > 30 {
		t.Fatalf("run 1: exit %d, check %q\n%s", code, name30, lastLines(errs, 3))
	}
	code, errs, sql, rows = atk8Stored(t, store, `{"add_record_metadata":false,"identifier_max_bytes":"128"}`,
		schema(`{"type":"string"}`)+rec("2", `"plain"`)+state, tbl)
	if code != ExitOK || !strings.Contains(sql, `DROP CONSTRAINT "`+name30+`"`) || !strings.Contains(rows, `"SHIPPING_PAYLOAD":"plain"`) {
		t.Fatalf("run 2 (128-byte limit) does not drop the check %q the 30-byte run made (on Oracle it stays, and %q fails with ORA-02290): exit %d\n%s\n%s",
			name30, "plain", code, sql, lastLines(errs, 3))
	}

	// anyOf object|string on the checked column: modelled, refused as
	// Oracle refuses it, objects before it committed.
	code, errs, _, rows = atk8Stored(t, filepath.Join(t.TempDir(), "store"), `{"add_record_metadata":false}`,
		schema(`{"type":"object"}`)+rec("1", `{"a":1}`)+state+schema(`{"anyOf":[{"type":"object"},{"type":"string"}]}`)+rec("2", `{"b":2}`)+rec("3", `"plain"`)+state, tbl)
	if code != ExitFailed || !strings.Contains(errs, `ORA-02290: check constraint (IS JSON) violated for column "DRY_RUN"."CUSTOMER_ORDERS_ARCHIVE"."SHIPPING_PAYLOAD"`) ||
		!strings.Contains(errs, "DROP CONSTRAINT") || !strings.Contains(errs, "json-text") || rows != `{"ID":1,"SHIPPING_PAYLOAD":{"a":1}}`+"\n" {
		t.Errorf("anyOf object|string on the IS JSON column: exit %d, rows %q; want exit 1 with ORA-02290 naming the column and the fix, row 1 kept\n%s", code, rows, lastLines(errs, 3))
	}
}

// TestAttackNativeJSONKeepsNumberText (finding): with the native JSON
// column type (json_type: json, Oracle 21c+), Oracle's JSON type holds a
// number as an Oracle NUMBER (OSON), not as its text: `1.0` is kept as 1,
// `1e2` as 100, `-0` as 0, `1.50` as 1.5. The embedded engine and the dump
// kept the text as written, so the dry run (and --verify's expectation)
// showed values the server does not keep. SPEC §5.3: a native JSON
// column keeps what the JSON type keeps, numbers canonical, and a number
// NUMBER cannot hold is invalid input naming the property. Now both
// models of Oracle (oravalue: the embedded engine's Assign, the fake's
// JSON(:n)) keep each number in NUMBER's canonical form; a CLOB JSON
// column (json_type: clob, the dry run's default) keeps the text; more
// than 38 significant digits is a record-level error, as before.
func TestAttackNativeJSONKeepsNumberText(t *testing.T) {
	// was: t.Skip("finding: native JSON column: numbers 1.0, 1e2, -0, 1.50 kept as text by the engine and dump; Oracle's JSON type keeps NUMBERs")
	input := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"object"},"a":{"type":"array"}}}}
{"type":"RECORD","stream":"s","record":{"id":1,"v":{"a":1.0,"b":1e2,"c":-0,"d":1.50,"e":0.1000,"f":"1.0","g":1E-5},"a":[-0.0,2.50e1,12345678901234567890123456789012345678]}}
{"type":"RECORD","stream":"s","record":{"id":2,"v":{"x":123456789012345678901234567890123456789}}}
{"type":"STATE","value":1}
`
	code, errs, rows, rejects := atk8Run(t, `{"add_record_metadata":false,"json_type":"json","on_invalid_record":"reject","reject_path":"REJECTS"}`, input)
	want := `{"ID":1,"V":{"a":1,"b":100,"c":0,"d":1.5,"e":0.1,"f":"1.0","g":0.00001},"A":[0,25,12345678901234567890123456789012345678]}` + "\n"
	if code != ExitOK || rows != want {
		t.Fatalf("json_type json: exit %d, rows\n%s\nwant\n%s\n%s", code, rows, want, lastLines(errs, 3))
	}
	if !strings.Contains(rejects, `"line":3,"stream":"s","error":"line 3: stream \"s\": property \"v.x\": 123456789012345678901234567890123456789 is not a valid number: 39 significant digits, at most 38 expected`) {
		t.Errorf("39 digits in a native JSON value: rejects\n%s", rejects)
	}
	// A CLOB JSON column keeps the number text as written, 39 digits too.
	code, errs, rows, _ = atk8Run(t, `{"add_record_metadata":false,"json_type":"clob"}`, input)
	want = `{"ID":1,"V":{"a":1.0,"b":1e2,"c":-0,"d":1.50,"e":0.1000,"f":"1.0","g":1E-5},"A":[-0.0,2.50e1,12345678901234567890123456789012345678]}
{"ID":2,"V":{"x":123456789012345678901234567890123456789},"A":null}
`
	if code != ExitOK || rows != want {
		t.Errorf("json_type clob: exit %d, rows\n%s\nwant\n%s\n%s", code, rows, want, lastLines(errs, 3))
	}
}
