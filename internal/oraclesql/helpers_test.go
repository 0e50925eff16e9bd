package oraclesql

import (
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Types used by the fixtures.
var (
	tInt       = table.Type{Kind: table.KindNumber, Precision: 38}
	tDec       = table.Type{Kind: table.KindNumber, Precision: 12, Scale: 2}
	tNum       = table.Type{Kind: table.KindNumber}
	tBoolNum   = table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}
	tBool      = table.Type{Kind: table.KindBoolean}
	tVarChar   = table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}
	tVarByte   = table.Type{Kind: table.KindVarchar, Length: 4000}
	tNVarChar  = table.Type{Kind: table.KindVarchar, Length: 200, CharSemantics: true, National: true}
	tClob      = table.Type{Kind: table.KindClob}
	tNClob     = table.Type{Kind: table.KindClob, National: true}
	tDate      = table.Type{Kind: table.KindDate}
	tTSTZ      = table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}
	tTS9       = table.Type{Kind: table.KindTimestamp, Frac: 9}
	tTS6       = table.Type{Kind: table.KindTimestamp, Frac: 6}
	tJSON      = table.Type{Kind: table.KindJSON}
	tJSONClob  = table.Type{Kind: table.KindJSON, JSONAsClob: true}
	tJSONNClob = table.Type{Kind: table.KindJSON, JSONAsClob: true, National: true}
	tJSONText  = table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true}
)

func prop(name string, t table.Type, path ...string) table.Column {
	if len(path) == 0 {
		path = []string{name}
	}
	return table.Column{Name: name, Type: t, Nullable: true, Role: table.RoleProperty, Source: path}
}

func meta(name string, t table.Type) table.Column {
	return table.Column{Name: name, Type: t, Nullable: true, Role: table.RoleMetadata, Source: []string{strings.ToLower(name)}}
}

func key(name string, t table.Type) table.Column {
	c := prop(name, t)
	c.Nullable = false
	return c
}

// allTypes is a table with a column of every type the target creates.
func allTypes() *table.Table {
	return &table.Table{
		Schema: "SHOP",
		Name:   "ORDERS",
		Columns: []table.Column{
			key("ID", tInt),
			prop("AMOUNT", tDec),
			prop("RATIO", tNum),
			prop("PAID", tBoolNum),
			prop("IS_GIFT", tBool),
			prop("NAME", tVarChar),
			prop("CODE", tVarByte),
			prop("NOTE_N", tNVarChar),
			prop("BODY", tClob),
			prop("BODY_N", tNClob),
			prop("ORDERED_ON", tDate),
			prop("CREATED_AT", tTSTZ),
			prop("LOCAL_TS", tTS9),
			prop("ATTRS", tJSON),
			prop("TAGS", tJSONClob),
			meta("_SDC_LOADED_AT", tTSTZ),
			meta("_SDC_DELETED_AT", tTSTZ),
			meta("_SDC_TABLE_VERSION", tInt),
		},
		PrimaryKey: []string{"ID"},
	}
}

// small is a table with one key, a few properties and metadata.
func small() *table.Table {
	c := prop("NOTE", tVarChar)
	c.Comment = "Customer's note; free text"
	return &table.Table{
		Schema: "SHOP",
		Name:   "CUSTOMERS",
		Columns: []table.Column{
			key("ID", tInt),
			c,
			prop("BODY", tClob),
			prop("CITY", tVarChar, "address", "city"),
			meta("_SDC_LOADED_AT", tTSTZ),
			meta("_SDC_DELETED_AT", tTSTZ),
			meta("_SDC_TABLE_VERSION", tInt),
		},
		PrimaryKey: []string{"ID"},
		Indexes: []table.Index{
			{Name: "CUSTOMERS_CITY_IX", Columns: []string{"CITY"}},
			{Name: "CUSTOMERS_NOTE_UX", Columns: []string{"NOTE", "CITY"}, Unique: true},
		},
	}
}

// odd has reserved words, lower case, spaces and an apostrophe in names,
// in the login user's own schema.
func odd() *table.Table {
	return &table.Table{
		Name: "select",
		Columns: []table.Column{
			key("from", tVarChar),
			key("Order ID", tInt),
			prop("o'brien", tVarChar),
			prop("payload", tJSONClob),
			prop("ROWNUM_", tBoolNum),
		},
		PrimaryKey: []string{"from", "Order ID"},
	}
}

// withColumn returns t with column c appended (an AddColumn or Migrate
// result) or replaced in place (WidenInPlace).
func withColumn(t *table.Table, c table.Column, atEnd bool) *table.Table {
	n := t.Clone()
	for i := range n.Columns {
		if n.Columns[i].Name == c.Name {
			if atEnd {
				n.Columns = append(n.Columns[:i], n.Columns[i+1:]...)
				break
			}
			n.Columns[i] = c
			return n
		}
	}
	n.Columns = append(n.Columns, c)
	return n
}

func change(t *table.Table, kind table.ChangeKind, col string, from, to table.Type) engine.Change {
	return engine.Change{Table: t, Change: table.Change{Kind: kind, Column: col, From: from, To: to}}
}

// migrateChange is the Migrate of column col of base from → to.
func migrateChange(base *table.Table, col string, from, to table.Type) engine.Change {
	c := *base.Column(col)
	c.Type = to
	return change(withColumn(base, c, true), table.Migrate, col, from, to)
}

// widenChange is the WidenInPlace of column col of base from → to.
func widenChange(base *table.Table, col string, from, to table.Type) engine.Change {
	c := *base.Column(col)
	c.Type = to
	return change(withColumn(base, c, false), table.WidenInPlace, col, from, to)
}

func names(t *table.Table) []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

// rows makes one row per kind with placeholder values.
func rows(n int, kinds ...engine.RowKind) []engine.Row {
	out := make([]engine.Row, len(kinds))
	for i, k := range kinds {
		out[i] = engine.Row{Kind: k, Line: int64(i + 1), Values: make([]string, n)}
	}
	return out
}

func write(t *table.Table, m engine.Method, kinds ...engine.RowKind) *engine.Write {
	cols := names(t)
	return &engine.Write{
		Table:           t,
		Method:          m,
		Columns:         cols,
		Rows:            rows(len(cols), kinds...),
		DatabaseTime:    table.MetaLoadedAt,
		MetadataColumns: []string{table.MetaLoadedAt, table.MetaDeletedAt, table.MetaTableVersion},
		KeyColumns:      t.PrimaryKey,
	}
}
