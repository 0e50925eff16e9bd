package verify

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// The history table (load_method history, docs/guarantees.md): one more
// scratch table, loaded in three runs of the production pipeline, each a
// batch in its own transaction, so that every statement a history load
// issues runs on the user's server as the loader renders it — CREATE
// TABLE with the primary key (key, _SDC_VALID_FROM) and the TIMESTAMP(9)
// valid-from/valid-to, the read of the stored versions (SELECT … FOR
// UPDATE), the UPDATE that closes a current version, the UPDATE that
// moves an unchanged version to a new table version, the INSERT of new
// versions and the UPDATE of ACTIVATE_VERSION — and the last run repeats
// the second, which with history_valid_from must change nothing (the
// loader relies on that to retry a COMMIT whose outcome is unknown).
// After each run every version of the keys the run is about is read back,
// oldest first, and compared with the embedded engine's, which loaded the
// same input at the same batch times.

// HistoryCase stands for the history table in Options.Only: the table
// runs when Only is nil or accepts it.
var HistoryCase = Case{Name: "load_method history", Property: "_sdc_valid_from"}

// historyProperties is the history stream's SCHEMA: a date-time
// valid-from (history_valid_from), a CLOB and a BLOB (as Properties's c
// and bl: the history INSERT binds long values as a load does, and the
// readback names a version's LOB chunks by key and valid-from) and
// _sdc_deleted_at for the delete.
const historyProperties = `{"type":"object","properties":{` +
	`"k":{"type":"string","maxLength":64},` +
	`"vf":{"type":["null","string"],"format":"date-time"},` +
	`"s":{"type":["null","string"],"maxLength":100},` +
	`"n":{"type":["null","number"]},` +
	`"c":{"type":["null","string"],"maxLength":4000000},` +
	`"bl":{"type":["null","string"],"contentEncoding":"base64"},` +
	`"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}`

// historyValidFrom is the property whose value is a version's valid-from.
const historyValidFrom = "vf"

// historyCase is what the versions of one key show after a run.
type historyCase struct{ name, key string }

// historyRun is one run of the pipeline on the history table.
type historyRun struct {
	path  string    // Result.Path
	at    time.Time // the batch time (pipeline Options.Now), the same on both engines
	input string
	cases []historyCase // nil: every key, one result
}

// historyRecord is a RECORD line of the history stream; fields holds the
// record's properties other than k, as JSON members.
func historyRecord(version int, k string, fields ...string) string {
	rec := append([]string{`"k":` + str(k)}, fields...)
	return fmt.Sprintf(`{"type":"RECORD","stream":%s,"record":{%s},"version":%d}`+"\n", str(stream), strings.Join(rec, ","), version)
}

func historySchemaLine() string {
	return fmt.Sprintf(`{"type":"SCHEMA","stream":%s,"key_properties":["k"],"schema":%s}`+"\n", str(stream), historyProperties)
}

// historyRuns are the three runs: first versions (the table is created),
// changes, an unchanged record, a delete and ACTIVATE_VERSION, then the
// second run again. The LOB values are ASCII (a database character set
// that cannot hold a character would fail the whole run) and have the
// lengths of the LOB cases that change the bind route: past 4000 and
// 32767 bytes for the CLOB, past 2000 and 4000 bytes for the BLOB.
func historyRuns() []historyRun {
	// The batch time: the pipeline keeps microseconds of its clock.
	at := time.Date(2030, 1, 1, 0, 0, 0, 123456000, time.UTC)
	jan, feb := `"vf":"2024-01-01T00:00:00Z"`, `"vf":"2024-02-01T00:00:00Z"`
	clob := func(n int, last string) string { return `"c":` + str(strings.Repeat("x", n-1)+last) }
	blob := func(n int) string { return `"bl":` + b64(bytesPattern(n, n)) }
	first := historySchemaLine() +
		historyRecord(1, "h/new", `"vf":"2024-01-01T05:30:00.123456789+05:30"`, `"s":"a"`, `"n":1.5`, clob(4001, "y"), blob(2001)) +
		historyRecord(1, "h/twice", jan, `"s":"first"`, clob(32768, "y"), blob(4001)) +
		historyRecord(1, "h/twice", `"vf":"2024-01-01T00:00:00.000000001Z"`, `"s":"second"`, `"c":"short"`) +
		historyRecord(1, "h/batch", `"s":"no valid-from"`) +
		historyRecord(1, "h/change", jan, `"s":"v1"`, `"n":1`, clob(32767, "y"), blob(1)) +
		historyRecord(1, "h/same", jan, `"s":"same"`, clob(4001, "y"), blob(32768)) +
		historyRecord(1, "h/delete", jan, `"s":"gone"`) +
		historyRecord(1, "h/lob", jan, clob(32768, "y"), blob(32768))
	second := historySchemaLine() +
		historyRecord(2, "h/change", feb, `"s":"v2"`, `"n":2`, clob(32768, "y"), blob(4001)) +
		historyRecord(2, "h/same", jan, `"s":"same"`, clob(4001, "y"), blob(32768)) +
		historyRecord(2, "h/delete", feb, `"s":"gone"`, `"_sdc_deleted_at":"2024-02-01T00:00:00Z"`) +
		historyRecord(2, "h/lob", feb, clob(32768, "z"), blob(32768)) +
		fmt.Sprintf(`{"type":"ACTIVATE_VERSION","stream":%s,"version":2}`+"\n", str(stream))
	return []historyRun{
		{path: "history-insert", at: at, input: first, cases: []historyCase{
			{"history: a new key's first version (valid-from with offset +05:30 and 9 fraction digits, kept in UTC)", "h/new"},
			{"history: a key twice, the first version closed at the second's valid-from 1 ns later", "h/twice"},
			{"history: no valid-from, the batch time", "h/batch"},
			{"history: a first version", "h/change"},
			{"history: a first version with a CLOB and a BLOB of 32768 bytes", "h/lob"},
		}},
		{path: "history-close", at: at.Add(24 * time.Hour), input: second, cases: []historyCase{
			{"history: a changed record closes the current version and adds one", "h/change"},
			{"history: a record sent again unchanged (a CLOB and a BLOB among its values) adds no version, its table version moves (kept open by ACTIVATE_VERSION)", "h/same"},
			{"history: a delete closes the current version and adds none", "h/delete"},
			{"history: ACTIVATE_VERSION closes the current versions of older table versions", "h/new"},
			{"history: a CLOB changed in its last character closes the current version and adds one", "h/lob"},
		}},
		{path: "history-rerun", at: at.Add(48 * time.Hour), input: second},
	}
}

// historyKeys are the keys the runs' cases name, each once: every key of
// the input, which the re-run compares.
func historyKeys(runs []historyRun) []string {
	var keys []string
	for _, run := range runs {
		for _, c := range run.cases {
			if !slices.Contains(keys, c.key) {
				keys = append(keys, c.key)
			}
		}
	}
	return keys
}

// runHistory loads the history table and compares its versions after
// each run. A run the first one cannot make (the table) ends the case
// with its results; the error is for a run that could not be made at all.
func (s *scratch) runHistory(ctx context.Context) error {
	if s.o.Only != nil && !s.o.Only(HistoryCase) {
		return nil
	}
	name, cfg, srv, mem, err := s.newTable(s.o.Facts.National)
	if err != nil {
		return err
	}
	cfg.LoadMethod, cfg.HistoryValidFrom, cfg.ProcessActivateVersionMessages = config.MethodHistory, historyValidFrom, true
	q := qualified(s.schema, name)
	var rd *reader
	defer func() {
		if rd != nil {
			rd.close()
		}
	}()
	runs := historyRuns()
	all := historyKeys(runs)
	var before []map[string]string // the embedded engine's rows before the run
	for i, run := range runs {
		now := func() time.Time { return run.at }
		err := loadAt(ctx, s.o.Engine, cfg, srv, run.input, now, s.o.Log)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if merr := loadAt(ctx, mem, cfg, srv, run.input, now, s.o.Log); merr != nil {
			err = fmt.Errorf("the embedded engine: %w", merr)
		}
		want := mem.Tables()[q]
		if err == nil && want == nil {
			err = fmt.Errorf("the embedded engine made no table %s", q)
		}
		if err != nil {
			s.rep.Results = append(s.rep.Results, historyFailed(name, run, err)...)
			if i == 0 {
				return nil // no table to go on with
			}
			continue
		}
		if rd == nil {
			kc := columnOf(want, "k")
			if kc == nil {
				return fmt.Errorf("the history scratch table %s has no key column", q)
			}
			rd = &reader{dial: s.o.Dial, key: kc.Name, maxString: srv.VarcharMaxBytes, asciiJSON: !unicode(s.o.Facts.Server.DBCharset)}
		}
		rd.t = want // the table as this run left it
		rows := mem.Rows(q)
		s.rep.Results = append(s.rep.Results, s.compareHistory(ctx, rd, name, run, all, versionsByKey(rd.key, rows), before, rows)...)
		before = rows
	}
	s.compareShape(ctx, name, "history table shape (catalog vs embedded engine)", mem.Tables()[q])
	return nil
}

// historyFailed are the results of a run that failed: each of its cases.
func historyFailed(name string, run historyRun, err error) []Result {
	var out []Result
	for _, c := range historyCasesOf(run) {
		out = append(out, Result{Table: name, Case: c.name, Path: run.path, Status: Fail, Detail: err.Error()})
	}
	return out
}

// historyCasesOf are a run's cases; the re-run has one, over every key.
func historyCasesOf(run historyRun) []historyCase {
	if run.cases != nil {
		return run.cases
	}
	return []historyCase{{name: "history: the same batch again changes nothing (history_valid_from)"}}
}

// compareHistory reads back the versions of the run's keys and compares
// them with the embedded engine's. For the re-run every key is compared,
// and the embedded engine's own table must not have changed either (else
// the case would not prove what it says).
func (s *scratch) compareHistory(ctx context.Context, rd *reader, name string, run historyRun, all []string, want map[string][]map[string]string, before, after []map[string]string) []Result {
	var out []Result
	for _, c := range historyCasesOf(run) {
		r := Result{Table: name, Case: c.name, Path: run.path, Status: Pass}
		keys := []string{c.key}
		if c.key == "" {
			keys = all
			if !slices.EqualFunc(before, after, maps.Equal) {
				r.Status, r.Detail = Fail, "the re-run changed the embedded engine's table: the case proves nothing"
			}
		}
		for _, k := range keys {
			if r.Status == Fail {
				break
			}
			if len(want[k]) == 0 {
				r.Status, r.Detail = Fail, fmt.Sprintf("the embedded engine holds no version of key %s: the case proves nothing", k)
				break
			}
			if rd.compareVersions(ctx, k, want[k], &r) {
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// versionsByKey groups the embedded engine's rows by key column keyCol,
// each key's versions oldest first.
func versionsByKey(keyCol string, rows []map[string]string) map[string][]map[string]string {
	out := map[string][]map[string]string{}
	for _, r := range rows {
		out[r[keyCol]] = append(out[r[keyCol]], r)
	}
	ts := table.Type{Kind: table.KindTimestamp}
	for _, vs := range out {
		// The fixed-width text of BindText orders as the instants do.
		slices.SortStableFunc(vs, func(a, b map[string]string) int {
			return strings.Compare(oraclesql.BindText(ts, a[table.MetaValidFrom]), oraclesql.BindText(ts, b[table.MetaValidFrom]))
		})
	}
	return out
}
