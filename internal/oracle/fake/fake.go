// Package fake is an in-memory stand-in for an Oracle server behind the
// oracle engine's Conn seam. It interprets the statements oraclesql
// renders (DDL, INSERT, MERGE, DELETE, UPDATE, the catalog query and the
// session setup) from their SQL text and their array binds, converting
// each bind back from its bind text the way the SQL around the placeholder
// says (TO_NUMBER, TO_TIMESTAMP_TZ, …), and keeps tables as rows of stored
// values, so the whole pipeline can run on the Oracle engine in tests and
// its tables be compared with the embedded engine's.
//
// It models what the engine relies on: transactions (commit, rollback, a
// lost connection losing the transaction), autocommitted DDL, array
// executes in batch-error mode (good rows applied, the first row error
// returned), the server's checks (NOT NULL, lengths, precision, unique
// primary keys, IS JSON and 0/1 checks), the ORA codes of DDL whose work
// is already done, and what lies between the engine and the server:
// database/sql's conversion of scalars over go-ora's CheckNamedValue, and
// go-ora v2.9.0's bind rules, measured with go-ora's own converters (all
// arguments arrays or none, at most 65,535 rows; a string longer than
// Options.MaxStringBytes in UTF-8 is a LONG bind, accepted only as the
// bare value of a CLOB column in INSERT or UPDATE; national text
// measured in AL16UTF16; a national array go-ora declares in charset
// form 0 refused; ORA-24816 after a LOB bind; at most 50,000 temporary
// LOBs per execute; text and SQL converted through Options.Charset). It
// counts temporary LOBs and LONG binds (LOBs) and injects faults at any
// call (Fault).
//
// It does not model locks, concurrency beyond whole-table last-commit-wins,
// the uniqueness of indexes other than the primary key (it records them,
// with their columns, and refuses a second index of a name in a schema,
// ORA-00955, or on a table's indexed column list, ORA-01408), NLS settings, Oracle's
// silent rounding (it refuses what the embedded engine refuses), or the
// conversion SQL of a migration (it applies table.MigrateValue instead).
package fake

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/converters"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// Options configure the fake server.
type Options struct {
	// Schema is the login user's schema (CURRENT_SCHEMA).
	Schema string
	// MaxStringBytes is the server's VARCHAR bind limit (4000 or 32767):
	// a longer string bind is a LONG bind, which fails here.
	MaxStringBytes int
	// Now is SYSTIMESTAMP; nil means time.Now.
	Now func() time.Time
	// Charset is the database character set (NLS_CHARACTERSET); "" means
	// AL32UTF8. Non-national binds and the SQL text are converted with
	// go-ora's converter of that set, as go-ora sends them: a character
	// the set cannot hold arrives as 0xFD ("ý").
	Charset string
	// Schemas are the other users ALL_USERS lists besides Schema (a table
	// created in a schema lists it too).
	Schemas []string
}

// Op is a kind of database call, for fault injection and counting.
type Op uint8

const (
	OpDial     Op = iota + 1 // opening a session
	OpSetup                  // the session setup block (PL/SQL)
	OpQuery                  // catalog queries (Describe)
	OpDDL                    // CREATE, ALTER, COMMENT, GRANT, TRUNCATE
	OpInsert                 // INSERT executes (each array execute is one call)
	OpMerge                  // MERGE executes
	OpDelete                 // DELETE executes
	OpUpdate                 // UPDATE executes
	OpBegin                  // starting a transaction
	OpCommit                 // COMMIT
	OpRollback               // ROLLBACK
	OpLock                   // LOCK TABLE (a rewrite migration's chunk)
	opCount
)

var opNames = [...]string{"", "dial", "setup", "query", "DDL", "INSERT", "MERGE", "DELETE", "UPDATE", "begin", "commit", "rollback", "LOCK"}

func (o Op) String() string {
	if o > 0 && o < opCount {
		return opNames[o]
	}
	return "unknown op"
}

// Fault fails calls of one kind.
type Fault struct {
	Op Op
	// Nth is the call that fails, counted from when the fault was
	// injected (1, or 0, is the next call).
	Nth int
	// Times is how many calls fail from the Nth on (0 means 1).
	Times int
	// Code is the ORA error number to fail with; 0 means the connection
	// is lost (the call returns an error wrapping io.EOF). Codes that
	// break a real session (ORA-03113, …) lose the connection as well.
	Code int
	// Applied makes the call take effect before it fails: a COMMIT whose
	// reply is lost, a DDL that ran.
	Applied bool
	// Match, when not "", makes the fault hit only executes with a bind
	// value (of any row) whose printed form contains Match: a row error
	// of one record, with a code the fake would not produce itself. Nth
	// and Times count matching calls only.
	Match string
	// Hang makes the call block until its context is done and then fail
	// the way go-ora does on a deadline: it sends a break and returns the
	// server's ORA-01013, never ctx.Err(). The call never returns while
	// its context lives: use it with a statement timeout.
	Hang bool
	// Err, when set, is the error returned instead of an ORA error: go-ora
	// protocol failures come as plain errors ("TTC error: …").
	Err error

	seen int
}

// poisoning reports whether the session is not to be trusted after f: an
// interrupted call, or a go-ora protocol failure. The fake then fails any
// later call on the session loudly, so that a test sees the engine reuse
// it.
func (f *Fault) poisoning() bool {
	return f.Hang || f.Err != nil || f.Code == 3120 || f.Code == 3137 || f.Code == 3146
}

// matches reports whether args hold a value that prints with f.Match.
func (f *Fault) matches(args []any) bool {
	if f.Match == "" {
		return true
	}
	for _, a := range args {
		v := reflect.ValueOf(a)
		if v.Kind() != reflect.Slice {
			if strings.Contains(fmt.Sprint(a), f.Match) {
				return true
			}
			continue
		}
		for i := range v.Len() {
			if strings.Contains(fmt.Sprint(v.Index(i).Interface()), f.Match) {
				return true
			}
		}
	}
	return false
}

// ErrLost is wrapped by the errors of a lost connection.
var ErrLost = fmt.Errorf("fake: connection lost: %w", io.EOF)

// DB is the fake server. It is safe for concurrent use.
type DB struct {
	o     Options
	conv  converters.IStringConverter // database character set; nil for Unicode
	nconv converters.IStringConverter // national character set (AL16UTF16)

	mu      sync.Mutex
	tables  map[string]*tbl    // SCHEMA.NAME
	indexes map[string]index   // SCHEMA.INDEX, the primary keys' not included
	faults  []*Fault           //
	calls   [opCount]int       // calls per op
	actions []string           // V$SESSION.ACTION of every session set up
	setups  []string           // SQL of every session setup
	open    int                // connections not closed
	log     []string           // SQL of every statement executed, in order
	args    map[string][][]any // arguments of the last executes, by SQL prefix
	lobs    LOBStats           // temporary LOBs and LONG binds of DML executes
	rowErrs []RowError         // the failed rows of the last array execute (wire.go)
	tamper  Tamper             // changes readback values (scratch.go)
}

// LOBStats count how long values travelled in DML executes.
type LOBStats struct {
	TempLOBs      int // temporary LOBs (non-NULL Clob/NClob values) in all
	MaxPerExecute int // the most temporary LOBs of one execute
	LOBExecutes   int // executes with at least one temporary LOB
	LongBinds     int // LONG bind arguments (strings over the VARCHAR limit)
}

// LOBs returns the LOB statistics of the executes so far.
func (db *DB) LOBs() LOBStats {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.lobs
}

// New returns an empty fake server.
func New(o Options) *DB {
	if o.MaxStringBytes <= 0 {
		o.MaxStringBytes = 4000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	db := &DB{o: o, tables: map[string]*tbl{}, indexes: map[string]index{}}
	db.nconv = converters.NewStringConverter(2000)
	if id := oracle.CharsetID(o.Charset); o.Charset != "" && id != 871 && id != 873 {
		db.conv = converters.NewStringConverter(id)
		if db.conv == nil {
			panic("fake: character set unknown to go-ora: " + o.Charset)
		}
	}
	return db
}

// Inject adds a fault.
func (db *DB) Inject(f Fault) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if f.Nth <= 0 {
		f.Nth = 1
	}
	if f.Times <= 0 {
		f.Times = 1
	}
	db.faults = append(db.faults, &f)
}

// Calls returns how many calls of op were made.
func (db *DB) Calls(op Op) int {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.calls[op]
}

// Actions returns the ACTION of every session set up, in order.
func (db *DB) Actions() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]string(nil), db.actions...)
}

// Setups returns the SQL of every session setup, in order.
func (db *DB) Setups() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]string(nil), db.setups...)
}

// Open returns the number of connections dialed and not closed.
func (db *DB) Open() int {
	db.mu.Lock()
	defer db.mu.Unlock()
	return db.open
}

// Statements returns the SQL of every statement executed, in order.
func (db *DB) Statements() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]string(nil), db.log...)
}

// Tables returns the qualified names of the tables.
func (db *DB) Tables() []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	var out []string
	for k := range db.tables {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Rows returns the committed rows of a table, by primary key when it has
// one, else in insertion order; each maps column name to stored value
// (NULL columns are absent).
func (db *DB) Rows(qualified string) []map[string]string {
	db.mu.Lock()
	defer db.mu.Unlock()
	t := db.tables[qualified]
	if t == nil {
		return nil
	}
	return t.ordered()
}

// Columns returns the column names and declared types of a table, in
// order ("NUMBER(1)" and "CLOB" keep their checks apart: see Checks).
func (db *DB) Columns(qualified string) []string {
	db.mu.Lock()
	defer db.mu.Unlock()
	t := db.tables[qualified]
	if t == nil {
		return nil
	}
	var out []string
	for _, c := range t.cols {
		out = append(out, c.name+" "+c.typ.String())
	}
	return out
}

// Exec runs a statement on the server as a DBA would, outside the engine
// (test setup). It bypasses fault injection.
func (db *DB) Exec(st oraclesql.Statement, args ...any) (int64, error) {
	c := &conn{db: db}
	db.mu.Lock()
	defer db.mu.Unlock()
	return c.run(nil, &st, args)
}

// Dial implements oracle.Dialer.
func (db *DB) Dial(ctx context.Context) (oracle.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	db.mu.Lock()
	defer db.mu.Unlock()
	if f := db.fault(OpDial); f != nil {
		if f.Code == 0 {
			return nil, fmt.Errorf("dial: %w", ErrLost)
		}
		return nil, oraError(f.Code, "fault injected at dial")
	}
	db.open++
	return &conn{db: db}, nil
}

// fault counts a call of op and returns the fault it hits, if any. args
// are the call's binds (nil for calls without).
func (db *DB) fault(op Op, args ...any) *Fault {
	db.calls[op]++
	for _, f := range db.faults {
		if f.Op != op || f.seen >= f.Nth+f.Times-1 || !f.matches(args) {
			continue
		}
		f.seen++
		if f.seen >= f.Nth {
			return f
		}
	}
	return nil
}

func oraError(code int, format string, a ...any) error {
	e := network.NewOracleError(code) // no parse position
	e.ErrMsg = fmt.Sprintf("ORA-%05d: ", code) + fmt.Sprintf(format, a...)
	return e
}

// conn is one session.
type conn struct {
	db     *DB
	lost   bool
	closed bool
	tx     *tx
	// poisoned is set by a fault after which a real session's state is
	// unknown (Fault.poisoning): every later call fails with errPoisoned.
	poisoned bool
}

// errPoisoned is the error of a call on a session the engine should have
// dropped. It carries no ORA code, so the engine treats it as permanent
// and the test sees it.
var errPoisoned = errors.New("fake: a session interrupted by a break or a protocol error was used again (it must be dropped)")

var _ oracle.Conn = (*conn)(nil)

// usable reports a closed or lost session. Callers hold db.mu.
func (c *conn) usable(ctx context.Context) error {
	switch {
	case c.closed:
		return errors.New("fake: use of a closed connection")
	case c.lost:
		return driver.ErrBadConn
	case c.poisoned:
		return errPoisoned
	}
	return ctx.Err()
}

// failWith returns the error of fault f and loses the session when f
// says so. Callers hold db.mu.
func (c *conn) failWith(f *Fault, op Op) error {
	if f.poisoning() {
		c.poisoned = true
	}
	if f.Err != nil {
		return fmt.Errorf("%s: %w", op, &protocolFault{f.Err})
	}
	if f.Code == 0 {
		c.lose()
		return fmt.Errorf("%s: %w", op, ErrLost)
	}
	err := oraError(f.Code, "fault injected at %s", op)
	var oe *network.OracleError
	if errors.As(err, &oe) && oe.Bad() {
		c.lose()
	}
	return err
}

// lose drops the session: its open transaction is rolled back.
func (c *conn) lose() {
	c.lost = true
	c.tx = nil
}

func opOf(st *oraclesql.Statement) Op {
	switch st.Kind {
	case oraclesql.KindPLSQL:
		return OpSetup
	case oraclesql.KindQuery:
		return OpQuery
	case oraclesql.KindDDL:
		return OpDDL
	}
	switch {
	case strings.HasPrefix(st.SQL, "INSERT"):
		return OpInsert
	case strings.HasPrefix(st.SQL, "MERGE"):
		return OpMerge
	case strings.HasPrefix(st.SQL, "DELETE"):
		return OpDelete
	case strings.HasPrefix(st.SQL, "LOCK TABLE "):
		return OpLock
	}
	return OpUpdate
}

// Exec implements oracle.Conn: DDL and autocommitted DML.
func (c *conn) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	c.db.mu.Lock()
	defer c.db.mu.Unlock()
	if err := c.usable(ctx); err != nil {
		return 0, err
	}
	if c.tx != nil && st.Kind == oraclesql.KindDDL {
		return 0, errors.New("fake: DDL on a session with an open transaction (the engine must never mix them)")
	}
	return c.call(ctx, st, args, nil)
}

// call runs st with fault injection. w is the transaction's work, or nil
// to autocommit. Callers hold db.mu.
func (c *conn) call(ctx context.Context, st *oraclesql.Statement, args []any, w *work) (int64, error) {
	op := opOf(st)
	f := c.db.fault(op, args...)
	if f != nil && f.Hang {
		// go-ora: the call's goroutine waits for the reply while
		// StartContext's sends a break at the deadline; the server
		// answers ORA-01013 and the transaction's state is unknown.
		c.db.mu.Unlock()
		<-ctx.Done()
		c.db.mu.Lock()
		c.poisoned = true
		return 0, oraError(1013, "user requested cancel of current operation")
	}
	if f != nil && !f.Applied {
		return 0, c.failWith(f, op)
	}
	n, err := c.run(w, st, args)
	if f != nil {
		return 0, c.failWith(f, op)
	}
	return n, err
}

// run interprets one statement. Callers hold db.mu.
func (c *conn) run(w *work, st *oraclesql.Statement, args []any) (int64, error) {
	c.db.rowErrs = nil
	c.db.log = append(c.db.log, st.SQL)
	c.db.recordArgs(st, args)
	st = c.db.sent(st)
	b, err := c.db.decodeArgs(st, args)
	if err != nil {
		return 0, err
	}
	if st.Kind == oraclesql.KindDML {
		c.db.countLOBs(b)
	}
	switch st.Kind {
	case oraclesql.KindPLSQL:
		return 0, c.db.plsql(st, b)
	case oraclesql.KindDDL:
		return 0, c.db.ddl(st.SQL)
	case oraclesql.KindQuery:
		return 0, errors.New("fake: a query sent to Exec")
	}
	if rest, ok := strings.CutPrefix(st.SQL, "LOCK TABLE "); ok {
		return 0, c.db.lockTable(w, rest)
	}
	auto := w == nil
	if auto {
		w = c.db.newWork()
	}
	n, err := w.dml(st, b)
	if auto {
		// Outside a transaction go-ora autocommits, and in batch-error
		// mode the good rows of a failed array execute are committed too.
		w.commit()
	}
	return n, err
}

// sent is st as the server receives it: go-ora encodes the SQL text in
// the database character set (command.go:86-99).
func (db *DB) sent(st *oraclesql.Statement) *oraclesql.Statement {
	if db.conv == nil {
		return st
	}
	c := *st
	c.SQL = db.conv.Decode(db.conv.Encode(st.SQL))
	return &c
}

func (db *DB) countLOBs(b *binds) {
	db.lobs.TempLOBs += b.lobs
	db.lobs.MaxPerExecute = max(db.lobs.MaxPerExecute, b.lobs)
	if b.lobs > 0 {
		db.lobs.LOBExecutes++
	}
	for _, l := range b.long {
		if l {
			db.lobs.LongBinds++
		}
	}
}

// recordArgs keeps a copy of the arguments of the last 16 executes per
// statement shape, for tests that check how values were bound: the
// engine reuses its argument slices from one execute to the next, as
// go-ora has encoded them before Exec returns.
func (db *DB) recordArgs(st *oraclesql.Statement, args []any) {
	if db.args == nil {
		db.args = map[string][][]any{}
	}
	k := shapeOf(st.SQL)
	kept := make([]any, len(args))
	for i, v := range args {
		kept[i] = detach(v)
	}
	a := append(db.args[k], kept)
	if len(a) > 16 {
		a = a[1:]
	}
	db.args[k] = a
}

// detach copies an array argument (and the bytes of binary values).
func detach(v any) any {
	switch a := v.(type) {
	case [][]byte:
		out := make([][]byte, len(a))
		for i, b := range a {
			if b != nil {
				out[i] = bytes.Clone(b)
			}
		}
		return out
	case []go_ora.Blob:
		out := make([]go_ora.Blob, len(a))
		for i, b := range a {
			out[i] = go_ora.Blob{Data: bytes.Clone(b.Data)}
		}
		return out
	case []byte:
		return bytes.Clone(a)
	}
	if r := reflect.ValueOf(v); r.Kind() == reflect.Slice {
		c := reflect.MakeSlice(r.Type(), r.Len(), r.Len())
		reflect.Copy(c, r)
		return c.Interface()
	}
	return v
}

func shapeOf(sql string) string {
	if i := strings.IndexAny(sql, " "); i > 0 {
		return sql[:i]
	}
	return sql
}

// Args returns the arguments of the last (at most 16) executes whose SQL
// starts with verb ("INSERT", "MERGE", "DELETE", "UPDATE", "BEGIN", …).
func (db *DB) Args(verb string) [][]any {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([][]any(nil), db.args[verb]...)
}

// plsql runs the session setup or SET_ACTION block.
func (db *DB) plsql(st *oraclesql.Statement, b *binds) error {
	if !strings.HasPrefix(st.SQL, "BEGIN") || !strings.HasSuffix(st.SQL, "END;") {
		return oraError(6550, "PL/SQL: block must be BEGIN … END;")
	}
	switch {
	case strings.Contains(st.SQL, "SET_MODULE"):
		if b.cols != 2 {
			return oraError(6550, "SET_MODULE takes 2 arguments")
		}
		db.actions = append(db.actions, b.text(1, 0))
		db.setups = append(db.setups, st.SQL)
	case strings.Contains(st.SQL, "SET_ACTION"):
		db.actions = append(db.actions, b.text(0, 0))
	}
	return nil
}

// Query implements oracle.Conn: it answers oraclesql.DescribeTable, the
// table comment query and oraclesql.HasRows.
func (c *conn) Query(ctx context.Context, st *oraclesql.Statement, args []any) ([][]sql.NullString, error) {
	c.db.mu.Lock()
	defer c.db.mu.Unlock()
	if err := c.usable(ctx); err != nil {
		return nil, err
	}
	if f := c.db.fault(OpQuery); f != nil {
		return nil, c.failWith(f, OpQuery)
	}
	c.db.log = append(c.db.log, st.SQL)
	if rows, ok, err := c.db.pruneCount(st, args); ok {
		return rows, err
	}
	if st.SQL == oraclesql.ProbeSchema("").SQL { // ALL_USERS
		b, err := c.db.decodeArgs(st, args)
		if err != nil {
			return nil, err
		}
		if name := b.text(0, 0); c.db.userExists(name) {
			return [][]sql.NullString{{{String: name, Valid: true}}}, nil
		}
		return nil, nil
	}
	if strings.HasPrefix(st.SQL, hasRowsPrefix) {
		return c.anyRow(st.SQL)
	}
	if rows, ok, err := c.db.scratchQuery(st, args); ok {
		return rows, err
	}
	isComment := strings.HasPrefix(st.SQL, "SELECT TC.COMMENTS")
	isIndexes := strings.HasPrefix(st.SQL, "SELECT IND.OWNER, IND.INDEX_NAME")
	if !strings.HasPrefix(st.SQL, "SELECT COL.COLUMN_NAME, COL.DATA_TYPE") && !isComment && !isIndexes {
		return nil, fmt.Errorf("fake: unsupported query %.60q", st.SQL)
	}
	b, err := c.db.decodeArgs(st, args)
	if err != nil {
		return nil, err
	}
	owner, name := c.db.o.Schema, ""
	for i, bd := range st.Binds {
		switch bd.Column {
		case "owner":
			owner = b.text(i, 0)
		case "table":
			name = b.text(i, 0)
		}
	}
	if isComment {
		return c.db.describeComment(owner + "." + name), nil
	}
	if isIndexes {
		return c.db.describeIndexes(owner + "." + name), nil
	}
	return c.db.describe(owner + "." + name), nil
}

// Begin implements oracle.Conn.
func (c *conn) Begin(ctx context.Context) (oracle.Tx, error) {
	c.db.mu.Lock()
	defer c.db.mu.Unlock()
	if err := c.usable(ctx); err != nil {
		return nil, err
	}
	if f := c.db.fault(OpBegin); f != nil {
		return nil, c.failWith(f, OpBegin)
	}
	if c.tx != nil {
		return nil, errors.New("fake: a transaction is already open on this session")
	}
	c.tx = &tx{c: c, w: c.db.newWork()}
	return c.tx, nil
}

// Close implements oracle.Conn. An open transaction is rolled back.
func (c *conn) Close() error {
	c.db.mu.Lock()
	defer c.db.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed, c.tx = true, nil
	c.db.open--
	return nil
}

// tx is a transaction: its work becomes visible at Commit.
type tx struct {
	c    *conn
	w    *work
	done bool
}

func (t *tx) check() error {
	switch {
	case t.done:
		return errors.New("fake: transaction already committed or rolled back")
	case t.c.lost || t.c.tx != t:
		return driver.ErrBadConn
	case t.c.poisoned:
		return errPoisoned
	}
	return nil
}

// Exec implements oracle.Tx.
func (t *tx) Exec(ctx context.Context, st *oraclesql.Statement, args []any) (int64, error) {
	db := t.c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := t.check(); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if st.Kind != oraclesql.KindDML {
		return 0, fmt.Errorf("fake: %s statement inside a transaction", st.Kind)
	}
	return t.c.call(ctx, st, args, t.w)
}

// Commit implements oracle.Tx.
func (t *tx) Commit() error {
	db := t.c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if err := t.check(); err != nil {
		return err
	}
	f := db.fault(OpCommit)
	if f != nil && !f.Applied {
		t.done = true
		t.c.tx = nil
		return t.c.failWith(f, OpCommit)
	}
	t.w.commit()
	t.done = true
	t.c.tx = nil
	if f != nil {
		return t.c.failWith(f, OpCommit)
	}
	return nil
}

// Rollback implements oracle.Tx.
func (t *tx) Rollback() error {
	db := t.c.db
	db.mu.Lock()
	defer db.mu.Unlock()
	if t.done {
		return sql.ErrTxDone
	}
	t.done = true
	if t.c.tx == t {
		t.c.tx = nil
	}
	if f := db.fault(OpRollback); f != nil {
		return t.c.failWith(f, OpRollback)
	}
	if t.c.lost {
		return driver.ErrBadConn
	}
	return nil
}

// now returns SYSTIMESTAMP as the stored text of a column of type t.
func (db *DB) now(t table.Type) string {
	n := db.o.Now().UTC().Truncate(time.Microsecond)
	if t.Kind == table.KindDate {
		return n.Format("2006-01-02")
	}
	return n.Format("2006-01-02T15:04:05.999999999Z")
}

// lockTable checks a LOCK TABLE: inside a transaction, on a table that
// exists, in EXCLUSIVE MODE with a bounded wait. The fake has no
// concurrent writers to hold off, so the lock itself does nothing.
func (db *DB) lockTable(w *work, rest string) error {
	if w == nil {
		return errors.New("fake: LOCK TABLE outside a transaction (it would end at once)")
	}
	s, n, mode, err := db.qname(rest)
	if err != nil {
		return err
	}
	if mode != " IN EXCLUSIVE MODE NOWAIT" && !strings.HasPrefix(mode, " IN EXCLUSIVE MODE WAIT ") {
		return fmt.Errorf("fake: unsupported lock %q (want EXCLUSIVE MODE and a bounded wait)", mode)
	}
	_, err = db.table(s + "." + n)
	return err
}
