package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartedWithStdinClosed (found by an attack; the fd-1 guard had no
// counterpart for fd 0): a target started with standard input closed (`<&-`,
// an orchestrator that failed to connect the tap) gets /dev/null from the Go
// runtime (runtime.checkfds, opened read-write), reads zero messages and
// reported "summary: succeeded ... 0 records" with exit 0: the tap's data
// never arrived and nothing failed. Now it exits 1 naming fd 0. A deliberate `< /dev/null` (read-only) or
// `--input FILE` should keep working.
func TestStartedWithStdinClosed(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.singer")
	if err := os.WriteFile(in, []byte(input), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, args string
		fail       bool
	}{
		{"stdin closed", `--dry-run <&- >/dev/null`, true},
		{"stdin /dev/null", `--dry-run </dev/null >/dev/null`, false},
		{"stdin closed with --input", `--dry-run --input "$1" <&- >/dev/null`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `exec "$0" `+c.args, os.Args[0], in)
			cmd.Env = append(os.Environ(), beMain+"=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			cmd.Run()
			code := cmd.ProcessState.ExitCode()
			if c.fail && (code != 1 || !strings.Contains(stderr.String(), "standard input (file descriptor 0) closed")) {
				t.Fatalf("exit %d with standard input closed; want 1 and an error naming fd 0:\n%s", code, stderr.String())
			}
			if !c.fail && code != 0 {
				t.Fatalf("exit %d, want 0:\n%s", code, stderr.String())
			}
		})
	}
}
