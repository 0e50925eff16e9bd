package pipeline

import (
	"context"
	"fmt"
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// keyPlan is how reconcile applies a changed key_properties (SPEC §4: "on
// an empty table (or at overwrite's first flush) the primary key is
// simply replaced"; on a table with rows otherwise it fails).
type keyPlan int

const (
	// keyNow: the table is empty (or was just truncated): replace the key
	// with the other changes.
	keyNow keyPlan = iota
	// keyReplayed: a SCHEMA re-sent from before the key change (SPEC
	// §7.6): the table keeps its shape.
	keyReplayed
	// keyLater: the SCHEMA of a stream whose first flush replaces the
	// table's rows (overwrite, truncate_before_load). The table keeps its
	// key until that flush: a stream that sends no record leaves its
	// table unchanged (SPEC §6.2), and the old rows may not fit the new
	// key.
	keyLater
	// keyAroundLoad: overwrite's first flush on a table with rows. The
	// old key is dropped before the flush's transaction (the new key's
	// columns may be NULL or repeat in the old rows, which readers still
	// see until it commits), the new key added after it commits.
	keyAroundLoad
)

// keepKey takes the key change out of a reconcile (keyLater): next keeps
// cur's primary key, the comment's replaced key and the key columns'
// nullability; a new key column added now is nullable (the table has
// rows), made NOT NULL when the key is replaced.
func keepKey(cur, next *table.Table, changes []table.Change) (*table.Table, []table.Change) {
	out := next.Clone()
	out.PrimaryKey = slices.Clone(cur.PrimaryKey)
	out.ReplacedKey = slices.Clone(cur.ReplacedKey)
	out.EarlierKeys = cur.EarlierKeys
	for i := range out.Columns {
		c := &out.Columns[i]
		if !slices.Contains(next.PrimaryKey, c.Name) && !slices.Contains(cur.PrimaryKey, c.Name) {
			continue
		}
		if oc := cur.Column(c.Name); oc != nil {
			c.Nullable = oc.Nullable
		} else {
			c.Nullable = true
		}
	}
	return out, withoutKeyChange(changes)
}

// splitKeyChange splits the key change of overwrite's first flush
// (keyAroundLoad) in two: the changes to apply now, against an interim
// table without a primary key whose old key columns are nullable (its
// comment already records the key replaced, so a SCHEMA replayed from
// before the change is told apart, SPEC §7.6), and the change that adds
// the new key (its columns NOT NULL) once the flush has committed. A run
// killed between the two leaves a table without a primary key: the next
// run's key change (from no key) finishes it the same way.
func splitKeyChange(cur, next *table.Table, changes []table.Change) (interim *table.Table, now []table.Change, after *engine.Change) {
	interim, now = keepKey(cur, next, changes)
	if len(cur.PrimaryKey) > 0 {
		interim.PrimaryKey = nil
		interim.ReplacedKey = slices.Clone(next.ReplacedKey)
		interim.EarlierKeys = next.EarlierKeys
		for i := range interim.Columns {
			if c := &interim.Columns[i]; slices.Contains(cur.PrimaryKey, c.Name) {
				c.Nullable = true
			}
		}
		now = append(now, table.Change{Kind: table.ReplaceKey, OldKey: slices.Clone(cur.PrimaryKey)})
	}
	if len(next.PrimaryKey) > 0 {
		after = &engine.Change{Table: next, Change: table.Change{Kind: table.ReplaceKey}}
	}
	return interim, now, after
}

func withoutKeyChange(changes []table.Change) []table.Change {
	return slices.DeleteFunc(slices.Clone(changes), func(c table.Change) bool { return c.Kind == table.ReplaceKey })
}

// rowsReplacedFirst reports whether a key change on a table with rows
// waits for, or happens at, the stream's first flush, which replaces the
// table's rows. A truncating flush truncates here, before the key
// changes: the old rows may not fit the new key.
func (p *pipeline) rowsReplacedFirst(ctx context.Context, sess engine.Session, j *job, cur *table.Table, want *table.Table) (keyPlan, bool, error) {
	switch {
	case j.kind == jobEnsure && j.replacesRows:
		p.log.Info("key_properties changed: the primary key is replaced at the stream's first flush, which replaces the table's rows",
			"table", cur.QualifiedName(), "stream", j.name, "from", cur.PrimaryKey, "to", want.PrimaryKey)
		return keyLater, true, nil
	case j.kind == jobBatch && j.truncate:
		if err := sess.Truncate(ctx, cur); err != nil {
			return keyNow, true, fmt.Errorf("truncate %s: %w", cur.QualifiedName(), err)
		}
		j.truncate = false // done
		p.log.Warn("key_properties changed: replacing the primary key of the table truncated for truncate_before_load",
			"table", cur.QualifiedName(), "from", cur.PrimaryKey, "to", want.PrimaryKey)
		return keyNow, true, nil
	case j.kind == jobBatch && j.replace:
		p.log.Warn("key_properties changed: replacing the primary key at overwrite's first flush (dropped before it, added after it commits)",
			"table", cur.QualifiedName(), "from", cur.PrimaryKey, "to", want.PrimaryKey)
		return keyAroundLoad, true, nil
	}
	return keyNow, false, nil
}

// addKeyAfterLoad adds the primary key splitKeyChange held back, once
// overwrite's first flush has committed.
func (p *pipeline) addKeyAfterLoad(ctx context.Context, sess engine.Session, j *job) error {
	ch := j.addKey
	if ch == nil {
		return nil
	}
	j.addKey = nil
	p.log.Info("schema change", "table", ch.Table.QualifiedName(), "change", ch.Change.String())
	if err := sess.Apply(ctx, *ch); err != nil {
		p.tables.forget(ch.Table.Schema, ch.Table.Name)
		return fmt.Errorf("table %s: %w", ch.Table.QualifiedName(), err)
	}
	p.tables.set(ch.Table)
	return nil
}
