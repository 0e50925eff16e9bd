package memory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/value"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

func (t *memTable) apply(st engine.Step, now string) (engine.Result, error) {
	switch st := st.(type) {
	case *engine.Write:
		return t.write(st, now)
	case *engine.Replace:
		var n int64
		for _, r := range t.rows {
			if r != nil {
				n++
			}
		}
		t.saveAll()
		t.clear()
		return engine.Result{Deleted: n, Known: t.keep}, nil
	case *engine.DeleteVersions:
		return t.deleteVersions(st)
	case *engine.KeepKeys:
		return t.keepKeys(st)
	case *engine.DeleteMissing:
		return t.deleteMissing(st)
	case *engine.History:
		return t.history(st, now)
	case *engine.CloseVersions:
		return t.closeVersions(st)
	}
	return engine.Result{}, fmt.Errorf("unknown step %T", st)
}

func (t *memTable) write(w *engine.Write, now string) (engine.Result, error) {
	cols := make([]*table.Column, len(w.Columns))
	rules := make([]oravalue.Column, len(w.Columns))
	// keep is each column's fast test (oravalue.Keeper): a value it keeps
	// needs no closer look. A column Oracle fills itself (identity ALWAYS,
	// virtual) takes every value to the full rule, which refuses it.
	keep := make([]oravalue.Keeper, len(w.Columns))
	dbTime := -1 // the column the database fills: not checked
	for i, name := range w.Columns {
		cols[i] = t.def.Column(name)
		if cols[i] == nil {
			return engine.Result{}, oraError(904, fmt.Sprintf("%q: invalid identifier", name))
		}
		rules[i] = t.valueRules(cols[i])
		if cols[i].Writable() {
			keep[i] = rules[i].Keeper()
		}
		if name == w.DatabaseTime {
			dbTime = i
		}
	}
	stored, err := checkRows(w, cols, rules, keep, dbTime)
	if err != nil {
		return engine.Result{}, err
	}
	if err := checkPartitions(t.def.Partition, w); err != nil {
		return engine.Result{}, err
	}
	res := engine.Result{Known: t.keep}
	if !t.keep {
		// Without a dump no rows are kept: count what a database would
		// report, and nothing more (any input size stays in bounds).
		for _, r := range w.Rows {
			if r.Kind == engine.RowHardDelete {
				continue
			}
			res.Written++
			if w.Method == engine.Insert {
				res.Inserted++
			}
		}
		t.hasRows = t.hasRows || res.Written > 0
		res.Known = w.Method == engine.Insert
		return res, nil
	}
	if w.Method == engine.Upsert {
		if err := distinctKeys(w); err != nil {
			return engine.Result{}, err
		}
	}
	if t.writesCold(w) {
		return t.writeCold(w, stored, now)
	}
	for j, r := range w.Rows {
		row := rowMap(w, j, stored, now)
		switch {
		case r.Kind == engine.RowHardDelete:
			res.Deleted += t.remove(row, w.KeyColumns)
		case w.Method == engine.Insert:
			if err := t.insert(row); err != nil {
				return engine.Result{}, &engine.RowError{Line: r.Line, Err: err}
			}
			res.Inserted++
			res.Written++
		default:
			inserted, err := t.upsert(row, r.Kind == engine.RowSoftDelete, w)
			if err != nil {
				return engine.Result{}, &engine.RowError{Line: r.Line, Err: err}
			}
			res.Written++
			if inserted {
				res.Inserted++
			} else {
				res.Updated++
			}
		}
	}
	return res, nil
}

// checkRows checks every value of w's rows against its column and
// returns the values the server would keep where they differ from the
// row's (a value the loader did not canonicalise). The error is that of
// the first refused value in row order, as a row-by-row check finds it.
// It checks column by column: a column's values, gathered from the rows,
// go through its Keeper's loop (oravalue.Keeper.KeptPrefix), and only the
// values it does not keep go to the full rule (checkAt).
func checkRows(w *engine.Write, cols []*table.Column, rules []oravalue.Column, keep []oravalue.Keeper, dbTime int) (map[[2]int]string, error) {
	rows := w.Rows
	for j := range rows {
		if rows[j].Kind == engine.RowHardDelete || len(rows[j].Values) != len(keep) {
			return checkByRow(w, cols, rules, dbTime)
		}
	}
	var stored map[[2]int]string
	var first error // the first error found in row order, at row end
	end := len(rows)
	// A column's values are gathered in runs of len(vs) rows, into an
	// array on the stack (no write barrier per value, nothing held past
	// the write).
	var vs [256]string
	per := runRows(len(keep), len(vs))
	for lo := 0; lo < end && first == nil; lo += per {
		for i := range keep {
			if i == dbTime {
				continue
			}
			k := &keep[i]
			run := gather(vs[:], rows[lo:min(lo+per, end)], i) // rows after the first error need no look
			for j := 0; j < len(run); j++ {
				if j += k.KeptPrefix(run[j:]); j == len(run) {
					break
				}
				if err := checkAt(&stored, &rows[lo+j], lo+j, i, cols[i], &rules[i], run[j]); err != nil {
					first, end = err, lo+j
					break
				}
			}
		}
	}
	return stored, first
}

// runRows is how many rows checkRows takes a column's values from at a
// time: runs of a few rows, as many as keep their slots and text in the
// cache while every column goes through them (column after column over
// all rows walked a wide row's slots once per column, a cache miss per
// value), at most max.
func runRows(width, most int) int {
	const cached = 32 << 10 // bytes of slots and text a run may touch
	return max(16, min(most, cached/(32*max(width, 1))))
}

// gather copies value i of each of rows into dst and returns dst's part
// it filled. Not inlined: on its own its loop keeps everything in
// registers (inlined into checkRows it reloaded two from the stack per
// value).
//
//go:noinline
func gather(dst []string, rows []engine.Row, i int) []string {
	dst = dst[:len(rows)]
	for j := range rows {
		dst[j] = rows[j].Values[i]
	}
	return dst
}

// checkByRow is checkRows row by row, for writes with rows that delete
// by key (only the key's values are bound) or that do not carry a value
// per column.
func checkByRow(w *engine.Write, cols []*table.Column, rules []oravalue.Column, dbTime int) (map[[2]int]string, error) {
	var stored map[[2]int]string
	for j := range w.Rows {
		r := &w.Rows[j]
		for i, v := range r.Values {
			if i == dbTime {
				continue
			}
			if r.Kind == engine.RowHardDelete && !slices.Contains(w.KeyColumns, w.Columns[i]) {
				continue // a DELETE by key binds only the key: no other column's rule applies
			}
			if err := checkAt(&stored, r, j, i, cols[i], &rules[i], v); err != nil {
				return nil, err
			}
		}
	}
	return stored, nil
}

// checkAt checks value i of row j (r) by the full rule, and records in
// stored the value the server keeps when it differs from v.
func checkAt(stored *map[[2]int]string, r *engine.Row, j, i int, c *table.Column, rules *oravalue.Column, v string) error {
	s, err := check(c, rules, v)
	if err != nil {
		return &engine.RowError{Line: r.Line, Err: err}
	}
	if s != v {
		if *stored == nil {
			*stored = map[[2]int]string{}
		}
		(*stored)[[2]int{j, i}] = s
	}
	return nil
}

// rowMap is row j of w as a stored row: its values (those the server
// would keep where stored says so), empty ones left out, and the
// database's clock in DatabaseTime.
func rowMap(w *engine.Write, j int, stored map[[2]int]string, now string) map[string]string {
	row := make(map[string]string, len(w.Columns))
	for i, v := range w.Rows[j].Values {
		if s, ok := stored[[2]int{j, i}]; ok {
			v = s
		}
		if v != "" {
			row[w.Columns[i]] = v
		}
	}
	if w.DatabaseTime != "" {
		row[w.DatabaseTime] = now
	}
	return row
}

// writeCold is write for a table whose rows are spilled (writesCold): a
// new row goes straight to the spill file as a record, with no map; a row
// whose key exists is warmed and changed as a map (upsert), or deleted.
// It does what the map path does, row for row.
func (t *memTable) writeCold(w *engine.Write, stored map[[2]int]string, now string) (engine.Result, error) {
	res := engine.Result{Known: t.keep}
	sp := t.spill
	ids := make([]uint64, len(w.Columns))
	dbTime := -1
	for i, c := range w.Columns {
		ids[i] = sp.id(c)
		if c == w.DatabaseTime {
			dbTime = i
		}
	}
	var extra uint64 // a DatabaseTime column the write does not bind
	if w.DatabaseTime != "" && dbTime < 0 {
		extra = sp.id(w.DatabaseTime)
	}
	keyAt := make([]int, len(t.def.PrimaryKey)) // position in w.Columns; -1: absent, -2: the clock
	for j, c := range t.def.PrimaryKey {
		keyAt[j] = slices.Index(w.Columns, c)
		if c == w.DatabaseTime {
			keyAt[j] = -2
		}
	}
	vals := make([]string, len(w.Columns))
	var kb []byte
	for j, r := range w.Rows {
		for i := range vals {
			v := ""
			if i < len(r.Values) {
				v = r.Values[i]
			}
			if s, ok := stored[[2]int{j, i}]; ok {
				v = s
			}
			if i == dbTime {
				v = now
			}
			vals[i] = v
		}
		kb = kb[:0]
		for _, p := range keyAt {
			switch {
			case p == -2:
				kb = engine.AppendKey(kb, now)
			case p >= 0:
				kb = engine.AppendKey(kb, vals[p])
			default:
				kb = engine.AppendKey(kb, "")
			}
		}
		hasKey := len(keyAt) > 0
		i, found := -1, false
		if hasKey {
			i, found = t.lookup(kb)
		}
		switch {
		case r.Kind == engine.RowHardDelete:
			if found {
				t.save(i)
				t.unindex(kb, i)
				t.drop(i)
				res.Deleted++
			}
			continue
		case found && w.Method == engine.Insert:
			return engine.Result{}, &engine.RowError{Line: r.Line, Err: oraError(1, fmt.Sprintf("unique constraint (%s) violated", t.def.Name+"_PK"))}
		case found:
			if err := t.warmRow(i); err != nil {
				return engine.Result{}, err
			}
			row := rowMap(w, j, stored, now)
			if err := checkMove(t.def.Partition, t.rows[i], row); err != nil {
				return engine.Result{}, &engine.RowError{Line: r.Line, Err: err}
			}
			t.save(i)
			update(t.rows[i], row, updated(w, r.Kind == engine.RowSoftDelete))
			t.hasRows = true
			res.Written++
			res.Updated++
			continue
		}
		sp.begin()
		for i, v := range vals {
			if v != "" {
				sp.add(ids[i], v)
			}
		}
		if w.DatabaseTime != "" && dbTime < 0 {
			sp.add(extra, now)
		}
		ref, err := sp.end()
		if err != nil {
			return engine.Result{}, err
		}
		t.rows = append(t.rows, nil)
		t.setCold(len(t.rows)-1, ref)
		if hasKey {
			t.index(kb, len(t.rows)-1)
			t.appended(kb)
		}
		t.hasRows = true
		res.Inserted++
		res.Written++
	}
	return res, nil
}

// distinctKeys models ORA-30926: a MERGE whose source holds a key twice
// fails. The loader collapses a batch's records per key so that this never
// happens (only with rows kept: checking costs a map per batch).
func distinctKeys(w *engine.Write) error {
	var idx []int
	for _, k := range w.KeyColumns {
		idx = append(idx, slices.Index(w.Columns, k))
	}
	seen := make(map[string]int64, len(w.Rows))
	var kb []byte
	for _, r := range w.Rows {
		kb = kb[:0]
		for _, i := range idx {
			kb = engine.AppendKey(kb, r.Values[i])
		}
		if line, dup := seen[string(kb)]; dup {
			return oraError(30926, fmt.Sprintf("unable to get a stable set of rows in the source tables (input lines %d and %d share a key)", line, r.Line))
		}
		seen[string(kb)] = r.Line
	}
	return nil
}

func (t *memTable) insert(row map[string]string) error {
	t.hasRows = true
	if !t.keep {
		return nil
	}
	if len(t.def.PrimaryKey) > 0 {
		k := t.keyOf(row)
		if _, dup := t.lookup(k); dup {
			return oraError(1, fmt.Sprintf("unique constraint (%s) violated", t.def.Name+"_PK"))
		}
		t.index(k, len(t.rows))
		t.appended(k)
	}
	t.push(row)
	return nil
}

// upsert replaces the row with the same key, or inserts it. A soft delete
// changes only the metadata columns of an existing row. It reports whether
// the row was inserted. Without a PRIMARY KEY constraint (a table an
// append-only load created) it matches on the write's key columns, as the
// MERGE's ON clause does: every matching row is updated.
func (t *memTable) upsert(row map[string]string, soft bool, w *engine.Write) (bool, error) {
	t.hasRows = true
	if !t.keep {
		return true, nil
	}
	cols := updated(w, soft)
	if len(t.def.PrimaryKey) == 0 {
		matched := false
		for i, old := range t.rows {
			if old != nil && sameKey(old, row, w.KeyColumns) {
				if err := checkMove(t.def.Partition, old, row); err != nil {
					return false, err
				}
				t.save(i)
				update(old, row, cols)
				matched = true
			}
		}
		if !matched {
			t.push(row)
		}
		return !matched, nil
	}
	k := t.keyOf(row)
	i, ok := t.lookup(k)
	if !ok {
		t.index(k, len(t.rows))
		t.appended(k)
		t.push(row)
		return true, nil
	}
	if err := t.warmRow(i); err != nil {
		return false, err
	}
	if err := checkMove(t.def.Partition, t.rows[i], row); err != nil {
		return false, err
	}
	t.save(i)
	update(t.rows[i], row, cols)
	return false, nil
}

// updated are the columns an upsert sets on an existing row: the
// metadata columns for a soft delete; else the written columns and the
// NullColumns other streams of the table brought (unset in the row: a
// record replaces the whole row).
func updated(w *engine.Write, soft bool) []string {
	switch {
	case soft:
		return w.MetadataColumns
	case len(w.NullColumns) > 0:
		return append(w.Columns[:len(w.Columns):len(w.Columns)], w.NullColumns...)
	}
	return w.Columns
}

// update sets cols of old from row (unset in row: NULL).
func update(old, row map[string]string, cols []string) {
	for _, c := range cols {
		if v, set := row[c]; set {
			old[c] = v
		} else {
			delete(old, c)
		}
	}
}

// sameKey reports whether a and b agree on the key columns (never for no
// key columns).
func sameKey(a, b map[string]string, keys []string) bool {
	for _, k := range keys {
		if a[k] != b[k] {
			return false
		}
	}
	return len(keys) > 0
}

// remove deletes the rows whose key columns equal row's and returns how
// many. Without a PRIMARY KEY constraint (append-only tables) a key may
// stand in several rows.
func (t *memTable) remove(row map[string]string, keys []string) int64 {
	if !t.keep {
		return 0
	}
	if len(t.def.PrimaryKey) > 0 {
		k := t.keyOf(row)
		i, ok := t.lookup(k)
		if !ok {
			return 0
		}
		t.save(i)
		t.unindex(k, i)
		t.drop(i)
		return 1
	}
	var n int64
	for i, r := range t.rows {
		if r != nil && sameKey(r, row, keys) {
			t.save(i)
			t.drop(i)
			n++
		}
	}
	return n
}

func (t *memTable) deleteVersions(d *engine.DeleteVersions) (engine.Result, error) {
	if t.def.Column(d.VersionColumn) == nil || t.def.Column(d.DeletedColumn) == nil {
		return engine.Result{}, oraError(904, "version or deleted column missing")
	}
	res := engine.Result{Known: t.keep}
	for i, r := range t.rows {
		if r == nil {
			continue
		}
		v, ok := r[d.VersionColumn]
		if ok && value.CompareCanonical(v, d.Version) >= 0 {
			continue // current or newer: never <=
		}
		t.save(i)
		if d.Hard {
			if len(t.def.PrimaryKey) > 0 {
				t.unindex(t.keyOf(r), i)
			}
			t.drop(i)
			res.Deleted++
			continue
		}
		if _, set := r[d.DeletedColumn]; !set {
			r[d.DeletedColumn] = d.At
			res.Updated++
		}
	}
	return res, nil
}

// migrate converts stored values to the column types of next.
func (t *memTable) migrate(next *table.Table) error {
	for _, nc := range next.Columns {
		oc := t.def.Column(nc.Name)
		if oc == nil || oc.Type == nc.Type {
			continue
		}
		for _, r := range t.rows {
			if r == nil {
				continue
			}
			v, ok := r[nc.Name]
			if !ok {
				continue
			}
			m, err := table.MigrateValue(oc.Type, nc.Type, v)
			if err != nil {
				return fmt.Errorf("migrate column %s from %s to %s: %w", nc.Name, oc.Type, nc.Type, err)
			}
			r[nc.Name] = m
		}
	}
	return nil
}

// compareValues orders two stored values of a column type (NULL first).
func compareValues(t table.Type, a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "":
		return -1
	case b == "":
		return 1
	}
	switch t.Kind {
	case table.KindNumber:
		return value.CompareCanonical(a, b)
	case table.KindTimestamp:
		return compareTimestamps(a, b)
	case table.KindRaw, table.KindBlob:
		return compareBinary(a, b)
	}
	// Canonical dates order as text; strings compare by bytes, as
	// Oracle's binary collation does.
	return strings.Compare(a, b)
}

// compareTimestamps orders canonical date-times, whose trimmed fractions
// ("05Z" < "05.5Z") do not order as text.
func compareTimestamps(a, b string) int {
	const secs = len("2006-01-02T15:04:05")
	if len(a) < secs || len(b) < secs {
		return strings.Compare(a, b)
	}
	if c := strings.Compare(a[:secs], b[:secs]); c != 0 {
		return c
	}
	return strings.Compare(fraction(a[secs:]), fraction(b[secs:]))
}

func fraction(s string) string {
	s = strings.TrimSuffix(s, "Z")
	s = strings.TrimPrefix(s, ".")
	return s + strings.Repeat("0", max(0, 9-len(s)))
}
