//go:build !race

// go-ora v2.9.0's break path has a data race of its own: Session.IsBreak
// reads breakConn without the lock that BreakConnection writes it under
// (network/session.go:377 and :476). The race detector reports it in the
// client, not the peer, so this test stays out of -race runs.

package wirepeer_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// TestBreak cancels an execute the peer holds: go-ora sends a break
// marker, the peer and go-ora exchange resets, the call fails with
// ORA-01013 and the session goes on.
func TestBreak(t *testing.T) {
	p, db := open(t, wirepeer.Facts{HoldOn: "SLOW"})
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := conn.ExecContext(ctx, `INSERT /* SLOW */ INTO T (A) VALUES (:1)`, []sql.NullString{{String: "1", Valid: true}})
		done <- err
	}()
	<-p.Held()
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "ORA-01013") {
		t.Fatalf("held execute: error %v, want ORA-01013", err)
	}
	if _, err := conn.ExecContext(context.Background(), `INSERT INTO T (A) VALUES (:1)`, []sql.NullString{{String: "2", Valid: true}}); err != nil {
		t.Fatalf("execute after the break: %v", err)
	}
	var broken int
	for _, c := range p.Calls() {
		if c.Broken {
			broken++
		}
	}
	if broken != 1 {
		t.Errorf("%d broken calls, want 1", broken)
	}
}
