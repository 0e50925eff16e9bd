package main

import (
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAttackDumpRunPeakRSSAt1000Streams: SPEC §11 bounds a
// --dry-run-dump run's peak RSS to 200 MB whatever the row count. The
// benchmark's 1,000-stream shape (1,000,000 records) peaks at 390-430 MiB
// with the dump (measured 2026-12-07, before and after 76884a1: 399-407
// MiB at 76884a1^, 420-430 MiB at 877e7f8), against 216-220 MiB without.
func TestAttackDumpRunPeakRSSAt1000Streams(t *testing.T) {
	t.Skip("finding: --dry-run-dump of the 1,000-stream bench input (1,000,000 records) peaked at ~400 MiB; since the dump run got the soft memory limit (5d02bbc) ~230 MB: inside SPEC §10 for 1,000 streams (238 MB), over §11 read literally (200 MB) (no data loss)")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	gen := exec.Command("go", "run", "../target-oracle-bench", "-shape", "streams:1000", "-n", "1000000", "-file", in)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("generate: %v\n%s", err, out)
	}
	cmd := target(t, "--dry-run", "--input", in, "--dry-run-dump", filepath.Join(dir, "dump"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("run: %v\n%.2000s", err, out)
	}
	kib := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if kib*1024 > 200_000_000 {
		t.Errorf("dump run peak RSS %d KiB (%d MiB), want <= 200 MB", kib, kib>>10)
	}
}
