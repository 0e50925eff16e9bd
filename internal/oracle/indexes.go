package oracle

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Columns of oraclesql.DescribeIndexes's rows.
const (
	ixOwner = iota
	ixName
	ixUniqueness
	ixColumn
	ixColumns
)

// catalogIndex is one index of a table as the catalog lists it.
type catalogIndex struct {
	name    string // OWNER.INDEX_NAME
	unique  bool
	columns []string
}

// indexDone decides a CREATE INDEX that failed with ORA-00955 or
// ORA-01408 (failed): it was done when the table has an index on exactly
// the wanted columns, in order, that is unique when the wanted one is (an
// earlier run's, under this name or the name releases before gave it,
// or the primary key's). Neither code says so alone: the name may be
// another table's index (a name given in custom_indexes twice, an index
// made by hand), and the indexed column list may not be unique.
func (s *session) indexDone(ctx context.Context, t *table.Table, want *table.Index, failed error) error {
	st := oraclesql.DescribeIndexes(t.Schema, t.Name)
	args, err := s.b.scalarArgs(&st)
	if err != nil {
		return err
	}
	rows, err := s.query(ctx, &st, args)
	if err != nil { // a lost connection retries from the CREATE INDEX
		return fmt.Errorf("read the indexes after ORA-%05d: %w", oraCode(failed), err)
	}
	have, err := indexesFromCatalog(rows)
	if err != nil {
		return fmt.Errorf("read the indexes after ORA-%05d: %w", oraCode(failed), err)
	}
	return indexVerdict(have, want, failed)
}

// indexVerdict is nil when an index of have serves want, else the error
// saying why the failed CREATE INDEX is not done.
func indexVerdict(have []catalogIndex, want *table.Index, failed error) error {
	kind := "index"
	if want.Unique {
		kind = "UNIQUE index"
	}
	for _, h := range have {
		if !slices.Equal(h.columns, want.Columns) {
			continue
		}
		if h.unique || !want.Unique {
			return nil
		}
		return fmt.Errorf("custom_indexes: %s %s on (%s) is not made: index %s has these columns but is not unique "+
			"(drop it, or make the custom_indexes entry not unique): %w", kind, table.Quote(want.Name), strings.Join(want.Columns, ", "), h.name, failed)
	}
	return fmt.Errorf("custom_indexes: %s %s on (%s) is not made and the table has no index on these columns: "+
		"the name is used by another object of the schema, an index or a table (give the entry another \"name\"): %w", kind, table.Quote(want.Name), strings.Join(want.Columns, ", "), failed)
}

// indexesFromCatalog groups the rows of oraclesql.DescribeIndexes by
// index.
func indexesFromCatalog(rows [][]sql.NullString) ([]catalogIndex, error) {
	var out []catalogIndex
	for _, r := range rows {
		if len(r) < ixColumns {
			return nil, fmt.Errorf("index catalog row of %d values, want %d", len(r), ixColumns)
		}
		name := r[ixOwner].String + "." + r[ixName].String
		if len(out) == 0 || out[len(out)-1].name != name {
			out = append(out, catalogIndex{name: name, unique: r[ixUniqueness].String == "UNIQUE"})
		}
		last := &out[len(out)-1]
		last.columns = append(last.columns, r[ixColumn].String)
	}
	return out, nil
}

// tableIndexes are the indexes of have that a custom index could be: on
// visible columns of t, and not the primary key's. Names are the
// catalog's without the owner.
func tableIndexes(t *table.Table, have []catalogIndex) []table.Index {
	var out []table.Index
	for _, h := range have {
		if h.unique && slices.Equal(h.columns, t.PrimaryKey) {
			continue
		}
		if slices.ContainsFunc(h.columns, func(c string) bool { col := t.Column(c); return col == nil || col.Hidden }) {
			continue
		}
		_, name, _ := strings.Cut(h.name, ".")
		out = append(out, table.Index{Name: name, Columns: slices.Clone(h.columns), Unique: h.unique})
	}
	return out
}
