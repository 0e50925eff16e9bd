package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary re-executes itself as the target when this is set, so
// that the subprocess runs the real main (fd 1, signals, exit codes).
const beMain = "TARGET_ORACLE_TEST_BE_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(beMain) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func target(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), beMain+"=1", "TARGET_ORACLE_TEST_NOW=2025-01-01T00:00:00Z")
	return cmd
}

func TestProtectStdout(t *testing.T) {
	saved := os.Stdout
	defer func() { os.Stdout = saved }()
	state := protectStdout()
	if state != saved || os.Stdout != os.Stderr {
		t.Fatalf("protectStdout: state=%v stdout=%v", state, os.Stdout)
	}
}

const input = `{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"},"v":{"type":["null","string"]}}}}
{"type":"SCHEMA","stream":"b","schema":{"type":"object","properties":{"x":{"type":"number"}}}}
{"type":"RECORD","stream":"a","record":{"id":1,"v":"one"}}
{"type":"STATE","value":{"a":1}}
{"type":"RECORD","stream":"b","record":{"x":1.5}}
{"type":"RECORD","stream":"a","record":{"id":2,"v":"two","extra":true}}
{"type":"STATE","value":{"a":2,"b":1}}
`

// Only STATE lines reach file descriptor 1 across a whole run.
func TestStdoutHoldsOnlyState(t *testing.T) {
	cmd := target(t, "--dry-run")
	cmd.Stdin = strings.NewReader(input)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want := "{\"a\":1}\n{\"a\":2,\"b\":1}\n"
	if string(out) != want && string(out) != "{\"a\":2,\"b\":1}\n" {
		t.Fatalf("stdout = %q, want state lines only (%q)", out, want)
	}
	if !strings.Contains(stderr.String(), "summary:") {
		t.Fatalf("no summary on stderr:\n%s", stderr.String())
	}
}

// SIGTERM, SIGINT or SIGHUP while input is still open: the buffered
// records are committed, the state that is then true is written, and the
// exit code is 128+N (SIGHUP: 129).
func TestSignalDrains(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dump := filepath.Join(t.TempDir(), "dump")
			r := start(t, []string{"TARGET_ORACLE_BATCH_WAIT_LIMIT_SECONDS=3600", "TARGET_ORACLE_METRICS_INTERVAL_SECONDS=1"},
				"--dry-run", "--dry-run-dump", dump, "--config", "ENV")
			io.WriteString(r.stdin, input)
			// Wait until the target has read every record: its progress
			// line says so.
			r.waitFor("progress: 3 records read")
			r.cmd.Process.Signal(sig)
			if got, want := r.wait(30*time.Second), 128+int(sig); got != want {
				t.Fatalf("exit %d, want %d\n%s", got, want, r.log())
			}
			// The drain commits stream by stream, so an earlier state may
			// come first; the last line must be the state that is now true.
			if !strings.HasSuffix(r.stdout.String(), "{\"a\":2,\"b\":1}\n") {
				t.Fatalf("stdout %q, want it to end with the last state", r.stdout.String())
			}
			rows, err := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.A.jsonl"))
			if err != nil || strings.Count(string(rows), "\n") != 2 {
				t.Fatalf("rows of A: %q (%v)", rows, err)
			}
		})
	}
}
