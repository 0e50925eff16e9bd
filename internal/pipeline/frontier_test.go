package pipeline_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/table"
)

// checkingWriter checks, at the moment each STATE line is written, that
// what the test says must be committed by then is committed (SPEC §7 rule
// 1): the check runs inside Write, so a state written early is caught
// however the run ends.
type checkingWriter struct {
	mu     sync.Mutex
	lines  []string
	check  func(state string) error
	errs   []string
	onLine func()
}

func (w *checkingWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range lines(string(b)) {
		w.lines = append(w.lines, l)
		if w.check != nil {
			if err := w.check(l); err != nil {
				w.errs = append(w.errs, err.Error())
			}
		}
		if w.onLine != nil {
			w.onLine()
		}
	}
	return len(b), nil
}

func runWith(t *testing.T, eng *memory.Engine, settings, in string, out *checkingWriter) error {
	t.Helper()
	return pipeline.Run(context.Background(), runOptions(loadConfig(t, settings), eng, in, out))
}

// A batch queued behind a stream's DDL job is not yet committed: another
// stream's commit must not let a STATE covering it out (issue 13 item 1;
// frontier() looked only at each stream's first queued job, and a DDL job
// carried no line).
//
// Stream A's second DDL change blocks while B's DDL completes and the
// coordinator, waiting behind A's queued batch, takes B's result — its
// chance to write a state too early. The block ends when a state is
// written (the early state the check then reports) or, with the fix, after
// a second: B's DDL on the other worker takes microseconds, so the wait
// bounds the test; it is not what decides its outcome.
func TestNoStateAheadOfABatchQueuedBehindDDL(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: memory.Hooks{
		Apply: func(ch engine.Change) error {
			if ch.Table.Name == "A" && ch.Change.Kind != table.CreateTable {
				select {
				case <-release:
				case <-time.After(time.Second):
				}
			}
			return nil
		},
	}})
	out := &checkingWriter{check: func(string) error {
		if got := ids(eng, "A"); !strings.Contains(got, "1") {
			return errors.New("state written while A's record id=1 is not committed (A holds " + got + ")")
		}
		return nil
	}}
	out.onLine = func() { once.Do(func() { close(release) }) }
	schemaA := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string","maxLength":10}}}}`
	schemaA2 := `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":"string","maxLength":100},"w":{"type":"string"},"x":{"type":"integer"}}}}`
	schemaB := `{"type":"SCHEMA","stream":"b","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}`
	in := input(schemaA, schemaA2, schemaB,
		`{"type":"RECORD","stream":"a","record":{"id":1,"v":"x"}}`,
		`{"type":"STATE","value":{"s":1}}`,
		`{"type":"RECORD","stream":"a","record":{"id":2,"v":"y"}}`,
		`{"type":"RECORD","stream":"b","record":{"id":9}}`)
	if err := runWith(t, eng, `{"batch_size_rows": 2, "max_parallelism": 2}`, in, out); err != nil {
		t.Fatal(err)
	}
	if len(out.errs) > 0 {
		t.Fatalf("false states: %v", out.errs)
	}
	if strings.Join(out.lines, "|") != `{"s":1}` {
		t.Fatalf("states %q, want the state once at the end", out.lines)
	}
}

// Once a message fails, no STATE read after it is ever written — a SCHEMA
// included, whenever its failure is found (issue 13 item 2, SPEC §7 rule
// 1). The SCHEMA's failure is found by the worker that applies it.
func TestNoStateAfterAFailingSchema(t *testing.T) {
	keyed := func(key string) string {
		return `{"type":"SCHEMA","stream":"s","key_properties":["` + key + `"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}`
	}
	narrow := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"],"maxLength":5}}}}`
	wide := `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"],"maxLength":500}}}}`
	cases := []struct {
		name, settings string
		first, second  string
		wantInput      bool
	}{
		{"key change on a table with rows", `{"max_parallelism": 1}`, keyed("id"), keyed("v"), true},
		{"schema_evolution fail refuses", `{"max_parallelism": 1, "schema_evolution": "fail"}`, narrow, wide, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eng := newEngine()
			// Rows first, in a run of their own.
			if _, err := run(t, eng, loadConfig(t, ""), input(c.first, rec(1, "a"), state(1))); err != nil {
				t.Fatal(err)
			}
			out := &checkingWriter{}
			err := runWith(t, eng, c.settings, input(c.first, rec(2, "b"), state(2), c.second, state(3), rec(3, "c"), state(4)), out)
			if err == nil {
				t.Fatal("want the SCHEMA to fail")
			}
			var ie *inputerr.Error
			if c.wantInput && !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an input error", err)
			}
			for _, l := range out.lines {
				if l == `{"n":3}` || l == `{"n":4}` {
					t.Fatalf("states %q: a state read after the failing SCHEMA was written (err: %v)", out.lines, err)
				}
			}
		})
	}
}

// truncate_before_load removes a table's rows at its first flush of the
// run: a state written mid-run would let a resumed run truncate again and
// lose the rows before the bookmark (issue 13 item 3). States are held
// until the end of input, as for overwrite.
func TestTruncateBeforeLoadHoldsStates(t *testing.T) {
	for _, method := range []string{"upsert", "append-only"} {
		t.Run(method, func(t *testing.T) {
			eng := memory.New(memory.Options{KeepRows: true, Hooks: failingLoad(3)})
			cfg := loadConfig(t, `{"batch_size_rows": 1, "max_parallelism": 1, "truncate_before_load": true, "load_method": "`+method+`"}`)
			states, err := run(t, eng, cfg, input(schemaLine, rec(1, "a"), state(1), rec(2, "b"), state(2), rec(3, "c"), state(3)))
			if err == nil {
				t.Fatal("want the injected error")
			}
			if len(states) != 0 {
				t.Fatalf("states %q written mid-run with truncate_before_load", states)
			}
			// Without a failure the final state is written at the end.
			eng = newEngine()
			states, err = run(t, eng, cfg, input(schemaLine, rec(1, "a"), state(1), rec(2, "b"), state(2)))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(states, "|") != `{"n":2}` {
				t.Fatalf("states %q, want only the final one", states)
			}
		})
	}
}
