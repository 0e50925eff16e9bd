package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// running is a target subprocess whose stderr is watched line by line.
type running struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout strings.Builder

	mu    sync.Mutex
	logs  strings.Builder
	lines chan string
}

func start(t *testing.T, env []string, args ...string) *running {
	t.Helper()
	r := &running{t: t, cmd: target(t, args...), lines: make(chan string, 1000)}
	r.cmd.Env = append(r.cmd.Env, env...)
	r.stdin, _ = r.cmd.StdinPipe()
	stderr, _ := r.cmd.StderrPipe()
	r.cmd.Stdout = &r.stdout
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill() })
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.mu.Lock()
			r.logs.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
			select {
			case r.lines <- sc.Text():
			default:
			}
		}
		close(r.lines)
	}()
	return r
}

func (r *running) log() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

// waitFor waits (bounded) for a stderr line containing s.
func (r *running) waitFor(s string) {
	r.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-r.lines:
			if !ok {
				r.t.Fatalf("target exited before logging %q:\n%s", s, r.log())
			}
			if strings.Contains(l, s) {
				return
			}
		case <-deadline:
			r.t.Fatalf("target never logged %q:\n%s", s, r.log())
		}
	}
}

// wait waits (bounded) for the exit and returns the exit code.
func (r *running) wait(limit time.Duration) int {
	r.t.Helper()
	done := make(chan struct{})
	go func() { r.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		r.cmd.Process.Kill()
		r.t.Fatalf("target did not exit within %v:\n%s", limit, r.log())
	}
	return r.cmd.ProcessState.ExitCode()
}

// A second signal during the drain aborts at once: the flush in progress
// rolls back, no state is written, the exit code is still 128+N.
func TestSecondSignalAborts(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "dump")
	r := start(t, []string{"TARGET_ORACLE_BATCH_WAIT_LIMIT_SECONDS=3600", "TARGET_ORACLE_METRICS_INTERVAL_SECONDS=1",
		"TARGET_ORACLE_TEST_LOAD_DELAY=60s"}, "--dry-run", "--dry-run-dump", dump, "--config", "ENV")
	io.WriteString(r.stdin, input)
	r.waitFor("progress: 3 records read")
	r.cmd.Process.Signal(syscall.SIGTERM)
	r.waitFor("signal received")
	time.Sleep(200 * time.Millisecond) // let the drain start its flush; either way the abort must win
	r.cmd.Process.Signal(syscall.SIGTERM)
	if code := r.wait(20 * time.Second); code != 143 {
		t.Fatalf("exit %d, want 143:\n%s", code, r.log())
	}
	if r.stdout.String() != "" {
		t.Fatalf("a state was written although nothing committed: %q", r.stdout.String())
	}
	if !strings.Contains(r.log(), "second signal") {
		t.Fatalf("no word of the abort:\n%s", r.log())
	}
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.A.jsonl"))
	if len(rows) != 0 {
		t.Fatalf("rows committed despite the abort: %s", rows)
	}
}

// shutdown_timeout_seconds bounds the drain: batches not started by then
// are not loaded, and the state written covers only what committed.
func TestShutdownTimeout(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "dump")
	r := start(t, []string{"TARGET_ORACLE_BATCH_WAIT_LIMIT_SECONDS=3600", "TARGET_ORACLE_METRICS_INTERVAL_SECONDS=1",
		"TARGET_ORACLE_TEST_LOAD_DELAY=2s", "TARGET_ORACLE_SHUTDOWN_TIMEOUT_SECONDS=1", "TARGET_ORACLE_MAX_PARALLELISM=1"},
		"--dry-run", "--dry-run-dump", dump, "--config", "ENV")
	io.WriteString(r.stdin, input)
	r.waitFor("progress: 3 records read")
	r.cmd.Process.Signal(syscall.SIGTERM)
	if code := r.wait(30 * time.Second); code != 143 {
		t.Fatalf("exit %d, want 143:\n%s", code, r.log())
	}
	// Stream a (lines 3 and 6) flushes first and commits after 2 s; by
	// then the timeout has passed, so stream b is never loaded and the
	// state at line 7 (which covers b's record at line 5) is not written.
	// The state at line 4 covers only line 3: it is true and written.
	if got := r.stdout.String(); got != "{\"a\":1}\n" {
		t.Fatalf("stdout %q, want only the state covered by committed rows", got)
	}
	if _, err := os.Stat(filepath.Join(dump, "tables", "DRY_RUN.B.jsonl")); err != nil {
		t.Fatalf("table B should exist (created at SCHEMA): %v", err)
	}
	if rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.B.jsonl")); len(rows) != 0 {
		t.Fatalf("stream b loaded after the shutdown timeout: %s", rows)
	}
}

// A closed stdout is a clear error and exit 1, not a silent SIGPIPE.
func TestClosedStdout(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close() // nobody reads the states
	cmd := target(t, "--dry-run")
	cmd.Stdin = strings.NewReader(input)
	cmd.Stdout = pw
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	pw.Close()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1:\n%s", code, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "broken pipe") {
		t.Fatalf("no word of the closed stdout:\n%s", stderr.String())
	}
}
