package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// crashInput is an upsert workload: keys repeat, values grow with the
// record's index (so a row tells which record wrote it), a STATE every 50
// records carries how many records came before it.
func crashInput(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"SCHEMA","stream":"orders","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"seq":{"type":"integer"},"note":{"type":["null","string"]}}}}` + "\n")
	b.WriteString(`{"type":"SCHEMA","stream":"customers","key_properties":["email"],"schema":{"type":"object","properties":{"email":{"type":"string"},"seq":{"type":"integer"}}}}` + "\n")
	for i := 1; i <= n; i++ {
		if i%3 == 0 {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":"customers","record":{"email":"c%d@example.com","seq":%d}}`+"\n", i%97, i)
		} else {
			fmt.Fprintf(&b, `{"type":"RECORD","stream":"orders","record":{"id":%d,"seq":%d,"note":"n%d"}}`+"\n", i%301, i, i)
		}
		if i%50 == 0 {
			fmt.Fprintf(&b, `{"type":"STATE","value":{"records":%d}}`+"\n", i)
		}
	}
	return b.String()
}

// storedTable is one table of the embedded engine's test store.
type storedTable struct {
	Def  any                 `json:"def"`
	Rows []map[string]string `json:"rows"`
}

// readStore reads a store's tables, with the run-dependent metadata
// columns of the rows masked.
func readStore(t *testing.T, path string) map[string]storedTable {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tables map[string]storedTable `json:"tables"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for _, tb := range s.Tables {
		for _, r := range tb.Rows {
			for _, c := range []string{"_SDC_RECEIVED_AT", "_SDC_BATCHED_AT", "_SDC_LOADED_AT", "_SDC_SEQUENCE", "_SDC_SYNC_STARTED_AT"} {
				delete(r, c)
			}
		}
	}
	return s.Tables
}

// storeRows reads a store's rows: table -> key -> seq, and every row's
// columns with the run-dependent metadata masked.
func storeRows(t *testing.T, path string) (map[string]map[string]int, map[string][]map[string]string) {
	t.Helper()
	seqs := map[string]map[string]int{}
	rows := map[string][]map[string]string{}
	for name, tb := range readStore(t, path) {
		seqs[name] = map[string]int{}
		for _, r := range tb.Rows {
			seq, _ := strconv.Atoi(r["SEQ"])
			seqs[name][r["ID"]+r["EMAIL"]] = seq
		}
		rows[name] = tb.Rows
	}
	return seqs, rows
}

// expected is, per table and key, the seq of the last record among the
// first n records.
func expected(n int) map[string]map[string]int {
	want := map[string]map[string]int{"DRY_RUN.ORDERS": {}, "DRY_RUN.CUSTOMERS": {}}
	for i := 1; i <= n; i++ {
		if i%3 == 0 {
			want["DRY_RUN.CUSTOMERS"][fmt.Sprintf("c%d@example.com", i%97)] = i
		} else {
			want["DRY_RUN.ORDERS"][strconv.Itoa(i%301)] = i
		}
	}
	return want
}

// SIGKILL at seeded moments, then the same input again: every state
// written before the kill was covered by committed rows, and the replay
// ends with the tables of an uninterrupted run (SPEC §7 rules 1 and 6).
func TestCrashReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess crash tests: skipped with -short")
	}
	const n = 2000
	in := crashInput(n)
	inPath := filepath.Join(t.TempDir(), "input.singer")
	if err := os.WriteFile(inPath, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(store string) []string {
		return []string{"TARGET_ORACLE_TEST_STORE=" + store, "TARGET_ORACLE_BATCH_SIZE_ROWS=40",
			"TARGET_ORACLE_MAX_PARALLELISM=2", "TARGET_ORACLE_TEST_LOAD_DELAY=3ms"}
	}
	runToEnd := func(store string) {
		t.Helper()
		cmd := target(t, "--dry-run", "--config", "ENV", "--input", inPath)
		cmd.Env = append(cmd.Env, env(store)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("run: %v\n%s", err, out)
		}
	}
	clean := filepath.Join(t.TempDir(), "clean.json")
	runToEnd(clean)
	_, wantRows := storeRows(t, clean)

	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 42))
			killAfterStates := 1 + rnd.IntN(25)
			extra := time.Duration(rnd.IntN(20)) * time.Millisecond
			store := filepath.Join(t.TempDir(), "store.json")
			cmd := target(t, "--dry-run", "--config", "ENV", "--input", inPath)
			cmd.Env = append(cmd.Env, env(store)...)
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var states []string
			sc := bufio.NewScanner(stdout)
			for len(states) < killAfterStates && sc.Scan() {
				states = append(states, sc.Text())
			}
			time.Sleep(extra)
			cmd.Process.Signal(syscall.SIGKILL)
			for sc.Scan() { // lines already written before the kill
				states = append(states, sc.Text())
			}
			cmd.Wait()
			if len(states) == 0 {
				t.Fatalf("killed before any state (after %d wanted)", killAfterStates)
			}
			var last struct{ Records int }
			if err := json.Unmarshal([]byte(states[len(states)-1]), &last); err != nil {
				t.Fatal(err)
			}
			// State never ahead of data: every record before the last
			// state written is in the store (or overwritten by a later one).
			got, _ := storeRows(t, store)
			for tbl, keys := range expected(last.Records) {
				for k, seq := range keys {
					if got[tbl][k] < seq {
						t.Fatalf("state %s was written, but %s key %s holds seq %d < %d", states[len(states)-1], tbl, k, got[tbl][k], seq)
					}
				}
			}
			// The same input again, to the end.
			runToEnd(store)
			_, rows := storeRows(t, store)
			if !reflect.DeepEqual(rows, wantRows) {
				t.Fatalf("after the replay the tables differ from an uninterrupted run (killed after %d states)", len(states))
			}
		})
	}
}
