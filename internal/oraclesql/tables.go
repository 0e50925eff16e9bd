package oraclesql

import "github.com/target-oracle/target-oracle/internal/table"

// TableComment is the COMMENT ON TABLE that records a created table's
// source streams (SPEC §5.1, table.FormatTableComment) and the key a key
// replacement replaced, or nothing for a
// table without them. It is written whatever column_comments says: later
// runs and other pipelines tell whose table a generated name is by it.
func (r *Renderer) TableComment(t *table.Table) []Statement {
	if len(t.Streams) == 0 {
		return nil
	}
	sql := "COMMENT ON TABLE " + tableName(t) + " IS " + literal(table.FormatTableCommentDescribed(t.Description, t.Streams, t.ReplacedKey, t.EarlierKeys...))
	return []Statement{{SQL: sql, Kind: KindDDL}}
}

// DescribeTableComment reads what DescribeTable does not, for a table
// that exists: one row with
//
//	COMMENTS (the table comment, NULL when none),
//	UNUSED_COLUMNS (the columns set UNUSED, NULL when none: they count
//	toward the 1000-column limit).
//
// It is one more round trip per existing table.
func DescribeTableComment(schema, name string) Statement {
	var binds []Bind
	sql := "SELECT TC.COMMENTS, (SELECT UC.COUNT FROM ALL_UNUSED_COL_TABS UC WHERE UC.OWNER = TC.OWNER" +
		" AND UC.TABLE_NAME = TC.TABLE_NAME) AS UNUSED_COLUMNS FROM ALL_TAB_COMMENTS TC WHERE TC.OWNER = " + owner(schema, &binds)
	binds = append(binds, fixed("table", name))
	sql += " AND TC.TABLE_NAME = " + placeholder(len(binds))
	return Statement{SQL: sql, Binds: binds, Kind: KindQuery}
}
