package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// --input naming a FIFO no writer has opened yet blocks in open(2) before
// the run's signal watcher starts; Signals() has already called
// signal.Notify, so (found by an attack) SIGTERM, SIGINT and even SIGQUIT
// were swallowed and only SIGKILL ended the process. SPEC §7: a signal
// exits 128+N; SPEC §8: no input makes the target hang.
func TestSignalWhileOpeningFIFOInput(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "in.fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			r := start(t, nil, "--dry-run", "--input", fifo)
			time.Sleep(500 * time.Millisecond)
			r.cmd.Process.Signal(sig)
			if code := r.wait(10 * time.Second); code != 128+int(sig) {
				t.Fatalf("exit %d, want %d:\n%s", code, 128+int(sig), r.log())
			}
			if !strings.Contains(r.log(), "while opening the input") {
				t.Errorf("stderr does not say what was stopped:\n%s", r.log())
			}
			if sig == syscall.SIGQUIT && !strings.Contains(r.log(), "goroutine stacks follow") {
				t.Errorf("SIGQUIT wrote no stacks:\n%s", r.log())
			}
		})
	}
}

// The same while summary_path is a FIFO without a reader: it is opened
// when the run starts (so that an unwritable path fails before anything
// loads), and open(2) of a FIFO for writing blocks until a reader comes.
func TestSignalWhileOpeningFIFOSummary(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "summary.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, []string{"TARGET_ORACLE_SUMMARY_PATH=" + fifo}, "--dry-run", "--input", "/dev/null")
	time.Sleep(500 * time.Millisecond)
	r.cmd.Process.Signal(syscall.SIGTERM)
	if code := r.wait(10 * time.Second); code != 128+int(syscall.SIGTERM) {
		t.Fatalf("exit %d, want %d:\n%s", code, 128+int(syscall.SIGTERM), r.log())
	}
	if !strings.Contains(r.log(), "while opening summary_path") {
		t.Errorf("stderr does not say what was stopped:\n%s", r.log())
	}
}
