package oracle

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// Conn is one pinned database session: the only way the engine reaches the
// database. Every call receives the oraclesql.Statement it runs (the SQL
// text and its metadata), so that a fake can interpret the statement and
// fail any call, and args holds one value per bind of the statement: all
// slices of one length (an array execute) or all scalars.
//
// A Conn is used by one goroutine at a time. After an error that lost the
// connection, the engine closes the Conn and dials a new one.
type Conn interface {
	// Exec runs st outside any transaction: DDL commits on its own and
	// DML autocommits. It returns the number of rows affected.
	Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error)
	// Query runs a KindQuery statement and returns its rows; a value is
	// invalid for NULL and holds the text of the value otherwise.
	Query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error)
	// Begin starts a transaction. ctx bounds the whole transaction: when
	// it is done, the transaction is rolled back.
	Begin(ctx context.Context) (Tx, error)
	Close() error
}

// Tx is a transaction of a Conn.
type Tx interface {
	// Exec runs DML inside the transaction and returns the rows affected.
	Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error)
	// Query runs a KindQuery statement inside the transaction (a history
	// batch reads the versions it then writes, FOR UPDATE).
	Query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error)
	Commit() error
	Rollback() error
}

// Dialer opens a fresh pinned session. The engine dials again after a lost
// connection, so that a retry never reuses a broken session.
type Dialer func(ctx context.Context) (Conn, error)

// DialDB returns a Dialer that pins one connection of db per session (the
// session's ALTER SESSION settings must stay on the connection that runs
// the batch).
func DialDB(db *sql.DB) Dialer {
	return func(ctx context.Context) (Conn, error) {
		c, err := db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		return &sqlConn{c: c}, nil
	}
}

// sqlConn is a Conn on a pinned *sql.Conn.
type sqlConn struct {
	c *sql.Conn
	// lost is set when a call failed with an error that broke the
	// connection: Close then makes database/sql discard it rather than
	// hand it to the next caller.
	lost bool
	// abandoned is set when a call did not return after its context
	// ended (guard): the driver call still holds the connection, so
	// nothing may use or close it again.
	abandoned bool
	// grace is how long guard waits after the context ended (breakGrace
	// unless a test sets it).
	grace time.Duration
}

// breakGrace is how long a call may take to return after its context
// ended. go-ora answers the end of a context by sending a break and then
// waits for the server's reply (ORA-01013) with no deadline of its own: a
// server that stopped answering (a stalled instance, a network path that
// drops packets) would hold the call, and the run with it, for ever, past
// statement_timeout_seconds and past a signal. A server that answers
// breaks does so in milliseconds; one rolling back a large statement
// first may take longer, and is left to finish that on its own.
const breakGrace = 10 * time.Second

// errAbandoned is the error of a call guard gave up waiting for.
var errAbandoned = errors.New("the server did not answer the break that ended the call: the connection is abandoned")

// guard runs call, a driver call bound to ctx, and returns its error, or
// errAbandoned when it has not returned breakGrace after ctx ended. The
// call then goes on in its goroutine until the server answers or the
// process ends; the connection is never used or closed again (Close).
func (s *sqlConn) guard(ctx context.Context, call func() error) error {
	if s.abandoned {
		return errAbandoned
	}
	if ctx.Done() == nil {
		return call() // nothing ends it: nothing to wait for
	}
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	grace := s.grace
	if grace == 0 {
		grace = breakGrace
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		s.abandoned, s.lost = true, true
		return fmt.Errorf("%w (no reply %s after the call's end)", errAbandoned, grace)
	}
}

// note marks the connection lost after err when err broke it, or when the
// call's context ended during the call: go-ora then interrupted the call
// by a break (or closed the socket before login) and returned the
// server's answer (ORA-01013), never ctx.Err(), so the session's state is
// unknown and it must not go back to the pool.
func (s *sqlConn) note(ctx context.Context, err error) error {
	if err != nil && (connectionLost(err) || ctx.Err() != nil) {
		s.lost = true
	}
	return err
}

// sent refuses a call whose context is already done: go-ora may still send
// it (it watches the context only while the call runs, and a fast reply
// can win), so a statement past its deadline could run. Nothing was sent,
// so the session stays usable.
func sent(ctx context.Context) error { return ctx.Err() }

func (s *sqlConn) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if err := sent(ctx); err != nil {
		return 0, err
	}
	var res sql.Result
	err := s.guard(ctx, func() (err error) {
		res, err = s.c.ExecContext(ctx, st.SQL, args...)
		return err
	})
	if err != nil {
		return 0, s.note(ctx, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("rows affected: %w", err)
	}
	return n, nil
}

func (s *sqlConn) Query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error) {
	if err := sent(ctx); err != nil {
		return nil, err
	}
	var out [][]sql.NullString
	err := s.guard(ctx, func() error {
		rows, err := s.c.QueryContext(ctx, st.SQL, args...)
		if err != nil {
			return err
		}
		out, err = scanAll(rows)
		return err
	})
	return out, s.note(ctx, err)
}

// scanAll reads every row of rows as text and closes it.
func scanAll(rows *sql.Rows) ([][]sql.NullString, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]sql.NullString
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

func (s *sqlConn) Begin(ctx context.Context) (Tx, error) {
	var tx *sql.Tx
	err := s.guard(ctx, func() (err error) {
		tx, err = s.c.BeginTx(ctx, nil)
		return err
	})
	if err != nil {
		return nil, s.note(ctx, err)
	}
	return &sqlTx{tx: tx, conn: s, ctx: ctx}, nil
}

// Close returns the connection to the pool, or discards it when a call
// lost it.
func (s *sqlConn) Close() error {
	if s.abandoned {
		return nil // its call still holds it (guard): left to the process's end
	}
	if s.lost {
		// Returning driver.ErrBadConn from Raw makes database/sql close
		// the driver connection instead of pooling it.
		_ = s.c.Raw(func(any) error { return driver.ErrBadConn })
		// Raw closed the *sql.Conn as well: Close only reports that.
		if err := s.c.Close(); err != nil && !errors.Is(err, sql.ErrConnDone) {
			return err
		}
		return nil
	}
	return s.c.Close()
}

type sqlTx struct {
	tx   *sql.Tx
	conn *sqlConn
	ctx  context.Context // BeginTx's: it bounds COMMIT and ROLLBACK too
}

func (t *sqlTx) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	if err := sent(ctx); err != nil {
		return 0, err
	}
	var res sql.Result
	err := t.conn.guard(ctx, func() (err error) {
		res, err = t.tx.ExecContext(ctx, st.SQL, args...)
		return err
	})
	if err != nil {
		return 0, t.conn.note(ctx, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("rows affected: %w", err)
	}
	return n, nil
}

func (t *sqlTx) Query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error) {
	if err := sent(ctx); err != nil {
		return nil, err
	}
	var out [][]sql.NullString
	err := t.conn.guard(ctx, func() error {
		rows, err := t.tx.QueryContext(ctx, st.SQL, args...)
		if err != nil {
			return err
		}
		out, err = scanAll(rows)
		return err
	})
	return out, t.conn.note(ctx, err)
}

func (t *sqlTx) Commit() error {
	return t.conn.note(t.ctx, t.conn.guard(t.ctx, t.tx.Commit))
}

// commitWithin is Commit given up d (and breakGrace) after it started:
// go-ora's COMMIT runs under BeginTx's context, the run's, which no
// statement timeout bounds, so a server that stops answering at the
// COMMIT held the run until a signal. No break is sent (go-ora's context
// lives): the connection is abandoned, the COMMIT's outcome unknown.
func (t *sqlTx) commitWithin(d time.Duration) error {
	ctx, cancel := context.WithTimeout(t.ctx, d)
	defer cancel()
	err := t.conn.guard(ctx, t.tx.Commit)
	if errors.Is(err, errAbandoned) && t.ctx.Err() == nil {
		err = fmt.Errorf("COMMIT past statement_timeout_seconds (%s): %w", d, err)
	}
	return t.conn.note(t.ctx, err)
}

func (t *sqlTx) Rollback() error {
	return t.conn.note(t.ctx, t.conn.guard(t.ctx, t.tx.Rollback))
}
