package pipeline

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// appendSteps turns an append-only batch into the steps that give what
// loading its records one by one gives (SPEC §6.2: every appended row is
// kept; §6.4: a hard delete removes the rows of its key that exist at that
// point). Keys repeat in such a batch, so it cannot be folded per key as an
// upsert batch is; and an engine runs a Write's INSERT and its DELETE by key
// as two statements, in an order of its own. So a key's rows before its
// last hard delete in the batch are dropped (that delete would remove
// them), its other hard deletes are dropped (the last one removes what they
// would), and the batch becomes two steps of one transaction: the deletes,
// then the inserts in input order. Without hard deletes the Write stays as
// it is.
func appendSteps(w *engine.Write) []engine.Step {
	if w.Method != engine.Insert || !slices.ContainsFunc(w.Rows, isHardDelete) {
		return []engine.Step{w}
	}
	keys := make([]int, len(w.KeyColumns))
	for i, k := range w.KeyColumns {
		keys[i] = slices.Index(w.Columns, k)
	}
	var kb []byte
	lastDelete := map[string]int{}
	for i, r := range w.Rows {
		if isHardDelete(r) {
			lastDelete[rowKey(r.Values, keys, &kb)] = i
		}
	}
	del := &engine.Write{Table: w.Table, Method: engine.Insert, Columns: w.Columns,
		DatabaseTime: w.DatabaseTime, MetadataColumns: w.MetadataColumns, KeyColumns: w.KeyColumns}
	kept := w.Rows[:0] // in place: kept rows only move towards the front
	for i, r := range w.Rows {
		at, deleted := lastDelete[rowKey(r.Values, keys, &kb)]
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

func isHardDelete(r engine.Row) bool { return r.Kind == engine.RowHardDelete }

// loadSteps is steps with its last step, a Write, expanded into what an
// engine runs: appendSteps' two steps, or under on_database_error: reject
// orderedSteps (a record a later hard delete supersedes must still reach
// the database, which may refuse it: applied one by one it would be
// rejected). It works on a copy: the Write stays as the batch built it,
// so the refused-row search can rebuild its rows. An expanded list is
// returned as it is (its last Write has no hard delete).
func (p *pipeline) loadSteps(steps []engine.Step) []engine.Step {
	w, ok := steps[len(steps)-1].(*engine.Write)
	if !ok || w.Method != engine.Insert || !slices.ContainsFunc(w.Rows, isHardDelete) {
		return steps
	}
	head := slices.Clone(steps[:len(steps)-1])
	if p.rejectingRows() {
		return append(head, orderedSteps(w)...)
	}
	cw := *w
	cw.Rows = slices.Clone(w.Rows)
	return append(head, appendSteps(&cw)...)
}

// orderedSteps splits an append-only batch with hard deletes into runs of
// inserts and runs of deletes, in input order: one by one, exactly, at the
// cost of a statement per run.
func orderedSteps(w *engine.Write) []engine.Step {
	var out []engine.Step
	for i := 0; i < len(w.Rows); {
		j := i
		for j < len(w.Rows) && isHardDelete(w.Rows[j]) == isHardDelete(w.Rows[i]) {
			j++
		}
		cw := *w
		cw.Rows = slices.Clone(w.Rows[i:j])
		out = append(out, &cw)
		i = j
	}
	return out
}
