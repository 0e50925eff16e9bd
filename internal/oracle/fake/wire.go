package fake

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// This file serves a front end that knows statements only as they travel
// on the wire (the wire peer, internal/wirepeer): SQL text, the Go values
// of its binds, and whether the client asked to autocommit. It classifies
// the statement from its text, runs it with the engine's Conn semantics
// (faults included) and reports the failed rows of an array execute each.

// RowError is one failed row of an array execute in batch-error mode.
type RowError struct {
	Row int // from 0
	Err error
}

// WireSession is one server session driven from the wire: executes
// without autocommit open a transaction that Commit or Rollback ends, as
// on a server.
type WireSession struct {
	db *DB
	c  *conn
}

// OpenWire opens a session (a dial: OpDial faults apply).
func (db *DB) OpenWire(ctx context.Context) (*WireSession, error) {
	c, err := db.Dial(ctx)
	if err != nil {
		return nil, err
	}
	return &WireSession{db: db, c: c.(*conn)}, nil
}

// Lost reports that the session was lost (a fault): the front end drops
// the connection.
func (s *WireSession) Lost() bool {
	s.db.mu.Lock()
	defer s.db.mu.Unlock()
	return s.c.lost
}

// Statement classifies SQL text as the engine's renderer marks it:
// PL/SQL blocks, DDL, DML, and queries (query: the client executes it as
// a SELECT), with n binds labelled as the fake reads them (a catalog
// query's owner and table, by position).
func Statement(sql string, n int, query bool) oraclesql.Statement {
	st := oraclesql.Statement{SQL: sql, Kind: oraclesql.KindDML}
	verb := strings.ToUpper(strings.Fields(sql + " x")[0])
	switch {
	case query:
		st.Kind = oraclesql.KindQuery
	case verb == "BEGIN" || verb == "DECLARE":
		st.Kind = oraclesql.KindPLSQL
	case verb == "CREATE" || verb == "ALTER" || verb == "COMMENT" || verb == "GRANT" ||
		verb == "TRUNCATE" || verb == "DROP" || verb == "RENAME":
		st.Kind = oraclesql.KindDDL
	}
	current := strings.Contains(sql, "SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA')")
	for i := range n {
		label := "bind" + strconv.Itoa(i+1)
		if query {
			switch {
			case current:
				label = "table"
			case i%2 == 0:
				label = "owner"
			default:
				label = "table"
			}
		}
		st.Binds = append(st.Binds, oraclesql.Bind{Column: label, Source: oraclesql.FromRow, Index: i})
	}
	return st
}

// Exec runs a statement that is not a query. autocommit is the client's
// commit flag: without it a DML statement joins (or opens) the session's
// transaction. In an array execute that fails, rowErrs are the failed
// rows and err the first one's error.
func (s *WireSession) Exec(ctx context.Context, st *oraclesql.Statement, args []any, autocommit bool) (n int64, rowErrs []RowError, err error) {
	if st.Kind == oraclesql.KindDML && !autocommit {
		s.db.mu.Lock()
		open := s.c.tx != nil
		s.db.mu.Unlock()
		if !open {
			if _, err := s.c.Begin(ctx); err != nil {
				return 0, nil, err
			}
		}
		n, err = s.c.tx.Exec(ctx, st, args)
	} else {
		n, err = s.c.Exec(ctx, st, args)
	}
	s.db.mu.Lock()
	rowErrs = append([]RowError(nil), s.db.rowErrs...)
	s.db.mu.Unlock()
	if err == nil {
		rowErrs = nil
	}
	return n, rowErrs, err
}

// Query runs a query and returns its column names (from the select list)
// and rows.
func (s *WireSession) Query(ctx context.Context, st *oraclesql.Statement, args []any) ([]string, [][]sql.NullString, error) {
	if rows, ok, err := s.queryProbe(ctx, st, args); ok {
		return selectColumns(st.SQL), rows, err
	}
	if strings.HasSuffix(st.SQL, " FOR UPDATE") {
		// A read inside the batch's transaction (history's stored
		// versions): it sees, and locks, what the transaction wrote.
		t, err := s.current(ctx)
		if err != nil {
			return nil, nil, err
		}
		rows, err := t.Query(ctx, st, args)
		return selectColumns(st.SQL), rows, err
	}
	rows, err := s.c.Query(ctx, st, args)
	if err != nil {
		return nil, nil, err
	}
	return selectColumns(st.SQL), rows, nil
}

// Commit ends the transaction with a commit. A session without one
// commits an empty transaction (the calls count, faults apply).
func (s *WireSession) Commit(ctx context.Context) error {
	t, err := s.current(ctx)
	if err != nil {
		return err
	}
	return t.Commit()
}

// Rollback ends the transaction with a rollback.
func (s *WireSession) Rollback(ctx context.Context) error {
	t, err := s.current(ctx)
	if err != nil {
		return err
	}
	if err := t.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return err
	}
	return nil
}

func (s *WireSession) current(ctx context.Context) (*tx, error) {
	s.db.mu.Lock()
	t := s.c.tx
	s.db.mu.Unlock()
	if t != nil {
		return t, nil
	}
	if _, err := s.c.Begin(ctx); err != nil {
		return nil, err
	}
	return s.c.tx, nil
}

// Close ends the session; an open transaction is rolled back.
func (s *WireSession) Close() error { return s.c.Close() }

// protocolFault marks the error of a Fault.Err (a go-ora protocol
// failure), so that a wire front end can produce one (IsProtocolFault).
type protocolFault struct{ err error }

func (p *protocolFault) Error() string { return p.err.Error() }
func (p *protocolFault) Unwrap() error { return p.err }

// IsProtocolFault reports the error of a fault injected with Fault.Err.
func IsProtocolFault(err error) bool {
	var p *protocolFault
	return errors.As(err, &p)
}

// IsLost reports an error after which the front end drops the connection.
func IsLost(err error) bool {
	return errors.Is(err, ErrLost) || errors.Is(err, driver.ErrBadConn)
}

// selectColumns returns the names of a SELECT's top-level select list:
// an alias after AS, else the last identifier of the expression.
func selectColumns(sql string) []string {
	s := strings.TrimSpace(sql)
	if len(s) < 7 || !strings.EqualFold(s[:7], "SELECT ") {
		return nil
	}
	s = s[7:]
	var cols []string
	depth, start := 0, 0
	inQuote := false
	end := func(i int) {
		cols = append(cols, columnName(s[start:i]))
		start = i + 1
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '\'':
			inQuote = !inQuote
		case inQuote:
		case ch == '(':
			depth++
		case ch == ')':
			depth--
		case depth == 0 && ch == ',':
			end(i)
		case depth == 0 && strings.HasPrefix(strings.ToUpper(s[i:]), " FROM "):
			end(i)
			return cols
		}
	}
	return append(cols, columnName(s[start:]))
}

func columnName(expr string) string {
	e := strings.TrimSpace(expr)
	if i := strings.LastIndex(strings.ToUpper(e), " AS "); i >= 0 && !strings.Contains(e[i:], ")") {
		e = strings.TrimSpace(e[i+4:])
	} else if j := strings.LastIndexAny(e, ". "); j >= 0 && !strings.ContainsAny(e[j:], "()") {
		e = e[j+1:]
	}
	return strings.Trim(e, `"`)
}
