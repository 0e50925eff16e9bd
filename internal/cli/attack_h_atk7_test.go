//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAttackSummaryPathIsStdinFIFO (finding, hang): standard input is a
// named pipe (`target-oracle < /run/tap.fifo`, as an orchestrator that
// connects tap and target through a FIFO does) and summary_path names
// that FIFO. outputCollision compares summary_path with standard input
// only when standard input is a regular file (regularFile), and
// summaryFile lets a FIFO through, so the run opens the FIFO for writing
// when it starts: it now holds a writer of its own input, which
// therefore never reaches end of file after the tap closes its end. The
// run never ends (a real one hangs until killed; --input with the same
// FIFO is refused as "the --input file"). Reproduce: mkfifo f;
// (cat in.singer > f &); target-oracle --dry-run --config c.json < f
// with c.json {"summary_path":"f"}: hangs (timeout 15 → exit 124).
func TestAttackSummaryPathIsStdinFIFO(t *testing.T) {
	// was: t.Skip("finding: summary_path naming the FIFO that is standard input: the run holds a writer of its own input and never sees end of input (hang)")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "tap.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "c.json", `{"summary_path":"`+fifo+`"}`)
	input := atk2Schema + `{"type":"RECORD","stream":"s","record":{"id":1}}` + "\n" + `{"type":"STATE","value":1}` + "\n"
	go func() { // the tap
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		_, _ = io.WriteString(w, input)
		_ = w.Close()
	}()
	stdin, err := os.Open(fifo) // waits for the tap
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"--dry-run", "--config", cfg}, IO{Stdin: stdin, State: &out, Stderr: &errb, Env: nil, Dir: dir})
	}()
	select {
	case code := <-done:
		_ = stdin.Close()
		if code != ExitConfig || !strings.Contains(errb.String(), "summary_path") {
			t.Logf("exit %d, state %q: %s", code, out.String(), errb.String())
		}
	case <-time.After(10 * time.Second):
		_ = stdin.Close() // unblock the run's read
		<-done
		t.Fatalf("the run did not end within 10 s after the tap closed the FIFO (summary_path is standard input's FIFO); want exit 2 naming summary_path")
	}
}

// TestAttackSummaryPathIsStdoutFIFO (finding, a STATE stream an
// orchestrator cannot read): standard output is a named pipe the
// orchestrator reads STATE lines from, and summary_path names that FIFO.
// As above, only a regular standard output is compared with
// summary_path, so the summary's multi-line JSON object is written into
// the STATE stream after the last STATE: its last line is "}", so the
// orchestrator that keeps the last line as the state stores no valid
// state (or fails parsing "{"/"streams" lines). SPEC: in a load only
// STATE lines are written to standard output. Reproduce: mkfifo f;
// (cat f > out &); target-oracle --dry-run --config c.json --input
// in.singer > f: out holds the STATE and then the summary.
func TestAttackSummaryPathIsStdoutFIFO(t *testing.T) {
	// was: t.Skip("finding: summary_path naming the FIFO that is standard output: the summary JSON is written into the STATE stream")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "states.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeFile(t, "c.json", `{"summary_path":"`+fifo+`"}`)
	in := writeFile(t, "in.singer", atk2Schema+`{"type":"RECORD","stream":"s","record":{"id":1}}`+"\n"+`{"type":"STATE","value":1}`+"\n")
	read := make(chan string, 1)
	go func() { // the orchestrator
		r, err := os.Open(fifo)
		if err != nil {
			read <- ""
			return
		}
		b, _ := io.ReadAll(r)
		_ = r.Close()
		read <- string(b)
	}()
	stdout, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	code := Main([]string{"--dry-run", "--config", cfg, "--input", in}, IO{Stdin: strings.NewReader(""), State: stdout, Stderr: &errb, Dir: dir})
	_ = stdout.Close()
	var got string
	select {
	case got = <-read:
	case <-time.After(10 * time.Second):
		t.Fatal("the reader of standard output's FIFO did not see end of file")
	}
	if code == ExitOK && got != "1\n" {
		t.Errorf("exit 0 and standard output carried %q; want only the STATE line \"1\\n\" (or exit 2 naming summary_path)", got)
	}
	if code != ExitOK && code != ExitConfig {
		t.Errorf("exit %d: %s", code, errb.String())
	}
}

// TestAttackBatchFileIsTheRunsOwnInput (finding, wrong values loaded and
// a secret leaked into a table): a BATCH message's manifest may name any
// local file, and writtenByRun refuses only reject_path and summary_path.
// A manifest naming the run's --input file (or /dev/stdin, when standard
// input is a regular file) makes the run read its own messages as
// records: the SCHEMA, BATCH and STATE lines are loaded as rows (exit 0,
// STATE written). A manifest naming the --config file loads the
// settings, the database password included, into a table that others may
// read. Both files are refused as summary_path or reject_path
// (outputOthers) but not as BATCH files. Reproduce: --input in.singer
// holding SCHEMA a {host, user, password} and BATCH a
// ["file:///…/config.json"] → the table A holds the password.
func TestAttackBatchFileIsTheRunsOwnInput(t *testing.T) {
	// was: t.Skip("finding: a BATCH manifest naming the run's own --input or --config file loads those files' lines as records (messages as rows; the database password into a table)")
	dump := filepath.Join(t.TempDir(), "dump")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	cfg := writeFile(t, "config.json", `{"add_record_metadata":false,"password":"s3cret-pw"}`)
	for _, c := range []struct{ name, file string }{{"the --input file", in}, {"the --config file", cfg}} {
		t.Run(c.name, func(t *testing.T) {
			input := `{"type":"SCHEMA","stream":"a","schema":{"properties":{"type":{"type":"string"},"password":{"type":"string"}}}}` + "\n" +
				`{"type":"BATCH","stream":"a","encoding":{"format":"jsonl","compression":"none"},"manifest":["file://` + c.file + `"]}` + "\n" +
				`{"type":"STATE","value":1}` + "\n"
			if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errs, code := runMain(t, "", nil, "--dry-run", "--config", cfg, "--input", in, "--dry-run-dump", dump)
			rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.A.jsonl"))
			if code == ExitOK && len(rows) > 0 {
				t.Errorf("exit 0, state %q: the BATCH file that is %s was loaded as records:\n%s", out, c.name, rows)
			}
			if code == ExitOK && len(rows) == 0 {
				t.Errorf("exit 0 and nothing loaded: want the BATCH file refused (exit 2): %s", errs)
			}
		})
	}
}
