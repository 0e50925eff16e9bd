package memory

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/value"
)

// history applies a load_method history batch: the versions are decided
// by engine.History.Decide from the stored versions of the batch's keys,
// as the Oracle engine decides them from what it reads.
func (t *memTable) history(h *engine.History, now string) (engine.Result, error) {
	for _, name := range h.Columns {
		if t.def.Column(name) == nil {
			return engine.Result{}, oraError(904, fmt.Sprintf("%q: invalid identifier", name))
		}
	}
	res := engine.Result{Known: t.keep}
	if !t.keep {
		// No rows kept: every record may be a version; how many are is
		// unknown.
		for _, r := range h.Rows {
			if r.Kind == engine.RowUpsert {
				res.Written++
			}
		}
		t.hasRows = t.hasRows || res.Written > 0
		return res, nil
	}
	versions := t.versionsOf(h)
	isTrue, isFalse := engine.Booleans(t.def.Column(h.Columns[h.IsCurrent]).Type)
	plan, err := h.Decide(versions, isTrue, isFalse)
	if err != nil {
		return engine.Result{}, err
	}
	h.Adjusted = plan.Adjusted
	vf, vt, cur := h.Columns[h.ValidFrom], h.Columns[h.ValidTo], h.Columns[h.IsCurrent]
	for _, c := range plan.Close {
		key := make(map[string]string, len(h.KeyColumns)+1)
		for i, k := range h.KeyColumns {
			key[k] = c.Key[i]
		}
		key[vf] = c.ValidFrom
		i, ok := t.lookup(t.keyOf(key))
		if !ok {
			return engine.Result{}, fmt.Errorf("input line %d: the current version to close is gone", c.Line)
		}
		t.save(i) // undo log: a failed batch restores the row
		t.rows[i][vt], t.rows[i][cur] = c.ValidTo, isFalse
		res.Updated++
	}
	for _, c := range plan.Touch {
		key := make(map[string]string, len(h.KeyColumns)+1)
		for i, k := range h.KeyColumns {
			key[k] = c.Key[i]
		}
		key[vf] = c.ValidFrom
		if i, ok := t.lookup(t.keyOf(key)); ok {
			t.save(i)
			t.rows[i][h.Columns[h.TableVersion]] = c.Version
			res.Updated++
		}
	}
	for _, r := range plan.Insert {
		row := make(map[string]string, len(h.Columns))
		for i, v := range r.Values {
			if h.Columns[i] == h.DatabaseTime {
				continue
			}
			c := t.def.Column(h.Columns[i])
			rules := t.valueRules(c)
			v, err := check(c, &rules, v)
			if err != nil {
				return engine.Result{}, &engine.RowError{Line: r.Line, Err: err}
			}
			if v != "" {
				row[h.Columns[i]] = v
			}
		}
		if h.DatabaseTime != "" {
			row[h.DatabaseTime] = now
		}
		if err := t.insert(row); err != nil {
			return engine.Result{}, &engine.RowError{Line: r.Line, Err: err}
		}
		res.Inserted++
		res.Written++
	}
	return res, nil
}

// versionsOf reads the stored versions of the batch's keys (by
// engine.History.HistoryKey).
func (t *memTable) versionsOf(h *engine.History) map[string][]engine.Version {
	want := make(map[string]bool, len(h.Rows))
	var kb []byte
	for _, r := range h.Rows {
		kb = h.HistoryKey(r.Values, kb)
		want[string(kb)] = true
	}
	vf, vt, hash := h.Columns[h.ValidFrom], h.Columns[h.ValidTo], h.Columns[h.RowHash]
	out := make(map[string][]engine.Version, len(want))
	for _, row := range t.rows {
		if row == nil {
			continue
		}
		kb = kb[:0]
		for _, k := range h.KeyColumns {
			kb = engine.AppendKey(kb, row[k])
		}
		if !want[string(kb)] {
			continue
		}
		out[string(kb)] = append(out[string(kb)], engine.Version{ValidFrom: row[vf], ValidTo: row[vt], Hash: row[hash]})
	}
	return out
}

// closeVersions is ACTIVATE_VERSION on a history table: current versions
// of older table versions (or none) are closed at the activation time, or
// at their own valid-from when that is later; nothing is deleted.
func (t *memTable) closeVersions(c *engine.CloseVersions) (engine.Result, error) {
	for _, name := range []string{c.VersionColumn, c.ValidFrom, c.ValidTo, c.IsCurrent} {
		if t.def.Column(name) == nil {
			return engine.Result{}, oraError(904, fmt.Sprintf("%q: invalid identifier", name))
		}
	}
	_, isFalse := engine.Booleans(t.def.Column(c.IsCurrent).Type)
	res := engine.Result{Known: t.keep}
	for i, r := range t.rows {
		if r == nil {
			continue
		}
		if _, closed := r[c.ValidTo]; closed {
			continue
		}
		if v, ok := r[c.VersionColumn]; ok && value.CompareCanonical(v, c.Version) >= 0 {
			continue // current or newer: never <=
		}
		at := c.At
		if compareTimestamps(r[c.ValidFrom], at) > 0 {
			at = r[c.ValidFrom]
		}
		t.save(i) // undo log: a failed batch restores the row
		r[c.ValidTo], r[c.IsCurrent] = at, isFalse
		res.Updated++
	}
	return res, nil
}
