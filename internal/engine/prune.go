package engine

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/table"
)

// KeepKeys marks the rows with the given keys as written by this run
// (delete_missing, SPEC §6.4): records the run skipped or rejected count
// as written, so their rows must survive the prune. Each row of Rows holds
// the key values in KeyColumns order; RunColumn of a matching row becomes
// RunID, nothing else changes, and a key without a row changes nothing.
type KeepKeys struct {
	Table      *table.Table
	KeyColumns []string
	Rows       []Row
	RunColumn  string
	RunID      string
}

// DeleteMissing prunes what a complete run did not write (delete_missing,
// SPEC §6.4): the rows whose RunColumn is not RunID, or NULL, are deleted
// (Hard) or get DeletedColumn = At unless already set. Compared with <>,
// never a time. When those rows are more than MaxFraction of the table's
// rows, nothing changes and Load fails with a *PruneRefusedError; an
// engine that cannot count (the embedded engine keeping no rows) prunes
// without the check and reports the result as unknown.
//
// A DeleteMissing step runs alone in its Load: its own transaction.
type DeleteMissing struct {
	Table         *table.Table
	RunColumn     string
	RunID         string
	Hard          bool
	DeletedColumn string
	At            string // canonical UTC date-time text
	MaxFraction   float64
}

// PruneRefusedError is a prune refused by delete_missing_max_fraction:
// nothing was pruned. The run fails (exit 1) naming the counts.
type PruneRefusedError struct {
	Table        string
	Prune, Total int64
	MaxFraction  float64
}

func (e *PruneRefusedError) Error() string {
	return fmt.Sprintf("delete_missing: table %s: %d of its %d rows were not written by this run, more than delete_missing_max_fraction %g allows (%d); nothing was pruned. "+
		"If the tap really sent a partial table, check its output; if the rows are really gone, raise delete_missing_max_fraction for one run",
		e.Table, e.Prune, e.Total, e.MaxFraction, int64(e.MaxFraction*float64(e.Total)))
}

// TooMany reports whether pruning prune of total rows goes past max: the
// check every engine makes before a DeleteMissing changes anything.
func TooMany(prune, total int64, max float64) bool {
	return prune > 0 && float64(prune) > max*float64(total)
}
