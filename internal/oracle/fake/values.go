package fake

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// bindClass is how go-ora would send an argument.
type bindClass uint8

const (
	classVarchar bindClass = iota
	classNVarchar
	classLOB
)

// binds are the decoded arguments of one execute: vals[column][row] is
// the bind text, "" for NULL.
type binds struct {
	cols, rows int
	array      bool
	vals       [][]string
}

func (b *binds) text(col, row int) string { return b.vals[col][row] }

// decodeArgs checks args the way go-ora and the server would and returns
// their texts.
func decodeArgs(st *oraclesql.Statement, args []any, maxString int) (*binds, error) {
	if len(args) < len(st.Binds) {
		return nil, oraError(1008, "not all variables bound")
	}
	if len(args) > len(st.Binds) {
		return nil, oraError(1036, "illegal variable name/number")
	}
	b := &binds{cols: len(args), rows: 1, vals: make([][]string, len(args))}
	lobSeen := false
	for i, a := range args {
		vals, class, array, err := decodeArg(a)
		if err != nil {
			return nil, fmt.Errorf("fake: bind %d (%s): %w", i+1, st.Binds[i].Column, err)
		}
		switch {
		case i == 0:
			b.array, b.rows = array, len(vals)
		case array != b.array:
			return nil, errors.New("to activate bulk insert/merge all parameters should be arrays")
		case len(vals) != b.rows:
			return nil, fmt.Errorf("fake: array binds of %d and %d rows (go-ora would silently drop rows)", b.rows, len(vals))
		}
		if class == classLOB {
			lobSeen = true
		} else if lobSeen {
			return nil, oraError(1461, "can bind a LONG value only for insert into a LONG column (a LOB bind precedes bind %d)", i+1)
		}
		if class != classLOB {
			for _, v := range vals {
				if len(v) > maxString {
					return nil, oraError(1461, "can bind a LONG value only for insert into a LONG column (bind %d is %d bytes)", i+1, len(v))
				}
			}
		}
		b.vals[i] = vals
	}
	if b.array && st.Kind != oraclesql.KindDML {
		return nil, fmt.Errorf("fake: array binds on a %s statement", st.Kind)
	}
	if b.array && b.rows > oracle.MaxArrayRowsLimit {
		return nil, oraError(3146, "invalid buffer length for TTC field (array of %d rows)", b.rows)
	}
	if b.array && b.rows == 0 {
		return nil, errors.New("fake: array bind of no rows")
	}
	return b, nil
}

// decodeArg returns the texts of one argument.
func decodeArg(a any) (vals []string, class bindClass, array bool, err error) {
	switch a := a.(type) {
	case nil:
		return []string{""}, classVarchar, false, nil
	case string:
		return []string{a}, classVarchar, false, nil
	case sql.NullString:
		return []string{nullString(a)}, classVarchar, false, nil
	case go_ora.NullNVarChar:
		return []string{nullNVarChar(a)}, classNVarchar, false, nil
	case go_ora.Clob:
		return []string{clob(a)}, classLOB, false, nil
	case go_ora.NClob:
		return []string{clob(go_ora.Clob(a))}, classLOB, false, nil
	case []string:
		return a, classVarchar, true, nil
	case []sql.NullString:
		return mapSlice(a, nullString), classVarchar, true, nil
	case []go_ora.NullNVarChar:
		return mapSlice(a, nullNVarChar), classNVarchar, true, nil
	case []go_ora.Clob:
		return mapSlice(a, clob), classLOB, true, nil
	case []go_ora.NClob:
		return mapSlice(a, func(c go_ora.NClob) string { return clob(go_ora.Clob(c)) }), classLOB, true, nil
	}
	return nil, 0, false, fmt.Errorf("unsupported argument type %T", a)
}

func mapSlice[T any](s []T, f func(T) string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

func nullString(s sql.NullString) string {
	if !s.Valid {
		return ""
	}
	return s.String
}

func nullNVarChar(s go_ora.NullNVarChar) string {
	if !s.Valid {
		return ""
	}
	return string(s.NVarChar)
}

func clob(c go_ora.Clob) string {
	if !c.Valid {
		return ""
	}
	return c.String
}

// conv is the conversion SQL wraps around a placeholder.
type conv uint8

const (
	convText conv = iota + 1
	convNumber
	convBoolean
	convDate
	convTimestamp
	convTimestampTZ
	convJSON
)

// Format literals the fake understands, as oraclesql writes them.
const (
	fmtDate = `'YYYY-MM-DD'`
	fmtTS   = `'YYYY-MM-DD"T"HH24:MI:SS.FF9'`
	fmtTSTZ = `'YYYY-MM-DD"T"HH24:MI:SS.FF9 TZH:TZM'`
)

// exprKind is what a value expression is.
type exprKind uint8

const (
	exprBind exprKind = iota + 1 // a converted placeholder
	exprSrc                      // SRC."X" of a MERGE
	exprNull                     // NULL
	exprNow                      // the database time (SYSTIMESTAMP)
)

type expr struct {
	kind exprKind
	conv conv
	bind int    // exprBind: 0-based placeholder
	col  string // exprSrc
}

// parseExpr reads a value expression of oraclesql's DML.
func parseExpr(s string) (expr, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "NULL":
		return expr{kind: exprNull}, nil
	case strings.HasPrefix(s, `SRC."`) && strings.HasSuffix(s, `"`):
		return expr{kind: exprSrc, col: s[5 : len(s)-1]}, nil
	case strings.Contains(s, "SYSTIMESTAMP"):
		return expr{kind: exprNow}, nil
	case strings.HasPrefix(s, ":"):
		return bindExpr(s, convText, "")
	}
	fn, rest, ok := strings.Cut(s, "(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return expr{}, fmt.Errorf("fake: unsupported expression %q", s)
	}
	inner := rest[:len(rest)-1]
	ph, format, _ := strings.Cut(inner, ", ")
	switch fn {
	case "TO_NUMBER":
		return bindExpr(ph, convNumber, format)
	case "TO_BOOLEAN":
		return bindExpr(ph, convBoolean, format)
	case "JSON":
		return bindExpr(ph, convJSON, format)
	case "TO_DATE":
		return bindExpr(ph, convDate, checkFormat(format, fmtDate))
	case "TO_TIMESTAMP":
		return bindExpr(ph, convTimestamp, checkFormat(format, fmtTS))
	case "TO_TIMESTAMP_TZ":
		return bindExpr(ph, convTimestampTZ, checkFormat(format, fmtTSTZ))
	}
	return expr{}, fmt.Errorf("fake: unsupported expression %q", s)
}

// checkFormat returns "" when format is the one the fake parses, else the
// format (which bindExpr refuses).
func checkFormat(format, want string) string {
	if format == want {
		return ""
	}
	return "format " + format
}

func bindExpr(ph string, c conv, extra string) (expr, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(ph, ":"))
	if err != nil || !strings.HasPrefix(ph, ":") || n < 1 || extra != "" {
		return expr{}, fmt.Errorf("fake: unsupported placeholder expression %q %s", ph, extra)
	}
	return expr{kind: exprBind, conv: c, bind: n - 1}, nil
}

// value is a typed value on its way to a column.
type value struct {
	text string // stored form; "" is NULL
	conv conv
	now  bool // the database time: stored in the column's type
}

// convert turns bind text into the stored form of its conversion.
func convert(c conv, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	switch c {
	case convNumber:
		v, ok := canonicalNumber(s)
		if !ok {
			return "", oraError(1722, "invalid number %q", s)
		}
		return v, nil
	case convBoolean:
		switch strings.ToLower(s) {
		case "true", "yes", "on", "1", "t", "y":
			return "true", nil
		case "false", "no", "off", "0", "f", "n":
			return "false", nil
		}
		return "", oraError(61800, "invalid boolean value %q", s)
	case convDate:
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return "", oraError(1861, "literal %q does not match format string", s)
		}
		return s, nil
	case convTimestamp, convTimestampTZ:
		layout := "2006-01-02T15:04:05.000000000"
		if c == convTimestampTZ {
			layout += " -07:00"
		}
		t, err := time.Parse(layout, s)
		if err != nil {
			return "", oraError(1861, "literal %q does not match format string", s)
		}
		return t.UTC().Format("2006-01-02T15:04:05.999999999Z"), nil
	case convJSON:
		if !json.Valid([]byte(s)) {
			return "", oraError(40441, "JSON syntax error")
		}
	}
	return s, nil
}

// canonicalNumber parses a plain decimal and returns Oracle's canonical
// text of the number.
func canonicalNumber(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	ip, fp, hasPoint := strings.Cut(body, ".")
	if ip == "" && fp == "" || hasPoint && fp == "" {
		return "", false
	}
	for _, p := range [2]string{ip, fp} {
		for i := 0; i < len(p); i++ {
			if p[i] < '0' || p[i] > '9' {
				return "", false
			}
		}
	}
	ip = strings.TrimLeft(ip, "0")
	fp = strings.TrimRight(fp, "0")
	if ip == "" {
		ip = "0"
	}
	out := ip
	if fp != "" {
		out += "." + fp
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out, true
}

// compatible reports whether a value converted with c may go into a
// column of type t without an implicit conversion (the fake refuses
// those: they would mean the engine and the table disagree).
func compatible(c conv, t table.Type) bool {
	switch c {
	case convNumber:
		return t.Kind == table.KindNumber
	case convBoolean:
		return t.Kind == table.KindBoolean
	case convDate:
		return t.Kind == table.KindDate
	case convTimestamp, convTimestampTZ:
		return t.Kind == table.KindTimestamp
	case convJSON:
		return t.Kind == table.KindJSON && !t.JSONAsClob
	}
	return t.Kind == table.KindVarchar || t.Kind == table.KindClob || t.Kind == table.KindJSON && t.JSONAsClob
}

// check models the server's checks of a non-NULL stored value in column c
// of table t (lengths, precision, the 0/1 and IS JSON checks). Like the
// embedded engine it refuses what Oracle would silently round.
func (t *tbl) check(c *column, v string) error {
	typ := t.effective(c)
	switch typ.Kind {
	case table.KindVarchar:
		n := len(v)
		if typ.CharSemantics || typ.National {
			n = utf8.RuneCountInString(v)
		}
		if n > typ.Length {
			return oraError(12899, "value too large for column %q (actual: %d, maximum: %d)", c.name, n, typ.Length)
		}
	case table.KindNumber:
		if typ.BoolNumber && v != "0" && v != "1" {
			return oraError(2290, "check constraint violated: %s is not 0 or 1 in %q", v, c.name)
		}
		if typ.Precision > 0 {
			ip, fp, _ := strings.Cut(strings.TrimPrefix(v, "-"), ".")
			if ip == "0" {
				ip = ""
			}
			if len(ip) > typ.Precision-typ.Scale || len(fp) > typ.Scale {
				return oraError(1438, "value %s larger than specified precision allowed for column %q", v, c.name)
			}
		}
	case table.KindTimestamp:
		if _, frac, ok := strings.Cut(strings.TrimSuffix(v, "Z"), "."); ok && len(frac) > typ.Frac {
			return oraError(1830, "%q has %d fractional digits, column %q keeps %d", v, len(frac), c.name, typ.Frac)
		}
	case table.KindJSON:
		if !json.Valid([]byte(v)) {
			return oraError(2290, "check constraint (IS JSON) violated for column %q", c.name)
		}
	}
	return nil
}
