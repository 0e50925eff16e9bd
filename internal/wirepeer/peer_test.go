package wirepeer_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// open starts a peer with facts and a database/sql pool on go-ora for it.
func open(t *testing.T, f wirepeer.Facts) (*wirepeer.Peer, *sql.DB) {
	t.Helper()
	p, err := wirepeer.Start(f)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(go_ora.NewConnector(p.URL()))
	t.Cleanup(func() {
		db.Close()
		p.Close()
		if err := p.Err(); err != nil {
			t.Errorf("peer: %v", err)
		}
	})
	return p, db
}

func TestLogin(t *testing.T) {
	p, db := open(t, wirepeer.Facts{})
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	got := strings.Join(p.CallNames(1), " ")
	t.Log(got)
}
