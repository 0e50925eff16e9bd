package wirepeer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Backend is the SQL interpreter behind the peer: the peer decodes what
// the client sends (SQL text, bind declarations and values, commit and
// rollback) and hands it over, then encodes the backend's answer (row
// counts, batch errors with row offsets, a query's columns and rows,
// errors) as a server would. Without a Backend the peer answers INSERTs
// by itself (milestone 1). internal/wirepeer/fakewire adapts the fake
// Oracle (internal/oracle/fake).
type Backend interface {
	// Open starts the server session of a connection that logged in. An
	// error fails the login: a *ServerError with its ORA code, ErrLost by
	// hanging up.
	Open(ctx context.Context, conn int) (BackendSession, error)
}

// BackendSession is one server session, used by one connection at a time.
// Its methods return a *ServerError for an ORA error, ErrLost to make the
// peer hang up without a reply (a lost connection), and any other error
// for what the backend does not serve (the peer replies ORA-03001 and
// lists it in Peer.Unserved).
type BackendSession interface {
	// Run runs one decoded execute: a query (Statement.Query) returns its
	// columns and rows, anything else the rows affected and, in
	// batch-error mode, the rows that failed.
	Run(ctx context.Context, st *Statement) (*Result, error)
	// Commit and Rollback end the transaction the executes without
	// Statement.AutoCommit opened (none open: they do nothing).
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
	// Close ends the session (the connection closed): an open
	// transaction is rolled back.
	Close() error
}

// Statement is an execute as the backend receives it.
type Statement struct {
	SQL string
	// Query: the client executes it as a SELECT (it wants rows back).
	Query bool
	// AutoCommit: the client asked the server to commit after it (go-ora
	// outside a transaction, for DML and PL/SQL).
	AutoCommit bool
	// BatchErrors: the client asked for batch-error mode (an array of
	// more than one row): failed rows are reported each, the others done.
	BatchErrors bool
	Binds       []Bind
	// Rows are the bind values, row-major (one row for a query or a
	// PL/SQL block; a LOB's Text is the temporary LOB's content).
	Rows [][]Value
}

// Result is a backend's answer to a Statement.
type Result struct {
	RowsAffected int64
	// RowErrors are the rows of a batch-error execute that failed.
	RowErrors []RowError
	// Columns and Data are a query's result (Data[row][column]).
	Columns []string
	Data    [][]sql.NullString
}

// RowError is one failed row of a batch-error execute.
type RowError struct {
	Row  int // from 0
	Code int // ORA error number
	Msg  string
}

// ServerError is an ORA error to reply with.
type ServerError struct {
	Code int
	Msg  string // the message without "ORA-nnnnn: "
}

func (e *ServerError) Error() string { return fmt.Sprintf("ORA-%05d: %s", e.Code, e.Msg) }

// ErrLost makes the peer drop the connection without replying: the
// client sees a lost connection (end of file).
var ErrLost = errors.New("wirepeer: the backend lost the session")

// ErrProtocol makes the peer reply with a message the client cannot read
// (an unknown TTC message code): go-ora fails the call with its own
// "TTC error: received code … during response reading", as on a
// protocol failure.
var ErrProtocol = errors.New("wirepeer: a reply the client cannot read")

// msgGarbage is the message code of ErrProtocol's reply: no TTC message
// has it.
const msgGarbage = 0xEE

// errAnswered: the call was broken and its reply sent (afterBreak).
var errAnswered = errors.New("call broken and answered")

// errDropped ends a session on purpose (ErrLost): not a peer failure.
var errDropped = errors.New("connection dropped by the backend")

// Unserved lists what the backend refused as not served (errors that
// are neither ORA errors nor lost connections), as "SQL: error", in order.
func (p *Peer) Unserved() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.unserved...)
}

func (p *Peer) noteUnserved(sql string, err error) {
	p.mu.Lock()
	p.unserved = append(p.unserved, fmt.Sprintf("%.120s: %v", sql, err))
	p.mu.Unlock()
}

// backendError turns a backend's error into the call's reply: an ORA
// error, a dropped connection (errDropped, returned), or ORA-03001 for
// what the backend does not serve.
func (s *session) backendError(w *ttcWriter, c *Call, sql string, err error) error {
	var se *ServerError
	switch {
	case errors.As(err, &se):
		s.fail(w, c, se.Code, se.Msg)
		return nil
	case errors.Is(err, ErrLost):
		c.ORA = -1
		s.p.record(*c)
		return errDropped
	case errors.Is(err, ErrProtocol):
		c.ORA = -1
		w.ub1(msgGarbage)
		return nil
	}
	s.p.noteUnserved(sql, err)
	s.fail(w, c, 3001, "unimplemented feature: "+err.Error())
	return nil
}

// openBackend starts the backend session after a successful login; ok is
// false when the login fails (the reply is written) .
func (s *session) openBackend(w *ttcWriter, c *Call) (ok bool, err error) {
	b := s.p.facts.Backend
	if b == nil {
		return true, nil
	}
	bs, err := b.Open(context.Background(), s.id)
	if err != nil {
		return false, s.backendError(w, c, "(login)", err)
	}
	s.be = bs
	return true, nil
}

// isClockQuery reports go-ora's query after login: the peer answers it
// itself (ORA-03001, go-ora then takes UTC), without the backend.
func isClockQuery(sql string) bool {
	return strings.EqualFold(strings.TrimSpace(sql), "SELECT SYSTIMESTAMP FROM DUAL")
}

// runBackend hands a decoded execute to the backend and writes its
// answer: a query's describe and rows, or the rows affected, with the
// failed rows of a batch-error execute as ORA-24381 and their offsets.
func (s *session) runBackend(c *Call, e *Execute, w *ttcWriter) error {
	if s.be == nil {
		return fmt.Errorf("execute before the backend session opened")
	}
	st := &Statement{SQL: e.SQL, Query: e.Query, AutoCommit: e.AutoCommit(),
		BatchErrors: e.Options&OptBatchErrs != 0, Binds: e.Binds, Rows: e.Rows}
	res, err := s.runWatchingBreaks(c, st)
	if errors.Is(err, errAnswered) {
		return err
	}
	if err != nil {
		return s.backendError(w, c, e.SQL, err)
	}
	if e.Query {
		s.queryReply(w, c, e, res.Columns, res.Data)
		return nil
	}
	cursor := e.Cursor
	if cursor == 0 {
		s.cursors++
		cursor = s.cursors
	}
	if len(res.RowErrors) == 0 {
		s.summary(w, summary{rows: int(res.RowsAffected), cursor: cursor})
		return nil
	}
	var failed []rowError
	for _, re := range res.RowErrors {
		failed = append(failed, rowError{ora: re.Code, row: re.Row, msg: fmt.Sprintf("ORA-%05d: %s\n", re.Code, re.Msg)})
	}
	if !st.BatchErrors {
		// Without batch errors the server stops at the first failed row.
		c.ORA = failed[0].ora
		s.summary(w, summary{rows: failed[0].row, cursor: cursor, ora: failed[0].ora, msg: failed[0].msg})
		return nil
	}
	c.ORA = 24381
	s.summary(w, summary{rows: int(res.RowsAffected), cursor: cursor, ora: 24381,
		msg: "ORA-24381: error(s) in array DML\n", batch: failed})
	return nil
}

// runWatchingBreaks runs st on the backend while reading ahead for a
// break marker: on a break the backend call's context is cancelled (a
// backend that blocks returns then, as a server that was interrupted),
// the break exchange runs with the backend's error as the reply
// (ORA-01013 when it gives none) and errAnswered is returned; the caller
// then writes nothing more. Otherwise the packet read ahead is the next
// request's.
func (s *session) runWatchingBreaks(c *Call, st *Statement) (*Result, error) {
	type outcome struct {
		res *Result
		err error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		res, err := s.be.Run(ctx, st)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		return o.res, o.err
	case r := <-s.t.readAhead():
		s.t.ahead = nil
		if r.err != nil {
			cancel()
			<-done
			return nil, r.err
		}
		if r.p.typ != pktMarker || len(r.p.body) != 3 || (r.p.body[2] != markerBreak && r.p.body[2] != markerInterrupt) {
			cancel()
			<-done
			return nil, fmt.Errorf("packet type %d while a call runs, want a break MARKER", r.p.typ)
		}
		cancel()
		o := <-done
		sm := summary{ora: 1013, msg: "ORA-01013: user requested cancel of current operation\n"}
		var se *ServerError
		if errors.As(o.err, &se) {
			sm.ora, sm.msg = se.Code, fmt.Sprintf("ORA-%05d: %s\n", se.Code, se.Msg)
		}
		if err := s.afterBreak(c, sm); err != nil {
			return nil, err
		}
		return nil, errAnswered
	}
}
