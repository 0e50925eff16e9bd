package oraclesql

import (
	"strconv"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Formats of the bind texts BindText produces, as the bind expressions
// parse them. A "T" between date and time keeps them the stored text's
// shape; the zone is always UTC.
const (
	timestampFormat   = `YYYY-MM-DD"T"HH24:MI:SS.FF9`
	timestampTZFormat = `YYYY-MM-DD"T"HH24:MI:SS.FF9 TZH:TZM`
	dateFormat        = `YYYY-MM-DD`
	utcOffset         = " +00:00"
)

// bindExpr returns the SQL that turns placeholder :n, bound with
// BindText(t, v), into a value of type t.
//
//   - NUMBER: TO_NUMBER(:n). The text is a canonical plain decimal with '.'
//     and SessionSetup pins NLS_NUMERIC_CHARACTERS to '.,'; an engine may
//     also bind a go_ora.Number built from the same text.
//   - TIMESTAMP [WITH TIME ZONE], DATE: TO_TIMESTAMP[_TZ]/TO_DATE with an
//     explicit format, so no NLS date format or session time zone applies.
//   - BOOLEAN: TO_BOOLEAN(:n) of 'true'/'false' (23ai).
//   - JSON: JSON(:n) of the compact JSON text (21c+).
//   - VECTOR: TO_VECTOR(:n) of the compact JSON array (23ai), its
//     elements already rounded to the column's format.
//   - RAW and BLOB: :n as is; the engine binds the bytes (BindText's
//     stored base64 decoded), not text.
//   - text and CLOB-backed JSON: :n as is.
func bindExpr(t table.Type, n int) string {
	p := placeholder(n)
	switch t.Kind {
	case table.KindNumber:
		return "TO_NUMBER(" + p + ")"
	case table.KindBoolean:
		return "TO_BOOLEAN(" + p + ")"
	case table.KindDate:
		return "TO_DATE(" + p + ", '" + dateFormat + "')"
	case table.KindTimestamp:
		if t.TZ {
			return "TO_TIMESTAMP_TZ(" + p + ", '" + timestampTZFormat + "')"
		}
		return "TO_TIMESTAMP(" + p + ", '" + timestampFormat + "')"
	case table.KindJSON:
		if !t.JSONAsClob {
			return "JSON(" + p + ")"
		}
	case table.KindVector:
		return "TO_VECTOR(" + p + ")"
	}
	return p
}

func placeholder(n int) string { return ":" + strconv.Itoa(n) }

// BindText returns the text to bind for stored, a value of a column of
// type t in the table package's stored form ("" is NULL and stays "").
// Timestamps ("YYYY-MM-DDTHH:MM:SS[.f]Z", or a bare date) become
// "YYYY-MM-DDTHH:MM:SS.fffffffff", with " +00:00" for WITH TIME ZONE;
// every other value is returned unchanged and without allocating.
// Text that is not in the stored form is returned unchanged, so that the
// server rejects it loudly rather than the engine guessing.
func BindText(t table.Type, stored string) string {
	if t.Kind != table.KindTimestamp || stored == "" {
		return stored
	}
	var buf [40]byte
	return string(AppendBindText(buf[:0], t, stored))
}

// AppendBindText is BindText appending to dst; it does not allocate when
// dst has room for 36 more bytes.
func AppendBindText(dst []byte, t table.Type, stored string) []byte {
	if t.Kind != table.KindTimestamp || stored == "" {
		return append(dst, stored...)
	}
	s := stored
	switch {
	case len(s) == len("2006-01-02"):
		dst = append(dst, s...)
		dst = append(dst, "T00:00:00.000000000"...)
	case len(s) >= len("2006-01-02T15:04:05Z") && s[len(s)-1] == 'Z' && s[10] == 'T':
		dst = append(dst, s[:19]...)
		frac := s[19 : len(s)-1]
		if frac != "" && (frac[0] != '.' || len(frac) > 10) {
			return append(dst[:len(dst)-19], stored...)
		}
		if frac != "" {
			frac = frac[1:]
		}
		dst = append(dst, '.')
		dst = append(dst, frac...)
		for i := len(frac); i < 9; i++ {
			dst = append(dst, '0')
		}
	default:
		return append(dst, stored...)
	}
	if t.TZ {
		dst = append(dst, utcOffset...)
	}
	return dst
}
