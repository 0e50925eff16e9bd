package batch

import (
	"slices"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// Folder folds the rows of an upsert batch by key, so that the batch
// gives what loading its records one by one gives (SPEC §6.4), wherever
// the batch boundaries fall: an upsert or a hard delete replaces what
// came before for its key; a soft delete after an upsert or a soft delete
// keeps the earlier values and takes its metadata (on an existing row
// only those change), and its line; a soft delete after a hard delete is
// inserted as it is, as an upsert (the row is gone).
type Folder struct {
	keys, meta []int
	keep       bool           // never write into a row's values: a soft delete's metadata goes into a copy
	last       map[string]int // key → index of its row in the batch
	scratch    []byte
}

// NewFolder folds by shape's keys into last, an empty map the caller may
// reuse across batches (clear it after the batch; nil: a new one). With
// keepValues the rows' values are never written (they are the records as
// read, which a later pass builds rows from again).
func NewFolder(shape *Shape, last map[string]int, keepValues bool) Folder {
	if last == nil {
		last = map[string]int{}
	}
	return Folder{keys: shape.Keys, meta: shape.Meta, keep: keepValues, last: last}
}

// Add adds r to rows. A row with a key not seen before is appended;
// otherwise r is folded into that key's row. at is the index of the row r
// went to; replaced reports that the row there now carries r's values in
// place of an earlier record's (which are superseded), false when r was
// appended or only its metadata was taken.
func (f *Folder) Add(rows []engine.Row, r engine.Row) (_ []engine.Row, at int, replaced bool) {
	key := Key(r.Values, f.keys, &f.scratch)
	at, ok := f.last[key]
	if !ok {
		f.last[key] = len(rows)
		return append(rows, r), len(rows), false
	}
	old := rows[at]
	switch {
	case r.Kind != engine.RowSoftDelete:
		rows[at] = r
		return rows, at, true
	case old.Kind == engine.RowHardDelete:
		r.Kind = engine.RowUpsert // the row is gone: the record is inserted whole
		rows[at] = r
		return rows, at, true
	}
	if f.keep {
		old.Values = slices.Clone(old.Values)
	}
	for _, m := range f.meta {
		old.Values[m] = r.Values[m]
	}
	old.Line = r.Line
	rows[at] = old
	return rows, at, false
}
