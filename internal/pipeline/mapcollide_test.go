package pipeline_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
)

// A column_mappings entry that would put two things in one column — two
// properties, a property and the key, a property and a metadata column —
// is refused at the stream's SCHEMA as a configuration error (exit 2)
// naming the stream, both sources and the column (SPEC §5.1): mappings
// are verbatim, so no suffix may silently rename the key or merge values.
// The other stream's records before it commit.
func TestColumnMappingCollisionRefusedAtSchema(t *testing.T) {
	a := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	b := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"other":{"type":"integer"},"id":{"type":"integer"},"x":{"type":"integer"}}},"key_properties":["id"]}`
	in := input(a,
		`{"type":"RECORD","stream":"a","record":{"id":1}}`,
		`{"type":"STATE","value":{"s":1}}`,
		b, // line 4
		`{"type":"RECORD","stream":"b","record":{"id":1,"other":7,"x":9}}`,
		`{"type":"RECORD","stream":"a","record":{"id":2}}`,
		`{"type":"STATE","value":{"s":2}}`)
	for _, tc := range []struct{ name, settings, want string }{
		{"onto the key", `{"column_mappings":{"b":{"other":"ID"}}}`,
			`stream "b": property "other" is mapped to column "ID", the column of key property "id"`},
		{"onto the key, preserved case", `{"identifier_case":"preserve","table_name_mappings":{"a":"A","b":"B"},"column_mappings":{"b":{"other":"id"}}}`,
			`stream "b": property "other" is mapped to column "id", the column of key property "id"`},
		{"two properties", `{"column_mappings":{"b":{"other":"Q","x":"Q"}}}`,
			`stream "b": properties "other" and "x" are both mapped to column "Q"`},
		{"onto metadata", `{"column_mappings":{"b":{"x":"_SDC_BATCHED_AT"}}}`,
			`stream "b": property "x" is mapped to column "_SDC_BATCHED_AT", the name of a metadata column`},
		// Without add_record_metadata the column is still added when a
		// record carries _sdc_deleted_at: the name stays the target's.
		{"onto metadata added on demand", `{"add_record_metadata":false,"column_mappings":{"b":{"x":"_SDC_DELETED_AT"}}}`,
			`stream "b": property "x" is mapped to column "_SDC_DELETED_AT", the name of a metadata column`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			states, err := run(t, eng, loadConfig(t, tc.settings), in)
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Key != "column_mappings" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want the column_mappings configuration error %q", err, tc.want)
			}
			if strings.Join(states, "|") != `{"s":1}` {
				t.Fatalf("states %q, want {\"s\":1}", states)
			}
			if rows := eng.Rows("DRY_RUN.A"); len(rows) != 1 || rows[0]["ID"]+rows[0]["id"] != "1" {
				t.Fatalf("A holds %v, want the row 1", rows)
			}
			if _, ok := eng.Tables()["DRY_RUN.B"]; ok {
				t.Fatal("table B was created")
			}
		})
	}
}

// A mapping onto the name a generated (non-key) property would take is no
// error: the mapping wins verbatim and the generated name takes the hash
// suffix (SPEC §5.1). Names compare exactly, as Oracle compares quoted
// identifiers: with identifier_case preserve, a mapping onto "ID" is not
// the key column "id".
func TestColumnMappingWinsOverGeneratedName(t *testing.T) {
	b := `{"type":"SCHEMA","stream":"b","schema":{"properties":{"other":{"type":"integer"},"id":{"type":"integer"},"x":{"type":"integer"}}},"key_properties":["id"]}`
	in := input(b, `{"type":"RECORD","stream":"b","record":{"id":1,"other":7,"x":9}}`, `{"type":"STATE","value":{"s":1}}`)
	for _, tc := range []struct{ name, settings, table, want string }{
		{"generated property", `{"add_record_metadata":false,"column_mappings":{"b":{"other":"X"}}}`, "DRY_RUN.B",
			"ID=1 X=7 X_2d711642=9"},
		{"case differs from the key", `{"add_record_metadata":false,"identifier_case":"preserve","column_mappings":{"b":{"other":"ID"}}}`, "DRY_RUN.b",
			"ID=7 id=1 x=9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			if _, err := run(t, eng, loadConfig(t, tc.settings), in); err != nil {
				t.Fatal(err)
			}
			rows := eng.Rows(tc.table)
			if len(rows) != 1 {
				t.Fatalf("%s holds %v, want one row", tc.table, rows)
			}
			var got []string
			for _, c := range eng.Tables()[tc.table].Columns {
				got = append(got, c.Name+"="+rows[0][c.Name])
			}
			slices.Sort(got)
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("columns %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}
