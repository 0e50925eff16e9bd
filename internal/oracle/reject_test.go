package oracle_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// rejectDDL is a DBA's table: NOTE is NOT NULL, NAME holds 5 characters.
const rejectDDL = `CREATE TABLE "DRY_RUN"."T" ("ID" NUMBER(38,0) NOT NULL, "NAME" VARCHAR2(5 CHAR), ` +
	`"NOTE" VARCHAR2(10 CHAR) NOT NULL, CONSTRAINT "T_PK" PRIMARY KEY ("ID"))`

const rejectSchemaMsg = `{"type":"SCHEMA","stream":"t","key_properties":["id"],"schema":{"type":"object","properties":{` +
	`"id":{"type":"integer"},"name":{"type":["null","string"],"maxLength":5},"note":{"type":["null","string"],"maxLength":10}}}}`

func rejectRec(id int, name, note string) string {
	v := func(s string) string {
		if s == "" {
			return "null"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf(`{"type":"RECORD","stream":"t","record":{"id":%d,"name":%s,"note":%s}}`, id, v(name), v(note))
}

// rejectLines renders reject_path as "line:ORA-code:record" lines.
func rejectLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		var r struct {
			Line   int64           `json:"line"`
			Stream string          `json:"stream"`
			Error  string          `json:"error"`
			Record json.RawMessage `json:"record"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.Stream != "t" {
			t.Fatalf("reject line %q: %v", l, err)
		}
		code, _, _ := strings.Cut(r.Error, ":")
		out = append(out, fmt.Sprintf("%d:%s:%s", r.Line, code, r.Record))
	}
	return out
}

// TestRejectOnTheFake: on_database_error: reject through the Oracle
// engine on the fake server: the server's own refusals (NOT NULL, a
// duplicate key on INSERT), one injected (ORA-02291), a widening the
// policy forbids, the dedupe fallback, a one-row batch, the limit, and
// ORA-00001 from a MERGE retried.
func TestRejectOnTheFake(t *testing.T) {
	state := `{"type":"STATE","value":{"n":1}}`
	cases := []struct {
		name     string
		settings string
		faults   []fake.Fault
		in       []string
		rows     []string // ID:NAME:NOTE
		rejects  []string
		states   []string
		err      string
	}{
		{name: "NOT NULL mid-batch",
			in:      []string{rejectRec(1, "a", "x"), rejectRec(2, "b", ""), rejectRec(3, "c", "z"), state},
			rows:    []string{"1:a:x", "3:c:z"},
			rejects: []string{`3:ORA-01400:{"id":2,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "a one-row batch", settings: `"batch_size_rows": 1,`,
			in:      []string{rejectRec(1, "a", ""), state},
			rejects: []string{`2:ORA-01400:{"id":1,"name":"a","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "the last record for a key refused: the previous one applies",
			in:      []string{rejectRec(1, "a", "x"), rejectRec(1, "b", ""), state},
			rows:    []string{"1:a:x"},
			rejects: []string{`3:ORA-01400:{"id":1,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "a refused intermediate record only in reject_path",
			in:      []string{rejectRec(1, "a", "x"), rejectRec(1, "b", ""), rejectRec(1, "c", "z"), state},
			rows:    []string{"1:c:z"},
			rejects: []string{`3:ORA-01400:{"id":1,"name":"b","note":null}`},
			states:  []string{`{"n":1}`}},
		{name: "ORA-00001 on INSERT", settings: `"load_method": "append-only",`,
			in:      []string{rejectRec(1, "a", "x"), rejectRec(1, "b", "y"), state},
			rows:    []string{"1:a:x"},
			rejects: []string{`3:ORA-00001:{"id":1,"name":"b","note":"y"}`},
			states:  []string{`{"n":1}`}},
		{name: "ORA-02291 of one record", faults: []fake.Fault{{Op: fake.OpMerge, Code: 2291, Match: "orphan", Times: 1000}},
			in:      []string{rejectRec(1, "a", "x"), rejectRec(2, "b", "orphan"), state},
			rows:    []string{"1:a:x"},
			rejects: []string{`3:ORA-02291:{"id":2,"name":"b","note":"orphan"}`},
			states:  []string{`{"n":1}`}},
		{name: "a value needing a widening schema_evolution forbids", settings: `"schema_evolution": "fail", "validate_records": false,`,
			in:      []string{rejectRec(1, "abcdefg", "x"), rejectRec(2, "b", "y"), state},
			rows:    []string{"2:b:y"},
			rejects: []string{`2:ORA-12899:{"id":1,"name":"abcdefg","note":"x"}`},
			states:  []string{`{"n":1}`}},
		{name: "ORA-00001 from a MERGE is retried once", faults: []fake.Fault{{Op: fake.OpMerge, Code: 1}},
			in:     []string{rejectRec(1, "a", "x"), state},
			rows:   []string{"1:a:x"},
			states: []string{`{"n":1}`}},
		{name: "ORA-00001 from a MERGE twice fails", faults: []fake.Fault{{Op: fake.OpMerge, Code: 1, Times: 100}},
			in:  []string{rejectRec(1, "a", "x"), state},
			err: "ORA-00001"},
		{name: "more than 16 refused rows fail the run",
			in: func() []string {
				var in []string
				for i := 1; i <= 17; i++ {
					in = append(in, rejectRec(i, "b", ""))
				}
				return append(in, state)
			}(),
			err: "refuses more than 16 rows of a batch of 17 records"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := defaultRig(t)
			if _, err := r.db.Exec(oraclesql.Statement{SQL: rejectDDL, Kind: oraclesql.KindDDL}); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.faults {
				r.db.Inject(f)
			}
			path := filepath.Join(t.TempDir(), "rejects.jsonl")
			settings := `{` + tc.settings + `"max_parallelism": 1, "add_record_metadata": false, "on_database_error": "reject", "reject_path": "` + path + `"}`
			states, err := run(t, r.eng, settings, rejectSchemaMsg+"\n"+strings.Join(tc.in, "\n")+"\n")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
			} else if err != nil {
				t.Fatalf("run: %v", err)
			}
			var rows []string
			for _, row := range r.db.Rows("DRY_RUN.T") {
				rows = append(rows, row["ID"]+":"+row["NAME"]+":"+row["NOTE"])
			}
			if fmt.Sprint(rows) != fmt.Sprint(tc.rows) {
				t.Errorf("rows %v, want %v", rows, tc.rows)
			}
			if got := rejectLines(t, path); fmt.Sprint(got) != fmt.Sprint(tc.rejects) {
				t.Errorf("rejects %v\nwant    %v", got, tc.rejects)
			}
			if fmt.Sprint(states) != fmt.Sprint(tc.states) {
				t.Errorf("states %q, want %q", states, tc.states)
			}
		})
	}
}
