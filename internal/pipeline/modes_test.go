package pipeline_test

import (
	"strings"
	"testing"
)

const nestedSchema = `{"type":"SCHEMA","stream":"n","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},"secret":{"type":["null","string"]},` +
	`"addr":{"type":["null","object"],"properties":{"city":{"type":["null","string"]},"geo":{"type":["null","object"],"properties":{"lat":{"type":["null","number"]}}},"pin":{"type":["null","string"]}}},` +
	`"tags":{"type":["null","array"],"items":{"type":"string"}}}}}`

const nestedRecord = `{"type":"RECORD","stream":"n","record":{"id":1,"secret":"x","addr":{"pin":"1234","city":"Oslo","geo":{"lat":59.9}},"tags":["a","b"]}}`

func columns(t *testing.T, settings string) (string, map[string]string) {
	t.Helper()
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, settings), input(nestedSchema, nestedRecord)); err != nil {
		t.Fatal(err)
	}
	var tb []string
	for name, tt := range eng.Tables() {
		for _, c := range tt.Columns {
			if !strings.HasPrefix(c.Name, "_SDC_") {
				tb = append(tb, c.Name+" "+c.Type.String())
			}
		}
		rows := eng.Rows(name)
		if len(rows) != 1 {
			t.Fatalf("%d rows", len(rows))
		}
		return strings.Join(tb, ", "), rows[0]
	}
	t.Fatal("no table")
	return "", nil
}

func TestStorageModes(t *testing.T) {
	cases := []struct {
		name, settings, cols string
		values               map[string]string
	}{
		{"hybrid", ``, "ID NUMBER(38,0), SECRET VARCHAR2(4000 BYTE), ADDR CLOB, TAGS CLOB",
			map[string]string{"ADDR": `{"pin":"1234","city":"Oslo","geo":{"lat":59.9}}`, "TAGS": `["a","b"]`}},
		{"flattened", `{"flattening_enabled": true, "flattening_max_depth": 1}`,
			"ID NUMBER(38,0), SECRET VARCHAR2(4000 BYTE), ADDR__CITY VARCHAR2(4000 BYTE), ADDR__GEO CLOB, ADDR__PIN VARCHAR2(4000 BYTE), TAGS CLOB",
			map[string]string{"ADDR__CITY": "Oslo", "ADDR__GEO": `{"lat":59.9}`, "ADDR__PIN": "1234"}},
		{"flattened deeper", `{"storage_mode": "flattened"}`,
			"ID NUMBER(38,0), SECRET VARCHAR2(4000 BYTE), ADDR__CITY VARCHAR2(4000 BYTE), ADDR__GEO__LAT NUMBER, ADDR__PIN VARCHAR2(4000 BYTE), TAGS CLOB",
			map[string]string{"ADDR__GEO__LAT": "59.9"}},
		{"json", `{"storage_mode": "json"}`, "ID NUMBER(38,0), DATA CLOB",
			map[string]string{"DATA": `{"id":1,"secret":"x","addr":{"pin":"1234","city":"Oslo","geo":{"lat":59.9}},"tags":["a","b"]}`}},
		{"ignored and mapped", `{"ignored_columns": ["secret", "addr.pin"], "column_mappings": {"n": {"tags": "LABELS"}}}`,
			"ID NUMBER(38,0), ADDR CLOB, LABELS CLOB",
			map[string]string{"ADDR": `{"city":"Oslo","geo":{"lat":59.9}}`, "LABELS": `["a","b"]`}},
		{"json ignoring a path", `{"storage_mode": "json", "ignored_columns": {"n": ["addr.pin", "secret"]}}`, "ID NUMBER(38,0), DATA CLOB",
			map[string]string{"DATA": `{"id":1,"addr":{"city":"Oslo","geo":{"lat":59.9}},"tags":["a","b"]}`}},
		{"per-stream override", `{"stream_overrides": {"n*": {"storage_mode": "json"}}}`, "ID NUMBER(38,0), DATA CLOB", nil},
		{"table mapping and prefix", `{"table_prefix": "STG_", "table_name_mappings": {"other": "X"}}`, "ID NUMBER(38,0), SECRET VARCHAR2(4000 BYTE), ADDR CLOB, TAGS CLOB", nil},
		{"preserve case", `{"identifier_case": "preserve", "storage_mode": "json", "json_column_name": "doc"}`, "id NUMBER(38,0), doc CLOB", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cols, row := columns(t, c.settings)
			if cols != c.cols {
				t.Fatalf("columns:\n %s\nwant\n %s", cols, c.cols)
			}
			for k, v := range c.values {
				if row[k] != v {
					t.Errorf("%s = %q, want %q", k, row[k], v)
				}
			}
		})
	}
}

func TestSchemaEvolutionPolicies(t *testing.T) {
	v1 := `{"type":"SCHEMA","stream":"e","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","integer"]}}}}`
	v2 := strings.Replace(v1, `"v":{"type":["null","integer"]}`, `"v":{"type":["null","string"]},"w":{"type":["null","string"]}`, 1)
	r1 := `{"type":"RECORD","stream":"e","record":{"id":1,"v":5}}`
	r2 := `{"type":"RECORD","stream":"e","record":{"id":2,"v":"five","w":"new"}}`
	for policy, wantErr := range map[string]bool{"widen": false, "additive": true, "fail": true} {
		t.Run(policy, func(t *testing.T) {
			eng := newEngine()
			cfg := loadConfig(t, `{"schema_evolution": "`+policy+`"}`)
			if _, err := run(t, eng, cfg, input(v1, r1)); err != nil {
				t.Fatal(err)
			}
			_, err := run(t, eng, cfg, input(v2, r2))
			if (err != nil) != wantErr {
				t.Fatalf("err = %v, want error: %v", err, wantErr)
			}
			if wantErr {
				if !strings.Contains(err.Error(), "V") {
					t.Errorf("error does not name the column: %v", err)
				}
				return
			}
			wantColumnType(t, eng, "E", "V", "VARCHAR2(4000 BYTE)")
			wantValues(t, eng, "E", "V", "5", "five")
			wantValues(t, eng, "E", "W", "", "new")
		})
	}
}
