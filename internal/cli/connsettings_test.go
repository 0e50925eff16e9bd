package cli

import (
	"strings"
	"testing"
)

// TestConnectSettingsErrorsExit2: a connection setting that is wrong in
// itself (a dsn naming no host or service, a port out of range, an
// option go-ora does not know, service_name and sid both) is found before
// any socket is opened and is a configuration error: exit 2 (SPEC §2),
// in a load, --check, --verify and --benchmark alike, never exit 1 (which
// says the database failed, and an orchestrator may retry). Nothing
// reaches stdout, and warnings about the dsn are log records of the run's
// logger (log_format json makes them JSON), not lines of the standard
// library's log package.
func TestConnectSettingsErrorsExit2(t *testing.T) {
	in := writeFile(t, "in.singer", example)
	for _, tc := range []struct{ cfg, want string }{
		{`{"dsn":"oracle://u:p@127.0.0.1:99999/svc"}`, "port in dsn"},
		{`{"dsn":"oracle://u:p@/svc"}`, "has no host"},
		{`{"dsn":"oracle://u:p@127.0.0.1:1"}`, "names no service"},
		{`{"dsn":"oracle://u:p@127.0.0.1:1/svc?bogus=1"}`, "BOGUS"},
		{`{"host":"127.0.0.1","port":1,"user":"u","password":"p","sid":"A","service_name":"B"}`, "not both"},
		{`{"dsn":"(DESCRIPTION=(((","user":"u","password":"p"}`, "unbalanced"},
	} {
		cfg := writeFile(t, "c.json", tc.cfg)
		for _, mode := range [][]string{{"--input", in}, {"--check"}, {"--verify"}, {"--benchmark"}} {
			args := append([]string{"--config", cfg}, mode...)
			out, errs, code := runMain(t, "", nil, args...)
			if code != ExitConfig || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("%s %v: exit %d, stdout %q, stderr %q; want exit 2, no stdout, %q", tc.cfg, mode, code, out, errs, tc.want)
			}
		}
	}
	// A dsn warning (an ignored Easy Connect server type) is written by
	// the run's logger: with log_format json it is a JSON record.
	cfg := writeFile(t, "c.json", `{"dsn":"127.0.0.1:1/svc:pooled","user":"u","password":"p","connect_timeout_seconds":2,"log_format":"json"}`)
	_, errs, code := runMain(t, "", nil, "--config", cfg, "--check")
	if code != ExitFailed {
		t.Errorf("unreachable server: exit %d, want 1", code)
	}
	found := false
	for _, line := range strings.Split(errs, "\n") {
		if strings.Contains(line, "server type") {
			found = true
			if !strings.HasPrefix(line, "{") {
				t.Errorf("dsn warning not written by the run's JSON logger: %q", line)
			}
		}
	}
	if !found {
		t.Errorf("no warning about the ignored server type in %q", errs)
	}
}
