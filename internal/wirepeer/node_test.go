package wirepeer_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// TestNodeOracledbSmoke runs a second client, node-oracledb in Thin mode,
// against the peer, so that the peer is not only go-ora's mirror. It
// needs node and a node_modules folder holding oracledb, named by
// TARGET_ORACLE_NODE_MODULES (npm install oracledb in any folder).
func TestNodeOracledbSmoke(t *testing.T) {
	mods := os.Getenv("TARGET_ORACLE_NODE_MODULES")
	if mods == "" {
		t.Skip("set TARGET_ORACLE_NODE_MODULES to a node_modules folder with oracledb (npm install oracledb) to run the node-oracledb smoke test")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	var trace io.Writer
	if os.Getenv("TARGET_ORACLE_WIREPEER_TRACE") != "" {
		trace = os.Stderr
	}
	p, err := wirepeer.Start(wirepeer.Facts{Trace: trace})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	script, err := filepath.Abs("testdata/node-smoke.js")
	if err != nil {
		t.Fatal(err)
	}
	// The deadline only guards against a hang of the peer or the client.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, p.Addr()+"/FREEPDB1", "scott", "tiger")
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node-oracledb: %v\n%s", err, out)
	}
	if perr := p.Err(); perr != nil {
		t.Fatalf("peer: %v", perr)
	}
	if !strings.Contains(string(out), `"rowsAffected":2`) {
		t.Errorf("node-oracledb printed %s, want rowsAffected 2", out)
	}
	want := "connect protocol datatypes auth1 auth2 execute commit logoff"
	if got := strings.Join(roundTrips(p, 1), " "); got != want {
		t.Errorf("round trips:\n got %s\nwant %s", got, want)
	}
	e := p.Executes()[0]
	for i, b := range e.Binds {
		if b.Type != wirepeer.TypeVarchar || b.CSForm != 1 || b.CharsetID != wirepeer.AL32UTF8 {
			t.Errorf("bind %d: %+v, want VARCHAR form 1 AL32UTF8", i+1, b)
		}
	}
	var rows []string
	for _, row := range e.Rows {
		for _, v := range row {
			if v.Null {
				rows = append(rows, "NULL")
			} else {
				rows = append(rows, v.Text)
			}
		}
	}
	if got := strings.Join(rows, " "); got != "a x b NULL" {
		t.Errorf("rows %q, want %q", got, "a x b NULL")
	}
}
