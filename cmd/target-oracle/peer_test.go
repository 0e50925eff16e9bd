package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
	"github.com/target-oracle/target-oracle/internal/wirepeer/fakewire"
)

// TestRunThroughThePeer runs the target process against the wire peer,
// the fake Oracle behind it: connect (TCP, login, the connect-time
// probes), session setup, DDL, MERGE and INSERT, commits, states. The
// peer sends a query id with every query's reply, so go-ora prints
// "query ID: …" with fmt.Println during the run: it must land on stderr
// and only STATE lines on file descriptor 1 (the stdout guard).
func TestRunThroughThePeer(t *testing.T) {
	db := fake.New(fake.Options{Schema: "SCOTT"})
	p, err := wirepeer.Start(wirepeer.Facts{Backend: fakewire.Backend(db), QueryID: 0x1122334455667788})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		p.Close()
		if err := p.Err(); err != nil {
			t.Errorf("peer: %v", err)
		}
	}()
	host, port, _ := net.SplitHostPort(p.Addr())
	n, _ := strconv.Atoi(port)
	cfg, _ := json.Marshal(map[string]any{"host": host, "port": n, "service_name": "FREEPDB1", "user": "scott", "password": "tiger"})
	path := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := target(t, "--config", path)
	cmd.Stdin = strings.NewReader(input)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s\nnot served: %v", err, stderr.String(), p.Unserved())
	}
	if want := "{\"a\":1}\n{\"a\":2,\"b\":1}\n"; string(out) != want && string(out) != "{\"a\":2,\"b\":1}\n" {
		t.Errorf("stdout = %q, want state lines only (%q)", out, want)
	}
	if !strings.Contains(stderr.String(), "query ID:  1234605616436508552") {
		t.Errorf("go-ora's query ID print is not on stderr:\n%s", stderr.String())
	}
	if rows := db.Rows("SCOTT.A"); len(rows) != 2 || rows[1]["V"] != "two" {
		t.Errorf("SCOTT.A rows %v", rows)
	}
	if rows := db.Rows("SCOTT.B"); len(rows) != 1 {
		t.Errorf("SCOTT.B rows %v", rows)
	}
	if u := p.Unserved(); len(u) > 0 {
		t.Errorf("not served: %v", u)
	}
}
