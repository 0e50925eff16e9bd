// Package batch assembles the rows of a batch for the engine: the kind of
// each row, the order of keys, the folding of a key's records into one
// row, the steps of an append-only batch with hard deletes, and the
// chunks a buffer keeps its rows in. Each is a pure function of rows (no
// pipeline, no database, no clock), so each is tested here on its own;
// internal/pipeline calls them when it buffers records and when a worker
// builds a batch's engine.Write.
package batch

import "github.com/target-oracle/target-oracle/internal/engine"

// Shape is what batch assembly needs to know of a batch's columns.
type Shape struct {
	Keys       []int // the key columns' positions, in key order
	Meta       []int // the metadata columns: all a soft delete changes in an existing row
	Deleted    int   // the position of _SDC_DELETED_AT, or -1
	HardDelete bool  // hard_delete: a delete of a keyed record removes the key's row
}

// Kind classifies a record's row: a soft delete when _SDC_DELETED_AT is
// set, a hard delete instead with hard_delete on a keyed stream (a
// keyless stream has no row to remove: its deletes are appended).
func (s *Shape) Kind(vals []string) engine.RowKind {
	switch {
	case s.Deleted < 0 || vals[s.Deleted] == "":
		return engine.RowUpsert
	case s.HardDelete && len(s.Keys) > 0:
		return engine.RowHardDelete
	}
	return engine.RowSoftDelete
}

// Less orders rows by their key values, each by length first, then
// bytes: a strict total order in which canonical integers, and texts of
// one width, sort as their values do. Rows whose keys come in
// increasing order cannot repeat a key, so such a batch needs no folding.
func Less(a, b []string, keys []int) bool {
	for _, k := range keys {
		if x, y := a[k], b[k]; x != y {
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			return x < y
		}
	}
	return false
}

// Key is the identity of a row's key: the one key column's value as it
// is, or the key values each after its length (engine.AppendKey: values
// may hold NUL bytes, so no separator is safe). scratch is reused
// between calls.
func Key(vals []string, keys []int, scratch *[]byte) string {
	if len(keys) == 1 {
		return vals[keys[0]]
	}
	b := (*scratch)[:0]
	for _, k := range keys {
		b = engine.AppendKey(b, vals[k])
	}
	*scratch = b
	return string(b)
}
