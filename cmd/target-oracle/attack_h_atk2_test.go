//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttackReadOnlyStdoutRefusedAtStart (finding, states lost): a
// target started with file descriptor 1 open for reading only (`1<file`,
// `1</dev/null`: a wrapper that mixed up < and >) cannot write a single
// STATE line, as with fd 1 closed (SPEC §2: "fails at once (exit 1)
// instead of losing its states"). checkStdoutOpen only refuses the
// runtime's read-write /dev/null: here the load runs, commits every
// record of its first batch, and fails at the first STATE ("write
// state: write /dev/stdout: bad file descriptor", exit 1). The states are
// lost and an append-only stream's rows are loaded again by the resumed
// run. fcntl(1, F_GETFL) & O_ACCMODE == O_RDONLY tells it at start.
// Reproduction: target-oracle --dry-run --dry-run-dump d --input in.singer 1<in.singer
// → exit 1 after d/tables/DRY_RUN.S.jsonl holds both rows.
func TestAttackReadOnlyStdoutRefusedAtStart(t *testing.T) {
	// was: t.Skip("finding: fd 1 open read-only is not refused at start: the first batch commits, then the first STATE write fails (states lost)")
	dir := t.TempDir()
	in := filepath.Join(dir, "in.singer")
	os.WriteFile(in, []byte(`{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}
{"type":"RECORD","stream":"s","record":{"id":1}}
{"type":"STATE","value":1}
{"type":"RECORD","stream":"s","record":{"id":2}}
{"type":"STATE","value":2}
`), 0o600)
	dump := filepath.Join(dir, "d")
	cmd := exec.Command("sh", "-c", `exec "$0" --dry-run --dry-run-dump "$1" --input "$2" 1<"$2"`, os.Args[0], dump, in)
	cmd.Env = append(os.Environ(), beMain+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Run()
	rows, _ := os.ReadFile(filepath.Join(dump, "tables", "DRY_RUN.S.jsonl"))
	if code := cmd.ProcessState.ExitCode(); code != 1 || strings.Contains(stderr.String(), "write state") || len(rows) > 0 {
		t.Errorf("exit %d, %d bytes of rows loaded; want exit 1 at start, nothing loaded:\n%s", code, len(rows), stderr.String())
	}
}
