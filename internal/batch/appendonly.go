package batch

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// AppendSteps turns an append-only batch into the steps that give what
// loading its records one by one gives (SPEC §6.2: every appended row is
// kept; §6.4: a hard delete removes the rows of its key that exist at that
// point). Keys repeat in such a batch, so it cannot be folded per key as an
// upsert batch is; and an engine runs a Write's INSERT and its DELETE by key
// as two statements, in an order of its own. So a key's rows before its
// last hard delete in the batch are dropped (that delete would remove
// them), its other hard deletes are dropped (the last one removes what they
// would), and the batch becomes two steps of one transaction: the deletes,
// then the inserts in input order. Without hard deletes the Write stays as
// it is. w's rows are reordered in place.
func AppendSteps(w *engine.Write) []engine.Step {
	if !HasHardDeletes(w) {
		return []engine.Step{w}
	}
	keys := make([]int, len(w.KeyColumns))
	for i, k := range w.KeyColumns {
		keys[i] = slices.Index(w.Columns, k)
	}
	var kb []byte
	lastDelete := map[string]int{}
	for i, r := range w.Rows {
		if IsHardDelete(r) {
			lastDelete[Key(r.Values, keys, &kb)] = i
		}
	}
	del := &engine.Write{Table: w.Table, Method: engine.Insert, Columns: w.Columns,
		DatabaseTime: w.DatabaseTime, MetadataColumns: w.MetadataColumns, KeyColumns: w.KeyColumns}
	kept := w.Rows[:0] // in place: kept rows only move towards the front
	for i, r := range w.Rows {
		at, deleted := lastDelete[Key(r.Values, keys, &kb)]
		switch {
		case !deleted || i > at:
			kept = append(kept, r)
		case i == at:
			del.Rows = append(del.Rows, r)
		}
	}
	w.Rows = kept
	return []engine.Step{del, w}
}

// Runs splits an append-only batch with hard deletes into runs of inserts
// and runs of deletes, in input order: one by one, exactly, at the cost of
// a statement per run (on_database_error: reject, where a record a later
// hard delete supersedes must still reach the database). Each run is a
// copy of w with its own rows.
func Runs(w *engine.Write) []engine.Step {
	var out []engine.Step
	for i := 0; i < len(w.Rows); {
		j := i
		for j < len(w.Rows) && IsHardDelete(w.Rows[j]) == IsHardDelete(w.Rows[i]) {
			j++
		}
		cw := *w
		cw.Rows = slices.Clone(w.Rows[i:j])
		out = append(out, &cw)
		i = j
	}
	return out
}

// HasHardDeletes reports whether w is an append-only write holding hard
// deletes: the one kind of Write an engine cannot run as it is.
func HasHardDeletes(w *engine.Write) bool {
	return w.Method == engine.Insert && slices.ContainsFunc(w.Rows, IsHardDelete)
}

// IsHardDelete reports whether r removes its key's rows.
func IsHardDelete(r engine.Row) bool { return r.Kind == engine.RowHardDelete }
