//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A load started with fd 1 open read-only (`1<file`) is refused at start,
// before anything loads: before, the first batch committed and then the
// first STATE write failed, so the rows stood committed with no state
// (found by the h-atk2 attack).
func TestReadOnlyStdoutRefusedAtStart(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	if err := os.WriteFile(in, []byte(`{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(dir, "d")
	cmd := exec.Command("sh", "-c", `exec "$0" --dry-run --dry-run-dump "$1" --input "$2" 1<"$2"`, os.Args[0], dump, in)
	cmd.Env = append(os.Environ(), beMain+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	_ = cmd.Run()
	if _, err := os.Stat(filepath.Join(dump, "tables")); err == nil {
		t.Errorf("a dump was written: the load ran")
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "open for reading only") {
		t.Errorf("exit %d; want 1 at start naming the read-only standard output:\n%s", code, stderr.String())
	}
}
