//go:build linux

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAttackSignalWhileCheckingFIFORejectPath (finding: a hang; only
// SIGKILL ends it): last session made an unwritable reject_path fail the
// run at its start (pipeline.writable). For an existing path that check
// opens it O_WRONLY|O_APPEND, and open(2) of a FIFO for writing blocks
// until a reader comes — outside the signal-aware open that summary_path
// and --input got (TestSignalWhileOpeningFIFOSummary): SIGTERM is
// swallowed and the process waits forever (SPEC §7: a signal exits
// 128+N; §8: nothing makes the target hang). Reproduction with the
// binary: mkfifo rej; --dry-run --config {"on_invalid_record":"reject",
// "reject_path":"rej"} --input in.singer; kill -TERM → still running;
// only SIGKILL ends it (exit 137).
func TestAttackSignalWhileCheckingFIFORejectPath(t *testing.T) {
	// was: t.Skip("finding: reject_path naming a FIFO without a reader blocks the run's start check in open(2); SIGTERM is ignored, only SIGKILL ends it")
	fifo := filepath.Join(t.TempDir(), "rej.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, []string{"TARGET_ORACLE_ON_INVALID_RECORD=reject", "TARGET_ORACLE_REJECT_PATH=" + fifo}, "--dry-run", "--input", "/dev/null")
	time.Sleep(500 * time.Millisecond)
	r.cmd.Process.Signal(syscall.SIGTERM)
	if code := r.wait(10 * time.Second); code != 128+int(syscall.SIGTERM) {
		t.Fatalf("exit %d after SIGTERM, want %d:\n%s", code, 128+int(syscall.SIGTERM), r.log())
	}
}
