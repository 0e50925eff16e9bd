package oracle

import (
	"context"
	"fmt"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// on_database_error: reject (SPEC §6.3): the loader finds the rows the
// server refuses by trying parts of a batch in transactions that are
// rolled back (engine.Trier), and tells a row's refusal from a
// statement's by the classification of errors.go (engine.CodedError).

var (
	_ engine.Trier      = (*session)(nil)
	_ engine.CodedError = (*Error)(nil)
)

// ORACode implements engine.CodedError.
func (e *Error) ORACode() int { return e.Code }

// RowLevel implements engine.CodedError: the server's error is one of a
// row's values by its ORA code (scopeOf), and the engine did not find it
// to fail for every row alike.
func (e *Error) RowLevel() bool { return e.Code != 0 && scopeOf(e.Err) == scopeRow }

// TryLoad implements engine.Trier: the batch's statements run as Load
// runs them, in one transaction that is always rolled back. A transient
// error retries on a fresh session, as Load does; any other error comes
// back as an *Error, with the input line when the execute held one row.
func (s *session) TryLoad(ctx context.Context, steps []engine.Step) error {
	plan, _, err := s.e.plan(steps)
	if err != nil || len(plan) == 0 {
		return err
	}
	for attempt := 1; ; attempt++ {
		f := s.tryOnce(ctx, plan)
		if f == nil {
			return nil
		}
		tbl := plan[0].table
		if f.at >= 0 {
			tbl = plan[f.at].table
		}
		e := &Error{Table: tbl, Code: oraCode(f.err), Err: f.err}
		if f.at >= 0 && f.hi-f.lo == 1 && plan[f.at].rows != nil {
			e.Line = plan[f.at].rows[f.lo].Line
		}
		switch {
		case ctx.Err() != nil:
			s.drop()
			return &Error{Table: tbl, Err: fmt.Errorf("%w (%w)", ctx.Err(), f.err)}
		case isTimeout(f.err):
			s.drop()
			return e
		case !transient(f.err):
			return e
		}
		s.drop()
		if attempt >= s.e.o.Retry.Attempts {
			return &Error{Table: tbl, Code: oraCode(f.err), Err: fmt.Errorf("gave up after %d attempts: %w", attempt, f.err)}
		}
		if err := s.e.o.Sleep(ctx, s.e.backoff(attempt)); err != nil {
			return &Error{Table: tbl, Err: fmt.Errorf("%w (%w)", err, f.err)}
		}
	}
}

// tryOnce runs the plan once in a transaction and rolls it back.
func (s *session) tryOnce(ctx context.Context, plan []planned) *failure {
	c, err := s.connect(ctx)
	if err != nil {
		return &failure{at: -1, err: err}
	}
	tx, err := c.Begin(ctx)
	if err != nil {
		s.dropIfLost(err)
		return &failure{at: -1, err: fmt.Errorf("begin: %w", err)}
	}
	var f *failure
run:
	for i := range plan {
		p := &plan[i]
		if p.rows == nil {
			if _, err := s.exec(ctx, tx, p, nil); err != nil {
				f = &failure{at: i, err: err}
				break
			}
			continue
		}
		step := s.e.o.MaxArrayRows
		for lo := 0; lo < len(p.rows); lo += step {
			hi := min(lo+step, len(p.rows))
			if _, err := s.exec(ctx, tx, p, p.rows[lo:hi]); err != nil {
				f = &failure{at: i, lo: lo, hi: hi, err: err}
				break run
			}
		}
	}
	if err := tx.Rollback(); err != nil {
		s.drop()
		if f == nil {
			return &failure{at: -1, err: fmt.Errorf("rollback: %w", err)}
		}
	}
	if f != nil {
		s.dropIfLost(f.err)
	}
	return f
}
