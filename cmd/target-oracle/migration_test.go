package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// migrationInput loads five records, then a SCHEMA that needs three DDL
// changes (two new columns, and NAME rewritten from VARCHAR2 to CLOB),
// then five records using them.
func migrationInput() (head, tail string) {
	var b strings.Builder
	b.WriteString(`{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":["null","string"],"maxLength":10}}}}` + "\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, `{"type":"RECORD","stream":"m","record":{"id":%d,"name":"n%d"}}`+"\n", i, i)
	}
	b.WriteString(`{"type":"STATE","value":{"n":5}}` + "\n")
	b.WriteString(`{"type":"SCHEMA","stream":"m","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":["null","string"]},"b":{"type":["null","integer"]},"c":{"type":["null","string"]}}}}` + "\n")
	head = b.String()
	b.Reset()
	for i := 6; i <= 10; i++ {
		fmt.Fprintf(&b, `{"type":"RECORD","stream":"m","record":{"id":%d,"name":"%s","b":%d,"c":"c%d"}}`+"\n", i, strings.Repeat("x", 5000), i, i)
	}
	b.WriteString(`{"type":"STATE","value":{"n":10}}` + "\n")
	return head, b.String()
}

// storeTable reads table DRY_RUN.M of a store (see readStore).
func storeTable(t *testing.T, path string) (def any, rows []map[string]string) {
	t.Helper()
	tb := readStore(t, path)["DRY_RUN.M"]
	return tb.Def, tb.Rows
}

// Signals and kills in the middle of a schema migration (SPEC §7): a first
// SIGTERM lets the migration and the batches read finish and writes the
// true state; a second SIGTERM, or SIGKILL, stops it half-way, no state
// passes the committed data, and the next run on the same input finishes
// the migration and ends with the tables of an uninterrupted run.
func TestSignalDuringMigration(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess signal tests: skipped with -short")
	}
	head, tail := migrationInput()
	inPath := filepath.Join(t.TempDir(), "input.singer")
	if err := os.WriteFile(inPath, []byte(head+tail), 0o600); err != nil {
		t.Fatal(err)
	}
	runToEnd := func(store string) string {
		t.Helper()
		cmd := target(t, "--dry-run", "--config", "ENV", "--input", inPath)
		cmd.Env = append(cmd.Env, "TARGET_ORACLE_TEST_STORE="+store)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("run: %v\n%s", err, out)
		}
		return string(out)
	}
	clean := filepath.Join(t.TempDir(), "clean.json")
	log := runToEnd(clean)
	wantDef, wantRows := storeTable(t, clean)
	for _, change := range []string{`change="ADD (\"B\"`, `change="ADD (\"C\"`, `change="rewrite \"NAME\"`} {
		if !strings.Contains(log, change) {
			t.Fatalf("the uninterrupted run made no change %s:\n%s", change, log)
		}
	}
	if len(wantRows) != 10 {
		t.Fatalf("the uninterrupted run loaded %d rows", len(wantRows))
	}

	cases := []struct {
		name string
		// waitFor is the log line the interruption waits for: the start
		// of the first, or of the second DDL change.
		waitFor   string
		interrupt func(r *running)
		code      int
		states    string // stdout of the interrupted run
		finished  bool   // the interrupted run itself finished the migration
	}{
		{"sigterm", `change="ADD (\"B\"`, func(r *running) { r.cmd.Process.Signal(syscall.SIGTERM) },
			143, "{\"n\":5}\n{\"n\":10}\n", true},
		{"second sigterm", `change="ADD (\"C\"`, func(r *running) {
			r.cmd.Process.Signal(syscall.SIGTERM)
			r.waitFor("signal received")
			r.cmd.Process.Signal(syscall.SIGTERM)
		}, 143, "{\"n\":5}\n", false},
		{"sigkill", `change="ADD (\"C\"`, func(r *running) { r.cmd.Process.Signal(syscall.SIGKILL) },
			-1, "{\"n\":5}\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			store := filepath.Join(t.TempDir(), "store.json")
			r := start(t, []string{"TARGET_ORACLE_TEST_STORE=" + store, "TARGET_ORACLE_TEST_DDL_DELAY=1s",
				"TARGET_ORACLE_BATCH_WAIT_LIMIT_SECONDS=3600"}, "--dry-run", "--config", "ENV")
			io.WriteString(r.stdin, head+tail) // stdin stays open: the input has not ended
			r.waitFor(tc.waitFor)
			tc.interrupt(r)
			if code := r.wait(30 * time.Second); code != tc.code {
				t.Fatalf("exit %d, want %d:\n%s", code, tc.code, r.log())
			}
			if got := r.stdout.String(); got != tc.states {
				t.Fatalf("states %q, want %q:\n%s", got, tc.states, r.log())
			}
			def, rows := storeTable(t, store)
			if done := reflect.DeepEqual(def, wantDef); done != tc.finished {
				t.Fatalf("migration finished: %v, want %v: %v", done, tc.finished, def)
			}
			if !tc.finished && len(rows) != 5 {
				t.Fatalf("%d rows after the interruption, want the 5 committed before it", len(rows))
			}
			runToEnd(store)
			def, rows = storeTable(t, store)
			if !reflect.DeepEqual(def, wantDef) || !reflect.DeepEqual(rows, wantRows) {
				t.Fatalf("after the next run the table differs from an uninterrupted run:\n%v\n%v", def, wantDef)
			}
		})
	}
}
