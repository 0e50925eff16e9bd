package oraclesql

import (
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// Module is the V$SESSION.MODULE (and PROGRAM) the loader's sessions use.
const Module = "target-oracle"

// fixed binds a catalog name or setting, as VARCHAR2.
func fixed(label, v string) Bind {
	return Bind{Column: label, Type: table.Type{Kind: table.KindVarchar, Length: table.MaxBytesLong}, Source: Fixed, Value: v}
}

// SessionSetup returns the one PL/SQL block a new session runs first, in
// one round trip: UTC session time zone, '.' decimal separator, Gregorian
// calendar, ISO date and timestamp formats, binary comparison and sorting
// (so that MERGE matches keys byte for byte), the DDL lock timeout
// (ddl_lock_timeout_seconds; 0 leaves the server's), parallel DML off, and
// MODULE/ACTION for V$SESSION (action is the stream or worker name).
// Parallel DML is on by default on Autonomous Database's _high and _medium
// services, and a table modified in parallel cannot be read or modified
// again in the same transaction (ORA-12838); a load's transaction does both.
// Elsewhere parallel DML is off by default and the statement changes nothing. The block form also
// keeps to the lint grammar, which has no ALTER SESSION SET with quoted
// values.
func SessionSetup(action string, ddlLockTimeoutSeconds int) Statement {
	settings := []string{
		"TIME_ZONE = '+00:00'",
		"NLS_NUMERIC_CHARACTERS = '.,'",
		"NLS_CALENDAR = 'GREGORIAN'",
		"NLS_DATE_FORMAT = 'YYYY-MM-DD HH24:MI:SS'",
		"NLS_TIMESTAMP_FORMAT = 'YYYY-MM-DD HH24:MI:SS.FF9'",
		"NLS_TIMESTAMP_TZ_FORMAT = 'YYYY-MM-DD HH24:MI:SS.FF9 TZH:TZM'",
		"NLS_COMP = 'BINARY'",
		"NLS_SORT = 'BINARY'",
	}
	if ddlLockTimeoutSeconds > 0 {
		settings = append(settings, "DDL_LOCK_TIMEOUT = "+strconv.Itoa(ddlLockTimeoutSeconds))
	}
	var b strings.Builder
	b.WriteString("BEGIN\n")
	for _, s := range settings {
		b.WriteString("  EXECUTE IMMEDIATE ")
		b.WriteString(literal("ALTER SESSION SET " + s))
		b.WriteString(";\n")
	}
	b.WriteString("  EXECUTE IMMEDIATE 'ALTER SESSION DISABLE PARALLEL DML';\n")
	b.WriteString("  DBMS_APPLICATION_INFO.SET_MODULE(:1, :2);\nEND;")
	return Statement{
		SQL:   b.String(),
		Binds: []Bind{fixed("module", Module), fixed("action", action)},
		Kind:  KindPLSQL,
	}
}

// owner is the SQL for a table owner: a bind, or the session's current
// schema when schema is "".
func owner(schema string, binds *[]Bind) string {
	if schema == "" {
		return "SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA')"
	}
	*binds = append(*binds, fixed("owner", schema))
	return placeholder(len(*binds))
}

// DescribeTable is the one catalog query that reads a table's shape: a row
// per column, in COLUMN_ID order (invisible columns, which have none,
// last), with
//
//	COLUMN_NAME, DATA_TYPE, DATA_LENGTH, CHAR_LENGTH, CHAR_USED,
//	DATA_PRECISION, DATA_SCALE, NULLABLE, COMMENTS,
//	PK_POSITION (position in the primary key, NULL when not in it),
//	JSON_CHECKS (count of IS JSON checks on the column: CLOB JSON),
//	IDENTITY_COLUMN, DEFAULT_ON_NULL, DEFAULT_LENGTH, VIRTUAL_COLUMN,
//	HIDDEN_COLUMN ('YES'/'NO'; DEFAULT_LENGTH NULL when no DEFAULT),
//	IDENTITY_GENERATION ('ALWAYS', 'BY DEFAULT'; NULL when no identity),
//	PART_KEY_POSITION (position in the table's partitioning key, from
//	ALL_PART_KEY_COLUMNS; NULL when not in it or not partitioned),
//	DEPENDENTS (what dropping the column drops with it, NULL when nothing:
//	a list of KIND"NAME" items, KIND I for an index backing no
//	constraint, U, C, R for the table's UNIQUE, CHECK (other than a
//	NOT NULL: SEARCH_CONDITION_VC '"COL" IS NOT NULL') and FOREIGN KEY
//	constraints, F for another table's foreign key referencing a
//	constraint on the column, named TABLE.CONSTRAINT; identifiers hold no
//	double quote, so the list reads back unambiguously).
//
// The partitioning key is read so that no run widens or rewrites a
// partitioning column, which Oracle refuses (ORA-14060, ORA-54031,
// ORA-12984; table.Reconcile refuses first). ALL_PART_KEY_COLUMNS lists
// a table's key by OWNER, NAME and OBJECT_TYPE 'TABLE' (a partitioned
// index's by 'INDEX'). Verified on Oracle: not yet.
//
// The column facts of SPEC §5.5 come from ALL_TAB_COLS, and the identity's
// generation from ALL_TAB_IDENTITY_COLS (ALL_TAB_COLS does not say ALWAYS
// or BY DEFAULT); never from the LONG DATA_DEFAULT, which go-ora would
// have to fetch as a LONG: DEFAULT_LENGTH tells that a default exists.
// No rows means the table does not exist (or is not visible). The cost is
// one round trip per table, whatever its number of columns. Only
// USER_GENERATED columns are listed: not the system's hidden ones
// (function-based index expressions, extended statistics) nor columns set
// UNUSED by a migration.
func DescribeTable(schema, name string) Statement {
	var binds []Bind
	var b strings.Builder
	b.WriteString("SELECT COL.COLUMN_NAME, COL.DATA_TYPE, COL.DATA_LENGTH, COL.CHAR_LENGTH, COL.CHAR_USED," +
		" COL.DATA_PRECISION, COL.DATA_SCALE, COL.NULLABLE, CMT.COMMENTS, PKC.POSITION AS PK_POSITION," +
		" (SELECT COUNT(*) FROM ALL_JSON_COLUMNS JSC WHERE JSC.OWNER = COL.OWNER AND JSC.TABLE_NAME = COL.TABLE_NAME" +
		" AND JSC.COLUMN_NAME = COL.COLUMN_NAME) AS JSON_CHECKS," +
		" COL.IDENTITY_COLUMN, COL.DEFAULT_ON_NULL, COL.DEFAULT_LENGTH, COL.VIRTUAL_COLUMN, COL.HIDDEN_COLUMN," +
		" (SELECT IDC.GENERATION_TYPE FROM ALL_TAB_IDENTITY_COLS IDC WHERE IDC.OWNER = COL.OWNER AND IDC.TABLE_NAME = COL.TABLE_NAME" +
		" AND IDC.COLUMN_NAME = COL.COLUMN_NAME) AS IDENTITY_GENERATION," +
		" (SELECT PKEY.COLUMN_POSITION FROM ALL_PART_KEY_COLUMNS PKEY WHERE PKEY.OWNER = COL.OWNER AND PKEY.NAME = COL.TABLE_NAME" +
		" AND PKEY.OBJECT_TYPE = 'TABLE' AND PKEY.COLUMN_NAME = COL.COLUMN_NAME) AS PART_KEY_POSITION," +
		" (SELECT LISTAGG('I\"' || IC.INDEX_NAME || '\"') WITHIN GROUP (ORDER BY IC.INDEX_NAME) FROM ALL_IND_COLUMNS IC" +
		" WHERE IC.TABLE_OWNER = COL.OWNER AND IC.TABLE_NAME = COL.TABLE_NAME AND IC.COLUMN_NAME = COL.COLUMN_NAME" +
		" AND NOT EXISTS (SELECT 1 FROM ALL_CONSTRAINTS IXC WHERE IXC.OWNER = IC.TABLE_OWNER AND IXC.TABLE_NAME = IC.TABLE_NAME" +
		" AND IXC.INDEX_OWNER = IC.INDEX_OWNER AND IXC.INDEX_NAME = IC.INDEX_NAME))" +
		" || (SELECT LISTAGG(DC.CONSTRAINT_TYPE || '\"' || DC.CONSTRAINT_NAME || '\"') WITHIN GROUP (ORDER BY DC.CONSTRAINT_NAME)" +
		" FROM ALL_CONS_COLUMNS DCC JOIN ALL_CONSTRAINTS DC ON DC.OWNER = DCC.OWNER AND DC.CONSTRAINT_NAME = DCC.CONSTRAINT_NAME" +
		" AND DC.TABLE_NAME = DCC.TABLE_NAME WHERE DCC.OWNER = COL.OWNER AND DCC.TABLE_NAME = COL.TABLE_NAME" +
		" AND DCC.COLUMN_NAME = COL.COLUMN_NAME AND DC.CONSTRAINT_TYPE IN ('U', 'C', 'R')" +
		" AND (DC.CONSTRAINT_TYPE <> 'C' OR DC.SEARCH_CONDITION_VC <> '\"' || DCC.COLUMN_NAME || '\" IS NOT NULL'))" +
		" || (SELECT LISTAGG('F\"' || RF.TABLE_NAME || '.' || RF.CONSTRAINT_NAME || '\"') WITHIN GROUP (ORDER BY RF.TABLE_NAME, RF.CONSTRAINT_NAME)" +
		" FROM ALL_CONS_COLUMNS RCC JOIN ALL_CONSTRAINTS RF ON RF.R_OWNER = RCC.OWNER AND RF.R_CONSTRAINT_NAME = RCC.CONSTRAINT_NAME" +
		" WHERE RCC.OWNER = COL.OWNER AND RCC.TABLE_NAME = COL.TABLE_NAME AND RCC.COLUMN_NAME = COL.COLUMN_NAME" +
		" AND RF.CONSTRAINT_TYPE = 'R') AS DEPENDENTS" +
		" FROM ALL_TAB_COLS COL" +
		" LEFT JOIN ALL_COL_COMMENTS CMT ON CMT.OWNER = COL.OWNER AND CMT.TABLE_NAME = COL.TABLE_NAME" +
		" AND CMT.COLUMN_NAME = COL.COLUMN_NAME" +
		" LEFT JOIN (SELECT CC.COLUMN_NAME, CC.POSITION FROM ALL_CONSTRAINTS CON JOIN ALL_CONS_COLUMNS CC" +
		" ON CC.OWNER = CON.OWNER AND CC.CONSTRAINT_NAME = CON.CONSTRAINT_NAME AND CC.TABLE_NAME = CON.TABLE_NAME" +
		" WHERE CON.OWNER = ")
	b.WriteString(owner(schema, &binds))
	binds = append(binds, fixed("table", name))
	b.WriteString(" AND CON.TABLE_NAME = " + placeholder(len(binds)))
	b.WriteString(" AND CON.CONSTRAINT_TYPE = 'P') PKC ON PKC.COLUMN_NAME = COL.COLUMN_NAME WHERE COL.OWNER = ")
	b.WriteString(owner(schema, &binds))
	binds = append(binds, fixed("table", name))
	b.WriteString(" AND COL.TABLE_NAME = " + placeholder(len(binds)))
	b.WriteString(" AND COL.USER_GENERATED = 'YES' ORDER BY COL.COLUMN_ID, COL.INTERNAL_COLUMN_ID")
	return Statement{SQL: b.String(), Binds: binds, Kind: KindQuery}
}

// DescribeIndexes lists the indexes of a table, the primary key's too: a
// row per index column, in column order, with
//
//	OWNER, INDEX_NAME, UNIQUENESS ('UNIQUE'/'NONUNIQUE'), COLUMN_NAME.
//
// A CREATE INDEX that fails with ORA-00955 or ORA-01408 is done when one
// of them has its columns (Statement.Index).
func DescribeIndexes(schema, name string) Statement {
	var binds []Bind
	sql := "SELECT IND.OWNER, IND.INDEX_NAME, IND.UNIQUENESS, COL.COLUMN_NAME FROM ALL_INDEXES IND" +
		" JOIN ALL_IND_COLUMNS COL ON COL.INDEX_OWNER = IND.OWNER AND COL.INDEX_NAME = IND.INDEX_NAME" +
		" WHERE IND.TABLE_OWNER = " + owner(schema, &binds)
	binds = append(binds, fixed("table", name))
	sql += " AND IND.TABLE_NAME = " + placeholder(len(binds)) + " ORDER BY IND.OWNER, IND.INDEX_NAME, COL.COLUMN_POSITION"
	return Statement{SQL: sql, Binds: binds, Kind: KindQuery}
}

// HasRows asks whether a table has at least one row (one round trip,
// reads one block): a changed key may only replace the primary key of an
// empty table.
func HasRows(t *table.Table) Statement {
	return Statement{SQL: "SELECT 1 FROM " + tableName(t) + " WHERE ROWNUM = 1", Kind: KindQuery}
}

// Probes for --check. Each is a query; the comment says how to read the
// answer.

// ProbeServer returns one row: CURRENT_SCHEMA, SESSION_USER, the database
// version ('19.0.0.0.0', '23.0.0.0.0'), NLS_CHARACTERSET and
// NLS_NCHAR_CHARACTERSET.
func ProbeServer() Statement {
	return Statement{
		SQL: "SELECT SYS_CONTEXT('USERENV', 'CURRENT_SCHEMA') AS CURRENT_SCHEMA," +
			" SYS_CONTEXT('USERENV', 'SESSION_USER') AS SESSION_USER," +
			" (SELECT MAX(PCV.VERSION) FROM PRODUCT_COMPONENT_VERSION PCV WHERE PCV.PRODUCT LIKE 'Oracle%') AS DB_VERSION," +
			" (SELECT NDP.VALUE FROM NLS_DATABASE_PARAMETERS NDP WHERE NDP.PARAMETER = 'NLS_CHARACTERSET') AS CHARSET," +
			" (SELECT NDP.VALUE FROM NLS_DATABASE_PARAMETERS NDP WHERE NDP.PARAMETER = 'NLS_NCHAR_CHARACTERSET') AS NCHAR_CHARSET" +
			" FROM DUAL",
		Kind: KindQuery,
	}
}

// ProbeLongIdentifiers succeeds when identifiers may have 128 bytes;
// ORA-00972 means 30 (COMPATIBLE < 12.2).
func ProbeLongIdentifiers() Statement {
	return Statement{SQL: "SELECT 1 AS " + table.Quote(strings.Repeat("X", table.MaxBytesShort+1)) + " FROM DUAL", Kind: KindQuery}
}

// ProbeExtendedStrings succeeds when VARCHAR2 holds 32767 bytes
// (MAX_STRING_SIZE=EXTENDED); ORA-00910 means 4000.
func ProbeExtendedStrings() Statement {
	return Statement{SQL: "SELECT CAST(NULL AS VARCHAR2(32767)) AS PROBE FROM DUAL", Kind: KindQuery}
}

// StringBindProbeBytes is the length of ProbeStringBind's bind: one byte
// over MAX_STRING_SIZE=STANDARD's limit.
const StringBindProbeBytes = 4001

// ProbeStringBind returns LENGTHB of a 4001-byte string bind. go-ora
// sends it as VARCHAR only when the server advertises 32K strings in its
// capabilities, else as a LONG bind, which a select list refuses; so an
// answer of 4001 means 4001..32767-byte values may be bound as VARCHAR.
func ProbeStringBind() Statement {
	return Statement{SQL: "SELECT LENGTHB(:1) AS PROBE FROM DUAL", Kind: KindQuery, Binds: []Bind{{
		Column: "probe", Type: table.Type{Kind: table.KindVarchar, Length: 32767}, Source: Fixed,
		Value: strings.Repeat("x", StringBindProbeBytes),
	}}}
}

// ProbeBoolean succeeds when the BOOLEAN SQL type exists (23ai); an error
// (ORA-00902) means NUMBER(1) booleans.
func ProbeBoolean() Statement {
	return Statement{SQL: "SELECT CAST(NULL AS BOOLEAN) AS PROBE FROM DUAL", Kind: KindQuery}
}

// ProbeJSONType succeeds when the JSON data type exists (21c+, COMPATIBLE
// >= 20); an error means CLOB IS JSON.
func ProbeJSONType() Statement {
	return Statement{SQL: "SELECT JSON('{}') AS PROBE FROM DUAL", Kind: KindQuery}
}

// ProbePrivileges lists the session's system privileges (CREATE TABLE,
// UNLIMITED TABLESPACE, CREATE ANY TABLE, …).
func ProbePrivileges() Statement {
	return Statement{SQL: "SELECT PRIVILEGE FROM SESSION_PRIVS ORDER BY PRIVILEGE", Kind: KindQuery}
}

// ProbeQuotas lists the user's tablespace quotas: TABLESPACE_NAME, BYTES,
// MAX_BYTES (-1: unlimited).
func ProbeQuotas() Statement {
	return Statement{SQL: "SELECT TABLESPACE_NAME, BYTES, MAX_BYTES FROM USER_TS_QUOTAS ORDER BY TABLESPACE_NAME", Kind: KindQuery}
}

// ProbeSchema returns a row when the schema (user) exists.
func ProbeSchema(schema string) Statement {
	return Statement{SQL: "SELECT USERNAME FROM ALL_USERS WHERE USERNAME = :1", Binds: []Bind{fixed("schema", schema)}, Kind: KindQuery}
}
