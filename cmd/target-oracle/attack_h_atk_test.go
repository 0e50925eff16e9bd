//go:build unix

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReadWriteDevNull (found by an attack): the Go runtime opens /dev/null
// read-write in place of a descriptor the process was started without, and
// so do Python's subprocess.DEVNULL (os.open(os.devnull, os.O_RDWR): the
// language Meltano, Airflow and Dagster run in) and a shell's `<>`; nothing
// tells them apart. --version and the other one-shot modes used to fail
// with such a stdout (exit 1). Now only a load that would lose its STATE
// lines, or read no input, is refused, and its message says how to discard
// or empty them on purpose.
func TestReadWriteDevNull(t *testing.T) {
	in := filepathJoinTemp(t, "in.singer", `{"type":"SCHEMA","stream":"s","schema":{"properties":{"id":{"type":"integer"}}},"key_properties":["id"]}`+"\n")
	for _, c := range []struct {
		name, args string
		code       int
		want       string
	}{
		{"version, stdout <>/dev/null", `--version 1<>/dev/null`, 0, ""},
		{"about, stdout <>/dev/null", `--about 1<>/dev/null`, 0, ""},
		{"load from --input, stdin <>/dev/null", `--dry-run --input ` + in + ` 0<>/dev/null >/dev/null`, 0, ""},
		{"load, stdin <>/dev/null", `--dry-run 0<>/dev/null >/dev/null`, 1, "subprocess.DEVNULL"},
		{"load, stdout <>/dev/null", `--dry-run --input ` + in + ` 1<>/dev/null`, 1, "subprocess.DEVNULL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", `exec "$0" `+c.args, os.Args[0])
			cmd.Env = append(os.Environ(), beMain+"=1")
			var stderr strings.Builder
			cmd.Stderr = &stderr
			cmd.Run()
			if code := cmd.ProcessState.ExitCode(); code != c.code || !strings.Contains(stderr.String(), c.want) {
				t.Errorf("exit %d, want %d with %q in stderr:\n%s", code, c.code, c.want, stderr.String())
			}
		})
	}
}

func filepathJoinTemp(t *testing.T, name, content string) string {
	p := t.TempDir() + "/" + name
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
