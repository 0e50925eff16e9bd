package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// dbaComment replaces the comment of table qualified by a DBA's text: it
// records no stream then.
func dbaComment(t *testing.T, eng *memory.Engine, qualified, text string) {
	t.Helper()
	tb := eng.Tables()[qualified]
	if tb == nil {
		t.Fatalf("no table %s", qualified)
	}
	tb = tb.Clone()
	tb.Streams, tb.Description = nil, text
	s, err := eng.Session(context.Background(), "dba")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Apply(context.Background(), engine.Change{Table: tb, Change: table.Change{Kind: table.RecordStreams}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := eng.Describe(context.Background(), tb.Schema, tb.Name); got == nil || got.Streams != nil {
		t.Fatalf("the comment still records streams: %+v", got)
	}
}

// Streams that table_name_mappings maps to one table share it whether or
// not the table's comment records them and whether or not they appear in
// this run: a run of a alone is refused ACTIVATE_VERSION, overwrite and
// truncate_before_load, and delete_missing prunes nothing, the messages
// naming b and why (the mapping). b's rows of an earlier run stay. A
// config sharer that loads the table in the same run lets an overwrite
// of the empty table pass, as a comment-recorded one of this run does
// not need to.
func TestConfigMappedStreamsShareTheTable(t *testing.T) {
	sch := func(s string) string {
		return `{"type":"SCHEMA","stream":"` + s + `","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`
	}
	rec := func(s string, id, version int) string {
		return fmt.Sprintf(`{"type":"RECORD","stream":%q,"record":{"id":%d},"version":%d}`, s, id, version)
	}
	const mapping = `"table_name_mappings":{"a":"T","b":"T"}`
	for _, c := range []struct {
		name, settings, in, want string
		run1                     string // run 1's settings ("": the mapping alone)
	}{
		{"activate_version", `{` + mapping + `,"hard_delete":true}`,
			input(sch("a"), rec("a", 2, 6), `{"type":"ACTIVATE_VERSION","stream":"a","version":6}`, state(2)),
			"ACTIVATE_VERSION 6 would delete the rows of stream(s) b too: table DRY_RUN.T holds several streams (table_name_mappings maps them to it: ", ""},
		{"overwrite", `{` + mapping + `,"stream_overrides":{"a":{"load_method":"overwrite"}}}`,
			input(sch("a"), rec("a", 2, 6), state(2)),
			"load_method overwrite would replace table DRY_RUN.T, which also holds the rows of stream(s) b (table_name_mappings maps them to it)", ""},
		{"truncate_before_load", `{` + mapping + `,"truncate_before_load":true}`,
			input(sch("a"), rec("a", 2, 6), state(2)),
			"truncate_before_load would truncate table DRY_RUN.T, which also holds the rows of stream(s) b (table_name_mappings maps them to it)", ""},
		{"delete_missing", `{` + mapping + `,"stream_overrides":{"a":{"delete_missing":"hard"}},"delete_missing_max_fraction":1}`,
			input(sch("a"), rec("a", 2, 6), state(2)), "", `{` + mapping + `,"delete_missing":"hard","delete_missing_max_fraction":1}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng := newEngine()
			// Run 1: b alone (its rows are in T, the comment names b).
			run1 := c.run1
			if run1 == "" {
				run1 = `{` + mapping + `}`
			}
			if _, err := run(t, eng, loadConfig(t, run1), input(sch("b"), rec("b", 11, 5), state(1))); err != nil {
				t.Fatal(err)
			}
			// A DBA replaces the comment: it records no stream now.
			dbaComment(t, eng, "DRY_RUN.T", "orders of both shops")
			states, err := run(t, eng, loadConfig(t, c.settings), c.in)
			if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Errorf("run 2: states %v, err %v; want %q", states, err, c.want)
			}
			if c.want == "" && err != nil {
				t.Errorf("run 2: %v", err)
			}
			found := false
			for _, r := range eng.Rows("DRY_RUN.T") {
				found = found || r["ID"] == "11" && r["_SDC_DELETED_AT"] == ""
			}
			if !found {
				t.Errorf("run 2 took b's row 11: rows %v", eng.Rows("DRY_RUN.T"))
			}
		})
	}
	// Both streams in one run on a new table: the overwrite passes.
	eng := newEngine()
	cfg := loadConfig(t, `{`+mapping+`,"stream_overrides":{"a":{"load_method":"overwrite"}}}`)
	if _, err := run(t, eng, cfg, input(sch("a"), sch("b"), rec("a", 1, 5), rec("b", 11, 5), state(1))); err != nil {
		t.Fatalf("a and b in one run: %v", err)
	}
	if n := len(eng.Rows("DRY_RUN.T")); n != 2 {
		t.Errorf("a and b in one run: %d rows, want 2", n)
	}
}
