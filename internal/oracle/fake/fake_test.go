package fake

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"
	"github.com/sijms/go-ora/v2/network"

	"github.com/target-oracle/target-oracle/internal/oraclesql"
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
		{"LONG bind", []any{[]string{"1"}, []string{strings.Repeat("x", 11)}}, 1461, ""},
		{"LOB first", []any{[]go_ora.Clob{{String: "1", Valid: true}}, []string{"x"}}, 1461, ""},
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
	} {
		if _, err := db.Exec(ddl(c.sql)); code(err) != c.code {
			t.Errorf("%s: %v, want ORA-%05d", c.sql, err, c.code)
		}
	}
}
