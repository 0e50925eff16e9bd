package connect

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
)

// A dsn's own CONNECT_TIMEOUT (a descriptor, a tnsnames.ora entry, an
// Easy Connect parameter) bounds the connection, although go-ora v2.9.0
// ignores it there: against a listener that never answers, with
// connect_timeout_seconds 30, the attempt ends after about the dsn's
// value and says which setting bounded it.
func TestDSNConnectTimeoutIsHonoured(t *testing.T) {
	addr := silentListener(t)
	host, port, _ := net.SplitHostPort(addr)
	desc := fmt.Sprintf("(DESCRIPTION=(CONNECT_TIMEOUT=1)(ADDRESS=(PROTOCOL=TCP)(HOST=%s)(PORT=%s))(CONNECT_DATA=(SERVICE_NAME=svc)))", host, port)
	tns := t.TempDir()
	if err := os.WriteFile(filepath.Join(tns, "tnsnames.ora"), []byte("SLOW = "+desc+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, dsn, want string }{
		{"descriptor", desc, "the descriptor's CONNECT_TIMEOUT"},
		{"tnsnames entry", "SLOW", "the descriptor's CONNECT_TIMEOUT"},
		{"easy connect", addr + "/svc?connect_timeout=1", "the Easy Connect parameter CONNECT_TIMEOUT"},
		{"easy connect, ms", addr + "/svc?CONNECT_TIMEOUT=800+ms", "the Easy Connect parameter CONNECT_TIMEOUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := baseConfig()
			cfg.DSN, cfg.TNSAdmin, cfg.ConnectTimeoutSeconds = config.Secret(tc.dsn), tns, 30
			took, err := within(t, 20*time.Second, func() error {
				ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
				defer cancel()
				db, err := Open(ctx, cfg)
				if err == nil {
					db.Close()
				}
				return err
			})
			if err == nil {
				t.Fatal("connected to a listener that never answers")
			}
			if took > 6*time.Second {
				t.Errorf("took %s: the dsn's CONNECT_TIMEOUT (1 s) did not bound the attempt (connect_timeout_seconds is 30)", took)
			}
			if !strings.Contains(err.Error(), "timed out after") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say it timed out by %s", err, tc.want)
			}
		})
	}
}

// How the dsn's timeouts combine with connect_timeout_seconds, and which
// ones are warned about.
func TestDSNNetTimeouts(t *testing.T) {
	two := "(ADDRESS=(PROTOCOL=TCP)(HOST=a)(PORT=1521))(ADDRESS=(PROTOCOL=TCP)(HOST=b)(PORT=1521))"
	data := "(CONNECT_DATA=(SERVICE_NAME=s))"
	for _, tc := range []struct {
		dsn           string
		attempt, dial time.Duration
		warn          string
	}{
		{"(DESCRIPTION=" + two + data + ")", 30 * time.Second, 0, ""},
		{"(DESCRIPTION=(CONNECT_TIMEOUT=5)" + two + data + ")", 10 * time.Second, 5 * time.Second, ""},
		{"(DESCRIPTION=(CONNECT_TIMEOUT=5)(TRANSPORT_CONNECT_TIMEOUT=2)" + two + data + ")", 10 * time.Second, 2 * time.Second, ""},
		{"(DESCRIPTION=(TRANSPORT_CONNECT_TIMEOUT=500 ms)" + two + data + ")", 30 * time.Second, 500 * time.Millisecond, ""},
		{"(DESCRIPTION=(RETRY_COUNT=3)(RETRY_DELAY=2)" + two + data + ")", 30 * time.Second, 0, "RETRY_COUNT=3 is not honoured"},
		{"(DESCRIPTION=(CONNECT_TIMEOUT=soon)" + two + data + ")", 30 * time.Second, 0, "CONNECT_TIMEOUT=soon is ignored"},
		{"h:1521/s?connect_timeout=7&transport_connect_timeout=3", 7 * time.Second, 3 * time.Second, ""},
		{"h:1521/s?retry_count=2", 30 * time.Second, 0, "RETRY_COUNT=2 is not honoured"},
	} {
		cfg := baseConfig()
		cfg.DSN = config.Secret(tc.dsn)
		tg, err := resolve(cfg, noEnv)
		if err != nil {
			t.Errorf("%s: %v", tc.dsn, err)
			continue
		}
		if got, _ := tg.connectTimeout(); got != tc.attempt || tg.netTimeouts.dial() != tc.dial {
			t.Errorf("%s: attempt bound %s, dial bound %s; want %s, %s", tc.dsn, got, tg.netTimeouts.dial(), tc.attempt, tc.dial)
		}
		warned := strings.Join(tg.warnings, "\n")
		if (tc.warn == "") != (warned == "") || !strings.Contains(warned, tc.warn) {
			t.Errorf("%s: warnings %q, want %q", tc.dsn, warned, tc.warn)
		}
	}
}
