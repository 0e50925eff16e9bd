package wirepeer_test

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// open starts a peer with facts and a database/sql pool on go-ora for it.
func open(t *testing.T, f wirepeer.Facts) (*wirepeer.Peer, *sql.DB) {
	t.Helper()
	p, err := wirepeer.Start(f)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(go_ora.NewConnector(p.URL()))
	t.Cleanup(func() {
		db.Close()
		p.Close()
		if err := p.Err(); err != nil {
			t.Errorf("peer: %v", err)
		}
	})
	return p, db
}

func TestLogin(t *testing.T) {
	tests := []struct {
		name  string
		url   func(p *wirepeer.Peer) string
		calls []string
		err   string
	}{
		{"right password", (*wirepeer.Peer).URL, append(loginCalls, "ping"), ""},
		{"wrong password",
			func(p *wirepeer.Peer) string { return strings.Replace(p.URL(), ":tiger@", ":lion@", 1) },
			[]string{"connect", "protocol", "datatypes", "auth1", "auth2"},
			"ORA-01017"},
		{"unknown service",
			func(p *wirepeer.Peer) string { return strings.Replace(p.URL(), "/FREEPDB1", "/NOSUCH", 1) },
			[]string{"refused"},
			"ORA-12514"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := wirepeer.Start(wirepeer.Facts{})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			db := sql.OpenDB(go_ora.NewConnector(tt.url(p)))
			defer db.Close()
			err = db.PingContext(context.Background())
			if tt.err == "" && err != nil {
				t.Fatalf("ping: %v", err)
			}
			if tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("ping: error %v, want %s", err, tt.err)
			}
			if got := strings.Join(p.CallNames(1), " "); got != strings.Join(tt.calls, " ") {
				t.Errorf("round trips:\n got %s\nwant %s", got, strings.Join(tt.calls, " "))
			}
			if err := p.Err(); err != nil {
				t.Errorf("peer: %v", err)
			}
		})
	}
}

// roundTrips names the round trips of connection conn, each with the
// calls piggybacked on it ("ping+close 1 cursors").
func roundTrips(p *wirepeer.Peer, conn int) []string {
	var names []string
	for _, c := range p.Calls() {
		if c.Conn != conn {
			continue
		}
		n := c.Name
		if len(c.Piggyback) > 0 {
			n += "+" + strings.Join(c.Piggyback, "+")
		}
		names = append(names, n)
	}
	return names
}

// lastExec runs one statement on a pinned connection and returns what
// the peer decoded from it.
func lastExec(t *testing.T, p *wirepeer.Peer, db *sql.DB, query string, args ...any) *wirepeer.Execute {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("exec: %v", err)
	}
	ex := p.Executes()
	if len(ex) == 0 {
		t.Fatal("the peer decoded no execute")
	}
	return ex[len(ex)-1]
}

func TestArrayInsertDecoded(t *testing.T) {
	p, db := open(t, wirepeer.Facts{})
	long := strings.Repeat("x", 4001)
	nlong := strings.Repeat("ü", 1250) // 2,500 bytes of UTF-8, 2,500 of UTF-16
	const insert = `INSERT INTO T (S, L, LL, NV, N, NN) VALUES (:1, :2, :3, :4, :5, :6)`
	e := lastExec(t, p, db, insert,
		[]sql.NullString{{String: "abc", Valid: true}, {}, {String: "dé", Valid: true}},
		[]sql.NullString{{String: long, Valid: true}, {String: "short", Valid: true}, {}},
		[]sql.NullString{{String: "short", Valid: true}, {}, {String: long, Valid: true}},
		[]go_ora.NVarChar{"abc", "", go_ora.NVarChar(nlong)},
		[]go_ora.NullNVarChar{{NVarChar: "abc", Valid: true}, {NVarChar: "dé", Valid: true}, {}},
		[]go_ora.NullNVarChar{{NVarChar: "x", Valid: true}, {}, {NVarChar: "yz", Valid: true}},
	)
	if e.SQL != insert {
		t.Errorf("SQL = %q", e.SQL)
	}
	if e.Iterations != 3 || e.ArrayDML != 3 || len(e.Rows) != 3 {
		t.Fatalf("iterations %d, DML array %d, rows %d; want 3 each", e.Iterations, e.ArrayDML, len(e.Rows))
	}
	if !e.AutoCommit() {
		t.Error("an execute outside a transaction should ask for a commit")
	}
	type decl struct{ typ, form, csid, maxLen int }
	want := []decl{
		{wirepeer.TypeVarchar, 1, wirepeer.AL32UTF8, 3}, // longest value "dé": 3 bytes
		// go-ora takes an array's type from its last non-NULL element:
		// a value over 4,000 bytes followed by a short one declares a
		// VARCHAR of 4,001 bytes; a long last value declares LONG.
		{wirepeer.TypeVarchar, 1, wirepeer.AL32UTF8, 4001},
		{wirepeer.TypeLongVarchar, 1, wirepeer.AL32UTF8, 4001},
		{wirepeer.TypeVarchar, 2, wirepeer.AL16UTF16, 2500}, // 1,250 UTF-16 units
		// go-ora v2.9.0 takes the declaration of a []NullNVarChar from
		// its last element: a NULL last element declares no form and no
		// character set (go-ora-audit §8 item 2) ...
		{wirepeer.TypeVarchar, 0, 0, 6},
		// ... and a non-NULL last element declares the national set.
		{wirepeer.TypeVarchar, 2, wirepeer.AL16UTF16, 4},
	}
	if len(e.Binds) != len(want) {
		t.Fatalf("%d binds, want %d", len(e.Binds), len(want))
	}
	for i, w := range want {
		b := e.Binds[i]
		got := decl{b.Type, b.CSForm, b.CharsetID, b.MaxLen}
		if got != w {
			t.Errorf("bind %d: type/form/charset/maxlen = %v, want %v (%+v)", i+1, got, w, b)
		}
	}
	if len(e.Problems) != 1 || !strings.HasPrefix(e.Problems[0], "bind 5: character set form 0") {
		t.Errorf("problems = %q, want one for bind 5 (form 0)", e.Problems)
	}
	text := func(v wirepeer.Value) string {
		if v.Null {
			return "NULL"
		}
		return v.Text
	}
	// The form-0 bind carries AL16UTF16 bytes; read in the database
	// character set, as the peer does, they are text with NULs.
	utf16 := func(s string) string {
		var b []byte
		for _, r := range s {
			b = append(b, byte(r>>8), byte(r))
		}
		return string(b)
	}
	wantRows := [][]string{
		{"abc", long, "short", "abc", utf16("abc"), "x"},
		{"NULL", "short", "NULL", "NULL", utf16("dé"), "NULL"},
		{"dé", "NULL", long, nlong, "NULL", "yz"},
	}
	for i, row := range e.Rows {
		for j, v := range row {
			if got := text(v); got != wantRows[i][j] {
				t.Errorf("row %d bind %d = %.20q (%d bytes), want %.20q", i+1, j+1, got, len(got), wantRows[i][j])
			}
		}
	}
}

// loginCalls are the round trips of go-ora v2.9.0's login against the
// peer: the TNS handshake, the two negotiations, O5LOGON's two calls, the
// version call and the SYSTIMESTAMP query (answered with an error, so
// go-ora takes UTC as the server's time zone).
var loginCalls = []string{"connect", "protocol", "datatypes", "auth1", "auth2", "version", "execute"}

func TestTransactionRoundTrips(t *testing.T) {
	p, db := open(t, wirepeer.Facts{})
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO T (A) VALUES (:1)`, []sql.NullString{{String: "1", Valid: true}, {String: "2", Valid: true}})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 2 {
		t.Errorf("rows affected = %d, %v; want 2", n, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	names := roundTrips(p, 1)
	// Each execute costs two round trips: go-ora closes the statement's
	// cursor right away (a piggybacked close on a ping).
	want := append(append([]string(nil), loginCalls...), "execute", "ping+close 1 cursors", "commit", "logoff")
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("round trips:\n got %s\nwant %s", strings.Join(names, " "), strings.Join(want, " "))
	}
	e := p.Executes()[len(p.Executes())-1]
	if e.AutoCommit() {
		t.Error("an execute inside a transaction asked for a commit")
	}
}

// TestLOBBinds runs an array INSERT with CLOB and NCLOB binds after the
// VARCHAR ones, as the loader orders them: each non-NULL value is a
// temporary LOB (create, write: two round trips), NULLs are typed LOB
// NULLs, and go-ora frees the LOBs when it closes the statement.
func TestLOBBinds(t *testing.T) {
	p, db := open(t, wirepeer.Facts{})
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	big := strings.Repeat("é", 3000)
	const insert = `INSERT INTO T (ID, C, NC) VALUES (:1, :2, :3)`
	_, err = conn.ExecContext(ctx, insert,
		[]sql.NullString{{String: "1", Valid: true}, {String: "2", Valid: true}},
		[]go_ora.Clob{{String: big, Valid: true}, {}},
		[]go_ora.NClob{{}, {String: "ναι", Valid: true}},
	)
	if err != nil {
		t.Fatal(err)
	}
	e := p.Executes()[len(p.Executes())-1]
	type decl struct{ typ, form, csid int }
	want := []decl{
		{wirepeer.TypeVarchar, 1, wirepeer.AL32UTF8},
		{wirepeer.TypeCLOB, 1, wirepeer.AL32UTF8},
		{wirepeer.TypeCLOB, 2, wirepeer.AL16UTF16},
	}
	for i, w := range want {
		b := e.Binds[i]
		if got := (decl{b.Type, b.CSForm, b.CharsetID}); got != w {
			t.Errorf("bind %d: type/form/charset = %v, want %v", i+1, got, w)
		}
	}
	wantRows := [][]string{{"1", big, "NULL"}, {"2", "NULL", "ναι"}}
	for i, row := range e.Rows {
		for j, v := range row {
			got := v.Text
			if v.Null {
				got = "NULL"
			}
			if got != wantRows[i][j] {
				t.Errorf("row %d bind %d = %.20q (%d bytes), want %.20q", i+1, j+1, got, len(got), wantRows[i][j])
			}
		}
	}
	got := strings.Join(roundTrips(p, 1)[len(loginCalls):], " ")
	// The cursor close follows the LOB free in a second round trip.
	wantCalls := "lob create lob write lob create lob write execute ping+free 2 temporary lobs ping+close 1 cursors"
	if got != wantCalls {
		t.Errorf("round trips:\n got %s\nwant %s", got, wantCalls)
	}
	if created, freed := p.TempLOBs(); created != 2 || freed != 2 {
		t.Errorf("temporary LOBs created %d, freed %d; want 2 and 2", created, freed)
	}
}

// TestLongAfterLOBRefused: a VARCHAR bind over 4,000 bytes after a LOB
// bind is what servers refuse with ORA-24816 (go-ora #156); the loader
// avoids it by binding every later LOB column as a LOB.
func TestLongAfterLOBRefused(t *testing.T) {
	_, db := open(t, wirepeer.Facts{})
	long := strings.Repeat("x", 4001)
	_, err := db.ExecContext(context.Background(), `INSERT INTO T (C, S) VALUES (:1, :2)`,
		[]go_ora.Clob{{String: "a", Valid: true}, {}},
		[]sql.NullString{{String: long, Valid: true}, {String: "b", Valid: true}},
	)
	if err == nil || !strings.Contains(err.Error(), "ORA-24816") {
		t.Fatalf("error %v, want ORA-24816", err)
	}
}

// TestBatchErrors: go-ora asks for batch errors on arrays of more than
// one row; the peer fails the rows the test names. go-ora reports the
// first failed row's code and message, and not its offset: the loader
// has to find the row itself (bisection).
func TestBatchErrors(t *testing.T) {
	tests := []struct {
		name      string
		rows      int
		fail      map[int]int // row → ORA code
		batchMode bool
		wantCode  int
		wantText  string
		wantORA   int // the code the peer replied
	}{
		{"two of three rows fail", 3, map[int]int{1: 1400, 2: 12899}, true, 1400, "row 2 refused", 24381},
		{"one row, no batch mode", 1, map[int]int{0: 1400}, false, 1400, "row 1 refused", 1400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, db := open(t, wirepeer.Facts{FailRow: func(e *wirepeer.Execute, row int) int { return tt.fail[row] }})
			vals := make([]sql.NullString, tt.rows)
			for i := range vals {
				vals[i] = sql.NullString{String: strconv.Itoa(i), Valid: true}
			}
			_, err := db.ExecContext(context.Background(), `INSERT INTO T (A) VALUES (:1)`, vals)
			var oe *network.OracleError
			if !errors.As(err, &oe) {
				t.Fatalf("error %v (%T), want an OracleError", err, err)
			}
			if oe.ErrCode != tt.wantCode || !strings.Contains(oe.ErrMsg, tt.wantText) {
				t.Errorf("error code %d %q, want %d containing %q", oe.ErrCode, oe.ErrMsg, tt.wantCode, tt.wantText)
			}
			e := p.Executes()[len(p.Executes())-1]
			if got := e.Options&wirepeer.OptBatchErrs != 0; got != tt.batchMode {
				t.Errorf("batch-error option %v, want %v", got, tt.batchMode)
			}
			var replied int
			for _, c := range p.Calls() {
				if c.Exec == e {
					replied = c.ORA
				}
			}
			if replied != tt.wantORA {
				t.Errorf("the peer replied ORA-%05d, want ORA-%05d", replied, tt.wantORA)
			}
		})
	}
}

// TestServerFacts: the database character set and the VARCHAR limit
// the server advertises change what go-ora sends.
func TestServerFacts(t *testing.T) {
	long := strings.Repeat("x", 4001)
	tests := []struct {
		name  string
		facts wirepeer.Facts
		args  []any
		// per bind: type, form, charset id; then row 1's texts
		decls [][3]int
		texts []string
	}{
		{
			// go-ora encodes database-set text in WE8MSWIN1252 and
			// replaces what it cannot encode with 0xFD ("ý") silently
			// (go-ora-audit §8 item 5); national text stays AL16UTF16.
			name:  "WE8MSWIN1252 database",
			facts: wirepeer.Facts{Charset: wirepeer.WE8MSWIN1252},
			args: []any{
				[]sql.NullString{{String: "€ü 😀 中", Valid: true}},
				[]go_ora.NVarChar{"€ü 😀 中"},
				[]go_ora.Clob{{String: "€ü 😀", Valid: true}},
			},
			decls: [][3]int{
				{wirepeer.TypeVarchar, 1, wirepeer.WE8MSWIN1252},
				{wirepeer.TypeVarchar, 2, wirepeer.AL16UTF16},
				{wirepeer.TypeCLOB, 1, wirepeer.WE8MSWIN1252},
			},
			texts: []string{"€ü ýý ý", "€ü 😀 中", "€ü ýý"},
		},
		{
			name:  "4,001 bytes, STANDARD: LONG",
			args:  []any{[]sql.NullString{{String: long, Valid: true}}},
			decls: [][3]int{{wirepeer.TypeLongVarchar, 1, wirepeer.AL32UTF8}},
			texts: []string{long},
		},
		{
			name:  "4,001 bytes, EXTENDED: VARCHAR",
			facts: wirepeer.Facts{Varchar32K: true},
			args:  []any{[]sql.NullString{{String: long, Valid: true}}},
			decls: [][3]int{{wirepeer.TypeVarchar, 1, wirepeer.AL32UTF8}},
			texts: []string{long},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, db := open(t, tt.facts)
			marks := strings.Repeat(", :x", len(tt.args))[2:]
			e := lastExec(t, p, db, "INSERT INTO T VALUES ("+marks+")", tt.args...)
			for i, w := range tt.decls {
				b := e.Binds[i]
				if got := [3]int{b.Type, b.CSForm, b.CharsetID}; got != w {
					t.Errorf("bind %d: type/form/charset = %v, want %v", i+1, got, w)
				}
				if got := e.Rows[0][i].Text; got != tt.texts[i] {
					t.Errorf("bind %d: text %.20q, want %.20q", i+1, got, tt.texts[i])
				}
			}
		})
	}
}
