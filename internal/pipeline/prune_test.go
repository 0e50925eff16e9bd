package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// Run ids of the two runs of each prune test.
var (
	runOne = strings.Repeat("1", 32)
	runTwo = strings.Repeat("2", 32)
)

const pruneSchema = `{"type":"SCHEMA","stream":"users","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}}`

func pruneRec(id int, name string) string {
	return fmt.Sprintf(`{"type":"RECORD","stream":"users","record":{"id":%d,"name":%q}}`, id, name)
}

func pruneState(n int) string { return fmt.Sprintf(`{"type":"STATE","value":{"n":%d}}`, n) }

// pruneRun is one run on the store at path with the given run id.
type pruneRun struct {
	states []string
	err    error
	eng    *memory.Engine
}

func runOnStore(t *testing.T, path, settings, runID string, stop chan struct{}, hooks memory.Hooks, in ...string) pruneRun {
	t.Helper()
	eng, err := memory.Open(memory.Options{StorePath: path, Now: func() time.Time { return fixedNow }, Hooks: hooks,
		Render: oraclesql.New(oraclesql.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	o := runOptions(loadConfig(t, settings), eng, input(in...), &out)
	o.Stop, o.RunID = stop, runID
	err = pipeline.Run(context.Background(), o)
	return pruneRun{states: lines(out.String()), err: err, eng: eng}
}

// userRows is the table as ID, NAME, _SDC_DELETED_AT and _SDC_RUN_ID per row.
func userRows(eng *memory.Engine) [][4]string {
	var out [][4]string
	for _, r := range eng.Rows("DRY_RUN.USERS") {
		out = append(out, [4]string{r["ID"], r["NAME"], r["_SDC_DELETED_AT"], r["_SDC_RUN_ID"]})
	}
	return out
}

const at = "2025-06-01T12:00:00Z" // fixedNow as the prune stamps it

// firstRun loads ids 1, 2, 3 with run id runOne and checks the table.
func firstRun(t *testing.T, path, settings string) {
	t.Helper()
	r := runOnStore(t, path, settings, runOne, nil, memory.Hooks{}, pruneSchema, pruneRec(1, "a"), pruneRec(2, "b"), pruneRec(3, "c"), pruneState(1))
	if r.err != nil {
		t.Fatalf("first run: %v", r.err)
	}
	want := [][4]string{{"1", "a", "", runOne}, {"2", "b", "", runOne}, {"3", "c", "", runOne}}
	if got := userRows(r.eng); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the first run:\n got %q\nwant %q", got, want)
	}
}

// TestDeleteMissingPrunesAcrossRuns: two runs share a store; the second
// sends ids 1 and 3 only, so row 2 is soft-deleted (its values kept) or
// deleted. States are held until the end: only the last one is written,
// after the prune.
func TestDeleteMissingPrunesAcrossRuns(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want [][4]string
	}{
		{"soft", [][4]string{{"1", "a2", "", runTwo}, {"2", "b", at, runOne}, {"3", "c2", "", runTwo}}},
		{"hard", [][4]string{{"1", "a2", "", runTwo}, {"3", "c2", "", runTwo}}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "store.json")
			settings := fmt.Sprintf(`{"delete_missing":%q,"batch_size_rows":1}`, tc.mode)
			firstRun(t, path, settings)
			r := runOnStore(t, path, settings, runTwo, nil, memory.Hooks{}, pruneSchema, pruneRec(1, "a2"), pruneState(2), pruneRec(3, "c2"), pruneState(3))
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := userRows(r.eng); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("after the second run:\n got %q\nwant %q", got, tc.want)
			}
			if want := []string{`{"n":3}`}; !reflect.DeepEqual(r.states, want) {
				t.Errorf("states %q, want %q (held until the end of input)", r.states, want)
			}
			sql := strings.Join(r.eng.Statements(), "\n")
			wantSQL := `UPDATE "DRY_RUN"."USERS" SET "_SDC_DELETED_AT" = TO_TIMESTAMP_TZ(:1, 'YYYY-MM-DD"T"HH24:MI:SS.FF9 TZH:TZM') WHERE ("_SDC_RUN_ID" <> :2 OR "_SDC_RUN_ID" IS NULL) AND "_SDC_DELETED_AT" IS NULL`
			if tc.mode == "hard" {
				wantSQL = `DELETE FROM "DRY_RUN"."USERS" WHERE ("_SDC_RUN_ID" <> :1 OR "_SDC_RUN_ID" IS NULL)`
			}
			if strings.Count(sql, wantSQL) != 1 {
				t.Errorf("statements do not hold the prune once:\n%s", sql)
			}
		})
	}
}

// TestDeleteMissingGuards: a second run that fails, is signalled, sends no
// record, ends without a STATE after its last RECORD, or sent
// ACTIVATE_VERSION prunes nothing; above the fraction it fails (exit 1
// with the counts) and prunes nothing. Each starts from the first run's
// three rows.
func TestDeleteMissingGuards(t *testing.T) {
	unchanged := [][4]string{{"1", "a", "", runOne}, {"2", "b", "", runOne}, {"3", "c", "", runOne}}
	loadFails := errors.New("injected load failure")
	for _, tc := range []struct {
		name     string
		settings string
		lines    []string
		hooks    func(stop chan struct{}) memory.Hooks
		wantErr  func(error) bool
		want     [][4]string
		states   []string
	}{
		{
			name:  "failure",
			lines: []string{pruneSchema, pruneRec(1, "a2"), pruneState(2), pruneRec(3, "c2"), pruneState(3)},
			hooks: func(chan struct{}) memory.Hooks {
				n := 0
				return memory.Hooks{Load: func([]engine.Step) error {
					if n++; n == 2 {
						return loadFails
					}
					return nil
				}}
			},
			wantErr: func(err error) bool { return errors.Is(err, loadFails) },
			want:    [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runOne}, {"3", "c", "", runOne}},
		},
		{
			name:     "invalid record",
			settings: `"on_invalid_record":"fail",`,
			lines:    []string{pruneSchema, pruneRec(1, "a2"), pruneState(2), `{"type":"RECORD","stream":"users","record":{"id":3,"name":7}}`, pruneState(3)},
			wantErr:  func(err error) bool { var ie *inputerr.Error; return errors.As(err, &ie) },
			want:     [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runOne}, {"3", "c", "", runOne}},
		},
		{
			name:  "signal",
			lines: []string{pruneSchema, pruneRec(1, "a2"), pruneRec(3, "c2"), pruneState(3)},
			hooks: func(stop chan struct{}) memory.Hooks {
				once := false
				return memory.Hooks{Load: func([]engine.Step) error {
					if !once {
						once = true
						close(stop) // SIGTERM while the first batch loads
					}
					return nil
				}}
			},
			wantErr: func(err error) bool { return err == nil || errors.Is(err, pipeline.ErrStopped) },
			want:    [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runOne}, {"3", "c2", "", runTwo}},
			// The signal may come before or after the reader saw EOF:
			// before, the states stay held (as for overwrite); after, the
			// final state is true (every record committed) and is written.
			// Either way nothing is pruned.
			states: []string{"either"},
		},
		{
			name:   "empty stream",
			lines:  []string{pruneSchema, pruneState(2)},
			want:   unchanged,
			states: []string{`{"n":2}`},
		},
		{
			name:   "no final state",
			lines:  []string{pruneSchema, pruneRec(1, "a2"), pruneState(2), pruneRec(3, "c2")},
			want:   [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runOne}, {"3", "c2", "", runTwo}},
			states: []string{`{"n":2}`},
		},
		{
			name: "activate version",
			lines: []string{pruneSchema, `{"type":"ACTIVATE_VERSION","stream":"users","version":5}`,
				`{"type":"RECORD","stream":"users","version":5,"record":{"id":1,"name":"a2"}}`,
				`{"type":"RECORD","stream":"users","version":5,"record":{"id":3,"name":"c2"}}`, pruneState(3)},
			// The version cleanup marked the old rows (hard_delete is
			// false); the hard prune would have removed row 2.
			want:   [][4]string{{"1", "a2", "", runTwo}, {"2", "b", at, runOne}, {"3", "c2", "", runTwo}},
			states: []string{`{"n":3}`},
		},
		{
			name:  "fraction",
			lines: []string{pruneSchema, pruneRec(1, "a2"), pruneState(2)},
			wantErr: func(err error) bool {
				var pe *engine.PruneRefusedError
				return errors.As(err, &pe) && pe.Prune == 2 && pe.Total == 3
			},
			want: [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runOne}, {"3", "c", "", runOne}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "store.json")
			settings := `{` + tc.settings + `"delete_missing":"hard","batch_size_rows":1}`
			firstRun(t, path, settings)
			stop := make(chan struct{})
			var hooks memory.Hooks
			if tc.hooks != nil {
				hooks = tc.hooks(stop)
			}
			r := runOnStore(t, path, settings, runTwo, stop, hooks, tc.lines...)
			switch {
			case tc.wantErr == nil && r.err != nil:
				t.Fatalf("error %v", r.err)
			case tc.wantErr != nil && !tc.wantErr(r.err):
				t.Fatalf("error %v: not the one expected", r.err)
			}
			if got := userRows(r.eng); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rows:\n got %q\nwant %q", got, tc.want)
			}
			if reflect.DeepEqual(tc.states, []string{"either"}) && (r.states == nil || reflect.DeepEqual(r.states, []string{`{"n":3}`})) {
				// both outcomes are right
			} else if !reflect.DeepEqual(r.states, tc.states) {
				t.Errorf("states %q, want %q", r.states, tc.states)
			}
			if strings.Contains(strings.Join(r.eng.Statements(), "\n"), `"_SDC_RUN_ID" <>`) {
				t.Errorf("a prune statement ran:\n%s", strings.Join(r.eng.Statements(), "\n"))
			}
		})
	}
}

// TestDeleteMissingFractionErrorNamesTheCounts: the refusal says how many
// rows of how many, and the setting to look at.
func TestDeleteMissingFractionErrorNamesTheCounts(t *testing.T) {
	err := (&engine.PruneRefusedError{Table: "DRY_RUN.USERS", Prune: 2, Total: 3, MaxFraction: 0.5}).Error()
	for _, want := range []string{"DRY_RUN.USERS", "2 of its 3 rows", "delete_missing_max_fraction 0.5", "nothing was pruned"} {
		if !strings.Contains(err, want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestDeleteMissingKeepsRefusedKeys: a record on_invalid_record skipped or
// rejected keeps its row (marked with the run id, values unchanged); a
// refused record whose key cannot be read prunes nothing; a record a
// stream-map __filter__ drops counts as not written.
func TestDeleteMissingKeepsRefusedKeys(t *testing.T) {
	bad := func(id string) string {
		return `{"type":"RECORD","stream":"users","record":{"id":` + id + `,"name":7}}`
	}
	for _, tc := range []struct {
		name     string
		settings string
		lines    []string
		want     [][4]string
	}{
		{
			name:     "skip",
			settings: `"on_invalid_record":"skip",`,
			lines:    []string{pruneSchema, pruneRec(1, "a2"), bad("2"), pruneState(2)},
			want:     [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runTwo}, {"3", "c", at, runOne}},
		},
		{
			name:     "reject",
			settings: `"on_invalid_record":"reject","reject_path":"REJECTS",`,
			lines:    []string{pruneSchema, pruneRec(1, "a2"), bad("2"), pruneState(2)},
			want:     [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runTwo}, {"3", "c", at, runOne}},
		},
		{
			name:     "unreadable key",
			settings: `"on_invalid_record":"skip",`,
			lines:    []string{pruneSchema, pruneRec(1, "a2"), bad(`"x"`), pruneState(2)},
			want:     [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runOne}, {"3", "c", "", runOne}},
		},
		{
			name:     "filter",
			settings: `"stream_maps":{"users":{"__filter__":"record['id'] != 2"}},`,
			lines:    []string{pruneSchema, pruneRec(1, "a2"), pruneRec(2, "b2"), pruneState(2)},
			want:     [][4]string{{"1", "a2", "", runTwo}, {"2", "b", at, runOne}, {"3", "c", at, runOne}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "store.json")
			settings := strings.ReplaceAll(`{`+tc.settings+`"delete_missing":"soft","delete_missing_max_fraction":0.7}`, "REJECTS", filepath.Join(dir, "rejects.jsonl"))
			firstRun(t, path, `{"delete_missing":"soft"}`) // the filter applies to the second run only
			r := runOnStore(t, path, settings, runTwo, nil, memory.Hooks{}, tc.lines...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := userRows(r.eng); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rows:\n got %q\nwant %q", got, tc.want)
			}
			if want := []string{`{"n":2}`}; !reflect.DeepEqual(r.states, want) {
				t.Errorf("states %q, want %q", r.states, want)
			}
		})
	}
}

// TestDeleteMissingConfiguration: set by name on a keyless or append-only
// stream it is a configuration error (exit 2) at the stream's SCHEMA; set
// globally such streams load without pruning (one warning each), while
// upsert streams with keys prune.
func TestDeleteMissingConfiguration(t *testing.T) {
	keyless := `{"type":"SCHEMA","stream":"logs","key_properties":[],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`
	for _, tc := range []struct {
		name, settings string
		wantErr        string
	}{
		{"keyless by name", `{"stream_overrides":{"logs":{"delete_missing":"soft"}}}`, "no key_properties"},
		{"append-only by name", `{"load_method":"append-only","stream_overrides":{"users":{"delete_missing":"hard"}}}`, "load_method is append-only"},
		{"keyless globally", `{"delete_missing":"soft"}`, ""},
		{"keyless by pattern", `{"stream_overrides":{"l*":{"delete_missing":"soft"}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := newEngine()
			_, err := run(t, eng, loadConfig(t, tc.settings), input(keyless, `{"type":"RECORD","stream":"logs","record":{"id":1}}`,
				pruneSchema, pruneRec(1, "a"), pruneState(1)))
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(eng.Rows("DRY_RUN.LOGS")) != 1 {
					t.Errorf("logs rows %v", eng.Rows("DRY_RUN.LOGS"))
				}
				return
			}
			var ce *config.Error
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "delete_missing") {
				t.Fatalf("error %v, want a configuration error saying %q", err, tc.wantErr)
			}
		})
	}
}

// TestDeleteMissingAddsRunIDToAdoptedTables: a table from an earlier run
// without delete_missing (no _SDC_RUN_ID, add_record_metadata false) gets
// the column; its old rows (NULL there) count as not written.
func TestDeleteMissingAddsRunIDToAdoptedTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "store.json")
	r := runOnStore(t, path, `{"add_record_metadata":false}`, runOne, nil, memory.Hooks{}, pruneSchema, pruneRec(1, "a"), pruneRec(2, "b"), pruneState(1))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if cols := r.eng.Tables()["DRY_RUN.USERS"].Columns; len(cols) != 2 {
		t.Fatalf("first run columns %v", cols)
	}
	r = runOnStore(t, path, `{"add_record_metadata":false,"delete_missing":"soft"}`, runTwo, nil, memory.Hooks{}, pruneSchema, pruneRec(1, "a2"), pruneState(2))
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := [][4]string{{"1", "a2", "", runTwo}, {"2", "b", at, ""}}
	if got := userRows(r.eng); !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n got %q\nwant %q", got, want)
	}
}

// TestDeleteMissingPlanShowsThePrune: --plan (the embedded engine from a
// catalog, without rows) renders the prune; it cannot count, so it prunes
// without the fraction check.
func TestDeleteMissingPlanShowsThePrune(t *testing.T) {
	eng := memory.New(memory.Options{Render: oraclesql.New(oraclesql.Options{}), Now: func() time.Time { return fixedNow }})
	if _, err := run(t, eng, loadConfig(t, `{"delete_missing":"hard"}`), input(pruneSchema, pruneRec(1, "a"), pruneState(1))); err != nil {
		t.Fatal(err)
	}
	sql := strings.Join(eng.Statements(), "\n")
	if !strings.Contains(sql, `DELETE FROM "DRY_RUN"."USERS" WHERE ("_SDC_RUN_ID" <> :1 OR "_SDC_RUN_ID" IS NULL)`) ||
		!strings.Contains(sql, `"_SDC_RUN_ID" VARCHAR2(32 BYTE)`) {
		t.Errorf("plan:\n%s", sql)
	}
}

// TestDeleteMissingSeveralStreamsIntoOneTable: two streams mapped to one
// table prune it once, after both have flushed, keeping what either wrote;
// when one of them has no STATE after its last RECORD the table is not
// pruned at all.
func TestDeleteMissingSeveralStreamsIntoOneTable(t *testing.T) {
	sch := func(stream string) string {
		return strings.Replace(pruneSchema, `"stream":"users"`, `"stream":"`+stream+`"`, 1)
	}
	rec := func(stream string, id int) string {
		return strings.Replace(pruneRec(id, "x"), `"stream":"users"`, `"stream":"`+stream+`"`, 1)
	}
	const settings = `{"delete_missing":"hard","delete_missing_max_fraction":0.9,"table_name_mappings":{"a":"USERS","b":"USERS"}}`
	for _, tc := range []struct {
		name   string
		second []string
		want   [][4]string
	}{
		{"both complete", []string{sch("a"), sch("b"), rec("a", 1), rec("b", 3), pruneState(2)},
			[][4]string{{"1", "x", "", runTwo}, {"3", "x", "", runTwo}}},
		{"one without a final state", []string{sch("a"), sch("b"), rec("a", 1), pruneState(2), rec("b", 3)},
			[][4]string{{"1", "x", "", runTwo}, {"2", "x", "", runOne}, {"3", "x", "", runTwo}, {"4", "x", "", runOne}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "store.json")
			r := runOnStore(t, path, settings, runOne, nil, memory.Hooks{}, sch("a"), sch("b"), rec("a", 1), rec("b", 2), rec("a", 4), pruneState(1))
			if r.err != nil {
				t.Fatal(r.err)
			}
			r = runOnStore(t, path, settings, runTwo, nil, memory.Hooks{}, tc.second...)
			if r.err != nil {
				t.Fatal(r.err)
			}
			if got := userRows(r.eng); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rows:\n got %q\nwant %q", got, tc.want)
			}
			n := strings.Count(strings.Join(r.eng.Statements(), "\n"), `DELETE FROM "DRY_RUN"."USERS" WHERE ("_SDC_RUN_ID" <> :1`)
			if want := map[bool]int{true: 1, false: 0}[tc.name == "both complete"]; n != want {
				t.Errorf("%d prune statements, want %d", n, want)
			}
		})
	}
}

// TestDeleteMissingKeepsKeysTheDatabaseRefused: a record the database
// refuses under on_database_error: reject counts as written, as a skipped
// one does: its key's row is not pruned.
func TestDeleteMissingKeepsKeysTheDatabaseRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.json")
	firstRun(t, path, `{"delete_missing":"soft"}`)
	refuse := func(_ string, r engine.Row) error {
		if slices.Contains(r.Values, "b2") {
			return &memory.OracleError{Code: 2290, Msg: "check constraint (DRY_RUN.NAME_CK) violated"}
		}
		return nil
	}
	settings := `{"on_database_error":"reject","reject_path":"` + filepath.Join(dir, "rejects.jsonl") + `","delete_missing":"soft","delete_missing_max_fraction":0.7}`
	r := runOnStore(t, path, settings, runTwo, nil, memory.Hooks{Refuse: refuse}, pruneSchema, pruneRec(1, "a2"), pruneRec(2, "b2"), pruneState(2))
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := [][4]string{{"1", "a2", "", runTwo}, {"2", "b", "", runTwo}, {"3", "c", at, runOne}}
	if got := userRows(r.eng); !reflect.DeepEqual(got, want) {
		t.Errorf("rows:\n got %q\nwant %q", got, want)
	}
	if want := []string{`{"n":2}`}; !reflect.DeepEqual(r.states, want) {
		t.Errorf("states %q, want %q", r.states, want)
	}
}
