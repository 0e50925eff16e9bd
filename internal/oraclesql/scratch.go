package oraclesql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/target-oracle/target-oracle/internal/table"
)

// The statements of --verify and --benchmark (SPEC §2) that a load never
// runs: listing and dropping their scratch tables, and reading a value
// back as the server's own canonical text, so that a comparison depends
// on no NLS setting and on none of go-ora's number or time decoders:
//
//   - NUMBER: DUMP, the stored bytes (decoded exactly by the caller: no
//     64-character TO_CHAR limit, 1e-130 and 38 digits stay exact);
//   - BOOLEAN: 'true'/'false';
//   - DATE: TO_CHAR with 'YYYY-MM-DD"T"HH24:MI:SS';
//   - TIMESTAMP WITH TIME ZONE: TO_CHAR(SYS_EXTRACT_UTC(…)) with
//     'YYYY-MM-DD"T"HH24:MI:SS.FF9', the instant in UTC; TIMESTAMP the same
//     without SYS_EXTRACT_UTC;
//   - VARCHAR2/NVARCHAR2: the column;
//   - CLOB/NCLOB (and CLOB-backed JSON): DBMS_LOB.GETLENGTH here and
//     chunks of DBMS_LOB.SUBSTR (ReadLOBChunk);
//   - native JSON: JSON_SERIALIZE(… RETURNING VARCHAR2(4000));
//   - RAW: RAWTOHEX, the bytes in uppercase hexadecimal;
//   - BLOB: DBMS_LOB.GETLENGTH (bytes) here and RAWTOHEX of
//     DBMS_LOB.SUBSTR chunks (ReadBinaryChunk);
//   - VECTOR: FROM_VECTOR(… RETURNING VARCHAR2(4000)), which the caller
//     compares element by element (the server's number text is not the
//     stored form's).
//
// DumpValue is what a mismatch report shows: DUMP(…, 1016) of the value
// (of 32 characters from where it first differs, for text).

// Date and time masks of the readback: the stored forms of docs/types.md
// before the caller trims trailing fraction zeros and appends Z.
const (
	ReadDateMask      = `YYYY-MM-DD"T"HH24:MI:SS`
	ReadTimestampMask = `YYYY-MM-DD"T"HH24:MI:SS.FF9`
)

// ReadJSONBytes is the longest native JSON document the readback
// serializes (JSON_SERIALIZE … RETURNING VARCHAR2(4000)).
const ReadJSONBytes = 4000

// ListScratchTables lists the tables in schema ("" the user's own) whose
// name starts with prefix and that were created more than an hour ago:
// leftovers of a run that could not drop them (SPEC §2).
func ListScratchTables(schema, prefix string) Statement {
	var binds []Bind
	like := strings.NewReplacer(`\`, `\\`, "_", `\_`, "%", `\%`).Replace(prefix) + "%"
	sql := "SELECT OBJ.OBJECT_NAME FROM ALL_OBJECTS OBJ WHERE OBJ.OWNER = " + owner(schema, &binds)
	binds = append(binds, fixed("prefix", like))
	sql += " AND OBJ.OBJECT_TYPE = 'TABLE' AND OBJ.OBJECT_NAME LIKE " + placeholder(len(binds)) +
		` ESCAPE '\' AND OBJ.CREATED < SYSDATE - INTERVAL '1' HOUR ORDER BY OBJ.OBJECT_NAME`
	return Statement{SQL: sql, Binds: binds, Kind: KindQuery}
}

// oraNoSuchTable is ORA-00942: the table is gone already.
const oraNoSuchTable = 942

// DropTable drops a scratch table (no other table refers to one), bypassing the
// recycle bin (PURGE). A table that is gone already counts as dropped.
func DropTable(schema, name string) (Statement, error) {
	t := &table.Table{Schema: schema, Name: name}
	if err := checkNames(t); err != nil {
		return Statement{}, err
	}
	return Statement{SQL: "DROP TABLE " + tableName(t) + " PURGE", Kind: KindDDL,
		IgnoreCodes: []int{oraNoSuchTable}}, nil
}

// ReadExpr is the select-list expression that reads column c as canonical
// text (see the package comment above); for a LOB it is its length in
// characters.
func ReadExpr(c *table.Column) (string, error) {
	q := table.Quote(c.Name)
	switch c.Type.Kind {
	case table.KindNumber:
		return "NVL2(" + q + ", DUMP(" + q + "), NULL)", nil
	case table.KindBoolean:
		return "CASE WHEN " + q + " THEN 'true' WHEN NOT " + q + " THEN 'false' END", nil
	case table.KindVarchar:
		return q, nil
	case table.KindClob:
		return "TO_CHAR(DBMS_LOB.GETLENGTH(" + q + "))", nil
	case table.KindJSON:
		if c.Type.JSONAsClob {
			return "TO_CHAR(DBMS_LOB.GETLENGTH(" + q + "))", nil
		}
		return "JSON_SERIALIZE(" + q + " RETURNING VARCHAR2(" + strconv.Itoa(ReadJSONBytes) + "))", nil
	case table.KindDate:
		return "TO_CHAR(" + q + ", '" + ReadDateMask + "')", nil
	case table.KindTimestamp:
		if c.Type.TZ {
			return "TO_CHAR(SYS_EXTRACT_UTC(" + q + "), '" + ReadTimestampMask + "')", nil
		}
		return "TO_CHAR(" + q + ", '" + ReadTimestampMask + "')", nil
	case table.KindRaw:
		return "RAWTOHEX(" + q + ")", nil
	case table.KindBlob:
		return "TO_CHAR(DBMS_LOB.GETLENGTH(" + q + "))", nil
	case table.KindVector:
		return vectorText(q), nil
	}
	return "", fmt.Errorf("oraclesql: column %s: type %v has no readback", c.Name, c.Type)
}

// ReadsLength reports whether ReadExpr reads c's length (a LOB), its text
// then coming from ReadLOBChunk.
func ReadsLength(c *table.Column) bool {
	return c.Type.Kind == table.KindClob || c.Type.Kind == table.KindBlob || c.Type.Kind == table.KindJSON && c.Type.JSONAsClob
}

// ReadRow reads cols of the row of t whose key column holds key, one
// ReadExpr each.
func ReadRow(t *table.Table, keyCol, key string, cols []*table.Column) (Statement, error) {
	return readRows(t, keyCol, key, cols, "")
}

// ReadVersions reads cols of every row of t whose key column holds key,
// ordered by orderCol: the versions of a key of a history table
// (load_method history) by _SDC_VALID_FROM, oldest first. A LOB column
// reads its length; its chunks name one version by a Row with Version.
func ReadVersions(t *table.Table, keyCol, key, orderCol string, cols []*table.Column) (Statement, error) {
	if err := checkNames(t, orderCol); err != nil {
		return Statement{}, err
	}
	return readRows(t, keyCol, key, cols, orderCol)
}

// Row names one row of a scratch table for ReadLOBChunk,
// ReadBinaryChunk and DumpValue: the row whose key column KeyCol holds
// Key and, for a version of a history table, whose VersionCol (a
// TIMESTAMP column: _SDC_VALID_FROM) holds Version, in the stored form;
// there the key alone names every version.
type Row struct {
	KeyCol, Key         string
	VersionCol, Version string
}

// where is the condition naming row r, with its binds appended to binds.
func (r Row) where(t *table.Table, binds []Bind) (string, []Bind, error) {
	if err := checkNames(t, r.KeyCol); err != nil {
		return "", nil, err
	}
	binds = append(binds, fixed("key", r.Key))
	cond := keyEquals(t, r.KeyCol, placeholder(len(binds)))
	if r.VersionCol == "" {
		return cond, binds, nil
	}
	c := t.Column(r.VersionCol)
	if c == nil || c.Type.Kind != table.KindTimestamp {
		return "", nil, &UnsupportedError{Table: t.QualifiedName(), What: fmt.Sprintf("version column %q, which is not a TIMESTAMP column of the table", r.VersionCol)}
	}
	binds = append(binds, Bind{Column: "version", Type: c.Type, Source: Fixed, Value: r.Version})
	return cond + " AND " + table.Quote(c.Name) + " = " + bindExpr(c.Type, len(binds)), binds, nil
}

// readRows is ReadRow, ordered by orderCol unless it is "".
func readRows(t *table.Table, keyCol, key string, cols []*table.Column, orderCol string) (Statement, error) {
	if err := checkNames(t, keyCol); err != nil {
		return Statement{}, err
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		if err := checkNames(t, c.Name); err != nil {
			return Statement{}, err
		}
		e, err := ReadExpr(c)
		if err != nil {
			return Statement{}, err
		}
		exprs[i] = e
	}
	sql := "SELECT " + strings.Join(exprs, ", ") + " FROM " + tableName(t) + " WHERE " + keyEquals(t, keyCol, ":1")
	if orderCol != "" {
		sql += " ORDER BY " + table.Quote(orderCol)
	}
	return Statement{SQL: sql, Binds: []Bind{fixed("key", key)}, Kind: KindQuery}, nil
}

// keyEquals is the condition on the key column: against the key text,
// or for a RAW key its bytes in hexadecimal (HEXTORAW: the readback's
// binds are all text).
func keyEquals(t *table.Table, keyCol, ph string) string {
	if c := t.Column(keyCol); c != nil && c.Type.Kind == table.KindRaw {
		return table.Quote(keyCol) + " = HEXTORAW(" + ph + ")"
	}
	return table.Quote(keyCol) + " = " + ph
}

// numberBind is a fixed NUMBER bind.
func numberBind(label string, n int) Bind {
	return Bind{Column: label, Type: table.Type{Kind: table.KindNumber}, Source: Fixed, Value: strconv.Itoa(n)}
}

// ReadLOBChunk reads amount characters of LOB column col from offset
// (1-based) in row.
func ReadLOBChunk(t *table.Table, row Row, col string, amount, offset int) (Statement, error) {
	return readChunk(t, row, col, "DBMS_LOB.SUBSTR("+table.Quote(col)+", TO_NUMBER(:1), TO_NUMBER(:2))", amount, offset)
}

// readChunk is the query of select-list expression expr, whose binds are
// the amount and the offset, in row.
func readChunk(t *table.Table, row Row, col, expr string, amount, offset int) (Statement, error) {
	if err := checkNames(t, col); err != nil {
		return Statement{}, err
	}
	where, binds, err := row.where(t, []Bind{numberBind("amount", amount), numberBind("offset", offset)})
	if err != nil {
		return Statement{}, err
	}
	return Statement{SQL: "SELECT " + expr + " FROM " + tableName(t) + " WHERE " + where, Binds: binds, Kind: KindQuery}, nil
}

// ReadVectorBytes is the longest vector text the readback returns
// (FROM_VECTOR … RETURNING VARCHAR2(4000)).
const ReadVectorBytes = 4000

func vectorText(q string) string {
	return "FROM_VECTOR(" + q + " RETURNING VARCHAR2(" + strconv.Itoa(ReadVectorBytes) + "))"
}

// ReadBinaryChunk reads amount bytes of BLOB column col from offset
// (1-based) in row, as uppercase hexadecimal (RAWTOHEX of
// DBMS_LOB.SUBSTR, a RAW of at most the RAW limit: amount is at most half
// the VARCHAR2 limit).
func ReadBinaryChunk(t *table.Table, row Row, col string, amount, offset int) (Statement, error) {
	return readChunk(t, row, col, "RAWTOHEX(DBMS_LOB.SUBSTR("+table.Quote(col)+", TO_NUMBER(:1), TO_NUMBER(:2)))", amount, offset)
}

// DumpChars is how many characters of text DumpValue shows.
const DumpChars = 32

// DumpValue shows the bytes of column c in row: DUMP(…, 1016)
// (hexadecimal, with the character set), of DumpChars characters from
// from (1-based) for text and LOBs. For RAW and BLOB it is the
// hexadecimal of DumpChars bytes from byte from; for VECTOR the
// FROM_VECTOR text.
func DumpValue(t *table.Table, row Row, c *table.Column, from int) (Statement, error) {
	if err := checkNames(t, c.Name); err != nil {
		return Statement{}, err
	}
	q := table.Quote(c.Name)
	var expr string
	binds := []Bind{}
	switch {
	case c.Type.Kind == table.KindRaw:
		binds = append(binds, numberBind("from", 2*max(from, 1)-1))
		expr = "SUBSTR(RAWTOHEX(" + q + "), TO_NUMBER(:1), " + strconv.Itoa(2*DumpChars) + ")"
	case c.Type.Kind == table.KindBlob:
		binds = append(binds, numberBind("from", max(from, 1)))
		expr = "RAWTOHEX(DBMS_LOB.SUBSTR(" + q + ", " + strconv.Itoa(DumpChars) + ", TO_NUMBER(:1)))"
	case c.Type.Kind == table.KindVector:
		expr = vectorText(q)
	case ReadsLength(c) || c.Type.Kind == table.KindJSON:
		binds = append(binds, numberBind("from", max(from, 1)))
		expr = "DUMP(DBMS_LOB.SUBSTR(" + q + ", " + strconv.Itoa(DumpChars) + ", TO_NUMBER(:1)), 1016)"
		if c.Type.Kind == table.KindJSON && !c.Type.JSONAsClob {
			expr = "DUMP(SUBSTR(JSON_SERIALIZE(" + q + " RETURNING VARCHAR2(" + strconv.Itoa(ReadJSONBytes) + ")), TO_NUMBER(:1), " + strconv.Itoa(DumpChars) + "), 1016)"
		}
	case c.Type.Kind == table.KindVarchar:
		binds = append(binds, numberBind("from", max(from, 1)))
		expr = "DUMP(SUBSTR(" + q + ", TO_NUMBER(:1), " + strconv.Itoa(DumpChars) + "), 1016)"
	case c.Type.Kind == table.KindBoolean:
		expr = "CASE WHEN " + q + " THEN 'TRUE' WHEN NOT " + q + " THEN 'FALSE' END"
	default:
		expr = "DUMP(" + q + ", 1016)"
	}
	where, binds, err := row.where(t, binds)
	if err != nil {
		return Statement{}, err
	}
	return Statement{SQL: "SELECT " + expr + " FROM " + tableName(t) + " WHERE " + where, Binds: binds, Kind: KindQuery}, nil
}
