package pipeline_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// Errors found when a batch of a stream mapped from other input streams
// (__alias__) is flushed name the input stream of the row at fault, with
// the output beside it, as that record's own errors do: `line 5: stream
// "s2" (output "s0"): …` (inputrows.go). Before, they named the output
// stream only (`line 5: stream "s0": …`, where line 5 says "s2"), and a
// row the engine refused named no stream at all. The engine's error names
// the refused row's input too (engine.ErrorLine), in a batch of one input
// or of several (TestAttackRefusalInAMixedBatchNamesNoInput).
func TestFlushErrorsNameTheInputStream(t *testing.T) {
	sch := func(s string) string {
		return `{"type":"SCHEMA","stream":"` + s + `","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`
	}
	rec := func(s string, id int, v string) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d,"v":%q}}`, s, id, v)
	}
	refuse := func(_ string, r engine.Row) error {
		for _, v := range r.Values {
			if v == "~" {
				return &memory.OracleError{Code: 2290, Msg: "check constraint (DRY_RUN.V_CHECK) violated"}
			}
		}
		return nil
	}
	both := `"stream_maps":{"s1":{"__alias__":"s0"},"s2":{"__alias__":"s0"}}`
	long := strings.Repeat("x", 5000)
	var many []string // 17 refused rows, more than reject allows
	for i := 0; i < 17; i++ {
		many = append(many, rec([]string{"s1", "s2"}[i%2], 10+i, "~"))
	}
	for _, tc := range []struct {
		name, settings string
		in             []string
		want           string
	}{
		{"a row the engine refuses, one input", `{"stream_maps":{"s2":{"__alias__":"s0"}}}`,
			[]string{sch("s1"), sch("s2"), rec("s1", 1, "a"), rec("s2", 2, "~")},
			`load DRY_RUN.S0: stream "s2" (output "s0"): DRY_RUN.S0: input line 4: ORA-02290: check constraint (DRY_RUN.V_CHECK) violated`},
		{"a row the engine refuses, two inputs", `{` + both + `}`,
			[]string{sch("s1"), sch("s2"), rec("s1", 1, "a"), rec("s2", 2, "~")},
			`load DRY_RUN.S0: stream "s2" (output "s0"): DRY_RUN.S0: input line 4: ORA-02290: check constraint (DRY_RUN.V_CHECK) violated`},
		{"schema_evolution refusal", `{"schema_evolution":"fail",` + both + `}`,
			[]string{sch("s1"), sch("s2"), rec("s1", 1, "a"), rec("s1", 2, "b"), rec("s2", 3, long)},
			`line 5: stream "s2" (output "s0"): table DRY_RUN.S0 needs changes that schema_evolution "fail" does not allow:` + "\n" +
				`  ALTER TABLE DRY_RUN.S0 rewrite "V" from VARCHAR2(4000 BYTE) to CLOB (add, copy, drop, rename)`},
		{"too many refused rows", `{"on_database_error":"reject","reject_path":"REJECTS",` + both + `}`,
			append([]string{sch("s1"), sch("s2"), rec("s1", 1, "a")}, many...),
			`load DRY_RUN.S0: stream "s0": the database refuses more than 16 rows of a batch of 18 records (on_database_error reject allows max(16, rows/100)); nothing of the batch is committed; the first: ` +
				`line 4: stream "s1" (output "s0"): ORA-02290: check constraint (DRY_RUN.V_CHECK) violated; line 5: stream "s2" (output "s0"): ORA-02290: check constraint (DRY_RUN.V_CHECK) violated; ` +
				`line 6: stream "s1" (output "s0"): ORA-02290: check constraint (DRY_RUN.V_CHECK) violated; line 7: stream "s2" (output "s0"): ORA-02290: check constraint (DRY_RUN.V_CHECK) violated; ` +
				`line 8: stream "s1" (output "s0"): ORA-02290: check constraint (DRY_RUN.V_CHECK) violated`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: memory.Hooks{Refuse: refuse}})
			settings := strings.Replace(tc.settings, "REJECTS", t.TempDir()+"/rejects.jsonl", 1)
			states, err := run(t, eng, loadConfig(t, settings), input(append(tc.in, state(1))...))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error\n%v\nwant\n%s", err, tc.want)
			}
			if len(states) != 0 {
				t.Errorf("states %q, want none", states)
			}
		})
	}
}

// A SCHEMA of an input stream mapped into another (__alias__) is checked
// as the output stream's: its errors name the input stream, as the
// SCHEMA's line does, with the output beside it, both those found at once
// and those the database decides (a key change on a table with rows).
// Before, they named the output stream only.
func TestSchemaErrorsNameTheInputStream(t *testing.T) {
	sch := func(keys string) string {
		return `{"type":"SCHEMA","stream":"s2","key_properties":` + keys + `,"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`
	}
	alias := `"stream_maps":{"s2":{"__alias__":"s0"}}`
	for _, tc := range []struct {
		name, settings string
		in             []string
		want           string
	}{
		{"keys required", `{"primary_key_required":true,` + alias + `}`, []string{sch(`[]`)},
			`line 1: stream "s2" (output "s0"): key_properties are required (primary_key_required is true)`},
		{"key change on a table with rows", `{` + alias + `}`,
			[]string{sch(`["id"]`), `{"type":"RECORD","stream":"s2","record":{"id":1}}`, state(1), sch(`[]`)},
			`line 4: stream "s2" (output "s0"): key_properties changed from [ID] to [], but table DRY_RUN.S0 has rows and its primary key is not changed automatically. ` +
				`To change it by hand: run ALTER TABLE "DRY_RUN"."S0" DROP PRIMARY KEY; and run the load again. Or load the stream into a new table (table_name_mappings) from a full refresh. See docs/types.md.`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := run(t, newEngine(), loadConfig(t, tc.settings), input(tc.in...))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}
