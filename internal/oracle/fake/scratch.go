package fake

import (
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// The statements of --verify and --benchmark (oraclesql/scratch.go):
// DROP TABLE … PURGE, the list of scratch tables older than an hour, and
// the readback of values as the server's canonical text. The fake answers
// the readback from its stored values the way the SQL says Oracle would:
// DUMP of a NUMBER as Oracle's bytes, TO_CHAR of dates and instants in
// the masks given, LOB lengths and DBMS_LOB.SUBSTR in UTF-16 code units
// (how Oracle counts CLOB characters in a Unicode database: [verify on a
// real DB]).

// Tamper changes a value the readback returns (column name, the text read);
// tests use it to have the server return a changed byte. Nil returns the
// text unchanged.
type Tamper func(column, text string) string

// SetTamper installs f for every later readback.
func (db *DB) SetTamper(f Tamper) {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.tamper = f
}

// SetCreated sets the creation time ALL_OBJECTS reports for a table.
func (db *DB) SetCreated(qualified string, at time.Time) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if t := db.tables[qualified]; t != nil {
		t.created = at
	}
}

// dropTable runs DROP TABLE "S"."T" CASCADE CONSTRAINTS PURGE.
func (db *DB) dropTable(rest string) error {
	s, n, tail, err := db.qname(rest)
	if err != nil {
		return err
	}
	if tail != " PURGE" {
		return fmt.Errorf("fake: DROP TABLE without PURGE (%q): the table would stay in the recycle bin", tail)
	}
	q := s + "." + n
	if _, err := db.table(q); err != nil {
		return err
	}
	delete(db.tables, q)
	for k, v := range db.indexes {
		if v.table == q {
			delete(db.indexes, k)
		}
	}
	return nil
}

// scratchQuery answers the scratch statements; ok is false for any other
// query. Callers hold db.mu.
func (db *DB) scratchQuery(st *oraclesql.Statement, args []any) (rows [][]sql.NullString, ok bool, err error) {
	list := strings.HasPrefix(st.SQL, "SELECT OBJ.OBJECT_NAME FROM ALL_OBJECTS ")
	if !list && !readbackQuery.MatchString(st.SQL) {
		return nil, false, nil
	}
	b, err := db.decodeArgs(st, args)
	if err != nil {
		return nil, true, err
	}
	if list {
		return db.listScratch(st, b), true, nil
	}
	rows, err = db.readback(st, b)
	return rows, true, err
}

// listScratch lists tables of the owner whose name is LIKE the prefix and
// that were created over an hour ago.
func (db *DB) listScratch(st *oraclesql.Statement, b *binds) [][]sql.NullString {
	owner, like := db.o.Schema, ""
	for i, bd := range st.Binds {
		switch bd.Column {
		case "owner":
			owner = b.text(i, 0)
		case "prefix":
			like = b.text(i, 0)
		}
	}
	prefix := strings.NewReplacer(`\_`, "_", `\%`, "%", `\\`, `\`).Replace(strings.TrimSuffix(like, "%"))
	var out [][]sql.NullString
	for _, q := range sortedKeys(db.tables) {
		t := db.tables[q]
		if t.schema == owner && strings.HasPrefix(t.name, prefix) && t.created.Before(db.o.Now().Add(-time.Hour)) {
			out = append(out, []sql.NullString{{String: t.name, Valid: true}})
		}
	}
	return out
}

func sortedKeys(m map[string]*tbl) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var (
	readbackQuery = regexp.MustCompile(`^SELECT (.+) FROM ("[^"]+"(?:\."[^"]+")?) WHERE "([^"]+)" = (HEXTORAW\()?:(\d+)\)?` +
		`(?: AND "([^"]+)" = TO_TIMESTAMP(?:_TZ)?\(:(\d+), '[^']+'\))?(?: ORDER BY "([^"]+)")?$`)
	colOnly   = `"([^"]+)"`
	readItems = []struct {
		kind string
		re   *regexp.Regexp
	}{
		{"number", regexp.MustCompile(`^NVL2\(` + colOnly + `, DUMP\("[^"]+"\), NULL\)$`)},
		{"bool", regexp.MustCompile(`^CASE WHEN ` + colOnly + ` THEN 'true' WHEN NOT "[^"]+" THEN 'false' END$`)},
		{"booldump", regexp.MustCompile(`^CASE WHEN ` + colOnly + ` THEN 'TRUE' WHEN NOT "[^"]+" THEN 'FALSE' END$`)},
		{"text", regexp.MustCompile(`^` + colOnly + `$`)},
		{"length", regexp.MustCompile(`^TO_CHAR\(DBMS_LOB\.GETLENGTH\(` + colOnly + `\)\)$`)},
		{"json", regexp.MustCompile(`^JSON_SERIALIZE\(` + colOnly + ` RETURNING VARCHAR2\(\d+\)\)$`)},
		{"date", regexp.MustCompile(`^TO_CHAR\(` + colOnly + `, '` + regexp.QuoteMeta(oraclesql.ReadDateMask) + `'\)$`)},
		{"utc", regexp.MustCompile(`^TO_CHAR\(SYS_EXTRACT_UTC\(` + colOnly + `\), '` + regexp.QuoteMeta(oraclesql.ReadTimestampMask) + `'\)$`)},
		{"timestamp", regexp.MustCompile(`^TO_CHAR\(` + colOnly + `, '` + regexp.QuoteMeta(oraclesql.ReadTimestampMask) + `'\)$`)},
		{"chunk", regexp.MustCompile(`^DBMS_LOB\.SUBSTR\(` + colOnly + `, TO_NUMBER\(:1\), TO_NUMBER\(:2\)\)$`)},
		{"dumplob", regexp.MustCompile(`^DUMP\(DBMS_LOB\.SUBSTR\(` + colOnly + `, (\d+), TO_NUMBER\(:1\)\), 1016\)$`)},
		{"dumpjson", regexp.MustCompile(`^DUMP\(SUBSTR\(JSON_SERIALIZE\(` + colOnly + ` RETURNING VARCHAR2\(\d+\)\), TO_NUMBER\(:1\), (\d+)\), 1016\)$`)},
		{"dumptext", regexp.MustCompile(`^DUMP\(SUBSTR\(` + colOnly + `, TO_NUMBER\(:1\), (\d+)\), 1016\)$`)},
		{"dump", regexp.MustCompile(`^DUMP\(` + colOnly + `, 1016\)$`)},
		{"hex", regexp.MustCompile(`^RAWTOHEX\(` + colOnly + `\)$`)},
		{"hexchunk", regexp.MustCompile(`^RAWTOHEX\(DBMS_LOB\.SUBSTR\(` + colOnly + `, TO_NUMBER\(:1\), TO_NUMBER\(:2\)\)\)$`)},
		{"dumphex", regexp.MustCompile(`^SUBSTR\(RAWTOHEX\(` + colOnly + `\), TO_NUMBER\(:1\), (\d+)\)$`)},
		{"dumpblob", regexp.MustCompile(`^RAWTOHEX\(DBMS_LOB\.SUBSTR\(` + colOnly + `, (\d+), TO_NUMBER\(:1\)\)\)$`)},
		{"vector", regexp.MustCompile(`^FROM_VECTOR\(` + colOnly + ` RETURNING VARCHAR2\(\d+\)\)$`)},
	}
)

// readback answers a SELECT of readback expressions for one row by key
// (and valid-from: oraclesql.Row with a version), or, with ORDER BY
// (oraclesql.ReadVersions), for every row of the key in that column's
// order.
func (db *DB) readback(st *oraclesql.Statement, b *binds) ([][]sql.NullString, error) {
	m := readbackQuery.FindStringSubmatch(st.SQL)
	s, n, _, err := db.qname(m[2])
	if err != nil {
		return nil, err
	}
	t, err := db.table(s + "." + n)
	if err != nil {
		return nil, err
	}
	keyAt, _ := strconv.Atoi(m[5])
	key := b.text(keyAt-1, 0)
	if m[4] != "" {
		// HEXTORAW of the key text: a RAW key, stored as base64.
		raw, err := hex.DecodeString(key)
		if err != nil {
			return nil, oraError(1465, "invalid hex number")
		}
		key = base64.StdEncoding.EncodeToString(raw)
	}
	order, version := m[8], m[6]
	for _, c := range []string{order, version} {
		if c != "" && t.col(c) == nil {
			return nil, oraError(904, "invalid identifier %q", c)
		}
	}
	var at string // the version's instant as bound, without a zone
	if version != "" {
		i, _ := strconv.Atoi(m[7])
		at = strings.TrimSuffix(b.text(i-1, 0), " +00:00")
	}
	ts := table.Type{Kind: table.KindTimestamp}
	var rows []map[string]string
	for _, r := range t.rows {
		if r == nil || r[m[3]] != key || version != "" && oraclesql.BindText(ts, r[version]) != at {
			continue
		}
		rows = append(rows, r)
		if order == "" {
			break
		}
	}
	if order != "" {
		sortRows(rows, order)
	}
	num := func(i int) int {
		v, _ := strconv.Atoi(b.text(i, 0))
		return v
	}
	var out [][]sql.NullString
	for _, row := range rows {
		var vals []sql.NullString
		for _, item := range splitTop(m[1], ", ") {
			v, err := db.readItem(t, row, item, num)
			if err != nil {
				return nil, err
			}
			vals = append(vals, v)
		}
		out = append(out, vals)
	}
	return out, nil
}

// sortRows orders rows by column col as ORDER BY does: instants by time,
// other values by their text, NULL last.
func sortRows(rows []map[string]string, col string) {
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i][col], rows[j][col]
		if a == "" || b == "" {
			return a != "" && b == ""
		}
		ta, errA := instant(a)
		tb, errB := instant(b)
		if errA == nil && errB == nil {
			return ta.Before(tb)
		}
		return a < b
	})
}

// readItem evaluates one select-list item on row.
func (db *DB) readItem(t *tbl, row map[string]string, item string, num func(int) int) (sql.NullString, error) {
	for _, ri := range readItems {
		m := ri.re.FindStringSubmatch(item)
		if m == nil {
			continue
		}
		c := t.col(m[1])
		if c == nil {
			return sql.NullString{}, oraError(904, "invalid identifier %q", m[1])
		}
		v, ok := row[c.name]
		if !ok || v == "" {
			return sql.NullString{}, nil
		}
		typ := t.effective(c)
		text, err := readValue(ri.kind, typ, v, m, num)
		if err != nil {
			return sql.NullString{}, err
		}
		if db.tamper != nil && !strings.HasPrefix(ri.kind, "dump") && ri.kind != "length" {
			text = db.tamper(c.name, text)
		}
		return sql.NullString{String: text, Valid: true}, nil
	}
	return sql.NullString{}, fmt.Errorf("fake: unsupported readback expression %.80q", item)
}

func readValue(kind string, typ table.Type, v string, m []string, num func(int) int) (string, error) {
	if typ.IsBinary() || typ.Kind == table.KindVector {
		return readNative(kind, typ, v, m, num)
	}
	switch kind {
	case "number":
		return numberDump(v)
	case "bool", "booldump":
		t := v == "true" || v == "1"
		if kind == "booldump" {
			return strings.ToUpper(strconv.FormatBool(t)), nil
		}
		return strconv.FormatBool(t), nil
	case "text", "json":
		return v, nil
	case "length":
		return strconv.Itoa(len(utf16.Encode([]rune(v)))), nil
	case "date":
		if len(v) == len("2006-01-02") {
			return v + "T00:00:00", nil
		}
		return v[:min(len(v), 19)], nil
	case "utc", "timestamp":
		s := oraclesql.BindText(table.Type{Kind: table.KindTimestamp}, v)
		if len(s) != len("2006-01-02T15:04:05.000000000") {
			return "", fmt.Errorf("fake: stored timestamp %q", v)
		}
		return s, nil
	case "chunk":
		return utf16Substr(v, num(1), num(0)), nil
	case "dumplob":
		n, _ := strconv.Atoi(m[2])
		return textDump(utf16Substr(v, num(0), n)), nil
	case "dumpjson", "dumptext":
		n, _ := strconv.Atoi(m[2])
		return textDump(runeSubstr(v, num(0), n)), nil
	case "dump":
		return textDump(v), nil
	}
	return "", fmt.Errorf("fake: readback kind %s", kind)
}

// utf16Substr is DBMS_LOB.SUBSTR(v, amount, offset) in UTF-16 code units.
func utf16Substr(v string, offset, amount int) string {
	// Over ASCII text code units are bytes: only the text up to the end
	// of the chunk decides where it lies.
	if end := min(len(v), max(0, offset-1+amount)); isASCII(v[:end]) {
		if offset < 1 || offset > len(v) || amount < 1 {
			return ""
		}
		return v[offset-1 : end]
	}
	u := utf16.Encode([]rune(v))
	if offset < 1 || offset > len(u) || amount < 1 {
		return ""
	}
	end := min(len(u), offset-1+amount)
	return string(utf16.Decode(u[offset-1 : end]))
}

// runeSubstr is SUBSTR(v, from, n) in characters.
func runeSubstr(v string, from, n int) string {
	r := []rune(v)
	if from < 1 || from > len(r) {
		return ""
	}
	return string(r[from-1 : min(len(r), from-1+n)])
}

// textDump is DUMP(v, 1016) of text in AL32UTF8.
func textDump(v string) string {
	parts := make([]string, len(v))
	for i := 0; i < len(v); i++ {
		parts[i] = strconv.FormatUint(uint64(v[i]), 16)
	}
	return fmt.Sprintf("Typ=1 Len=%d CharacterSet=AL32UTF8: %s", len(v), strings.Join(parts, ","))
}

// numberDump is DUMP(n) of a canonical decimal: Oracle's NUMBER bytes, an
// exponent byte (base 100, excess 65, complemented for negatives) and
// base-100 digits plus 1 (negatives: 101 minus the digit, then 102).
func numberDump(v string) (string, error) {
	neg := strings.HasPrefix(v, "-")
	ip, fp, _ := strings.Cut(strings.TrimPrefix(v, "-"), ".")
	for _, r := range ip + fp {
		if r < '0' || r > '9' {
			return "", fmt.Errorf("fake: stored number %q", v)
		}
	}
	ip = strings.TrimLeft(ip, "0")
	if len(ip)%2 == 1 {
		ip = "0" + ip
	}
	if len(fp)%2 == 1 {
		fp += "0"
	}
	digits := ip + fp
	exp := len(ip)/2 - 1
	for len(digits) >= 2 && digits[:2] == "00" {
		digits, exp = digits[2:], exp-1
	}
	for len(digits) >= 2 && digits[len(digits)-2:] == "00" {
		digits = digits[:len(digits)-2]
	}
	if digits == "" {
		return "Typ=2 Len=1: 128", nil
	}
	var bytes []string
	if neg {
		bytes = append(bytes, strconv.Itoa(62-exp))
	} else {
		bytes = append(bytes, strconv.Itoa(exp+193))
	}
	for i := 0; i < len(digits); i += 2 {
		d, _ := strconv.Atoi(digits[i : i+2])
		if neg {
			bytes = append(bytes, strconv.Itoa(101-d))
		} else {
			bytes = append(bytes, strconv.Itoa(d+1))
		}
	}
	if neg && len(bytes) < 21 {
		bytes = append(bytes, "102")
	}
	return fmt.Sprintf("Typ=2 Len=%d: %s", len(bytes), strings.Join(bytes, ",")), nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// readNative answers the readback of RAW, BLOB (stored as base64) and
// VECTOR (stored as compact JSON) values: RAWTOHEX in uppercase,
// DBMS_LOB.GETLENGTH and SUBSTR of a BLOB in bytes, FROM_VECTOR as
// vectorText prints it.
func readNative(kind string, typ table.Type, v string, m []string, num func(int) int) (string, error) {
	if typ.Kind == table.KindVector {
		if kind != "vector" {
			return "", fmt.Errorf("fake: readback %s of a VECTOR column", kind)
		}
		return vectorText(typ, v)
	}
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		return "", fmt.Errorf("fake: stored bytes %.40q are not base64: %v", v, err)
	}
	sub := func(offset, amount int) []byte {
		if offset < 1 || offset > len(b) || amount < 1 {
			return nil
		}
		return b[offset-1 : min(len(b), offset-1+amount)]
	}
	hexOf := func(p []byte) string { return strings.ToUpper(hex.EncodeToString(p)) }
	switch {
	case kind == "hex" && typ.Kind == table.KindRaw:
		return hexOf(b), nil
	case kind == "length" && typ.Kind == table.KindBlob:
		return strconv.Itoa(len(b)), nil
	case kind == "hexchunk" && typ.Kind == table.KindBlob:
		// In SQL DBMS_LOB.SUBSTR of a BLOB returns a RAW of at most the
		// RAW limit [verify on a real DB: ORA-06502 past it].
		if num(0) > table.RawMaxBytesExtended {
			return "", oraError(6502, "PL/SQL: numeric or value error: raw variable length too long")
		}
		return hexOf(sub(num(1), num(0))), nil
	case kind == "dumphex" && typ.Kind == table.KindRaw:
		n, _ := strconv.Atoi(m[2])
		return runeSubstr(hexOf(b), num(0), n), nil
	case kind == "dumpblob" && typ.Kind == table.KindBlob:
		n, _ := strconv.Atoi(m[2])
		return hexOf(sub(num(0), n)), nil
	}
	return "", fmt.Errorf("fake: readback %s of a %s column", kind, typ)
}

// vectorText is FROM_VECTOR's text of a stored vector: each element in
// scientific notation with a three-digit exponent, 9 significant digits
// for FLOAT32 and 17 for FLOAT64, integers for INT8 (as Oracle 23ai
// prints "[1.10000002E+000,2.0E+000]" [verify on a real DB: the exact
// text]; the verify reader compares element by element, not the text).
func vectorText(typ table.Type, v string) (string, error) {
	var nums []float64
	if err := json.Unmarshal([]byte(v), &nums); err != nil {
		return "", fmt.Errorf("fake: stored vector %.40q: %v", v, err)
	}
	parts := make([]string, len(nums))
	for i, f := range nums {
		switch typ.VectorFormat {
		case table.VectorInt8:
			parts[i] = strconv.Itoa(int(f))
			continue
		case table.VectorFloat64:
			parts[i] = strconv.FormatFloat(f, 'E', 16, 64)
		default:
			parts[i] = strconv.FormatFloat(float64(float32(f)), 'E', 8, 32)
		}
		// Go prints E+00; Oracle three exponent digits.
		if mant, exp, ok := strings.Cut(parts[i], "E"); ok && len(exp) == 3 {
			parts[i] = mant + "E" + exp[:1] + "0" + exp[1:]
		}
	}
	return "[" + strings.Join(parts, ",") + "]", nil
}
