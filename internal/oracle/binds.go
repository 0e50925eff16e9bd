package oracle

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// MaxArrayRowsLimit is the most rows one array execute may carry: go-ora
// v2.9.0 encodes a larger iteration count wrongly on re-execution.
const MaxArrayRowsLimit = 65535

// DefaultMaxArrayRows is the rows per array execute when Options leave it 0.
const DefaultMaxArrayRows = 10000

// DefaultMaxStringBytes is the longest value bound as VARCHAR with
// MAX_STRING_SIZE=STANDARD; EXTENDED servers take 32767.
const DefaultMaxStringBytes = 4000

// DefaultMaxTempLOBs bounds the temporary LOBs of one execute. go-ora
// v2.9.0 frees them in steps of 25,000 with `start += end`
// (command.go:1081-1091), so past 50,000 some are never freed until the
// session ends; each also costs 2 round trips (value_getter.go:187-195).
const DefaultMaxTempLOBs = 10000

// expandedBytes is the longest VARCHAR bind Oracle takes after a LOB
// bind: a longer one is "expanded non LONG bind data supplied after
// actual LONG or LOB column" (ORA-24816).
const expandedBytes = 4000

// Charset ids of go-ora's converters (converters.NewStringConverter).
const (
	charsetUTF8      = 871
	charsetAL32UTF8  = 873
	charsetAL16UTF16 = 2000
)

// bindClass is the Go type a bind's values travel as. go-ora declares an
// array bind's type and character set from its elements, so every
// element of one column has the same Go type (notes §2.2).
type bindClass uint8

const (
	bindString   bindClass = iota // []sql.NullString: VARCHAR, "" is NULL
	bindNVarChar                  // []go_ora.NVarChar: national VARCHAR, "" is NULL
	bindLong                      // []sql.NullString longer than a VARCHAR: go-ora sends a LONG bind
	bindClob                      // []go_ora.Clob: a temporary LOB per value
	bindNClob                     // []go_ora.NClob
)

func (c bindClass) locator() bool { return c == bindClob || c == bindNClob || c == bindBlob }

// binder builds the arguments of statement executes from stored values.
// Values other than timestamps are bound as the stored string itself (no
// copy); timestamps are converted with oraclesql.AppendBindText into one
// buffer per column and chunk, so a chunk costs a constant number of
// allocations per column.
//
// It measures every text bind the way go-ora v2.9.0 encodes it: go-ora
// turns a string whose UTF-8 length exceeds its VARCHAR limit into a LONG
// bind (parameter_encode.go:367-372) and sends national text in the
// national character set, AL16UTF16 (converters/string_conversion.go:
// 89-96), so a national value is also limited by its UTF-16 length.
type binder struct {
	maxString int      // go-ora's VARCHAR bind limit (maxLen.varchar)
	national  int      // national character set id: 2000 or 871
	maxLOBs   int      // temporary LOBs per execute
	charset   *charset // the database character set; nil when Unicode
	buf       []byte
	ends      []int
	// bufs are the buffers of each bind (by index into the statement's
	// binds), reused from chunk to chunk: a chunk's arguments are handed
	// to go-ora and encoded before Exec returns, and the next chunk is
	// built only after that (session.exec), so no value outlives its use.
	bufs  []bindBuf
	plain []int // the binds fill copies in its pass over the rows
}

// bindBuf holds one bind's texts and its argument slices of each type.
type bindBuf struct {
	texts []string
	ns    []sql.NullString
	nv    []go_ora.NVarChar
	clob  []go_ora.Clob
	nclob []go_ora.NClob
	bin   [][]byte
	blob  []go_ora.Blob
	bytes []byte // the decoded values of a binary bind, end to end
}

// buffers returns the buffers of n binds.
func (b *binder) buffers(n int) []bindBuf {
	if len(b.bufs) < n {
		b.bufs = append(b.bufs, make([]bindBuf, n-len(b.bufs))...)
	}
	return b.bufs[:n]
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func newBinder(o Options) binder {
	b := binder{maxString: o.MaxStringBytes, national: o.NationalCharsetID, maxLOBs: o.MaxTempLOBs}
	if b.national == 0 {
		b.national = charsetAL16UTF16
	}
	if b.maxLOBs <= 0 {
		b.maxLOBs = DefaultMaxTempLOBs
	}
	b.charset = newCharset(o.Charset)
	return b
}

// wireLen is the length of s on the wire as a text bind of type t.
func (b *binder) wireLen(t table.Type, s string) int {
	if t.IsBinary() {
		return binaryLen(s)
	}
	if !t.National || b.national == charsetUTF8 || b.national == charsetAL32UTF8 {
		return len(s)
	}
	return utf16Bytes(s)
}

// utf16Bytes is the length of s in UTF-16.
func utf16Bytes(s string) int {
	n := 0
	for _, r := range s {
		n += 2 * utf16.RuneLen(r)
	}
	return n
}

// fits reports whether s travels as a VARCHAR bind of type t: go-ora's
// LONG switch measures the UTF-8 length, the server the wire length.
func (b *binder) fits(t table.Type, s string) bool {
	if t.IsBinary() {
		return binaryLen(s) <= b.rawLimit()
	}
	return len(s) <= b.maxString && b.wireLen(t, s) <= b.maxString
}

// longCapable reports whether a value too long for a VARCHAR bind may
// travel as a LONG bind into a column of type t: a non-national CLOB
// (IS JSON checked or not) assigned from a bare placeholder. National
// text would lose its characters in the database character set, and
// JSON(:n) refuses a LONG.
func longCapable(t table.Type) bool {
	return !t.National && (t.Kind == table.KindClob || t.Kind == table.KindJSON && t.JSONAsClob)
}

// longClass is how a value too long for a VARCHAR bind travels: as a
// LONG bind when the statement assigns its placeholders bare (INSERT
// VALUES, UPDATE SET) and the column takes it, else as a temporary LOB.
func longClass(t table.Type, bare bool) bindClass {
	switch {
	case t.IsBinary() && bare:
		return bindLongRaw
	case t.IsBinary():
		return bindBlob
	case bare && longCapable(t):
		return bindLong
	case t.National:
		return bindNClob
	}
	return bindClob
}

// shortClass is how a value that fits a VARCHAR bind travels.
func shortClass(t table.Type) bindClass {
	if t.IsBinary() {
		return bindRaw
	}
	if t.National {
		return bindNVarChar
	}
	return bindString
}

// bare reports whether st assigns row values from bare placeholders, so
// that a LONG bind may stand for a long value: an INSERT, or the UPDATE
// of a split upsert. A MERGE's USING select list refuses LONG binds.
func bare(st *oraclesql.Statement) bool {
	return strings.HasPrefix(st.SQL, "INSERT ") || strings.HasPrefix(st.SQL, "UPDATE ") && st.Rows != 0
}

// texts returns the bind texts of bind for rows (or of its fixed value
// repeated n times) in dst, JSON in ASCII for a non-Unicode database.
func (b *binder) texts(bd *oraclesql.Bind, rows []engine.Row, n int, dst []string) ([]string, error) {
	dst = grow(dst, n)
	if bd.Source == oraclesql.Fixed {
		s := bd.Value
		if bd.Type.Kind == table.KindTimestamp {
			s = string(oraclesql.AppendBindText(nil, bd.Type, s))
		} else {
			s = b.asciiJSON(bd.Type, s)
		}
		for i := range dst {
			dst[i] = s
		}
		return dst, nil
	}
	k := bd.Index
	if bd.Type.Kind != table.KindTimestamp {
		for i := range dst {
			v := rows[i].Values
			if k < 0 || k >= len(v) {
				return nil, missing(bd, rows[i])
			}
			// Measured as sent: JSON escaped to ASCII is longer.
			dst[i] = b.asciiJSON(bd.Type, v[k])
		}
		return dst, nil
	}
	// A value the row before also had (the metadata columns' times of a
	// batch, a run's start) shares that row's text: converted once, stored
	// once.
	b.buf, b.ends = b.buf[:0], b.ends[:0]
	prev, start := "", 0
	for i := range dst {
		v := rows[i].Values
		if k < 0 || k >= len(v) {
			return nil, missing(bd, rows[i])
		}
		if i == 0 || v[k] != prev {
			start = len(b.buf)
			b.buf = oraclesql.AppendBindText(b.buf, bd.Type, v[k])
			prev = v[k]
		}
		b.ends = append(b.ends, start, len(b.buf))
	}
	all := string(b.buf) // one allocation for the column
	for i := range dst {
		dst[i] = all[b.ends[2*i]:b.ends[2*i+1]]
	}
	return dst, nil
}

// fill puts the texts of every bind of st for rows into bufs. Row values
// that are bound as stored are copied in one pass over the rows; fixed
// values, timestamps and JSON for a non-Unicode database are converted
// bind by bind (texts).
func (b *binder) fill(st *oraclesql.Statement, rows []engine.Row, bufs []bindBuf) error {
	n := len(rows)
	plain := b.plain[:0]
	for j := range st.Binds {
		bd := &st.Binds[j]
		if bd.Source == oraclesql.Fixed || bd.Type.Kind == table.KindTimestamp || b.charset != nil && bd.Type.Kind == table.KindJSON {
			continue
		}
		bufs[j].texts = grow(bufs[j].texts, n)
		plain = append(plain, j)
	}
	for i := range rows {
		v := rows[i].Values
		for _, j := range plain {
			k := st.Binds[j].Index
			if k < 0 || k >= len(v) {
				return missing(&st.Binds[j], rows[i])
			}
			bufs[j].texts[i] = v[k]
		}
	}
	b.plain = plain
	for j := range st.Binds {
		bd := &st.Binds[j]
		if bd.Source == oraclesql.Fixed || bd.Type.Kind == table.KindTimestamp || b.charset != nil && bd.Type.Kind == table.KindJSON {
			t, err := b.texts(bd, rows, n, bufs[j].texts)
			if err != nil {
				return err
			}
			bufs[j].texts = t
		}
	}
	return nil
}

func missing(bd *oraclesql.Bind, r engine.Row) error {
	return fmt.Errorf("bind %q: row of line %d has no value %d", bd.Column, r.Line, bd.Index)
}

// longBinds are the binds of one row that cannot travel as VARCHAR, by
// bind index, with the class each travels as.
type longBinds map[int]bindClass

// key identifies rows whose long binds travel alike.
func (l longBinds) key() string {
	js := make([]int, 0, len(l))
	for j := range l {
		js = append(js, j)
	}
	slices.Sort(js)
	var sb strings.Builder
	for _, j := range js {
		fmt.Fprintf(&sb, "%d:%d,", j, l[j])
	}
	return sb.String()
}

// long finds, for each row, the binds of st that cannot travel as
// VARCHAR: a value too long for a VARCHAR bind, and, after a bind that
// travels as a temporary LOB in the same row, a value over 4000 bytes
// (ORA-24816; go-ora sends LONG data after all other binds,
// command.go:502-505, so only LOB locators count). A value too long for
// VARCHAR travels as a LONG bind where bareOK says the statement takes
// one for it, else as a temporary LOB; a value long only by the ORA-24816
// rule always as a temporary LOB (go-ora would send it as VARCHAR). It
// returns nil when every value fits.
//
// It fills the binder's buffers with the texts of rows (fill).
func (b *binder) long(st *oraclesql.Statement, rows []engine.Row, bareOK func(j int) bool) (map[int]longBinds, error) {
	bufs := b.buffers(len(st.Binds))
	if err := b.fill(st, rows, bufs); err != nil {
		return nil, err
	}
	var out map[int]longBinds
	var locBefore map[int]bool
	for j := range st.Binds {
		bd := &st.Binds[j]
		if !isText(bd.Type) && !bd.Type.IsBinary() {
			continue
		}
		// A value no longer than both expandedBytes and the VARCHAR limit
		// (half of each for national text: UTF-16 at most doubles UTF-8)
		// fits a VARCHAR bind and is never long by the ORA-24816 rule:
		// most values need no closer look.
		short := min(expandedBytes, b.maxString)
		switch {
		case bd.Type.IsBinary():
			short = -1
		case bd.Type.National:
			short /= 2
		}
		for i, s := range bufs[j].texts {
			if len(s) <= short {
				continue
			}
			fits := b.fits(bd.Type, s)
			if fits && !(locBefore[i] && b.wireLen(bd.Type, s) > expandedBytes) {
				continue
			}
			c := b.binaryClass(longClass(bd.Type, bareOK(j) && !fits), s)
			if out == nil {
				out = map[int]longBinds{}
			}
			if out[i] == nil {
				out[i] = longBinds{}
			}
			out[i][j] = c
			if c.locator() {
				if locBefore == nil {
					locBefore = map[int]bool{}
				}
				locBefore[i] = true
			}
		}
	}
	return out, nil
}

// isText reports whether values of t are bound as text that may be long
// (numbers, dates, timestamps and booleans are short canonical texts).
func isText(t table.Type) bool {
	switch t.Kind {
	case table.KindVarchar, table.KindClob, table.KindJSON, table.KindVector:
		return true
	}
	return false
}

// execute is one array execute: a statement and the rows it runs for.
type execute struct {
	st    *oraclesql.Statement
	rows  []engine.Row
	long  longBinds // binds of st that travel as LONG binds or temporary LOBs
	count bool      // its row count is the rows written (not the UPDATE of a split upsert)
	// filled: the binder's buffers hold the texts of st for rows (the
	// one execute of a chunk whose values all fit VARCHAR binds).
	filled bool
}

// executes splits one chunk of p's rows into array executes (SPEC §6.1).
// Rows whose values all fit VARCHAR binds run in one execute with no LOB
// bind. The other rows are grouped by which binds are long and how they
// travel, so that every value of such a bind travels alike and no short
// value ever travels as a temporary LOB: an INSERT binds values too long
// for VARCHAR as LONG binds (go-ora sends those last); an upsert runs the
// split shape of oraclesql.SplitUpsert (a MERGE without the long columns,
// then an UPDATE of them with LONG binds); what cannot take a LONG bind
// (national text, native JSON, a MERGE that cannot be split) takes
// temporary LOBs, at most maxLOBs per execute. The number of executes
// depends on the shapes of the rows, not on their number.
func (b *binder) executes(r *oraclesql.Renderer, p *planned, rows []engine.Row) ([]execute, error) {
	split := p.write != nil && p.role == roleMerge && p.st.Rows == oraclesql.RowsOf(engine.RowUpsert)
	isBare := bare(&p.st)
	long, err := b.long(&p.st, rows, func(j int) bool { return isBare || split && splittable(p, j) })
	if err != nil {
		return nil, err
	}
	if long == nil {
		return []execute{{st: &p.st, rows: rows, count: true, filled: true}}, nil
	}
	plain, groups := groupRows(rows, long)
	var out []execute
	if len(plain) > 0 {
		out = append(out, execute{st: &p.st, rows: plain, count: true})
	}
	for _, g := range groups {
		if split && !allSplittable(p, g.long) {
			// A long key or NOT NULL column: the MERGE itself carries
			// the long values, as temporary LOBs.
			again, err := b.long(&p.st, g.rows, func(int) bool { return false })
			if err != nil {
				return nil, err
			}
			_, sub := groupRows(g.rows, again)
			for _, g := range sub {
				out = b.capped(out, execute{st: &p.st, long: g.long, count: true}, g.rows)
			}
			continue
		}
		stmts, err := b.groupStatements(r, p, g.long, split)
		if err != nil {
			return nil, err
		}
		for _, e := range stmts {
			out = b.capped(out, e, g.rows)
		}
	}
	return out, nil
}

// rowGroup is rows whose long binds travel alike.
type rowGroup struct {
	long longBinds
	rows []engine.Row
}

// groupRows splits rows into those without long binds and groups of the
// others, in the order their first rows come.
func groupRows(rows []engine.Row, long map[int]longBinds) (plain []engine.Row, groups []*rowGroup) {
	byKey := map[string]*rowGroup{}
	for i := range rows {
		l := long[i]
		if l == nil {
			plain = append(plain, rows[i])
			continue
		}
		k := l.key()
		g := byKey[k]
		if g == nil {
			g = &rowGroup{long: l}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, rows[i])
	}
	return plain, groups
}

// capped appends e for rows in as many executes as keep each within
// maxLOBs temporary LOBs.
func (b *binder) capped(out []execute, e execute, rows []engine.Row) []execute {
	per := 0
	for _, c := range e.long {
		if c.locator() {
			per++
		}
	}
	step := len(rows)
	if per > 0 {
		step = max(1, b.maxLOBs/per)
	}
	for lo := 0; lo < len(rows); lo += step {
		e.rows = rows[lo:min(lo+step, len(rows))]
		out = append(out, e)
	}
	return out
}

// splittable reports whether bind j of an upsert MERGE may move to the
// UPDATE of a split upsert: a row value of a nullable column that is
// neither a key nor filled with the database time.
func splittable(p *planned, j int) bool {
	bd := &p.st.Binds[j]
	c := p.write.Table.Column(bd.Column)
	return bd.Source == oraclesql.FromRow && c != nil && c.Nullable &&
		!slices.Contains(p.write.KeyColumns, bd.Column) && bd.Column != p.write.DatabaseTime
}

func allSplittable(p *planned, l longBinds) bool {
	for j := range l {
		if !splittable(p, j) {
			return false
		}
	}
	return true
}

// groupStatements returns the statements that run rows whose binds long
// (indexes into p.st.Binds) cannot travel as VARCHAR: the split upsert
// for an upsert MERGE, else p's statement itself.
func (b *binder) groupStatements(r *oraclesql.Renderer, p *planned, long longBinds, split bool) ([]execute, error) {
	if !split {
		return []execute{{st: &p.st, long: long, count: true}}, nil
	}
	var cols []string
	class := map[string]bindClass{}
	for j := range p.st.Binds {
		if c, ok := long[j]; ok {
			cols = append(cols, p.st.Binds[j].Column)
			class[p.st.Binds[j].Column] = c
		}
	}
	stmts, err := r.SplitUpsert(p.write, cols)
	if err != nil {
		return nil, err
	}
	out := make([]execute, len(stmts))
	for i := range stmts {
		st := &stmts[i]
		out[i] = execute{st: st, count: i == 0}
		if i == 0 {
			continue // the MERGE binds no long column
		}
		out[i].long = longBinds{}
		for j, bd := range st.Binds {
			if c, ok := class[bd.Column]; ok && bd.Source == oraclesql.FromRow && !slices.Contains(p.write.KeyColumns, bd.Column) {
				out[i].long[j] = c
			}
		}
	}
	return out, nil
}

// arrayArgs returns one slice per bind of e.st for e.rows: the binds
// listed in e.long as long values (LONG binds or temporary LOBs), every
// other as VARCHAR.
func (b *binder) arrayArgs(e execute) ([]any, error) {
	st, rows := e.st, e.rows
	if err := b.checkSQL(st); err != nil {
		return nil, err
	}
	bufs := b.buffers(len(st.Binds))
	if !e.filled {
		if err := b.fill(st, rows, bufs); err != nil {
			return nil, err
		}
	}
	args := make([]any, len(st.Binds))
	for j := range st.Binds {
		bd, buf := &st.Binds[j], &bufs[j]
		c, ok := e.long[j]
		if !ok {
			c = shortClass(bd.Type)
		}
		if err := b.checkTexts(bd, rows, buf.texts); err != nil {
			return nil, err
		}
		if bd.Type.IsBinary() {
			a, err := binaryColumn(c, bd, rows, buf)
			if err != nil {
				return nil, err
			}
			args[j] = a
			continue
		}
		args[j] = column(c, buf)
	}
	return args, nil
}

// scalarArgs returns the scalar arguments of a statement whose binds are
// all fixed (DDL, session setup, version cleanup, migration chunks).
func (b *binder) scalarArgs(st *oraclesql.Statement) ([]any, error) {
	if err := b.checkSQL(st); err != nil {
		return nil, err
	}
	args := make([]any, len(st.Binds))
	locBefore := false
	for j := range st.Binds {
		bd := &st.Binds[j]
		if bd.Source != oraclesql.Fixed {
			return nil, fmt.Errorf("bind %q of a statement without rows takes its value from a row", bd.Column)
		}
		s := b.asciiJSON(bd.Type, oraclesql.BindText(bd.Type, bd.Value))
		// The session setup's MODULE and ACTION only name the session in
		// V$SESSION: a stream name the character set lacks shows as "ý"
		// there, which is no reason to refuse the load.
		if st.Kind != oraclesql.KindPLSQL {
			if err := b.checkTexts(bd, nil, []string{s}); err != nil {
				return nil, err
			}
		}
		c := shortClass(bd.Type)
		if isText(bd.Type) && (!b.fits(bd.Type, s) || locBefore && b.wireLen(bd.Type, s) > expandedBytes) {
			c = longClass(bd.Type, false)
			locBefore = true
		}
		args[j] = scalar(c, s)
	}
	return args, nil
}

// column converts texts into the slice type of class c. National VARCHAR
// travels as []go_ora.NVarChar with "" for NULL (Oracle's empty string is
// NULL): go-ora takes an array's character set form from its last
// element, and a NULL go_ora.NullNVarChar declares form 0 / charset 0
// while the other elements carry AL16UTF16 (parameter_encode.go:20-23,
// command.go:1656-1689); an empty NVarChar keeps form 2.
//
// The slices are buf's, reused by the next chunk.
func column(c bindClass, buf *bindBuf) any {
	texts := buf.texts
	switch c {
	case bindNVarChar:
		out := grow(buf.nv, len(texts))
		for i, s := range texts {
			out[i] = go_ora.NVarChar(s)
		}
		buf.nv = out
		return out
	case bindClob:
		out := grow(buf.clob, len(texts))
		for i, s := range texts {
			out[i] = go_ora.Clob{String: s, Valid: s != ""}
		}
		buf.clob = out
		return out
	case bindNClob:
		out := grow(buf.nclob, len(texts))
		for i, s := range texts {
			out[i] = go_ora.NClob{String: s, Valid: s != ""}
		}
		buf.nclob = out
		return out
	}
	out := grow(buf.ns, len(texts))
	for i, s := range texts {
		out[i] = sql.NullString{String: s, Valid: s != ""}
	}
	buf.ns = out
	return out
}

// scalar is the scalar bind of s. A national scalar is a go_ora.NVarChar:
// database/sql refuses a valid go_ora.NullNVarChar, whose Value returns a
// *go_ora.NVarChar ("non-Value type *go_ora.NVarChar returned from
// Value"; custom_types.go:66), while NVarChar is no driver.Valuer and
// go-ora's CheckNamedValue passes it through.
func scalar(c bindClass, s string) any {
	switch c {
	case bindNVarChar:
		return go_ora.NVarChar(s)
	case bindClob:
		return go_ora.Clob{String: s, Valid: s != ""}
	case bindNClob:
		return go_ora.NClob{String: s, Valid: s != ""}
	}
	return sql.NullString{String: s, Valid: s != ""}
}

// asciiJSON returns JSON text with every non-ASCII character written as a
// \uXXXX escape when the database character set is not Unicode: the same
// JSON, which no character set conversion can corrupt (go-ora writes an
// unmappable character as 0xFD, string_conversion.go:119-121). Other
// values are returned unchanged.
func (b *binder) asciiJSON(t table.Type, s string) string {
	if b.charset == nil || t.Kind != table.KindJSON || isASCII(s) {
		return s
	}
	return table.ASCIIJSON(s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
