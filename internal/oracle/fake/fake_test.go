package fake

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/converters"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

func ddl(sql string) oraclesql.Statement {
	return oraclesql.Statement{SQL: sql, Kind: oraclesql.KindDDL}
}

func insert(binds int) oraclesql.Statement {
	st := oraclesql.Statement{SQL: `INSERT INTO "S"."T" ("ID", "V") VALUES (TO_NUMBER(:1), :2)`, Kind: oraclesql.KindDML}
	for i := 0; i < binds; i++ {
		st.Binds = append(st.Binds, oraclesql.Bind{Column: "C", Source: oraclesql.FromRow})
	}
	return st
}

func code(err error) int {
	var oe *network.OracleError
	if errors.As(err, &oe) {
		return oe.ErrCode
	}
	return 0
}

func newTable(t *testing.T) *DB {
	t.Helper()
	db := New(Options{Schema: "S", MaxStringBytes: 10})
	if _, err := db.Exec(ddl(`CREATE TABLE "S"."T" ("ID" NUMBER(38,0) NOT NULL, "V" CLOB, CONSTRAINT "T_PK" PRIMARY KEY ("ID"))`)); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestBindRules(t *testing.T) {
	db := newTable(t)
	st := insert(2)
	for _, c := range []struct {
		name string
		args []any
		code int
		msg  string
	}{
		{"mixed arrays", []any{[]string{"1"}, "x"}, 0, "should be arrays"},
		{"lengths differ", []any{[]string{"1", "2"}, []string{"x"}}, 0, "silently drop"},
		{"LONG bind in a function", []any{[]string{strings.Repeat("1", 11)}, []string{"x"}}, 1461, "NUMBER"},
		{"too few", []any{[]string{"1"}}, 1008, ""},
		{"bad number", []any{[]string{"1e5"}, []string{"x"}}, 1722, ""},
		{"NULL key", []any{[]sql.NullString{{}}, []string{"x"}}, 1400, ""},
		{"unknown type", []any{[]int{1}, []string{"x"}}, 0, "unsupported argument type"},
	} {
		_, err := db.Exec(st, c.args...)
		if err == nil || code(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err = %v, want ORA-%05d %q", c.name, err, c.code, c.msg)
		}
	}
	if _, err := db.Exec(st, []string{"1"}, []go_ora.Clob{{String: strings.Repeat("x", 11), Valid: true}}); err != nil {
		t.Errorf("long value as a CLOB bind: %v", err)
	}
	if _, err := db.Exec(st, []string{"2"}, []string{strings.Repeat("x", 11)}); err != nil {
		t.Errorf("long value as a LONG bind into a CLOB in INSERT: %v", err)
	}
	// Counted as go-ora sends them, also for the refused execute above.
	if got := db.LOBs(); got.TempLOBs != 1 || got.LongBinds != 2 || got.LOBExecutes != 1 {
		t.Errorf("LOB statistics %+v, want 1 temporary LOB and 2 LONG binds", got)
	}
}

// TestGoOraMeasures: the fake converts arguments as database/sql does
// over go-ora's CheckNamedValue, measures them as go-ora v2.9.0 encodes
// them, and refuses what go-ora declares wrongly or the server refuses.
func TestGoOraMeasures(t *testing.T) {
	db := New(Options{Schema: "S", MaxStringBytes: 4000})
	for _, q := range []string{
		`CREATE TABLE "S"."T" ("ID" NUMBER(38,0) NOT NULL, "C" CLOB, "W" VARCHAR2(32767 BYTE), "N" NCLOB, CONSTRAINT "T_PK" PRIMARY KEY ("ID"))`,
	} {
		if _, err := db.Exec(ddl(q)); err != nil {
			t.Fatal(err)
		}
	}
	binds := func(n int) []oraclesql.Bind { return make([]oraclesql.Bind, n) }
	ins := func(cols string, n int) oraclesql.Statement {
		vals := make([]string, n)
		vals[0] = "TO_NUMBER(:1)"
		for i := 1; i < n; i++ {
			vals[i] = ":" + string(rune('1'+i))
		}
		return oraclesql.Statement{SQL: `INSERT INTO "S"."T" (` + cols + `) VALUES (` + strings.Join(vals, ", ") + `)`, Kind: oraclesql.KindDML, Binds: binds(n)}
	}
	merge := oraclesql.Statement{SQL: `MERGE INTO "S"."T" TGT USING (SELECT TO_NUMBER(:1) "ID", :2 "C" FROM DUAL) SRC ON (TGT."ID" = SRC."ID") WHEN MATCHED THEN UPDATE SET TGT."C" = SRC."C" WHEN NOT MATCHED THEN INSERT ("ID", "C") VALUES (SRC."ID", SRC."C")`, Kind: oraclesql.KindDML, Binds: binds(2)}
	ascii := func(n int) string { return strings.Repeat("a", n) }
	id := 0
	ids := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			id++
			out[i] = strconv.Itoa(id)
		}
		return out
	}
	for _, c := range []struct {
		name string
		st   oraclesql.Statement
		args []any
		code int
		msg  string // "" with code 0: accepted
	}{
		{"national 2000 ASCII characters fit (4000 bytes in UTF-16)", ins(`"ID", "N"`, 2), []any{ids(1), []go_ora.NVarChar{go_ora.NVarChar(ascii(2000))}}, 0, ""},
		{"national 2001 ASCII characters are 4002 bytes in UTF-16", ins(`"ID", "N"`, 2), []any{ids(1), []go_ora.NVarChar{go_ora.NVarChar(ascii(2001))}}, 1461, "4002 bytes in UTF-16"},
		{"national 1500 CJK characters: 3000 bytes in UTF-16 but 4500 in UTF-8, a LONG for go-ora", ins(`"ID", "N"`, 2), []any{ids(1), []go_ora.NVarChar{go_ora.NVarChar(strings.Repeat("中", 1500))}}, 1461, "4500 UTF-8 bytes"},
		{"national array with a NULL last element", ins(`"ID", "N"`, 2), []any{ids(2), []go_ora.NullNVarChar{{NVarChar: "x", Valid: true}, {}}}, 0, "charset form 0"},
		{"national array with a NULL first element", ins(`"ID", "N"`, 2), []any{ids(2), []go_ora.NullNVarChar{{}, {NVarChar: "x", Valid: true}}}, 0, ""},
		{"NVarChar array with \"\" last", ins(`"ID", "N"`, 2), []any{ids(2), []go_ora.NVarChar{"x", ""}}, 0, ""},
		{"scalar valid NullNVarChar", ins(`"ID", "N"`, 2), []any{"1000", go_ora.NullNVarChar{NVarChar: "x", Valid: true}}, 0, "non-Value type *go_ora.NVarChar returned from Value"},
		{"scalar NVarChar", ins(`"ID", "N"`, 2), []any{"1001", go_ora.NVarChar("x")}, 0, ""},
		{"LONG bind into a CLOB", ins(`"ID", "C"`, 2), []any{ids(1), []string{ascii(4001)}}, 0, ""},
		{"LONG bind into a VARCHAR2", ins(`"ID", "W"`, 2), []any{ids(1), []string{ascii(4001)}}, 1461, "VARCHAR2"},
		{"LONG bind in a MERGE select list", merge, []any{ids(1), []string{ascii(4001)}}, 997, ""},
		{"short VARCHAR after a LOB", ins(`"ID", "C", "W"`, 3), []any{ids(1), []go_ora.Clob{{String: "x", Valid: true}}, []string{"y"}}, 0, ""},
		{"LONG before a VARCHAR (go-ora sends LONG data last)", ins(`"ID", "C", "W"`, 3), []any{ids(1), []string{ascii(4001)}, []string{"y"}}, 0, ""},
	} {
		_, err := db.Exec(c.st, c.args...)
		if c.code == 0 && c.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || code(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: err = %v, want ORA-%05d %q", c.name, err, c.code, c.msg)
		}
	}

	ext := New(Options{Schema: "S", MaxStringBytes: 32767})
	if _, err := ext.Exec(ddl(`CREATE TABLE "S"."T" ("ID" NUMBER(38,0) NOT NULL, "C" CLOB, "W" VARCHAR2(32767 BYTE), "N" NCLOB, CONSTRAINT "T_PK" PRIMARY KEY ("ID"))`)); err != nil {
		t.Fatal(err)
	}
	_, err := ext.Exec(ins(`"ID", "C", "W"`, 3), []string{"1"}, []go_ora.Clob{{String: "x", Valid: true}}, []string{ascii(4001)})
	if code(err) != 24816 {
		t.Errorf("a 4001-byte VARCHAR bind after a LOB bind: %v, want ORA-24816", err)
	}
	lobs := make([]go_ora.Clob, maxTempLOBs+1)
	keys := make([]string, len(lobs))
	for i := range lobs {
		lobs[i], keys[i] = go_ora.Clob{String: "x", Valid: true}, strconv.Itoa(i+10)
	}
	if _, err := ext.Exec(ins(`"ID", "C"`, 2), keys, lobs); err == nil || !strings.Contains(err.Error(), "leaks") {
		t.Errorf("%d temporary LOBs in one execute: %v", len(lobs), err)
	}
}

// TestNationalLengthIsGoOras: the fake's national wire length is the
// length of go-ora's own AL16UTF16 encoding.
func TestNationalLengthIsGoOras(t *testing.T) {
	db := New(Options{})
	for _, s := range []string{"abc", "dé", "中文", "😀x", strings.Repeat("ü", 10)} {
		d := arg{vals: []string{s}, class: classNVarchar, national: true}
		db.measure(&d)
		if want := len(converters.NewStringConverter(2000).Encode(s)); d.maxLen != want {
			t.Errorf("%q: measured %d bytes, go-ora encodes %d", s, d.maxLen, want)
		}
	}
}

// TestNonUnicodeDatabase: with WE8MSWIN1252 the server receives what
// go-ora sends: an unmappable character becomes 0xFD ("ý").
func TestNonUnicodeDatabase(t *testing.T) {
	db := New(Options{Schema: "S", Charset: "WE8MSWIN1252"})
	if _, err := db.Exec(ddl(`CREATE TABLE "S"."T" ("ID" NUMBER(38,0) NOT NULL, "V" CLOB, CONSTRAINT "T_PK" PRIMARY KEY ("ID"))`)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(insert(2), []string{"1"}, []string{"€ü 中"}); err != nil {
		t.Fatal(err)
	}
	if got := db.Rows("S.T")[0]["V"]; got != "€ü ý" {
		t.Errorf("stored %q, want %q as go-ora would send it", got, "€ü ý")
	}
}

func TestBatchErrorsAndTransactions(t *testing.T) {
	db := newTable(t)
	ctx := context.Background()
	c, err := db.Dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := insert(2)
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Batch-error mode: the good rows apply, the first error is returned.
	n, err := tx.Exec(ctx, &st, []any{[]string{"1", "", "3"}, []string{"a", "b", "c"}})
	if code(err) != 1400 || n != 2 {
		t.Fatalf("n=%d err=%v, want 2 rows and ORA-01400", n, err)
	}
	if got := len(db.Rows("S.T")); got != 0 {
		t.Fatalf("%d rows visible before commit", got)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := len(db.Rows("S.T")); got != 0 {
		t.Fatalf("%d rows after rollback", got)
	}
	// A commit whose reply is lost is applied and loses the session.
	db.Inject(Fault{Op: OpCommit, Applied: true})
	tx, _ = c.Begin(ctx)
	if _, err := tx.Exec(ctx, &st, []any{[]string{"1"}, []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); !errors.Is(err, io.EOF) {
		t.Fatalf("commit: %v, want a lost connection", err)
	}
	if got := len(db.Rows("S.T")); got != 1 {
		t.Fatalf("%d rows after the applied commit", got)
	}
	if _, err := c.Begin(ctx); !errors.Is(err, driver.ErrBadConn) {
		t.Fatalf("lost session still usable: %v", err)
	}
	// A duplicate key fails; a second fault counts from its injection.
	c2, _ := db.Dial(ctx)
	db.Inject(Fault{Op: OpInsert, Nth: 2, Code: 60})
	if _, err := c2.Exec(ctx, &st, []any{"1", "a"}); code(err) != 1 {
		t.Fatalf("duplicate key: %v", err)
	}
	if _, err := c2.Exec(ctx, &st, []any{"2", "b"}); code(err) != 60 {
		t.Fatalf("second insert: %v, want the injected ORA-00060", err)
	}
	if _, err := c2.Exec(ctx, &st, []any{"2", "b"}); err != nil {
		t.Fatalf("third insert: %v", err)
	}
	if db.Calls(OpInsert) != 5 {
		t.Errorf("%d inserts counted", db.Calls(OpInsert))
	}
	c.Close()
	c2.Close()
	if db.Open() != 0 {
		t.Errorf("%d connections open", db.Open())
	}
}

func TestDDLCodes(t *testing.T) {
	db := newTable(t)
	for _, c := range []struct {
		sql  string
		code int
	}{
		{`CREATE TABLE "S"."T" ("ID" NUMBER)`, 955},
		{`ALTER TABLE "S"."T" ADD ("V" CLOB)`, 1430},
		{`ALTER TABLE "S"."T" MODIFY ("ID" NOT NULL)`, 1442},
		{`ALTER TABLE "S"."T" ADD CONSTRAINT "T_PK" PRIMARY KEY ("ID")`, 2261},
		{`ALTER TABLE "S"."T" DROP CONSTRAINT "NOPE"`, 2443},
		{`ALTER TABLE "S"."T" SET UNUSED ("NOPE") CASCADE CONSTRAINTS`, 904},
		{`ALTER TABLE "S"."T" RENAME COLUMN "NOPE" TO "X"`, 904},
		{`ALTER TABLE "S"."T" MODIFY ("V" VARCHAR2(10 BYTE))`, 22859},
		{`ALTER TABLE "S"."NOPE" ADD ("X" DATE)`, 942},
		{`CREATE INDEX "S"."T_IX" ON "S"."T" ("ID")`, 1408},
		{`CREATE INDEX "S"."T_V_IX" ON "S"."T" ("ID", "V")`, 2327}, // a LOB column
	} {
		if _, err := db.Exec(ddl(c.sql)); code(err) != c.code {
			t.Errorf("%s: %v, want ORA-%05d", c.sql, err, c.code)
		}
	}
}

// Tables and indexes share a schema's namespace: a table named as an
// index, an index named as a table (its own or another), or a primary key
// whose index takes an index's or a table's name meets ORA-00955.
func TestTablesAndIndexesShareNames(t *testing.T) {
	db := New(Options{Schema: "S"})
	for _, c := range []struct {
		sql  string
		code int
	}{
		{`CREATE TABLE "S"."A" ("ID" NUMBER NOT NULL, "N" VARCHAR2(10 CHAR), "M" VARCHAR2(10 CHAR), CONSTRAINT "A_PK" PRIMARY KEY ("ID"))`, 0},
		{`CREATE INDEX "S"."B" ON "S"."A" ("N")`, 0},
		{`CREATE TABLE "S"."B" ("ID" NUMBER)`, 955},
		{`CREATE TABLE "S"."A_PK" ("ID" NUMBER)`, 955},
		{`CREATE INDEX "S"."A" ON "S"."A" ("M")`, 955},
		{`CREATE TABLE "S"."C" ("ID" NUMBER NOT NULL, CONSTRAINT "B" PRIMARY KEY ("ID"))`, 955},
		{`CREATE TABLE "S"."D" ("ID" NUMBER NOT NULL, CONSTRAINT "A" PRIMARY KEY ("ID"))`, 955},
		{`CREATE TABLE "S"."E" ("ID" NUMBER)`, 0},
		{`CREATE INDEX "S"."E" ON "S"."A" ("M")`, 955},
	} {
		if _, err := db.Exec(ddl(c.sql)); code(err) != c.code {
			t.Errorf("%s: %v, want ORA-%05d", c.sql, err, c.code)
		}
	}
}

// TestReadVersionsOrdered: the readback of a key's versions
// (oraclesql.ReadVersions) returns every row of the key in the order of
// the ORDER BY column as instants, not in insertion order; ReadRow stays
// one row.
func TestReadVersionsOrdered(t *testing.T) {
	db := New(Options{Schema: "S"})
	if _, err := db.Exec(ddl(`CREATE TABLE "S"."H" ("K" VARCHAR2(10 CHAR) NOT NULL, "_SDC_VALID_FROM" TIMESTAMP(9) NOT NULL, CONSTRAINT "H_PK" PRIMARY KEY ("K", "_SDC_VALID_FROM"))`)); err != nil {
		t.Fatal(err)
	}
	ins := oraclesql.Statement{SQL: `INSERT INTO "S"."H" ("K", "_SDC_VALID_FROM") VALUES (:1, TO_TIMESTAMP(:2, 'YYYY-MM-DD"T"HH24:MI:SS.FF9'))`, Kind: oraclesql.KindDML,
		Binds: []oraclesql.Bind{{Column: "K", Source: oraclesql.FromRow}, {Column: "_SDC_VALID_FROM", Source: oraclesql.FromRow}}}
	// Later instants first; "…00.5" sorts before "…00Z" as text.
	for _, vf := range []string{"2024-01-02T00:00:00.000000000", "2024-01-01T00:00:00.500000000", "2024-01-01T00:00:00.000000000"} {
		if _, err := db.Exec(ins, "a", vf); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(ins, "b", "2023-01-01T00:00:00.000000000"); err != nil {
		t.Fatal(err)
	}
	h := &table.Table{Schema: "S", Name: "H", PrimaryKey: []string{"K", table.MetaValidFrom}, Columns: []table.Column{
		{Name: "K", Type: table.Type{Kind: table.KindVarchar, Length: 10, CharSemantics: true}},
		{Name: table.MetaValidFrom, Type: table.Type{Kind: table.KindTimestamp, Frac: 9}},
	}}
	cols := []*table.Column{&h.Columns[1]}
	ctx := context.Background()
	c, err := db.Dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	read := func(st oraclesql.Statement, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		rows, err := c.Query(ctx, &st, []any{sql.NullString{String: "a", Valid: true}})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rows {
			out = append(out, r[0].String)
		}
		return out
	}
	got := strings.Join(read(oraclesql.ReadVersions(h, "K", "a", table.MetaValidFrom, cols)), " ")
	if want := "2024-01-01T00:00:00.000000000 2024-01-01T00:00:00.500000000 2024-01-02T00:00:00.000000000"; got != want {
		t.Errorf("versions %s, want %s", got, want)
	}
	if got := read(oraclesql.ReadRow(h, "K", "a", cols)); len(got) != 1 {
		t.Errorf("ReadRow returned %v, want one row", got)
	}
}
