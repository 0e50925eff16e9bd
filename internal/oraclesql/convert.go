package oraclesql

import (
	"fmt"

	"github.com/target-oracle/target-oracle/internal/table"
)

// convertExpr returns the SQL expression that converts x, a non-NULL value
// of a column of type from, into a value of type to with exactly what a
// new value of type to would get (SPEC §5.5, table.MigrateValue):
//
//   - to text: numbers as canonical plain decimals, booleans 'true' and
//     'false', DATE 'YYYY-MM-DD', timestamps in UTC as
//     'YYYY-MM-DDTHH:MM:SS[.f]Z' with trailing fractional zeros trimmed,
//     text and CLOB JSON as they are, native JSON through JSON_SERIALIZE;
//   - BOOLEAN to NUMBER: 1 and 0;
//   - DATE to TIMESTAMP: midnight (UTC for WITH TIME ZONE).
//
// The result is never NULL for a non-NULL x, which the chunked copy needs
// to end. Pairs the widening lattice never produces are errors.
func convertExpr(from, to table.Type, x string) (string, error) {
	switch {
	case isText(to):
		e, err := textOf(from, x)
		if err != nil {
			return "", fmt.Errorf("%s to %s: %w", from, to, err)
		}
		return wrapText(to, e), nil
	case to.Kind == table.KindNumber && !to.BoolNumber && from.Kind == table.KindBoolean:
		return "CASE WHEN " + x + " THEN 1 ELSE 0 END", nil
	case to.Kind == table.KindBlob && from.Kind == table.KindRaw:
		return "TO_BLOB(" + x + ")", nil
	case to.Kind == table.KindTimestamp && from.Kind == table.KindDate:
		if to.TZ {
			return "FROM_TZ(CAST(" + x + " AS TIMESTAMP), '+00:00')", nil
		}
		return "CAST(" + x + " AS TIMESTAMP)", nil
	}
	return "", fmt.Errorf("no exact conversion from %s to %s", from, to)
}

// isText reports whether t stores plain text (VARCHAR2, NVARCHAR2, CLOB,
// NCLOB, but not a CLOB with an IS JSON check).
func isText(t table.Type) bool { return t.Kind == table.KindVarchar || t.Kind == table.KindClob }

// wrapText converts a character expression to the character type to,
// explicitly rather than by assignment.
func wrapText(to table.Type, e string) string {
	switch {
	case to.Kind == table.KindClob && to.National:
		return "TO_NCLOB(" + e + ")"
	case to.Kind == table.KindClob:
		return "TO_CLOB(" + e + ")"
	case to.National:
		return "TO_NCHAR(" + e + ")"
	}
	return e
}

// textOf is the canonical text of x, a value of type from.
func textOf(from table.Type, x string) (string, error) {
	switch from.Kind {
	case table.KindVarchar, table.KindClob:
		return x, nil
	case table.KindJSON:
		if from.JSONAsClob {
			return x, nil
		}
		// Compact JSON text of the OSON value. Oracle normalises what it
		// stores in native JSON (numbers, duplicate keys), so this is the
		// value's compact form, not necessarily the text first received.
		return "JSON_SERIALIZE(" + x + " RETURNING CLOB)", nil
	case table.KindBoolean:
		return "CASE WHEN " + x + " THEN 'true' ELSE 'false' END", nil
	case table.KindRaw:
		// The base16 text in capitals (table.MigrateValue); at most
		// 2 × 2000 = 4000 characters, or 65534 with EXTENDED, where only
		// a RAW of at most 16383 bytes fits the 32767 of SQL text.
		if from.Length > table.RawMaxBytesExtended/2 {
			return "", fmt.Errorf("a RAW of more than %d bytes has no base16 text in SQL", table.RawMaxBytesExtended/2)
		}
		return "RAWTOHEX(" + x + ")", nil
	case table.KindNumber:
		if from.BoolNumber {
			// A value other than 0/1 (an adopted column without the check)
			// keeps its number text rather than becoming NULL.
			return "CASE " + x + " WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE TO_CHAR(" + x + ") END", nil
		}
		return numberText(from, x), nil
	case table.KindDate:
		// The target stores dates at midnight; an adopted DATE with a time
		// of day keeps it.
		return "CASE WHEN " + x + " = TRUNC(" + x + ") THEN TO_CHAR(" + x + ", 'YYYY-MM-DD')" +
			" ELSE TO_CHAR(" + x + ", 'YYYY-MM-DD\"T\"HH24:MI:SS') END", nil
	case table.KindTimestamp:
		u := x
		if from.TZ {
			u = "SYS_EXTRACT_UTC(" + x + ")"
		}
		// '.' always precedes FF9, so trimming zeros stops there at the
		// latest, and a bare '.' is trimmed next.
		return "RTRIM(RTRIM(TO_CHAR(" + u + ", 'YYYY-MM-DD\"T\"HH24:MI:SS.FF9'), '0'), '.') || 'Z'", nil
	}
	return "", fmt.Errorf("no canonical text for %s", from)
}

// nlsNumeric makes TO_CHAR use '.' whatever the session says.
const nlsNumeric = `'NLS_NUMERIC_CHARACTERS=''.,'''`

// numberText is the canonical plain decimal of x: no exponent, no
// trailing fractional zeros, a 0 before a leading '.'.
//
// TO_CHAR(x, 'TM9') gives the shortest fixed notation ('.5', '-.5',
// '123', '1.25') unless that needs more than 64 characters; then it gives
// scientific notation. A constrained NUMBER(p,s) whose text always fits
// uses TM9 alone with the 0 restored. Any other NUMBER falls back, when
// TM9 chose scientific notation, to rebuilding the plain decimal from
// TO_CHAR(x, 'TME'): its mantissa digits and exponent. Such a number has
// at most 40 digits and needs more than 64 characters, so either its
// exponent is negative (0.000…digits) or it is an integer (digits
// followed by zeros); a point inside the digits cannot occur.
func numberText(t table.Type, x string) string {
	tm9 := "TO_CHAR(" + x + ", 'TM9', " + nlsNumeric + ")"
	fixed := "REGEXP_REPLACE(" + tm9 + ", '^(-?)\\.', '\\10.')"
	if t.Precision > 0 && numberTextFits(t) {
		return fixed
	}
	// Only digits and the exponent's sign are read from TME, so its
	// decimal character does not matter.
	tme := "TO_CHAR(" + x + ", 'TME')"
	digits := "REGEXP_REPLACE(REGEXP_SUBSTR(" + tme + ", '^[^E]+'), '[^0-9]')"
	exp := "TO_NUMBER(REGEXP_SUBSTR(" + tme + ", '[-+][0-9]+$'))"
	sign := "DECODE(SIGN(" + x + "), -1, '-')"
	return "CASE WHEN INSTR(" + tm9 + ", 'E') = 0 THEN " + fixed +
		" WHEN " + exp + " < 0 THEN " + sign + " || '0.' || LPAD(" + digits + ", LENGTH(" + digits + ") - " + exp + " - 1, '0')" +
		" ELSE " + sign + " || RPAD(" + digits + ", " + exp + " + 1, '0') END"
}

// numberTextFits reports whether every value of NUMBER(p,s) prints in at
// most 64 characters in fixed notation (sign, digits, point and the
// leading zeros of a scale larger than the precision).
func numberTextFits(t table.Type) bool {
	n := 1 + max(t.Precision, t.Scale) + 2
	if t.Scale < 0 {
		n = 1 + t.Precision - t.Scale
	}
	return n <= 64
}
