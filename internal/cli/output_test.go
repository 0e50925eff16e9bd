package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/metrics"
	"github.com/target-oracle/target-oracle/internal/pipeline"
)

// --format shapes a one-shot report: without --about it is a usage error
// (SPEC §2; issue 19), not the start of a load.
func TestFormatNeedsAbout(t *testing.T) {
	for _, args := range [][]string{{"--format", "json"}, {"--dry-run", "--format", "text"}} {
		_, errs, code := runMain(t, example, nil, args...)
		if code != ExitConfig || !strings.Contains(errs, "--format needs --about") {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// An invalid record that stops the run says how to load past it.
func TestInvalidRecordNamesThePolicy(t *testing.T) {
	in := example + `{"type":"RECORD","stream":"orders","record":{"id":"x"}}` + "\n"
	_, errs, code := runMain(t, in, nil, "--dry-run")
	if code != ExitInput || !strings.Contains(errs, "on_invalid_record to skip or reject") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
}

// The summary has a deleted column, and a drain after a signal that
// succeeded is not labelled failed.
func TestSummaryWords(t *testing.T) {
	var out strings.Builder
	reg := metrics.New(&out, 0, time.Now())
	reg.Loaded("s", 3, 0, 0, 2, false, time.Millisecond)
	reg.Stopped()
	sum := reg.Finish(time.Now(), pipeline.ErrStopped)
	if sum.Status != "stopped by signal, drained" || strings.Contains(out.String(), "failed") {
		t.Fatalf("status %q:\n%s", sum.Status, out.String())
	}
	if !strings.Contains(out.String(), "deleted") {
		t.Fatalf("no deleted column:\n%s", out.String())
	}
	var fout strings.Builder
	failed := metrics.New(&fout, 0, time.Now()).Finish(time.Now(), errors.New("boom"))
	if failed.Status != "failed" {
		t.Fatalf("a failure is %q", failed.Status)
	}
}

// A run with --dry-run-dump ends by naming the folder and what it holds,
// also when it fails.
func TestDumpAnnouncesItself(t *testing.T) {
	for _, c := range []struct {
		in   string
		code int
		want string
	}{
		{example, ExitOK, "holds=\"what the run committed\""},
		{example + `{"type":"RECORD","stream":"orders","record":{"id":"x"}}` + "\n", ExitInput, "before the run stopped"},
	} {
		dump := t.TempDir() + "/dump"
		_, errs, code := runMain(t, c.in, nil, "--dry-run", "--dry-run-dump", dump)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		last := lines[len(lines)-1]
		if code != c.code || !strings.Contains(last, "dry-run dump written") || !strings.Contains(last, dump) || !strings.Contains(last, c.want) {
			t.Fatalf("exit %d, last line %q", code, last)
		}
	}
}

// brokenPipe is a stdout whose reader has gone.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

// A one-shot report that cannot be written (stdout is a pipe whose reader
// has gone: `target-oracle --about --format json | false`) is a failure,
// exit 1 with a message on stderr, not a silent exit 0: Meltano reading
// --about must not take "nothing" for success.
func TestReportNotWrittenFails(t *testing.T) {
	for _, args := range [][]string{{"--about"}, {"--about", "--format", "json"}, {"--about", "--format", "markdown"}, {"--version"}, {"--help"}} {
		var errb strings.Builder
		code := Main(args, IO{Stdin: strings.NewReader(""), State: brokenPipe{}, Stderr: &errb, Dir: t.TempDir()})
		if code != ExitFailed || !strings.Contains(errb.String(), "write the report to standard output: broken pipe") {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 naming the failed write", args, code, errb.String())
		}
	}
}

// A --dry-run-dump directory that cannot be created (here in /proc, where
// nothing can be made, even by root) is a command-line error found before
// any input is read: exit 2, no STATE on stdout. A directory that can be
// created is not left behind by the check when the run stops at a
// configuration error.
func TestDumpDirThatCannotBeCreated(t *testing.T) {
	if _, err := os.Stat("/proc/self"); err != nil {
		t.Skip("no /proc here: no directory that cannot be created")
	}
	out, errs, code := runMain(t, example, nil, "--dry-run", "--dry-run-dump", "/proc/target-oracle-test/dump")
	if code != ExitConfig || out != "" || !strings.Contains(errs, "cannot be created") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 before the run, no states", code, out, errs)
	}
	fresh := filepath.Join(t.TempDir(), "a", "b", "dump")
	_, _, code = runMain(t, example, []string{"TARGET_ORACLE_BATCH_SIZE_ROWS=0"}, "--dry-run", "--dry-run-dump", fresh)
	if code != ExitConfig {
		t.Fatalf("bad setting: exit %d", code)
	}
	if _, err := os.Stat(filepath.Dir(filepath.Dir(fresh))); !os.IsNotExist(err) {
		t.Errorf("the check left %s behind: %v", filepath.Dir(filepath.Dir(fresh)), err)
	}
}
