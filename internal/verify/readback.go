package verify

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// reader reads rows of a scratch table back as canonical text on a plain
// session of its own.
type reader struct {
	dial      oracle.Dialer
	conn      oracle.Conn
	t         *table.Table
	key       string // the key column
	maxString int    // the longest VARCHAR2 a query returns (4000 or 32767)
	// asciiJSON is set for a database character set that is not Unicode:
	// the engine sends JSON with \uXXXX escapes for non-ASCII
	// (docs/oracle.md), so the stored text has them.
	asciiJSON bool
}

func (rd *reader) close() {
	if rd.conn != nil {
		_ = rd.conn.Close()
		rd.conn = nil
	}
}

// query runs st, dialing a session first when there is none; a failed
// call drops the session so that the next one starts afresh.
func (rd *reader) query(ctx context.Context, st oraclesql.Statement) ([][]sql.NullString, error) {
	if rd.conn == nil {
		c, err := rd.dial(ctx)
		if err != nil {
			return nil, fmt.Errorf("connect: %w", err)
		}
		rd.conn = c
	}
	rows, err := rd.conn.Query(ctx, &st, scalarArgs(&st))
	if err != nil {
		rd.close()
	}
	return rows, err
}

// scalarArgs are the arguments of a statement whose binds are all fixed
// short texts: as the engine binds them (sql.NullString, "" is NULL).
func scalarArgs(st *oraclesql.Statement) []any {
	args := make([]any, len(st.Binds))
	for i, b := range st.Binds {
		s := oraclesql.BindText(b.Type, b.Value)
		args[i] = sql.NullString{String: s, Valid: s != ""}
	}
	return args
}

// compare reads the row with key k and compares each column with want
// (the embedded engine's row; nil when it has none). It records the first
// difference in r and reports whether there was one.
func (rd *reader) compare(ctx context.Context, k string, want map[string]string, r *Result) bool {
	cols := rd.valueColumns()
	st, err := oraclesql.ReadRow(rd.t, rd.key, k, cols)
	if err != nil {
		return failed(r, nil, err.Error(), "", "")
	}
	rows, err := rd.query(ctx, st)
	switch {
	case err != nil:
		return failed(r, nil, "read back: "+err.Error(), "", "")
	case len(rows) == 0 && want == nil:
		return false
	case len(rows) == 0:
		return failed(r, nil, fmt.Sprintf("row %s is missing on Oracle", k), "", "")
	case want == nil:
		return failed(r, nil, fmt.Sprintf("row %s is on Oracle only (the embedded engine has none)", k), "", "")
	}
	return rd.compareRow(ctx, oraclesql.Row{KeyCol: rd.key, Key: k}, "row "+k, cols, rows[0], want, r)
}

// compareVersions reads every version of key k of a history table, oldest
// first, and compares them with want (the embedded engine's, oldest
// first). It records the first difference in r and reports whether there
// was one. A version's LOB chunks and the DUMP of a differing value are
// read by the key and the valid-from Oracle returned (the key alone names
// every version).
func (rd *reader) compareVersions(ctx context.Context, k string, want []map[string]string, r *Result) bool {
	cols := rd.valueColumns()
	st, err := oraclesql.ReadVersions(rd.t, rd.key, k, table.MetaValidFrom, cols)
	if err != nil {
		return failed(r, nil, err.Error(), "", "")
	}
	rows, err := rd.query(ctx, st)
	if err != nil {
		return failed(r, nil, "read back: "+err.Error(), "", "")
	}
	for i := range min(len(rows), len(want)) {
		label := fmt.Sprintf("key %s, version %d (oldest first)", k, i+1)
		row, err := rd.version(k, cols, rows[i])
		if err != nil {
			return failed(r, nil, fmt.Sprintf("read back %s: %v", label, err), "", "")
		}
		if rd.compareRow(ctx, row, label, cols, rows[i], want[i], r) {
			return true
		}
	}
	if len(rows) != len(want) {
		return failed(r, nil, fmt.Sprintf("key %s: Oracle holds %d versions, the embedded engine %d", k, len(rows), len(want)),
			fmt.Sprintf("%d versions", len(want)), fmt.Sprintf("%d versions", len(rows)))
	}
	return false
}

// version names the version of key k whose values ReadVersions returned
// as got: by the valid-from read back with them.
func (rd *reader) version(k string, cols []*table.Column, got []sql.NullString) (oraclesql.Row, error) {
	i := slices.IndexFunc(cols, func(c *table.Column) bool { return c.Name == table.MetaValidFrom })
	if i < 0 || i >= len(got) || !got[i].Valid {
		return oraclesql.Row{}, fmt.Errorf("no %s", table.MetaValidFrom)
	}
	at, err := utcText(got[i].String)
	if err != nil {
		return oraclesql.Row{}, err
	}
	return oraclesql.Row{KeyCol: rd.key, Key: k, VersionCol: table.MetaValidFrom, Version: at}, nil
}

// valueColumns are the columns read back: all but the key.
func (rd *reader) valueColumns() []*table.Column {
	var cols []*table.Column
	for i := range rd.t.Columns {
		if rd.t.Columns[i].Name != rd.key {
			cols = append(cols, &rd.t.Columns[i])
		}
	}
	return cols
}

// failed records a difference in r and reports that there was one.
func failed(r *Result, col *table.Column, detail, expected, got string) bool {
	r.Status, r.Detail = Fail, detail
	r.Expected, r.Got = short(expected), short(got)
	if col != nil {
		r.Column, r.Type = col.Name, col.Type.String()
	}
	return true
}

// compareRow compares the values read back of row at (named row in the
// report) with want, column by column; a mismatch gets the DUMP of the
// value where it first differs.
//
// The values the row's query returned are compared before the LOBs, whose
// chunks take queries of their own: a differing valid-from, which names
// a version's LOB chunks, is reported as itself.
func (rd *reader) compareRow(ctx context.Context, at oraclesql.Row, row string, cols []*table.Column, got []sql.NullString, want map[string]string, r *Result) bool {
	order := make([]int, len(cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(lobRank(cols[a]), lobRank(cols[b]))
	})
	for _, i := range order {
		c := cols[i]
		g, err := rd.text(ctx, at, c, got[i])
		if err != nil {
			return failed(r, c, fmt.Sprintf("read back %s: %v", row, err), want[c.Name], "")
		}
		exp := canonical(c, want[c.Name])
		if rd.asciiJSON && c.Type.Kind == table.KindJSON {
			exp = table.ASCIIJSON(exp)
		}
		if g == exp {
			continue
		}
		detail := fmt.Sprintf("%s, column %s: Oracle holds another value than the embedded engine", row, c.Name)
		if c.Type.Kind == table.KindJSON && NormalJSON(g) == NormalJSON(exp) {
			detail = fmt.Sprintf("%s, column %s: the same JSON value, but Oracle returns other text (JSON_SERIALIZE)", row, c.Name)
		}
		failed(r, c, detail, exp, g)
		r.Dump = rd.dump(ctx, at, c, firstDiff(exp, g))
		if exp != "" {
			r.Detail += fmt.Sprintf(" (%d vs %d bytes; first difference at character %d)", len(exp), len(g), firstDiff(exp, g))
		}
		return true
	}
	return false
}

// lobRank is 1 for a column read in chunks, else 0.
func lobRank(c *table.Column) int {
	if oraclesql.ReadsLength(c) {
		return 1
	}
	return 0
}

// text turns what ReadExpr selected into the stored form of docs/types.md
// (reading a LOB of row at in chunks).
func (rd *reader) text(ctx context.Context, at oraclesql.Row, c *table.Column, v sql.NullString) (string, error) {
	if !v.Valid || v.String == "" {
		return "", nil
	}
	switch {
	case oraclesql.ReadsLength(c):
		n, err := strconv.Atoi(v.String)
		if err != nil {
			return "", fmt.Errorf("LOB length %q", v.String)
		}
		return rd.lob(ctx, at, c, n)
	case c.Type.Kind == table.KindNumber:
		return NumberFromDump(v.String)
	case c.Type.Kind == table.KindTimestamp:
		return utcText(v.String)
	case c.Type.Kind == table.KindDate:
		return strings.TrimSuffix(v.String, "T00:00:00"), nil
	case c.Type.Kind == table.KindVector:
		return vectorFromText(c.Type, v.String)
	}
	return v.String, nil
}

// lob reads n characters (UTF-16 code units, as DBMS_LOB counts them) of
// a LOB of row at in chunks that fit a VARCHAR2 result of at most 3 bytes per code
// unit.
//
// A BLOB's n is bytes, each chunk the hexadecimal of at most half the
// VARCHAR2 limit of bytes (a RAW of at most the RAW limit).
func (rd *reader) lob(ctx context.Context, at oraclesql.Row, c *table.Column, n int) (string, error) {
	amount, chunk := max(1, rd.maxString/3), oraclesql.ReadLOBChunk
	if c.Type.Kind == table.KindBlob {
		amount, chunk = max(1, rd.maxString/2), oraclesql.ReadBinaryChunk
	}
	var b strings.Builder
	for off := 1; off <= n; off += amount {
		st, err := chunk(rd.t, at, c.Name, amount, off)
		if err != nil {
			return "", err
		}
		rows, err := rd.query(ctx, st)
		if err != nil {
			return "", fmt.Errorf("chunk at %d: %w", off, err)
		}
		if len(rows) == 0 || len(rows[0]) == 0 {
			return "", fmt.Errorf("chunk at %d: no row", off)
		}
		b.WriteString(rows[0][0].String)
	}
	return b.String(), nil
}

// dump is DUMP(…, 1016) of the value of row at around the first
// difference, for the report; "" when it cannot be read.
//
// For RAW and BLOB from counts hexadecimal digits of the readback; the
// dump starts at the byte holding the first differing digit.
func (rd *reader) dump(ctx context.Context, at oraclesql.Row, c *table.Column, from int) string {
	if c.Type.IsBinary() {
		from = (from-1)/2 + 1
	}
	st, err := oraclesql.DumpValue(rd.t, at, c, from)
	if err != nil {
		return ""
	}
	rows, err := rd.query(ctx, st)
	if err != nil || len(rows) == 0 {
		return ""
	}
	return rows[0][0].String
}

// canonical is the stored value in the form the readback gives.
func canonical(c *table.Column, v string) string {
	if c.Type.Kind == table.KindTimestamp && v != "" {
		if s, err := utcText(oraclesql.BindText(table.Type{Kind: table.KindTimestamp}, v)); err == nil {
			return s
		}
	}
	if c.Type.IsBinary() && v != "" {
		// The stored form is padded base64; the readback RAWTOHEX's
		// uppercase hexadecimal.
		if b, err := base64.StdEncoding.DecodeString(v); err == nil {
			return strings.ToUpper(hex.EncodeToString(b))
		}
	}
	return v
}

// vectorFromText turns FROM_VECTOR's text (a JSON array of numbers, in
// the server's notation) into the stored form: compact JSON, each element
// rounded to the column's format and printed as the tablemap package prints
// it (shortest text that reads back as the same float32 or float64; an
// integer for INT8). Equal text then means equal elements.
func vectorFromText(t table.Type, s string) (string, error) {
	var nums []json.Number
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&nums); err != nil {
		return "", fmt.Errorf("vector text %.60q: %v", s, err)
	}
	out := make([]byte, 0, len(s))
	out = append(out, '[')
	for i, n := range nums {
		if i > 0 {
			out = append(out, ',')
		}
		bits := 32
		if t.VectorFormat == table.VectorFloat64 {
			bits = 64
		}
		f, err := strconv.ParseFloat(n.String(), bits)
		if err != nil {
			return "", fmt.Errorf("vector text %.60q: element %d: %v", s, i, err)
		}
		if t.VectorFormat == table.VectorInt8 {
			out = strconv.AppendInt(out, int64(math.Round(f)), 10)
			continue
		}
		out = strconv.AppendFloat(out, f, 'g', -1, bits)
	}
	return string(append(out, ']')), nil
}

// firstDiff is the 1-based character position where a and b first differ.
func firstDiff(a, b string) int {
	pos := 1
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb || na != nb {
			break
		}
		a, b, pos = a[na:], b[nb:], pos+1
	}
	return pos
}

// short cuts a long value for the report.
func short(s string) string {
	const n = 120
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes)", len(s))
}

// utcText turns "YYYY-MM-DDTHH:MM:SS.fffffffff" into the stored form:
// trailing fraction zeros trimmed, Z appended.
func utcText(v string) (string, error) {
	head, frac, ok := strings.Cut(v, ".")
	if !ok || len(head) != len("2006-01-02T15:04:05") || len(frac) != 9 {
		return "", fmt.Errorf("timestamp text %q", v)
	}
	if frac = strings.TrimRight(frac, "0"); frac != "" {
		head += "." + frac
	}
	return head + "Z", nil
}

// NumberFromDump decodes DUMP(x) of a NUMBER ("Typ=2 Len=4: 194,2,24,46")
// into the canonical decimal text: an exponent byte (base 100, excess 65,
// complemented for negatives) and base-100 digits (plus 1; negatives 101
// minus the digit and a terminating 102).
func NumberFromDump(s string) (string, error) {
	head, list, ok := strings.Cut(s, ": ")
	if !ok || !strings.HasPrefix(head, "Typ=2 ") {
		return "", fmt.Errorf("not a NUMBER dump: %q", s)
	}
	parts := strings.Split(list, ",")
	b := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 || n > 255 {
			return "", fmt.Errorf("NUMBER dump %q: byte %q", s, p)
		}
		b[i] = n
	}
	if len(b) == 1 && b[0] == 128 {
		return "0", nil
	}
	neg := b[0] < 128
	m := b[1:]
	exp := b[0] - 193
	if neg {
		exp = 62 - b[0]
		if len(m) > 0 && m[len(m)-1] == 102 {
			m = m[:len(m)-1]
		}
	}
	if len(m) == 0 {
		return "", fmt.Errorf("NUMBER dump %q: no digits (infinity?)", s)
	}
	var digits strings.Builder
	for _, x := range m {
		d := x - 1
		if neg {
			d = 101 - x
		}
		if d < 0 || d > 99 {
			return "", fmt.Errorf("NUMBER dump %q: digit byte %d", s, x)
		}
		digits.WriteByte(byte('0' + d/10))
		digits.WriteByte(byte('0' + d%10))
	}
	return placePoint(neg, digits.String(), 2*(exp+1)), nil
}

// placePoint is the canonical decimal text of ±0.digits × 10^point.
func placePoint(neg bool, digits string, point int) string {
	var ip, fp string
	switch {
	case point <= 0:
		ip, fp = "0", strings.Repeat("0", -point)+digits
	case point >= len(digits):
		ip = digits + strings.Repeat("0", point-len(digits))
	default:
		ip, fp = digits[:point], digits[point:]
	}
	ip = strings.TrimLeft(ip, "0")
	if ip == "" {
		ip = "0"
	}
	out := ip
	if fp = strings.TrimRight(fp, "0"); fp != "" {
		out += "." + fp
	}
	if neg && out != "0" {
		out = "-" + out
	}
	return out
}
