package fake

import (
	"fmt"
	num "github.com/target-oracle/target-oracle/internal/value"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/table"
)

// work is the uncommitted state of a transaction: the tables it touched,
// each a shallow copy whose rows replace the committed ones at commit.
type work struct {
	db     *DB
	tables map[string]*tbl
}

func (db *DB) newWork() *work { return &work{db: db, tables: map[string]*tbl{}} }

func (w *work) table(q string) (*tbl, error) {
	if t := w.tables[q]; t != nil {
		return t, nil
	}
	orig, err := w.db.table(q)
	if err != nil {
		return nil, err
	}
	c := *orig
	c.rows, c.key = slices.Clone(orig.rows), nil
	w.tables[q] = &c
	return &c, nil
}

// commit makes the transaction's rows the committed ones. Definitions
// stay as DDL left them (DDL never runs inside a transaction).
func (w *work) commit() {
	for q, t := range w.tables {
		if orig := w.db.tables[q]; orig != nil {
			live := t.rows[:0:0]
			for _, r := range t.rows {
				if r != nil {
					live = append(live, r)
				}
			}
			orig.rows, orig.key = live, nil
		}
	}
	w.tables = map[string]*tbl{}
}

// dml runs one DML statement for every row of its binds. In batch-error
// mode (an array of more than one row) a failing row is skipped and the
// first error returned; otherwise the statement fails as a whole.
func (w *work) dml(st *oraclesql.Statement, b *binds) (int64, error) {
	var verb, rest string
	switch {
	case strings.HasPrefix(st.SQL, "INSERT INTO "):
		verb, rest = "INSERT", strings.TrimPrefix(st.SQL, "INSERT INTO ")
	case strings.HasPrefix(st.SQL, "MERGE INTO "):
		verb, rest = "MERGE", strings.TrimPrefix(st.SQL, "MERGE INTO ")
	case strings.HasPrefix(st.SQL, "DELETE FROM "):
		verb, rest = "DELETE", strings.TrimPrefix(st.SQL, "DELETE FROM ")
	case strings.HasPrefix(st.SQL, "UPDATE "):
		verb, rest = "UPDATE", strings.TrimPrefix(st.SQL, "UPDATE ")
	default:
		return 0, fmt.Errorf("fake: unsupported DML %.60q", st.SQL)
	}
	schema, name, rest, err := w.db.qname(rest)
	if err != nil {
		return 0, err
	}
	t, err := w.table(schema + "." + name)
	if err != nil {
		return 0, err
	}
	var run func(row int) (int64, error)
	switch verb {
	case "INSERT":
		run, err = w.insert(t, rest, b)
	case "MERGE":
		run, err = w.merge(t, rest, b)
	case "DELETE":
		run, err = w.delete(t, rest, b)
	default:
		run, err = w.update(t, rest, b)
	}
	if err != nil {
		return 0, err
	}
	var n int64
	var first error
	for i := 0; i < b.rows; i++ {
		k, err := run(i)
		if err != nil && b.rows == 1 {
			return 0, err
		}
		if err != nil && first == nil {
			first = err
		}
		if err != nil {
			w.db.rowErrs = append(w.db.rowErrs, RowError{Row: i, Err: err})
		}
		n += k
	}
	return n, first
}

// eval computes an expression for execution row of a statement into
// column c; src holds a MERGE's source row.
func (w *work) eval(e expr, b *binds, row int, src map[string]value) (value, error) {
	switch e.kind {
	case exprNull:
		return value{}, nil
	case exprNow:
		return value{now: true}, nil
	case exprSrc:
		v, ok := src[e.col]
		if !ok {
			return value{}, oraError(904, "SRC.%q: invalid identifier", e.col)
		}
		return v, nil
	}
	if e.bind >= b.cols {
		return value{}, oraError(1008, "not all variables bound")
	}
	if b.binary[e.bind] {
		if e.conv != convText {
			return value{}, oraError(932, "inconsistent datatypes: bytes bound into a %s conversion", convName(e.conv))
		}
		return value{text: b.text(e.bind, row), conv: e.conv, binary: true}, nil
	}
	s, err := convert(e.conv, b.text(e.bind, row))
	return value{text: s, conv: e.conv}, err
}

// store turns v into the stored value of column c, with the server's checks.
func (w *work) store(t *tbl, c *column, v value) (string, error) {
	typ := t.effective(c)
	s := v.text
	switch c.fill { // a DBA's column (SPEC §5.5)
	case table.FillIdentityAlways:
		return "", valueError(oravalue.GeneratedAlways(c.name))
	case table.FillVirtual:
		return "", valueError(oravalue.Virtual(c.name))
	}
	switch {
	case v.now:
		s = w.db.now(typ)
	case s != "" && v.binary != typ.IsBinary():
		return "", oraError(932, "inconsistent datatypes: expected %s got %s (column %q)", typ, binaryName(v.binary), c.name)
	case s != "" && !v.binary && !compatible(v.conv, typ):
		return "", oraError(932, "inconsistent datatypes: %s value for column %q of type %s", convName(v.conv), c.name, typ)
	}
	if s == "" {
		s = t.filled(c, true) // DEFAULT ON NULL
	}
	if s == "" {
		if c.notNull {
			rules := t.valueColumn(c)
			return "", valueError(oravalue.NotNull(&rules))
		}
		return "", nil
	}
	if err := t.check(c, s); err != nil {
		return "", err
	}
	return s, nil
}

func convName(c conv) string {
	return [...]string{"", "text", "NUMBER", "BOOLEAN", "DATE", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "JSON", "VECTOR"}[c]
}

// assignment is one column a statement sets.
type assignment struct {
	col  string
	expr expr
}

// assignments pairs a column list with a value list.
func assignments(colList, valList string) ([]assignment, error) {
	cols, err := quotedList(colList)
	if err != nil {
		return nil, err
	}
	vals := splitTop(valList, ", ")
	if len(vals) != len(cols) {
		return nil, oraError(913, "too many values")
	}
	out := make([]assignment, len(cols))
	for i := range cols {
		e, err := parseExpr(vals[i])
		if err != nil {
			return nil, err
		}
		out[i] = assignment{cols[i], e}
	}
	return out, nil
}

// newRow evaluates the assignments of an inserted row, with NOT NULL
// checks on the columns left NULL.
func (w *work) newRow(t *tbl, as []assignment, b *binds, row int, src map[string]value) (map[string]string, error) {
	r := make(map[string]string, len(as))
	assigned := make(map[string]bool, len(as))
	for _, a := range as {
		assigned[a.col] = true
		c := t.col(a.col)
		if c == nil {
			return nil, oraError(904, "%q: invalid identifier", a.col)
		}
		v, err := w.eval(a.expr, b, row, src)
		if err != nil {
			return nil, err
		}
		s, err := w.store(t, c, v)
		if err != nil {
			return nil, err
		}
		if s != "" {
			r[a.col] = s
		}
	}
	for _, c := range t.cols {
		if !assigned[c.name] {
			if v := t.filled(&c, false); v != "" { // DEFAULT, identity
				r[c.name] = v
			}
		}
		if c.notNull && r[c.name] == "" {
			rules := t.valueColumn(&c)
			return nil, valueError(oravalue.NotNull(&rules))
		}
	}
	return r, nil
}

// insert is ` ("A", …) VALUES (e1, …)`.
func (w *work) insert(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	colList, tail, err := parens(strings.TrimPrefix(rest, " "))
	if err != nil {
		return nil, err
	}
	valList, _, err := parens(strings.TrimPrefix(tail, " VALUES "))
	if err != nil {
		return nil, err
	}
	as, err := assignments(colList, valList)
	if err != nil {
		return nil, err
	}
	if err := longUses(t, b, as); err != nil {
		return nil, err
	}
	return func(row int) (int64, error) {
		r, err := w.newRow(t, as, b, row, nil)
		if err != nil {
			return 0, err
		}
		if err := t.add(r); err != nil {
			return 0, err
		}
		return 1, nil
	}, nil
}

// merge is ` TGT USING (SELECT e "A", … FROM DUAL) SRC ON (TGT."K" = SRC."K" AND …)
// [WHEN MATCHED THEN UPDATE SET TGT."X" = e, …] WHEN NOT MATCHED THEN INSERT (…) VALUES (…)`.
func (w *work) merge(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	if err := longUses(t, b, nil); err != nil {
		return nil, err // a MERGE's select list refuses LONG binds
	}
	bad := fmt.Errorf("fake: unsupported MERGE %.80q", rest)
	sel, ok := strings.CutPrefix(rest, " TGT USING (SELECT ")
	if !ok {
		return nil, bad
	}
	sel, rest, ok = strings.Cut(sel, " FROM DUAL) SRC ON ")
	if !ok {
		return nil, bad
	}
	srcExprs := map[string]expr{}
	for _, item := range splitTop(sel, ", ") {
		i := strings.LastIndex(item, ` "`)
		if i < 0 {
			return nil, bad
		}
		alias, _, err := quoted(item[i+1:])
		if err != nil {
			return nil, err
		}
		e, err := parseExpr(item[:i])
		if err != nil {
			return nil, err
		}
		srcExprs[alias] = e
	}
	on, rest, err := parens(rest)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, cond := range splitTop(on, " AND ") {
		l, r, ok := strings.Cut(cond, " = ")
		if !ok || !strings.HasPrefix(l, `TGT."`) || strings.TrimPrefix(l, "TGT.") != strings.TrimPrefix(r, "SRC.") {
			return nil, bad
		}
		n, _, err := quoted(strings.TrimPrefix(l, "TGT."))
		if err != nil {
			return nil, err
		}
		keys = append(keys, n)
	}
	var sets []assignment
	if s, ok := strings.CutPrefix(rest, " WHEN MATCHED THEN UPDATE SET "); ok {
		i := strings.Index(s, " WHEN NOT MATCHED THEN INSERT ")
		if i < 0 {
			return nil, bad
		}
		for _, item := range splitTop(s[:i], ", ") {
			l, r, ok := strings.Cut(item, " = ")
			if !ok {
				return nil, bad
			}
			n, _, err := quoted(strings.TrimPrefix(l, "TGT."))
			if err != nil {
				return nil, err
			}
			if slices.Contains(keys, n) {
				return nil, oraError(38104, "columns referenced in the ON clause cannot be updated: %q", n)
			}
			e, err := parseExpr(r)
			if err != nil {
				return nil, err
			}
			sets = append(sets, assignment{n, e})
		}
		rest = s[i:]
	}
	ins, ok := strings.CutPrefix(rest, " WHEN NOT MATCHED THEN INSERT ")
	if !ok {
		return nil, bad
	}
	colList, tail, err := parens(ins)
	if err != nil {
		return nil, err
	}
	valList, _, err := parens(strings.TrimPrefix(tail, " VALUES "))
	if err != nil {
		return nil, err
	}
	inserts, err := assignments(colList, valList)
	if err != nil {
		return nil, err
	}
	return func(row int) (int64, error) {
		src := make(map[string]value, len(srcExprs))
		for alias, e := range srcExprs {
			v, err := w.eval(e, b, row, nil)
			if err != nil {
				return 0, err
			}
			src[alias] = v
		}
		match := map[string]string{}
		for _, k := range keys {
			c := t.col(k)
			if c == nil {
				return 0, oraError(904, "%q: invalid identifier", k)
			}
			s, err := w.store(t, c, src[k])
			if err != nil && src[k].text != "" {
				return 0, err
			}
			match[k] = s
		}
		i := t.find(match, keys)
		if i < 0 {
			r, err := w.newRow(t, inserts, b, row, src)
			if err != nil {
				return 0, err
			}
			return 1, t.add(r)
		}
		r := cloneRow(t.rows[i])
		for _, a := range sets {
			c := t.col(a.col)
			if c == nil {
				return 0, oraError(904, "%q: invalid identifier", a.col)
			}
			v, err := w.eval(a.expr, b, row, src)
			if err != nil {
				return 0, err
			}
			s, err := w.store(t, c, v)
			if err != nil {
				return 0, err
			}
			if s == "" {
				delete(r, a.col)
			} else {
				r[a.col] = s
			}
		}
		if err := t.part.move(t.rows[i], r); err != nil {
			return 0, err
		}
		t.rows[i] = r
		return 1, nil
	}, nil
}

var (
	reVersions = regexp.MustCompile(`^ WHERE \("([^"]+)" < (.+) OR "([^"]+)" IS NULL\)$`)
	reSoft     = regexp.MustCompile(`^ SET "([^"]+)" = (.+) WHERE \("([^"]+)" < (.+) OR "([^"]+)" IS NULL\) AND "([^"]+)" IS NULL$`)
	reMigrate  = regexp.MustCompile(`^ SET "([^"]+)" = .+ WHERE "([^"]+)" IS NULL AND "([^"]+)" IS NOT NULL AND ROWNUM <= (:\d+)$`)
	// reCatchUp and reCatchUpNull are oraclesql's dropOld catch-up: the
	// marker gets the renamed old column's converted value (or NULL)
	// wherever it holds another.
	reCatchUp     = regexp.MustCompile(`^ SET "([^"]+)" = .+ WHERE "([^"]+)" IS NOT NULL AND \("([^"]+)" IS NULL OR .+\)$`)
	reCatchUpNull = regexp.MustCompile(`^ SET "([^"]+)" = NULL WHERE "([^"]+)" IS NULL AND "([^"]+)" IS NOT NULL$`)
)

// delete is the whole table (Replace), older versions (DeleteVersions
// hard) or rows by key (hard deletes).
func (w *work) delete(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	if err := longUses(t, b, nil); err != nil {
		return nil, err
	}
	if run, err := w.pruneDelete(t, rest, b); run != nil || err != nil {
		return run, err
	}
	if rest == "" {
		return func(int) (int64, error) {
			var n int64
			for i, r := range t.rows {
				if r != nil {
					t.rows[i], n = nil, n+1
				}
			}
			t.key = nil
			return n, nil
		}, nil
	}
	if m := reVersions.FindStringSubmatch(rest); m != nil && m[1] == m[3] {
		e, err := parseExpr(m[2])
		if err != nil {
			return nil, err
		}
		return func(row int) (int64, error) {
			v, err := w.eval(e, b, row, nil)
			if err != nil {
				return 0, err
			}
			var n int64
			for i, r := range t.rows {
				if r != nil && older(r[m[1]], v.text) {
					t.rows[i], n = nil, n+1
				}
			}
			t.key = nil
			return n, nil
		}, nil
	}
	cond, ok := strings.CutPrefix(rest, " WHERE ")
	if !ok {
		return nil, fmt.Errorf("fake: unsupported DELETE %.80q", rest)
	}
	var keys []assignment
	for _, c := range splitTop(cond, " AND ") {
		l, r, ok := strings.Cut(c, " = ")
		if !ok {
			return nil, fmt.Errorf("fake: unsupported DELETE condition %q", c)
		}
		n, _, err := quoted(l)
		if err != nil {
			return nil, err
		}
		e, err := parseExpr(r)
		if err != nil {
			return nil, err
		}
		keys = append(keys, assignment{n, e})
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.col
	}
	return func(row int) (int64, error) {
		match := map[string]string{}
		for _, k := range keys {
			c := t.col(k.col)
			if c == nil {
				return 0, oraError(904, "%q: invalid identifier", k.col)
			}
			v, err := w.eval(k.expr, b, row, nil)
			if err != nil {
				return 0, err
			}
			if v.text == "" {
				return 0, nil // = NULL matches nothing
			}
			s, err := w.store(t, c, v)
			if err != nil {
				return 0, err
			}
			match[k.col] = s
		}
		var n int64
		for i, r := range t.rows {
			if r != nil && keyText(r, names) == keyText(match, names) {
				t.rows[i], n = nil, n+1
			}
		}
		if n > 0 {
			t.key = nil
		}
		return n, nil
	}, nil
}

// older reports whether a stored version is NULL or numerically below v.
func older(stored, v string) bool {
	return stored == "" || num.CompareCanonical(stored, v) < 0
}

// stampWhere is a soft delete: it sets column c to set's value on the live
// rows where c is NULL and match(row, param's value) holds (rows of older
// table versions, or rows no run of this id wrote).
func (w *work) stampWhere(t *tbl, c *column, set, param expr, b *binds, match func(r map[string]string, v string) bool) func(int) (int64, error) {
	return func(row int) (int64, error) {
		at, err := w.eval(set, b, row, nil)
		if err != nil {
			return 0, err
		}
		s, err := w.store(t, c, at)
		if err != nil {
			return 0, err
		}
		v, err := w.eval(param, b, row, nil)
		if err != nil {
			return 0, err
		}
		var n int64
		for i, r := range t.rows {
			if r != nil && r[c.name] == "" && match(r, v.text) {
				r = cloneRow(r)
				r[c.name] = s
				t.rows[i], n = r, n+1
			}
		}
		return n, nil
	}
}

// update is the soft version cleanup or a migration chunk.
func (w *work) update(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	if run, err := w.pruneUpdate(t, rest, b); run != nil || err != nil {
		return run, err
	}
	if run, ok, err := w.closeVersions(t, rest, b); ok {
		return run, err
	}
	if m := reSoft.FindStringSubmatch(rest); m != nil && m[3] == m[5] && m[1] == m[6] {
		set, err := parseExpr(m[2])
		if err != nil {
			return nil, err
		}
		ver, err := parseExpr(m[4])
		if err != nil {
			return nil, err
		}
		dc := t.col(m[1])
		if dc == nil || t.col(m[3]) == nil {
			return nil, oraError(904, "invalid identifier")
		}
		return w.stampWhere(t, dc, set, ver, b, func(r map[string]string, v string) bool { return older(r[m[3]], v) }), nil
	}
	if m := reMigrate.FindStringSubmatch(rest); m != nil && m[1] == m[2] {
		return w.migrateChunk(t, m[1], m[3], m[4], b)
	}
	if m := reCatchUpNull.FindStringSubmatch(rest); m != nil && m[1] == m[3] {
		return w.catchUp(t, m[1], m[2], true)
	}
	if m := reCatchUp.FindStringSubmatch(rest); m != nil && m[1] == m[3] {
		return w.catchUp(t, m[1], m[2], false)
	}
	return w.updateByKey(t, rest, b)
}

// updateByKey is the UPDATE of a split upsert:
// ` SET "A" = e, … WHERE "K" = e AND …`, one execution per row.
func (w *work) updateByKey(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	bad := fmt.Errorf("fake: unsupported UPDATE %.80q", rest)
	body, ok := strings.CutPrefix(rest, " SET ")
	if !ok {
		return nil, bad
	}
	setList, cond, ok := strings.Cut(body, " WHERE ")
	if !ok {
		return nil, bad
	}
	parse := func(items []string) ([]assignment, error) {
		var out []assignment
		for _, item := range items {
			l, r, ok := strings.Cut(item, " = ")
			if !ok {
				return nil, bad
			}
			n, _, err := quoted(l)
			if err != nil {
				return nil, err
			}
			e, err := parseExpr(r)
			if err != nil {
				return nil, err
			}
			if t.col(n) == nil {
				return nil, oraError(904, "%q: invalid identifier", n)
			}
			out = append(out, assignment{n, e})
		}
		return out, nil
	}
	sets, err := parse(splitTop(setList, ", "))
	if err != nil {
		return nil, err
	}
	keys, err := parse(splitTop(cond, " AND "))
	if err != nil {
		return nil, err
	}
	if err := longUses(t, b, sets); err != nil {
		return nil, err
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.col
	}
	return func(row int) (int64, error) {
		match := map[string]string{}
		for _, k := range keys {
			v, err := w.eval(k.expr, b, row, nil)
			if err != nil {
				return 0, err
			}
			if v.text == "" {
				return 0, nil // = NULL matches nothing
			}
			s, err := w.store(t, t.col(k.col), v)
			if err != nil {
				return 0, err
			}
			match[k.col] = s
		}
		i := t.find(match, names)
		if i < 0 {
			return 0, nil
		}
		r := cloneRow(t.rows[i])
		for _, a := range sets {
			v, err := w.eval(a.expr, b, row, nil)
			if err != nil {
				return 0, err
			}
			s, err := w.store(t, t.col(a.col), v)
			if err != nil {
				return 0, err
			}
			if s == "" {
				delete(r, a.col)
			} else {
				r[a.col] = s
			}
		}
		t.rows[i] = r
		return 1, nil
	}, nil
}

// longUses refuses LONG binds where Oracle does: a LONG bind may only be
// the bare value of a CLOB column in INSERT … VALUES or UPDATE … SET
// (as), not national text, not inside a function (JSON(:n)), not a
// VARCHAR2 column (ORA-01461), and nowhere else, such as a MERGE's
// select list or a WHERE clause (ORA-00997) [verify on Oracle].
func longUses(t *tbl, b *binds, as []assignment) error {
	ok := map[int]bool{}
	for _, a := range as {
		if a.expr.kind != exprBind || a.expr.bind >= len(b.long) || !b.long[a.expr.bind] {
			continue
		}
		c := t.col(a.col)
		if c == nil {
			continue
		}
		typ := t.effective(c)
		if b.binary[a.expr.bind] {
			if typ.Kind != table.KindBlob {
				return oraError(1461, "can bind a LONG RAW value only for insert into a LONG RAW or BLOB column (bind %d into %q of type %s)", a.expr.bind+1, c.name, typ)
			}
			ok[a.expr.bind] = true
			continue
		}
		if a.expr.conv != convText || typ.National || !(typ.Kind == table.KindClob || typ.Kind == table.KindJSON && typ.JSONAsClob) {
			return oraError(1461, "can bind a LONG value only for insert into a LONG column (bind %d into %q of type %s)", a.expr.bind+1, c.name, typ)
		}
		ok[a.expr.bind] = true
	}
	for i, l := range b.long {
		if l && !ok[i] {
			return oraError(997, "illegal use of LONG datatype (bind %d)", i+1)
		}
	}
	return nil
}

// migrateChunk copies at most :n values of column from into column to,
// converted as table.MigrateValue says (the fake does not evaluate the
// conversion SQL).
func (w *work) migrateChunk(t *tbl, to, from, limit string, b *binds) (func(int) (int64, error), error) {
	tc, fc := t.col(to), t.col(from)
	if tc == nil || fc == nil {
		return nil, oraError(904, "invalid identifier")
	}
	e, err := parseExpr(limit)
	if err != nil {
		return nil, err
	}
	return func(row int) (int64, error) {
		s := b.text(e.bind, row)
		max, err := strconv.Atoi(s)
		if err != nil {
			return 0, oraError(1722, "invalid number %q", s)
		}
		var n int64
		for i, r := range t.rows {
			if n >= int64(max) {
				break
			}
			if r == nil || r[to] != "" || r[from] == "" {
				continue
			}
			v, err := table.MigrateValue(t.effective(fc), t.effective(tc), r[from])
			if err != nil {
				return 0, oraError(1722, "%v", err)
			}
			if err := t.check(tc, v); err != nil {
				return 0, err
			}
			r = cloneRow(r)
			r[to] = v
			t.rows[i], n = r, n+1
		}
		return n, nil
	}, nil
}

// catchUp sets column to to from's converted value where it holds
// another, in the rows where from is NULL (nulls: to NULL) or not, as
// the migration's two catch-up statements do.
func (w *work) catchUp(t *tbl, to, from string, nulls bool) (func(int) (int64, error), error) {
	tc, fc := t.col(to), t.col(from)
	if tc == nil || fc == nil {
		return nil, oraError(904, "invalid identifier")
	}
	return func(int) (int64, error) {
		var n int64
		for i, r := range t.rows {
			if r == nil || (r[from] == "") != nulls {
				continue
			}
			want := ""
			if r[from] != "" {
				v, err := table.MigrateValue(t.effective(fc), t.effective(tc), r[from])
				if err != nil {
					return 0, oraError(1722, "%v", err)
				}
				if err := t.check(tc, v); err != nil {
					return 0, err
				}
				want = v
			}
			if r[to] == want {
				continue
			}
			r = cloneRow(r)
			if want == "" {
				delete(r, to)
			} else {
				r[to] = want
			}
			t.rows[i], n = r, n+1
		}
		return n, nil
	}, nil
}

// add appends a row, enforcing the primary key.
func (t *tbl) add(r map[string]string) error {
	if err := t.part.place(r); err != nil {
		return err
	}
	if len(t.pk) > 0 {
		t.index()
		k := keyText(r, t.pk)
		if _, dup := t.key[k]; dup {
			return oraError(1, "unique constraint (%s.%s) violated", t.schema, t.pkName)
		}
		t.key[k] = len(t.rows)
	}
	t.rows = append(t.rows, r)
	return nil
}

// find returns the index of the live row whose columns keys equal match's.
func (t *tbl) find(match map[string]string, keys []string) int {
	for _, k := range keys {
		if match[k] == "" {
			return -1 // NULL = NULL is not true
		}
	}
	k := keyText(match, keys)
	if slices.Equal(keys, t.pk) {
		t.index()
		if i, ok := t.key[k]; ok {
			return i
		}
		return -1
	}
	for i, r := range t.rows {
		if r != nil && keyText(r, keys) == k {
			return i
		}
	}
	return -1
}

func (t *tbl) index() {
	if t.key != nil {
		return
	}
	t.key = make(map[string]int, len(t.rows))
	for i, r := range t.rows {
		if r != nil {
			t.key[keyText(r, t.pk)] = i
		}
	}
}

// keyText is a row's key as one text, each value after its length, as
// the loader's (engine.AppendKey): values may hold NUL bytes.
func keyText(r map[string]string, cols []string) string {
	var b []byte
	for _, c := range cols {
		b = engine.AppendKey(b, r[c])
	}
	return string(b)
}

// ordered returns the live rows by primary key (numerically for NUMBER
// columns), else in insertion order.
func (t *tbl) ordered() []map[string]string {
	var out []map[string]string
	for _, r := range t.rows {
		if r != nil {
			out = append(out, r)
		}
	}
	if len(t.pk) > 0 {
		sort.SliceStable(out, func(i, j int) bool {
			for _, k := range t.pk {
				a, b := out[i][k], out[j][k]
				if a == b {
					continue
				}
				if c := t.col(k); c != nil && c.typ.Kind == table.KindNumber {
					return num.CompareCanonical(a, b) < 0
				}
				return a < b
			}
			return false
		})
	}
	return out
}
