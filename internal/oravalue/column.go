package oravalue

import (
	"strings"
	"unicode/utf8"
)

// Kind is the family of an Oracle column type.
type Kind uint8

const (
	KindNumber    Kind = iota + 1 // NUMBER, NUMBER(p,s)
	KindBoolean                   // BOOLEAN (23ai)
	KindVarchar                   // VARCHAR2, NVARCHAR2
	KindClob                      // CLOB, NCLOB
	KindDate                      // DATE
	KindTimestamp                 // TIMESTAMP(f) [WITH TIME ZONE]
	KindJSON                      // JSON, or CLOB CHECK (… IS JSON) when JSONAsClob
	KindRaw                       // RAW(n)
	KindBlob                      // BLOB
	KindVector                    // VECTOR(n|*, FORMAT)
)

// Vector formats.
const (
	VectorFloat32 = "float32"
	VectorFloat64 = "float64"
	VectorInt8    = "int8"
)

// Column is what the value rules need to know of a column. Values are in
// the loader's stored form (the table package's): canonical decimals,
// "true"/"false", "YYYY-MM-DD", UTC date-times "YYYY-MM-DDTHH:MM:SS[.f]Z",
// compact JSON, padded base64 for bytes; "" is NULL.
type Column struct {
	Schema, Table, Name string // for messages, as Oracle words them

	Kind Kind
	// KindNumber: Precision 0 is unconstrained. BoolNumber is NUMBER(1)
	// with CHECK (c IN (0, 1)).
	Precision, Scale int
	BoolNumber       bool
	// KindVarchar: Length in bytes, or characters with CharSemantics or
	// National; KindRaw: Length in bytes.
	Length        int
	CharSemantics bool
	National      bool
	// KindTimestamp: fractional second digits kept, and WITH TIME ZONE.
	Frac int
	TZ   bool
	// KindJSON: a CLOB with an IS JSON check constraint.
	JSONAsClob bool
	// KindVector: Dim elements (0: any), each of VectorFormat.
	Dim          int
	VectorFormat string

	Nullable bool
}

// path is the column as Oracle's messages name it: "S"."T"."C".
func (c *Column) path() string {
	if c.Schema == "" && c.Table == "" {
		return `"` + c.Name + `"`
	}
	return `"` + c.Schema + `"."` + c.Table + `"."` + c.Name + `"`
}

// NotNull is the error of a NULL for a NOT NULL column.
func NotNull(c *Column) *Error {
	return errorf(1400, "cannot insert NULL into (%s)", c.path())
}

// Assign is what the server does with v, a value in the stored form bound
// the way the Oracle engine binds it (oraclesql: TO_NUMBER(:n),
// TO_BOOLEAN(:n), TO_DATE/TO_TIMESTAMP[_TZ] with the exact format,
// JSON(:n), TO_VECTOR(:n), bare text): the conversion, then NOT NULL, then
// Check. It returns the value the column keeps, in the stored form (v
// itself whenever v is already canonical, without allocating).
//
// For JSON it checks only the text's shape (its first and last bytes), not
// its syntax: the embedded engine's values come from the row builder,
// which writes only valid compact JSON, and a full parse of every document
// would slow the dry run the benchmark measures. The fake's JSONText and
// Check parse fully.
func (c *Column) Assign(v string) (string, *Error) {
	if v == "" {
		if !c.Nullable {
			return "", NotNull(c)
		}
		return "", nil
	}
	// Fast paths for values already in canonical form (the loader's):
	// one scan decides both the conversion and the column's check.
	switch c.Kind {
	case KindNumber:
		if d, sc, ok := canonicalShape(v); ok && d <= maxIntDigits {
			return v, c.numberFits(v, d, sc)
		}
	case KindTimestamp:
		if fastStored(v) {
			if f := max(0, len(v)-21); f > c.Frac {
				return "", errorf(1830, "%q has %d fractional digits, column %s keeps %d", v, f, c.path(), c.Frac)
			}
			return v, nil
		}
	case KindVarchar, KindClob:
		return v, c.check(v, false)
	}
	s, err := c.convert(v)
	if err != nil {
		return "", err
	}
	if err := c.check(s, false); err != nil {
		return "", err
	}
	return s, nil
}

// convert applies the conversion the Oracle engine's bind SQL wraps around
// a value of c's type.
func (c *Column) convert(v string) (string, *Error) {
	switch c.Kind {
	case KindNumber:
		return ToNumber(v)
	case KindBoolean:
		return ToBoolean(v)
	case KindDate:
		return ToDate(v)
	case KindTimestamp:
		return storedTimestamp(v)
	case KindJSON:
		if !jsonShape(v) || c.scalarRefused(v) {
			return "", jsonError(c, v)
		}
		if err := c.uniqueNames(v); err != nil {
			return "", err
		}
		if !c.JSONAsClob {
			return jsonNumbers(v, c) // the JSON type keeps NUMBERs, not number text
		}
	case KindVector:
		if err := ToVector(v); err != nil {
			return "", err
		}
	}
	return v, nil
}

// Check reports whether v, a non-NULL value in the stored form (the
// result of a conversion), fits column c: VARCHAR2 and RAW lengths
// (ORA-12899), NUMBER precision and scale (ORA-01438) and the 0/1 check
// (ORA-02290), fractional seconds (ORA-01830), the IS JSON check
// (ORA-02290), VECTOR dimensions (ORA-51803) and element range
// (ORA-51806).
func (c *Column) Check(v string) *Error { return c.check(v, true) }

func (c *Column) check(v string, fullJSON bool) *Error {
	switch c.Kind {
	case KindVarchar:
		n := len(v)
		if (c.CharSemantics || c.National) && n > c.Length {
			n = utf8.RuneCountInString(v) // never more characters than bytes
		}
		if n > c.Length {
			return errorf(12899, "value too large for column %s (actual: %d, maximum: %d)", c.path(), n, c.Length)
		}
	case KindNumber:
		return c.checkNumber(v)
	case KindTimestamp:
		if f := fracDigits(v); f > c.Frac {
			return errorf(1830, "%q has %d fractional digits, column %s keeps %d", v, f, c.path(), c.Frac)
		}
	case KindJSON:
		if fullJSON && !validJSON(v) || !fullJSON && !jsonShape(v) || c.scalarRefused(v) {
			return jsonError(c, v)
		}
		return c.uniqueNames(v)
	case KindRaw, KindBlob:
		n, ok := base64Len(v)
		if !ok {
			return errorf(1465, "invalid hex number: the value for column %s is not stored bytes", c.path())
		}
		if c.Kind == KindRaw && n > c.Length {
			return errorf(12899, "value too large for column %s (actual: %d, maximum: %d)", c.path(), n, c.Length)
		}
	case KindVector:
		return c.checkVector(v)
	}
	return nil
}

// checkNumber checks a canonical number against NUMBER(p,s): integer
// digits first (Oracle converts to the column's precision before any
// check constraint sees the value), then the 0/1 check of a boolean
// NUMBER(1).
func (c *Column) checkNumber(v string) *Error {
	intDigits, scale := numberShape(v)
	return c.numberFits(v, intDigits, scale)
}

// numberFits is checkNumber of a canonical number of that shape.
func (c *Column) numberFits(v string, intDigits, scale int) *Error {
	if c.Precision > 0 {
		if intDigits > c.Precision-c.Scale {
			return errorf(1438, "value %s larger than specified precision allowed for this column %s", v, c.path())
		}
		if scale > c.Scale && !(c.Scale < 0 && scale == 0 && integerTens(v) >= -c.Scale) {
			return errorf(1438, "value %s would be rounded to scale %d in column %s", v, c.Scale, c.path())
		}
	}
	if c.BoolNumber && v != "0" && v != "1" {
		return errorf(2290, "check constraint violated: %s is not 0 or 1 in column %s", v, c.path())
	}
	return nil
}

// integerTens is the number of trailing zeros of a canonical integer v
// (a large number for 0): the digits a negative scale may round away
// without changing it (1200 fits NUMBER(p,-2) as is).
func integerTens(v string) int {
	v = strings.TrimPrefix(v, "-")
	if v == "0" {
		return 1 << 30
	}
	return len(v) - len(strings.TrimRight(v, "0"))
}

// uniqueNames refuses a document for a native JSON column whose objects
// repeat a member name (dupnames.go): the JSON type cannot hold it as
// sent. A CLOB IS JSON keeps the text (IS JSON allows repeated names).
func (c *Column) uniqueNames(v string) *Error {
	if c.JSONAsClob {
		return nil
	}
	if p := DuplicateName(v); p != nil {
		return duplicateError(p, c.path())
	}
	return nil
}

func duplicateError(path []string, column string) *Error {
	return errorf(40441, "JSON syntax error in column %s: member %q repeats a name of its object (the JSON type holds unique names)",
		column, strings.Join(path, "."))
}

// scalarRefused reports a top-level JSON scalar (v non-empty) for a CLOB
// with an IS JSON check: RFC 4627 JSON only, an object or an array, as
// before Oracle 21c or with COMPATIBLE < 20 (both models of Oracle model
// that; RFC 8259 scalars need 21c with COMPATIBLE >= 20).
func (c *Column) scalarRefused(v string) bool {
	return c.JSONAsClob && v[0] != '{' && v[0] != '['
}

// jsonError is a JSON text v the column refuses: the IS JSON check
// constraint of a CLOB, or the JSON type's parser.
func jsonError(c *Column, v string) *Error {
	if c.scalarRefused(v) {
		return errorf(2290, "check constraint (IS JSON) violated for column %s: a top-level JSON scalar is not JSON "+
			"before Oracle 21c with COMPATIBLE >= 20; to load scalars as JSON text, drop the column's IS JSON check "+
			"(ALTER TABLE … DROP CONSTRAINT …) and mark the column JSON text in its comment (COMMENT ON COLUMN … IS "+
			"'target-oracle:path=[…] json-text'; docs/types.md, \"JSON scalars before 21c\")", c.path())
	}
	if c.JSONAsClob {
		return errorf(2290, "check constraint (IS JSON) violated for column %s", c.path())
	}
	return errorf(40441, "JSON syntax error in column %s", c.path())
}

// fracDigits counts the fractional second digits of a stored date-time.
func fracDigits(ts string) int {
	i := 19 // canonical: YYYY-MM-DDTHH:MM:SS[.fff…]Z
	if len(ts) <= i || ts[i] != '.' {
		i = strings.IndexByte(ts, '.')
	}
	if i < 0 {
		return 0
	}
	n := 0
	for j := i + 1; j < len(ts) && ts[j] >= '0' && ts[j] <= '9'; j++ {
		n++
	}
	return n
}
