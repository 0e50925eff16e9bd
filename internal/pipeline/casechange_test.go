package pipeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A run with the other identifier_case generates another table name
// (ORDERS under upper, orders under preserve: distinct quoted names in
// Oracle), yet the stream adopts the table whose comment names it, with a
// warning, instead of creating a second one (SPEC §5.1). Its columns are
// matched by comment, else case-insensitively (SPEC §5.5); a new property
// gets a column in this run's case.
func TestIdentifierCaseChangeAdoptsTheStreamsTable(t *testing.T) {
	schema := func(props string) string {
		return `{"type":"SCHEMA","stream":"orders","schema":{"properties":{"id":{"type":"integer"},"Amount":{"type":"integer"}` + props + `}},"key_properties":["id"]}`
	}
	for _, tc := range []struct {
		name, first, second string
		table, id, amount   string // the table and the columns run 1 made
		note                string // the column run 2 adds
	}{
		{"upper then preserve", "upper", "preserve", "ORDERS", "ID", "AMOUNT", "Note"},
		{"preserve then upper", "preserve", "upper", "orders", "id", "Amount", "NOTE"},
	} {
		for _, comments := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/column_comments=%v", tc.name, comments), func(t *testing.T) {
				eng := newEngine()
				settings := func(ic string) string {
					return fmt.Sprintf(`{"identifier_case":%q,"column_comments":%v,"add_record_metadata":false}`, ic, comments)
				}
				if _, err := run(t, eng, loadConfig(t, settings(tc.first)), input(schema(""),
					`{"type":"RECORD","stream":"orders","record":{"id":1,"Amount":10}}`)); err != nil {
					t.Fatal(err)
				}
				var logs strings.Builder
				if _, err := runLogged(t, eng, loadConfig(t, settings(tc.second)), input(schema(`,"Note":{"type":"string"}`),
					`{"type":"RECORD","stream":"orders","record":{"id":2,"Amount":20,"Note":"n"}}`), &logs); err != nil {
					t.Fatal(err)
				}
				var tables []string
				for n := range eng.Tables() {
					tables = append(tables, n)
				}
				if want := "DRY_RUN." + tc.table; len(tables) != 1 || tables[0] != want {
					t.Fatalf("tables %q, want only %s", tables, want)
				}
				var cols []string
				for _, c := range eng.Tables()["DRY_RUN."+tc.table].Columns {
					cols = append(cols, c.Name)
				}
				if want := []string{tc.id, tc.amount, tc.note}; !slices.Equal(cols, want) {
					t.Fatalf("columns %q, want %q", cols, want)
				}
				var rows []string
				for _, r := range eng.Rows("DRY_RUN." + tc.table) {
					rows = append(rows, r[tc.id]+":"+r[tc.amount]+":"+r[tc.note])
				}
				if got := strings.Join(rows, " "); got != "1:10: 2:20:n" {
					t.Fatalf("rows %q, want both runs' rows", got)
				}
				if !strings.Contains(logs.String(), "made with the other identifier_case") || !strings.Contains(logs.String(), "table=DRY_RUN."+tc.table) {
					t.Fatalf("no warning about the adopted table in:\n%s", logs.String())
				}
			})
		}
	}
}

// Streams whose names collided under one identifier_case keep their
// tables, the suffixed one included, under the other.
func TestIdentifierCaseChangeKeepsSuffixedTables(t *testing.T) {
	in := input(
		`{"type":"SCHEMA","stream":"a-b","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`,
		`{"type":"SCHEMA","stream":"a_b","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`,
		`{"type":"RECORD","stream":"a-b","record":{"id":1}}`,
		`{"type":"RECORD","stream":"a_b","record":{"id":2}}`)
	eng := newEngine()
	for _, ic := range []string{"upper", "preserve"} {
		if _, err := run(t, eng, loadConfig(t, `{"identifier_case":"`+ic+`"}`), in); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for n, tb := range eng.Tables() {
		got = append(got, fmt.Sprintf("%s%q=%s", n, tb.Streams, ids(eng, strings.TrimPrefix(n, "DRY_RUN."))))
	}
	slices.Sort(got)
	want := []string{`DRY_RUN.A_B["a-b"]=1`, `DRY_RUN.A_B_` + "648fa9b3" + `["a_b"]=2`}
	if !slices.Equal(got, want) {
		t.Fatalf("tables %q, want %q", got, want)
	}
}
