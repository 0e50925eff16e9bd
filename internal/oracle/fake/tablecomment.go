package fake

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// describeComment answers oraclesql.DescribeTableComment: the table's
// comment and UNUSED column count, as ALL_TAB_COMMENTS and
// ALL_UNUSED_COL_TABS show them (a row for every table, NULLs when none).
func (db *DB) describeComment(q string) [][]sql.NullString {
	t := db.tables[q]
	if t == nil {
		return nil
	}
	unused := sql.NullString{}
	if t.unused > 0 {
		unused = sql.NullString{String: strconv.Itoa(t.unused), Valid: true}
	}
	return [][]sql.NullString{{{String: t.comment, Valid: t.comment != ""}, unused}}
}

// tableComment runs COMMENT ON TABLE "S"."T" IS '…'.
func (db *DB) tableComment(s string) error {
	schema, name, rest, err := db.qname(s)
	if err != nil {
		return err
	}
	t, err := db.table(schema + "." + name)
	if err != nil {
		return err
	}
	lit, ok := strings.CutPrefix(rest, " IS '")
	if !ok || !strings.HasSuffix(lit, "'") {
		return fmt.Errorf("fake: bad COMMENT %.60q", s)
	}
	t.comment = strings.ReplaceAll(lit[:len(lit)-1], "''", "'")
	return nil
}

// TableComment returns a table's comment ("" when none or no table).
func (db *DB) TableComment(q string) string {
	db.mu.Lock()
	defer db.mu.Unlock()
	if t := db.tables[q]; t != nil {
		return t.comment
	}
	return ""
}

// SetTableComment sets a table's comment, as a DBA would.
func (db *DB) SetTableComment(q, comment string) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if t := db.tables[q]; t != nil {
		t.comment = comment
	}
}
