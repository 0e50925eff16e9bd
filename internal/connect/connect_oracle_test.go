package connect

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
)

// oracleConfig returns the settings for the real-Oracle suite, or skips:
// TARGET_ORACLE_TEST_DSN (any dsn form; an oracle:// URL may carry the
// user and password) plus any TARGET_ORACLE_<SETTING> variables, read as
// --config ENV reads them. With TARGET_ORACLE_TEST_REQUIRE_ORACLE=1 (set
// in CI) a missing DSN fails instead of skipping, so that a broken CI
// setup cannot pass by skipping everything.
func oracleConfig(t *testing.T) *config.Config {
	t.Helper()
	dsn := os.Getenv("TARGET_ORACLE_TEST_DSN")
	if dsn == "" {
		if os.Getenv("TARGET_ORACLE_TEST_REQUIRE_ORACLE") == "1" {
			t.Fatal("TARGET_ORACLE_TEST_REQUIRE_ORACLE=1 but TARGET_ORACLE_TEST_DSN is not set")
		}
		t.Skip("set TARGET_ORACLE_TEST_DSN (e.g. oracle://user:pass@localhost:1521/FREEPDB1) to run the real-Oracle tests; see docs/oracle.md")
	}
	env := append(os.Environ(), "TARGET_ORACLE_DSN="+dsn)
	cfg, _, err := config.Load(config.Sources{ConfigArgs: []string{"ENV"}, Environ: env, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatalf("settings: %v", err)
	}
	return cfg
}

// TestOracleConnectProbeCheck runs Open, Probe, Resolve and Check against
// a real server and checks what can be known about every supported
// version.
func TestOracleConnectProbeCheck(t *testing.T) {
	cfg := oracleConfig(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	db, err := Open(ctx, cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	info, err := Probe(ctx, conn)
	conn.Close()
	if err != nil {
		t.Fatalf("Probe: %v", err)
	}
	t.Logf("server: %+v", info)
	if info.Major < 19 || info.Version == "" || info.DBCharset == "" || info.CurrentSchema == "" || info.SessionUser == "" {
		t.Errorf("incomplete ServerInfo %+v", info)
	}
	if info.IdentifierMaxBytes != 128 {
		t.Errorf("IdentifierMaxBytes = %d on %s, want 128", info.IdentifierMaxBytes, info.Version)
	}
	if info.Major >= 23 && !info.BooleanType {
		t.Errorf("23ai without BOOLEAN: %+v", info)
	}
	if info.Major >= 21 && !info.JSONType {
		t.Errorf("21c+ without JSON type: %+v", info)
	}
	if info.Major < 21 && info.JSONType {
		t.Errorf("JSON type before 21c: %+v", info)
	}

	facts := info.Resolve(cfg)
	if cfg.BooleanType == "number" && facts.BooleanNative || cfg.JSONType == "clob" && facts.JSONNative {
		t.Errorf("explicit settings ignored: %+v", facts)
	}
	if cfg.VarcharMaxBytes == "4000" && facts.VarcharMaxBytes != 4000 {
		t.Errorf("varchar_max_bytes 4000 ignored: %+v", facts)
	}

	report, err := Check(ctx, db, cfg, facts)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	var out bytes.Buffer
	if err := report.Write(&out); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	if !report.OK() {
		t.Errorf("--check says loading cannot work for the CI user")
	}
}

// TestOracleWrongPassword: the server's ORA-01017 comes through, and the
// wrong password is not in the message.
func TestOracleWrongPassword(t *testing.T) {
	cfg := oracleConfig(t)
	const wrong = "Wr0ng-p@ss:word"
	cfg.Password = wrong // the password setting wins over one inside the dsn
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := Open(ctx, cfg)
	if err == nil {
		db.Close()
		t.Fatal("connected with a wrong password")
	}
	if strings.Contains(err.Error(), wrong) {
		t.Errorf("error reveals the password: %v", err)
	}
	if Code(err) != 1017 {
		t.Errorf("error %v: code %d, want ORA-01017", err, Code(err))
	}
}
