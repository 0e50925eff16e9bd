package fake

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/target-oracle/target-oracle/internal/table"
)

// column is a column as declared. Its 0/1 and IS JSON checks are
// constraints of the table (tbl.checks), as in Oracle.
type column struct {
	name    string
	typ     table.Type // Kind, lengths, precision; never BoolNumber or JSONAsClob
	notNull bool
	comment string
	// What a DBA's table may declare (SPEC §5.5); the target never
	// creates these. def is the DEFAULT's value as stored; next is the
	// identity's next value.
	fill   table.Fill
	hidden bool
	def    string
	next   int
	expr   string // a virtual column's expression, as written
}

type checkKind uint8

const (
	checkBool checkKind = iota + 1 // IN (0, 1)
	checkJSON                      // IS JSON
)

type check struct {
	col  string
	kind checkKind
}

// tbl is a table: its definition and its rows. Row maps are never changed
// in place (a change stores a new map), so a transaction copies only the
// slice.
type tbl struct {
	schema, name string
	cols         []column
	pk           []string
	pkName       string
	checks       map[string]check // by constraint name
	rows         []map[string]string
	key          map[string]int // primary key text -> index in rows; nil when stale
	unused       int            // columns SET UNUSED: they still count toward the column limit
	comment      string         // COMMENT ON TABLE
	part         *partitioning  // PARTITION BY RANGE … INTERVAL; nil when not partitioned
	created      time.Time      // ALL_OBJECTS.CREATED (scratch.go)
}

// maxColumns is Oracle's limit of columns per table, UNUSED ones included.
const maxColumns = 1000

func (t *tbl) qualified() string { return t.schema + "." + t.name }

func (t *tbl) col(name string) *column {
	for i := range t.cols {
		if t.cols[i].name == name {
			return &t.cols[i]
		}
	}
	return nil
}

// effective is the column's type with its checks, as the target models it.
func (t *tbl) effective(c *column) table.Type {
	typ := c.typ
	for _, ck := range t.checks {
		if ck.col != c.name {
			continue
		}
		switch {
		case ck.kind == checkBool && typ.Kind == table.KindNumber:
			typ.BoolNumber = true
		case ck.kind == checkJSON && typ.Kind == table.KindClob:
			typ.Kind, typ.JSONAsClob = table.KindJSON, true
		}
	}
	return typ
}

func (t *tbl) hasRows() bool {
	for _, r := range t.rows {
		if r != nil {
			return true
		}
	}
	return false
}

// ddl runs one DDL statement (it commits on its own).
func (db *DB) ddl(sql string) error {
	switch {
	case strings.HasPrefix(sql, "CREATE TABLE "):
		return db.createTable(strings.TrimPrefix(sql, "CREATE TABLE "))
	case strings.HasPrefix(sql, "ALTER TABLE "):
		return db.alterTable(strings.TrimPrefix(sql, "ALTER TABLE "))
	case strings.HasPrefix(sql, "COMMENT ON COLUMN "):
		return db.comment(strings.TrimPrefix(sql, "COMMENT ON COLUMN "))
	case strings.HasPrefix(sql, "COMMENT ON TABLE "):
		return db.tableComment(strings.TrimPrefix(sql, "COMMENT ON TABLE "))
	case strings.HasPrefix(sql, "CREATE INDEX "), strings.HasPrefix(sql, "CREATE UNIQUE INDEX "):
		return db.createIndex(sql)
	case strings.HasPrefix(sql, "DROP INDEX "):
		return db.dropIndex(strings.TrimPrefix(sql, "DROP INDEX "))
	case strings.HasPrefix(sql, "GRANT SELECT ON "):
		s, n, _, err := db.qname(strings.TrimPrefix(sql, "GRANT SELECT ON "))
		if err != nil {
			return err
		}
		_, err = db.table(s + "." + n)
		return err
	case strings.HasPrefix(sql, "DROP TABLE "):
		return db.dropTable(strings.TrimPrefix(sql, "DROP TABLE "))
	case strings.HasPrefix(sql, "TRUNCATE TABLE "):
		s, n, _, err := db.qname(strings.TrimPrefix(sql, "TRUNCATE TABLE "))
		if err != nil {
			return err
		}
		t, err := db.table(s + "." + n)
		if err != nil {
			return err
		}
		t.rows, t.key = nil, nil
		return nil
	}
	return fmt.Errorf("fake: unsupported DDL %.60q", sql)
}

func (db *DB) table(q string) (*tbl, error) {
	t := db.tables[q]
	if t == nil {
		return nil, oraError(942, "table or view does not exist: %s", q)
	}
	return t, nil
}

// qname reads "SCHEMA"."NAME" or "NAME" (the login schema) from the start
// of s and returns the rest.
func (db *DB) qname(s string) (schema, name, rest string, err error) {
	a, rest, err := quoted(s)
	if err != nil {
		return "", "", "", err
	}
	if !strings.HasPrefix(rest, ".\"") {
		return db.o.Schema, a, rest, nil
	}
	b, rest, err := quoted(rest[1:])
	return a, b, rest, err
}

// quoted reads a double-quoted identifier from the start of s.
func quoted(s string) (name, rest string, err error) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", fmt.Errorf("fake: expected a quoted name at %.40q", s)
	}
	end := strings.IndexByte(s[1:], '"')
	if end < 0 {
		return "", "", fmt.Errorf("fake: unterminated name at %.40q", s)
	}
	return s[1 : end+1], s[end+2:], nil
}

// quotedList reads `"A", "B"` (the inside of a column list).
func quotedList(s string) ([]string, error) {
	var out []string
	for _, item := range splitTop(s, ", ") {
		n, rest, err := quoted(strings.TrimSpace(item))
		if err != nil || rest != "" {
			return nil, fmt.Errorf("fake: bad column list %q", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parens returns the text inside the parenthesis that opens s, and what
// follows its closing parenthesis.
func parens(s string) (inner, rest string, err error) {
	if !strings.HasPrefix(s, "(") {
		return "", "", fmt.Errorf("fake: expected '(' at %.40q", s)
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], s[i])
			if j < 0 {
				return "", "", fmt.Errorf("fake: unterminated quote in %.40q", s)
			}
			i += j + 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return s[1:i], s[i+1:], nil
			}
		}
	}
	return "", "", fmt.Errorf("fake: unbalanced parentheses in %.40q", s)
}

// splitTop splits s at sep where sep is outside quotes and parentheses.
func splitTop(s, sep string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'' || c == '"':
			if j := strings.IndexByte(s[i+1:], c); j >= 0 {
				i += j + 1
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0 && strings.HasPrefix(s[i:], sep):
			out = append(out, s[start:i])
			i += len(sep) - 1
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// parseType reads a column type as table.Type.String writes it.
func parseType(s string) (table.Type, error) {
	name, args, _ := strings.Cut(s, "(")
	args, suffix, _ := strings.Cut(args, ")")
	bad := fmt.Errorf("fake: unsupported type %q", s)
	num := func(x string) int {
		n, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return -1
		}
		return n
	}
	switch name {
	case "NUMBER":
		if args == "" {
			return table.Type{Kind: table.KindNumber}, nil
		}
		p, sc, _ := strings.Cut(args, ",")
		t := table.Type{Kind: table.KindNumber, Precision: num(p)}
		if sc != "" {
			t.Scale = num(sc)
		}
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 {
			return table.Type{}, bad
		}
		return t, nil
	case "BOOLEAN":
		return table.Type{Kind: table.KindBoolean}, nil
	case "DATE":
		return table.Type{Kind: table.KindDate}, nil
	case "CLOB":
		return table.Type{Kind: table.KindClob}, nil
	case "NCLOB":
		return table.Type{Kind: table.KindClob, National: true}, nil
	case "JSON":
		return table.Type{Kind: table.KindJSON}, nil
	case "VARCHAR2":
		n, sem, _ := strings.Cut(args, " ")
		t := table.Type{Kind: table.KindVarchar, Length: num(n), CharSemantics: sem == "CHAR"}
		if t.Length < 1 || (sem != "CHAR" && sem != "BYTE" && sem != "") {
			return table.Type{}, bad
		}
		return t, nil
	case "NVARCHAR2":
		t := table.Type{Kind: table.KindVarchar, Length: num(args), CharSemantics: true, National: true}
		if t.Length < 1 {
			return table.Type{}, bad
		}
		return t, nil
	case "RAW", "BLOB", "VECTOR":
		return parseNativeType(name, args, suffix)
	case "TIMESTAMP":
		t := table.Type{Kind: table.KindTimestamp, Frac: num(args), TZ: suffix == " WITH TIME ZONE"}
		if t.Frac < 0 || t.Frac > 9 || (suffix != "" && !t.TZ) {
			return table.Type{}, bad
		}
		return t, nil
	}
	return table.Type{}, bad
}

// columnDef reads `"NAME" TYPE [NOT NULL] [CONSTRAINT "X" CHECK (…)]`.
func columnDef(s string) (column, string, check, error) {
	name, rest, err := quoted(s)
	if err != nil {
		return column{}, "", check{}, err
	}
	rest = strings.TrimPrefix(rest, " ")
	var ckName string
	var ck check
	if i := strings.Index(rest, " CONSTRAINT "); i >= 0 {
		n, cond, err := quoted(rest[i+len(" CONSTRAINT "):])
		if err != nil {
			return column{}, "", check{}, err
		}
		inner, _, err := parens(strings.TrimPrefix(cond, " CHECK "))
		if err != nil {
			return column{}, "", check{}, err
		}
		switch {
		case strings.HasSuffix(inner, " IN (0, 1)"):
			ck = check{col: name, kind: checkBool}
		case strings.HasSuffix(inner, " IS JSON"):
			ck = check{col: name, kind: checkJSON}
		default:
			return column{}, "", check{}, fmt.Errorf("fake: unsupported check %q", inner)
		}
		ckName, rest = n, rest[:i]
	}
	c := column{name: name}
	if t, ok := strings.CutSuffix(rest, " NOT NULL"); ok {
		c.notNull, rest = true, t
	}
	if rest, err = dbaClauses(&c, rest); err != nil {
		return column{}, "", check{}, err
	}
	c.typ, err = parseType(rest)
	return c, ckName, ck, err
}

// dbaClauses reads the column clauses a DBA's table may have and the
// target never writes: INVISIBLE, DEFAULT [ON NULL] <literal>, identity
// and virtual columns (`GENERATED ALWAYS AS (…) VIRTUAL`; the fake does
// not evaluate the expression: the column reads NULL). It returns the
// type text that precedes them.
func dbaClauses(c *column, rest string) (string, error) {
	if t, ok := strings.CutSuffix(rest, " INVISIBLE"); ok {
		rest, c.hidden = t, true
	}
	for _, id := range []struct {
		clause string
		fill   table.Fill
	}{
		{" GENERATED ALWAYS AS IDENTITY", table.FillIdentityAlways},
		{" GENERATED BY DEFAULT ON NULL AS IDENTITY", table.FillIdentityOnNull},
		{" GENERATED BY DEFAULT AS IDENTITY", table.FillIdentity},
	} {
		if t, ok := strings.CutSuffix(rest, id.clause); ok {
			c.fill, c.notNull, c.next = id.fill, true, 1
			return t, nil
		}
	}
	if i := strings.Index(rest, " GENERATED ALWAYS AS ("); i >= 0 && strings.HasSuffix(rest, ") VIRTUAL") {
		c.fill = table.FillVirtual
		c.expr = strings.TrimSuffix(rest[i+len(" GENERATED ALWAYS AS ("):], ") VIRTUAL")
		return rest[:i], nil
	}
	for _, d := range []struct {
		clause string
		fill   table.Fill
	}{{" DEFAULT ON NULL ", table.FillDefaultOnNull}, {" DEFAULT ", table.FillDefault}} {
		i := strings.Index(rest, d.clause)
		if i < 0 {
			continue
		}
		lit := rest[i+len(d.clause):]
		if v, ok := strings.CutPrefix(lit, "'"); ok {
			lit, ok = strings.CutSuffix(v, "'")
			if !ok || strings.Contains(lit, "'") {
				return "", fmt.Errorf("fake: unsupported DEFAULT %q", rest[i:])
			}
		}
		c.fill, c.def = d.fill, lit
		return rest[:i], nil
	}
	return rest, nil
}

// filled is the value the database gives column c of t when a statement
// leaves it out (bound false) or binds NULL to it (bound true); "" when it
// gives none. An identity takes its next value.
func (t *tbl) filled(c *column, bound bool) string {
	switch c.fill {
	case table.FillDefaultOnNull:
		return c.def
	case table.FillDefault:
		if !bound {
			return c.def
		}
	case table.FillIdentityAlways, table.FillIdentityOnNull, table.FillIdentity:
		if bound && c.fill == table.FillIdentity {
			return ""
		}
		for i := range t.cols {
			if t.cols[i].name == c.name {
				v := strconv.Itoa(t.cols[i].next)
				t.cols[i].next++
				return v
			}
		}
	}
	return ""
}

func (db *DB) createTable(s string) error {
	schema, name, rest, err := db.qname(s)
	if err != nil {
		return err
	}
	inner, tail, err := parens(strings.TrimPrefix(rest, " "))
	if err != nil {
		return err
	}
	q := schema + "." + name
	if db.objectNameUsed(schema, name) {
		return oraError(955, "name is already used by an existing object")
	}
	t := &tbl{schema: schema, name: name, checks: map[string]check{}, created: db.o.Now()}
	for _, item := range splitTop(inner, ", ") {
		if strings.HasPrefix(item, "CONSTRAINT ") {
			if err := t.addPrimaryKey(db, strings.TrimPrefix(item, "CONSTRAINT ")); err != nil {
				return err
			}
			continue
		}
		if err := t.addColumn(item); err != nil {
			return err
		}
	}
	if t.part, err = t.partitioning(tail); err != nil {
		return err
	}
	if err := db.constraintsFree(t, nil); err != nil {
		return err
	}
	if len(t.pk) > 0 && db.objectNameUsed(schema, t.pkName) {
		return oraError(955, "name is already used by an existing object") // the key's index
	}
	db.tables[q] = t
	return nil
}

// constraintsFree returns ORA-02264 when a constraint of t not in before
// has the name of a constraint of another table of t's schema: constraint
// names are unique per schema in Oracle, not per table.
func (db *DB) constraintsFree(t *tbl, before map[string]check) error {
	for name := range t.checks {
		if _, old := before[name]; old {
			continue
		}
		for _, o := range db.tables {
			if o == t || o.schema != t.schema {
				continue
			}
			if _, ok := o.checks[name]; ok || o.pkName == name && len(o.pk) > 0 {
				return oraError(2264, "name already used by an existing constraint")
			}
		}
	}
	return nil
}

func (t *tbl) addColumn(def string) error {
	c, ckName, ck, err := columnDef(def)
	if err != nil {
		return err
	}
	if t.col(c.name) != nil {
		return oraError(1430, "column being added already exists in table")
	}
	if c.notNull && t.hasRows() {
		return oraError(1758, "table must be empty to add mandatory (NOT NULL) column")
	}
	if len(t.cols)+t.unused >= maxColumns {
		return oraError(1792, "maximum number of columns in a table or view is 1000")
	}
	t.cols = append(slices.Clone(t.cols), c)
	if ckName != "" {
		t.checks = cloneChecks(t.checks)
		t.checks[ckName] = ck
	}
	return nil
}

func cloneChecks(m map[string]check) map[string]check {
	out := make(map[string]check, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// addPrimaryKey reads `"NAME" PRIMARY KEY ("A", …)[ USING INDEX …]`.
func (t *tbl) addPrimaryKey(db *DB, s string) error {
	name, rest, err := quoted(s)
	if err != nil {
		return err
	}
	inner, _, err := parens(strings.TrimPrefix(rest, " PRIMARY KEY "))
	if err != nil {
		return err
	}
	cols, err := quotedList(inner)
	if err != nil {
		return err
	}
	if len(t.pk) > 0 {
		if slices.Equal(t.pk, cols) {
			return oraError(2261, "such unique or primary key already exists in the table")
		}
		return oraError(2260, "table can have only one primary key")
	}
	for _, c := range cols {
		col := t.col(c)
		if col == nil {
			return oraError(904, "%q: invalid identifier", c)
		}
		if col.typ.IsLOB() {
			return oraError(2329, "column of datatype LOB cannot be unique or a primary key")
		}
		if col.typ.Kind == table.KindTimestamp && col.typ.TZ {
			return oraError(2329, "column of datatype TIME/TIMESTAMP WITH TIME ZONE cannot be unique or a primary key")
		}
	}
	seen := map[string]bool{}
	for _, r := range t.rows {
		if r == nil {
			continue
		}
		k := keyText(r, cols)
		if seen[k] {
			return oraError(2437, "cannot validate (%s) - primary key violated", name)
		}
		seen[k] = true
		for _, c := range cols {
			if r[c] == "" {
				return oraError(1449, "column contains NULL values; cannot alter to NOT NULL")
			}
		}
	}
	t.pk, t.pkName, t.key = cols, name, nil
	for i := range t.cols {
		if slices.Contains(cols, t.cols[i].name) {
			t.cols[i].notNull = true
		}
	}
	return nil
}

func (db *DB) alterTable(s string) error {
	schema, name, rest, err := db.qname(s)
	if err != nil {
		return err
	}
	t, err := db.table(schema + "." + name)
	if err != nil {
		return err
	}
	switch {
	case strings.HasPrefix(rest, " ADD CONSTRAINT "):
		return t.addPrimaryKey(db, strings.TrimPrefix(rest, " ADD CONSTRAINT "))
	case strings.HasPrefix(rest, " ADD ("):
		inner, _, err := parens(strings.TrimPrefix(rest, " ADD "))
		if err != nil {
			return err
		}
		cols, checks := t.cols, t.checks
		if err := t.addColumn(inner); err != nil {
			return err
		}
		if err := db.constraintsFree(t, checks); err != nil {
			t.cols, t.checks = cols, checks // the statement did nothing
			return err
		}
		return nil
	case strings.HasPrefix(rest, " MODIFY ("):
		inner, _, err := parens(strings.TrimPrefix(rest, " MODIFY "))
		if err != nil {
			return err
		}
		return t.modify(inner)
	case rest == " DROP PRIMARY KEY":
		if len(t.pk) == 0 {
			return oraError(2441, "Cannot drop nonexistent primary key")
		}
		return t.dropConstraint(t.pkName)
	case strings.HasPrefix(rest, " DROP CONSTRAINT "):
		n, _, err := quoted(strings.TrimPrefix(rest, " DROP CONSTRAINT "))
		if err != nil {
			return err
		}
		return t.dropConstraint(n)
	case strings.HasPrefix(rest, " SET UNUSED ("):
		inner, tail, err := parens(strings.TrimPrefix(rest, " SET UNUSED "))
		if err != nil {
			return err
		}
		n, _, err := quoted(inner)
		if err != nil {
			return err
		}
		return db.setUnused(t, n, tail == " CASCADE CONSTRAINTS")
	case strings.HasPrefix(rest, " RENAME COLUMN "):
		from, tail, err := quoted(strings.TrimPrefix(rest, " RENAME COLUMN "))
		if err != nil {
			return err
		}
		to, _, err := quoted(strings.TrimPrefix(tail, " TO "))
		if err != nil {
			return err
		}
		if err := t.rename(from, to); err != nil {
			return err
		}
		db.renameIndexColumn(t, from, to)
		return nil
	}
	return fmt.Errorf("fake: unsupported ALTER TABLE %.60q", rest)
}

// modify is MODIFY ("C" NOT NULL) or MODIFY ("C" TYPE).
func (t *tbl) modify(s string) error {
	name, rest, err := quoted(s)
	if err != nil {
		return err
	}
	c := t.col(name)
	if c == nil {
		return oraError(904, "%q: invalid identifier", name)
	}
	rest = strings.TrimPrefix(rest, " ")
	if rest == "NULL" {
		// Oracle refuses it for a nullable column and for a primary key
		// column alike.
		if !c.notNull || slices.Contains(t.pk, name) {
			return oraError(1451, "column to be modified to NULL cannot be modified to NULL")
		}
		t.cols = slices.Clone(t.cols)
		t.col(name).notNull = false
		return nil
	}
	if rest == "NOT NULL" {
		if c.notNull {
			return oraError(1442, "column to be modified to NOT NULL is already NOT NULL")
		}
		for _, r := range t.rows {
			if r != nil && r[name] == "" {
				return oraError(2296, "cannot enable (%s) - null values found", name)
			}
		}
		t.cols = slices.Clone(t.cols)
		t.col(name).notNull = true
		return nil
	}
	typ, err := parseType(rest)
	if err != nil {
		return err
	}
	from := c.typ
	if from.IsLOB() || typ.IsLOB() {
		return oraError(22859, "invalid modification of columns")
	}
	sameFamily := from.Kind == typ.Kind && from.National == typ.National && from.TZ == typ.TZ
	next := *c
	next.typ = typ
	nt := *t
	nt.cols = slices.Clone(t.cols)
	*nt.col(name) = next
	for _, r := range t.rows {
		v := ""
		if r != nil {
			v = r[name]
		}
		if v == "" {
			continue
		}
		if !sameFamily {
			return oraError(1439, "column to be modified must be empty to change datatype")
		}
		if err := nt.check(nt.col(name), v); err != nil {
			if from.Kind == table.KindNumber {
				return oraError(1440, "column to be modified must be empty to decrease precision or scale")
			}
			return oraError(1441, "cannot decrease column length because some value is too big")
		}
	}
	t.cols = nt.cols
	return nil
}

func (t *tbl) dropConstraint(name string) error {
	switch {
	case name == t.pkName && len(t.pk) > 0:
		t.pk, t.pkName, t.key = nil, "", nil
	case t.checks[name] != check{}:
		t.checks = cloneChecks(t.checks)
		delete(t.checks, name)
	default:
		return oraError(2443, "cannot drop constraint - nonexistent constraint")
	}
	return nil
}

// setUnused hides a column as ALTER TABLE … SET UNUSED does: it leaves
// the catalog views and takes its constraints (with CASCADE CONSTRAINTS)
// and indexes along.
func (db *DB) setUnused(t *tbl, name string, cascade bool) error {
	if t.col(name) == nil {
		return oraError(904, "%q: invalid identifier", name)
	}
	if slices.Contains(t.pk, name) {
		if !cascade && len(t.pk) > 1 {
			return oraError(12991, "column is referenced in a multi-column constraint")
		}
		t.pk, t.pkName, t.key = nil, "", nil
	}
	var cols []column
	for _, c := range t.cols {
		if c.name != name {
			cols = append(cols, c)
		}
	}
	t.cols = cols
	t.unused++
	t.checks = cloneChecks(t.checks)
	for k, ck := range t.checks {
		if ck.col == name {
			delete(t.checks, k)
		}
	}
	for k, ix := range db.indexes {
		if ix.table == t.qualified() && slices.Contains(ix.columns, name) {
			delete(db.indexes, k)
		}
	}
	t.mapRows(func(r map[string]string) map[string]string {
		if _, ok := r[name]; !ok {
			return r
		}
		n := cloneRow(r)
		delete(n, name)
		return n
	})
	return nil
}

func (t *tbl) rename(from, to string) error {
	if t.col(from) == nil {
		return oraError(904, "%q: invalid identifier", from)
	}
	if t.col(to) != nil {
		return oraError(957, "duplicate column name")
	}
	t.cols = slices.Clone(t.cols)
	t.col(from).name = to
	t.checks = cloneChecks(t.checks)
	for k, ck := range t.checks {
		if ck.col == from {
			t.checks[k] = check{col: to, kind: ck.kind}
		}
	}
	for i, k := range t.pk {
		if k == from {
			t.pk = slices.Clone(t.pk)
			t.pk[i] = to
		}
	}
	t.mapRows(func(r map[string]string) map[string]string {
		v, ok := r[from]
		if !ok {
			return r
		}
		n := cloneRow(r)
		delete(n, from)
		n[to] = v
		return n
	})
	return nil
}

func (t *tbl) mapRows(f func(map[string]string) map[string]string) {
	rows := make([]map[string]string, 0, len(t.rows))
	for _, r := range t.rows {
		if r != nil {
			rows = append(rows, f(r))
		}
	}
	t.rows, t.key = rows, nil
}

func cloneRow(r map[string]string) map[string]string {
	n := make(map[string]string, len(r)+1)
	for k, v := range r {
		n[k] = v
	}
	return n
}

func (db *DB) comment(s string) error {
	schema, name, rest, err := db.qname(s)
	if err != nil {
		return err
	}
	t, err := db.table(schema + "." + name)
	if err != nil {
		return err
	}
	col, rest, err := quoted(strings.TrimPrefix(rest, "."))
	if err != nil {
		return err
	}
	lit, ok := strings.CutPrefix(rest, " IS '")
	if !ok || !strings.HasSuffix(lit, "'") {
		return fmt.Errorf("fake: bad COMMENT %.60q", s)
	}
	c := t.col(col)
	if c == nil {
		return oraError(904, "%q: invalid identifier", col)
	}
	t.cols = slices.Clone(t.cols)
	t.col(col).comment = strings.ReplaceAll(lit[:len(lit)-1], "''", "'")
	return nil
}

// index is a CREATE INDEX the fake recorded.
type index struct {
	table   string // SCHEMA.TABLE
	columns []string
	unique  bool
}

// createIndex records an index; indexes other than the primary key's are
// not enforced. As Oracle, it refuses an index on a LOB, JSON or VECTOR
// column (ORA-02327), a name that an index of the schema
// has, the primary key's included (ORA-00955: index names are unique per
// schema, not per table), and a column list of the table that an index
// has, whatever its uniqueness (ORA-01408: a second index on the same
// columns must be INVISIBLE, which the target never asks for).
func (db *DB) createIndex(sql string) error {
	s := strings.TrimPrefix(sql, "CREATE ")
	s, unique := strings.CutPrefix(s, "UNIQUE ")
	s = strings.TrimPrefix(s, "INDEX ")
	is, in, rest, err := db.qname(s)
	if err != nil {
		return err
	}
	ts, tn, rest, err := db.qname(strings.TrimPrefix(rest, " ON "))
	if err != nil {
		return err
	}
	t, err := db.table(ts + "." + tn)
	if err != nil {
		return err
	}
	inner, _, err := parens(strings.TrimPrefix(rest, " "))
	if err != nil {
		return err
	}
	cols, err := quotedList(inner)
	if err != nil {
		return err
	}
	if db.objectNameUsed(is, in) {
		return oraError(955, "name is already used by an existing object")
	}
	for _, c := range cols {
		col := t.col(c)
		if col == nil {
			return oraError(904, "%q: invalid identifier", c)
		}
		if col.typ.IsLOB() {
			return oraError(2327, "cannot create index on expression with datatype LOB")
		}
	}
	if db.columnsIndexed(t, cols) {
		return oraError(1408, "such column list already indexed")
	}
	db.indexes[is+"."+in] = index{table: t.qualified(), columns: cols, unique: unique}
	return nil
}

// dropIndex drops `"S"."NAME"`, an index dropped by hand (ORA-01418 when
// there is none; the primary key's is not an index of the map).
func (db *DB) dropIndex(s string) error {
	is, in, _, err := db.qname(s)
	if err != nil {
		return err
	}
	if _, ok := db.indexes[is+"."+in]; !ok {
		return oraError(1418, "specified index does not exist")
	}
	delete(db.indexes, is+"."+in)
	return nil
}

// objectNameUsed reports whether a table or an index of schema has name,
// a primary key's index (named as its constraint) included: tables and
// indexes share a schema's namespace (ORA-00955 for a table named as an
// index, or an index named as a table).
func (db *DB) objectNameUsed(schema, name string) bool {
	if _, ok := db.indexes[schema+"."+name]; ok || db.tables[schema+"."+name] != nil {
		return true
	}
	for _, o := range db.tables {
		if o.schema == schema && len(o.pk) > 0 && o.pkName == name {
			return true
		}
	}
	return false
}

// columnsIndexed reports whether an index of t, the primary key's
// included, has exactly cols, in order.
func (db *DB) columnsIndexed(t *tbl, cols []string) bool {
	if len(t.pk) > 0 && slices.Equal(cols, t.pk) {
		return true
	}
	for _, ix := range db.indexes {
		if ix.table == t.qualified() && slices.Equal(ix.columns, cols) {
			return true
		}
	}
	return false
}

// renameIndexColumn follows a RENAME COLUMN: indexes keep their column.
func (db *DB) renameIndexColumn(t *tbl, from, to string) {
	for k, ix := range db.indexes {
		if ix.table == t.qualified() && slices.Contains(ix.columns, from) {
			ix.columns = slices.Clone(ix.columns)
			ix.columns[slices.Index(ix.columns, from)] = to
			db.indexes[k] = ix
		}
	}
}
