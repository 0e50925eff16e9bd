package tablemap

import (
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Fixed sizes used by the mapping.
const (
	// KeyBudgetBytes is the most bytes the primary key's columns may take
	// together: Oracle's index key limit is about 6,400 bytes with 8 KB
	// blocks (ORA-01450), less some overhead.
	KeyBudgetBytes = 6000
	// timeTextChars is the width of a JSON Schema "time" column.
	timeTextChars = 32
)

// textType is the column for strings of at most maxLen characters (-1:
// unbounded). A bounded string is VARCHAR2(n CHAR) when n ≤ the ceiling:
// the ceiling is compared with n as the SPEC states, although n characters
// may need up to 4n bytes; a value longer than the ceiling in bytes then
// widens the column to CLOB (§5.5). NVARCHAR2 lengths are characters of
// two bytes (AL16UTF16), so its ceiling is half the byte ceiling.
func textType(maxLen int, o *table.Options) table.Type {
	ceil := o.Ceiling()
	if o.National {
		ceil /= 2
	}
	switch {
	case maxLen < 0:
		if o.National {
			return table.Type{Kind: table.KindVarchar, Length: ceil, CharSemantics: true, National: true}
		}
		return table.Type{Kind: table.KindVarchar, Length: ceil}
	case maxLen > ceil:
		return table.Type{Kind: table.KindClob, National: o.National}
	case maxLen == 0: // only "" fits, which is NULL anyway
		maxLen = 1
	}
	return table.Type{Kind: table.KindVarchar, Length: maxLen, CharSemantics: true, National: o.National}
}

// PropertyType maps one property onto its column type (§5.2). Key sizing
// is applied separately by the layout.
func PropertyType(p *schema.Property, o *table.Options) table.Type {
	t := p.Types.NonNull()
	if t == 0 { // {"type":"null"}: always NULL; the cheapest column
		return textType(-1, o)
	}
	if vt, ok := vectorType(p, o); ok {
		return vt
	}
	if t&(schema.Object|schema.Array) != 0 {
		jt := o.JSONType()
		if jt.JSONAsClob && t&^(schema.Object|schema.Array) != 0 {
			// A top-level scalar is not JSON to IS JSON before RFC 8259
			// support (ORA-02290): JSON text in a CLOB without the check.
			jt.JSONUnchecked = true
		}
		return jt
	}
	if p.Format == "x-singer.decimal" && t&^(schema.String|schema.Number|schema.Integer) == 0 {
		return decimalType(p)
	}
	switch t {
	case schema.Integer:
		return table.IntegerType()
	case schema.Number, schema.Number | schema.Integer:
		return decimalType(p)
	case schema.Boolean:
		return o.BoolType()
	case schema.String:
		if bt, ok := binaryType(p, o); ok {
			return bt
		}
		switch p.Format {
		case "date-time":
			return o.TimestampType()
		case "date":
			return table.Type{Kind: table.KindDate}
		case "time":
			return textType(timeTextChars, o)
		}
		return textType(p.MaxLength, o)
	}
	return textType(-1, o) // several scalar types
}

// decimalType is NUMBER, or NUMBER(p,s) for an x-singer.decimal with a
// precision Oracle can hold.
func decimalType(p *schema.Property) table.Type {
	if p.Format != "x-singer.decimal" || p.Precision <= 0 || p.Precision > 38 {
		return table.NumberType()
	}
	return table.Type{Kind: table.KindNumber, Precision: p.Precision, Scale: p.Scale}
}

// keyBytes is the most bytes a value of t takes in an index key.
func keyBytes(t table.Type, ceiling int) int {
	switch t.Kind {
	case table.KindNumber:
		return 22
	case table.KindBoolean:
		return 1
	case table.KindDate:
		return 7
	case table.KindTimestamp:
		if t.TZ {
			return 13
		}
		return 11
	case table.KindVarchar:
		switch {
		case t.National:
			return 2 * t.Length
		case t.CharSemantics:
			return min(4*t.Length, ceiling)
		}
		return t.Length
	case table.KindRaw:
		return t.Length
	}
	return ceiling
}
