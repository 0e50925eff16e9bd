package fake

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/table"
)

// bindClass is how go-ora would send an argument.
type bindClass uint8

const (
	classVarchar bindClass = iota
	classNVarchar
	classLOB
	classRaw // [][]byte: RAW, or LONG RAW above go-ora's RAW limit
)

// binds are the decoded arguments of one execute: vals[column][row] is
// the text the server receives, "" for NULL.
type binds struct {
	cols, rows int
	array      bool
	vals       [][]string
	long       []bool // the argument is a LONG bind (go-ora's LONG switch)
	binary     []bool // the argument carries bytes (RAW, LONG RAW or BLOB); vals hold them in base64
	lobs       int    // temporary LOBs go-ora creates for the execute
}

func (b *binds) text(col, row int) string { return b.vals[col][row] }

// arg is one decoded argument, measured the way go-ora v2.9.0 encodes it.
type arg struct {
	vals   []string
	class  bindClass
	array  bool
	long   bool // a string longer than go-ora's VARCHAR limit: a LONG bind
	maxLen int  // the declared length: the longest value on the wire
	lobs   int  // non-NULL LOB values, one temporary LOB each
	// national: sent in the national character set (csform 2)
	national bool
	binary   bool // bytes: vals are their padded base64, the stored form
}

// maxTempLOBs is how many temporary LOBs go-ora v2.9.0 frees after an
// execute: its free loop advances with `start += end` (command.go:
// 1081-1091), so past 50,000 some leak until the session ends.
const maxTempLOBs = 50000

// expandedBytes: a VARCHAR bind declared longer than this after a LOB
// bind is ORA-24816 ("expanded non LONG bind data supplied after actual
// LONG or LOB column").
const expandedBytes = 4000

// decodeArgs checks args the way database/sql, go-ora and the server
// would and returns their texts.
func (db *DB) decodeArgs(st *oraclesql.Statement, args []any) (*binds, error) {
	if len(args) < len(st.Binds) {
		return nil, oraError(1008, "not all variables bound")
	}
	if len(args) > len(st.Binds) {
		return nil, oraError(1036, "illegal variable name/number")
	}
	b := &binds{cols: len(args), rows: 1, vals: make([][]string, len(args)), long: make([]bool, len(args)), binary: make([]bool, len(args))}
	lobSeen := false
	var longs []int
	for i, a := range args {
		d, err := db.decodeArg(i, a)
		if err != nil {
			return nil, fmt.Errorf("fake: bind %d (%s): %w", i+1, st.Binds[i].Column, err)
		}
		switch {
		case i == 0:
			b.array, b.rows = d.array, len(d.vals)
		case d.array != b.array:
			return nil, errors.New("to activate bulk insert/merge all parameters should be arrays")
		case len(d.vals) != b.rows:
			return nil, fmt.Errorf("fake: array binds of %d and %d rows (go-ora would silently drop rows)", b.rows, len(d.vals))
		}
		if d.class == classNVarchar && d.long {
			return nil, oraError(1461, "can bind a LONG value only for insert into a LONG column (national bind %d: go-ora sends %d UTF-8 bytes as a LONG)", i+1, longest(d.vals))
		}
		if d.class == classNVarchar && d.maxLen > db.o.MaxStringBytes {
			return nil, oraError(1461, "can bind a LONG value only for insert into a LONG column (national bind %d is %d bytes in UTF-16)", i+1, d.maxLen)
		}
		// go-ora writes LONG data after every other bind (command.go:
		// 502-505): the order the server checks is the others, then LONGs.
		switch {
		case d.long:
			longs = append(longs, i)
		case d.class == classLOB:
			lobSeen = true
		case lobSeen && d.maxLen > expandedBytes:
			return nil, oraError(24816, "Expanded non LONG bind data supplied after actual LONG or LOB column (bind %d is %d bytes)", i+1, d.maxLen)
		}
		b.vals[i], b.long[i], b.binary[i] = d.vals, d.long, d.binary
		b.lobs += d.lobs
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
	if b.lobs > maxTempLOBs {
		return nil, fmt.Errorf("fake: %d temporary LOBs in one execute: go-ora v2.9.0 leaks those past %d (command.go:1081-1091)", b.lobs, maxTempLOBs)
	}
	if len(longs) > 0 && st.Kind != oraclesql.KindDML {
		return nil, oraError(1461, "can bind a LONG value only for insert into a LONG column (bind %d)", longs[0]+1)
	}
	return b, nil
}

func longest(vals []string) int {
	n := 0
	for _, v := range vals {
		n = max(n, len(v))
	}
	return n
}

// decodeArg converts one argument as database/sql would over go-ora's
// CheckNamedValue, then measures it as go-ora encodes it.
func (db *DB) decodeArg(i int, a any) (arg, error) {
	a, err := sqlConvert(i, a)
	if err != nil {
		return arg{}, err
	}
	var d arg
	switch a := a.(type) {
	case nil:
		d = arg{vals: []string{""}, class: classVarchar}
	case string:
		d = arg{vals: []string{a}, class: classVarchar}
	case go_ora.NVarChar:
		d = arg{vals: []string{string(a)}, class: classNVarchar, national: true}
	case go_ora.Clob:
		d = arg{vals: []string{clob(a)}, class: classLOB}
	case go_ora.NClob:
		d = arg{vals: []string{clob(go_ora.Clob(a))}, class: classLOB, national: true}
	case []string:
		d = arg{vals: a, class: classVarchar, array: true}
	case []sql.NullString:
		d = arg{vals: mapSlice(a, nullString), class: classVarchar, array: true}
	case []go_ora.NVarChar:
		d = arg{vals: mapSlice(a, func(v go_ora.NVarChar) string { return string(v) }), class: classNVarchar, array: true, national: true}
	case []go_ora.NullNVarChar:
		if len(a) > 0 && !declaresNational(a[len(a)-1]) {
			return arg{}, errors.New("go-ora declares this national array with charset form 0 and charset 0, " +
				"as its last element (a NULL go_ora.NullNVarChar) says, while the other elements carry AL16UTF16 " +
				"(parameter_encode.go:20-23, command.go:1656-1689): bind []go_ora.NVarChar with \"\" for NULL")
		}
		d = arg{vals: mapSlice(a, nullNVarChar), class: classNVarchar, array: true, national: true}
	case []go_ora.Clob:
		d = arg{vals: mapSlice(a, clob), class: classLOB, array: true}
	case []go_ora.NClob:
		d = arg{vals: mapSlice(a, func(c go_ora.NClob) string { return clob(go_ora.Clob(c)) }), class: classLOB, array: true, national: true}
	default:
		var ok bool
		if d, ok = binaryArg(a); !ok {
			return arg{}, fmt.Errorf("unsupported argument type %T", a)
		}
		if err := db.measureBinary(&d); err != nil {
			return arg{}, err
		}
		return d, nil
	}
	db.measure(&d)
	return d, nil
}

// sqlConvert is what database/sql does to a scalar argument before go-ora
// sees it: go-ora's CheckNamedValue (connection.go:1152) passes a value
// that is no driver.Valuer and skips a Valuer, which database/sql's
// default converter then turns into a driver.Value, refusing a Value
// that returns another Valuer (a valid go_ora.NullNVarChar returns a
// *go_ora.NVarChar).
func sqlConvert(i int, a any) (any, error) {
	nv := &driver.NamedValue{Ordinal: i + 1, Value: a}
	var c go_ora.Connection
	switch err := c.CheckNamedValue(nv); err {
	case nil:
		return nv.Value, nil
	case driver.ErrSkip:
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, fmt.Errorf("sql: converting argument $%d type: %w", i+1, err)
		}
		return v, nil
	default:
		return nil, err
	}
}

// declaresNational reports whether go-ora declares an array bind whose
// last element is e with the national character set form: it asks e for
// its driver value (a NULL NullNVarChar has none, and go-ora then sets
// only the type, parameter_encode.go:20-23) and whether that value sets
// its own data type, as NVarChar does (custom_types.go:30-36).
func declaresNational(e any) bool {
	v := e
	if valuer, ok := e.(driver.Valuer); ok {
		var err error
		if v, err = valuer.Value(); err != nil || v == nil {
			return false
		}
	}
	_, ok := v.(go_ora.OracleTypeInterface)
	return ok
}

// measure records the wire lengths of d's values and converts them as
// the character sets do: non-national text in the database character
// set, national text in the national one (go-ora's own converters).
func (db *DB) measure(d *arg) {
	conv := db.conv
	if d.national {
		conv = db.nconv
	}
	// The fake keeps copies, as a server holds what came over the wire:
	// the loader may write other rows into the memory of a loaded batch's
	// values (the Oracle engine keeps none, engine.ValueKeeper).
	out := make([]string, len(d.vals))
	for i, v := range d.vals {
		out[i] = strings.Clone(v)
	}
	for i, v := range d.vals {
		switch {
		case v == "":
		case d.class == classLOB:
			d.lobs++
		default:
			d.long = d.long || len(v) > db.o.MaxStringBytes // go-ora: UTF-8 length (parameter_encode.go:367-372)
		}
		wire := len(v)
		if conv != nil && v != "" {
			enc := conv.Encode(v)
			wire, out[i] = len(enc), conv.Decode(enc)
		}
		d.maxLen = max(d.maxLen, wire)
	}
	d.vals = out
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
	convVector
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
	case "TO_VECTOR":
		return bindExpr(ph, convVector, format)
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
	// binary: bytes (a RAW, LONG RAW or BLOB bind), text their base64
	binary bool
}

// convert turns bind text into the stored form of its conversion, as
// Oracle's conversion functions do (internal/oravalue).
func convert(c conv, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	var out string
	var err *oravalue.Error
	switch c {
	case convNumber:
		out, err = oravalue.ToNumber(s)
	case convBoolean:
		out, err = oravalue.ToBoolean(s)
	case convDate:
		out, err = oravalue.ToDate(s)
	case convTimestamp, convTimestampTZ:
		out, err = oravalue.ToTimestamp(s, c == convTimestampTZ)
	case convJSON:
		out, err = oravalue.ToJSON(s)
	case convVector:
		out, err = s, oravalue.ToVector(s)
	default:
		return s, nil
	}
	if err != nil {
		return "", valueError(err)
	}
	return out, nil
}

// valueError is a value rule's error as the server sends it.
func valueError(e *oravalue.Error) error { return oraError(e.Code, "%s", e.Msg) }

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
	case convVector:
		return t.Kind == table.KindVector
	}
	if t.IsBinary() {
		return false // text into RAW/BLOB: an implicit HEXTORAW the engine never means
	}
	return t.Kind == table.KindVarchar || t.Kind == table.KindClob || t.Kind == table.KindJSON && t.JSONAsClob
}

// check models the server's checks of a non-NULL stored value in column c
// of table t (internal/oravalue: lengths, precision, the 0/1 and IS JSON
// checks, vector dimensions). Like the embedded engine it refuses what
// Oracle would silently round.
func (t *tbl) check(c *column, v string) error {
	rules := t.valueColumn(c)
	if err := rules.Check(v); err != nil {
		return valueError(err)
	}
	return nil
}

// valueColumn describes column c for the value rules.
func (t *tbl) valueColumn(c *column) oravalue.Column {
	return engine.ValueColumn(t.schema, t.name, c.name, t.effective(c), !c.notNull)
}
