package pipeline_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/memory"
)

// sharedEngines are the embedded engine's two row paths: rows kept as
// maps, and --dry-run-dump's rows spilled to a file (writeCold).
var sharedEngines = []struct {
	name string
	new  func(t *testing.T) *memory.Engine
}{
	{"kept rows", func(*testing.T) *memory.Engine { return newEngine() }},
	{"dump, spilled rows", func(t *testing.T) *memory.Engine {
		return memory.New(memory.Options{DumpDir: t.TempDir(), Now: func() time.Time { return fixedNow }})
	}},
}

// The hostile tester's input (f2-shared-table.singer, f2-config.json):
// two streams mapped to one table, stream a's schema without y. Before
// the fix each stream flushed on its own and merged only its own columns:
// with one worker the earlier record won (drain flushes in order of first
// SCHEMA), with four the result changed from run to run, Y always stale.
const sharedTableInput = `{"type":"SCHEMA","stream":"a","schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]}}},"key_properties":["id"]}
{"type":"SCHEMA","stream":"b","schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]},"y":{"type":["string","null"]}}},"key_properties":["id"]}
{"type":"RECORD","stream":"b","record":{"id":1,"x":"from-b-first","y":"y-from-b"}}
{"type":"RECORD","stream":"a","record":{"id":1,"x":"from-a-second"}}
{"type":"STATE","value":{"s":1}}
`

// Streams mapped to one table load it in input order, and a record
// replaces the whole row: the columns its stream does not have become
// NULL (SPEC §4, §6.2, §7.6).
func TestStreamsSharingATableLoadInInputOrder(t *testing.T) {
	for _, c := range []struct{ name, settings, want string }{
		{"one worker", `{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":1}`, "1 from-a-second <nil>"},
		{"four workers", `{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4}`, "1 from-a-second <nil>"},
		{"four workers, batches of one", `{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4,"batch_size_rows":1}`, "1 from-a-second <nil>"},
		// Appends keep both rows; a's has no Y.
		{"append-only", `{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4,"load_method":"append-only"}`, "1 from-b-first y-from-b|1 from-a-second <nil>"},
	} {
		for _, e := range sharedEngines {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				eng := e.new(t)
				states, err := run(t, eng, loadConfig(t, c.settings), sharedTableInput)
				if err != nil {
					t.Fatal(err)
				}
				if got := sharedRows(eng, "ID", "X", "Y"); got != c.want {
					t.Errorf("table T holds %q, want %q", got, c.want)
				}
				if strings.Join(states, "|") != `{"s":1}` {
					t.Errorf("states %q", states)
				}
			})
		}
	}
}

// sharedRows renders table T's rows, in the table's order, as the given
// columns' values ("<nil>" for NULL), rows separated by "|".
func sharedRows(eng interface {
	Rows(string) []map[string]string
}, cols ...string) string {
	var out []string
	for _, r := range eng.Rows("DRY_RUN.T") {
		var vals []string
		for _, c := range cols {
			v, ok := r[c]
			if !ok {
				v = "<nil>"
			}
			vals = append(vals, v)
		}
		out = append(out, strings.Join(vals, " "))
	}
	return strings.Join(out, "|")
}

// Many switches between two streams of one table, with small batches and
// several workers: the table ends with the last record per key, whole
// (Y NULL when stream a's record came last), and each STATE, checked as
// it is written, covers only records already in the table.
func TestSwitchingBetweenStreamsOfATable(t *testing.T) {
	for _, settings := range []string{
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4,"batch_size_rows":3}`,
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":1,"batch_size_rows":1000}`,
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":3,"batch_size_rows":1}`,
	} {
		for _, e := range sharedEngines {
			t.Run(settings+"/"+e.name, func(t *testing.T) { switchMany(t, e.new(t), settings) })
		}
	}
}

func switchMany(t *testing.T, eng *memory.Engine, settings string) {
	rng := rand.New(rand.NewPCG(7, 11))
	lines := []string{
		`{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"n":{"type":"integer"},"x":{"type":["string","null"]}}}}`,
		`{"type":"SCHEMA","stream":"b","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"n":{"type":"integer"},"x":{"type":["string","null"]},"y":{"type":["string","null"]}}}}`,
	}
	type version struct{ n, x, y string }
	last := map[string]version{}      // key → its last record so far
	atState := map[string][]version{} // state text → the model then, per key
	var keys []string
	for n := 1; n <= 400; n++ {
		id := strconv.Itoa(1 + rng.IntN(8))
		if _, ok := last[id]; !ok {
			keys = append(keys, id)
		}
		x := fmt.Sprintf("x%d", n)
		if rng.IntN(2) == 0 {
			lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"a","record":{"id":%s,"n":%d,"x":%q}}`, id, n, x))
			last[id] = version{strconv.Itoa(n), x, "<nil>"}
		} else {
			y := fmt.Sprintf("y%d", n)
			lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"b","record":{"id":%s,"n":%d,"x":%q,"y":%q}}`, id, n, x, y))
			last[id] = version{strconv.Itoa(n), x, y}
		}
		if rng.IntN(10) == 0 {
			state := fmt.Sprintf(`{"n":%d}`, n)
			var snap []version
			for _, k := range keys {
				snap = append(snap, version{k, last[k].n, ""})
			}
			atState[state] = snap
			lines = append(lines, `{"type":"STATE","value":`+state+`}`)
		}
	}
	out := &checkingWriter{check: func(state string) error {
		rows := map[string]int{}
		for _, r := range eng.Rows("DRY_RUN.T") {
			n, _ := strconv.Atoi(r["N"])
			rows[r["ID"]] = n
		}
		for _, v := range atState[state] {
			want, _ := strconv.Atoi(v.x)
			if rows[v.n] < want {
				return fmt.Errorf("state %s written while key %s holds record %d, not yet %d", state, v.n, rows[v.n], want)
			}
		}
		return nil
	}}
	if err := runWith(t, eng, settings, input(lines...), out); err != nil {
		t.Fatal(err)
	}
	if len(out.errs) > 0 {
		t.Fatalf("states ahead of the table: %v", out.errs)
	}
	if len(out.lines) == 0 {
		t.Fatal("no state written")
	}
	want := map[string]string{}
	for k, v := range last {
		want[k] = strings.Join([]string{k, v.n, v.x, v.y}, " ")
	}
	got := map[string]string{}
	for _, r := range strings.Split(sharedRows(eng, "ID", "N", "X", "Y"), "|") {
		got[strings.Fields(r)[0]] = r
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("table T:\n%s\nwant the last record per key:\n%s", g, w)
	}
}

// What a record of one stream leaves in the columns only the other
// stream of its table has: NULL, whichever stream's SCHEMA came first,
// for _SDC_DELETED_AT too (a record after another stream's soft delete
// brings the row back, as it would for one stream), and for a property
// the stream leaves out with ignored_columns.
func TestSharedTableRecordReplacesTheWholeRow(t *testing.T) {
	schemaA := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]}}}}`
	schemaB := `{"type":"SCHEMA","stream":"b","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]},"y":{"type":["string","null"]},"_sdc_deleted_at":{"type":["string","null"],"format":"date-time"}}}}`
	schemaAWithY := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]},"y":{"type":["string","null"]}}}}`
	recB := `{"type":"RECORD","stream":"b","record":{"id":1,"x":"b","y":"yb"}}`
	delB := `{"type":"RECORD","stream":"b","record":{"id":1,"x":"b","y":"yb","_sdc_deleted_at":"2025-01-01T00:00:00Z"}}`
	recA := `{"type":"RECORD","stream":"a","record":{"id":1,"x":"a"}}`
	recAWithY := `{"type":"RECORD","stream":"a","record":{"id":1,"x":"a","y":"ya"}}`
	const maps = `"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4`
	for _, c := range []struct {
		name, settings string
		in             []string
		want           string
	}{
		{"a's SCHEMA first", `{` + maps + `}`, []string{schemaA, schemaB, recB, recA}, "1 a <nil> <nil>"},
		{"b's SCHEMA first", `{` + maps + `}`, []string{schemaB, schemaA, recB, recA}, "1 a <nil> <nil>"},
		{"after b's soft delete, no record metadata", `{` + maps + `,"add_record_metadata":false}`, []string{schemaA, schemaB, delB, recA}, "1 a <nil> <nil>"},
		// A soft delete sets only the metadata of an existing row, as for
		// one stream.
		{"b's soft delete last", `{` + maps + `,"add_record_metadata":false}`, []string{schemaA, schemaB, recA, delB}, "1 a <nil> 2025-01-01T00:00:00Z"},
		{"y ignored in a, a's SCHEMA first", `{` + maps + `,"ignored_columns":{"a":["y"]}}`, []string{schemaAWithY, schemaB, recB, recAWithY}, "1 a <nil> <nil>"},
		{"y ignored in a, b's SCHEMA first", `{` + maps + `,"ignored_columns":{"a":["y"]}}`, []string{schemaB, schemaAWithY, recB, recAWithY}, "1 a <nil> <nil>"},
	} {
		for _, e := range sharedEngines {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				eng := e.new(t)
				if _, err := run(t, eng, loadConfig(t, c.settings), input(c.in...)); err != nil {
					t.Fatal(err)
				}
				if got := sharedRows(eng, "ID", "X", "Y", "_SDC_DELETED_AT"); got != c.want {
					t.Errorf("table T holds %q, want %q", got, c.want)
				}
			})
		}
	}
}

// overwrite and truncate_before_load empty a shared table once, at its
// first batch of the run: the second stream's first batch keeps the rows
// the first stream loaded in the same run. A later run is refused (exit
// 2, the table unchanged): the table's comment names both streams, and
// emptying it would take the rows of one that sends nothing, or only its
// SCHEMA, in that run (TestAttackOverwriteSharerWithOnlyASchemaLosesItsRows).
func TestSharedTableIsEmptiedOncePerRun(t *testing.T) {
	schemaA := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]}}}}`
	schemaB := `{"type":"SCHEMA","stream":"b","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"x":{"type":["string","null"]}}}}`
	rec := func(s string, id int) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"x":%q}}`, s, id, s)
	}
	for _, settings := range []string{
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4,"load_method":"overwrite"}`,
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":4,"truncate_before_load":true}`,
		`{"table_name_mappings":{"a":"T","b":"T"},"max_parallelism":1,"load_method":"overwrite","batch_size_rows":1}`,
	} {
		t.Run(settings, func(t *testing.T) {
			eng := newEngine()
			cfg := loadConfig(t, settings)
			if _, err := run(t, eng, cfg, input(schemaA, schemaB, rec("a", 1), rec("b", 2))); err != nil {
				t.Fatal(err)
			}
			if got, want := sharedRows(eng, "ID", "X"), "1 a|2 b"; got != want {
				t.Errorf("table T holds %q after the first run, want %q", got, want)
			}
			_, err := run(t, eng, cfg, input(schemaA, schemaB, rec("b", 3), rec("a", 4), rec("b", 5)))
			if err == nil || !strings.Contains(err.Error(), "also holds the rows of stream(s) a") {
				t.Fatalf("second run: %v, want the refusal naming stream a", err)
			}
			if got, want := sharedRows(eng, "ID", "X"), "1 a|2 b"; got != want {
				t.Errorf("table T holds %q after the refused second run, want %q", got, want)
			}
		})
	}
}

// Hostile review finding 01: stream a declares flag boolean, stream b
// (mapped to the same table) string, so the column is the join, text.
// a's booleans land there as true/false, the text a boolean gets in a
// text column and a migrated one gets (SPEC §5.5), never 1/0; false and
// NULL stay apart. Whichever SCHEMA comes first, whatever the method, and
// when one stream widens the column itself (a migration).
func TestBooleanInATextColumnIsTrueOrFalse(t *testing.T) {
	schema := func(stream, typ string) string {
		return `{"type":"SCHEMA","stream":"` + stream + `","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"flag":{"type":` + typ + `}}}}`
	}
	rec := func(stream string, id int, v string) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"flag":%s}}`, stream, id, v)
	}
	boolA, textB := schema("a", `["boolean","null"]`), schema("b", `["string","null"]`)
	recsA := []string{rec("a", 1, "true"), rec("a", 2, "false"), rec("a", 3, "null")}
	const want = "1 true|2 false|3 <nil>|4 x"
	const maps = `"table_name_mappings":{"a":"T","b":"T"}`
	for _, c := range []struct {
		name, settings string
		in             []string
	}{
		{"a's SCHEMA first", `{` + maps + `}`, append([]string{boolA, textB}, append(recsA, rec("b", 4, `"x"`))...)},
		{"b's SCHEMA first", `{` + maps + `}`, append([]string{textB, boolA}, append(recsA, rec("b", 4, `"x"`))...)},
		{"b's record first", `{` + maps + `}`, append([]string{boolA, textB, rec("b", 4, `"x"`)}, recsA...)},
		{"four workers, batches of one", `{` + maps + `,"max_parallelism":4,"batch_size_rows":1}`, append([]string{boolA, textB}, append(recsA, rec("b", 4, `"x"`))...)},
		{"append-only", `{` + maps + `,"load_method":"append-only"}`, append([]string{boolA, textB}, append(recsA, rec("b", 4, `"x"`))...)},
		// a's rows are in the table as 1/0 before b widens the column:
		// the migration rewrites them.
		{"a's rows before b's SCHEMA", `{` + maps + `}`, append(append([]string{boolA}, recsA...), textB, rec("b", 4, `"x"`))},
		// One stream whose later SCHEMA makes flag a string: the same.
		{"one stream widened", `{"table_name_mappings":{"a":"T"}}`, append(append([]string{boolA}, recsA...), schema("a", `["string","null"]`), rec("a", 4, `"x"`))},
		{"one stream, boolean or string", `{"table_name_mappings":{"a":"T"}}`, append([]string{schema("a", `["boolean","string","null"]`)}, append(recsA, rec("a", 4, `"x"`))...)},
	} {
		for _, e := range sharedEngines {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				eng := e.new(t)
				if _, err := run(t, eng, loadConfig(t, c.settings), input(c.in...)); err != nil {
					t.Fatal(err)
				}
				if typ := eng.Tables()["DRY_RUN.T"].Column("FLAG").Type; !typ.IsText() {
					t.Fatalf("FLAG is %s, want text", typ)
				}
				got := strings.Split(sharedRows(eng, "ID", "FLAG"), "|")
				slices.Sort(got) // append-only keeps insertion order
				if g := strings.Join(got, "|"); g != want {
					t.Errorf("table T holds %q, want %q", g, want)
				}
			})
		}
	}
}

// A binary property's values in a text column another stream made land
// as base16 in capitals, the text a RAW column's values get when a
// migration rewrites the column as text (RAWTOHEX, table.BinaryText):
// one column never holds base64 for some rows and base16 for others,
// whichever SCHEMA or record came first. Before, the values written after
// the column became text kept their stored base64 (3q2+7w==).
func TestBinaryInATextColumnIsBase16(t *testing.T) {
	binA := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"d":{"type":["string","null"],"contentEncoding":"base64","maxLength":8}}}}`
	textB := `{"type":"SCHEMA","stream":"b","key_properties":["id"],"schema":{"properties":{"id":{"type":"integer"},"d":{"type":["string","null"]}}}}`
	rec := func(stream string, id int, v string) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"d":%s}}`, stream, id, v)
	}
	recsA := []string{rec("a", 1, `"3q2+7w=="`), rec("a", 2, `"AP8="`), rec("a", 3, "null")}
	const want = "1 DEADBEEF|2 00FF|3 <nil>|4 x"
	const settings = `{"interpret_content_encoding":true,"table_name_mappings":{"a":"T","b":"T"}`
	for _, c := range []struct {
		name, more string
		in         []string
	}{
		{"a's SCHEMA first", "", append([]string{binA, textB}, append(recsA, rec("b", 4, `"x"`))...)},
		{"b's record first", "", append([]string{binA, textB, rec("b", 4, `"x"`)}, recsA...)},
		{"a's record before b's SCHEMA", "", append(append([]string{binA}, recsA[:1]...), textB, rec("b", 4, `"x"`), recsA[1], recsA[2])},
		// a's first row is in the table as RAW before b makes the column
		// text: the migration rewrites it, and a's later ones agree.
		{"a's row in RAW before b's SCHEMA", `,"batch_size_rows":1`, append(append([]string{binA}, recsA[:1]...), textB, rec("b", 4, `"x"`), recsA[1], recsA[2])},
	} {
		for _, e := range sharedEngines {
			t.Run(c.name+"/"+e.name, func(t *testing.T) {
				eng := e.new(t)
				if _, err := run(t, eng, loadConfig(t, settings+c.more+"}"), input(c.in...)); err != nil {
					t.Fatal(err)
				}
				if typ := eng.Tables()["DRY_RUN.T"].Column("D").Type; !typ.IsText() {
					t.Fatalf("D is %s, want text", typ)
				}
				got := strings.Split(sharedRows(eng, "ID", "D"), "|")
				slices.Sort(got)
				if g := strings.Join(got, "|"); g != want {
					t.Errorf("table T holds %q, want %q", g, want)
				}
			})
		}
	}
}
