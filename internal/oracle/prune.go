package oracle

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// prune runs a delete_missing prune (SPEC §6.4): it counts the table's rows
// and the rows to prune (oraclesql.PruneCount), refuses a prune above the
// fraction before anything changes, then runs the one set-based statement
// in its own transaction and checks its row count against the fraction
// again before COMMIT (a concurrent writer may have changed the table
// between the count and the statement). The whole of it is idempotent, so
// a transient error, a lost COMMIT included, retries it on a fresh session.
func (s *session) prune(ctx context.Context, d *engine.DeleteMissing) (engine.Result, error) {
	tbl := d.Table.QualifiedName()
	count, err := oraclesql.PruneCount(d)
	if err != nil {
		return engine.Result{}, err
	}
	stmts, err := s.e.r.Step(d)
	if err != nil {
		return engine.Result{}, err
	}
	var res engine.Result
	err = s.e.retry(ctx, "delete_missing on "+tbl, func() error {
		var err error
		res, err = s.pruneOnce(ctx, d, &count, stmts)
		if err != nil {
			s.dropIfLost(err)
		}
		return err
	})
	if err != nil {
		if pe := (*engine.PruneRefusedError)(nil); errors.As(err, &pe) {
			return engine.Result{}, err
		}
		return engine.Result{}, &Error{Table: tbl, Code: oraCode(err), Err: err}
	}
	return res, nil
}

func (s *session) pruneOnce(ctx context.Context, d *engine.DeleteMissing, count *oraclesql.Statement, stmts []oraclesql.Statement) (engine.Result, error) {
	c, err := s.connect(ctx)
	if err != nil {
		return engine.Result{}, err
	}
	args, err := s.b.scalarArgs(count)
	if err != nil {
		return engine.Result{}, err
	}
	sctx, cancel := s.statementContext(ctx)
	rows, err := c.Query(sctx, count, args)
	err = s.timedOut(ctx, sctx, err)
	cancel()
	if err != nil {
		return engine.Result{}, fmt.Errorf("count rows to prune: %w", err)
	}
	total, prune, err := pruneCounts(rows)
	if err != nil {
		return engine.Result{}, err
	}
	refused := func(n int64) error {
		return &engine.PruneRefusedError{Table: d.Table.QualifiedName(), Prune: n, Total: total, MaxFraction: d.MaxFraction}
	}
	if engine.TooMany(prune, total, d.MaxFraction) {
		return engine.Result{}, refused(prune)
	}
	tx, err := c.Begin(ctx)
	if err != nil {
		return engine.Result{}, fmt.Errorf("begin: %w", err)
	}
	var n int64
	for i := range stmts {
		args, err := s.b.scalarArgs(&stmts[i])
		if err == nil {
			var k int64
			k, err = s.execOne(ctx, tx, &stmts[i], args)
			n += k
		}
		if err != nil {
			if rerr := tx.Rollback(); rerr != nil {
				s.drop()
			}
			return engine.Result{}, err
		}
	}
	if engine.TooMany(n, max(total, n), d.MaxFraction) {
		if rerr := tx.Rollback(); rerr != nil {
			s.drop()
		}
		return engine.Result{}, refused(n)
	}
	if err := s.commit(tx); err != nil {
		return engine.Result{}, fmt.Errorf("commit: %w", err)
	}
	return engine.Result{Deleted: n, Known: true}, nil
}

// pruneCounts reads the answer of oraclesql.PruneCount: one row of two
// counts.
func pruneCounts(rows [][]sql.NullString) (total, prune int64, err error) {
	if len(rows) != 1 || len(rows[0]) != 2 {
		return 0, 0, fmt.Errorf("count rows to prune: %d rows in the answer, want one of two columns", len(rows))
	}
	for i, p := range []*int64{&total, &prune} {
		if *p, err = strconv.ParseInt(rows[0][i].String, 10, 64); err != nil {
			return 0, 0, fmt.Errorf("count rows to prune: %q is not a count", rows[0][i].String)
		}
	}
	return total, prune, nil
}
