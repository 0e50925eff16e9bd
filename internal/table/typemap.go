package table

import (
	"strconv"

	"github.com/target-oracle/target-oracle/internal/schema"
)

// Fixed sizes used by the mapping.
const (
	DefaultVarcharMaxBytes = 4000
	// KeyBudgetBytes is the most bytes the primary key's columns may take
	// together: Oracle's index key limit is about 6,400 bytes with 8 KB
	// blocks (ORA-01450), less some overhead.
	KeyBudgetBytes = 6000
	// MaxColumns is Oracle's limit of columns per table;
	// MaxColumnsExtended is 23ai's with MAX_COLUMNS=EXTENDED.
	MaxColumns         = 1000
	MaxColumnsExtended = 4096
	// timeTextChars is the width of a JSON Schema "time" column.
	timeTextChars = 32
)

// String renders the bare Oracle data type, as the dump's tables.json and
// DDL use it: NUMBER(38,0), NUMBER, NUMBER(1), VARCHAR2(4000 BYTE),
// VARCHAR2(36 CHAR), NVARCHAR2(100), CLOB, NCLOB, DATE,
// TIMESTAMP(6) WITH TIME ZONE, TIMESTAMP(9), BOOLEAN, JSON. A JSON column
// stored as CLOB renders as CLOB (its IS JSON check is a constraint, not
// part of the type).
func (t Type) String() string {
	switch t.Kind {
	case KindNumber:
		switch {
		case t.BoolNumber:
			return "NUMBER(1)"
		case t.Precision == 0:
			return "NUMBER"
		}
		return "NUMBER(" + strconv.Itoa(t.Precision) + "," + strconv.Itoa(t.Scale) + ")"
	case KindBoolean:
		return "BOOLEAN"
	case KindVarchar:
		n := strconv.Itoa(t.Length)
		switch {
		case t.National:
			return "NVARCHAR2(" + n + ")"
		case t.CharSemantics:
			return "VARCHAR2(" + n + " CHAR)"
		}
		return "VARCHAR2(" + n + " BYTE)"
	case KindClob:
		if t.National {
			return "NCLOB"
		}
		return "CLOB"
	case KindDate:
		return "DATE"
	case KindTimestamp:
		s := "TIMESTAMP(" + strconv.Itoa(t.Frac) + ")"
		if t.TZ {
			s += " WITH TIME ZONE"
		}
		return s
	case KindJSON:
		if !t.JSONAsClob {
			return "JSON"
		}
		if t.National {
			return "NCLOB"
		}
		return "CLOB"
	case KindRaw, KindBlob, KindVector:
		return t.nativeString()
	}
	return "UNKNOWN"
}

// IsLOB reports whether t is stored as a LOB (or JSON or VECTOR), which
// Oracle does not allow in a primary key.
func (t Type) IsLOB() bool {
	return t.Kind == KindClob || t.Kind == KindJSON || t.Kind == KindBlob || t.Kind == KindVector
}

// isText reports whether values of t are stored as plain text.
func (t Type) isText() bool { return t.Kind == KindVarchar || t.Kind == KindClob }

// isBool reports whether t holds booleans (NUMBER(1) or BOOLEAN).
func (t Type) isBool() bool {
	return t.Kind == KindBoolean || (t.Kind == KindNumber && t.BoolNumber)
}

// Column types the mapping produces.
func typeInteger() Type { return Type{Kind: KindNumber, Precision: 38} }
func typeNumber() Type  { return Type{Kind: KindNumber} }

func (o *Options) ceiling() int {
	if o.VarcharMaxBytes <= 0 {
		return DefaultVarcharMaxBytes
	}
	return o.VarcharMaxBytes
}

func (o *Options) boolType() Type {
	if o.BooleanNative {
		return Type{Kind: KindBoolean}
	}
	return Type{Kind: KindNumber, Precision: 1, BoolNumber: true}
}

func (o *Options) jsonType() Type {
	return Type{Kind: KindJSON, JSONAsClob: !o.JSONNative, National: o.National && !o.JSONNative}
}

// timestampType is the type of date-time and metadata time columns.
func (o *Options) timestampType() Type {
	return Type{Kind: KindTimestamp, Frac: 6, TZ: o.TimestampTZ}
}

// textType is the column for strings of at most maxLen characters (-1:
// unbounded). A bounded string is VARCHAR2(n CHAR) when n ≤ the ceiling:
// the ceiling is compared with n as the SPEC states, although n characters
// may need up to 4n bytes; a value longer than the ceiling in bytes then
// widens the column to CLOB (§5.5). NVARCHAR2 lengths are characters of
// two bytes (AL16UTF16), so its ceiling is half the byte ceiling.
func textType(maxLen int, o *Options) Type {
	ceil := o.ceiling()
	if o.National {
		ceil /= 2
	}
	switch {
	case maxLen < 0:
		if o.National {
			return Type{Kind: KindVarchar, Length: ceil, CharSemantics: true, National: true}
		}
		return Type{Kind: KindVarchar, Length: ceil}
	case maxLen > ceil:
		return Type{Kind: KindClob, National: o.National}
	case maxLen == 0: // only "" fits, which is NULL anyway
		maxLen = 1
	}
	return Type{Kind: KindVarchar, Length: maxLen, CharSemantics: true, National: o.National}
}

// PropertyType maps one property onto its column type (§5.2). Key sizing
// is applied separately by the layout.
func PropertyType(p *schema.Property, o *Options) Type {
	t := p.Types.NonNull()
	if t == 0 { // {"type":"null"}: always NULL; the cheapest column
		return textType(-1, o)
	}
	if vt, ok := vectorType(p, o); ok {
		return vt
	}
	if t&(schema.Object|schema.Array) != 0 {
		return o.jsonType()
	}
	if p.Format == "x-singer.decimal" && t&^(schema.String|schema.Number|schema.Integer) == 0 {
		return decimalType(p)
	}
	switch t {
	case schema.Integer:
		return typeInteger()
	case schema.Number, schema.Number | schema.Integer:
		return decimalType(p)
	case schema.Boolean:
		return o.boolType()
	case schema.String:
		if bt, ok := binaryType(p, o); ok {
			return bt
		}
		switch p.Format {
		case "date-time":
			return o.timestampType()
		case "date":
			return Type{Kind: KindDate}
		case "time":
			return textType(timeTextChars, o)
		}
		return textType(p.MaxLength, o)
	}
	return textType(-1, o) // several scalar types
}

// decimalType is NUMBER, or NUMBER(p,s) for an x-singer.decimal with a
// precision Oracle can hold.
func decimalType(p *schema.Property) Type {
	if p.Format != "x-singer.decimal" || p.Precision <= 0 || p.Precision > 38 {
		return typeNumber()
	}
	return Type{Kind: KindNumber, Precision: p.Precision, Scale: p.Scale}
}

// keyBytes is the most bytes a value of t takes in an index key.
func keyBytes(t Type, ceiling int) int {
	switch t.Kind {
	case KindNumber:
		return 22
	case KindBoolean:
		return 1
	case KindDate:
		return 7
	case KindTimestamp:
		if t.TZ {
			return 13
		}
		return 11
	case KindVarchar:
		switch {
		case t.National:
			return 2 * t.Length
		case t.CharSemantics:
			return min(4*t.Length, ceiling)
		}
		return t.Length
	case KindRaw:
		return t.Length
	}
	return ceiling
}

// numberTextBytes is the longest canonical text of a value of a NUMBER
// type: sign, integer digits, point and fraction digits. Unconstrained
// NUMBER holds magnitudes from 1e-130 to below 1e126 with 38 significant
// digits, so its longest text is "-0." followed by 129 zeros and 38 digits.
func numberTextBytes(t Type) int {
	if t.Precision == 0 {
		return 3 + 129 + 38
	}
	intDigits := max(t.Precision-t.Scale, 1)
	if t.Scale <= 0 {
		return 1 + intDigits
	}
	return 1 + intDigits + 1 + t.Scale
}

// scalarTextBytes is the longest text a non-text scalar type's values
// get when they land in a text column.
func scalarTextBytes(t Type) int {
	if t.isBool() {
		return len("false")
	}
	switch t.Kind {
	case KindNumber:
		return numberTextBytes(t)
	case KindDate:
		return len("2006-01-02")
	case KindTimestamp:
		return len("2006-01-02T15:04:05.") + 9 + 1
	}
	return 0
}
