package oracle

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// session is one pinned database session. Its connection is dialed on
// first use and again after one was lost, so a retry always runs on a
// fresh session.
type session struct {
	e    *Engine
	name string
	conn Conn
	b    binder
}

var _ engine.Session = (*session)(nil)

func (e *Engine) newSession(name string) *session {
	return &session{e: e, name: name, b: newBinder(e.o)}
}

// connect returns the session's connection, dialing and setting up a new
// one when there is none: UTC time zone, fixed NLS settings, the DDL lock
// timeout and MODULE/ACTION (oraclesql.SessionSetup).
func (s *session) connect(ctx context.Context) (Conn, error) {
	if s.conn != nil {
		return s.conn, nil
	}
	c, err := s.e.dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	setup := oraclesql.SessionSetup(s.name, s.e.o.DDLLockTimeoutSeconds)
	args, err := s.b.scalarArgs(&setup)
	if err == nil {
		sctx, cancel := s.statementContext(ctx)
		_, err = c.Exec(sctx, &setup, args)
		err = s.timedOut(ctx, sctx, err)
		cancel()
	}
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("session setup: %w", err)
	}
	s.conn = c
	return c, nil
}

// drop closes the connection; the next call dials a new one.
func (s *session) drop() {
	if s.conn != nil {
		_ = s.conn.Close()
		s.conn = nil
	}
}

// query runs a query on the session's connection, bounded by
// statement_timeout_seconds. A lost connection is dropped, so that the
// caller's retry (or the next statement) dials again.
func (s *session) query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error) {
	c, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	sctx, cancel := s.statementContext(ctx)
	rows, err := c.Query(sctx, st, args)
	err = s.timedOut(ctx, sctx, err)
	cancel()
	if err != nil {
		s.dropIfLost(err)
		return nil, err
	}
	return rows, nil
}

// dropIfLost drops the connection when err broke it, when err is
// transient (a retry must run on a fresh session, SPEC §6.3), or when a
// context ended a call (the driver may have broken the session to
// interrupt it).
func (s *session) dropIfLost(err error) {
	if connectionLost(err) || transient(err) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		s.drop()
	}
}

// statementContext bounds one statement by Options.StatementTimeout.
func (s *session) statementContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.e.o.StatementTimeout > 0 {
		return context.WithTimeout(ctx, s.e.o.StatementTimeout)
	}
	return ctx, func() {}
}

// timedOut turns the error of a call whose statement context (sctx) ran
// out while the caller's (ctx) did not into a *TimeoutError. The driver's
// error is whatever the server answered the break with (ORA-01013), not
// the context's.
func (s *session) timedOut(ctx, sctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
		// The caller gave up during the call: go-ora broke it and
		// returned the server's answer (ORA-01013), never ctx.Err().
		return fmt.Errorf("%w: %w", ctx.Err(), err)
	}
	if err == nil || ctx.Err() != nil || !errors.Is(sctx.Err(), context.DeadlineExceeded) || isTimeout(err) {
		return err
	}
	return &TimeoutError{Limit: s.e.o.StatementTimeout, Err: err}
}

// commit commits tx, bounded by Options.StatementTimeout when tx is a
// driver's (sqlTx.commitWithin; the fake's COMMIT cannot stall).
func (s *session) commit(tx Tx) error {
	if st, ok := tx.(*sqlTx); ok && s.e.o.StatementTimeout > 0 {
		return st.commitWithin(s.e.o.StatementTimeout)
	}
	return tx.Commit()
}

// Close implements engine.Session.
func (s *session) Close() error {
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close()
	s.conn = nil
	return err
}

// Apply implements engine.Session: it runs the change's DDL outside any
// transaction.
func (s *session) Apply(ctx context.Context, ch engine.Change) error {
	stmts, err := s.e.r.Change(ch)
	if err != nil {
		return err
	}
	if k := ch.Change.Kind; (k == table.CreateTable || k == table.AddColumn) && len(stmts) > 0 {
		// The CREATE or ADD comes first; when a concurrent run made it,
		// check its shape before anything else runs on it.
		ignored, err := s.runDDL(ctx, ch.Table, stmts[:1])
		if err != nil {
			return err
		}
		if ignored > 0 {
			if err := s.checkShape(ctx, ch); err != nil {
				return err
			}
		}
		stmts = stmts[1:]
	}
	_, err = s.runDDL(ctx, ch.Table, stmts)
	return err
}

// checkShape reads the catalog again after a CREATE TABLE or ADD found its
// work done (ORA-00955, ORA-01430: a concurrent run made it) and accepts
// the table when every wanted column is there (SPEC §6.3).
func (s *session) checkShape(ctx context.Context, ch engine.Change) error {
	t := ch.Table
	got, err := s.describe(ctx, t.Schema, t.Name)
	if err != nil {
		return err
	}
	want := []string{ch.Change.Column}
	if ch.Change.Kind == table.CreateTable {
		want = want[:0]
		for _, c := range t.Columns {
			want = append(want, c.Name)
		}
	}
	if ch.Change.Kind == table.CreateTable && got != nil && got.Streams != nil {
		for _, st := range t.Streams {
			if !table.StreamsInclude(got.Streams, st) {
				// Another pipeline created the table for its stream at the
				// same moment: its comment stands, and this stream must not
				// write there (SPEC §5.1). A new run decides by the comment.
				return &Error{Table: t.QualifiedName(), Err: fmt.Errorf("the table was just created by another run for stream(s) %q: run again, and stream %q takes a suffixed table name", got.Streams, st)}
			}
		}
	}
	if got == nil && ch.Change.Kind == table.CreateTable {
		// No such table: the name is another object's (tables share a
		// schema's names with indexes, views, sequences and synonyms).
		return &Error{Table: t.QualifiedName(), Err: fmt.Errorf("ORA-00955: the name is used by another object of schema %s (an index, a view, a sequence or a synonym), not a table: rename that object, or map the stream to another table (table_name_mappings)", t.Schema)}
	}
	for _, name := range want {
		if got == nil || got.Column(name) == nil {
			return &Error{Table: t.QualifiedName(), Err: fmt.Errorf("the table already exists without column %s (made by another run with another shape?)", table.Quote(name))}
		}
	}
	return nil
}

// Truncate implements engine.Session.
func (s *session) Truncate(ctx context.Context, t *table.Table) error {
	_, err := s.runDDL(ctx, t, s.e.r.Truncate(t))
	return err
}

// runDDL runs statements in order, each on its own (DDL commits). A
// statement that fails with one of its IgnoreCodes was done already (a
// concurrent or killed run). A transient error retries from the statement
// that failed, on a fresh session: the statements before it are durable
// and every statement is idempotent.
// It returns how many statements were found done already.
func (s *session) runDDL(ctx context.Context, t *table.Table, stmts []oraclesql.Statement) (ignored int, err error) {
	for i := range stmts {
		// Refuse text the database character set cannot hold before the
		// first statement runs, not half-way through.
		if err := s.b.checkSQL(&stmts[i]); err != nil {
			return 0, &Error{Table: t.QualifiedName(), Err: err}
		}
	}
	next := 0
	err = s.e.retry(ctx, "DDL on "+t.QualifiedName(), func() error {
		for next < len(stmts) {
			st := &stmts[next]
			if err := s.runOne(ctx, st); err != nil {
				if code := oraCode(err); code == 0 || !slices.Contains(st.IgnoreCodes, code) {
					s.dropIfLost(err)
					return err
				}
				if st.Index != nil {
					if err := s.indexDone(ctx, t, st.Index, err); err != nil {
						return err
					}
				}
				s.e.o.Log.Debug("DDL already done", "table", t.QualifiedName(), "code", oraCode(err))
				ignored++
			}
			next++
		}
		return nil
	})
	if err != nil {
		return ignored, &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: err}
	}
	return ignored, nil
}

// runOne runs one statement outside a transaction; a Repeat statement
// runs in its own transaction again and again until it affects no row.
func (s *session) runOne(ctx context.Context, st *oraclesql.Statement) error {
	args, err := s.b.scalarArgs(st)
	if err != nil {
		return err
	}
	c, err := s.connect(ctx)
	if err != nil {
		return err
	}
	if !st.Repeat {
		sctx, cancel := s.statementContext(ctx)
		defer cancel()
		_, err := c.Exec(sctx, st, args)
		return s.timedOut(ctx, sctx, err)
	}
	for {
		n, err := s.chunk(ctx, c, st, args)
		if err != nil || n == 0 {
			return err
		}
	}
}

// chunk runs one execute of a Repeat statement and commits it, so that
// undo and locks stay bounded.
func (s *session) chunk(ctx context.Context, c Conn, st *oraclesql.Statement, args []any) (int64, error) {
	tx, err := c.Begin(ctx)
	if err != nil {
		return 0, err
	}
	if st.Lock != nil {
		// Held until the chunk commits: no writer changes the table
		// while the chunk copies it (SPEC §5.5).
		sctx, cancel := s.statementContext(ctx)
		_, err = tx.Exec(sctx, st.Lock, nil)
		err = s.timedOut(ctx, sctx, err)
		cancel()
		if err != nil {
			_ = tx.Rollback()
			return 0, fmt.Errorf("lock the table: %w", err)
		}
	}
	sctx, cancel := s.statementContext(ctx)
	n, err := tx.Exec(sctx, st, args)
	err = s.timedOut(ctx, sctx, err)
	cancel()
	if err != nil {
		_ = tx.Rollback()
		return 0, err
	}
	return n, s.commit(tx)
}
