package oracle

import (
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Columns of oraclesql.DescribeTable's rows.
const (
	colName = iota
	colDataType
	colDataLength
	colCharLength
	colCharUsed
	colPrecision
	colScale
	colNullable
	colComments
	colPKPosition
	colJSONChecks
	colIdentity
	colDefaultOnNull
	colDefaultLength
	colVirtual
	colHidden
	colIdentityGeneration
	colPartKeyPosition
	colDependents
	describeColumns
)

// tableFromCatalog builds the table of schema.name from the rows of
// oraclesql.DescribeTable; nil when there are none (no such table).
func tableFromCatalog(schema, name string, rows [][]sql.NullString) (*table.Table, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	// Indexes are read only for a table with custom indexes
	// (Engine.Indexes).
	t := &table.Table{Schema: schema, Name: name, IndexesUnread: true}
	type pk struct {
		pos  int
		name string
	}
	var keys, partKeys []pk
	for _, r := range rows {
		if len(r) < describeColumns {
			return nil, fmt.Errorf("catalog row of %d values, want %d", len(r), describeColumns)
		}
		typ, err := typeFromCatalog(r)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", r[colName].String, err)
		}
		fill, err := fillFromCatalog(r)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", r[colName].String, err)
		}
		c := table.Column{Name: r[colName].String, Type: typ, Nullable: r[colNullable].String != "N",
			Fill: fill, Hidden: r[colHidden].String == "YES"}
		if role, src, desc, ok := table.ParseComment(r[colComments].String); ok {
			c.Role, c.Source, c.Comment = role, src, desc
			if f, ok := table.ParseMarkerFacts(r[colComments].String); ok && role == table.RoleMigration {
				c.Marker = &f
			}
		} else {
			c.Comment = r[colComments].String
		}
		if c.Dependents, err = dependentsFromCatalog(r[colDependents].String); err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		t.Columns = append(t.Columns, c)
		if r[colPKPosition].Valid {
			p, err := strconv.Atoi(r[colPKPosition].String)
			if err != nil {
				return nil, fmt.Errorf("column %s: primary key position %q: %w", c.Name, r[colPKPosition].String, err)
			}
			keys = append(keys, pk{p, c.Name})
		}
		if r[colPartKeyPosition].Valid {
			p, err := strconv.Atoi(r[colPartKeyPosition].String)
			if err != nil {
				return nil, fmt.Errorf("column %s: partitioning key position %q: %w", c.Name, r[colPartKeyPosition].String, err)
			}
			partKeys = append(partKeys, pk{p, c.Name})
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].pos < keys[j].pos })
	for _, k := range keys {
		t.PrimaryKey = append(t.PrimaryKey, k.name)
	}
	sort.Slice(partKeys, func(i, j int) bool { return partKeys[i].pos < partKeys[j].pos })
	for _, k := range partKeys {
		if t.Partition == nil {
			t.Partition = &table.Partition{Column: k.name, Source: virtualKeySource(t, k.name)}
			continue
		}
		t.Partition.More = append(t.Partition.More, k.name)
	}
	return t, nil
}

// virtualKeySource is the WITH TIME ZONE column whose UTC instant the
// virtual partitioning column key is, when key is the virtual column the
// target makes for one (table.DerivedName(column, "$P"), at either
// identifier limit); "" otherwise. Oracle refuses to change the type of
// a column a virtual column uses (ORA-54031), so a run must not widen it
// either. Only the name tells: the virtual column's expression is the LONG
// DATA_DEFAULT, which describe never reads. Partition.Frac and Interval
// stay unknown (zero) for a table read from the catalog: they matter only
// to a CREATE TABLE and to the embedded engine's model.
func virtualKeySource(t *table.Table, key string) string {
	k := t.Column(key)
	if k == nil || k.Fill != table.FillVirtual {
		return ""
	}
	for _, c := range t.Columns {
		if c.Type.Kind != table.KindTimestamp || !c.Type.TZ {
			continue
		}
		for _, max := range []int{table.MaxBytesShort, table.MaxBytesLong} {
			if table.DerivedName(c.Name, "$P", max) == key {
				return c.Name
			}
		}
	}
	return ""
}

// dependentsFromCatalog reads DescribeTable's DEPENDENTS: KIND"NAME"
// items, one after the other (a name holds no double quote).
func dependentsFromCatalog(s string) ([]table.Dependent, error) {
	var out []table.Dependent
	for s != "" {
		kind, rest, ok := strings.Cut(s, `"`)
		name, after, closed := strings.Cut(rest, `"`)
		if !ok || !closed || len(kind) != 1 {
			return nil, fmt.Errorf("dependents %q", s)
		}
		d := table.Dependent{Name: name}
		switch kind {
		case "I":
			d.Kind = table.DependentIndex
		case "U":
			d.Kind = table.DependentUnique
		case "C":
			d.Kind = table.DependentCheck
		case "R":
			d.Kind = table.DependentForeignKey
		case "F":
			d.Kind = table.DependentReferenced
		default:
			return nil, fmt.Errorf("dependent of kind %q", kind)
		}
		out = append(out, d)
		s = after
	}
	return out, nil
}

// fillFromCatalog reads what the database puts into a column left out of
// a statement (SPEC §5.5) from ALL_TAB_COLS' flags: virtual first, then
// identity (ALWAYS unless ALL_TAB_IDENTITY_COLS says BY DEFAULT: a value
// bound to an ALWAYS column fails every row), then DEFAULT ON NULL, then a
// DEFAULT (DEFAULT_LENGTH > 0; the LONG DATA_DEFAULT is never read).
func fillFromCatalog(r []sql.NullString) (table.Fill, error) {
	yes := func(i int) bool { return r[i].String == "YES" }
	switch {
	case yes(colVirtual):
		return table.FillVirtual, nil
	case yes(colIdentity):
		switch {
		case r[colIdentityGeneration].String != "BY DEFAULT":
			return table.FillIdentityAlways, nil
		case yes(colDefaultOnNull):
			return table.FillIdentityOnNull, nil
		}
		return table.FillIdentity, nil
	case yes(colDefaultOnNull):
		return table.FillDefaultOnNull, nil
	case r[colDefaultLength].Valid:
		n, err := strconv.Atoi(r[colDefaultLength].String)
		if err != nil {
			return 0, fmt.Errorf("default length %q: %w", r[colDefaultLength].String, err)
		}
		if n > 0 {
			return table.FillDefault, nil
		}
	}
	return table.FillNone, nil
}

// typeFromCatalog maps one ALL_TAB_COLS row to the type the target
// would have created: equal types compare equal, so that reconciling an
// unchanged table asks for no change. A type the target never creates
// (FLOAT, LONG RAW, BFILE, …) maps to the zero Type: the table may keep such
// columns, but a stream cannot write them.
func typeFromCatalog(r []sql.NullString) (table.Type, error) {
	num := func(v sql.NullString) (int, error) {
		if !v.Valid {
			return 0, nil
		}
		return strconv.Atoi(v.String)
	}
	dataType := r[colDataType].String
	switch {
	case dataType == "NUMBER":
		p, err := num(r[colPrecision])
		if err != nil {
			return table.Type{}, fmt.Errorf("precision: %w", err)
		}
		s, err := num(r[colScale])
		if err != nil {
			return table.Type{}, fmt.Errorf("scale: %w", err)
		}
		switch {
		case !r[colPrecision].Valid && r[colScale].Valid && s == 0:
			return table.Type{Kind: table.KindNumber, Precision: 38}, nil // NUMBER(*,0), INTEGER
		case !r[colPrecision].Valid && r[colScale].Valid:
			// NUMBER(*,s): precision 38 with that scale; Oracle rounds
			// values to it, so it must not be read as unconstrained.
			return table.Type{Kind: table.KindNumber, Precision: 38, Scale: s}, nil
		case !r[colPrecision].Valid:
			return table.Type{Kind: table.KindNumber}, nil
		case p == 1 && s == 0:
			return table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}, nil
		}
		return table.Type{Kind: table.KindNumber, Precision: p, Scale: s}, nil
	case dataType == "BOOLEAN":
		return table.Type{Kind: table.KindBoolean}, nil
	case dataType == "VARCHAR2":
		if r[colCharUsed].String == "C" {
			n, err := num(r[colCharLength])
			return table.Type{Kind: table.KindVarchar, Length: n, CharSemantics: true}, err
		}
		n, err := num(r[colDataLength])
		return table.Type{Kind: table.KindVarchar, Length: n}, err
	case dataType == "NVARCHAR2":
		n, err := num(r[colCharLength])
		return table.Type{Kind: table.KindVarchar, Length: n, CharSemantics: true, National: true}, err
	case dataType == "CLOB", dataType == "NCLOB":
		national := dataType == "NCLOB"
		if checks, _ := num(r[colJSONChecks]); checks > 0 {
			return table.Type{Kind: table.KindJSON, JSONAsClob: true, National: national}, nil
		}
		if table.CommentJSONText(r[colComments].String) {
			return table.Type{Kind: table.KindJSON, JSONAsClob: true, JSONUnchecked: true, National: national}, nil
		}
		return table.Type{Kind: table.KindClob, National: national}, nil
	case dataType == "JSON":
		return table.Type{Kind: table.KindJSON}, nil
	case dataType == "DATE":
		return table.Type{Kind: table.KindDate}, nil
	case dataType == "RAW", dataType == "BLOB", dataType == "VECTOR":
		return nativeFromCatalog(dataType, r[colDataLength])
	case strings.HasPrefix(dataType, "TIMESTAMP("):
		rest := strings.TrimPrefix(dataType, "TIMESTAMP(")
		digits, zone, ok := strings.Cut(rest, ")")
		f, err := strconv.Atoi(digits)
		if !ok || err != nil {
			return table.Type{}, fmt.Errorf("data type %q", dataType)
		}
		switch zone {
		case "":
			return table.Type{Kind: table.KindTimestamp, Frac: f}, nil
		case " WITH TIME ZONE":
			return table.Type{Kind: table.KindTimestamp, Frac: f, TZ: true}, nil
		}
	}
	return table.Type{}, nil
}
