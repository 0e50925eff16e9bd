package pipeline

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// keyOrder returns keys (the stream's key_properties, in the order the
// SCHEMA gave them) in the order of the table's key as planned earlier in
// this run (prev) or, without one, as the database has it (existing), when
// the SCHEMA names the same key columns in another order; nil when there
// is nothing to reorder. A key is a set of properties: a tap that builds
// key_properties from a Python set sends them in a different order from
// one run to the next, and that must neither fail the run as a key change
// on a table with rows nor make two streams of one table disagree (SPEC §4).
func keyOrder(keys []string, l, prev *tablemap.Layout, existing *table.Table) []string {
	if len(keys) < 2 {
		return nil
	}
	cols := keyColumns(l)
	var ref []string
	switch {
	case prev != nil:
		ref = keyColumns(prev)
	case existing != nil:
		ref = slices.DeleteFunc(slices.Clone(existing.PrimaryKey), func(c string) bool { return c == table.MetaValidFrom })
	}
	if len(ref) != len(cols) || slices.Equal(ref, cols) {
		return nil
	}
	out := make([]string, 0, len(keys))
	for _, c := range ref {
		i := slices.Index(cols, c)
		if i < 0 {
			return nil // another key: a real change, decided as before
		}
		out = append(out, keys[i])
	}
	return out
}

// keyColumns returns the names of the layout's key columns in
// key_properties order (also for append-only layouts, which declare no
// PRIMARY KEY constraint).
func keyColumns(l *tablemap.Layout) []string {
	t := l.Table()
	out := make([]string, 0, len(l.KeyIndexes()))
	for _, i := range l.KeyIndexes() {
		out = append(out, t.Columns[i].Name)
	}
	return out
}
