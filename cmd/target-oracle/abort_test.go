package main

import (
	"bufio"
	"fmt"

	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bigStates is input whose STATE lines (100 KB each) fill a pipe's buffer
// long before the last is written.
func bigStates(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"SCHEMA","stream":"a","key_properties":["id"],"schema":{"type":"object","properties":{"id":{"type":"integer"}}}}` + "\n")
	pad := strings.Repeat("x", 100_000)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"type":"RECORD","stream":"a","record":{"id":%d}}`+"\n", i)
		fmt.Fprintf(&b, `{"type":"STATE","value":{"i":%d,"pad":"%s"}}`+"\n", i, pad)
	}
	return b.String()
}

// A reader that stops reading stdout must not keep a second signal (or
// SIGQUIT) from ending the process: the abort never waits on fd 1 (SPEC §7
// rule 5; issue 13 item 8). The states here cannot all fit in the pipe,
// so the run is blocked writing one when the signals come: it can only
// end through the abort.
func TestAbortWhileStdoutBlocks(t *testing.T) {
	cases := []struct {
		name    string
		signals []syscall.Signal
		code    int
		stacks  bool
	}{
		{"second SIGTERM", []syscall.Signal{syscall.SIGTERM, syscall.SIGTERM}, 143, false},
		{"SIGINT then SIGTERM", []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}, 143, false},
		{"SIGQUIT", []syscall.Signal{syscall.SIGQUIT}, 131, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer pr.Close() // held open, never read
			in := filepath.Join(t.TempDir(), "in.singer")
			if err := os.WriteFile(in, []byte(bigStates(20)), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := target(t, "--dry-run", "--input", in, "--config", "ENV")
			cmd.Env = append(cmd.Env, "TARGET_ORACLE_BATCH_SIZE_ROWS=1")
			cmd.Stdout = pw
			var stderr strings.Builder
			er, ew, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = ew
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pw.Close()
			ew.Close()
			// The first stderr line comes from Main, which runs after the
			// signal handlers are installed: a signal sent before would meet
			// Go's default handler instead.
			first := make(chan struct{})
			copied := make(chan struct{})
			go func() {
				defer close(copied)
				sc := bufio.NewScanner(er)
				sc.Buffer(nil, 1<<20)
				for n := 0; sc.Scan(); n++ {
					if n == 0 {
						close(first)
					}
					stderr.WriteString(sc.Text() + "\n")
				}
			}()
			select {
			case <-first:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the target wrote nothing to stderr")
			}
			// The run has nothing to wait for but fd 1: signal once the
			// pipe is full, so that the run is blocked writing a state and
			// the only way out is the abort.
			waitPipeFull(t, pr, cmd)
			for _, s := range c.signals {
				cmd.Process.Signal(s)
				time.Sleep(50 * time.Millisecond)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// The kernel keeps one pending signal of a kind: two SIGTERMs
			// sent before a loaded machine runs the process arrive as one
			// (seen on CI). The last signal is sent again until the
			// process ends, as a user repeats Ctrl-C; more of it changes
			// nothing the test asserts.
			again := time.NewTicker(500 * time.Millisecond)
			defer again.Stop()
			timeout := time.After(20 * time.Second)
			ended := false
			for !ended {
				select {
				case <-done:
					ended = true
				case <-again.C:
					cmd.Process.Signal(c.signals[len(c.signals)-1])
				case <-timeout:
					cmd.Process.Kill()
					<-done
					<-copied
					t.Fatalf("the process did not end after the abort:\n%s", stderr.String())
				}
			}
			<-copied
			if got := cmd.ProcessState.ExitCode(); got != c.code {
				t.Fatalf("exit %d, want %d:\n%s", got, c.code, stderr.String())
			}
			if c.stacks && !strings.Contains(stderr.String(), "goroutine ") {
				t.Fatalf("SIGQUIT wrote no goroutine stacks:\n%.2000s", stderr.String())
			}
		})
	}
}

// waitPipeFull returns once the pipe whose read end is r is full; it kills
// cmd and fails the test when that does not happen within 20 s.
func waitPipeFull(t *testing.T, r *os.File, cmd *exec.Cmd) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		full, err := pipeFull(r)
		if err != nil {
			cmd.Process.Kill()
			t.Skipf("cannot see whether the pipe is full: %v", err)
		}
		if full {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the target did not fill its stdout pipe within 20 s")
		}
		time.Sleep(time.Millisecond) // polling: the outcome does not depend on it
	}
}

// A process started with fd 1 closed gets /dev/null from the Go runtime:
// its states would vanish with exit 0. It fails at once instead (SPEC §2;
// issue 13 item 16). A deliberate `> /dev/null` keeps working.
func TestStartedWithStdoutClosed(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.singer")
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		redirect string
		code     int
	}{{">&-", 1}, {"> /dev/null", 0}} {
		t.Run(c.redirect, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `exec "$0" --dry-run --input "$1" `+c.redirect, os.Args[0], in)
			cmd.Env = append(os.Environ(), beMain+"=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			cmd.Run()
			if got := cmd.ProcessState.ExitCode(); got != c.code {
				t.Fatalf("exit %d, want %d:\n%s", got, c.code, stderr.String())
			}
			if c.code == 1 && !strings.Contains(stderr.String(), "standard output (file descriptor 1) closed") {
				t.Fatalf("no word of the closed fd 1:\n%s", stderr.String())
			}
		})
	}
}
