package oracle_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

const (
	schemaV1 = `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}`
	schemaV2 = `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"w":{"type":["null","number"]},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}`
)

func record(fields map[string]any) string {
	b, _ := json.Marshal(map[string]any{"type": "RECORD", "stream": "s", "record": fields, "version": 1})
	return string(b)
}

func stateLine(n int) string { return fmt.Sprintf(`{"type":"STATE","value":{"n":%d}}`, n) }

// faultInput exercises every kind of call: CREATE TABLE and COMMENTs,
// batches of MERGE (or INSERT), an ADD COLUMN, a delete (soft: MERGE;
// hard: DELETE) and an ACTIVATE_VERSION (UPDATE or DELETE). Ids grow, and
// the state after record n is {"n": n}.
func faultInput() string {
	var l []string
	l = append(l, schemaV1)
	for i := 1; i <= 6; i++ {
		l = append(l, record(map[string]any{"id": i, "v": fmt.Sprintf("v%d", i)}), stateLine(i))
	}
	l = append(l, schemaV2)
	for i := 7; i <= 9; i++ {
		l = append(l, record(map[string]any{"id": i, "v": strings.Repeat("x", i), "w": float64(i) / 4}), stateLine(i))
	}
	l = append(l, record(map[string]any{"id": 3, "v": "gone", "_sdc_deleted_at": "2024-01-02T03:04:05.123456Z"}), stateLine(10))
	l = append(l, `{"type":"ACTIVATE_VERSION","stream":"s","version":1}`, stateLine(11))
	return strings.Join(l, "\n") + "\n"
}

const (
	upsertSettings = `{"batch_size_rows": 2, "max_parallelism": 1}`
	hardSettings   = `{"batch_size_rows": 2, "max_parallelism": 1, "hard_delete": true}`
	appendSettings = `{"batch_size_rows": 2, "max_parallelism": 1, "load_method": "append-only"}`
)

type faultCase struct {
	settings string
	fault    fake.Fault
}

// callSites are faults at every database call the engine makes, with the
// input settings that make the call happen.
func callSites(code int) map[string]faultCase {
	f := func(op fake.Op, nth int) fake.Fault { return fake.Fault{Op: op, Nth: nth, Code: code} }
	return map[string]faultCase{
		"dial/catalog":      {upsertSettings, f(fake.OpDial, 1)},
		"dial/worker":       {upsertSettings, f(fake.OpDial, 2)},
		"setup":             {upsertSettings, f(fake.OpSetup, 2)},
		"describe":          {upsertSettings, f(fake.OpQuery, 1)},
		"ddl/create":        {upsertSettings, f(fake.OpDDL, 1)},
		"ddl/table-comment": {upsertSettings, f(fake.OpDDL, 2)},
		"ddl/comment":       {upsertSettings, f(fake.OpDDL, 3)},
		"ddl/add-column":    {upsertSettings, f(fake.OpDDL, 2+11)}, // CREATE, the table comment, 10 column comments, ADD
		"merge/first":       {upsertSettings, f(fake.OpMerge, 1)},
		"merge/later":       {upsertSettings, f(fake.OpMerge, 4)},
		"merge/soft":        {upsertSettings, f(fake.OpMerge, 6)},
		"insert/first":      {appendSettings, f(fake.OpInsert, 1)},
		"insert/later":      {appendSettings, f(fake.OpInsert, 3)},
		"delete/by-key":     {hardSettings, f(fake.OpDelete, 1)},
		"delete/versions":   {hardSettings, f(fake.OpDelete, 2)},
		"update/versions":   {upsertSettings, f(fake.OpUpdate, 1)},
		"begin":             {upsertSettings, f(fake.OpBegin, 2)},
		"commit/upsert":     {upsertSettings, f(fake.OpCommit, 2)},
		"commit/hard":       {hardSettings, f(fake.OpCommit, 5)},
		"commit/versions":   {upsertSettings, f(fake.OpCommit, 6)},
		"rollback/ignored":  {upsertSettings, f(fake.OpRollback, 1)},
	}
}

// TestTransientFaultsAreRetried injects a transient error at every call
// site: the run completes with the same tables and states as the embedded
// engine without faults.
func TestTransientFaultsAreRetried(t *testing.T) {
	input := faultInput()
	for _, code := range []int{0, 3113, 3135, 60, 54} {
		sites := callSites(code)
		if code == 0 {
			// The call takes effect, then its reply is lost.
			for _, name := range []string{"ddl/create", "ddl/comment", "ddl/add-column", "merge/later", "update/versions", "delete/by-key", "commit/upsert", "commit/hard"} {
				c := sites[name]
				c.fault.Applied = true
				sites[name+"/applied"] = c
			}
		}
		for name, c := range sites {
			if code == 60 || code == 54 {
				if c.fault.Op == fake.OpDial || c.fault.Op == fake.OpCommit {
					continue // lock errors come from statements
				}
			}
			t.Run(fmt.Sprintf("%s/ORA-%05d", name, code), func(t *testing.T) {
				mem, wantStates, err := runMemory(t, c.settings, input)
				if err != nil {
					t.Fatal(err)
				}
				r := defaultRig(t)
				r.db.Inject(c.fault)
				states, err := run(t, r.eng, c.settings, input)
				if err != nil {
					t.Fatalf("run failed: %v", err)
				}
				if got, want := strings.Join(states, "|"), strings.Join(wantStates, "|"); got != want {
					t.Errorf("states %s, want %s", got, want)
				}
				if c.fault.Op != fake.OpRollback && r.db.Calls(c.fault.Op) < c.fault.Nth {
					t.Fatalf("the fault at %s #%d never fired (%d calls)", c.fault.Op, c.fault.Nth, r.db.Calls(c.fault.Op))
				}
				compare(t, oracleSnapshot(t, r, nil), memorySnapshot(mem, nil))
				if err := r.eng.Close(); err != nil {
					t.Fatal(err)
				}
				if n := r.db.Open(); n != 0 {
					t.Errorf("%d connections left open", n)
				}
			})
		}
	}
}

// TestPermanentFaultsKeepTheStateContract injects a permanent error at
// every call site: the run fails naming the ORA code; no state is written
// past the failed batch, every record a written state covers is in the
// table; a re-run of the same input then gives the tables of an
// uninterrupted run (run-dependent metadata masked).
func TestPermanentFaultsKeepTheStateContract(t *testing.T) {
	input := faultInput()
	for name, c := range callSites(1031) {
		if c.fault.Op == fake.OpRollback {
			continue // a failed ROLLBACK after success is never called
		}
		t.Run(name, func(t *testing.T) {
			mem, fullStates, err := runMemory(t, c.settings, input)
			if err != nil {
				t.Fatal(err)
			}
			r := defaultRig(t)
			r.db.Inject(c.fault)
			states, err := run(t, r.eng, c.settings, input)
			if err == nil {
				t.Fatal("run succeeded despite a permanent error")
			}
			if !strings.Contains(err.Error(), "ORA-01031") {
				t.Errorf("error %q does not name ORA-01031", err)
			}
			if c.fault.Op != fake.OpDial && c.fault.Op != fake.OpSetup && !strings.Contains(err.Error(), "DRY_RUN.S") {
				t.Errorf("error %q does not name the table", err)
			}
			if strings.Join(fullStates, "|")[:len(strings.Join(states, "|"))] != strings.Join(states, "|") {
				t.Fatalf("states %q are not a prefix of the uninterrupted run's %q", states, fullStates)
			}
			checkStatesCovered(t, r.db, states)
			if err := r.eng.Close(); err != nil {
				t.Fatal(err)
			}
			// Re-run the same input on the same database.
			again := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
			if _, err := run(t, again, c.settings, input); err != nil {
				t.Fatalf("re-run: %v", err)
			}
			if c.settings == appendSettings {
				return // at-least-once: the re-run may repeat rows (SPEC §7.6)
			}
			compare(t, oracleSnapshot(t, &rig{db: r.db, eng: again}, runMetadata), memorySnapshot(mem, runMetadata))
		})
	}
}

// checkStatesCovered checks that every record before the last written
// state is committed: ids 1..n for the state {"n": n} (up to 9, the last
// insert of faultInput).
func checkStatesCovered(t *testing.T, db *fake.DB, states []string) {
	t.Helper()
	if len(states) == 0 {
		return
	}
	var st struct{ N int }
	if err := json.Unmarshal([]byte(states[len(states)-1]), &st); err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, r := range db.Rows("DRY_RUN.S") {
		have[r["ID"]] = true
	}
	for id := 1; id <= min(st.N, 9); id++ {
		if id == 3 && st.N >= 10 {
			continue // deleted by record 10 (hard_delete)
		}
		if !have[fmt.Sprint(id)] {
			t.Errorf("state %s written but record %d is not in the table", states[len(states)-1], id)
		}
	}
}

// TestRetriesGiveUp: a transient error that does not go away fails the
// run after the configured attempts, each on a fresh session.
// TestBusyServerErrorsAreRetried: a server at its PROCESSES or SESSIONS
// limit refuses connects (the listener's ORA-12516/12519/12520, the
// logon's ORA-00018/00020), and a lock wait can time out (ORA-04021 on a
// DDL, ORA-30006 on LOCK TABLE … WAIT, injected here at a MERGE: every
// statement is retried alike): each is retried on a fresh
// session and the run ends with the tables and states of a run without
// the fault. They failed the run before.
func TestBusyServerErrorsAreRetried(t *testing.T) {
	input := faultInput()
	mem, wantStates, err := runMemory(t, upsertSettings, input)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		op   fake.Op
		nth  int
		code int
	}{
		{fake.OpDial, 2, 12516}, {fake.OpDial, 2, 12519}, {fake.OpDial, 1, 12520},
		{fake.OpDial, 2, 18}, {fake.OpDial, 2, 20},
		{fake.OpDDL, 1, 4021}, {fake.OpDDL, 13, 4021}, {fake.OpMerge, 2, 30006},
	} {
		t.Run(fmt.Sprintf("%s#%d/ORA-%05d", c.op, c.nth, c.code), func(t *testing.T) {
			r := defaultRig(t)
			r.db.Inject(fake.Fault{Op: c.op, Nth: c.nth, Code: c.code})
			states, err := run(t, r.eng, upsertSettings, input)
			if err != nil {
				t.Fatalf("run failed: %v", err)
			}
			if r.db.Calls(c.op) < c.nth {
				t.Fatalf("the fault at %s #%d never fired", c.op, c.nth)
			}
			if got, want := strings.Join(states, "|"), strings.Join(wantStates, "|"); got != want {
				t.Errorf("states %s, want %s", got, want)
			}
			compare(t, oracleSnapshot(t, r, nil), memorySnapshot(mem, nil))
		})
	}
}

func TestRetriesGiveUp(t *testing.T) {
	r := newRig(t, oracle.Options{Retry: oracle.Retry{Attempts: 3}}, oraclesql.Options{})
	r.db.Inject(fake.Fault{Op: fake.OpMerge, Code: 3113, Times: 100})
	_, err := run(t, r.eng, upsertSettings, faultInput())
	if err == nil || !strings.Contains(err.Error(), "gave up after 3 attempts") {
		t.Fatalf("err = %v, want giving up after 3 attempts", err)
	}
	if got := r.db.Calls(fake.OpMerge); got != 3 {
		t.Errorf("%d MERGE executes, want 3", got)
	}
	if got := r.db.Calls(fake.OpDial); got < 4 {
		t.Errorf("%d dials, want a fresh session per retry", got)
	}
}

// TestCommitUnknown: a COMMIT whose reply is lost after it was applied.
// An upsert batch is retried and lands once; an append-only batch fails
// with ErrCommitUnknown and is not retried.
func TestCommitUnknown(t *testing.T) {
	input := faultInput()
	for _, c := range []struct {
		name, settings string
		wantErr        bool
	}{
		{"upsert", upsertSettings, false},
		{"hard delete", hardSettings, false},
		{"append-only", appendSettings, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			mem, wantStates, err := runMemory(t, c.settings, input)
			if err != nil {
				t.Fatal(err)
			}
			r := defaultRig(t)
			r.db.Inject(fake.Fault{Op: fake.OpCommit, Nth: 2, Applied: true})
			states, err := run(t, r.eng, c.settings, input)
			if !c.wantErr {
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				if strings.Join(states, "|") != strings.Join(wantStates, "|") {
					t.Errorf("states %q, want %q", states, wantStates)
				}
				compare(t, oracleSnapshot(t, r, nil), memorySnapshot(mem, nil))
				return
			}
			if !errors.Is(err, oracle.ErrCommitUnknown) {
				t.Fatalf("err = %v, want ErrCommitUnknown", err)
			}
			if got := r.db.Calls(fake.OpCommit); got != 2 {
				t.Errorf("%d commits, want 2 (no retry of the append batch)", got)
			}
			// The batch did land: the state before it is the last one written.
			if got := last(states); got != `{"n":2}` {
				t.Errorf("last state %s, want {\"n\":2}", got)
			}
			if n := len(r.db.Rows("DRY_RUN.S")); n != 4 {
				t.Errorf("%d rows, want 4 (the applied batch, once)", n)
			}
		})
	}
}

// TestNoRetryAfterCancel: a cancelled run is not retried.
func TestNoRetryAfterCancel(t *testing.T) {
	r := defaultRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	sess, err := r.eng.Session(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	_, err = sess.Load(ctx, nil)
	if err != nil {
		t.Fatalf("empty load: %v", err)
	}
	if err := sess.Apply(ctx, createChange(t, allTypes(), "S")); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := r.db.Calls(fake.OpDial); got != 1 {
		t.Errorf("%d dials, want 1", got)
	}
}

// TestSessionGiveUpSaysConnectOnce: a session whose every dial fails
// transiently gives up naming the step once ("open a session: gave up
// …: connect: …"), not "connect: gave up …: connect: …".
func TestSessionGiveUpSaysConnectOnce(t *testing.T) {
	r := newRig(t, oracle.Options{Retry: oracle.Retry{Attempts: 3}}, oraclesql.Options{})
	r.db.Inject(fake.Fault{Op: fake.OpDial, Code: 12520, Times: 100})
	_, err := r.eng.Session(context.Background(), "s")
	if err == nil {
		t.Fatal("a session opened although every dial fails")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "open a session: gave up after 3 attempts: connect: ") || strings.Count(msg, "connect:") != 1 {
		t.Errorf("err = %q, want \"open a session: gave up after 3 attempts: connect: …\" with connect once", msg)
	}
}
