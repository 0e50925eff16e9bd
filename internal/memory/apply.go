package memory

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

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
	dbTime := -1 // the column the database fills: not checked
	for i, name := range w.Columns {
		cols[i] = t.def.Column(name)
		if cols[i] == nil {
			return engine.Result{}, oraError(904, fmt.Sprintf("%q: invalid identifier", name))
		}
		if name == w.DatabaseTime {
			dbTime = i
		}
	}
	for _, r := range w.Rows {
		for i, v := range r.Values {
			if i == dbTime {
				continue
			}
			if r.Kind == engine.RowHardDelete && !slices.Contains(w.KeyColumns, w.Columns[i]) {
				continue // a DELETE by key binds only the key: no other column's rule applies
			}
			if err := check(cols[i], v); err != nil {
				return engine.Result{}, fmt.Errorf("input line %d: %w", r.Line, err)
			}
		}
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
	for _, r := range w.Rows {
		row := make(map[string]string, len(w.Columns))
		for i, v := range r.Values {
			if v != "" {
				row[w.Columns[i]] = v
			}
		}
		if w.DatabaseTime != "" {
			row[w.DatabaseTime] = now
		}
		switch {
		case r.Kind == engine.RowHardDelete:
			res.Deleted += t.remove(row, w.KeyColumns)
		case w.Method == engine.Insert:
			if err := t.insert(row); err != nil {
				return engine.Result{}, fmt.Errorf("input line %d: %w", r.Line, err)
			}
			res.Inserted++
			res.Written++
		default:
			inserted, err := t.upsert(row, r.Kind == engine.RowSoftDelete, w)
			if err != nil {
				return engine.Result{}, fmt.Errorf("input line %d: %w", r.Line, err)
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
		if _, dup := t.byKey[k]; dup {
			return oraError(1, fmt.Sprintf("unique constraint (%s) violated", t.def.Name+"_PK"))
		}
		t.byKey[k] = len(t.rows)
	}
	t.rows = append(t.rows, row)
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
	cols := w.Columns
	if soft {
		cols = w.MetadataColumns
	}
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
			t.rows = append(t.rows, row)
		}
		return !matched, nil
	}
	k := t.keyOf(row)
	i, ok := t.byKey[k]
	if !ok {
		t.byKey[k] = len(t.rows)
		t.rows = append(t.rows, row)
		return true, nil
	}
	if err := checkMove(t.def.Partition, t.rows[i], row); err != nil {
		return false, err
	}
	t.save(i)
	update(t.rows[i], row, cols)
	return false, nil
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
		i, ok := t.byKey[k]
		if !ok {
			return 0
		}
		t.save(i)
		t.rows[i] = nil
		delete(t.byKey, k)
		return 1
	}
	var n int64
	for i, r := range t.rows {
		if r != nil && sameKey(r, row, keys) {
			t.save(i)
			t.rows[i] = nil
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
			t.rows[i] = nil
			if len(t.def.PrimaryKey) > 0 {
				delete(t.byKey, t.keyOf(r))
			}
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

// check models the server's checks of one value against its column. A
// failure here means the loader did not widen a column it had to: the
// model is strict where Oracle would silently round.
func check(c *table.Column, v string) error {
	switch c.Fill { // an adopted table's column (SPEC §5.5), as Oracle treats it
	case table.FillIdentityAlways:
		return oraError(32795, fmt.Sprintf("cannot insert into a generated always identity column %q", c.Name))
	case table.FillVirtual:
		return oraError(54013, fmt.Sprintf("INSERT operation disallowed on virtual columns: %q", c.Name))
	case table.FillDefaultOnNull, table.FillIdentityOnNull:
		if v == "" {
			return nil // the database stores its default (unknown here: the dump shows NULL)
		}
	}
	if v == "" {
		if !c.Nullable {
			return oraError(1400, fmt.Sprintf("cannot insert NULL into (%q)", c.Name))
		}
		return nil
	}
	t := c.Type
	switch t.Kind {
	case table.KindRaw, table.KindBlob, table.KindVector:
		return checkNative(c, v)
	case table.KindVarchar:
		n := len(v)
		if (t.CharSemantics || t.National) && n > t.Length {
			n = utf8.RuneCountInString(v) // never more characters than bytes
		}
		if n > t.Length {
			return oraError(12899, fmt.Sprintf("value too large for column %q (actual: %d, maximum: %d)", c.Name, n, t.Length))
		}
	case table.KindNumber:
		intDigits, scale, ok := numberShape(v)
		if !ok {
			return oraError(1722, fmt.Sprintf("invalid number %q for column %q", v, c.Name))
		}
		if t.BoolNumber && v != "0" && v != "1" {
			return oraError(2290, fmt.Sprintf("check constraint violated: %q is not 0 or 1 in %q", v, c.Name))
		}
		if t.Precision > 0 {
			if intDigits > t.Precision-t.Scale {
				return oraError(1438, fmt.Sprintf("value %s larger than specified precision allowed for column %q", v, c.Name))
			}
			if scale > t.Scale {
				return oraError(1438, fmt.Sprintf("value %s would be rounded to scale %d in column %q", v, t.Scale, c.Name))
			}
		}
	case table.KindTimestamp:
		if f := fracDigits(v); f > t.Frac {
			return oraError(1830, fmt.Sprintf("%q has %d fractional digits, column %q keeps %d", v, f, c.Name, t.Frac))
		}
	case table.KindBoolean:
		if v != "true" && v != "false" {
			return oraError(1722, fmt.Sprintf("invalid boolean %q for column %q", v, c.Name))
		}
	case table.KindJSON:
		// The reader validated every record's JSON, so a full parse here
		// would only cost time; a value that is not a document at all
		// still fails, as Oracle's IS JSON check would.
		if b := v[0]; b != '{' && b != '[' && b != '"' && b != '-' && (b < '0' || b > '9') && v != "true" && v != "false" && v != "null" {
			return oraError(40441, fmt.Sprintf("JSON syntax error in column %q", c.Name))
		}
	}
	return nil
}

// numberShape returns the integer digits and scale of a canonical number
// ([-]digits[.digits], no leading zeros but "0").
func numberShape(v string) (intDigits, scale int, ok bool) {
	i := 0
	if v != "" && v[0] == '-' {
		i++
	}
	start, dot := i, -1
	for ; i < len(v); i++ {
		if c := v[i]; c-'0' > 9 { // unsigned: not a digit
			if c != '.' || dot >= 0 {
				return 0, 0, false
			}
			dot = i
		}
	}
	if dot < 0 {
		dot = len(v)
	} else {
		scale = len(v) - dot - 1
	}
	intDigits = dot - start
	if intDigits == 1 && v[start] == '0' {
		intDigits = 0
	}
	return intDigits, scale, len(v) > start
}

func fracDigits(ts string) int {
	i := 19 // canonical: YYYY-MM-DDTHH:MM:SS[.fff…]Z
	if len(ts) <= i || ts[i] != '.' {
		i = strings.IndexByte(ts, '.')
	}
	if i < 0 {
		return 0
	}
	n := 0
	for j := i + 1; j < len(ts) && ts[j] >= '0' && ts[j] <= '9'; j++ {
		n++
	}
	return n
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
