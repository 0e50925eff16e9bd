package cli

import (
	"net"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/testkit"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// TestCheckReportsSettingsTheServerCannotHonour: a config written for a
// newer server (json_type json, boolean_type boolean, varchar_max_bytes
// 32767) pointed at a 19c one. --check still prints its report on stdout
// (the server facts, privileges, quota) with a FAIL line naming each
// setting (docs/oracle.md), and exits 2 as a load with the same settings
// does: the settings are wrong, not the database (SPEC §2).
func TestCheckReportsSettingsTheServerCannotHonour(t *testing.T) {
	db := fake.New(fake.Options{Schema: "SCOTT"}) // 19c, MAX_STRING_SIZE STANDARD
	p := testkit.Peer(t, wirepeer.Facts{Backend: fakewire.Backend(db)})
	host, port, _ := net.SplitHostPort(p.Addr())
	base := `{"host":"` + host + `","port":` + port + `,"service_name":"FREEPDB1","user":"scott","password":"tiger","connect_timeout_seconds":10`
	for _, tc := range []struct{ setting, want string }{
		{`"json_type":"json"`, "[FAIL] settings  json_type is json but the server has no JSON type"},
		{`"boolean_type":"boolean"`, "[FAIL] settings  boolean_type is boolean but the server has no BOOLEAN type"},
		{`"varchar_max_bytes":"32767"`, "[FAIL] settings  varchar_max_bytes is 32767 but MAX_STRING_SIZE is STANDARD"},
	} {
		cfg := writeFile(t, "c.json", base+","+tc.setting+"}")
		out, errs, code := runMain(t, "", nil, "--config", cfg, "--check")
		if code != ExitConfig || !strings.Contains(out, tc.want) ||
			!strings.Contains(out, "Oracle Database 19.3") || !strings.Contains(out, "[ok]   privilege CREATE TABLE") {
			t.Errorf("--check with %s: exit %d (want 2), stdout:\n%s\nstderr:\n%s\nwant a report with %q", tc.setting, code, out, errs, tc.want)
		}
		// A load with the same settings refuses them before loading: exit 2.
		out, errs, code = runMain(t, example, nil, "--config", cfg)
		if code != ExitConfig || out != "" || !strings.Contains(errs, "the server cannot honour these settings") {
			t.Errorf("load with %s: exit %d, stdout %q, stderr %s", tc.setting, code, out, errs)
		}
	}
	if err := p.Err(); err != nil {
		t.Errorf("peer: %v", err)
	}
}
