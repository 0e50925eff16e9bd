package pipeline

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/batch"
	"github.com/target-oracle/target-oracle/internal/engine"
)

// loadSteps is steps with its last step, a Write, expanded into what an
// engine runs: an append-only batch with hard deletes becomes
// batch.AppendSteps' two steps, or under on_database_error: reject
// batch.Runs (a record a later hard delete supersedes must still reach
// the database, which may refuse it: applied one by one it would be
// rejected). It works on a copy: the Write stays as the batch built it,
// so the refused-row search can rebuild its rows. An expanded list is
// returned as it is (its last Write has no hard delete).
func (p *pipeline) loadSteps(steps []engine.Step) []engine.Step {
	w, ok := steps[len(steps)-1].(*engine.Write)
	if !ok || !batch.HasHardDeletes(w) {
		return steps
	}
	head := slices.Clone(steps[:len(steps)-1])
	if p.rejectingRows() {
		return append(head, batch.Runs(w)...)
	}
	cw := *w
	cw.Rows = slices.Clone(w.Rows)
	return append(head, batch.AppendSteps(&cw)...)
}
