package cli

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConnectErrorsReadOnce: every connect path (TNS alias, descriptor,
// Easy Connect, host/port) fails with one "connect" label, never
// "connect: connect:", and says what was tried, the driver's error and a
// hint, in a load and in --check alike.
func TestConnectErrorsReadOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip("no loopback listener:", err)
	}
	addr := ln.Addr().String()
	port := addr[strings.LastIndexByte(addr, ':')+1:]
	ln.Close() // a closed port: connection refused
	tns := t.TempDir()
	desc := "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=127.0.0.1)(PORT=" + port + "))(CONNECT_DATA=(SERVICE_NAME=X)))"
	ora := "MYDB = " + desc + "\nNOHOST = (DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(PORT=1))(CONNECT_DATA=(SERVICE_NAME=X)))\n"
	if err := os.WriteFile(filepath.Join(tns, "tnsnames.ora"), []byte(ora), 0o600); err != nil {
		t.Fatal(err)
	}
	refused := []string{"TCP connection to " + addr + ": connection refused", "nothing listens there: check host and port"}
	cases := []struct {
		name     string
		settings map[string]any
		code     int
		want     []string
	}{
		{"alias refused", map[string]any{"dsn": "MYDB"}, ExitFailed, append([]string{"Oracle at TNS alias MYDB (address " + addr + ")"}, refused...)},
		{"alias without host", map[string]any{"dsn": "NOHOST"}, ExitConfig, []string{"has no (HOST=…)", "TNS alias NOHOST in " + filepath.Join(tns, "tnsnames.ora")}},
		{"alias unknown", map[string]any{"dsn": "NOPE"}, ExitConfig, []string{`TNS alias "NOPE" is not in`, "aliases there: MYDB, NOHOST"}},
		{"alias without tns_admin", map[string]any{"dsn": "MYDB", "tns_admin": nil}, ExitConfig, []string{`dsn "MYDB" looks like a TNS alias`}},
		{"descriptor refused", map[string]any{"dsn": desc}, ExitFailed, append([]string{"Oracle at the connect descriptor in dsn (address " + addr + ")"}, refused...)},
		{"easy connect refused", map[string]any{"dsn": addr + "/X"}, ExitFailed, append([]string{"Oracle at " + addr + "/X: "}, refused...)},
		{"settings refused", map[string]any{"host": "127.0.0.1", "port": port, "service_name": "X"}, ExitFailed, append([]string{"Oracle at " + addr + "/X: "}, refused...)},
		{"service and sid", map[string]any{"service_name": "X", "sid": "Y"}, ExitConfig, []string{"set service_name or sid, not both"}},
	}
	for _, tc := range cases {
		s := map[string]any{"user": "u", "password": "p", "tns_admin": tns, "connect_timeout_seconds": 5}
		for k, v := range tc.settings {
			s[k] = v
		}
		b, _ := json.Marshal(s)
		cfg := writeFile(t, "c.json", string(b))
		for _, mode := range []struct{ label, flag string }{{"connect", "--input"}, {"--check: connect", "--check"}} {
			args := []string{"--config", cfg, mode.flag}
			if mode.flag == "--input" {
				args = append(args, writeFile(t, "in.jsonl", ""))
			}
			_, errs, code := runMain(t, "", []string{"TNS_ADMIN="}, args...)
			line := strings.TrimSpace(errs)
			if code != tc.code || !strings.HasPrefix(line, "target-oracle: "+mode.label+": ") {
				t.Errorf("%s, %s: exit %d (want %d), stderr %q: want one line starting %q", tc.name, mode.flag, code, tc.code, errs, "target-oracle: "+mode.label+": ")
				continue
			}
			if n := strings.Count(line, "connect:"); n != 1 || strings.Contains(line, "connect: connect") || strings.Contains(line, "\n") {
				t.Errorf("%s, %s: %q: want one line with the connect label once", tc.name, mode.flag, line)
			}
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("%s, %s: %q lacks %q", tc.name, mode.flag, line, w)
				}
			}
		}
	}
}
