package engine

import (
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/table"
)

// ValueColumn describes a column of type t for Oracle's value rules
// (internal/oravalue), which both the embedded engine and the fake Oracle
// apply: the one mapping from the table model's types to them.
func ValueColumn(schema, tableName, name string, t table.Type, nullable bool) oravalue.Column {
	c := oravalue.Column{
		Schema: schema, Table: tableName, Name: name,
		Precision: t.Precision, Scale: t.Scale, BoolNumber: t.BoolNumber,
		Length: t.Length, CharSemantics: t.CharSemantics, National: t.National,
		Frac: t.Frac, TZ: t.TZ,
		JSONAsClob: t.JSONAsClob,
		Dim:        t.Dim, VectorFormat: t.VectorFormat,
		Nullable: nullable,
	}
	switch t.Kind {
	case table.KindNumber:
		c.Kind = oravalue.KindNumber
	case table.KindBoolean:
		c.Kind = oravalue.KindBoolean
	case table.KindVarchar:
		c.Kind = oravalue.KindVarchar
	case table.KindClob:
		c.Kind = oravalue.KindClob
	case table.KindDate:
		c.Kind = oravalue.KindDate
	case table.KindTimestamp:
		c.Kind = oravalue.KindTimestamp
	case table.KindJSON:
		c.Kind = oravalue.KindJSON
		if t.JSONUnchecked { // a plain CLOB: no IS JSON check
			c.Kind, c.JSONAsClob = oravalue.KindClob, false
		}
	case table.KindRaw:
		c.Kind = oravalue.KindRaw
	case table.KindBlob:
		c.Kind = oravalue.KindBlob
	case table.KindVector:
		c.Kind = oravalue.KindVector
	}
	return c
}
