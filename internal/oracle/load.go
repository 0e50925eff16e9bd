package oracle

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// role says what a statement's row count means.
type role uint8

const (
	roleInsert role = iota + 1 // INSERT: rows inserted
	roleMerge                  // MERGE: rows inserted or updated, one count
	roleDelete                 // DELETE: rows deleted
	roleUpdate                 // UPDATE (soft version cleanup): rows updated
)

// planned is one statement of a batch with the rows it executes for.
type planned struct {
	st    oraclesql.Statement
	table string       // SCHEMA.TABLE
	role  role         //
	rows  []engine.Row // nil for a statement executed once with fixed binds
	// write is the step of a Write's statement: rows with long values may
	// run in another statement shape (oraclesql.SplitUpsert).
	write *engine.Write
	// history is a history batch, run by loadHistory (st and rows unused).
	history *historyStep
}

// plan renders the batch's steps and picks each statement's rows. It also
// reports whether the batch may run twice with the same result: MERGE and
// DELETE may, INSERT may not.
func (e *Engine) plan(steps []engine.Step) (plan []planned, idempotent bool, err error) {
	idempotent = true
	for _, step := range steps {
		if h, ok := step.(*engine.History); ok {
			// Read, decide, write: the rows of the writes are known only
			// inside the transaction. Without history_valid_from a batch
			// that committed would add versions again.
			hs, err := e.r.History(h)
			if err != nil {
				return nil, false, err
			}
			plan = append(plan, planned{table: h.Table.QualifiedName(), history: &historyStep{h: h, st: hs}})
			idempotent = idempotent && h.Exact
			continue
		}
		stmts, err := e.r.Step(step)
		if err != nil {
			return nil, false, err
		}
		switch st := step.(type) {
		case *engine.Write:
			for _, s := range stmts {
				p := planned{st: s, table: st.Table.QualifiedName(), role: roleMerge, write: st}
				p.rows = rowsOf(st.Rows, s.Rows)
				switch {
				case len(p.rows) == 0:
					continue
				case s.Rows.Has(engine.RowHardDelete):
					p.role = roleDelete
				case st.Method == engine.Insert:
					p.role, idempotent = roleInsert, false
				}
				plan = append(plan, p)
			}
		case *engine.Replace:
			for _, s := range stmts {
				plan = append(plan, planned{st: s, table: st.Table.QualifiedName(), role: roleDelete})
			}
		case *engine.KeepKeys:
			for _, s := range stmts {
				plan = append(plan, planned{st: s, table: st.Table.QualifiedName(), role: roleUpdate, rows: st.Rows})
			}
		case *engine.CloseVersions:
			for _, s := range stmts {
				plan = append(plan, planned{st: s, table: st.Table.QualifiedName(), role: roleUpdate})
			}
		case *engine.DeleteVersions:
			r := roleUpdate
			if st.Hard {
				r = roleDelete
			}
			for _, s := range stmts {
				plan = append(plan, planned{st: s, table: st.Table.QualifiedName(), role: r})
			}
		default:
			return nil, false, fmt.Errorf("oracle: unknown step %T", step)
		}
	}
	return plan, idempotent, nil
}

func (p *planned) count(res *engine.Result, n int64) {
	switch p.role {
	case roleInsert:
		res.Inserted += n
		res.Written += n
	case roleMerge:
		res.Written += n
		res.Known = false
	case roleDelete:
		res.Deleted += n
	case roleUpdate:
		res.Updated += n
	}
}

// failure is where and how one attempt of a batch failed.
type failure struct {
	at     int // index in the plan; -1 for connect, begin and commit
	lo, hi int // the failing chunk of plan[at].rows
	commit bool
	err    error
}

// Load implements engine.Session: the batch's statements run in one
// transaction, array-bound in chunks of at most Options.MaxArrayRows rows.
//
// A transient error retries the whole batch on a fresh session. A COMMIT
// that lost the connection leaves the outcome unknown: a batch of MERGE
// and DELETE statements is retried (it is idempotent); a batch with an
// INSERT fails with ErrCommitUnknown. Any other error rolls back and
// fails with an *Error naming the table, the ORA code and, for a row
// error, the input line of the failing record.
func (s *session) Load(ctx context.Context, steps []engine.Step) (engine.Result, error) {
	if len(steps) == 1 {
		if d, ok := steps[0].(*engine.DeleteMissing); ok {
			return s.prune(ctx, d) // counted first: prune.go
		}
	}
	plan, idempotent, err := s.e.plan(steps)
	if err != nil {
		return engine.Result{}, err
	}
	if len(plan) == 0 {
		return engine.Result{Known: true}, nil
	}
	limits := make([]int, len(plan)) // rows per execute of each statement; 0: MaxArrayRows
	protocolFailures := 0
	for attempt := 1; ; attempt++ {
		res, f := s.loadOnce(ctx, plan, limits)
		if f == nil {
			return res, nil
		}
		tbl := plan[0].table
		if f.at >= 0 {
			tbl = plan[f.at].table
		}
		switch {
		case f.commit && connectionLost(f.err) && !idempotent:
			s.drop()
			return engine.Result{}, &Error{Table: tbl, Code: oraCode(f.err), Err: fmt.Errorf("%w: %w", ErrCommitUnknown, f.err)}
		case ctx.Err() != nil:
			s.drop()
			return engine.Result{}, &Error{Table: tbl, Err: fmt.Errorf("%w (%w)", ctx.Err(), f.err)}
		case isTimeout(f.err):
			// Not a row's fault and not retried: a retry would time out
			// again. The interrupted session is never reused.
			s.drop()
			return engine.Result{}, &Error{Table: tbl, Code: oraCode(f.err), Err: f.err}
		case !transient(f.err):
			return engine.Result{}, s.permanent(ctx, plan, f, tbl)
		}
		if protocolError(f.err) && f.at >= 0 && plan[f.at].rows != nil {
			// A go-ora protocol bug (#697, #724) may depend on what one
			// execute carries: the first retry runs the same chunks, each
			// later one halves the chunk that failed.
			if protocolFailures++; protocolFailures > 1 {
				limits[f.at] = max(1, (f.hi-f.lo)/2)
			}
			s.e.o.Log.Warn("go-ora protocol error (sijms/go-ora #697, #724), retrying on a fresh session", "table", tbl, "rows_per_execute", cmp.Or(limits[f.at], s.e.o.MaxArrayRows), "error", f.err)
		}
		s.drop()
		if attempt >= s.e.o.Retry.Attempts {
			return engine.Result{}, &Error{Table: tbl, Code: oraCode(f.err), Err: fmt.Errorf("gave up after %d attempts: %w", attempt, f.err)}
		}
		d := s.e.backoff(attempt)
		s.e.o.Log.Warn("transient database error, retrying the batch on a fresh session", "table", tbl, "attempt", attempt, "wait", d, "error", f.err)
		if err := s.e.o.Sleep(ctx, d); err != nil {
			return engine.Result{}, &Error{Table: tbl, Err: fmt.Errorf("%w (%w)", err, f.err)}
		}
	}
}

// loadOnce runs the batch once, in one transaction; limits[i] > 0 caps
// the rows of each execute of plan[i] below Options.MaxArrayRows.
func (s *session) loadOnce(ctx context.Context, plan []planned, limits []int) (engine.Result, *failure) {
	c, err := s.connect(ctx)
	if err != nil {
		return engine.Result{}, &failure{at: -1, err: err}
	}
	tx, err := c.Begin(ctx)
	if err != nil {
		s.dropIfLost(err)
		return engine.Result{}, &failure{at: -1, err: fmt.Errorf("begin: %w", err)}
	}
	fail := func(f *failure) (engine.Result, *failure) {
		if err := tx.Rollback(); err != nil {
			s.drop()
		}
		s.dropIfLost(f.err)
		return engine.Result{}, f
	}
	res := engine.Result{Known: true}
	for i := range plan {
		p := &plan[i]
		if p.history != nil {
			if f := s.loadHistory(ctx, tx, p.history, &res); f != nil {
				f.at = i
				return fail(f)
			}
			continue
		}
		if p.rows == nil {
			n, err := s.exec(ctx, tx, p, nil)
			if err != nil {
				return fail(&failure{at: i, err: err})
			}
			p.count(&res, n)
			continue
		}
		step := s.e.o.MaxArrayRows
		if limits[i] > 0 {
			step = min(step, limits[i])
		}
		for lo := 0; lo < len(p.rows); lo += step {
			hi := min(lo+step, len(p.rows))
			n, err := s.exec(ctx, tx, p, p.rows[lo:hi])
			if err != nil {
				return fail(&failure{at: i, lo: lo, hi: hi, err: err})
			}
			p.count(&res, n)
		}
	}
	if err := s.commit(tx); err != nil {
		s.dropIfLost(err)
		return engine.Result{}, &failure{at: -1, commit: true, err: fmt.Errorf("commit: %w", err)}
	}
	return res, nil
}

// exec runs p in tx: once with scalar binds when rows is nil, else as the
// array executes binder.executes splits rows into. It returns the rows
// written.
func (s *session) exec(ctx context.Context, tx Tx, p *planned, rows []engine.Row) (int64, error) {
	if rows == nil {
		args, err := s.b.scalarArgs(&p.st)
		if err != nil {
			return 0, err
		}
		return s.execOne(ctx, tx, &p.st, args)
	}
	execs, err := s.b.executes(s.e.r, p, rows)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, e := range execs {
		args, err := s.b.arrayArgs(e)
		var ce *CharsetError
		if errors.As(err, &ce) && p.write != nil {
			if c := p.write.Table.Column(ce.Column); c != nil && len(c.Source) > 0 {
				ce.Property = strings.Join(c.Source, ".")
			}
		}
		if err != nil {
			return 0, err
		}
		n, err := s.execOne(ctx, tx, e.st, args)
		if err != nil {
			return 0, err
		}
		if e.count {
			total += n
		}
	}
	return total, nil
}

func (s *session) execOne(ctx context.Context, tx Tx, st *oraclesql.Statement, args []any) (int64, error) {
	sctx, cancel := s.statementContext(ctx)
	defer cancel()
	n, err := tx.Exec(sctx, st, args)
	return n, s.timedOut(ctx, sctx, err)
}

// permanent builds the error of a batch that failed for good. For an
// array execute that failed with a server error, it finds the failing row
// by bisecting its chunk (go-ora reports only that some row failed),
// unless the error is the statement's (SPEC §6.3): by its ORA code or
// parse position (scopeOf), or because every probe failed alike.
func (s *session) permanent(ctx context.Context, plan []planned, f *failure, tbl string) error {
	e := &Error{Table: tbl, Code: oraCode(f.err), Err: f.err}
	if f.at < 0 || plan[f.at].rows == nil || e.Code == 0 {
		return e
	}
	p := &plan[f.at]
	rows := p.rows[f.lo:f.hi]
	sc := scopeOf(f.err)
	switch {
	case sc == scopeStatement:
		e.Err = statementError(p, len(rows), f.err)
		return e
	case len(rows) == 1:
		e.Line = rows[0].Line
		return e
	}
	line, alike, err := s.bisect(ctx, p, rows, sc)
	switch {
	case alike:
		e.Err = statementError(p, len(rows), f.err)
	case line > 0:
		e.Line, e.Code, e.Err = line, oraCode(err), err
	}
	return e
}

// statementError says that err is the statement's, not a record's.
func statementError(p *planned, rows int, err error) error {
	verb, _, _ := strings.Cut(p.st.SQL, " ")
	return fmt.Errorf("the %s fails as a statement, for every row alike (%d rows in the execute; no record is at fault): %w", verb, rows, err)
}

// bisect finds the row of rows that fails on its own, by running halves in
// transactions that are rolled back. It spends at most
// Options.MaxBisectProbes executes (plus one, below) and returns the
// row's line and error, or 0 when it did not find one. Rows run without
// the statements before them in the batch, so an error that depends on
// those is not found.
//
// When every probe failed, the row found is the first one, and so it is
// for an error that every row hits. Unless sc says the code is a row's,
// one more probe runs the other rows without it: when they fail alike
// (same ORA code), alike is true and the error is the statement's.
func (s *session) bisect(ctx context.Context, p *planned, rows []engine.Row, sc scope) (line int64, alike bool, lastErr error) {
	all := rows
	probes, known, allFailed := 0, true, true // known: rows is known to fail
	for len(rows) > 1 || !known {
		if probes >= s.e.o.MaxBisectProbes {
			return 0, false, nil
		}
		half := rows
		if len(rows) > 1 {
			half = rows[:len(rows)/2]
		}
		err := s.probe(ctx, p, half)
		probes++
		switch {
		case err == nil && len(rows) == 1:
			return 0, false, nil // the row does not fail on its own
		case err == nil:
			rows, known, allFailed = rows[len(rows)/2:], false, false
		case transient(err) || oraCode(err) == 0 || isTimeout(err):
			s.dropIfLost(err)
			return 0, false, nil
		default:
			rows, known, lastErr = half, true, err
		}
	}
	if allFailed && sc != scopeRow && lastErr != nil {
		err := s.probe(ctx, p, all[1:])
		if err != nil && !transient(err) && !isTimeout(err) && oraCode(err) == oraCode(lastErr) {
			return 0, true, nil
		}
		s.dropIfLost(err)
	}
	return rows[0].Line, false, lastErr
}

// probe runs p for rows in a transaction that it rolls back.
func (s *session) probe(ctx context.Context, p *planned, rows []engine.Row) error {
	c, err := s.connect(ctx)
	if err != nil {
		return err
	}
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	_, err = s.exec(ctx, tx, p, rows)
	if rerr := tx.Rollback(); rerr != nil {
		s.drop()
		if err == nil {
			return rerr
		}
	}
	return err
}

// rowsOf returns the rows of a Write that a statement runs for: the
// Write's own slice when the statement takes them all (the common case:
// no copy per statement and batch), else a copy of those it takes.
func rowsOf(rows []engine.Row, set oraclesql.RowSet) []engine.Row {
	n := 0
	for i := range rows {
		if set.Has(rows[i].Kind) {
			n++
		}
	}
	if n == len(rows) {
		return rows[:n:n] // an append by a caller never writes into the Write's rows
	}
	out := make([]engine.Row, 0, n)
	for _, r := range rows {
		if set.Has(r.Kind) {
			out = append(out, r)
		}
	}
	return out
}
