package connect

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// errDriverPanic marks an error made from a panic inside go-ora.
var errDriverPanic = errors.New("oracle driver failed")

// guard runs f, a call into go-ora, and returns a panic inside it as an
// error. go-ora v2.9.0 panics on some malformed server replies (an ACCEPT
// packet of bare header dereferences nil in Session.Connect); a broken or
// hostile server must fail the connection like any other, with exit code
// 1, not crash the process. The panic value may quote connection data, so
// callers redact the error before returning it.
func guard(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w: %v", errDriverPanic, v)
		}
	}()
	return f()
}

// guardedConn is a go-ora session whose calls are guarded. The guard
// must sit below database/sql: a panic that unwinds through database/sql
// leaves its lock on a *sql.Conn held, and the caller's Close then waits
// for ever. A session that panicked is left mid-protocol, so it reports
// itself invalid and database/sql discards it instead of reusing it.
//
// It implements every optional interface go-ora's Connection does, and
// falls back the way database/sql does when the inner conn lacks one.
// Statements, transactions and rows are go-ora's own, unguarded.
type guardedConn struct {
	inner  driver.Conn
	red    redactor
	broken atomic.Bool
}

var (
	_ driver.Pinger             = (*guardedConn)(nil)
	_ driver.ConnPrepareContext = (*guardedConn)(nil)
	_ driver.ConnBeginTx        = (*guardedConn)(nil)
	_ driver.ExecerContext      = (*guardedConn)(nil)
	_ driver.QueryerContext     = (*guardedConn)(nil)
	_ driver.NamedValueChecker  = (*guardedConn)(nil)
	_ driver.SessionResetter    = (*guardedConn)(nil)
	_ driver.Validator          = (*guardedConn)(nil)
)

// do runs f under guard; a panic marks the session broken.
func (g *guardedConn) do(f func() error) error {
	err := guard(f)
	if errors.Is(err, errDriverPanic) {
		g.broken.Store(true)
		return g.red.wrap("oracle session", err)
	}
	return err
}

func (g *guardedConn) Prepare(query string) (st driver.Stmt, err error) {
	err = g.do(func() (err error) { st, err = g.inner.Prepare(query); return err })
	return st, err
}

// Close logs the session off, giving up after closeGrace: go-ora's
// Logoff waits for the server's reply with no deadline, so closing the
// pool at the run's end (DB.Close closes each idle session) hung for
// ever on a server that had stopped answering, after the summary. The
// session is then left to the process's end.
func (g *guardedConn) Close() error {
	done := make(chan error, 1)
	go func() { done <- g.do(g.inner.Close) }()
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return fmt.Errorf("oracle session: no reply to the logoff after %s: the session is left open", closeGrace)
	}
}

// closeGrace bounds Close (a logoff answers in milliseconds).
var closeGrace = 10 * time.Second

// Begin forwards driver.Conn's deprecated method, which the interface
// still requires.
func (g *guardedConn) Begin() (tx driver.Tx, err error) {
	//lint:ignore SA1019 forwarding the deprecated method is what implementing driver.Conn takes
	err = g.do(func() (err error) { tx, err = g.inner.Begin(); return err })
	return tx, err
}

func (g *guardedConn) Ping(ctx context.Context) error {
	p, ok := g.inner.(driver.Pinger)
	if !ok {
		return nil
	}
	return g.do(func() error { return p.Ping(ctx) })
}

func (g *guardedConn) PrepareContext(ctx context.Context, query string) (st driver.Stmt, err error) {
	p, ok := g.inner.(driver.ConnPrepareContext)
	if !ok {
		return g.Prepare(query)
	}
	err = g.do(func() (err error) { st, err = p.PrepareContext(ctx, query); return err })
	return st, err
}

func (g *guardedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (tx driver.Tx, err error) {
	b, ok := g.inner.(driver.ConnBeginTx)
	if !ok {
		if opts.Isolation != 0 || opts.ReadOnly {
			return nil, errors.New("oracle driver: transaction options not supported")
		}
		return g.Begin()
	}
	err = g.do(func() (err error) { tx, err = b.BeginTx(ctx, opts); return err })
	return tx, err
}

func (g *guardedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (res driver.Result, err error) {
	e, ok := g.inner.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip // database/sql prepares instead
	}
	err = g.do(func() (err error) { res, err = e.ExecContext(ctx, query, args); return err })
	return res, err
}

func (g *guardedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (rows driver.Rows, err error) {
	q, ok := g.inner.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip // database/sql prepares instead
	}
	err = g.do(func() (err error) { rows, err = q.QueryContext(ctx, query, args); return err })
	return rows, err
}

// CheckNamedValue lets go-ora accept its own bind types (Clob, NVarChar,
// arrays of them).
func (g *guardedConn) CheckNamedValue(nv *driver.NamedValue) error {
	c, ok := g.inner.(driver.NamedValueChecker)
	if !ok {
		return driver.ErrSkip // database/sql's default conversion
	}
	return g.do(func() error { return c.CheckNamedValue(nv) })
}

func (g *guardedConn) ResetSession(ctx context.Context) error {
	if g.broken.Load() {
		return driver.ErrBadConn
	}
	r, ok := g.inner.(driver.SessionResetter)
	if !ok {
		return nil
	}
	return g.do(func() error { return r.ResetSession(ctx) })
}

func (g *guardedConn) IsValid() bool {
	if g.broken.Load() {
		return false
	}
	if v, ok := g.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}
