package oraclesql

import (
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Steps returns the DML of one batch, step by step, in order. The engine
// runs them in one transaction.
func (r *Renderer) Steps(steps []engine.Step) ([]Statement, error) {
	var out []Statement
	for _, st := range steps {
		s, err := r.Step(st)
		if err != nil {
			return nil, err
		}
		out = append(out, s...)
	}
	return out, nil
}

// Step returns the DML of one step.
//
// A Write gives up to three statements, only those whose rows are in the
// batch, each executed once per row of its RowSet with array binds:
// INSERT (Insert method: upserts and soft deletes) or MERGE (Upsert
// method: upserts); a MERGE for soft deletes that updates only
// Write.MetadataColumns of an existing row and inserts a missing one; a
// DELETE by key for hard deletes. Rows are unique per key (the pipeline
// deduplicates), so the statements' order does not matter.
//
// Replace is DELETE FROM the table, inside the batch's transaction.
// DeleteVersions is a DELETE (hard) or an UPDATE of the deleted-at column
// (soft) of the rows whose version is older than the activated one, or
// NULL; never <=.
func (r *Renderer) Step(st engine.Step) ([]Statement, error) {
	switch st := st.(type) {
	case *engine.Write:
		return r.write(st)
	case *engine.Replace:
		if err := checkNames(st.Table); err != nil {
			return nil, err
		}
		return []Statement{{SQL: "DELETE FROM " + tableName(st.Table), Kind: KindDML}}, nil
	case *engine.DeleteVersions:
		return r.deleteVersions(st)
	case *engine.KeepKeys:
		return r.keepKeys(st)
	case *engine.DeleteMissing:
		return r.deleteMissing(st)
	case *engine.History:
		h, err := r.History(st)
		if err != nil {
			return nil, err
		}
		out := []Statement{h.Read, h.Close}
		if h.Touch.SQL != "" {
			out = append(out, h.Touch)
		}
		return append(out, h.Insert), nil
	case *engine.CloseVersions:
		return r.closeVersions(st)
	}
	return nil, fmt.Errorf("oraclesql: unknown step %T", st)
}

// wcol is one column of a Write.
type wcol struct {
	name   string
	typ    table.Type
	index  int  // position in Write.Columns; -1 for a DatabaseTime column not in it
	dbTime bool // filled with the database time, never bound
	key    bool
}

// writeColumns resolves w's columns against its table, with the
// DatabaseTime column added when Write.Columns lacks it. Placeholders
// follow the returned order: keys first, LOB (and native JSON) columns
// last, so that long values bound as LOBs come after every other bind
// (go-ora, ORA-01461).
func writeColumns(w *engine.Write) ([]wcol, error) {
	t := w.Table
	names := w.Columns
	if w.DatabaseTime != "" && !contains(names, w.DatabaseTime) {
		names = append(names[:len(names):len(names)], w.DatabaseTime)
	}
	if err := checkNames(t, names...); err != nil {
		return nil, err
	}
	if err := checkNames(t, w.NullColumns...); err != nil {
		return nil, err
	}
	cols := make([]wcol, 0, len(names))
	for i, n := range names {
		c := t.Column(n)
		if c == nil {
			return nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("write to column %q, which the table does not have", n)}
		}
		idx := i
		if i >= len(w.Columns) {
			idx = -1
		}
		cols = append(cols, wcol{name: n, typ: c.Type, index: idx, dbTime: n == w.DatabaseTime, key: contains(w.KeyColumns, n)})
	}
	rank := func(c wcol) int {
		switch {
		case c.key:
			return 0
		case c.typ.IsLOB():
			return 2
		}
		return 1
	}
	ordered := make([]wcol, 0, len(cols))
	for g := 0; g <= 2; g++ {
		for _, c := range cols {
			if rank(c) == g {
				ordered = append(ordered, c)
			}
		}
	}
	return ordered, nil
}

func (c wcol) bind() Bind {
	return Bind{Column: c.name, Type: c.typ, Source: FromRow, Index: c.index}
}

func (r *Renderer) write(w *engine.Write) ([]Statement, error) {
	var present RowSet
	for i := range w.Rows {
		present |= RowsOf(w.Rows[i].Kind)
	}
	if present == 0 {
		return nil, nil
	}
	cols, err := writeColumns(w)
	if err != nil {
		return nil, err
	}
	if (w.Method == engine.Upsert || present.Has(engine.RowHardDelete)) && len(w.KeyColumns) == 0 {
		return nil, &UnsupportedError{Table: w.Table.QualifiedName(), What: "upsert or delete by key without key columns"}
	}
	for _, k := range w.KeyColumns {
		if !contains(w.Columns, k) {
			return nil, &UnsupportedError{Table: w.Table.QualifiedName(), What: fmt.Sprintf("key column %q is not among the written columns", k)}
		}
	}
	var out []Statement
	switch w.Method {
	case engine.Insert:
		if s := present & RowsOf(engine.RowUpsert, engine.RowSoftDelete); s != 0 {
			out = append(out, r.insert(w, cols, s))
		}
	case engine.Upsert:
		if present.Has(engine.RowUpsert) {
			out = append(out, r.merge(w, cols, false))
		}
		if present.Has(engine.RowSoftDelete) {
			out = append(out, r.merge(w, cols, true))
		}
	default:
		return nil, fmt.Errorf("oraclesql: %s: unknown write method %d", w.Table.QualifiedName(), w.Method)
	}
	if present.Has(engine.RowHardDelete) {
		out = append(out, r.deleteByKey(w, cols))
	}
	return out, nil
}

// insert is INSERT INTO t (cols) VALUES (exprs).
func (r *Renderer) insert(w *engine.Write, cols []wcol, rows RowSet) Statement {
	var names, values []string
	var binds []Bind
	for _, c := range cols {
		names = append(names, table.Quote(c.name))
		if c.dbTime {
			values = append(values, databaseTime(c.typ))
			continue
		}
		binds = append(binds, c.bind())
		values = append(values, bindExpr(c.typ, len(binds)))
	}
	sql := "INSERT INTO " + tableName(w.Table) + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(values, ", ") + ")"
	return Statement{SQL: sql, Binds: binds, Kind: KindDML, Rows: rows}
}

// merge is the MERGE from DUAL of one row by key. For soft deletes
// (soft) an existing row gets only the metadata columns; a metadata column
// the Write has no values for becomes NULL.
func (r *Renderer) merge(w *engine.Write, cols []wcol, soft bool) Statement {
	var sel, on, set, ins, vals []string
	var binds []Bind
	for _, c := range cols {
		q := table.Quote(c.name)
		ins = append(ins, q)
		src := "SRC." + q
		if c.dbTime {
			src = databaseTime(c.typ)
		} else {
			binds = append(binds, c.bind())
			sel = append(sel, bindExpr(c.typ, len(binds))+" "+q)
		}
		vals = append(vals, src)
		switch {
		case c.key:
			on = append(on, "TGT."+q+" = SRC."+q)
		case !soft || contains(w.MetadataColumns, c.name):
			set = append(set, "TGT."+q+" = "+src)
		}
	}
	if !soft {
		// Columns other streams of the table brought: the record replaces
		// the whole row (SPEC §6.2), so they become NULL.
		for _, n := range w.NullColumns {
			if !contains(w.KeyColumns, n) && !containsCol(cols, n) {
				set = append(set, "TGT."+table.Quote(n)+" = NULL")
			}
		}
	}
	if soft {
		for _, m := range w.MetadataColumns {
			if !contains(w.KeyColumns, m) && !containsCol(cols, m) {
				set = append(set, "TGT."+table.Quote(m)+" = NULL")
			}
		}
	}
	var b strings.Builder
	b.WriteString("MERGE INTO ")
	b.WriteString(tableName(w.Table))
	b.WriteString(" TGT USING (SELECT ")
	b.WriteString(strings.Join(sel, ", "))
	b.WriteString(" FROM DUAL) SRC ON (")
	b.WriteString(strings.Join(on, " AND "))
	b.WriteString(")")
	if len(set) > 0 {
		b.WriteString(" WHEN MATCHED THEN UPDATE SET ")
		b.WriteString(strings.Join(set, ", "))
	}
	b.WriteString(" WHEN NOT MATCHED THEN INSERT (")
	b.WriteString(strings.Join(ins, ", "))
	b.WriteString(") VALUES (")
	b.WriteString(strings.Join(vals, ", "))
	b.WriteString(")")
	rows := RowsOf(engine.RowUpsert)
	if soft {
		rows = RowsOf(engine.RowSoftDelete)
	}
	return Statement{SQL: b.String(), Binds: binds, Kind: KindDML, Rows: rows}
}

func containsCol(cols []wcol, name string) bool {
	for _, c := range cols {
		if c.name == name {
			return true
		}
	}
	return false
}

// deleteByKey is DELETE FROM t WHERE k1 = :1 AND … for hard deletes.
func (r *Renderer) deleteByKey(w *engine.Write, cols []wcol) Statement {
	var where []string
	var binds []Bind
	for _, c := range cols {
		if !c.key {
			continue
		}
		binds = append(binds, c.bind())
		where = append(where, table.Quote(c.name)+" = "+bindExpr(c.typ, len(binds)))
	}
	sql := "DELETE FROM " + tableName(w.Table) + " WHERE " + strings.Join(where, " AND ")
	return Statement{SQL: sql, Binds: binds, Kind: KindDML, Rows: RowsOf(engine.RowHardDelete)}
}

// databaseTime is the database's current UTC time as a value of type t
// (_SDC_LOADED_AT): evaluated by the server, never bound.
func databaseTime(t table.Type) string {
	const utc = "SYS_EXTRACT_UTC(SYSTIMESTAMP)"
	switch t.Kind {
	case table.KindTimestamp:
		if t.TZ {
			return "FROM_TZ(" + utc + ", '+00:00')"
		}
		return utc
	case table.KindDate:
		return "CAST(" + utc + " AS DATE)"
	}
	e, _ := textOf(table.Type{Kind: table.KindTimestamp, Frac: 9}, utc) // a timestamp always has a text
	return wrapText(t, e)
}

func (r *Renderer) deleteVersions(d *engine.DeleteVersions) ([]Statement, error) {
	t := d.Table
	if err := checkNames(t, d.VersionColumn, d.DeletedColumn); err != nil {
		return nil, err
	}
	vc := t.Column(d.VersionColumn)
	if vc == nil || vc.Type.Kind != table.KindNumber {
		return nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("version column %q is missing or not a NUMBER", d.VersionColumn)}
	}
	version := Bind{Column: d.VersionColumn, Type: vc.Type, Source: Fixed, Value: d.Version}
	qv := table.Quote(d.VersionColumn)
	if d.Hard {
		return []Statement{{
			SQL:   "DELETE FROM " + tableName(t) + " WHERE (" + qv + " < " + bindExpr(vc.Type, 1) + " OR " + qv + " IS NULL)",
			Binds: []Bind{version},
			Kind:  KindDML,
		}}, nil
	}
	dc := t.Column(d.DeletedColumn)
	if dc == nil {
		return nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("deleted-at column %q is missing", d.DeletedColumn)}
	}
	qd := table.Quote(d.DeletedColumn)
	return []Statement{{
		SQL: "UPDATE " + tableName(t) + " SET " + qd + " = " + bindExpr(dc.Type, 1) +
			" WHERE (" + qv + " < " + bindExpr(vc.Type, 2) + " OR " + qv + " IS NULL) AND " + qd + " IS NULL",
		Binds: []Bind{{Column: d.DeletedColumn, Type: dc.Type, Source: Fixed, Value: d.At}, version},
		Kind:  KindDML,
	}}, nil
}

// SplitUpsert returns the upsert of w's rows whose values of the columns
// long are too long for a VARCHAR bind, in the shape that keeps them out
// of the MERGE's select list (SPEC §6.1): the "split upsert", a MERGE
// from DUAL of every other column, then
//
//	UPDATE t SET "L1" = :1, … WHERE "K" = :n AND …
//
// of the long columns by key, where the engine binds them as LONG binds
// (a MERGE's select list refuses LONG binds, and a temporary LOB costs two
// round trips per value). The MERGE inserts a missing row with the long
// columns NULL and the UPDATE fills them, inside the batch's transaction.
// Key, database-time and NOT NULL columns cannot be split off (an
// *UnsupportedError: the engine binds temporary LOBs in the MERGE then).
func (r *Renderer) SplitUpsert(w *engine.Write, long []string) ([]Statement, error) {
	cols, err := writeColumns(w)
	if err != nil {
		return nil, err
	}
	if len(w.KeyColumns) == 0 {
		return nil, &UnsupportedError{Table: w.Table.QualifiedName(), What: "upsert without key columns"}
	}
	var short, set []wcol
	for _, c := range cols {
		switch {
		case !contains(long, c.name):
			short = append(short, c)
		case c.key || c.dbTime:
			return nil, &UnsupportedError{Table: w.Table.QualifiedName(), What: fmt.Sprintf("split upsert of key or database-time column %q", c.name)}
		case !w.Table.Column(c.name).Nullable:
			// The MERGE would insert a missing row with it NULL.
			return nil, &UnsupportedError{Table: w.Table.QualifiedName(), What: fmt.Sprintf("split upsert of NOT NULL column %q", c.name)}
		default:
			set = append(set, c)
		}
	}
	if len(set) == 0 {
		return nil, &UnsupportedError{Table: w.Table.QualifiedName(), What: "split upsert without long columns"}
	}
	var sets, where []string
	var binds []Bind
	for _, c := range set {
		binds = append(binds, c.bind())
		sets = append(sets, table.Quote(c.name)+" = "+bindExpr(c.typ, len(binds)))
	}
	for _, c := range cols {
		if c.key {
			binds = append(binds, c.bind())
			where = append(where, table.Quote(c.name)+" = "+bindExpr(c.typ, len(binds)))
		}
	}
	update := Statement{
		SQL:   "UPDATE " + tableName(w.Table) + " SET " + strings.Join(sets, ", ") + " WHERE " + strings.Join(where, " AND "),
		Binds: binds, Kind: KindDML, Rows: RowsOf(engine.RowUpsert),
	}
	return []Statement{r.merge(w, short, false), update}, nil
}
