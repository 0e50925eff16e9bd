package oracle

import (
	"context"
	"fmt"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// describeComment reads an existing table's comment (its source streams,
// SPEC §5.1) and its UNUSED column count (the column limit) with
// oraclesql.DescribeTableComment, retrying transient errors.
func (s *session) describeComment(ctx context.Context, t *table.Table) error {
	st := oraclesql.DescribeTableComment(t.Schema, t.Name)
	args, err := s.b.scalarArgs(&st)
	if err != nil {
		return err
	}
	err = s.e.retry(ctx, "describe "+t.QualifiedName(), func() error {
		rows, err := s.query(ctx, &st, args)
		if err != nil {
			return err
		}
		t.Streams, t.ReplacedKey, t.EarlierKeys, t.Unused, t.Description = nil, nil, nil, 0, ""
		if len(rows) == 0 {
			return nil // no comment row: a view of the catalog without it
		}
		if len(rows[0]) < 2 {
			return fmt.Errorf("table comment row of %d values, want 2", len(rows[0]))
		}
		desc, streams, key, earlier, ok := table.ParseTableComment(rows[0][0].String)
		t.Description = desc
		if ok {
			t.Streams, t.ReplacedKey, t.EarlierKeys = streams, key, earlier
		}
		if u := rows[0][1]; u.Valid {
			n, err := strconv.Atoi(u.String)
			if err != nil {
				return fmt.Errorf("unused column count %q: %w", u.String, err)
			}
			t.Unused = n
		}
		return nil
	})
	if err != nil {
		return &Error{Table: t.QualifiedName(), Code: oraCode(err), Err: fmt.Errorf("read the table comment: %w", err)}
	}
	return nil
}
