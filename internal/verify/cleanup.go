package verify

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/connect"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// DropLeftovers drops the tables of prefix in schema that are older than
// an hour and whose names match, returning the names dropped. A table
// younger than that may belong to a run still going (another verify or
// benchmark on the same schema).
func DropLeftovers(ctx context.Context, dial oracle.Dialer, schema, prefix string, match func(string) bool) ([]string, error) {
	c, err := dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer c.Close()
	st := oraclesql.ListScratchTables(schema, prefix)
	rows, err := c.Query(ctx, &st, scalarArgs(&st))
	if err != nil {
		return nil, fmt.Errorf("list the scratch tables older than an hour: %w", err)
	}
	var dropped []string
	var errs []error
	for _, r := range rows {
		if len(r) == 0 || !match(r[0].String) {
			continue
		}
		if err := dropOn(ctx, c, schema, r[0].String); err != nil {
			errs = append(errs, err) // the others are tried all the same (Drop)
			continue
		}
		dropped = append(dropped, r[0].String)
	}
	return dropped, errors.Join(errs...)
}

// Drop drops scratch tables on a fresh session (the one that failed may
// be lost), returning those dropped (or found gone). Every table is
// tried: one that cannot be dropped (still locked by the session a
// failure left, ORA-00054) does not keep the others; the error names each
// that failed.
func Drop(ctx context.Context, dial oracle.Dialer, schema string, names []string) ([]string, error) {
	if len(names) == 0 {
		return nil, nil
	}
	c, err := dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer c.Close()
	var dropped []string
	var errs []error
	for _, n := range names {
		if err := dropOn(ctx, c, schema, n); err != nil {
			errs = append(errs, err)
			continue
		}
		dropped = append(dropped, n)
	}
	return dropped, errors.Join(errs...)
}

func dropOn(ctx context.Context, c oracle.Conn, schema, name string) error {
	st, err := oraclesql.DropTable(schema, name)
	if err != nil {
		return err
	}
	if _, err := c.Exec(ctx, &st, nil); err != nil && !slices.Contains(st.IgnoreCodes, connect.Code(err)) {
		return fmt.Errorf("drop %s: %w", name, err)
	}
	return nil
}

// dropLeftovers drops verify tables older than an hour (a run that could
// not drop its own: killed, or its session lost).
func (s *scratch) dropLeftovers(ctx context.Context) {
	names, err := DropLeftovers(ctx, s.o.Dial, s.schema, config.VerifyPrefix, ScratchName)
	s.rep.Leftovers = names
	if err != nil {
		s.rep.Errors = append(s.rep.Errors, "leftovers: "+err.Error())
	}
}

// cleanup drops the run's tables, also after ctx was cancelled (a
// signal): the drops get a context of their own, bounded by
// CleanupTimeout.
func (s *scratch) cleanup(ctx context.Context) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.o.CleanupTimeout)
	defer cancel()
	dropped, err := Drop(cctx, s.o.Dial, s.schema, s.created)
	s.rep.Dropped = dropped
	if err != nil {
		s.rep.Errors = append(s.rep.Errors, fmt.Sprintf("cleanup: %v (drop the remaining tables of %v by hand: DROP TABLE … PURGE)", err, Remaining(s.created, dropped)))
	}
}

// Remaining returns the names of created that are not in dropped, in
// order: the tables a failed cleanup leaves for the user to drop.
func Remaining(created, dropped []string) []string {
	var out []string
	for _, n := range created {
		if !slices.Contains(dropped, n) {
			out = append(out, n)
		}
	}
	return out
}
