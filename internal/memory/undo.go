package memory

import (
	"cmp"
	"maps"
)

// undoLog takes one Load's changes back from a table: the rows it
// appended are cut off, the rows it changed or deleted get their saved
// copies back, a table it emptied (Replace) gets its rows back. It costs
// per row the Load touches; only a rollback costs per table row (the key
// index is rebuilt), and rollbacks are rare.
type undoLog struct {
	rows    int                       // len(t.rows) when the Load began
	hasRows bool                      // t.hasRows when the Load began
	saved   map[int]map[string]string // rows before the Load first changed them, by index (nil: the row was absent)
	// cleared holds the table's rows and key index when a Replace in this
	// Load emptied it; later changes are to rows the Load added.
	cleared     bool
	clearedRows []map[string]string
	clearedCold words
}

// begin starts logging the changes of a Load.
func (t *memTable) begin() {
	t.undo = &undoLog{rows: len(t.rows), hasRows: t.hasRows, saved: map[int]map[string]string{}}
}

// save keeps row i as it is, before the Load first changes or deletes it.
// Rows the Load appended need nothing: the rollback cuts them off.
func (t *memTable) save(i int) {
	u := t.undo
	if u == nil || u.cleared || i >= u.rows {
		return
	}
	if _, done := u.saved[i]; !done {
		if err := t.warmRow(i); err != nil { // warmFor warmed it already: a second read fails alike
			t.spill.err = cmp.Or(t.spill.err, err)
		}
		u.saved[i] = maps.Clone(t.rows[i])
	}
}

// saveAll is save before the table is emptied (Replace).
func (t *memTable) saveAll() {
	if u := t.undo; u != nil && !u.cleared {
		// the undo log owns the table's cold references now (clear
		// would free them)
		u.cleared, u.clearedRows, u.clearedCold = true, t.rows, t.cold
		t.cold = words{}
	}
}

// rollback undoes the logged changes.
func (t *memTable) rollback() {
	u := t.undo
	if u == nil {
		return
	}
	if u.cleared {
		t.cold.free()
		t.rows, t.cold = u.clearedRows, u.clearedCold
		u.clearedCold = words{}
	}
	clear(t.rows[u.rows:]) // the appended rows (and their records): let them go
	t.rows = t.rows[:u.rows]
	if len(t.cold.w) > u.rows {
		t.cold.resize(u.rows)
	}
	for i, r := range u.saved {
		t.rows[i] = r // warm, as save found it
		if i < len(t.cold.w) {
			t.cold.w[i] = 0
		}
	}
	t.hasRows = u.hasRows
	t.reindex()
}

// endUndo ends the undo logs of tables, taking their changes back first
// when rollback is set.
func endUndo(tables map[string]*memTable, rollback bool) {
	for _, t := range tables {
		if rollback {
			t.rollback()
		} else if t.undo != nil {
			t.undo.clearedCold.free()
		}
		t.undo = nil
	}
}
