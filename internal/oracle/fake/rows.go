package fake

import (
	"database/sql"
	"fmt"
	"regexp"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// hasRowsPrefix starts oraclesql.HasRows: SELECT 1 FROM "S"."T" WHERE
// ROWNUM = 1, the check before a key change replaces a primary key.
const hasRowsPrefix = "SELECT 1 FROM "

// anyRow answers oraclesql.HasRows as Oracle does: one row holding 1 when
// the table has a row the session sees (committed ones, and its own open
// transaction's), none when it is empty, ORA-00942 when it does not exist.
func (c *conn) anyRow(sqlText string) ([][]sql.NullString, error) {
	db := c.db
	schema, name, rest, err := db.qname(strings.TrimPrefix(sqlText, hasRowsPrefix))
	if err != nil {
		return nil, err
	}
	foreign := reForeignMarker.FindStringSubmatch(rest)
	valued := reColumnHasValue.FindStringSubmatch(rest)
	if rest != " WHERE ROWNUM = 1" && foreign == nil && valued == nil {
		return nil, fmt.Errorf("fake: unsupported query %.60q", sqlText)
	}
	t, err := db.table(schema + "." + name)
	if err != nil {
		return nil, err
	}
	if c.tx != nil && c.tx.w.tables[t.qualified()] != nil {
		t = c.tx.w.tables[t.qualified()]
	}
	match := func(map[string]string) bool { return true }
	if valued != nil {
		vc := t.col(valued[1])
		if vc == nil {
			return nil, oraError(904, "invalid identifier")
		}
		match = func(r map[string]string) bool { return r[vc.name] != "" }
	}
	if foreign != nil {
		mc, cc := t.col(foreign[1]), t.col(foreign[2])
		if mc == nil || cc == nil {
			return nil, oraError(904, "invalid identifier")
		}
		match = func(r map[string]string) bool {
			if r[mc.name] == "" {
				return false
			}
			if r[cc.name] == "" {
				return true
			}
			v, err := table.MigrateValue(t.effective(cc), t.effective(mc), r[cc.name])
			return err != nil || v != r[mc.name]
		}
	}
	for _, r := range t.rows {
		if r != nil && match(r) { // deleted rows stay as nil
			return [][]sql.NullString{{{String: "1", Valid: true}}}, nil
		}
	}
	return nil, nil
}

// reForeignMarker is the WHERE of oraclesql.Renderer.ForeignMarker: a
// row whose marker holds a value the migration's copy would not have put
// there (the conversion is table.MigrateValue's, as in migrateChunk).
// reColumnHasValue is the WHERE of oraclesql.Renderer.ColumnHasValue: a
// row whose column is not NULL.
var reColumnHasValue = regexp.MustCompile(`^ WHERE "([^"]+)" IS NOT NULL AND ROWNUM = 1$`)

var reForeignMarker = regexp.MustCompile(`^ WHERE "([^"]+)" IS NOT NULL AND \("([^"]+)" IS NULL OR .+\) AND ROWNUM = 1$`)
