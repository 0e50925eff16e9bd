package oracle_test

import (
	"context"
	"os"
	"testing"

	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/verify"
)

// TestOracleLiveVerify runs --verify's cases (internal/verify: one list,
// shared with the command) on the real server through the engine as the
// CLI builds it; every case must pass.
func TestOracleLiveVerify(t *testing.T) {
	l := newLive(t)
	ctx := context.Background()
	eng := l.engineFor(l.cfg, l.facts, nil)
	defer eng.Close()
	rep, err := verify.Run(ctx, verify.Options{
		Config: l.cfg, Facts: l.facts, Server: serverOf(l.facts), Engine: eng, Dial: oracle.DialDB(l.db), Log: l.logger(),
		Check: func(ctx context.Context) (connect.Report, error) { return connect.Check(ctx, l.db, l.cfg, l.facts) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		_ = rep.Write(os.Stderr, "text")
		t.Fatal("verify failed on this server (report above)")
	}
}
