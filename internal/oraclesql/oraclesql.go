// Package oraclesql is the one place the loader's SQL is built. The Oracle
// engine executes its statements; the embedded engine writes the same text
// to statements.sql (--dry-run-dump) and --plan, so what a dry run shows is
// what a real run sends.
//
// Every statement is Oracle 12.2+ syntax with positional placeholders
// :1..:n numbered in the order they appear in the text, one Bind per
// placeholder, and no trailing ';' (anonymous PL/SQL blocks keep theirs).
// Table, column, constraint and index names are always double-quoted with
// table.Quote; keywords are upper case. Names of server objects the user
// configures (tablespaces, grantees) are written unquoted when they are
// ordinary identifiers, so they match the way DBAs name them (see
// serverName).
//
// The statements also pass the third-party grammar of oracle-sql-lint
// (SPEC §12), with two documented exceptions the grammar cannot parse
// although Oracle does: a LOB storage clause naming a column that is not
// an ordinary identifier (quoted), and JSON_SERIALIZE with a RETURNING
// clause (testdata/nolint holds their golden files).
//
// Values travel as text in a fixed format (BindText) and are converted by
// the SQL around the placeholder (TO_NUMBER, TO_TIMESTAMP_TZ, TO_DATE,
// TO_BOOLEAN, JSON), so they land exactly whatever the session's NLS
// settings; SessionSetup pins those settings as well.
package oraclesql

import (
	"fmt"
	"strings"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/table"
)

// DefaultMigrationChunkRows is the number of rows one migration UPDATE
// copies before the engine commits.
const DefaultMigrationChunkRows = 10000

// Options are the server facts and settings that change the SQL text.
type Options struct {
	// Tablespace holds new tables, IndexTablespace their primary key and
	// custom indexes, LOBTablespace their CLOB/NCLOB segments. "" means
	// the user's default tablespace.
	Tablespace, IndexTablespace, LOBTablespace string
	// GrantSelectTo lists users or roles granted SELECT on new tables.
	GrantSelectTo []string
	// ColumnComments writes table.FormatComment on every created column.
	ColumnComments bool
	// IdentifierMaxBytes is the server's identifier limit (30 or 128) used
	// for derived names; 0 means table.MaxBytesLong.
	IdentifierMaxBytes int
	// MigrationChunkRows bounds one migration UPDATE; 0 means
	// DefaultMigrationChunkRows.
	MigrationChunkRows int
	// LockWaitSeconds bounds a rewrite migration's LOCK TABLE
	// (ddl_lock_timeout_seconds): WAIT n, or NOWAIT for 0, never an
	// unbounded wait.
	LockWaitSeconds int
	// HistoryKeysPerQuery is how many keys one read of a history batch's
	// versions names (0: DefaultHistoryKeysPerQuery).
	HistoryKeysPerQuery int
}

// Renderer builds SQL statements. It holds no state besides its Options
// and is safe for concurrent use.
type Renderer struct {
	o Options
}

// New returns a Renderer for o, with defaults filled in.
func New(o Options) *Renderer {
	if o.IdentifierMaxBytes <= 0 {
		o.IdentifierMaxBytes = table.MaxBytesLong
	}
	if o.MigrationChunkRows <= 0 {
		o.MigrationChunkRows = DefaultMigrationChunkRows
	}
	return &Renderer{o: o}
}

// StatementKind says how the engine runs a statement.
type StatementKind uint8

const (
	// KindDDL commits implicitly before and after (CREATE, ALTER, COMMENT,
	// GRANT, TRUNCATE): never run it inside a data transaction.
	KindDDL StatementKind = iota + 1
	// KindDML runs inside the caller's transaction (INSERT, MERGE, UPDATE,
	// DELETE).
	KindDML
	// KindQuery returns rows (catalog reads, --check probes).
	KindQuery
	// KindPLSQL is an anonymous block (session setup); its SQL ends with
	// "END;" and must be sent with that ';'.
	KindPLSQL
)

func (k StatementKind) String() string {
	switch k {
	case KindDDL:
		return "DDL"
	case KindDML:
		return "DML"
	case KindQuery:
		return "query"
	case KindPLSQL:
		return "PL/SQL"
	}
	return "unknown"
}

// Statement is one SQL statement and how to bind it.
type Statement struct {
	// SQL has positional placeholders :1..:n in order and no trailing ';'
	// (KindPLSQL excepted).
	SQL   string
	Binds []Bind // one per placeholder, in order
	Kind  StatementKind
	// Repeat asks the engine to run the statement again, committing after
	// each run, until it affects no row (a chunked migration UPDATE).
	Repeat bool
	// Lock, for a Repeat statement, runs first in each of its
	// transactions: LOCK TABLE … IN EXCLUSIVE MODE, so that no concurrent
	// writer changes the table while a chunk copies it (SPEC §5.5).
	Lock *Statement
	// IgnoreCodes are ORA error numbers that mean "already done" for this
	// idempotent DDL: the engine treats them as success and reads the
	// catalog again (SPEC §6.3).
	IgnoreCodes []int
	// Index, on a CREATE INDEX, is the index it makes. There ORA-00955
	// (an index of the schema has the name, maybe one of another table)
	// and ORA-01408 (the column list is indexed, maybe not uniquely)
	// mean "done" only when the table has an index on exactly these
	// columns, unique when Unique: the engine asks DescribeIndexes.
	Index *table.Index
	// Rows says which rows of a Write the statement is executed for, one
	// array-bound execution per row; zero for every other statement.
	Rows RowSet
}

// BindSource says where a bind's value comes from.
type BindSource uint8

const (
	// FromRow binds Row.Values[Index] of the Write (the value of Column).
	FromRow BindSource = iota + 1
	// Fixed binds Value, the same for every execution.
	Fixed
)

// Bind describes one placeholder. The engine sends BindText(Type, v) for
// the stored value v (row value or Value); "" is NULL. Type says how to
// bind it: national types as go_ora.NVarChar/NClob, and CLOB, NCLOB or
// JSON values too long for a VARCHAR bind as go_ora.Clob/NClob (a long
// string would become a LONG bind, which Oracle refuses in a MERGE's
// SELECT list and which must come last in an INSERT: ORA-01461).
type Bind struct {
	Column string
	Type   table.Type
	Source BindSource
	Index  int    // FromRow: position in Write.Columns and Row.Values
	Value  string // Fixed: the stored value
}

// RowSet is a set of engine.RowKind: the rows a Write statement is for.
type RowSet uint8

// RowsOf returns the set of the given kinds.
func RowsOf(kinds ...engine.RowKind) RowSet {
	var s RowSet
	for _, k := range kinds {
		s |= 1 << k
	}
	return s
}

// Has reports whether k is in s.
func (s RowSet) Has(k engine.RowKind) bool { return s&(1<<k) != 0 }

// UnsupportedError reports a change or step the renderer cannot express in
// SQL without changing data. The engine must fail rather than run
// something else.
type UnsupportedError struct {
	Table string // SCHEMA.TABLE
	What  string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("oraclesql: %s: %s", e.Table, e.What)
}

// maxBytes is the identifier limit for derived names.
func (r *Renderer) maxBytes() int { return r.o.IdentifierMaxBytes }

// qualified is "SCHEMA"."NAME", or "NAME" for the login user's schema.
func qualified(schema, name string) string {
	if schema == "" {
		return table.Quote(name)
	}
	return table.Quote(schema) + "." + table.Quote(name)
}

// tableName is the quoted, qualified name of t.
func tableName(t *table.Table) string { return qualified(t.Schema, t.Name) }

// checkNames refuses names that table.Quote cannot quote safely. Names
// are validated where they are made; this keeps a bad name from ever
// reaching the server as broken SQL.
func checkNames(t *table.Table, names ...string) error {
	for _, n := range append([]string{t.Schema, t.Name}, names...) {
		if !table.Quotable(n) {
			return &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("name %q contains a double quote or a control character", n)}
		}
	}
	return nil
}

// literal is s as an SQL string literal. Control characters become
// spaces: literals hold descriptive text (column comments), and a line
// break would let a tap's description put a line holding only "/" into
// statements.sql, which SQL*Plus reads as the end of the statement.
func literal(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// serverName renders the name of a server object the user configured
// (tablespace, user, role). An ordinary identifier is written unquoted and
// upper-cased, which is how Oracle resolves it and how DBAs type it
// ("users" is the tablespace USERS); anything else is quoted verbatim.
// PUBLIC stays unquoted: "GRANT … TO PUBLIC" names no user.
func serverName(name string) string {
	if strings.EqualFold(name, "PUBLIC") {
		return "PUBLIC"
	}
	if u := strings.ToUpper(name); ordinary(u) {
		return u
	}
	return table.Quote(name)
}

// ordinary reports whether name may be written unquoted with the same
// meaning: upper-case ASCII letter first, then letters, digits, _ $ #,
// at most 128 bytes, not a reserved word.
func ordinary(name string) bool {
	if name == "" || len(name) > table.MaxBytesLong || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '#') {
			return false
		}
	}
	return !strings.Contains(reservedWords, " "+name+" ")
}

// reservedWords are Oracle's SQL reserved words (SQL Language Reference,
// appendix "Oracle SQL Reserved Words"), space-separated and padded.
const reservedWords = " ACCESS ADD ALL ALTER AND ANY AS ASC AUDIT BETWEEN BY CHAR CHECK CLUSTER COLUMN" +
	" COLUMN_VALUE COMMENT COMPRESS CONNECT CREATE CURRENT DATE DECIMAL DEFAULT DELETE DESC DISTINCT" +
	" DROP ELSE EXCLUSIVE EXISTS FILE FLOAT FOR FROM GRANT GROUP HAVING IDENTIFIED IMMEDIATE IN" +
	" INCREMENT INDEX INITIAL INSERT INTEGER INTERSECT INTO IS LEVEL LIKE LOCK LONG MAXEXTENTS MINUS" +
	" MLSLABEL MODE MODIFY NESTED_TABLE_ID NOAUDIT NOCOMPRESS NOT NOWAIT NULL NUMBER OF OFFLINE ON" +
	" ONLINE OPTION OR ORDER PCTFREE PRIOR PUBLIC RAW RENAME RESOURCE REVOKE ROW ROWID ROWNUM ROWS" +
	" SELECT SESSION SET SHARE SIZE SMALLINT START SUCCESSFUL SYNONYM SYSDATE TABLE THEN TO TRIGGER" +
	" UID UNION UNIQUE UPDATE USER VALIDATE VALUES VARCHAR VARCHAR2 VIEW WHENEVER WHERE WITH "
