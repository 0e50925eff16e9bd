package oravalue

import "unsafe"

// Kept reports, by a test cheaper than Assign, that Assign(v) would return
// v itself and no error: the loader's common values (NULL in a nullable
// column, a short text, a plain
// integer within the column's precision, a boolean, compact JSON, a
// canonical UTC date-time within the column's fractional digits). When it
// reports false, nothing is decided: the caller asks Assign, which also
// words the error. TestKeptAgreesWithAssign holds it to Assign on
// generated values.
func (c *Column) Kept(v string) bool {
	k := c.Keeper()
	return k.Kept(v)
}

// Keeper is Kept for one column with the column's shape looked at once:
// the embedded engine checks every value it loads, so this is its
// per-value hot path. Build it with Column.Keeper for each column of a
// write and ask it about each row's value. It remembers the last
// date-time it kept (a batch's metadata times are one string repeated row
// after row), so one Keeper serves one goroutine.
type Keeper struct {
	op    keepOp
	null  bool   // NULL ("") is kept: the column is nullable
	bool1 bool   // a boolean NUMBER(1): only 0 and 1
	limit int    // text: bytes; number: integer digits; timestamp: fractional digits
	scale int    // number: fractional digits
	last  string // timestamp: the last value kept
}

type keepOp uint8

const (
	keepNone          keepOp = iota // Assign decides every value
	keepText                        // VARCHAR2: within limit bytes
	keepAny                         // CLOB: any text
	keepNumber                      // canonical decimal within limit integer digits and scale
	keepBoolean                     // "true" or "false"
	keepJSON                        // compact JSON's shape
	keepJSONContainer               // compact JSON's shape, an object or an array at the top
	keepTimestamp                   // canonical UTC date-time within limit fractional digits
)

// Keeper returns c's Kept test.
func (c *Column) Keeper() Keeper {
	k := c.keeper()
	k.null = k.op != keepNone && c.Nullable
	return k
}

func (c *Column) keeper() Keeper {
	switch c.Kind {
	case KindVarchar:
		// Never more characters than bytes: a value within the length in
		// bytes fits whatever the length semantics.
		if c.Length < 0 {
			return Keeper{}
		}
		return Keeper{op: keepText, limit: c.Length}
	case KindClob:
		return Keeper{op: keepAny}
	case KindNumber:
		k := Keeper{op: keepNumber, limit: maxIntDigits, scale: maxNumberText, bool1: c.BoolNumber}
		if c.Precision > 0 {
			if c.Scale < 0 || c.Scale > c.Precision || c.Precision > 38 {
				return Keeper{} // odd precisions and scales are left to Assign
			}
			k.limit, k.scale = min(c.Precision-c.Scale, maxIntDigits), c.Scale
		}
		return k
	case KindBoolean:
		return Keeper{op: keepBoolean}
	case KindJSON:
		if c.JSONAsClob {
			return Keeper{op: keepJSONContainer} // IS JSON before RFC 8259: no top-level scalar (scalarRefused)
		}
		return Keeper{op: keepJSON}
	case KindTimestamp:
		return Keeper{op: keepTimestamp, limit: c.Frac}
	}
	return Keeper{}
}

// maxNumberText bounds the scale of an unconstrained NUMBER's value: no
// text is longer (the scale is never more than the value's length).
const maxNumberText = int(^uint(0) >> 1)

// Kept is Column.Kept of the Keeper's column. The text case, the most
// common, is decided here (inlined into the caller's loop).
func (k *Keeper) Kept(v string) bool {
	if k.op == keepText && uint(len(v))-1 < uint(k.limit) { // 0 < len(v) <= limit
		return true
	}
	return k.kept(v)
}

func (k *Keeper) kept(v string) bool {
	if v == "" {
		return k.null // NULL: kept in a nullable column, else Assign words ORA-01400
	}
	switch k.op {
	case keepAny:
		return true
	case keepNumber:
		return k.keptNumber(v)
	case keepBoolean:
		return v == "true" || v == "false"
	case keepJSON:
		return jsonShape(v) && jsonNumbersKept(v) // the JSON type keeps NUMBERs (jsonnumbers.go)
	case keepJSONContainer:
		return (v[0] == '{' || v[0] == '[') && jsonShape(v)
	case keepTimestamp:
		if len(v) == len(k.last) && unsafe.StringData(v) == unsafe.StringData(k.last) {
			return true // the very string kept last (a batch's metadata time): no bytes compared
		}
		if fastStored(v) && max(0, len(v)-21) <= k.limit {
			k.last = v
			return true
		}
	}
	return false
}

// KeptPrefix returns how many of vs, from the first, Kept keeps: vs[n],
// when n < len(vs), is the first value it does not. One loop per kind of
// column, for a column's values gathered from a batch's rows.
func (k *Keeper) KeptPrefix(vs []string) int {
	switch k.op {
	case keepText:
		limit := uint(k.limit)
		for i, v := range vs {
			if uint(len(v))-1 >= limit && (v != "" || !k.null) {
				return i
			}
		}
	case keepNumber:
		for i, v := range vs {
			if v == "" && k.null {
				continue
			}
			if v == "" || !k.keptNumber(v) {
				return i
			}
		}
	default:
		for i := range vs {
			if !k.kept(vs[i]) {
				return i
			}
		}
	}
	return len(vs)
}

// keptNumber is Kept for NUMBER: a canonical decimal,
// -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])? but not "-0", whose integer digits and
// scale the column holds (and 0 or 1 for a boolean NUMBER(1)), in one scan.
func (k *Keeper) keptNumber(v string) bool {
	s := v
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	if s[0] == '0' {
		// "0" or "0.f": no integer digits.
		if len(s) == 1 {
			return len(v) == 1 // "-0": Assign makes it "0"
		}
		return s[1] == '.' && !k.bool1 && k.fraction(s[2:])
	}
	i := 0
	for i < len(s) && s[i]-'0' <= 9 {
		i++
	}
	if i == 0 || i > k.limit {
		return false
	}
	if i == len(s) {
		return !k.bool1 || v == "1"
	}
	return s[i] == '.' && !k.bool1 && k.fraction(s[i+1:])
}

// fraction reports whether f, the digits after a number's point, are
// canonical ([0-9]*[1-9]) and within the scale.
func (k *Keeper) fraction(f string) bool {
	if f == "" || len(f) > k.scale || f[len(f)-1] == '0' {
		return false
	}
	for i := 0; i < len(f); i++ {
		if f[i]-'0' > 9 {
			return false
		}
	}
	return true
}
