package benchmark

import (
	"context"
	"database/sql"
	"net"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/testkit"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

type countingDialer struct{ r *RoundTrips }

func (d countingDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return d.r.Wrap(c), nil
}

// TestRoundTripsMatchThePeer: the net.Conn wrapper installed through
// go-ora's custom dialer counts exactly the round trips the wire peer
// served (login, array INSERTs with and without temporary LOBs, commit),
// the real go-ora v2.9.0 client talking.
func TestRoundTripsMatchThePeer(t *testing.T) {
	p := testkit.Peer(t, wirepeer.Facts{})
	var rt RoundTrips
	oc := go_ora.NewConnector(p.URL()).(*go_ora.OracleConnector)
	oc.Dialer(countingDialer{&rt})
	db := sql.OpenDB(oc)
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	afterLogin := rt.Count()
	if served := len(p.Calls()); afterLogin != int64(served) || served == 0 {
		t.Fatalf("login: counted %d round trips, the peer served %d", afterLogin, served)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := []sql.NullString{{String: "1", Valid: true}, {String: "2", Valid: true}, {String: "3", Valid: true}}
	names := []sql.NullString{{String: "a", Valid: true}, {}, {String: "c", Valid: true}}
	if _, err := tx.ExecContext(ctx, `INSERT INTO T (A, B) VALUES (TO_NUMBER(:1), :2)`, ids, names); err != nil {
		t.Fatal(err)
	}
	clobs := []go_ora.Clob{{String: "x", Valid: true}, {String: "y", Valid: true}}
	if _, err := tx.ExecContext(ctx, `INSERT INTO T (A, C) VALUES (TO_NUMBER(:1), :2)`, ids[:2], clobs); err != nil {
		t.Fatal(err)
	}
	// A request of many packets (SDU 8192) is one round trip.
	var big, bigNames []sql.NullString
	for i := 0; i < 3000; i++ {
		big = append(big, sql.NullString{String: "1", Valid: true})
		bigNames = append(bigNames, sql.NullString{String: "a long enough value to fill several packets", Valid: true})
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO T (A, B) VALUES (TO_NUMBER(:1), :2)`, big, bigNames); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := p.Err(); err != nil {
		t.Fatalf("peer: %v", err)
	}
	counted, served := rt.Count(), int64(len(p.Calls()))
	if counted != served {
		var names []string
		for _, c := range p.Calls() {
			names = append(names, c.Name)
		}
		t.Fatalf("counted %d round trips, the peer served %d: %v", counted, served, names)
	}
	if counted-afterLogin < 4 {
		t.Errorf("%d round trips for two INSERTs (one with 2 temporary LOBs) and a commit: too few to be counted right", counted-afterLogin)
	}
	conn.Close()
}
