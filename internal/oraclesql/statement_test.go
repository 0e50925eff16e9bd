package oraclesql

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

var _ memory.Renderer = (*Renderer)(nil)

// scan walks sql outside string literals and quoted identifiers and
// returns the placeholder numbers in order, and whether every quote
// closes.
func scan(sql string) (placeholders []int, balanced bool) {
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; {
		case c == '\'' || c == '"':
			j := strings.IndexByte(sql[i+1:], c)
			if j < 0 {
				return placeholders, false
			}
			i += j + 1
			if c == '"' && strings.ContainsAny(sql[i-j:i], "\"\x00") {
				return placeholders, false
			}
		case c == ':' && i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9':
			j := i + 1
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			n, _ := strconv.Atoi(sql[i+1 : j])
			placeholders = append(placeholders, n)
			i = j - 1
		}
	}
	return placeholders, true
}

func TestScan(t *testing.T) {
	ph, ok := scan(`SELECT ':9', "a:8" FROM T WHERE A = :1 AND B = TO_DATE(:2, 'HH24:MI')`)
	if !ok || len(ph) != 2 || ph[0] != 1 || ph[1] != 2 {
		t.Fatalf("scan = %v, %v", ph, ok)
	}
	if _, ok := scan(`SELECT "A FROM DUAL`); ok {
		t.Fatal("unbalanced identifier not caught")
	}
}

// TestStatementShapes checks every golden shape: placeholders :1..:n in
// text order with one Bind each, balanced quotes, no line that would end
// the statement in statements.sql, ';' only ending PL/SQL blocks, FromRow
// binds pointing into the Write's columns.
func TestStatementShapes(t *testing.T) {
	for _, c := range goldenCases() {
		ss, err := c.render()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, s := range ss {
			ph, ok := scan(s.SQL)
			if !ok {
				t.Errorf("%s: unbalanced quotes in %s", c.name, s.SQL)
			}
			if len(ph) != len(s.Binds) {
				t.Errorf("%s: %d placeholders, %d binds in %s", c.name, len(ph), len(s.Binds), s.SQL)
			}
			for i, n := range ph {
				if n != i+1 {
					t.Errorf("%s: placeholder %d is :%d in %s", c.name, i+1, n, s.SQL)
					break
				}
			}
			for _, line := range strings.Split(s.SQL, "\n") {
				if strings.TrimSpace(line) == "/" {
					t.Errorf("%s: a line holding only / in %s", c.name, s.SQL)
				}
			}
			if strings.HasSuffix(s.SQL, ";") != (s.Kind == KindPLSQL) {
				t.Errorf("%s: trailing ';' does not match kind %s: %s", c.name, s.Kind, s.SQL)
			}
			if s.Kind == 0 {
				t.Errorf("%s: no kind: %s", c.name, s.SQL)
			}
			for _, b := range s.Binds {
				if b.Source == FromRow && (s.Rows == 0 || b.Index < 0) {
					t.Errorf("%s: row bind %+v outside a write statement", c.name, b)
				}
			}
		}
	}
}

// TestWriteBindsLOBsLast checks that LOB and JSON placeholders follow all
// others and that FromRow indexes name the bound column.
func TestWriteBindsLOBsLast(t *testing.T) {
	for _, m := range []engine.Method{engine.Insert, engine.Upsert} {
		w := write(allTypes(), m, engine.RowUpsert, engine.RowSoftDelete)
		ss, err := New(Options{}).Steps([]engine.Step{w})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			lob := false
			for _, b := range s.Binds {
				if w.Columns[b.Index] != b.Column {
					t.Errorf("bind %s has index %d (%s)", b.Column, b.Index, w.Columns[b.Index])
				}
				if b.Type.IsLOB() {
					lob = true
				} else if lob {
					t.Errorf("non-LOB bind %s after a LOB bind in %s", b.Column, s.SQL)
				}
				if b.Column == w.DatabaseTime {
					t.Errorf("database time column %s is bound", b.Column)
				}
			}
		}
	}
}

func TestWriteStatementsPerRowKind(t *testing.T) {
	tests := []struct {
		method engine.Method
		kinds  []engine.RowKind
		want   []string // statement prefixes, in order
	}{
		{engine.Insert, []engine.RowKind{engine.RowUpsert}, []string{"INSERT"}},
		{engine.Insert, []engine.RowKind{engine.RowSoftDelete, engine.RowUpsert}, []string{"INSERT"}},
		{engine.Insert, []engine.RowKind{engine.RowHardDelete}, []string{"DELETE"}},
		{engine.Upsert, []engine.RowKind{engine.RowUpsert}, []string{"MERGE"}},
		{engine.Upsert, []engine.RowKind{engine.RowSoftDelete}, []string{"MERGE"}},
		{engine.Upsert, []engine.RowKind{engine.RowHardDelete, engine.RowUpsert}, []string{"MERGE", "DELETE"}},
		{engine.Upsert, []engine.RowKind{engine.RowHardDelete, engine.RowSoftDelete, engine.RowUpsert}, []string{"MERGE", "MERGE", "DELETE"}},
		{engine.Upsert, nil, nil},
	}
	for _, tt := range tests {
		ss, err := New(Options{}).Steps([]engine.Step{write(small(), tt.method, tt.kinds...)})
		if err != nil {
			t.Fatal(err)
		}
		if len(ss) != len(tt.want) {
			t.Errorf("%d %v: %d statements, want %v", tt.method, tt.kinds, len(ss), tt.want)
			continue
		}
		var covered RowSet
		for i, s := range ss {
			if !strings.HasPrefix(s.SQL, tt.want[i]) {
				t.Errorf("%d %v: statement %d is %.20s, want %s", tt.method, tt.kinds, i, s.SQL, tt.want[i])
			}
			if covered&s.Rows != 0 {
				t.Errorf("%d %v: a row kind has two statements", tt.method, tt.kinds)
			}
			covered |= s.Rows
		}
		if covered != RowsOf(tt.kinds...) {
			t.Errorf("%d %v: statements cover %b, rows %b", tt.method, tt.kinds, covered, RowsOf(tt.kinds...))
		}
	}
}

func TestSoftDeleteMergeUpdatesOnlyMetadata(t *testing.T) {
	ss, err := New(Options{}).Steps([]engine.Step{write(small(), engine.Upsert, engine.RowSoftDelete)})
	if err != nil {
		t.Fatal(err)
	}
	set := ss[0].SQL[strings.Index(ss[0].SQL, "UPDATE SET"):strings.Index(ss[0].SQL, "WHEN NOT MATCHED")]
	if strings.Contains(set, `"NOTE"`) || strings.Contains(set, `"ID"`) || !strings.Contains(set, `"_SDC_DELETED_AT"`) {
		t.Errorf("soft delete SET clause: %s", set)
	}
}

func TestDeleteVersionsNeverLessOrEqual(t *testing.T) {
	for _, hard := range []bool{true, false} {
		ss, err := New(Options{}).Step(&engine.DeleteVersions{Table: small(), Version: "5", Hard: hard, At: "2024-01-01T00:00:00Z",
			VersionColumn: table.MetaTableVersion, DeletedColumn: table.MetaDeletedAt})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(ss[0].SQL, "<=") || !strings.Contains(ss[0].SQL, `"_SDC_TABLE_VERSION" < TO_NUMBER(`) ||
			!strings.Contains(ss[0].SQL, `"_SDC_TABLE_VERSION" IS NULL`) {
			t.Errorf("hard=%v: %s", hard, ss[0].SQL)
		}
	}
}

func TestErrors(t *testing.T) {
	r := New(Options{})
	noKey := write(small(), engine.Upsert, engine.RowUpsert)
	noKey.KeyColumns = nil
	unknown := write(small(), engine.Insert, engine.RowUpsert)
	unknown.Columns = append(unknown.Columns, "NOPE")
	quoted := small()
	quoted.Columns[1].Name = `bad"name`
	textVersion := small()
	textVersion.Column(table.MetaTableVersion).Type = tVarByte
	tests := []struct {
		name string
		f    func() error
	}{
		{"upsert without key", func() error { _, err := r.Step(noKey); return err }},
		{"unknown column", func() error { _, err := r.Step(unknown); return err }},
		{"quote in name", func() error {
			_, err := r.Change(change(quoted, table.CreateTable, "", table.Type{}, table.Type{}))
			return err
		}},
		{"migrate text to number", func() error {
			_, err := r.Change(migrateChange(allTypes(), "NAME", tVarChar, tInt))
			return err
		}},
		{"migrate number(1) to boolean", func() error {
			_, err := r.Change(migrateChange(allTypes(), "PAID", tBoolNum, tBool))
			return err
		}},
		{"change of a missing column", func() error {
			_, err := r.Change(change(small(), table.AddColumn, "MISSING", table.Type{}, tInt))
			return err
		}},
		{"text version column", func() error {
			_, err := r.Step(&engine.DeleteVersions{Table: textVersion, Version: "1", Hard: true, VersionColumn: table.MetaTableVersion, DeletedColumn: table.MetaDeletedAt})
			return err
		}},
	}
	for _, tt := range tests {
		err := tt.f()
		var ue *UnsupportedError
		if !errors.As(err, &ue) {
			t.Errorf("%s: err = %v, want *UnsupportedError", tt.name, err)
		}
	}
	if got := r.RenderChange(migrateChange(allTypes(), "NAME", tVarChar, tInt)); got != nil {
		t.Errorf("RenderChange of an impossible migration = %q, want nothing", got)
	}
}

func TestAdapterMatchesStatements(t *testing.T) {
	r := New(storage())
	ch := change(small(), table.CreateTable, "", table.Type{}, table.Type{})
	ss, _ := r.Change(ch)
	got := r.RenderChange(ch)
	if len(got) != len(ss) {
		t.Fatalf("RenderChange gave %d statements, Change %d", len(got), len(ss))
	}
	for i := range got {
		if got[i] != ss[i].SQL {
			t.Errorf("statement %d: %q vs %q", i, got[i], ss[i].SQL)
		}
	}
	steps := []engine.Step{&engine.Replace{Table: small()}, write(small(), engine.Upsert, engine.RowUpsert)}
	if got := r.RenderSteps(steps); len(got) != 2 || !strings.HasPrefix(got[0], "DELETE FROM") || !strings.HasPrefix(got[1], "MERGE") {
		t.Errorf("RenderSteps = %q", got)
	}
	if got := r.RenderTruncate(small()); len(got) != 1 || got[0] != `TRUNCATE TABLE "SHOP"."CUSTOMERS"` {
		t.Errorf("RenderTruncate = %q", got)
	}
}

func TestServerName(t *testing.T) {
	tests := map[string]string{
		"users": "USERS", "USERS": "USERS", "data_ts$1": "DATA_TS$1", "public": "PUBLIC",
		"Mixed Case": `"Mixed Case"`, "1ts": `"1ts"`, "table": `"table"`, "": `""`,
	}
	for in, want := range tests {
		if got := serverName(in); got != want {
			t.Errorf("serverName(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestMigrationColumnIsDeterministicAndFits(t *testing.T) {
	r := New(Options{IdentifierMaxBytes: table.MaxBytesShort})
	long := strings.Repeat("C", 30)
	a, b := r.MigrationColumn(long), r.MigrationColumn(long)
	if a != b || len(a) > table.MaxBytesShort || a == long {
		t.Errorf("MigrationColumn(%s) = %s, %s", long, a, b)
	}
	if got := New(Options{}).MigrationColumn("NAME"); got != "NAME$M" {
		t.Errorf("MigrationColumn(NAME) = %s", got)
	}
}

func TestBindText(t *testing.T) {
	tests := []struct {
		typ       table.Type
		in, want  string
		allocFree bool
	}{
		{tTSTZ, "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.000000000 +00:00", false},
		{tTSTZ, "2024-01-02T03:04:05.5Z", "2024-01-02T03:04:05.500000000 +00:00", false},
		{tTS9, "2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05.123456789", false},
		{tTS6, "2024-01-02", "2024-01-02T00:00:00.000000000", false},
		{tTSTZ, "", "", true},
		{tTSTZ, "garbage", "garbage", false},
		{tTSTZ, "2024-01-02T03:04:05.1234567890Z", "2024-01-02T03:04:05.1234567890Z", false},
		{tTSTZ, "2024-01-02T03:04:05+01:00", "2024-01-02T03:04:05+01:00", false},
		{tDate, "2024-01-02", "2024-01-02", true},
		{tInt, "-12345678901234567890", "-12345678901234567890", true},
		{tBool, "true", "true", true},
		{tBoolNum, "1", "1", true},
		{tJSON, `{"a":1}`, `{"a":1}`, true},
	}
	for _, tt := range tests {
		if got := BindText(tt.typ, tt.in); got != tt.want {
			t.Errorf("BindText(%s, %q) = %q, want %q", tt.typ, tt.in, got, tt.want)
		}
		if tt.allocFree {
			if n := testing.AllocsPerRun(10, func() { BindText(tt.typ, tt.in) }); n != 0 {
				t.Errorf("BindText(%s, %q) allocates %v times", tt.typ, tt.in, n)
			}
		}
	}
	buf := make([]byte, 0, 64)
	if n := testing.AllocsPerRun(10, func() { buf = AppendBindText(buf[:0], tTSTZ, "2024-01-02T03:04:05.5Z") }); n != 0 {
		t.Errorf("AppendBindText allocates %v times", n)
	}
}

// FuzzBindText checks that the bind text of a canonical date-time names
// the same instant in the format the bind expression parses.
func FuzzBindText(f *testing.F) {
	f.Add(int64(0), int64(0), true)
	f.Add(int64(1700000000), int64(123456789), false)
	f.Add(int64(-62135596800), int64(1), true)
	f.Add(int64(253402300799), int64(999999999), false)
	f.Fuzz(func(t *testing.T, sec, nsec int64, tz bool) {
		ts := time.Unix(sec, nsec%1e9).UTC()
		if nsec < 0 || ts.Year() < 1 || ts.Year() > 9999 {
			t.Skip()
		}
		stored := ts.Format("2006-01-02T15:04:05.999999999Z")
		typ := table.Type{Kind: table.KindTimestamp, Frac: 9, TZ: tz}
		got := BindText(typ, stored)
		layout := "2006-01-02T15:04:05.000000000"
		if tz {
			layout += " -07:00"
		}
		back, err := time.Parse(layout, got)
		if err != nil {
			t.Fatalf("BindText(%q) = %q: %v", stored, got, err)
		}
		if !back.Equal(ts) {
			t.Fatalf("BindText(%q) = %q is %v", stored, got, back)
		}
	})
}

// A tap's description cannot break a statement of statements.sql: no line
// of a literal may hold only "/", so control characters become spaces.
func TestLiteralKeepsOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                             `'plain'`,
		"it's":                              `'it''s'`,
		"x\n/\nDROP TABLE APP.USERS\n/\n--": `'x / DROP TABLE APP.USERS / --'`,
		"a\r\tb\x7fc":                       `'a  b c'`,
		"多字节 ✓":                             `'多字节 ✓'`,
	} {
		if got := literal(in); got != want {
			t.Errorf("literal(%q) = %s, want %s", in, got, want)
		}
	}
}

// Autonomous Database enables parallel DML on its _high and _medium
// services; a MERGE run in parallel makes the next read or write of the
// table in the same transaction fail with ORA-12838. Every session turns
// it off before its first statement.
func TestSessionSetupDisablesParallelDML(t *testing.T) {
	for _, timeout := range []int{0, 30} {
		sql := SessionSetup("orders", timeout).SQL
		const want = "EXECUTE IMMEDIATE 'ALTER SESSION DISABLE PARALLEL DML';"
		if !strings.Contains(sql, want) {
			t.Errorf("ddl_lock_timeout %d: session setup lacks %q:\n%s", timeout, want, sql)
		}
		if strings.Index(sql, want) > strings.Index(sql, "SET_MODULE") {
			t.Errorf("parallel DML must be off before the block ends:\n%s", sql)
		}
	}
}

// TestSplitUpsert: the split upsert's MERGE binds no long column and its
// UPDATE binds the long columns first and the keys last (go-ora sends
// LONG data after every other bind whatever their order); key, database
// time and NOT NULL columns cannot be split off.
func TestSplitUpsert(t *testing.T) {
	r := New(Options{})
	w := write(allTypes(), engine.Upsert, engine.RowUpsert)
	ss, err := r.SplitUpsert(w, []string{"BODY", "TAGS"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 2 || !strings.HasPrefix(ss[0].SQL, "MERGE ") || !strings.HasPrefix(ss[1].SQL, "UPDATE ") {
		t.Fatalf("statements %v", ss)
	}
	for _, b := range ss[0].Binds {
		if b.Column == "BODY" || b.Column == "TAGS" {
			t.Errorf("the MERGE binds %s", b.Column)
		}
	}
	if strings.Contains(ss[0].SQL, `"BODY"`) || strings.Contains(ss[0].SQL, `"TAGS"`) {
		t.Errorf("the MERGE names a long column: %s", ss[0].SQL)
	}
	var cols []string
	for _, b := range ss[1].Binds {
		cols = append(cols, b.Column)
	}
	if fmt.Sprint(cols) != "[BODY TAGS ID]" || ss[1].Rows != RowsOf(engine.RowUpsert) {
		t.Errorf("UPDATE binds %v rows %v", cols, ss[1].Rows)
	}
	notNull := allTypes()
	notNull.Column("BODY").Nullable = false
	for _, c := range []struct {
		w    *engine.Write
		long []string
	}{
		{w, []string{"ID"}}, {w, []string{table.MetaLoadedAt}}, {write(notNull, engine.Upsert, engine.RowUpsert), []string{"BODY"}}, {w, nil},
	} {
		var ue *UnsupportedError
		if _, err := r.SplitUpsert(c.w, c.long); !errors.As(err, &ue) {
			t.Errorf("split of %v: %v, want an UnsupportedError", c.long, err)
		}
	}
}
