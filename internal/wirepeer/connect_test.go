package wirepeer_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// TestProjectConnectPath opens the pool the way the target does
// (settings → go-ora URL → guarded connector → ping) against the peer.
func TestProjectConnectPath(t *testing.T) {
	p, err := wirepeer.Start(wirepeer.Facts{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tt := range []struct {
		name, password, err string
	}{
		{"right password", "tiger", ""},
		{"wrong password", "lion", "ORA-01017"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := []string{
				"TARGET_ORACLE_HOST=127.0.0.1",
				"TARGET_ORACLE_PORT=" + p.Addr()[strings.LastIndexByte(p.Addr(), ':')+1:],
				"TARGET_ORACLE_SERVICE_NAME=FREEPDB1",
				"TARGET_ORACLE_USER=scott",
				"TARGET_ORACLE_PASSWORD=" + tt.password,
			}
			cfg, _, err := config.Load(config.Sources{ConfigArgs: []string{"ENV"}, Environ: env, WorkDir: t.TempDir()})
			if err != nil {
				t.Fatalf("settings: %v", err)
			}
			db, err := connect.OpenWrapped(context.Background(), cfg, slog.Default(), nil)
			if tt.err == "" {
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				db.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Open: error %v, want %s", err, tt.err)
			}
			if strings.Contains(err.Error(), tt.password) {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
	if err := p.Err(); err != nil {
		t.Errorf("peer: %v", err)
	}
}
