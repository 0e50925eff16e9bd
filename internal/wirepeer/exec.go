package wirepeer

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Execute options (the first field of OALL8).
const (
	OptParse     = 0x01
	OptBind      = 0x08
	OptDefine    = 0x10
	OptExecute   = 0x20
	OptFetch     = 0x40
	OptCommit    = 0x100
	OptNotPLSQL  = 0x8000
	OptBatchErrs = 0x80000
)

// Oracle external type codes the peer names.
const (
	TypeVarchar     = 1
	TypeNumber      = 2
	TypeLong        = 8
	TypeRaw         = 23
	TypeLongRaw     = 24
	TypeLongVarchar = 94
	TypeLongVarRaw  = 95
	TypeCLOB        = 112
	TypeBLOB        = 113
	TypeBFILE       = 114
)

// Bind is one bind's declaration as the client sent it.
type Bind struct {
	Type       int // external type code (1 VARCHAR, 94 LONG VARCHAR, 112 CLOB, …)
	Flags      int
	Precision  int
	Scale      int
	MaxLen     int   // longest value in bytes, as declared
	ArrayLen   int64 // maximum array elements (PL/SQL arrays; 0 for DML arrays)
	ContFlag   uint64
	TOID       []byte
	Version    int
	CharsetID  int
	CSForm     int // 1 database character set, 2 national, 0 none
	MaxCharLen int
	CollID     int64
}

// IsLong reports a LONG-class bind: its values travel after all others.
func (b Bind) IsLong() bool {
	switch b.Type {
	case TypeLong, TypeLongRaw, TypeLongVarchar, TypeLongVarRaw:
		return true
	}
	return false
}

// IsLOB reports a LOB locator bind.
func (b Bind) IsLOB() bool {
	return b.Type == TypeCLOB || b.Type == TypeBLOB || b.Type == TypeBFILE
}

// Value is one bind value of one row.
type Value struct {
	Null  bool
	Bytes []byte // as sent (for a LOB: the locator)
	Text  string // Bytes decoded by the bind's form and character set
}

// Execute is one decoded OALL8 call.
type Execute struct {
	SQL        string
	Options    int
	Cursor     int
	Iterations int // al8i4[1]: rows of an array execute (for a query: rows to fetch)
	// Query: al8i4[7], the client executes a SELECT; Prefetch is the
	// rows it asks for with the first reply.
	Query    bool
	Prefetch int
	ArrayDML int // the DML row-count array size, 0 when not asked for
	Binds    []Bind
	Rows     [][]Value // row-major, in bind order
	// Problems are declarations a real server may take otherwise than
	// the client meant (see check); they do not fail the call.
	Problems []string
}

// AutoCommit reports that the execute asked the server to commit.
func (e *Execute) AutoCommit() bool { return e.Options&OptCommit != 0 }

// execute decodes OALL8: the header of pointers and counts, the SQL text,
// the al8i4 array, the bind declarations and, for an execute with binds,
// one row-data message per iteration.
func (s *session) execute(c *Call, w *ttcWriter) error {
	r := s.r
	e := &Execute{}
	c.Exec = e
	var err error
	u := func(n int) int {
		if err != nil {
			return 0
		}
		var v uint64
		v, err = r.ub(n)
		return int(v)
	}
	ptr := func(what string) int {
		if err != nil {
			return 0
		}
		var b byte
		b, err = r.ub1()
		if err == nil && b > 1 {
			err = fmt.Errorf("OALL8 pointer %s is %d, want 0 or 1", what, b)
		}
		return int(b)
	}
	e.Options = u(4)
	e.Cursor = u(4)
	ptr("cursor")
	sqlLen := u(4)
	ptr("sql")
	if n := u(4); err == nil && n != 13 {
		return fmt.Errorf("OALL8 al8i4 length %d, want 13", n)
	}
	ptr("al8o4")
	ptr("al8o4l")
	u(4) // prefetch buffer size
	e.Prefetch = u(4)
	u(4) // maximum LONG size
	hasBinds := ptr("binds")
	nBinds := u(4)
	for _, p := range []string{"al8app", "al8txn", "al8txl", "al8kv", "al8kvl"} {
		ptr(p)
	}
	ptr("defines")
	nDefines := u(4)
	if s.ttc >= 4 {
		u(4) // registration id
		ptr("al8objlist")
		ptr("al8objlen")
	}
	if s.ttc >= 5 {
		ptr("al8blv")
		u(4)
		ptr("al8dnam")
		u(4)
		u(4) // registration id, high part
	}
	if s.ttc >= 7 {
		if ptr("dml row counts") == 1 {
			e.ArrayDML = u(4)
		} else {
			u(4)
		}
		ptr("dml row counts length")
	}
	if s.ttc >= 8 {
		ptr("sql signature")
		u(4)
		ptr("sql id")
		u(4)
		ptr("sql id length")
	}
	if s.ttc >= 9 {
		ptr("chunk ids")
		u(4)
	}
	if err != nil {
		return fmt.Errorf("OALL8 header: %w", err)
	}
	if sqlLen > 0 {
		b, _, err := r.clr()
		if err != nil {
			return fmt.Errorf("OALL8 SQL text: %w", err)
		}
		if len(b) != sqlLen {
			return fmt.Errorf("OALL8 SQL text of %d bytes, declared %d", len(b), sqlLen)
		}
		e.SQL = string(b)
	}
	var al8i4 [13]int
	for i := range al8i4 {
		al8i4[i] = u(4)
	}
	if err != nil {
		return fmt.Errorf("OALL8 al8i4: %w", err)
	}
	e.Iterations = al8i4[1]
	e.Query = al8i4[7] == 1
	if nDefines > 0 {
		return fmt.Errorf("OALL8 with %d defines: not served by the peer", nDefines)
	}
	if hasBinds == 1 {
		for i := 0; i < nBinds; i++ {
			b, err := s.bindDecl()
			if err != nil {
				return fmt.Errorf("bind %d declaration: %w", i+1, err)
			}
			e.Binds = append(e.Binds, b)
		}
	}
	if len(e.Binds) > 0 && e.Options&OptExecute != 0 {
		n := e.Iterations
		if e.Query {
			n = 1 // a query's binds are one row; al8i4[1] is its fetch size
		}
		for i := 0; i < n; i++ {
			row, err := s.rowData(e.Binds)
			if err != nil {
				return fmt.Errorf("row %d of %d: %w", i+1, n, err)
			}
			e.Rows = append(e.Rows, row)
		}
	}
	return s.answer(c, e, w)
}

// bindDecl reads one bind declaration.
func (s *session) bindDecl() (Bind, error) {
	r := s.r
	var b Bind
	head, err := r.bytes(4)
	if err != nil {
		return b, err
	}
	b.Type, b.Flags, b.Precision, b.Scale = int(head[0]), int(head[1]), int(head[2]), int(head[3])
	if b.MaxLen, err = r.ub4(); err != nil {
		return b, err
	}
	if b.ArrayLen, err = r.sb(4); err != nil {
		return b, err
	}
	contWidth := 4
	if s.ttc >= 10 {
		contWidth = 8
	}
	if b.ContFlag, err = r.ub(contWidth); err != nil {
		return b, err
	}
	n, err := r.ub4()
	if err != nil {
		return b, err
	}
	if n > 0 {
		if b.TOID, _, err = r.clr(); err != nil {
			return b, err
		}
	}
	if b.Version, err = r.ub2(); err != nil {
		return b, err
	}
	if b.CharsetID, err = r.ub2(); err != nil {
		return b, err
	}
	form, err := r.ub1()
	if err != nil {
		return b, err
	}
	b.CSForm = int(form)
	if b.MaxCharLen, err = r.ub4(); err != nil {
		return b, err
	}
	if s.ttc >= 8 {
		if b.CollID, err = r.sb(4); err != nil {
			return b, err
		}
	}
	if b.ArrayLen > 0 {
		return b, fmt.Errorf("PL/SQL array bind (%d elements): not served by the peer", b.ArrayLen)
	}
	return b, nil
}

// rowData reads one row-data message: the values of every bind but the
// LONG ones in bind order, then the LONG ones in bind order.
func (s *session) rowData(binds []Bind) ([]Value, error) {
	m, err := s.r.ub1()
	if err != nil {
		return nil, err
	}
	if m != msgRowData {
		return nil, fmt.Errorf("message type %d, want row data (%d)", m, msgRowData)
	}
	row := make([]Value, len(binds))
	for _, long := range []bool{false, true} {
		for i, b := range binds {
			if b.IsLong() != long {
				continue
			}
			v, err := s.value(b)
			if err != nil {
				return nil, fmt.Errorf("bind %d (type %d): %w", i+1, b.Type, err)
			}
			row[i] = v
		}
	}
	return row, nil
}

func (s *session) value(b Bind) (Value, error) {
	if b.IsLOB() {
		// A locator: its length, then the locator; NULL is a zero length.
		n, err := s.r.ub4()
		if err != nil || n == 0 {
			return Value{Null: true}, err
		}
	}
	data, null, err := s.r.clr()
	if err != nil {
		return Value{}, err
	}
	if null {
		return Value{Null: true}, nil
	}
	v := Value{Bytes: data}
	if !b.IsLOB() {
		v.Text = s.decodeText(b, data)
		return v, nil
	}
	if b.Type == TypeBLOB {
		// Text holds the temporary BLOB's bytes as they are (no character set).
		l, err := s.lobOf(data)
		if err != nil {
			return Value{}, err
		}
		v.Text = string(l.data)
		return v, nil
	}
	if v.Text, err = s.lobText(data); err != nil {
		return Value{}, err
	}
	return v, nil
}

// decodeText turns a character bind's bytes into text by its form: the
// national set for form 2, the database set otherwise (which is what a
// form-0 bind would be read as: a guess, see README.md).
func (s *session) decodeText(b Bind, data []byte) string {
	cs := s.p.facts.Charset
	if b.CSForm == 2 {
		cs = s.p.facts.NCharset
	}
	return decodeCharset(cs, data)
}

// decodeCharset decodes text in the character sets the peer knows;
// others are returned as they are.
func decodeCharset(cs int, data []byte) string {
	switch cs {
	case AL16UTF16:
		return decodeUTF16(data)
	case WE8MSWIN1252:
		return decode1252(data)
	}
	return string(data)
}

// cp1252 maps bytes 0x80..0x9F of Windows-1252; 0 marks the five
// unassigned bytes (decoded as U+FFFD). The other bytes are Latin-1.
var cp1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

func decode1252(data []byte) string {
	out := make([]rune, len(data))
	for i, c := range data {
		switch {
		case c < 0x80 || c > 0x9F:
			out[i] = rune(c)
		case cp1252[c-0x80] == 0:
			out[i] = 0xFFFD
		default:
			out[i] = cp1252[c-0x80]
		}
	}
	return string(out)
}

// decodeUTF16 decodes big-endian UTF-16; an odd length is returned as is.
func decodeUTF16(data []byte) string {
	if len(data)%2 != 0 {
		return string(data)
	}
	u := make([]uint16, len(data)/2)
	for i := range u {
		u[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
	}
	return string(utf16.Decode(u))
}

// answer replies to a decoded execute. The peer has no SQL interpreter
// yet: an INSERT succeeds with one row per iteration, anything else gets
// ORA-03001.
func (s *session) answer(c *Call, e *Execute, w *ttcWriter) error {
	if ora, msg := s.check(e); ora != 0 {
		s.fail(w, c, ora, msg)
		return nil
	}
	if s.p.facts.Backend != nil && !isClockQuery(e.SQL) {
		return s.runBackend(c, e, w)
	}
	verb := strings.ToUpper(strings.Fields(e.SQL + " x")[0])
	if verb != "INSERT" || e.Options&OptExecute == 0 {
		s.fail(w, c, 3001, "unimplemented feature (the wire peer serves INSERT only)")
		return nil
	}
	cursor := e.Cursor
	if cursor == 0 {
		s.cursors++
		cursor = s.cursors
	}
	rows := e.Iterations
	if len(e.Binds) == 0 {
		rows = 1
	}
	var failed []rowError
	if f := s.p.facts.FailRow; f != nil {
		for i := range e.Rows {
			if ora := f(e, i); ora != 0 {
				failed = append(failed, rowError{ora: ora, row: i, msg: fmt.Sprintf("ORA-%05d: row %d refused by the test's FailRow\n", ora, i+1)})
			}
		}
	}
	switch {
	case len(failed) == 0:
		s.summary(w, summary{rows: rows, cursor: cursor})
	case e.Options&OptBatchErrs == 0:
		// Without batch errors the server stops at the first failed row.
		c.ORA = failed[0].ora
		s.summary(w, summary{rows: failed[0].row, cursor: cursor, ora: failed[0].ora, msg: failed[0].msg})
	default:
		c.ORA = 24381
		s.summary(w, summary{rows: rows - len(failed), cursor: cursor, ora: 24381,
			msg: "ORA-24381: error(s) in array DML\n", batch: failed})
	}
	return nil
}

// check applies the server's rules on bind declarations that need no
// catalog. A LONG bind in a query is refused with ORA-00997. A VARCHAR bind longer than the server's VARCHAR limit after a
// LOB or LONG bind is refused with ORA-24816, as servers do (go-ora issue
// #156). A character bind declared with form 0 (no character set) that
// carries values is a problem: the server reads it in the database
// character set, whatever the client encoded.
func (s *session) check(e *Execute) (ora int, msg string) {
	limit := 4000
	if s.p.facts.Varchar32K {
		limit = 32767
	}
	seenLOB := false
	for i, b := range e.Binds {
		if e.Query && b.IsLong() {
			// A LONG bind is data for a LONG or LOB column of an INSERT
			// or UPDATE; a query has none.
			return 997, fmt.Sprintf("illegal use of LONG datatype (bind %d, %d bytes)", i+1, b.MaxLen)
		}
		switch {
		case b.IsLOB() || b.IsLong():
			seenLOB = true
		case seenLOB && b.MaxLen > limit:
			return 24816, fmt.Sprintf("Expanded non LONG bind data supplied after actual LONG or LOB column (bind %d, %d bytes)", i+1, b.MaxLen)
		}
		if b.Type == TypeVarchar && b.CSForm == 0 {
			for r, row := range e.Rows {
				if !row[i].Null {
					e.Problems = append(e.Problems, fmt.Sprintf("bind %d: character set form 0 (no character set) with a value in row %d (%d bytes)", i+1, r+1, len(row[i].Bytes)))
					break
				}
			}
		}
	}
	return 0, ""
}
