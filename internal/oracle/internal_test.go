package oracle

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/converters"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

func TestClassify(t *testing.T) {
	ora := func(code int) error {
		return &network.OracleError{ErrCode: code, ErrMsg: fmt.Sprintf("ORA-%05d", code)}
	}
	for _, c := range []struct {
		err             error
		transient, lost bool
	}{
		{ora(3113), true, true},
		{ora(3114), true, true},
		{ora(3135), true, true},
		{ora(12170), true, true},
		{ora(12541), true, true},
		{ora(60), true, false},
		{ora(54), true, false},
		// A busy server: the listener or the logon refuses, a lock wait
		// times out. Retried, the session is not lost.
		{ora(12516), true, false},
		{ora(12519), true, false},
		{ora(12520), true, false},
		{ora(18), true, false},
		{ora(20), true, false},
		{ora(4021), true, false},
		{ora(30006), true, false},
		{ora(12514), false, false}, // the listener does not know the service: configuration
		{fmt.Errorf("load: %w", ora(60)), true, false},
		{ora(1), false, false},
		{ora(1400), false, false},
		{ora(942), false, false},
		{io.EOF, true, true},
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true, true},
		{syscall.EPIPE, true, true},
		{driver.ErrBadConn, true, true},
		{&net.OpError{Op: "write", Net: "tcp", Err: syscall.ECONNRESET}, true, true},
		{context.Canceled, false, false},
		{fmt.Errorf("x: %w", context.DeadlineExceeded), false, false},
		{errors.New("something else"), false, false},
		// go-ora protocol bugs (#697, #724): retried on a fresh session.
		{ora(3146), true, true},
		{ora(3137), true, true},
		{ora(3120), true, true},
		{fmt.Errorf("exec: %w", errors.New("TTC error: received code 5 during response reading")), true, true},
		{errors.New("receive abnormal packet type 12 instead of data packet"), true, true},
		{ora(1013), false, false},
		{&TimeoutError{Limit: time.Second, Err: ora(1013)}, false, false},
	} {
		if got := transient(c.err); got != c.transient {
			t.Errorf("transient(%v) = %v", c.err, got)
		}
		if got := connectionLost(c.err); got != c.lost {
			t.Errorf("connectionLost(%v) = %v", c.err, got)
		}
	}
}

func ns(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// catalogRow is a DescribeTable row; "" is NULL.
func catalogRow(name, dataType, dataLength, charLength, charUsed, precision, scale, jsonChecks string) []sql.NullString {
	return []sql.NullString{ns(name), ns(dataType), ns(dataLength), ns(charLength), ns(charUsed), ns(precision), ns(scale),
		ns("Y"), ns(""), ns(""), ns(jsonChecks), ns("NO"), ns("NO"), ns(""), ns("NO"), ns("NO"), ns(""), ns(""), ns("")}
}

// TestDependentsFromCatalog: DEPENDENTS reads back as the objects a
// rewrite of the column would drop; a malformed list is an error, not
// "nothing there".
func TestDependentsFromCatalog(t *testing.T) {
	r := catalogRow("V", "NUMBER", "22", "0", "", "38", "0", "0")
	r[colDependents] = ns(`I"S_V_IX"I"a, b "U"S_V_UK"C"S_V_POS"R"S_V_FK"F"CHILD.CHILD_FK"`)
	tb, err := tableFromCatalog("S", "T", [][]sql.NullString{r})
	if err != nil {
		t.Fatal(err)
	}
	want := []table.Dependent{{Kind: table.DependentIndex, Name: "S_V_IX"}, {Kind: table.DependentIndex, Name: "a, b "},
		{Kind: table.DependentUnique, Name: "S_V_UK"}, {Kind: table.DependentCheck, Name: "S_V_POS"},
		{Kind: table.DependentForeignKey, Name: "S_V_FK"}, {Kind: table.DependentReferenced, Name: "CHILD.CHILD_FK"}}
	if got := tb.Columns[0].Dependents; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("dependents %v, want %v", got, want)
	}
	for _, bad := range []string{`I"X`, `X"Y"`, `IX"Y"`, `"Y"`} {
		r[colDependents] = ns(bad)
		if _, err := tableFromCatalog("S", "T", [][]sql.NullString{r}); err == nil {
			t.Errorf("DEPENDENTS %q read without an error", bad)
		}
	}
}

func TestTypeFromCatalog(t *testing.T) {
	for _, c := range []struct {
		row  []sql.NullString
		want table.Type
	}{
		{catalogRow("A", "NUMBER", "22", "0", "", "", "", "0"), table.Type{Kind: table.KindNumber}},
		{catalogRow("A", "NUMBER", "22", "0", "", "", "0", "0"), table.Type{Kind: table.KindNumber, Precision: 38}},
		{catalogRow("A", "NUMBER", "22", "0", "", "38", "0", "0"), table.Type{Kind: table.KindNumber, Precision: 38}},
		{catalogRow("A", "NUMBER", "22", "0", "", "12", "2", "0"), table.Type{Kind: table.KindNumber, Precision: 12, Scale: 2}},
		{catalogRow("A", "NUMBER", "22", "0", "", "1", "0", "0"), table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}},
		{catalogRow("A", "BOOLEAN", "1", "0", "", "", "", "0"), table.Type{Kind: table.KindBoolean}},
		{catalogRow("A", "VARCHAR2", "400", "100", "C", "", "", "0"), table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}},
		{catalogRow("A", "VARCHAR2", "4000", "4000", "B", "", "", "0"), table.Type{Kind: table.KindVarchar, Length: 4000}},
		{catalogRow("A", "NVARCHAR2", "400", "200", "C", "", "", "0"), table.Type{Kind: table.KindVarchar, Length: 200, CharSemantics: true, National: true}},
		{catalogRow("A", "CLOB", "4000", "0", "", "", "", "0"), table.Type{Kind: table.KindClob}},
		{catalogRow("A", "NCLOB", "4000", "0", "", "", "", "0"), table.Type{Kind: table.KindClob, National: true}},
		{catalogRow("A", "CLOB", "4000", "0", "", "", "", "1"), table.Type{Kind: table.KindJSON, JSONAsClob: true}},
		{catalogRow("A", "JSON", "8200", "0", "", "", "", "0"), table.Type{Kind: table.KindJSON}},
		{catalogRow("A", "DATE", "7", "0", "", "", "", "0"), table.Type{Kind: table.KindDate}},
		{catalogRow("A", "TIMESTAMP(6) WITH TIME ZONE", "13", "0", "", "", "6", "0"), table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}},
		{catalogRow("A", "TIMESTAMP(9)", "11", "0", "", "", "9", "0"), table.Type{Kind: table.KindTimestamp, Frac: 9}},
		// Types the target never creates: kept, not writable.
		{catalogRow("A", "TIMESTAMP(6) WITH LOCAL TIME ZONE", "11", "0", "", "", "6", "0"), table.Type{}},
		{catalogRow("A", "FLOAT", "22", "0", "", "126", "", "0"), table.Type{}},
		{catalogRow("A", "LONG RAW", "0", "0", "", "", "", "0"), table.Type{}},
		// interpret_content_encoding and 23ai VECTOR (shape not in ALL_TAB_COLS).
		{catalogRow("A", "RAW", "16", "0", "", "", "", "0"), table.Type{Kind: table.KindRaw, Length: 16}},
		{catalogRow("A", "BLOB", "4000", "0", "", "", "", "0"), table.Type{Kind: table.KindBlob}},
		{catalogRow("A", "VECTOR", "0", "0", "", "", "", "0"), table.Type{Kind: table.KindVector}},
	} {
		got, err := typeFromCatalog(c.row)
		if err != nil || got != c.want {
			t.Errorf("%s(%s,%s): %+v, %v; want %+v", c.row[1].String, c.row[5].String, c.row[6].String, got, err, c.want)
		}
	}
}

func TestTableFromCatalog(t *testing.T) {
	rows := [][]sql.NullString{
		catalogRow("B", "NUMBER", "22", "0", "", "38", "0", "0"),
		catalogRow("A", "VARCHAR2", "40", "10", "C", "", "", "0"),
		catalogRow("X", "VARCHAR2", "40", "10", "C", "", "", "0"),
	}
	rows[0][colNullable], rows[0][colPKPosition] = ns("N"), ns("2")
	rows[1][colNullable], rows[1][colPKPosition] = ns("N"), ns("1")
	rows[1][colComments] = ns(`target-oracle:path=["a"]; the A`)
	rows[2][colComments] = ns("a DBA's note")
	got, err := tableFromCatalog("S", "T", rows)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.PrimaryKey) != "[A B]" {
		t.Errorf("primary key %v, want [A B] by position", got.PrimaryKey)
	}
	a := got.Column("A")
	if a.Role != table.RoleProperty || fmt.Sprint(a.Source) != "[a]" || a.Comment != "the A" || a.Nullable {
		t.Errorf("column A %+v", a)
	}
	if x := got.Column("X"); x.Role != 0 || x.Source != nil || x.Comment != "a DBA's note" || !x.Nullable {
		t.Errorf("column X %+v", x)
	}
	if none, err := tableFromCatalog("S", "T", nil); none != nil || err != nil {
		t.Errorf("no rows: %v, %v", none, err)
	}
	if _, err := tableFromCatalog("S", "T", [][]sql.NullString{{ns("A")}}); err == nil {
		t.Error("short row accepted")
	}
}

func TestBackoff(t *testing.T) {
	e := New(nil, oraclesql.New(oraclesql.Options{}), Options{})
	var got []string
	for n := 1; n <= 7; n++ {
		got = append(got, e.backoff(n).String())
	}
	if fmt.Sprint(got) != "[1s 2s 4s 8s 16s 30s 30s]" {
		t.Errorf("backoff %v", got)
	}
}

// benchWrite is a Write of n rows with a number, a text and a timestamp.
func benchWrite(n int) (*oraclesql.Statement, []engine.Row) {
	tz := table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}
	st := &oraclesql.Statement{Kind: oraclesql.KindDML, Rows: oraclesql.RowsOf(engine.RowUpsert), Binds: []oraclesql.Bind{
		{Column: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Source: oraclesql.FromRow, Index: 0},
		{Column: "V", Type: table.Type{Kind: table.KindVarchar, Length: 100}, Source: oraclesql.FromRow, Index: 1},
		{Column: "AT", Type: tz, Source: oraclesql.FromRow, Index: 2},
		{Column: "VER", Type: table.Type{Kind: table.KindNumber}, Source: oraclesql.Fixed, Value: "7"},
	}}
	rows := make([]engine.Row, n)
	for i := range rows {
		rows[i] = engine.Row{Line: int64(i), Values: []string{fmt.Sprint(i), "some text", "2024-01-02T03:04:05.5Z"}}
	}
	return st, rows
}

// TestArrayArgsAllocations: building a chunk's binds costs a constant
// number of allocations per column, not per value.
func TestArrayArgsAllocations(t *testing.T) {
	st, rows := benchWrite(1000)
	b := newBinder(Options{MaxStringBytes: 4000})
	allocs := testing.AllocsPerRun(20, func() {
		if _, err := b.arrayArgs(execute{st: st, rows: rows}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 20 {
		t.Errorf("%.0f allocations for 1000 rows of 4 columns", allocs)
	}
	args, err := b.arrayArgs(execute{st: st, rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	at := args[2].([]sql.NullString)[999]
	if at.String != "2024-01-02T03:04:05.500000000 +00:00" || !at.Valid {
		t.Errorf("timestamp bound as %+v", at)
	}
	if ver := args[3].([]sql.NullString); len(ver) != 1000 || ver[999].String != "7" {
		t.Errorf("fixed bind not repeated per row: %d values", len(ver))
	}
}

// TestBindBuffersReusedAcrossChunks (issue #18): once the binder has
// built one chunk, the next chunks of a batch reuse its slices: what a
// chunk allocates is the timestamps' text (one string per column) and a
// few headers, not a slice per bind nor a value per row.
func TestBindBuffersReusedAcrossChunks(t *testing.T) {
	st, rows := benchWrite(10000)
	p := &planned{st: *st, role: roleMerge}
	p.st.SQL = "MERGE INTO T"
	b := newBinder(Options{MaxStringBytes: 4000})
	chunk := func() {
		execs, err := b.executes(nil, p, rows)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range execs {
			if _, err := b.arrayArgs(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	chunk()
	if allocs := testing.AllocsPerRun(10, chunk); allocs > 8 {
		t.Errorf("%.0f allocations per chunk, want at most 8", allocs)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const chunks = 5
	for range chunks {
		chunk()
	}
	runtime.ReadMemStats(&after)
	perRow := float64(after.TotalAlloc-before.TotalAlloc) / float64(chunks*len(rows))
	// The timestamp text is 36 bytes per row ("2024-01-02T03:04:05.500000000 +00:00").
	if perRow > 40 {
		t.Errorf("%.1f bytes allocated per row of a chunk, want at most 40 (the timestamp text)", perRow)
	}
}

func BenchmarkArrayArgs(b *testing.B) {
	st, rows := benchWrite(10000)
	bd := newBinder(Options{MaxStringBytes: 4000})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bd.arrayArgs(execute{st: st, rows: rows}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
}

// goOraConn is a driver connection that converts arguments with go-ora's
// own CheckNamedValue, as a real go-ora session does, and records what
// database/sql hands it. No server is involved.
type goOraConn struct{ got *[]driver.NamedValue }

func (c goOraConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("no Prepare") }
func (c goOraConn) Close() error                        { return nil }
func (c goOraConn) Begin() (driver.Tx, error)           { return nil, errors.New("no transactions") }
func (c goOraConn) CheckNamedValue(nv *driver.NamedValue) error {
	var g go_ora.Connection // CheckNamedValue reads no connection state
	return g.CheckNamedValue(nv)
}
func (c goOraConn) ExecContext(_ context.Context, _ string, args []driver.NamedValue) (driver.Result, error) {
	*c.got = args
	return driver.RowsAffected(len(args)), nil
}

type goOraConnector struct{ got *[]driver.NamedValue }

func (c goOraConnector) Connect(context.Context) (driver.Conn, error) { return goOraConn(c), nil }
func (c goOraConnector) Driver() driver.Driver                        { return nil }

// TestBindsPassDatabaseSQL (risk 3): every argument the binder builds,
// scalar or array, passes database/sql's conversion over go-ora's
// CheckNamedValue and reaches the driver as the binder built it. A valid
// scalar go_ora.NullNVarChar did not ("non-Value type *go_ora.NVarChar
// returned from Value").
func TestBindsPassDatabaseSQL(t *testing.T) {
	var got []driver.NamedValue
	db := sql.OpenDB(goOraConnector{&got})
	defer db.Close()
	conn, err := DialDB(db)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	nv := table.Type{Kind: table.KindVarchar, Length: 40, CharSemantics: true, National: true}
	nclob := table.Type{Kind: table.KindClob, National: true}
	text := table.Type{Kind: table.KindVarchar, Length: 40}
	st := &oraclesql.Statement{SQL: "UPDATE T SET A = :1, B = :2, C = :3, D = :4", Kind: oraclesql.KindDML, Binds: []oraclesql.Bind{
		{Column: "A", Type: nv, Source: oraclesql.Fixed, Value: "2024-05-06T07:08:09Z"},
		{Column: "B", Type: nv, Source: oraclesql.Fixed, Value: ""},
		{Column: "C", Type: nclob, Source: oraclesql.Fixed, Value: strings.Repeat("ü", 2001)},
		{Column: "D", Type: text, Source: oraclesql.Fixed, Value: "x"},
	}}
	b := newBinder(Options{MaxStringBytes: 4000})
	args, err := b.scalarArgs(st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), st, args); err != nil {
		t.Fatalf("scalar binds refused by database/sql: %v", err)
	}
	want := []string{`go_ora.NVarChar "2024-05-06T07:08:09Z"`, `go_ora.NVarChar ""`, "go_ora.NClob", `string "x"`}
	for i, w := range want {
		g := fmt.Sprintf("%T", got[i].Value)
		switch v := got[i].Value.(type) {
		case go_ora.NVarChar:
			g += fmt.Sprintf(" %q", string(v))
		case string:
			g += fmt.Sprintf(" %q", v)
		}
		if g != w {
			t.Errorf("argument %d reached the driver as %s, want %s", i+1, g, w)
		}
	}

	rows := []engine.Row{{Line: 1, Values: []string{"a", "x"}}, {Line: 2, Values: []string{"", ""}}}
	ast := &oraclesql.Statement{SQL: "INSERT INTO T (A, B) VALUES (:1, :2)", Kind: oraclesql.KindDML, Rows: oraclesql.RowsOf(engine.RowUpsert), Binds: []oraclesql.Bind{
		{Column: "A", Type: nv, Source: oraclesql.FromRow, Index: 0},
		{Column: "B", Type: text, Source: oraclesql.FromRow, Index: 1},
	}}
	args, err = b.arrayArgs(execute{st: ast, rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), ast, args); err != nil {
		t.Fatalf("array binds refused by database/sql: %v", err)
	}
	if a, ok := got[0].Value.([]go_ora.NVarChar); !ok || len(a) != 2 || a[1] != "" {
		t.Errorf("national array reached the driver as %#v", got[0].Value)
	}
}

// TestWireLenIsGoOras (risk 1): the binder measures national text as
// long as go-ora's own encoder makes it, for AL16UTF16 and UTF8.
func TestWireLenIsGoOras(t *testing.T) {
	national := table.Type{Kind: table.KindClob, National: true}
	for _, id := range []int{2000, 871} {
		b := newBinder(Options{MaxStringBytes: 4000, NationalCharsetID: id})
		for _, s := range []string{"", "abc", "dé", "中文", "😀x", strings.Repeat("ü", 2001), strings.Repeat("a", 2001)} {
			if got, want := b.wireLen(national, s), len(converters.NewStringConverter(id).Encode(s)); got != want {
				t.Errorf("charset %d, %.10q: measured %d bytes, go-ora encodes %d", id, s, got, want)
			}
		}
	}
}

func TestScopeOf(t *testing.T) {
	ora := func(code int) error { return fmt.Errorf("exec: %w", network.NewOracleError(code)) }
	for code, want := range map[int]scope{
		904: scopeStatement, 932: scopeStatement, 997: scopeStatement, 942: scopeStatement,
		1461: scopeStatement, 24816: scopeStatement, 1031: scopeStatement,
		1: scopeRow, 1400: scopeRow, 1438: scopeRow, 1722: scopeRow, 2290: scopeRow, 12899: scopeRow,
		4088: scopeUnknown, 20001: scopeUnknown,
	} {
		if got := scopeOf(ora(code)); got != want {
			t.Errorf("scopeOf(ORA-%05d) = %d, want %d", code, got, want)
		}
	}
	if got := scopeOf(errors.New("no code")); got != scopeUnknown {
		t.Errorf("scopeOf(no code) = %d", got)
	}
}

// breakDriver is a database/sql driver whose statements behave as go-ora's
// do on a deadline: the call waits for the context, then returns the
// server's ORA-01013 (never ctx.Err()). It counts closed connections.
type breakDriver struct {
	mu     sync.Mutex
	closed int
	// entered, when set, is closed as a statement starts waiting.
	entered chan struct{}
}

func (d *breakDriver) Open(string) (driver.Conn, error) { return &breakConn{d: d}, nil }

type breakConn struct{ d *breakDriver }

func (c *breakConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (c *breakConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }
func (c *breakConn) Close() error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	c.d.closed++
	return nil
}

func (c *breakConn) ExecContext(ctx context.Context, _ string, _ []driver.NamedValue) (driver.Result, error) {
	if c.d.entered != nil {
		close(c.d.entered)
	}
	<-ctx.Done()
	e := network.NewOracleError(1013)
	e.ErrMsg = "ORA-01013: user requested cancel of current operation"
	return nil, e
}

// TestInterruptedSessionLeavesThePool: a call that its context ended (go-ora
// broke the session to interrupt it) makes Close discard the driver
// connection instead of handing it to the next caller.
func TestInterruptedSessionLeavesThePool(t *testing.T) {
	d := &breakDriver{entered: make(chan struct{})}
	db := sql.OpenDB(connector{d})
	defer db.Close()
	c, err := DialDB(db)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The context ends while the statement runs (a context already done
	// is refused before anything is sent: TestDoneContextSendsNothing).
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-d.entered; cancel() }()
	st := &oraclesql.Statement{SQL: "INSERT", Kind: oraclesql.KindDML}
	if _, err := c.Exec(ctx, st, nil); err == nil {
		t.Fatal("exec succeeded")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed != 1 {
		t.Errorf("%d driver connections closed, want 1 (the interrupted one)", d.closed)
	}
}

// TestDoneContextSendsNothing: a statement whose context is already done
// is not sent (go-ora might still run it), and the session stays usable.
func TestDoneContextSendsNothing(t *testing.T) {
	d := &breakDriver{entered: make(chan struct{})}
	db := sql.OpenDB(connector{d})
	defer db.Close()
	c, err := DialDB(db)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := &oraclesql.Statement{SQL: "INSERT", Kind: oraclesql.KindDML}
	if _, err := c.Exec(ctx, st, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("exec: %v, want context.Canceled", err)
	}
	select {
	case <-d.entered:
		t.Fatal("the statement reached the driver")
	default:
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed != 0 {
		t.Errorf("%d driver connections closed, want 0 (nothing was interrupted)", d.closed)
	}
}

type connector struct{ d *breakDriver }

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.d.Open("") }
func (c connector) Driver() driver.Driver                        { return c.d }

// TestFillFromCatalog: ALL_TAB_COLS' flags give what the database fills.
func TestFillFromCatalog(t *testing.T) {
	for _, c := range []struct {
		identity, onNull, length, virtual, generation string
		want                                          table.Fill
	}{
		{"NO", "NO", "", "NO", "", table.FillNone},
		{"NO", "NO", "0", "NO", "", table.FillNone},
		{"NO", "NO", "5", "NO", "", table.FillDefault},
		{"NO", "YES", "5", "NO", "", table.FillDefaultOnNull},
		{"YES", "NO", "30", "NO", "ALWAYS", table.FillIdentityAlways},
		{"YES", "NO", "30", "NO", "BY DEFAULT", table.FillIdentity},
		{"YES", "YES", "30", "NO", "BY DEFAULT", table.FillIdentityOnNull},
		{"YES", "NO", "30", "NO", "", table.FillIdentityAlways}, // unknown generation: refuse values
		{"NO", "NO", "9", "YES", "", table.FillVirtual},
	} {
		r := catalogRow("A", "NUMBER", "22", "0", "", "", "", "0")
		r[colIdentity], r[colDefaultOnNull], r[colDefaultLength], r[colVirtual], r[colIdentityGeneration] =
			ns(c.identity), ns(c.onNull), ns(c.length), ns(c.virtual), ns(c.generation)
		got, err := fillFromCatalog(r)
		if err != nil || got != c.want {
			t.Errorf("%+v: %v, %v", c, got, err)
		}
	}
	r := catalogRow("A", "NUMBER", "22", "0", "", "", "", "0")
	r[colHidden] = ns("YES")
	if tb, err := tableFromCatalog("S", "T", [][]sql.NullString{r}); err != nil || !tb.Columns[0].Hidden {
		t.Errorf("HIDDEN_COLUMN YES: %+v, %v", tb, err)
	}
}

// A partitioning key of several columns (a DBA's table) is read in key
// order (ALL_PART_KEY_COLUMNS.COLUMN_POSITION), and the plan refuses to
// widen any of its columns.
func TestTableFromCatalogReadsAPartitioningKeyOfSeveralColumns(t *testing.T) {
	row := func(name string, pos string) []sql.NullString {
		r := catalogRow(name, "NUMBER", "22", "0", "", "10", "0", "0")
		r[colPartKeyPosition] = ns(pos)
		return r
	}
	got, err := tableFromCatalog("S", "T", [][]sql.NullString{row("A", ""), row("B", "2"), row("C", "1")})
	if err != nil {
		t.Fatal(err)
	}
	if p := got.Partition; p == nil || p.Column != "C" || p.Source != "" || len(p.More) != 1 || p.More[0] != "B" {
		t.Fatalf("partition %+v, want key C, B", p)
	}
	want := got.Clone()
	want.Column("B").Type = table.Type{Kind: table.KindNumber, Precision: 12}
	if _, _, err := table.Reconcile(got, want, nil, "widen", table.Options{}); err == nil || !strings.Contains(err.Error(), "partitioned by it") {
		t.Errorf("widening B: %v, want refused", err)
	}
	want.Column("B").Type = got.Column("B").Type
	want.Column("A").Type = table.Type{Kind: table.KindNumber, Precision: 12}
	if _, _, err := table.Reconcile(got, want, nil, "widen", table.Options{}); err != nil {
		t.Errorf("widening A, no key column: %v", err)
	}
}
