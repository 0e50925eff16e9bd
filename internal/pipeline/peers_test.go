package pipeline_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/target-oracle/target-oracle/internal/conformance"
)

// radbrtTestConfig is the config of radbrt/target-oracle's own tests
// (target_oracle/tests/test_core.py, oracle_config): freeze_schema true,
// under which radbrt still adds the columns later SCHEMA messages bring.
const radbrtTestConfig = `{"schema": "SYSTEM", "user": "SYSTEM", "password": "P@55w0rd", "host": "localhost", "port": "1521",
	"database": "XE", "prefer_float_over_numeric": false, "freeze_schema": true}`

// radbrt's illegal_colnames test loads with radbrt's test config: each
// SCHEMA adds a column, and !a5's maxLength grows in place.
func TestRadbrtIllegalColnames(t *testing.T) {
	path := filepath.Join(conformance.MoreDir(t), "radbrt-target-oracle", "illegal_colnames.singer")
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, radbrtTestConfig), readFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	if len(states) == 0 || states[len(states)-1] != `{"test_illegal_colnames":6}` {
		t.Errorf("states %q", states)
	}
	rows := eng.Rows("SYSTEM.TEST_ILLEGAL_COLNAMES")
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 6", len(rows))
	}
	tbl := eng.Tables()["SYSTEM.TEST_ILLEGAL_COLNAMES"]
	for col, typ := range map[string]string{"_ID": "NUMBER(38,0)", "_A1_": "NUMBER", "#A2$": "VARCHAR2(4000 BYTE)",
		"A3__": "NUMBER(1)", "_A5": "VARCHAR2(164 CHAR)", "__SEMIPHOR_A6": "NUMBER(38,0)"} {
		if c := tbl.Column(col); c == nil || c.Type.String() != typ {
			t.Errorf("column %s: %v, want %s", col, c, typ)
		}
	}
	last := rows[len(rows)-1]
	if last["_ID"] != "6" || last["_A5"] != "banana" || last["__SEMIPHOR_A6"] != "341" || last["A3__"] != "1" {
		t.Errorf("last row %v", last)
	}
}

// flext's default load_method INSERT with sdc_mode merge is an upsert, as
// in flext-target-oracle (SPEC §3).
func TestFlextPairUpserts(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{` +
		`"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`
	in := input(schema,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"a"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":2,"v":"b"}}`,
		`{"type":"RECORD","stream":"s","record":{"id":1,"v":"c"}}`,
	)
	for settings, want := range map[string][]string{
		`{"TargetOracle": {"load_method": "INSERT", "sdc_mode": "merge"}}`:  {"b", "c"},
		`{"TargetOracle": {"load_method": "INSERT", "sdc_mode": "insert"}}`: {"a", "b", "c"},
	} {
		t.Run(settings, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, settings), in); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range eng.Rows("DRY_RUN.S") {
				got = append(got, r["V"])
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("values %q, want %q", got, want)
			}
		})
	}
}
