package oraclesql

import (
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// DefaultHistoryKeysPerQuery is how many keys one read of a history
// batch's stored versions names: Oracle allows at most 1,000 expressions
// in an IN list.
const DefaultHistoryKeysPerQuery = 1000

// HistoryStatements are the statements of a load_method history batch,
// run in one transaction in this order:
//
//   - Read, once per KeysPerQuery keys of the batch: the batch's distinct
//     keys rounded up to a power of two, at most HistoryKeysPerQuery
//     (unused places bound NULL, which matches nothing, so that batches
//     share a few shapes):
//     the stored versions of those keys, locked (FOR UPDATE), as canonical
//     text: the key columns, _SDC_VALID_FROM, _SDC_VALID_TO (NULL while
//     current), _SDC_ROW_HASH;
//   - Close, array-bound, one row per stored current version to close, by
//     primary key: values [valid-to, is-current false, keys…, valid-from];
//   - Touch (tables with _SDC_TABLE_VERSION), array-bound, one row per
//     stored current version an unchanged record of a newer table version
//     keeps: values [version, keys…, valid-from];
//   - Insert, array-bound, one row per new version: values in
//     History.Columns order.
//
// The versions are decided in Go between Read and Close
// (engine.History.Decide).
type HistoryStatements struct {
	Read, Close, Insert Statement
	// Touch, array-bound, sets the table version of stored current
	// versions that unchanged records carry: values [version, keys…,
	// valid-from]. Empty SQL when the table has no version column.
	Touch        Statement
	KeysPerQuery int
}

// History renders the statements of h.
func (r *Renderer) History(h *engine.History) (HistoryStatements, error) {
	t := h.Table
	if err := checkNames(t, h.Columns...); err != nil {
		return HistoryStatements{}, err
	}
	if len(h.KeyColumns) == 0 {
		return HistoryStatements{}, &UnsupportedError{Table: t.QualifiedName(), What: "history without key columns"}
	}
	col := func(name string) (*table.Column, error) {
		c := t.Column(name)
		if c == nil {
			return nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("history column %q, which the table does not have", name)}
		}
		return c, nil
	}
	keys := make([]*table.Column, len(h.KeyColumns))
	for i, k := range h.KeyColumns {
		c, err := col(k)
		if err != nil {
			return HistoryStatements{}, err
		}
		keys[i] = c
	}
	var hc [4]*table.Column
	for i, name := range []string{h.Columns[h.ValidFrom], h.Columns[h.ValidTo], h.Columns[h.IsCurrent], h.Columns[h.RowHash]} {
		c, err := col(name)
		if err != nil {
			return HistoryStatements{}, err
		}
		hc[i] = c
	}
	vf, vt, cur, hash := hc[0], hc[1], hc[2], hc[3]
	places := historyPlaces(h, r.historyKeys())
	read, err := r.historyRead(t, keys, vf, vt, hash, places)
	if err != nil {
		return HistoryStatements{}, err
	}
	// Close: values [valid-to, is-current, keys…, valid-from].
	binds := []Bind{{Column: vt.Name, Type: vt.Type, Source: FromRow, Index: 0}, {Column: cur.Name, Type: cur.Type, Source: FromRow, Index: 1}}
	where := make([]string, 0, len(keys)+1)
	for i, k := range append(keys, vf) {
		binds = append(binds, Bind{Column: k.Name, Type: k.Type, Source: FromRow, Index: 2 + i})
		where = append(where, table.Quote(k.Name)+" = "+bindExpr(k.Type, len(binds)))
	}
	closeSQL := "UPDATE " + tableName(t) + " SET " + table.Quote(vt.Name) + " = " + bindExpr(vt.Type, 1) + ", " +
		table.Quote(cur.Name) + " = " + bindExpr(cur.Type, 2) + " WHERE " + strings.Join(where, " AND ")
	var touch Statement
	if h.TableVersion >= 0 {
		tv, err := col(h.Columns[h.TableVersion])
		if err != nil {
			return HistoryStatements{}, err
		}
		tb := []Bind{{Column: tv.Name, Type: tv.Type, Source: FromRow, Index: 0}}
		var tw []string
		for i, k := range append(keys[:len(keys):len(keys)], vf) {
			tb = append(tb, Bind{Column: k.Name, Type: k.Type, Source: FromRow, Index: 1 + i})
			tw = append(tw, table.Quote(k.Name)+" = "+bindExpr(k.Type, len(tb)))
		}
		touch = Statement{SQL: "UPDATE " + tableName(t) + " SET " + table.Quote(tv.Name) + " = " + bindExpr(tv.Type, 1) +
			" WHERE " + strings.Join(tw, " AND "), Binds: tb, Kind: KindDML, Rows: RowsOf(engine.RowUpsert)}
	}
	w := &engine.Write{Table: t, Method: engine.Insert, Columns: h.Columns, KeyColumns: h.KeyColumns, DatabaseTime: h.DatabaseTime}
	cols, err := writeColumns(w)
	if err != nil {
		return HistoryStatements{}, err
	}
	return HistoryStatements{
		Read:         read,
		Close:        Statement{SQL: closeSQL, Binds: binds, Kind: KindDML, Rows: RowsOf(engine.RowUpsert)},
		Insert:       r.insert(w, cols, RowsOf(engine.RowUpsert)),
		Touch:        touch,
		KeysPerQuery: places,
	}, nil
}

func (r *Renderer) historyKeys() int {
	if r.o.HistoryKeysPerQuery > 0 {
		return r.o.HistoryKeysPerQuery
	}
	return DefaultHistoryKeysPerQuery
}

// historyPlaces is the number of keys a Read names: the batch's distinct
// keys rounded up to a power of two, at most limit.
func historyPlaces(h *engine.History, limit int) int {
	seen := make(map[string]bool, len(h.Rows))
	var kb []byte
	for _, r := range h.Rows {
		kb = h.HistoryKey(r.Values, kb)
		seen[string(kb)] = true
	}
	n := 1
	for n < len(seen) && n < limit {
		n *= 2
	}
	return min(n, limit)
}

// historyRead is the Read statement: its binds are Fixed, one per key
// column per place, in place order; the engine sets their values.
func (r *Renderer) historyRead(t *table.Table, keys []*table.Column, vf, vt, hash *table.Column, n int) (Statement, error) {
	var sel []string
	for _, c := range append(keys[:len(keys):len(keys)], vf, vt) {
		e, err := textOf(c.Type, table.Quote(c.Name))
		if err != nil {
			return Statement{}, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("column %q: %v", c.Name, err)}
		}
		sel = append(sel, e)
	}
	sel = append(sel, table.Quote(hash.Name))
	var binds []Bind
	places := make([]string, n)
	for i := range places {
		var tuple []string
		for _, k := range keys {
			binds = append(binds, Bind{Column: k.Name, Type: k.Type, Source: Fixed})
			tuple = append(tuple, bindExpr(k.Type, len(binds)))
		}
		places[i] = strings.Join(tuple, ", ")
		if len(keys) > 1 {
			places[i] = "(" + places[i] + ")"
		}
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = table.Quote(k.Name)
	}
	target := strings.Join(names, ", ")
	if len(keys) > 1 {
		target = "(" + target + ")"
	}
	sql := "SELECT " + strings.Join(sel, ", ") + " FROM " + tableName(t) + " WHERE " + target +
		" IN (" + strings.Join(places, ", ") + ") FOR UPDATE"
	return Statement{SQL: sql, Binds: binds, Kind: KindQuery}, nil
}

// closeVersions is ACTIVATE_VERSION on a history table: an UPDATE of the
// current versions of older table versions (or NULL), never <=.
func (r *Renderer) closeVersions(c *engine.CloseVersions) ([]Statement, error) {
	t := c.Table
	if err := checkNames(t, c.VersionColumn, c.ValidFrom, c.ValidTo, c.IsCurrent); err != nil {
		return nil, err
	}
	vc, vf, vt, cur := t.Column(c.VersionColumn), t.Column(c.ValidFrom), t.Column(c.ValidTo), t.Column(c.IsCurrent)
	if vc == nil || vf == nil || vt == nil || cur == nil || vc.Type.Kind != table.KindNumber {
		return nil, &UnsupportedError{Table: t.QualifiedName(), What: "ACTIVATE_VERSION on a table without the history and version columns"}
	}
	_, isFalse := engine.Booleans(cur.Type)
	qv, qf, qt := table.Quote(vc.Name), table.Quote(vf.Name), table.Quote(vt.Name)
	return []Statement{{
		SQL: "UPDATE " + tableName(t) + " SET " + qt + " = GREATEST(" + qf + ", " + bindExpr(vt.Type, 1) + "), " +
			table.Quote(cur.Name) + " = " + bindExpr(cur.Type, 2) +
			" WHERE (" + qv + " < " + bindExpr(vc.Type, 3) + " OR " + qv + " IS NULL) AND " + qt + " IS NULL",
		Binds: []Bind{
			{Column: vt.Name, Type: vt.Type, Source: Fixed, Value: c.At},
			{Column: cur.Name, Type: cur.Type, Source: Fixed, Value: isFalse},
			{Column: vc.Name, Type: vc.Type, Source: Fixed, Value: c.Version},
		},
		Kind: KindDML,
	}}, nil
}
