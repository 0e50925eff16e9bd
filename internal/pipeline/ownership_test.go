package pipeline_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/memory"
)

// ownRec is a RECORD of stream with key id and value v; deleted, when set,
// is its _sdc_deleted_at; version, when set, its table version.
func ownRec(stream string, id int, v, deleted string, version int) string {
	r := map[string]any{"id": id, "v": v}
	if deleted != "" {
		r["_sdc_deleted_at"] = deleted
	}
	m := map[string]any{"type": "RECORD", "stream": stream, "record": r}
	if version > 0 {
		m["version"] = version
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Workers never touch their stream's state on the coordinator (flush.go):
// each job carries what its worker needs. Built with the race detector
// the pipeline writes a stream's every field when its job starts
// (stream.touch), so under `go test -race` a worker that reads or writes
// any of them fails this test as a data race. The runs take every path
// a worker runs: batches folded by key (unordered keys, soft deletes),
// append-only batches with hard deletes, a keyless stream with
// hard_delete, an upsert into a table without a primary key, a SCHEMA
// that adds a column, ACTIVATE_VERSION, history, a refused key change,
// and a row the database refuses under on_database_error: reject — two
// streams at once on two workers, batches of two rows, so that the
// coordinator reads on while their jobs run. Each run's table is checked
// too.
func TestWorkersLeaveStreamStateAlone(t *testing.T) {
	const del = "2025-01-01T00:00:00Z"
	schemaOf := func(stream, keys string) string {
		return strings.Replace(strings.Replace(schemaLine, `"stream":"s"`, `"stream":"`+stream+`"`, 1),
			`"key_properties":["id"]`, `"key_properties":`+keys, 1)
	}
	withW := strings.Replace(schemaLine, `"v":{"type":["null","string"]}`, `"v":{"type":["null","string"]},"w":{"type":["null","string"]}`, 1)
	activate := `{"type":"ACTIVATE_VERSION","stream":"s","version":2}`
	cases := []struct {
		name     string
		settings string
		before   []string // a run before, on the same engine
		lines    []string
		table    string
		col      string // the column whose values are checked, in row order
		want     string
		err      string // the run's error, when it fails
	}{
		{name: "fold by key, schema change, activate", settings: `{"batch_size_rows": 2, "max_parallelism": 2}`,
			lines: []string{schemaLine, schemaOf("u", `["id"]`),
				ownRec("s", 3, "a", "", 1), ownRec("u", 1, "x", "", 0), ownRec("s", 1, "b", "", 1), ownRec("s", 3, "c", "", 1),
				ownRec("u", 2, "y", "", 0), ownRec("s", 1, "", del, 1), ownRec("s", 2, "d", "", 1), ownRec("s", 2, "e", "", 1),
				withW, ownRec("s", 5, "f", "", 2), ownRec("s", 3, "g", "", 2), activate},
			table: "S", col: "V", want: "b:deleted,e:deleted,g,f"},
		{name: "append-only with hard deletes", settings: `{"batch_size_rows": 2, "max_parallelism": 2, "load_method": "append-only", "hard_delete": true}`,
			lines: []string{schemaLine, schemaOf("u", `["id"]`),
				ownRec("s", 1, "a", "", 0), ownRec("u", 1, "x", "", 0), ownRec("s", 1, "b", "", 0), ownRec("s", 1, "", del, 0),
				ownRec("s", 1, "c", "", 0), ownRec("s", 2, "d", "", 0), ownRec("u", 2, "y", "", 0)},
			table: "S", col: "V", want: "c,d"},
		{name: "keyless with hard_delete", settings: `{"batch_size_rows": 2, "max_parallelism": 2, "hard_delete": true}`,
			lines: []string{schemaOf("s", `[]`), schemaOf("u", `[]`),
				ownRec("s", 1, "a", "", 0), ownRec("u", 1, "x", "", 0), ownRec("s", 1, "", del, 0), ownRec("s", 2, "b", "", 0)},
			table: "S", col: "V", want: "a,:deleted,b"},
		{name: "upsert into a table without a primary key", settings: `{"batch_size_rows": 2, "max_parallelism": 2}`,
			before: []string{schemaLine, ownRec("s", 1, "a", "", 0)},
			lines:  []string{schemaLine, ownRec("s", 2, "b", "", 0), ownRec("s", 1, "c", "", 0), ownRec("s", 3, "d", "", 0)},
			table:  "S", col: "V", want: "c,b,d"},
		{name: "a key change on a table with rows", settings: `{"batch_size_rows": 2, "max_parallelism": 2}`,
			before: []string{schemaLine, ownRec("s", 1, "a", "", 0)},
			lines:  []string{schemaOf("s", `["v"]`), ownRec("s", 2, "b", "", 0)},
			table:  "S", col: "V", want: "a", err: "key_properties changed from [ID] to [V]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			if tc.before != nil {
				before := `{"load_method": "append-only"}` // its table has no primary key
				if tc.err != "" {
					before = ""
				}
				if _, err := run(t, eng, loadConfig(t, before), input(tc.before...)); err != nil {
					t.Fatal(err)
				}
			}
			_, err := run(t, eng, loadConfig(t, tc.settings), input(tc.lines...))
			if tc.err != "" {
				wantInputError(t, err, tc.err)
			} else if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range eng.Rows("DRY_RUN." + tc.table) {
				v := r[tc.col]
				if r["_SDC_DELETED_AT"] != "" {
					v += ":deleted"
				}
				got = append(got, v)
			}
			if g := strings.Join(got, ","); g != tc.want {
				t.Errorf("%s.%s: %s, want %s", tc.table, tc.col, g, tc.want)
			}
		})
	}
	t.Run("history", func(t *testing.T) {
		eng := newEngine()
		lines := []string{histSchema}
		for i := 1; i <= 6; i++ {
			// The same time_extracted for every version: each is moved
			// 1 µs past the one before (the once-per-stream log).
			lines = append(lines, histRec(i%2, fmt.Sprint("n", i), "", "2025-01-01T00:00:00Z", ""))
		}
		cfg := loadConfig(t, `{"batch_size_rows": 2, "max_parallelism": 2, "load_method": "history"}`)
		if _, err := run(t, eng, cfg, input(lines...)); err != nil {
			t.Fatal(err)
		}
		if n := len(eng.Rows("DRY_RUN.DIM")); n != 6 {
			t.Errorf("%d versions, want 6", n)
		}
	})
	t.Run("on_database_error reject", func(t *testing.T) {
		eng := rejectEngine(memory.Hooks{})
		reject := t.TempDir() + "/rejects.jsonl"
		cfg := loadConfig(t, fmt.Sprintf(`{"batch_size_rows": 3, "max_parallelism": 2, "on_database_error": "reject", "reject_path": %q, "validate_records": false}`, reject))
		lines := []string{rejectSchema, trec(1, "a", "n"), trec(2, "b", ""), trec(1, "c", "n"), trec(3, "d", "n")}
		if _, err := run(t, eng, cfg, input(lines...)); err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(tRows(eng), " "), "1:c:n 3:d:n"; got != want {
			t.Errorf("rows %s, want %s", got, want)
		}
		if r := readRejects(t, reject); len(r) != 1 || r[0].Line != 3 || !strings.Contains(r[0].Error, "ORA-01400") {
			t.Errorf("rejects %+v, want line 3 refused with ORA-01400", r)
		}
	})
}
