package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// adoptedT is a table a DBA made (SPEC §5.5): NOTE is NOT NULL, which no
// table the target creates has outside its key.
func adoptedT() *table.Table {
	return &table.Table{Schema: "DRY_RUN", Name: "T", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "NAME", Type: table.Type{Kind: table.KindVarchar, Length: 5, CharSemantics: true}, Nullable: true},
		{Name: "NOTE", Type: table.Type{Kind: table.KindVarchar, Length: 10, CharSemantics: true}},
	}}
}

const rejectSchema = `{"type":"SCHEMA","stream":"t","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},"name":{"type":["null","string"],"maxLength":5},"note":{"type":["null","string"],"maxLength":10}}}}`

// rejectEngine is the embedded engine on a catalog holding adoptedT.
func rejectEngine(hooks memory.Hooks) *memory.Engine {
	catalog := func(_ context.Context, schema, name string) (*table.Table, error) {
		if schema == "DRY_RUN" && name == "T" {
			return adoptedT(), nil
		}
		return nil, nil
	}
	return memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Catalog: catalog, Hooks: hooks})
}

func trec(id int, name, note string) string {
	v := func(s string) string {
		if s == "" {
			return "null"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf(`{"type":"RECORD","stream":"t","record":{"id":%d,"name":%s,"note":%s}}`, id, v(name), v(note))
}

// tRows renders the table's rows as "ID:NAME:NOTE".
func tRows(eng *memory.Engine) []string {
	var out []string
	for _, r := range eng.Rows("DRY_RUN.T") {
		out = append(out, r["ID"]+":"+r["NAME"]+":"+r["NOTE"])
	}
	return out
}

// rejectLine is one line of reject_path, decoded.
type rejectLine struct {
	Line   int64           `json:"line"`
	Stream string          `json:"stream"`
	Error  string          `json:"error"`
	Record json.RawMessage `json:"record"`
}

func readRejects(t *testing.T, path string) []rejectLine {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []rejectLine
	for _, l := range lines(string(b)) {
		var r rejectLine
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("reject line %q: %v", l, err)
		}
		out = append(out, r)
	}
	return out
}

// rejectSummary renders reject lines as "line:ORA-code:record".
func rejectSummary(rs []rejectLine) []string {
	var out []string
	for _, r := range rs {
		code, _, _ := strings.Cut(r.Error, ":")
		out = append(out, fmt.Sprintf("%d:%s:%s", r.Line, code, r.Record))
	}
	return out
}

// TestRejectRowsTheDatabaseRefuses: each rule of SPEC §6.3's
// on_database_error: reject on the embedded engine, with the table's
// rows, the reject file and the states exactly.
func TestRejectRowsTheDatabaseRefuses(t *testing.T) {
	state := `{"type":"STATE","value":{"n":1}}`
	refuse2291 := func(_ string, r engine.Row) error {
		if r.Values[2] == "orphan" {
			return &memory.OracleError{Code: 2291, Msg: "integrity constraint (DRY_RUN.T_FK) violated - parent key not found"}
		}
		return nil
	}
	cases := []struct {
		name     string
		settings string
		hooks    memory.Hooks
		in       []string
		rows     []string
		rejects  []string // line:code:record
		states   []string
		err      string
	}{
		{name: "NOT NULL on an adopted table, mid-batch",
			in:      []string{trec(1, "a", "x"), trec(2, "b", ""), trec(3, "c", "z"), state},
			rows:    []string{"1:a:x", "3:c:z"},
			rejects: []string{`3:ORA-01400:{"id":2,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "a one-row batch is rejected, not failed", settings: `"batch_size_rows": 1,`,
			in:      []string{trec(1, "a", "x"), trec(2, "b", ""), state, trec(3, "c", "z")},
			rows:    []string{"1:a:x", "3:c:z"},
			rejects: []string{`3:ORA-01400:{"id":2,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "the last record for a key refused: the previous one applies",
			in:      []string{trec(1, "a", "x"), trec(2, "b", "y"), trec(1, "A", ""), state},
			rows:    []string{"1:a:x", "2:b:y"},
			rejects: []string{`4:ORA-01400:{"id":1,"name":"A","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "the last two records for a key refused: the one before them applies",
			in:      []string{trec(1, "a", "x"), trec(1, "b", ""), trec(1, "c", ""), state},
			rows:    []string{"1:a:x"},
			rejects: []string{`3:ORA-01400:{"id":1,"name":"b","note":null}`, `4:ORA-01400:{"id":1,"name":"c","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "a refused intermediate record goes only to reject_path",
			in:      []string{trec(1, "a", "x"), trec(1, "b", ""), trec(1, "c", "z"), state},
			rows:    []string{"1:c:z"},
			rejects: []string{`3:ORA-01400:{"id":1,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "every record of a key refused: the key gets no row",
			in:      []string{trec(1, "a", ""), trec(1, "b", ""), trec(2, "c", "z"), state},
			rows:    []string{"2:c:z"},
			rejects: []string{`2:ORA-01400:{"id":1,"name":"a","note":null}`, `3:ORA-01400:{"id":1,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "ORA-00001 on append into a keyed table", settings: `"load_method": "append-only",`,
			in:      []string{trec(1, "a", "x"), trec(2, "b", "y"), trec(1, "c", "z"), state},
			rows:    []string{"1:a:x", "2:b:y"},
			rejects: []string{`4:ORA-00001:{"id":1,"name":"c","note":"z"}`},
			states:  []string{`{"n":1}`}},
		{name: "a value needing a widening schema_evolution forbids", settings: `"schema_evolution": "fail", "validate_records": false,`,
			in:      []string{trec(1, "abcdefg", "x"), trec(2, "b", "y"), state},
			rows:    []string{"2:b:y"},
			rejects: []string{`2:ORA-12899:{"id":1,"name":"abcdefg","note":"x"}`},
			states:  []string{`{"n":1}`}},
		{name: "the same value widens the column under schema_evolution widen", settings: `"validate_records": false,`,
			in:     []string{trec(1, "abcdefg", "x"), trec(2, "b", "y"), state},
			rows:   []string{"1:abcdefg:x", "2:b:y"},
			states: []string{`{"n":1}`}},
		{name: "a foreign key the database checks (ORA-02291)", hooks: memory.Hooks{Refuse: refuse2291},
			in:      []string{trec(1, "a", "x"), trec(2, "b", "orphan"), state},
			rows:    []string{"1:a:x"},
			rejects: []string{`3:ORA-02291:{"id":2,"name":"b","note":"orphan"}`},
			states:  []string{`{"n":1}`}},
		{name: "append-only: a refused record a later hard delete of its key supersedes is still rejected",
			settings: `"load_method": "append-only", "hard_delete": true,`, hooks: memory.Hooks{Refuse: refuse2291},
			in: []string{trec(1, "a", "x"), trec(2, "b", "orphan"),
				`{"type":"RECORD","stream":"t","record":{"id":2,"name":"b","note":null,"_sdc_deleted_at":"2024-01-01T00:00:00Z"}}`, trec(3, "c", "z"), state},
			rows:    []string{"1:a:x", "3:c:z"},
			rejects: []string{`3:ORA-02291:{"id":2,"name":"b","note":"orphan"}`},
			states:  []string{`{"n":1}`}},
		{name: "more than 16 refused rows fail the run naming the first", settings: `"batch_size_rows": 100,`,
			in: func() []string {
				var in []string
				in = append(in, trec(100, "ok", "x"), state)
				for i := 1; i <= 17; i++ {
					in = append(in, trec(i, "b", ""))
				}
				return append(in, `{"type":"STATE","value":{"n":2}}`)
			}(),
			states: []string{`{"n":1}`}[:0],
			err:    `refuses more than 16 rows of a batch of 18 records (on_database_error reject allows max(16, rows/100)); nothing of the batch is committed; the first: line 4: ORA-01400`},
		{name: "a statement-level error is not rejected", settings: `"batch_size_rows": 100,`,
			hooks: memory.Hooks{Load: func([]engine.Step) error { return &memory.OracleError{Code: 904, Msg: `"X": invalid identifier`} }},
			in:    []string{trec(1, "a", "x"), state},
			err:   "ORA-00904"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rejects.jsonl")
			eng := rejectEngine(tc.hooks)
			cfg := loadConfig(t, `{`+tc.settings+`"add_record_metadata": false, "on_database_error": "reject", "reject_path": "`+path+`"}`)
			states, err := run(t, eng, cfg, rejectSchema+"\n"+strings.Join(tc.in, "\n")+"\n")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
			} else if err != nil {
				t.Fatalf("run: %v", err)
			}
			if got := fmt.Sprint(tRows(eng)); got != fmt.Sprint(tc.rows) {
				t.Errorf("rows %s, want %s", got, fmt.Sprint(tc.rows))
			}
			if got := fmt.Sprint(rejectSummary(readRejects(t, path))); got != fmt.Sprint(tc.rejects) {
				t.Errorf("rejects %s\nwant    %s", got, fmt.Sprint(tc.rejects))
			}
			for _, r := range readRejects(t, path) {
				if r.Stream != "t" || !strings.HasPrefix(r.Error, "ORA-") {
					t.Errorf("reject line %+v", r)
				}
			}
			if fmt.Sprint(states) != fmt.Sprint(tc.states) {
				t.Errorf("states %q, want %q", states, tc.states)
			}
		})
	}
}

// TestRejectMergeDuplicateRetried: ORA-00001 from a MERGE (another
// pipeline inserted the key) is retried once in a fresh transaction and
// never rejected; a second one fails the run.
func TestRejectMergeDuplicateRetried(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fails int
		mode  string
		rows  []string
		err   string
	}{
		{"once, reject", 1, "reject", []string{"1:a:x"}, ""},
		{"once, fail", 1, "fail", []string{"1:a:x"}, ""},
		{"twice, reject", 2, "reject", nil, "ORA-00001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			hooks := memory.Hooks{Load: func([]engine.Step) error {
				if n++; n <= tc.fails {
					return &memory.OracleError{Code: 1, Msg: "unique constraint (DRY_RUN.T_PK) violated"}
				}
				return nil
			}}
			path := filepath.Join(t.TempDir(), "rejects.jsonl")
			eng := rejectEngine(hooks)
			cfg := loadConfig(t, `{"add_record_metadata": false, "on_database_error": "`+tc.mode+`", "reject_path": "`+path+`"}`)
			_, err := run(t, eng, cfg, rejectSchema+"\n"+trec(1, "a", "x")+"\n")
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("err %v, want %q", err, tc.err)
			}
			if fmt.Sprint(tRows(eng)) != fmt.Sprint(tc.rows) {
				t.Errorf("rows %v, want %v", tRows(eng), tc.rows)
			}
			if rs := readRejects(t, path); len(rs) != 0 {
				t.Errorf("rejected %v", rs)
			}
		})
	}
}

// stateProbe is a StateOut that, at each state line, reads the reject
// file: a state must never be written before the reject lines it covers.
type stateProbe struct {
	path    string
	rejects []int // reject lines on disk at each state line
	out     strings.Builder
}

func (s *stateProbe) Write(b []byte) (int, error) {
	data, _ := os.ReadFile(s.path)
	s.rejects = append(s.rejects, strings.Count(string(data), "\n"))
	return s.out.Write(b)
}

// TestRejectLinesBeforeStates: each state line comes after the reject
// lines of the records before it are in the file (synced by the tracker
// before the write), and the run ends with the warning naming the count.
func TestRejectLinesBeforeStates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rejects.jsonl")
	in := rejectSchema + "\n" + strings.Join([]string{
		trec(1, "a", ""), `{"type":"STATE","value":{"n":1}}`,
		trec(2, "b", "y"), trec(3, "c", ""), `{"type":"STATE","value":{"n":2}}`,
	}, "\n") + "\n"
	probe := &stateProbe{path: path}
	var logs strings.Builder
	cfg := loadConfig(t, `{"batch_size_rows": 1, "add_record_metadata": false, "on_database_error": "reject", "reject_path": "`+path+`"}`)
	eng := rejectEngine(memory.Hooks{})
	o := runOptions(cfg, eng, in, probe)
	o.Log = slog.New(slog.NewTextHandler(&logs, nil))
	err := pipeline.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if got := probe.out.String(); got != "{\"n\":1}\n{\"n\":2}\n" {
		t.Fatalf("states %q", got)
	}
	if fmt.Sprint(probe.rejects) != "[1 2]" {
		t.Errorf("reject lines on disk at each state: %v, want [1 2]", probe.rejects)
	}
	if !strings.Contains(logs.String(), "2 records the database refused were written to reject_path") {
		t.Errorf("no warning naming the count:\n%s", logs.String())
	}
	if fmt.Sprint(tRows(eng)) != "[2:b:y]" {
		t.Errorf("rows %v", tRows(eng))
	}
}

// TestRejectKeepsSoftDeleteFolds: a soft delete folded into the upsert
// before it, in a batch with a refused row, still applies to that upsert's
// values: building the batch's rows again must start from the records as
// read, not from the earlier record with the soft delete's metadata
// written into it (found by the simulation, seed 60).
func TestRejectKeepsSoftDeleteFolds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rejects.jsonl")
	refuse := func(_ string, r engine.Row) error {
		for _, v := range r.Values {
			if v == "~" {
				return &memory.OracleError{Code: 2290, Msg: "check constraint (DRY_RUN.V_CHECK) violated"}
			}
		}
		return nil
	}
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: memory.Hooks{Refuse: refuse}})
	in := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}
{"type":"RECORD","stream":"s","record":{"id":3,"v":"old"}}
{"type":"STATE","value":{"n":1}}
{"type":"RECORD","stream":"s","record":{"id":3,"v":"new"}}
{"type":"RECORD","stream":"s","record":{"id":3,"v":"gone","_sdc_deleted_at":"2024-09-07T05:00:00Z"}}
{"type":"RECORD","stream":"s","record":{"id":4,"v":"~"}}
{"type":"STATE","value":{"n":2}}
`
	cfg := loadConfig(t, `{"batch_size_rows": 3, "on_database_error": "reject", "reject_path": "`+path+`"}`)
	states, err := run(t, eng, cfg, in)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range eng.Rows("DRY_RUN.S") {
		got = append(got, r["ID"]+":"+r["V"]+":"+r["_SDC_DELETED_AT"])
	}
	if fmt.Sprint(got) != "[3:new:2024-09-07T05:00:00Z]" {
		t.Errorf("rows %v, want the upsert's values with the soft delete's stamp", got)
	}
	if fmt.Sprint(rejectSummary(readRejects(t, path))) != `[6:ORA-02290:{"id":4,"v":"~"}]` {
		t.Errorf("rejects %v", rejectSummary(readRejects(t, path)))
	}
	if fmt.Sprint(states) != `[{"n":1} {"n":2}]` {
		t.Errorf("states %v", states)
	}
}
