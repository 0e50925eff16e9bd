package fake

import (
	"database/sql"
	"fmt"
	"strings"
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
	if rest != " WHERE ROWNUM = 1" {
		return nil, fmt.Errorf("fake: unsupported query %.60q", sqlText)
	}
	t, err := db.table(schema + "." + name)
	if err != nil {
		return nil, err
	}
	if c.tx != nil && c.tx.w.tables[t.qualified()] != nil {
		t = c.tx.w.tables[t.qualified()]
	}
	for _, r := range t.rows {
		if r != nil { // deleted rows stay as nil
			return [][]sql.NullString{{{String: "1", Valid: true}}}, nil
		}
	}
	return nil, nil
}
