package cli

import (
	"io"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestOneShotFlags: --verify and --benchmark take --format text|json and
// (--benchmark) --rows, and exclude the other modes: usage errors exit 2
// and write nothing to stdout.
func TestOneShotFlags(t *testing.T) {
	in := writeFile(t, "in.singer", example)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--verify", "--benchmark"}, "exclude each other"},
		{[]string{"--verify", "--check"}, "exclude --check"},
		{[]string{"--benchmark", "--dry-run"}, "exclude --check, --dry-run"},
		{[]string{"--verify", "--input", in}, "read no input"},
		{[]string{"--rows", "5"}, "--rows needs --benchmark"},
		{[]string{"--benchmark", "--rows", "0"}, "at least 1"},
		{[]string{"--verify", "--format", "markdown"}, "must be text or json"},
		{[]string{"--format", "json"}, "--format needs --about, --verify or --benchmark"},
		{[]string{"--verify"}, "configuration"},
		{[]string{"--dry-run", "--input", ""}, `invalid value "" for flag -input: needs a file name, not an empty value`},
		{[]string{"--dry-run", "--input", in, "--input", in}, `for flag -input: given twice`},
		{[]string{"--dry-run", "--dry-run-dump", ""}, `for flag -dry-run-dump: needs a directory, not an empty value`},
	} {
		out, errs, code := runMain(t, "", nil, tc.args...)
		if code != ExitConfig || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, no stdout, %q", tc.args, code, out, errs, tc.want)
		}
	}
}

// TestOneShotUnreachable: a database that cannot be reached fails --verify
// and --benchmark with exit 1, the error on stderr and nothing on stdout.
func TestOneShotUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	ln.Close() // nothing listens there now: connection refused
	cfg := writeFile(t, "c.json", `{"host":"127.0.0.1","port":`+itoa(addr.Port)+`,"service_name":"FREEPDB1","user":"u","password":"p","connect_timeout_seconds":5}`)
	for _, mode := range []string{"--verify", "--benchmark"} {
		out, errs, code := runMain(t, "", nil, "--config", cfg, mode, "--format", "json")
		if code != ExitFailed || out != "" || !strings.Contains(errs, mode+": connect") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", mode, code, out, errs)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestOneShotSignal: the first SIGTERM cancels the run's context (the run
// then drops its scratch tables) and decides the exit code, 143.
func TestOneShotSignal(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	ctx, signalled, stop := oneShotContext(IO{Signals: sigs}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	if signalled() != 0 {
		t.Fatal("signalled before any signal")
	}
	sigs <- syscall.SIGTERM
	<-ctx.Done()
	if s := signalled(); s != syscall.SIGTERM {
		t.Fatalf("signalled %v", s)
	}
	var out strings.Builder
	code := finish("--verify", func(w io.Writer, _ string) error { _, err := io.WriteString(w, "report\n"); return err },
		func() bool { return false }, ctx.Err(), "text", IO{State: &out, Stderr: io.Discard}, func(string, error) {}, signalled)
	if code != 128+15 || out.String() != "report\n" {
		t.Errorf("exit %d, stdout %q: want 143 and the report", code, out.String())
	}
}
