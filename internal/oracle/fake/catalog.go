package fake

import (
	"database/sql"
	"strconv"

	"github.com/target-oracle/target-oracle/internal/table"
)

// describe answers oraclesql.DescribeTable for a table: one row per
// column, as ALL_TAB_COLUMNS and friends show it.
func (db *DB) describe(q string) [][]sql.NullString {
	t := db.tables[q]
	if t == nil {
		return nil
	}
	str := func(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
	num := func(n int) sql.NullString { return sql.NullString{String: strconv.Itoa(n), Valid: true} }
	null := sql.NullString{}
	var rows [][]sql.NullString
	for i := range t.cols {
		c := &t.cols[i]
		dataType, dataLength, charLength, charUsed := "", num(0), num(0), null
		precision, scale := null, null
		switch typ := c.typ; typ.Kind {
		case table.KindNumber:
			dataType, dataLength = "NUMBER", num(22)
			if typ.Precision > 0 {
				precision, scale = num(typ.Precision), num(typ.Scale)
			}
		case table.KindBoolean:
			dataType, dataLength = "BOOLEAN", num(1)
		case table.KindVarchar:
			dataType, charLength, charUsed = "VARCHAR2", num(typ.Length), str("B")
			dataLength = num(typ.Length)
			switch {
			case typ.National:
				dataType, dataLength, charUsed = "NVARCHAR2", num(2*typ.Length), str("C")
			case typ.CharSemantics:
				dataLength, charUsed = num(min(4*typ.Length, db.o.MaxStringBytes)), str("C")
			}
		case table.KindClob:
			dataType, dataLength = "CLOB", num(4000)
			if typ.National {
				dataType = "NCLOB"
			}
		case table.KindJSON:
			dataType, dataLength = "JSON", num(8200)
		case table.KindDate:
			dataType, dataLength = "DATE", num(7)
		case table.KindTimestamp:
			dataType, dataLength, scale = "TIMESTAMP("+strconv.Itoa(typ.Frac)+")", num(11), num(typ.Frac)
			if typ.TZ {
				dataType, dataLength = dataType+" WITH TIME ZONE", num(13)
			}
		}
		nullable := "Y"
		if c.notNull {
			nullable = "N"
		}
		pk := null
		for j, k := range t.pk {
			if k == c.name {
				pk = num(j + 1)
			}
		}
		jsonChecks := 0
		for _, ck := range t.checks {
			if ck.col == c.name && ck.kind == checkJSON {
				jsonChecks++
			}
		}
		rows = append(rows, []sql.NullString{
			str(c.name), str(dataType), dataLength, charLength, charUsed,
			precision, scale, str(nullable), str(c.comment), pk, num(jsonChecks),
		})
	}
	return rows
}
