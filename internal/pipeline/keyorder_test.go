package pipeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/memory"
)

// key_properties are a set: the same key in another order is no key change
// — not in one run, not across runs on a table with rows, not between two
// streams of one table — and the table keeps its primary key's order. A
// different key still fails as before.
func TestKeyPropertiesInAnotherOrder(t *testing.T) {
	schema := func(stream string, keys ...string) string {
		return fmt.Sprintf(`{"type":"SCHEMA","stream":%q,"key_properties":["%s"],"schema":{"properties":{"a":{"type":"integer"},"b":{"type":"integer"},"v":{"type":"string"}}}}`,
			stream, strings.Join(keys, `","`))
	}
	record := func(stream string, a, b int, v string) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"a":%d,"b":%d,"v":%q}}`, stream, a, b, v)
	}
	for _, tc := range []struct {
		name     string
		settings string
		runs     []string // each a run on the same engine
		table    string
		rows     string // A:B:V of each row, by key
		fail     string // the last run's error, "" for none
	}{
		{name: "in one run", runs: []string{input(schema("s", "a", "b"), record("s", 1, 2, "x"), state(1), schema("s", "b", "a"), record("s", 1, 2, "y"), state(2))},
			table: "S", rows: "1:2:y"},
		{name: "across runs", runs: []string{input(schema("s", "a", "b"), record("s", 1, 2, "x"), state(1)), input(schema("s", "b", "a"), record("s", 1, 2, "y"), record("s", 2, 1, "z"), state(2))},
			table: "S", rows: "1:2:y 2:1:z"},
		{name: "history across runs", settings: `{"load_method":"history"}`, runs: []string{input(schema("s", "a", "b"), record("s", 1, 2, "x"), state(1)), input(schema("s", "b", "a"), record("s", 1, 2, "x"), state(2))},
			table: "S", rows: "1:2:x"},
		{name: "two streams of one table", settings: `{"table_name_mappings":{"s":"T","t":"T"}}`,
			runs:  []string{input(schema("s", "a", "b"), schema("t", "b", "a"), record("s", 1, 2, "x"), record("t", 1, 2, "y"), state(1))},
			table: "T", rows: "1:2:y"},
		{name: "another key still fails", runs: []string{input(schema("s", "a", "b"), record("s", 1, 2, "x"), state(1)), input(schema("s", "b", "v"), record("s", 1, 2, "y"), state(2))},
			table: "S", rows: "1:2:x", fail: "key_properties changed from [A B] to [B V]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			var err error
			for _, in := range tc.runs {
				_, err = run(t, eng, loadConfig(t, tc.settings), in)
				if err != nil {
					break
				}
			}
			if tc.fail == "" && err != nil || tc.fail != "" && (err == nil || !strings.Contains(err.Error(), tc.fail)) {
				t.Fatalf("err %v, want %q", err, tc.fail)
			}
			if got := keyedRows(eng, "DRY_RUN."+tc.table); got != tc.rows {
				t.Errorf("rows %s, want %s", got, tc.rows)
			}
			if pk := eng.Tables()["DRY_RUN."+tc.table].PrimaryKey; !slices.Equal(pk[:2], []string{"A", "B"}) {
				t.Errorf("primary key %v, want it to start A, B (the first SCHEMA's order)", pk)
			}
		})
	}
}

func keyedRows(eng *memory.Engine, table string) string {
	var out []string
	for _, r := range eng.Rows(table) {
		out = append(out, r["A"]+":"+r["B"]+":"+r["V"])
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
