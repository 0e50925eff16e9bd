package wirepeer_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// tableBackend is a backend of one table of text rows: a query returns
// them, an INSERT appends its rows (a row whose value is "bad" fails
// with ORA-01400), "LOSE" loses the connection; a transaction is kept
// per session and commit publishes it.
type tableBackend struct {
	mu    sync.Mutex
	rows  []string
	calls []string
}

func (b *tableBackend) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.rows)
}

func (b *tableBackend) log() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return fmt.Sprint(b.calls)
}

type tableSession struct {
	b       *tableBackend
	pending []string
}

func (b *tableBackend) Open(context.Context, int) (wirepeer.BackendSession, error) {
	return &tableSession{b: b}, nil
}

func (s *tableSession) Run(_ context.Context, st *wirepeer.Statement) (*wirepeer.Result, error) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.calls = append(s.b.calls, fmt.Sprintf("%s autocommit=%v batch=%v", strings.Fields(st.SQL)[0], st.AutoCommit, st.BatchErrors))
	switch {
	case st.Query:
		res := &wirepeer.Result{Columns: []string{"V", "N"}}
		for i, v := range s.b.rows {
			res.Data = append(res.Data, []sql.NullString{{String: v, Valid: true}, {String: fmt.Sprint(i + 1), Valid: true}})
		}
		return res, nil
	case strings.Contains(st.SQL, "LOSE"):
		return nil, wirepeer.ErrLost
	case strings.HasPrefix(st.SQL, "INSERT"):
		res := &wirepeer.Result{}
		for i, row := range st.Rows {
			if row[0].Text == "bad" {
				res.RowErrors = append(res.RowErrors, wirepeer.RowError{Row: i, Code: 1400, Msg: "cannot insert NULL"})
				continue
			}
			s.pending = append(s.pending, row[0].Text)
			res.RowsAffected++
		}
		if st.AutoCommit {
			s.b.rows, s.pending = append(s.b.rows, s.pending...), nil
		}
		return res, nil
	}
	return nil, &wirepeer.ServerError{Code: 900, Msg: "invalid SQL statement"}
}

func (s *tableSession) Commit(context.Context) error {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.rows, s.pending = append(s.b.rows, s.pending...), nil
	return nil
}

func (s *tableSession) Rollback(context.Context) error { s.pending = nil; return nil }
func (s *tableSession) Close() error                   { return nil }

// TestBackend runs statements through the peer into a backend: a query
// of more rows than go-ora prefetches (describe, rows, fetch calls, the
// end by ORA-01403), batch errors with the failed rows' offsets, a
// transaction's commit, an ORA error and a lost connection.
func TestBackend(t *testing.T) {
	b := &tableBackend{}
	p, db := open(t, wirepeer.Facts{Backend: b})
	ctx := context.Background()
	var vals []sql.NullString
	for i := range 60 {
		vals = append(vals, sql.NullString{String: fmt.Sprintf("v%02d", i), Valid: true})
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO T (V) VALUES (:1)`, vals); err != nil {
		t.Fatalf("insert: %v", err)
	}
	rows, err := db.QueryContext(ctx, `SELECT V, N FROM T`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var v, n string
		if err := rows.Scan(&v, &n); err != nil {
			t.Fatal(err)
		}
		got = append(got, v+"="+n)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if len(got) != 60 || got[0] != "v00=1" || got[59] != "v59=60" {
		t.Fatalf("query: %d rows %v", len(got), got)
	}
	var fetches int
	for _, c := range p.Calls() {
		if c.Name == "fetch" {
			fetches++
		}
	}
	if fetches < 1 {
		t.Errorf("no fetch call for 60 rows (go-ora prefetches 25)")
	}

	_, err = db.ExecContext(ctx, `INSERT INTO T (V) VALUES (:1)`, []sql.NullString{{String: "a", Valid: true}, {String: "bad", Valid: true}, {String: "c", Valid: true}})
	var oe *network.OracleError
	if !errors.As(err, &oe) || oe.ErrCode != 1400 {
		t.Fatalf("batch error: %v, want ORA-01400 (the first failed row's)", err)
	}
	if n := b.count(); n != 62 {
		t.Errorf("%d rows after the batch error, want 62 (the two good rows committed)", n)
	}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO T (V) VALUES (:1)`, []sql.NullString{{String: "t", Valid: true}}); err != nil {
		t.Fatal(err)
	}
	if n := b.count(); n != 62 {
		t.Errorf("%d rows before the commit, want 62", n)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := b.count(); n != 63 {
		t.Errorf("%d rows after the commit, want 63", n)
	}

	if _, err := db.ExecContext(ctx, `UPDATE T SET V = 1`); err == nil || !strings.Contains(err.Error(), "ORA-00900") {
		t.Errorf("update: %v, want ORA-00900", err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `INSERT /* LOSE */ INTO T (V) VALUES (:1)`, []sql.NullString{{String: "x", Valid: true}}); err == nil {
		t.Errorf("lost connection: no error")
	}
	want := []string{"INSERT autocommit=true batch=true", "SELECT autocommit=false batch=false",
		"INSERT autocommit=true batch=true", "INSERT autocommit=false batch=false", "UPDATE autocommit=true batch=false",
		"INSERT autocommit=true batch=false"}
	if b.log() != fmt.Sprint(want) {
		t.Errorf("backend calls\n%v\nwant\n%v", b.log(), want)
	}
}
