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
