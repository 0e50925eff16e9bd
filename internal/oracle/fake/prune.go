package fake

import (
	"database/sql"
	"regexp"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
)

// The statements of a delete_missing prune (oraclesql/prune.go): rows whose
// run id column is not the bound run id, or NULL, are another run's.
var (
	rePruneHard  = regexp.MustCompile(`^ WHERE \("([^"]+)" <> (:\d+) OR "([^"]+)" IS NULL\)$`)
	rePruneSoft  = regexp.MustCompile(`^ SET "([^"]+)" = (.+) WHERE \("([^"]+)" <> (:\d+) OR "([^"]+)" IS NULL\) AND "([^"]+)" IS NULL$`)
	rePruneCount = regexp.MustCompile(`^SELECT COUNT\(\*\), COUNT\(CASE WHEN \("([^"]+)" <> (:\d+) OR "([^"]+)" IS NULL\)( AND "([^"]+)" IS NULL)? THEN 1 END\) FROM (.+)$`)
)

// notRun reports whether a stored row was written by another run than id
// (NULL included): SQL's "<> id OR IS NULL".
func notRun(r map[string]string, col, id string) bool { return r[col] != id || r[col] == "" }

// pruneDelete is the hard prune, or nil when rest is another DELETE.
func (w *work) pruneDelete(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	m := rePruneHard.FindStringSubmatch(rest)
	if m == nil || m[1] != m[3] {
		return nil, nil
	}
	if t.col(m[1]) == nil {
		return nil, oraError(904, "%q: invalid identifier", m[1])
	}
	e, err := parseExpr(m[2])
	if err != nil {
		return nil, err
	}
	return func(row int) (int64, error) {
		id, err := w.eval(e, b, row, nil)
		if err != nil {
			return 0, err
		}
		var n int64
		for i, r := range t.rows {
			if r != nil && notRun(r, m[1], id.text) {
				t.rows[i], n = nil, n+1
			}
		}
		t.key = nil
		return n, nil
	}, nil
}

// pruneUpdate is the soft prune, or nil when rest is another UPDATE.
func (w *work) pruneUpdate(t *tbl, rest string, b *binds) (func(int) (int64, error), error) {
	m := rePruneSoft.FindStringSubmatch(rest)
	if m == nil || m[3] != m[5] || m[1] != m[6] {
		return nil, nil
	}
	dc := t.col(m[1])
	if dc == nil || t.col(m[3]) == nil {
		return nil, oraError(904, "invalid identifier")
	}
	set, err := parseExpr(m[2])
	if err != nil {
		return nil, err
	}
	run, err := parseExpr(m[4])
	if err != nil {
		return nil, err
	}
	return w.stampWhere(t, dc, set, run, b, func(r map[string]string, id string) bool { return notRun(r, m[3], id) }), nil
}

// pruneCount answers oraclesql.PruneCount from the committed rows, or
// reports false when st is another query.
func (db *DB) pruneCount(st *oraclesql.Statement, args []any) ([][]sql.NullString, bool, error) {
	m := rePruneCount.FindStringSubmatch(st.SQL)
	if m == nil {
		return nil, false, nil
	}
	if m[1] != m[3] || m[2] != ":1" {
		return nil, true, oraError(904, "fake: unsupported prune count %.80q", st.SQL)
	}
	b, err := db.decodeArgs(st, args)
	if err != nil {
		return nil, true, err
	}
	s, n, rest, err := db.qname(m[6])
	if err != nil || rest != "" {
		return nil, true, oraError(903, "invalid table name in %.80q", st.SQL)
	}
	t, err := db.table(s + "." + n)
	if err != nil {
		return nil, true, err
	}
	if t.col(m[1]) == nil || (m[5] != "" && t.col(m[5]) == nil) {
		return nil, true, oraError(904, "invalid identifier")
	}
	id := b.text(0, 0)
	var total, prune int64
	for _, r := range t.rows {
		if r == nil {
			continue
		}
		total++
		if notRun(r, m[1], id) && (m[5] == "" || r[m[5]] == "") {
			prune++
		}
	}
	num := func(v int64) sql.NullString { return sql.NullString{String: strconv.FormatInt(v, 10), Valid: true} }
	return [][]sql.NullString{{num(total), num(prune)}}, true, nil
}
