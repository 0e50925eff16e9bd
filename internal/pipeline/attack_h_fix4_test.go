package pipeline_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
)

// TestAttackRefusalInAMixedBatchNamesNoInput: input streams s1 and s2
// aliased into s0 (stream maps) fill one batch; the database refuses s2's
// row (ORA-02290 on line 4): the error named no input stream (`load
// DRY_RUN.S0: DRY_RUN.S0: input line 4: ORA-02290: …`), though line 4 is
// a record of s2 and no stream "s0" is in the input. Now it names the
// refused row's input stream, or, when the engine does not say which row
// (a failure of the whole batch), every input stream of the batch.
func TestAttackRefusalInAMixedBatchNamesNoInput(t *testing.T) {
	// was: t.Skip("finding: a database refusal of a row in a batch mixed from several aliased inputs names no input stream")
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
	batch := func([]engine.Step) error {
		return &memory.OracleError{Code: 1653, Msg: "unable to extend table DRY_RUN.S0 by 128 in tablespace USERS"}
	}
	both := `{"stream_maps":{"s1":{"__alias__":"s0"},"s2":{"__alias__":"s0"}}}`
	for _, tc := range []struct {
		name  string
		hooks memory.Hooks
		in    []string
		want  string
	}{
		{"the refused row's input", memory.Hooks{Refuse: refuse},
			[]string{sch("s1"), sch("s2"), rec("s1", 1, "a"), rec("s2", 2, "~"), rec("s1", 3, "b")},
			`load DRY_RUN.S0: stream "s2" (output "s0"): DRY_RUN.S0: input line 4: ORA-02290: check constraint (DRY_RUN.V_CHECK) violated`},
		{"the refused row's input, the first", memory.Hooks{Refuse: refuse},
			[]string{sch("s1"), sch("s2"), rec("s1", 1, "~"), rec("s2", 2, "a")},
			`load DRY_RUN.S0: stream "s1" (output "s0"): DRY_RUN.S0: input line 3: ORA-02290: check constraint (DRY_RUN.V_CHECK) violated`},
		{"no row known: every input", memory.Hooks{Load: batch},
			[]string{sch("s1"), sch("s2"), rec("s1", 1, "a"), rec("s2", 2, "b")},
			`load DRY_RUN.S0: streams "s1", "s2" (output "s0"): ORA-01653: unable to extend table DRY_RUN.S0 by 128 in tablespace USERS`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: tc.hooks})
			_, err := run(t, eng, loadConfig(t, both), input(append(tc.in, state(1))...))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}

// TestAttackRunIDPropertyRefusedOnTheSecondRun: with column_comments
// false and delete_missing, a stream with a property named _sdc_run_id
// loads on the first run (the property gets a column of another name, the
// metadata column _SDC_RUN_ID its own), and the second run of the same
// config and input is refused (exit 2, `column _SDC_RUN_ID of table
// DRY_RUN.S holds property "_sdc_run_id"`): without comments the property
// was matched to the metadata column by its expected name, and the
// metadata name check took that for a property column.
func TestAttackRunIDPropertyRefusedOnTheSecondRun(t *testing.T) {
	// was: t.Skip("finding: column_comments false + delete_missing: a property _sdc_run_id is refused on the second run of the same input")
	in := input(`{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"},"_sdc_run_id":{"type":["null","string"]}}},"key_properties":["id"]}`,
		`{"type":"RECORD","stream":"s","record":{"id":1,"_sdc_run_id":"mine"}}`, state(1))
	for _, settings := range []string{`{"column_comments":false,"delete_missing":"soft"}`, `{"column_comments":false,"delete_missing":"hard"}`, `{"delete_missing":"soft"}`} {
		cfg := loadConfig(t, settings)
		eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, NoColumnComments: !cfg.ColumnComments})
		var cols []string
		for n := 1; n <= 3; n++ {
			states, err := run(t, eng, cfg, in)
			if err != nil || len(states) != 1 {
				t.Fatalf("%s: run %d: states %v, err %v", settings, n, states, err)
			}
			var now []string
			for _, c := range eng.Tables()["DRY_RUN.S"].Columns {
				now = append(now, c.Name)
			}
			if n > 1 && strings.Join(now, ",") != strings.Join(cols, ",") {
				t.Errorf("%s: run %d: columns %v, run 1 had %v", settings, n, now, cols)
			}
			cols = now
		}
		rows := eng.Rows("DRY_RUN.S")
		if len(rows) != 1 {
			t.Fatalf("%s: rows %v", settings, rows)
		}
		found := false
		for k, v := range rows[0] {
			found = found || (v == "mine" && k != "_SDC_RUN_ID")
		}
		if !found {
			t.Errorf("%s: row %v: the property's value is not in a column of its own", settings, rows[0])
		}
	}
	// Still refused: a table whose _SDC_RUN_ID holds the property (loaded
	// while delete_missing was off), without comments as with them.
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, NoColumnComments: true})
	if _, err := run(t, eng, loadConfig(t, `{"column_comments":false}`), in); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, eng, loadConfig(t, `{"column_comments":false,"delete_missing":"soft"}`), in)
	if err == nil || !strings.Contains(err.Error(), `column _SDC_RUN_ID of table DRY_RUN.S holds property "_sdc_run_id"`) {
		t.Errorf("delete_missing on a table whose _SDC_RUN_ID holds the property: err %v, want the refusal", err)
	}
}

// TestAttackActivateVersionRefusalListsTheSender: input streams a and b
// aliased into o (stream maps); a's ACTIVATE_VERSION is refused, as it
// would delete b's rows, but the message listed a itself among the
// streams whose rows would go ("would delete the rows of stream(s) a, b
// too"): the sending input was not known when the refusal's list was
// made (onActivateVersion left mapInput unset). Only the others are
// listed now, and the refusal names the sender as a record's errors do:
// `line 7: stream "a" (output "o"): ACTIVATE_VERSION 5 would delete …`.
func TestAttackActivateVersionRefusalListsTheSender(t *testing.T) {
	// was: t.Skip("finding: the ACTIVATE_VERSION refusal of an aliased output lists the sending input among the other inputs")
	sch := func(s string) string {
		return `{"type":"SCHEMA","stream":"` + s + `","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	}
	rec := func(s string, id int) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d},"version":5}`, s, id)
	}
	for _, c := range []struct{ maps, want string }{
		{`{"a":{"__alias__":"o"},"b":{"__alias__":"o"}}`, "would delete the rows of stream(s) b too"},
		{`{"a":{"__alias__":"o"},"b":{"__alias__":"o"},"c":{"__alias__":"o"}}`, "would delete the rows of stream(s) b, c too"},
	} {
		in := input(sch("a"), sch("b"), sch("c"), rec("a", 1), rec("b", 2), rec("c", 3), `{"type":"ACTIVATE_VERSION","stream":"a","version":5}`, state(1))
		eng := newEngine()
		_, err := run(t, eng, loadConfig(t, `{"stream_maps":`+c.maps+`}`), in)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), `line 7: stream "a" (output "o"): ACTIVATE_VERSION 5`) {
			t.Errorf("%s: err %v, want %q", c.maps, err, c.want)
		}
		if n := len(eng.Rows("DRY_RUN.O")); n < 2 {
			t.Errorf("%s: %d rows left", c.maps, n)
		}
	}
}

// TestAttackAliasedInputConvertedByTheOtherInputsType (finding, valid
// records refused): input streams a (v string) and b (v integer) aliased
// into o. Each record is validated against its own input's schema now,
// and the column V is VARCHAR2 (the join of both), but the conversion
// follows the output stream's schema, where the SCHEMA handled last
// (b's integer) defines v: a's record {"id":1,"v":"abc"}, valid for a and
// storable in V, is refused, exit 3: `line 3: stream "a" (output "o"):
// property "v": invalid number "abc": expected a JSON number`. A clear
// error naming the input and the property (nothing truncated), but
// refusal of valid input; the fix needs a conversion per input (a layout
// per feed) or a joined property definition.
func TestAttackAliasedInputConvertedByTheOtherInputsType(t *testing.T) {
	// was: t.Skip(`finding: a record of an aliased input is converted by another input's (integer) definition of a property: a valid string value is refused ("invalid number")`)
	sch := func(s, typ string) string {
		return `{"type":"SCHEMA","stream":"` + s + `","schema":{"properties":{"id":{"type":"integer"},"v":{"type":["null","` + typ + `"]}}},"key_properties":["id"]}`
	}
	in := input(sch("a", "string"), sch("b", "integer"), `{"type":"RECORD","stream":"a","record":{"id":1,"v":"abc"}}`, state(1))
	eng := newEngine()
	_, err := run(t, eng, loadConfig(t, `{"stream_maps":{"a":{"__alias__":"o"},"b":{"__alias__":"o"}}}`), in)
	if rows := eng.Rows("DRY_RUN.O"); err != nil || len(rows) != 1 || rows[0]["V"] != "abc" {
		t.Errorf("err %v, rows %v: a's valid record was not loaded", err, rows)
	}
}
