package fake

import (
	"database/sql"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// describe answers oraclesql.DescribeTable for a table: one row per
// column, as ALL_TAB_COLS, ALL_TAB_IDENTITY_COLS and friends show it
// (identity, DEFAULT, virtual and invisible facts included, and the
// partitioning key's position, ALL_PART_KEY_COLUMNS; the column order is
// the declared one, invisible columns too).
func (db *DB) describe(q string) [][]sql.NullString {
	t := db.tables[q]
	if t == nil {
		return nil
	}
	str := func(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
	num := func(n int) sql.NullString { return sql.NullString{String: strconv.Itoa(n), Valid: true} }
	null := sql.NullString{}
	var rows [][]sql.NullString
	order := make([]*column, 0, len(t.cols))
	for _, hidden := range []bool{false, true} { // invisible columns have no COLUMN_ID: last
		for i := range t.cols {
			if t.cols[i].hidden == hidden {
				order = append(order, &t.cols[i])
			}
		}
	}
	for _, c := range order {
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
		case table.KindRaw:
			dataType, dataLength = "RAW", num(typ.Length)
		case table.KindBlob:
			dataType, dataLength = "BLOB", num(4000)
		case table.KindVector:
			dataType, dataLength = "VECTOR", num(0) // the shape is not in ALL_TAB_COLS [verify on a real DB]
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
		yes := func(b bool) sql.NullString {
			if b {
				return str("YES")
			}
			return str("NO")
		}
		identity := c.fill == table.FillIdentity || c.fill == table.FillIdentityOnNull || c.fill == table.FillIdentityAlways
		defaultLength, generation := null, null
		switch {
		case identity:
			defaultLength, generation = num(len(`"DRY_RUN"."ISEQ$$_1".nextval`)), str("BY DEFAULT")
			if c.fill == table.FillIdentityAlways {
				generation = str("ALWAYS")
			}
		case c.fill != table.FillNone:
			defaultLength = num(len(c.def) + 2)
		}
		partKey := null // ALL_PART_KEY_COLUMNS.COLUMN_POSITION: the fake partitions by one column
		if t.part != nil && t.part.column == c.name {
			partKey = num(1)
		}
		rows = append(rows, []sql.NullString{
			str(c.name), str(dataType), dataLength, charLength, charUsed,
			precision, scale, str(nullable), str(c.comment), pk, num(jsonChecks),
			yes(identity), yes(c.fill == table.FillDefaultOnNull || c.fill == table.FillIdentityOnNull), defaultLength,
			yes(c.fill == table.FillVirtual), yes(c.hidden), generation, partKey, str(db.dependents(t, c.name)),
		})
	}
	return rows
}

// dependents is DescribeTable's DEPENDENTS of column name: the indexes
// on it (not the primary key's), then its check constraints (the fake
// has no other), each KIND"NAME", in name order.
func (db *DB) dependents(t *tbl, name string) string {
	var ixs, cks []string
	for _, ix := range db.tableIndexes(t.qualified()) {
		_, n, _ := strings.Cut(ix.name, ".")
		if n != t.pkName && slices.Contains(ix.columns, name) {
			ixs = append(ixs, `I"`+n+`"`)
		}
	}
	for n, ck := range t.checks {
		if ck.col == name {
			cks = append(cks, `C"`+n+`"`)
		}
	}
	sort.Strings(cks)
	return strings.Join(ixs, "") + strings.Join(cks, "")
}

// describeIndexes answers oraclesql.DescribeIndexes for a table: a row
// per index column, ordered by index owner and name.
func (db *DB) describeIndexes(q string) [][]sql.NullString {
	var rows [][]sql.NullString
	for _, ix := range db.tableIndexes(q) {
		owner, name, _ := strings.Cut(ix.name, ".")
		uniqueness := "NONUNIQUE"
		if ix.unique {
			uniqueness = "UNIQUE"
		}
		for _, c := range ix.columns {
			rows = append(rows, text(owner, name, uniqueness, c))
		}
	}
	return rows
}

// namedIndex is an index and its SCHEMA.NAME.
type namedIndex struct {
	name string
	index
}

// tableIndexes lists the indexes of table q by name, the primary key's
// (named as its constraint) included.
func (db *DB) tableIndexes(q string) []namedIndex {
	t := db.tables[q]
	if t == nil {
		return nil
	}
	var out []namedIndex
	if len(t.pk) > 0 {
		out = append(out, namedIndex{t.schema + "." + t.pkName, index{table: q, columns: t.pk, unique: true}})
	}
	for k, ix := range db.indexes {
		if ix.table == q {
			out = append(out, namedIndex{k, ix})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Indexes lists the indexes of a table (SCHEMA.TABLE) as
// `NAME (COL, …)`, with ` UNIQUE` when unique, the primary key's too.
func (db *DB) Indexes(qualified string) []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	var out []string
	for _, ix := range db.tableIndexes(qualified) {
		_, name, _ := strings.Cut(ix.name, ".")
		s := name + " (" + strings.Join(ix.columns, ", ") + ")"
		if ix.unique {
			s += " UNIQUE"
		}
		out = append(out, s)
	}
	return out
}
