package fake

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	num "github.com/target-oracle/target-oracle/internal/value"
)

// load_method history: the read of a batch's versions inside its
// transaction (oraclesql.HistoryStatements.Read) and the UPDATE that
// closes versions at an ACTIVATE_VERSION. The UPDATE that closes by
// primary key and the INSERT are the general shapes (updateByKey, insert).

// Query implements oracle.Tx: the history read, seeing the transaction's
// own changes. FOR UPDATE locks nothing here (the fake models no locks).
func (t *tx) Query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error) {
	db := t.c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := t.check(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f := db.fault(OpQuery, args...); f != nil {
		return nil, t.c.failWith(f, OpQuery)
	}
	db.log = append(db.log, st.SQL)
	db.recordArgs(st, args)
	if st.Kind != oraclesql.KindQuery {
		return nil, fmt.Errorf("fake: %s statement sent as a query", st.Kind)
	}
	b, err := db.decodeArgs(st, args)
	if err != nil {
		return nil, err
	}
	return t.w.historyRead(db.sent(st).SQL, b)
}

var reHistoryRead = regexp.MustCompile(`^SELECT (.+) FROM ("[^"]+"(?:\."[^"]+")?) WHERE (\("[^"]+"(?:, "[^"]+")*\)|"[^"]+") IN \((.+)\) FOR UPDATE$`)

// historyRead answers `SELECT items FROM t WHERE keys IN (places) FOR
// UPDATE`: an item is a column's canonical text (the fake stores
// canonical text, which is what oraclesql's text expressions give on
// Oracle), or CASE WHEN "C" IS NULL THEN 1 ELSE 0 END.
func (w *work) historyRead(q string, b *binds) ([][]sql.NullString, error) {
	m := reHistoryRead.FindStringSubmatch(q)
	if m == nil {
		return nil, fmt.Errorf("fake: unsupported query %.60q", q)
	}
	schema, name, _, err := w.db.qname(m[2])
	if err != nil {
		return nil, err
	}
	t, err := w.table(schema + "." + name)
	if err != nil {
		return nil, err
	}
	type item struct {
		col    string
		isNull bool
	}
	var items []item
	for _, s := range splitTop(m[1], ", ") {
		it := item{}
		if rest, ok := strings.CutPrefix(s, "CASE WHEN "); ok {
			c, tail, err := quoted(rest)
			if err != nil || tail != " IS NULL THEN 1 ELSE 0 END" {
				return nil, fmt.Errorf("fake: unsupported select item %.60q", s)
			}
			it = item{col: c, isNull: true}
		} else {
			i := strings.IndexByte(s, '"')
			if i < 0 {
				return nil, fmt.Errorf("fake: unsupported select item %.60q", s)
			}
			if it.col, _, err = quoted(s[i:]); err != nil {
				return nil, err
			}
		}
		if t.col(it.col) == nil {
			return nil, oraError(904, "%q: invalid identifier", it.col)
		}
		items = append(items, it)
	}
	keys, err := quotedList(strings.Trim(m[3], "()"))
	if err != nil {
		return nil, err
	}
	var out [][]sql.NullString
	for _, place := range splitTop(m[4], ", ") {
		parts := []string{place}
		if len(keys) > 1 {
			inner, _, err := parens(place)
			if err != nil {
				return nil, err
			}
			parts = splitTop(inner, ", ")
		}
		if len(parts) != len(keys) {
			return nil, fmt.Errorf("fake: IN list place %q does not match the keys %v", place, keys)
		}
		match := map[string]string{}
		for i, p := range parts {
			e, err := parseExpr(p)
			if err != nil {
				return nil, err
			}
			v, err := w.eval(e, b, 0, nil)
			if err != nil {
				return nil, err
			}
			if v.text == "" {
				match = nil // NULL matches nothing
				break
			}
			s, err := w.store(t, t.col(keys[i]), v)
			if err != nil {
				return nil, err
			}
			match[keys[i]] = s
		}
		if match == nil {
			continue
		}
		for _, r := range t.rows {
			if r == nil || keyText(r, keys) != keyText(match, keys) {
				continue
			}
			row := make([]sql.NullString, len(items))
			for i, it := range items {
				v := r[it.col]
				switch {
				case it.isNull && v == "":
					row[i] = sql.NullString{String: "1", Valid: true}
				case it.isNull:
					row[i] = sql.NullString{String: "0", Valid: true}
				default:
					row[i] = sql.NullString{String: v, Valid: v != ""}
				}
			}
			out = append(out, row)
		}
	}
	return out, nil
}

var reCloseVersions = regexp.MustCompile(`^ SET "([^"]+)" = GREATEST\("([^"]+)", (.+)\), "([^"]+)" = (.+) WHERE \("([^"]+)" < (.+) OR "([^"]+)" IS NULL\) AND "([^"]+)" IS NULL$`)

// closeVersions is ACTIVATE_VERSION on a history table: ` SET "VT" =
// GREATEST("VF", e), "CUR" = e WHERE ("V" < e OR "V" IS NULL) AND "VT" IS
// NULL`. ok is false for any other UPDATE.
func (w *work) closeVersions(t *tbl, rest string, b *binds) (run func(int) (int64, error), ok bool, err error) {
	m := reCloseVersions.FindStringSubmatch(rest)
	if m == nil || m[1] != m[9] || m[6] != m[8] {
		return nil, false, nil
	}
	vt, vf, cur, ver := t.col(m[1]), t.col(m[2]), t.col(m[4]), t.col(m[6])
	if vt == nil || vf == nil || cur == nil || ver == nil {
		return nil, true, oraError(904, "invalid identifier")
	}
	var exprs [3]expr
	for i, s := range []string{m[3], m[5], m[7]} {
		if exprs[i], err = parseExpr(s); err != nil {
			return nil, true, err
		}
	}
	return func(row int) (int64, error) {
		var vals [3]value
		for i, e := range exprs {
			v, err := w.eval(e, b, row, nil)
			if err != nil {
				return 0, err
			}
			vals[i] = v
		}
		at, err := w.store(t, vt, vals[0])
		if err != nil {
			return 0, err
		}
		no, err := w.store(t, cur, vals[1])
		if err != nil {
			return 0, err
		}
		var n int64
		for i, r := range t.rows {
			if r == nil || r[m[1]] != "" || !older(r[m[6]], vals[2].text) {
				continue
			}
			r = cloneRow(r)
			r[m[1]] = at
			if later(r[m[2]], at) {
				r[m[1]] = r[m[2]]
			}
			r[m[4]] = no
			t.rows[i], n = r, n+1
		}
		return n, nil
	}, true, nil
}

// later reports whether stored date-time a is after b.
func later(a, b string) bool {
	ta, errA := instant(a)
	tb, errB := instant(b)
	return errA == nil && errB == nil && ta.After(tb)
}

func instant(s string) (time.Time, error) {
	dt, err := num.ParseDateTime(s)
	if err != nil {
		return time.Time{}, err
	}
	return time.Date(dt.Year, time.Month(dt.Month), dt.Day, dt.Hour, dt.Minute, dt.Second, dt.Nanosecond, time.UTC), nil
}
