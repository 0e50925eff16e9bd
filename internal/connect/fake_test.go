package connect

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/sijms/go-ora/v2/network"
)

// fakeServer answers queries by the first rule whose fragment the SQL
// contains, and records the statements it was sent. It stands in for
// Oracle in the tests of Probe and Check; it knows nothing of SQL.
type fakeServer struct {
	rules []rule
	mu    sync.Mutex
	sent  []string
}

type rule struct {
	fragment string
	cols     []string
	rows     [][]driver.Value
	err      error
	panic    any // the driver panics with this value, as go-ora may
}

// ora is a server error as go-ora returns it.
func ora(code int, msg string) error { return &network.OracleError{ErrCode: code, ErrMsg: msg} }

func (s *fakeServer) db(t *testing.T) *sql.DB {
	db := sql.OpenDB(fakeConnector{s})
	t.Cleanup(func() { db.Close() })
	return db
}

func (s *fakeServer) conn(t *testing.T) *sql.Conn {
	c, err := s.db(t).Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func (s *fakeServer) sentContaining(fragment string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, q := range s.sent {
		if strings.Contains(q, fragment) {
			n++
		}
	}
	return n
}

type fakeConnector struct{ s *fakeServer }

func (c fakeConnector) Connect(context.Context) (driver.Conn, error) { return fakeConn(c), nil }
func (c fakeConnector) Driver() driver.Driver                        { return nil }

type fakeConn struct{ s *fakeServer }

func (c fakeConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("fake: no Prepare") }
func (c fakeConn) Close() error                        { return nil }
func (c fakeConn) Begin() (driver.Tx, error)           { return nil, errors.New("fake: no transactions") }

func (c fakeConn) QueryContext(_ context.Context, query string, _ []driver.NamedValue) (driver.Rows, error) {
	c.s.mu.Lock()
	c.s.sent = append(c.s.sent, query)
	c.s.mu.Unlock()
	for _, r := range c.s.rules {
		if strings.Contains(query, r.fragment) {
			if r.panic != nil {
				panic(r.panic)
			}
			if r.err != nil {
				return nil, r.err
			}
			return &fakeRows{cols: r.cols, rows: r.rows}, nil
		}
	}
	return nil, ora(942, "ORA-00942: table or view does not exist")
}

type fakeRows struct {
	cols []string
	rows [][]driver.Value
	i    int
}

func (r *fakeRows) Columns() []string { return r.cols }
func (r *fakeRows) Close() error      { return nil }
func (r *fakeRows) Next(dest []driver.Value) error {
	if r.i >= len(r.rows) {
		return io.EOF
	}
	copy(dest, r.rows[r.i])
	r.i++
	return nil
}

// row is a one-row answer.
func row(vals ...driver.Value) rule {
	cols := make([]string, len(vals))
	for i := range cols {
		cols[i] = "C"
	}
	return rule{cols: cols, rows: [][]driver.Value{vals}}
}

func on(fragment string, r rule) rule { r.fragment = fragment; return r }

func fails(fragment string, err error) rule { return rule{fragment: fragment, err: err} }

func rows(fragment string, ncols int, vals ...driver.Value) rule {
	r := rule{fragment: fragment, cols: make([]string, ncols)}
	for i := 0; i+ncols <= len(vals); i += ncols {
		r.rows = append(r.rows, vals[i:i+ncols])
	}
	return r
}
