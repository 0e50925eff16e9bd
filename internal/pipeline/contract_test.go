package pipeline_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/pipeline"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

const schemaLine = `{"type":"SCHEMA","stream":"s","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]},"_sdc_deleted_at":{"type":["null","string"],"format":"date-time"}}}}`

func rec(id int, v string) string {
	b, _ := json.Marshal(map[string]any{"type": "RECORD", "stream": "s", "record": map[string]any{"id": id, "v": v}})
	return string(b)
}

func state(n int) string {
	b, _ := json.Marshal(map[string]any{"type": "STATE", "value": map[string]any{"n": n}})
	return string(b)
}

func input(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func ids(eng *memory.Engine, table string) string {
	var out []string
	for _, r := range eng.Rows("DRY_RUN." + table) {
		out = append(out, r["ID"])
	}
	return strings.Join(out, ",")
}

// failingLoad makes the nth Load (1-based) fail.
func failingLoad(n int32) memory.Hooks {
	var calls atomic.Int32
	return memory.Hooks{Load: func([]engine.Step) error {
		if calls.Add(1) == n {
			return errors.New("injected: connection lost")
		}
		return nil
	}}
}

func TestNoStatePastAFailedBatch(t *testing.T) {
	eng := memory.New(memory.Options{KeepRows: true, Now: func() time.Time { return fixedNow }, Hooks: failingLoad(2)})
	cfg := loadConfig(t, `{"batch_size_rows": 1, "max_parallelism": 1}`)
	states, err := run(t, eng, cfg, input(schemaLine, rec(1, "a"), state(1), rec(2, "b"), state(2), rec(3, "c"), state(3)))
	var ie *inputerr.Error
	if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "injected") {
		t.Fatalf("err = %v, want the injected database error", err)
	}
	if strings.Join(states, "|") != `{"n":1}` {
		t.Fatalf("states %q, want only the state before the failed batch", states)
	}
	if got := ids(eng, "S"); got != "1" {
		t.Fatalf("rows %s, want 1", got)
	}
}

func TestOverwriteWritesNoStateBeforeEndOfInput(t *testing.T) {
	// The last batch fails: an upsert stream would have written states
	// for the earlier batches; an overwrite stream must write none.
	for method, want := range map[string]string{"upsert": `{"n":2}`, "overwrite": ""} {
		t.Run(method, func(t *testing.T) {
			eng := memory.New(memory.Options{KeepRows: true, Hooks: failingLoad(3)})
			cfg := loadConfig(t, `{"batch_size_rows": 1, "max_parallelism": 1, "load_method": "`+method+`"}`)
			states, err := run(t, eng, cfg, input(schemaLine, rec(1, "a"), state(1), rec(2, "b"), state(2), rec(3, "c"), state(3)))
			if err == nil {
				t.Fatal("want the injected error")
			}
			if got := strings.Join(states, "|"); !strings.HasSuffix(got, want) || (want == "" && got != "") {
				t.Fatalf("states %q, want last %q", states, want)
			}
		})
	}
}

func TestOverwriteReplacesTableContents(t *testing.T) {
	eng := newEngine()
	if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"), rec(2, "b"))); err != nil {
		t.Fatal(err)
	}
	cfg := loadConfig(t, `{"load_method": "overwrite", "batch_size_rows": 1}`)
	states, err := run(t, eng, cfg, input(schemaLine, rec(3, "c"), state(1), rec(4, "d"), state(2)))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(eng, "S"); got != "3,4" {
		t.Fatalf("rows %s, want 3,4 (the first flush replaces, later flushes add)", got)
	}
	if strings.Join(states, "|") != `{"n":2}` {
		t.Fatalf("states %q, want only the final one", states)
	}
}

// chanWriter delivers each written line on a channel.
type chanWriter chan string

func (w chanWriter) Write(b []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		w <- l
	}
	return len(b), nil
}

func TestAgeLimitFlushesWhileInputIsIdle(t *testing.T) {
	// The tap may also pause in the middle of a line (block-buffered
	// output): what came before that line is still handed over.
	for name, partial := range map[string]string{"at a line end": "", "mid-line": `{"type":"RECORD","str`} {
		t.Run(name, func(t *testing.T) {
			pr, pw := io.Pipe()
			out := make(chanWriter, 10)
			cfg := loadConfig(t, `{"batch_wait_limit_seconds": 1}`)
			done := make(chan error, 1)
			go func() {
				done <- pipeline.Run(context.Background(), pipeline.Options{Config: cfg, Engine: newEngine(),
					Server: testServer,
					Input:  pr, StateOut: out})
			}()
			io.WriteString(pw, input(schemaLine, rec(1, "a"), state(1))+partial)
			select {
			case got := <-out:
				if got != `{"n":1}` {
					t.Fatalf("state %q", got)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("no state while the input stayed open: the age limit did not flush")
			}
			if partial != "" {
				io.WriteString(pw, `eam":"s","record":{"id":2,"v":"b"}}`+"\n")
			}
			pw.Close()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRejectAndSkip(t *testing.T) {
	bad := `{"type":"RECORD","stream":"s","record":{"id":"not a number"}}`
	in := input(schemaLine, rec(1, "a"), bad, state(1), rec(2, "b"), state(2))
	t.Run("reject", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "rejects.jsonl")
		eng := newEngine()
		states, err := run(t, eng, loadConfig(t, `{"on_invalid_record": "reject", "reject_path": "`+path+`"}`), in)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(states, "|") != `{"n":2}` || ids(eng, "S") != "1,2" {
			t.Fatalf("states %q rows %s", states, ids(eng, "S"))
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("reject file is readable by others: %v", fi.Mode())
		}
		var r struct {
			Line   int64           `json:"line"`
			Stream string          `json:"stream"`
			Error  string          `json:"error"`
			Record json.RawMessage `json:"record"`
		}
		if err := json.Unmarshal([]byte(readFile(t, path)), &r); err != nil {
			t.Fatal(err)
		}
		if r.Line != 3 || r.Stream != "s" || !strings.Contains(r.Error, `property "id"`) || string(r.Record) != `{"id":"not a number"}` {
			t.Fatalf("reject line: %+v", r)
		}
	})
	t.Run("skip", func(t *testing.T) {
		eng := newEngine()
		states, err := run(t, eng, loadConfig(t, `{"on_invalid_record": "skip"}`), in)
		if err != nil || strings.Join(states, "|") != `{"n":2}` || ids(eng, "S") != "1,2" {
			t.Fatalf("err %v states %q rows %s", err, states, ids(eng, "S"))
		}
	})
}

func TestSmallMemoryLimitLoadsEverything(t *testing.T) {
	var lines []string
	lines = append(lines, schemaLine, strings.Replace(schemaLine, `"s"`, `"t"`, 1))
	for i := 1; i <= 500; i++ {
		lines = append(lines, rec(i, strings.Repeat("x", 100)))
		lines = append(lines, strings.Replace(rec(i, "y"), `"s"`, `"t"`, 1))
		if i%50 == 0 {
			lines = append(lines, state(i))
		}
	}
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, `{"max_buffered_bytes": 2000, "batch_size_bytes": 1000}`), input(lines...))
	if err != nil {
		t.Fatal(err)
	}
	if len(eng.Rows("DRY_RUN.S")) != 500 || len(eng.Rows("DRY_RUN.T")) != 500 {
		t.Fatalf("rows %d/%d", len(eng.Rows("DRY_RUN.S")), len(eng.Rows("DRY_RUN.T")))
	}
	if states[len(states)-1] != `{"n":500}` {
		t.Fatalf("last state %q", states[len(states)-1])
	}
}

func TestStateRules(t *testing.T) {
	eng := newEngine()
	// A repeated state text is written once; no STATE, no output.
	states, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"), state(1), rec(2, "b"), state(1)))
	if err != nil || strings.Join(states, "|") != `{"n":1}` {
		t.Fatalf("err %v states %q", err, states)
	}
	states, err = run(t, eng, loadConfig(t, ""), input(schemaLine, rec(3, "c")))
	if err != nil || len(states) != 0 {
		t.Fatalf("err %v states %q", err, states)
	}
	// The state's text is kept as received (numbers keep their text).
	states, err = run(t, eng, loadConfig(t, ""), input(schemaLine, `{"type":"STATE","value":{"big": 12345678901234567890.000, "x": 1e400}}`))
	if err != nil || strings.Join(states, "|") != `{"big":12345678901234567890.000,"x":1e400}` {
		t.Fatalf("err %v states %q", err, states)
	}
}

func TestDeletes(t *testing.T) {
	del := func(id int) string {
		b, _ := json.Marshal(map[string]any{"type": "RECORD", "stream": "s", "record": map[string]any{"id": id, "_sdc_deleted_at": "2025-01-01T00:00:00Z"}})
		return string(b)
	}
	t.Run("soft", func(t *testing.T) {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, rec(1, "a"), rec(2, "b"))); err != nil {
			t.Fatal(err)
		}
		if _, err := run(t, eng, loadConfig(t, ""), input(schemaLine, del(1), del(3))); err != nil {
			t.Fatal(err)
		}
		rows := eng.Rows("DRY_RUN.S")
		if len(rows) != 3 || rows[0]["V"] != "a" || rows[0]["_SDC_DELETED_AT"] != "2025-01-01T00:00:00Z" || rows[1]["_SDC_DELETED_AT"] != "" || rows[2]["_SDC_DELETED_AT"] == "" {
			t.Fatalf("rows after soft deletes: %v", rows)
		}
	})
	t.Run("hard", func(t *testing.T) {
		eng := newEngine()
		cfg := loadConfig(t, `{"hard_delete": true}`)
		if _, err := run(t, eng, cfg, input(schemaLine, rec(1, "a"), rec(2, "b"), rec(3, "c"))); err != nil {
			t.Fatal(err)
		}
		// In one batch: 2 is deleted then written again (the last record wins).
		if _, err := run(t, eng, cfg, input(schemaLine, del(1), del(2), rec(2, "again"))); err != nil {
			t.Fatal(err)
		}
		if got := ids(eng, "S"); got != "2,3" {
			t.Fatalf("rows %s, want 2,3", got)
		}
	})
}

func TestBatchMessage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "part-1.jsonl.gz")
	f, _ := os.Create(path)
	zw := gzip.NewWriter(f)
	w := bufio.NewWriter(zw)
	for i := 1; i <= 3; i++ {
		w.WriteString(`{"id":` + string(rune('0'+i)) + `,"v":"from batch"}` + "\n")
	}
	w.Flush()
	zw.Close()
	f.Close()
	batch := `{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"gzip"},"manifest":["file://` + path + `"]}`
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, ""), input(schemaLine, batch, state(1)))
	if err != nil || strings.Join(states, "|") != `{"n":1}` || ids(eng, "S") != "1,2,3" {
		t.Fatalf("err %v states %q rows %s", err, states, ids(eng, "S"))
	}
	// A missing file fails the run, and is not an input error (exit 1).
	_, err = run(t, newEngine(), loadConfig(t, ""), input(schemaLine, strings.Replace(batch, path, path+".missing", 1)))
	var ie *inputerr.Error
	if err == nil || errors.As(err, &ie) {
		t.Fatalf("missing BATCH file: err %v", err)
	}
	// What came before the BATCH is still committed and its state written.
	eng = newEngine()
	states, err = run(t, eng, loadConfig(t, ""), input(schemaLine, rec(7, "before"), state(7), strings.Replace(batch, path, path+".missing", 1), state(8)))
	if err == nil || errors.As(err, &ie) || strings.Join(states, "|") != `{"n":7}` || ids(eng, "S") != "7" {
		t.Fatalf("err %v states %q rows %s: want the record and state before the BATCH kept", err, states, ids(eng, "S"))
	}
}

// Append-only streams with a key append every record: a re-run after a
// crash may repeat rows (at-least-once) and must not fail on a duplicate.
func TestAppendOnlyWithKeyAppends(t *testing.T) {
	eng := newEngine()
	cfg := loadConfig(t, `{"load_method": "append-only"}`)
	for i := 0; i < 2; i++ {
		if _, err := run(t, eng, cfg, input(schemaLine, rec(1, "a"), rec(1, "b"))); err != nil {
			t.Fatal(err)
		}
	}
	if got := ids(eng, "S"); got != "1,1,1,1" {
		t.Fatalf("rows %s, want four appended rows", got)
	}
	if pk := eng.Tables()["DRY_RUN.S"].PrimaryKey; len(pk) != 0 {
		t.Fatalf("append-only table has a primary key constraint %v", pk)
	}
}

// TestOnePassChecksMatchValidator covers the one-pass decoder (validation
// while converting): a record breaking a rule gets the rule's error even
// when a conversion error comes first in the record, a rejected record does
// not widen its columns, and records the one pass declines (duplicate
// keys) still load through the general validator.
func TestOnePassChecksMatchValidator(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"f","key_properties":["id"],"schema":{"type":"object","properties":{` +
		`"id":{"type":"integer"},"note":{"type":["null","string"],"maxLength":5},"big":{"type":["null","string"]}}}}`
	in := input(schema,
		// id missing (a conversion error: keys must be set) and note too long (a rule)
		`{"type":"RECORD","stream":"f","record":{"note":"far too long"}}`,
		// a 6,000-byte value in a record that breaks a rule: must not turn BIG into a CLOB
		`{"type":"RECORD","stream":"f","record":{"id":1,"big":"`+strings.Repeat("x", 6000)+`","note":"123456"}}`,
		// duplicate keys: the last value counts, as with encoding/json
		`{"type":"RECORD","stream":"f","record":{"id":2,"note":"toolongvalue","note":"ok"}}`,
		`{"type":"STATE","value":{"n":1}}`)
	path := filepath.Join(t.TempDir(), "rejects.jsonl")
	eng := newEngine()
	states, err := run(t, eng, loadConfig(t, `{"on_invalid_record": "reject", "reject_path": "`+path+`"}`), in)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(states, "|") != `{"n":1}` || ids(eng, "F") != "2" {
		t.Fatalf("states %q rows %s", states, ids(eng, "F"))
	}
	rejects := lines(readFile(t, path))
	if len(rejects) != 2 {
		t.Fatalf("%d rejects: %q", len(rejects), rejects)
	}
	for i, r := range rejects {
		if !strings.Contains(r, `property \"note\"`) || strings.Contains(r, "key property") {
			t.Errorf("reject %d does not name the broken rule: %s", i+1, r[:min(len(r), 300)])
		}
	}
	wantColumnType(t, eng, "F", "BIG", "VARCHAR2(4000 BYTE)")
	if got := eng.Rows("DRY_RUN.F")[0]["NOTE"]; got != "ok" {
		t.Errorf("NOTE = %q, want the last duplicate's value", got)
	}
}

// A record that is not loaded takes no _SDC_SEQUENCE number, whichever path
// rejects it: the rows after it are numbered as if it were not there.
func TestRejectedRecordTakesNoSequence(t *testing.T) {
	schema := `{"type":"SCHEMA","stream":"q","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"a":{"type":"string","maxLength":1}}}}`
	good := `{"type":"RECORD","stream":"q","record":{"id":2,"a":"x"}}`
	seqOf := func(lines ...string) string {
		eng := newEngine()
		if _, err := run(t, eng, loadConfig(t, `{"on_invalid_record": "skip"}`), input(lines...)); err != nil {
			t.Fatal(err)
		}
		rows := eng.Rows("DRY_RUN.Q")
		if len(rows) != 1 {
			t.Fatalf("%d rows", len(rows))
		}
		return rows[0]["_SDC_SEQUENCE"]
	}
	want := seqOf(schema, good)
	for _, bad := range []string{
		`{"type":"RECORD","stream":"q","record":{"id":1,"a":"toolong"}}`,                 // a broken rule
		`{"type":"RECORD","stream":"q","record":{"a":"y"}}`,                              // a missing key
		`{"type":"RECORD","stream":"q","record":{"id":1},"time_extracted":"not a time"}`, // bad metadata
	} {
		if got := seqOf(schema, bad, good); got != want {
			t.Errorf("after %s: _SDC_SEQUENCE %s, want %s", bad, got, want)
		}
	}
}

// A BATCH file can hold the coordinator for long (or forever: an endless
// line): a first signal still stops reading, commits what was read and
// writes the true state; a second one (the context) aborts.
func TestSignalDuringBatchFile(t *testing.T) {
	// A sparse file of 64 GiB of NULs: one line far over the limit, whose
	// rest the reader drops piece by piece for longer than the test runs.
	zeros := filepath.Join(t.TempDir(), "zeros.jsonl")
	f, err := os.Create(zeros)
	if err == nil {
		err = f.Truncate(64 << 30)
		f.Close()
	}
	if err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	if !canSeeReads() {
		t.Skip("no /proc/self/fdinfo here to see the run reading the BATCH file")
	}
	endless := `{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + zeros + `"]}`
	for _, second := range []bool{false, true} {
		t.Run(fmt.Sprintf("second signal %v", second), func(t *testing.T) {
			stop := make(chan struct{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out strings.Builder
			eng := newEngine()
			done := make(chan error, 1)
			go func() {
				done <- pipeline.Run(ctx, pipeline.Options{Config: loadConfig(t, ""), Engine: eng,
					Server: testServer,
					Input:  strings.NewReader(input(schemaLine, rec(1, "a"), state(1), endless, state(2))), StateOut: &out, Stop: stop})
			}()
			readingFile(t, zeros, done) // inside the long line: no sleep's guess
			close(stop)
			if second {
				cancel()
			}
			select {
			case err := <-done:
				if second {
					if err == nil {
						t.Fatal("aborted run returned no error")
					}
					return
				}
				if !errors.Is(err, pipeline.ErrStopped) {
					t.Fatalf("err %v, want ErrStopped", err)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("a signal did not stop a run reading a long BATCH line")
			}
			if got := strings.TrimSpace(out.String()); got != `{"n":1}` || ids(eng, "S") != "1" {
				t.Fatalf("states %q rows %s", got, ids(eng, "S"))
			}
		})
	}
}

// An invalid row in a BATCH file is named by the BATCH line, the file and
// the row.
func TestBatchRowErrorNamesFileRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "part.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":1,"v":"ok"}`+"\n"+`{"id":"x","v":"bad"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	batch := `{"type":"BATCH","stream":"s","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + path + `"]}`
	_, err := run(t, newEngine(), loadConfig(t, ""), input(schemaLine, batch))
	want := fmt.Sprintf(`line 2: BATCH file %q row 2: stream "s": property "id"`, "file://"+path)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want it to contain %s", err, want)
	}
}

// Upserts, soft deletes and hard deletes of the same keys give the same
// table whatever the batch boundaries (SPEC §6.4 applied record by record):
// the in-batch dedupe must fold records as loading them one by one would.
func TestDeletesIndependentOfBatching(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	var lines []string
	lines = append(lines, schemaLine)
	for i := 0; i < 60; i++ {
		rec := map[string]any{"id": rnd.IntN(3), "v": fmt.Sprintf("v%d", i)}
		if rnd.IntN(3) == 0 {
			rec["_sdc_deleted_at"] = fmt.Sprintf("2025-01-01T00:00:%02dZ", i)
		}
		b, _ := json.Marshal(map[string]any{"type": "RECORD", "stream": "s", "record": rec})
		lines = append(lines, string(b))
	}
	for _, hard := range []bool{false, true} {
		var want []map[string]string
		for _, size := range []int{1, 2, 3, 7, 1000} {
			eng := newEngine()
			settings := fmt.Sprintf(`{"batch_size_rows": %d, "hard_delete": %v}`, size, hard)
			if _, err := run(t, eng, loadConfig(t, settings), input(lines...)); err != nil {
				t.Fatal(err)
			}
			rows := eng.Rows("DRY_RUN.S")
			for _, r := range rows {
				delete(r, "_SDC_BATCHED_AT")
				delete(r, "_SDC_LOADED_AT")
			}
			if size == 1 {
				want = rows
				continue
			}
			if !reflect.DeepEqual(rows, want) {
				t.Errorf("hard_delete %v, batch_size_rows %d:\n%v\nwant (one record a batch):\n%v", hard, size, rows, want)
			}
		}
	}
}

// A tap inventing a property per record: each is warned about once, up to
// a cap, then one last warning; memory does not grow with them.
func TestUnknownPropertiesWarnedUpToACap(t *testing.T) {
	lines := []string{schemaLine}
	for i := 0; i < tablemap.MaxUnknownReported+500; i++ {
		lines = append(lines, fmt.Sprintf(`{"type":"RECORD","stream":"s","record":{"id":1,"v":"a","extra_%d":1}}`, i))
	}
	var logs strings.Builder
	err := pipeline.Run(context.Background(), pipeline.Options{Config: loadConfig(t, ""), Engine: newEngine(),
		Server: testServer,
		Input:  strings.NewReader(input(lines...)), StateOut: io.Discard,
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Count(logs.String(), "is not in the schema")
	if got != tablemap.MaxUnknownReported || !strings.Contains(logs.String(), "no longer reported") {
		t.Fatalf("%d warnings about unknown properties, want %d and a last one", got, tablemap.MaxUnknownReported)
	}
}
