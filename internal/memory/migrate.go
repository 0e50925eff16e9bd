package memory

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Rewrite migrations are modelled step by step as the Oracle engine runs
// them (oraclesql Renderer.Change): a marker column of the new type is
// added, values are copied into it in chunks, each committed, and the old
// column is then set UNUSED (it still counts toward the column limit) and
// the marker takes its name. A run stopped between the steps leaves the
// marker in the store; the next Describe of the table finishes the
// migration before anything writes to it, as the Oracle engine does. The
// last steps are one commit here (Oracle commits each DDL; the Oracle
// engine finishes each state): the Oracle engine's rename of the old
// column before its drop and the catch-up copy after it are for writers
// beside the run, which the embedded engine never has.

// columnLimit models ORA-01792 for one change: Oracle counts every column,
// UNUSED ones included, at every statement.
func (t *memTable) columnLimit(ch engine.Change, limit int) error {
	if limit <= 0 {
		limit = table.MaxColumns
	}
	n := len(ch.Table.Columns)
	if t != nil {
		n = len(t.def.Columns) + t.unused
		switch ch.Change.Kind {
		case table.AddColumn:
			if t.def.Column(ch.Change.Column) == nil {
				n++
			}
		case table.Migrate:
			if t.migration == nil && t.rewrites(ch) {
				n++ // the marker column
			}
		}
	}
	if n > limit {
		return oraError(1792, fmt.Sprintf("maximum number of columns in a table or view is %d (%s would make %d, UNUSED columns included)", limit, ch.Change, n))
	}
	return nil
}

// rewrites reports whether ch still has data to rewrite: the column has
// its old type, or its migration is under way.
func (t *memTable) rewrites(ch engine.Change) bool {
	if m := t.migration; m != nil && m.Change.Change.Column == ch.Change.Column {
		return true
	}
	c := t.def.Column(ch.Change.Column)
	return c != nil && table.Rewrites(c.Type, ch.Change.To)
}

// inPlace is next (the table after all of a schema change's steps) as far
// as one dictionary-only step takes it: columns whose type change needs a
// rewrite keep their definition until their own Migrate step, and a
// marker column stays.
func (t *memTable) inPlace(next *table.Table) *table.Table {
	out := cloneTable(next)
	for i, c := range out.Columns {
		if oc := t.def.Column(c.Name); oc != nil && table.Rewrites(oc.Type, c.Type) {
			out.Columns[i] = *oc
		}
	}
	if m := t.migration; m != nil {
		out.Columns = append(out.Columns, *t.def.Column(m.Marker))
	}
	return out
}

// rewrite runs a Migrate change: it adds the marker column (committed),
// then copies and swaps.
func (e *Engine) rewrite(t *memTable, ch engine.Change) error {
	if t.migration == nil {
		c := ch.Table.Column(ch.Change.Column)
		if c == nil {
			return oraError(904, fmt.Sprintf("%q: invalid identifier", ch.Change.Column))
		}
		marker := table.DerivedName(c.Name, "$M", table.MaxBytesLong)
		if t.def.Column(marker) != nil {
			// As the Oracle renderer: never a column of the table.
			return fmt.Errorf("%s: migrate column %q: its migration column %q is a column of the table; rename that column first", t.def.QualifiedName(), c.Name, marker)
		}
		mc := *c
		mc.Name, mc.Nullable, mc.Type = marker, true, ch.Change.To
		t.def = cloneTable(t.def)
		t.def.Columns = append(t.def.Columns, mc)
		t.migration = &migration{Change: engine.Change{Table: cloneTable(ch.Table), Change: ch.Change}, Marker: marker}
		if err := e.commit(); err != nil {
			return err
		}
	}
	return e.copyAndSwap(t)
}

// copyAndSwap copies the values not copied yet into the marker in
// committed chunks, then drops the old column and renames the marker.
// The caller holds e.mu.
func (e *Engine) copyAndSwap(t *memTable) error {
	m := t.migration
	ch := m.Change.Change
	chunk := e.opts.MigrationChunkRows
	if chunk <= 0 {
		chunk = defaultMigrationChunkRows
	}
	// The copy's UPDATE stores each converted value in the marker
	// column: Oracle's value rules apply, as in the fake.
	mc := t.def.Column(m.Marker)
	if mc == nil {
		return oraError(904, fmt.Sprintf("%q: invalid identifier (the migration's marker column)", m.Marker))
	}
	rules := t.valueRules(mc)
	for n := 1; ; n++ {
		if h := e.opts.Hooks.Chunk; h != nil {
			if err := h(m.Change, n); err != nil {
				return err
			}
		}
		copied := 0
		for _, r := range t.rows {
			if copied == chunk {
				break
			}
			if r == nil {
				continue
			}
			v, ok := r[ch.Column]
			if _, done := r[m.Marker]; done || !ok {
				continue
			}
			conv, err := table.MigrateValue(ch.From, ch.To, v)
			if err == nil {
				conv, err = check(mc, &rules, conv)
			}
			if err != nil {
				return fmt.Errorf("migrate column %s from %s to %s: %w", ch.Column, ch.From, ch.To, err)
			}
			r[m.Marker] = conv
			copied++
		}
		if err := e.commit(); err != nil {
			return err
		}
		if copied == 0 {
			break
		}
	}
	// SET UNUSED the old column, rename the marker, restore the column's
	// definition (NOT NULL, comment) from the change.
	want := m.Change.Table.Column(ch.Column)
	def := cloneTable(t.def)
	def.Columns = def.Columns[:0]
	for _, c := range t.def.Columns {
		if c.Name != ch.Column && c.Name != m.Marker {
			def.Columns = append(def.Columns, c)
		}
	}
	def.Columns = append(def.Columns, *want)
	for _, r := range t.rows {
		if r == nil {
			continue
		}
		v, ok := r[m.Marker]
		delete(r, m.Marker)
		delete(r, ch.Column)
		if ok {
			r[ch.Column] = v
		}
	}
	t.def, t.migration = def, nil
	t.unused++
	t.reindex()
	return e.commit()
}
