package memory

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// keepKeys sets the run id of the rows with the given keys, as the
// Oracle engine's UPDATE by key does (delete_missing, SPEC §6.4).
func (t *memTable) keepKeys(k *engine.KeepKeys) (engine.Result, error) {
	if t.def.Column(k.RunColumn) == nil {
		return engine.Result{}, oraError(904, fmt.Sprintf("%q: invalid identifier", k.RunColumn))
	}
	res := engine.Result{Known: t.keep}
	for _, r := range k.Rows {
		match := make(map[string]string, len(k.KeyColumns))
		for i, c := range k.KeyColumns {
			if r.Values[i] == "" {
				match = nil // = NULL matches nothing
				break
			}
			match[c] = r.Values[i]
		}
		if match == nil {
			continue
		}
		for i, row := range t.rows {
			if row != nil && sameKey(row, match, k.KeyColumns) {
				t.save(i) // the Load's undo log (undo.go)
				row[k.RunColumn] = k.RunID
				res.Updated++
			}
		}
	}
	return res, nil
}

// deleteMissing prunes the rows whose run id is another run's or NULL,
// after counting them against the table (delete_missing_max_fraction).
// Without stored rows it can neither count nor prune: the result is
// unknown, as the dry run's other counts are.
func (t *memTable) deleteMissing(d *engine.DeleteMissing) (engine.Result, error) {
	if t.def.Column(d.RunColumn) == nil || (!d.Hard && t.def.Column(d.DeletedColumn) == nil) {
		return engine.Result{}, oraError(904, "run id or deleted column missing")
	}
	if !t.keep {
		return engine.Result{}, nil
	}
	var total, prune int64
	gone := func(r map[string]string) bool {
		if r[d.RunColumn] == d.RunID {
			return false
		}
		_, deleted := r[d.DeletedColumn]
		return d.Hard || !deleted
	}
	for _, r := range t.rows {
		if r == nil {
			continue
		}
		total++
		if gone(r) {
			prune++
		}
	}
	if engine.TooMany(prune, total, d.MaxFraction) {
		return engine.Result{}, &engine.PruneRefusedError{Table: t.def.QualifiedName(), Prune: prune, Total: total, MaxFraction: d.MaxFraction}
	}
	res := engine.Result{Known: true, Deleted: prune}
	for i, r := range t.rows {
		if r == nil || !gone(r) {
			continue
		}
		t.save(i) // the Load's undo log (undo.go)
		if d.Hard {
			if len(t.def.PrimaryKey) > 0 {
				t.unindex(t.keyOf(r), i)
			}
			t.drop(i)
			continue
		}
		r[d.DeletedColumn] = d.At
	}
	return res, nil
}
