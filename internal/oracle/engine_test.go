package oracle_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

func prop(name string, typ table.Type, nullable bool) table.Column {
	return table.Column{Name: name, Type: typ, Nullable: nullable, Role: table.RoleProperty, Source: []string{strings.ToLower(name)}}
}

func meta(name string, typ table.Type) table.Column {
	return table.Column{Name: name, Type: typ, Nullable: true, Role: table.RoleMetadata, Source: []string{strings.ToLower(name)}}
}

var (
	tsTZ    = table.Type{Kind: table.KindTimestamp, Frac: 6, TZ: true}
	integer = table.Type{Kind: table.KindNumber, Precision: 38}
)

// allTypes is a table with a column of every type the target creates.
func allTypes() *table.Table {
	return &table.Table{Schema: schemaName, Name: "ALL_TYPES", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("AMOUNT", table.Type{Kind: table.KindNumber, Precision: 12, Scale: 2}, true),
		prop("RATIO", table.Type{Kind: table.KindNumber}, true),
		prop("PAID", table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}, true),
		prop("IS_GIFT", table.Type{Kind: table.KindBoolean}, true),
		prop("NAME", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, true),
		prop("CODE", table.Type{Kind: table.KindVarchar, Length: 4000}, true),
		prop("NOTE_N", table.Type{Kind: table.KindVarchar, Length: 200, CharSemantics: true, National: true}, true),
		prop("ORDERED_ON", table.Type{Kind: table.KindDate}, true),
		prop("CREATED_AT", tsTZ, true),
		prop("LOCAL_TS", table.Type{Kind: table.KindTimestamp, Frac: 9}, true),
		prop("BODY", table.Type{Kind: table.KindClob}, true),
		prop("BODY_N", table.Type{Kind: table.KindClob, National: true}, true),
		prop("ATTRS", table.Type{Kind: table.KindJSON}, true),
		prop("TAGS", table.Type{Kind: table.KindJSON, JSONAsClob: true}, true),
		prop("EMPTY_LOB", table.Type{Kind: table.KindClob}, true),
		meta("_SDC_LOADED_AT", tsTZ),
	}}
}

func createChange(t testing.TB, tbl *table.Table, name string) engine.Change {
	t.Helper()
	c := tbl.Clone()
	c.Name = name
	return engine.Change{Table: c, Change: table.Change{Kind: table.CreateTable}}
}

// session opens a session and creates tables.
func session(t testing.TB, r *rig, tables ...*table.Table) engine.Session {
	t.Helper()
	s, err := r.eng.Session(context.Background(), "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tbl := range tables {
		if err := s.Apply(context.Background(), engine.Change{Table: tbl, Change: table.Change{Kind: table.CreateTable}}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// write is a Write of rows (maps of column to stored value) in the
// column order of tbl, lines from 1.
func write(tbl *table.Table, method engine.Method, rows ...map[string]string) *engine.Write {
	w := &engine.Write{Table: tbl, Method: method, KeyColumns: tbl.PrimaryKey}
	for _, c := range tbl.Columns {
		if c.Name == "_SDC_LOADED_AT" {
			w.DatabaseTime = c.Name
			continue
		}
		w.Columns = append(w.Columns, c.Name)
		if c.Role == table.RoleMetadata {
			w.MetadataColumns = append(w.MetadataColumns, c.Name)
		}
	}
	for i, r := range rows {
		vals := make([]string, len(w.Columns))
		for j, c := range w.Columns {
			vals[j] = r[c]
		}
		w.Rows = append(w.Rows, engine.Row{Kind: engine.RowUpsert, Line: int64(i + 1), Values: vals})
	}
	return w
}

func roundTripRows() []map[string]string {
	return []map[string]string{
		{"ID": "1", "AMOUNT": "12.5", "RATIO": "-0.000123", "PAID": "1", "IS_GIFT": "true", "NAME": "héllo wörld",
			"CODE": "abc", "NOTE_N": "日本語テキスト", "ORDERED_ON": "2024-02-29", "CREATED_AT": "2024-01-02T03:04:05.123456Z",
			"LOCAL_TS": "2024-01-02T03:04:05.123456789Z", "BODY": "short body", "BODY_N": "ñandú",
			"ATTRS": `{"a":[1,2,{"b":null}]}`, "TAGS": `["x","y"]`},
		{"ID": "2", "CODE": strings.Repeat("c", 4000), "BODY": strings.Repeat("é", 3000),
			"BODY_N": strings.Repeat("ü", 2500), "ATTRS": `{"k":"` + strings.Repeat("v", 5000) + `"}`,
			"TAGS": `["` + strings.Repeat("t", 4500) + `"]`, "CREATED_AT": "1999-12-31T23:59:59Z"},
		{"ID": "99999999999999999999999999999999999999", "AMOUNT": "-9999999999.99", "RATIO": "123456789012345678901234567890.123456",
			"PAID": "0", "IS_GIFT": "false", "ORDERED_ON": "0001-01-01", "LOCAL_TS": "2024-06-30T00:00:00.000000001Z", "NAME": "'quoted' \"double\""},
	}
}

// TestBindRoundTrip writes a value of every type (short, long, NULL) with
// MERGE and with INSERT: what the server stores is the stored value.
func TestBindRoundTrip(t *testing.T) {
	for _, method := range []engine.Method{engine.Upsert, engine.Insert} {
		t.Run(fmt.Sprint(method), func(t *testing.T) {
			r := defaultRig(t)
			tbl := allTypes()
			s := session(t, r, tbl)
			rows := roundTripRows()
			res, err := s.Load(context.Background(), []engine.Step{write(tbl, method, rows...)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Written != 3 || res.Known != (method == engine.Insert) {
				t.Errorf("result %+v, want 3 written, known only for INSERT", res)
			}
			got := r.db.Rows("DRY_RUN.ALL_TYPES")
			if len(got) != len(rows) {
				t.Fatalf("%d rows, want %d", len(got), len(rows))
			}
			for i, want := range rows {
				want["_SDC_LOADED_AT"] = "2025-06-01T12:00:00Z"
				for k, v := range want {
					if v == "" {
						delete(want, k)
					}
				}
				if !reflect.DeepEqual(got[i], want) {
					for k := range want {
						if got[i][k] != want[k] {
							t.Errorf("row %d column %s: stored %.60q, wrote %.60q", i, k, got[i][k], want[k])
						}
					}
					t.Errorf("row %d: %d columns stored, %d written", i, len(got[i]), len(want))
				}
			}
		})
	}
}

// TestBindTypes checks the Go type of each column's array bind: one type
// per column; national text as []go_ora.NVarChar; every value that fits
// a VARCHAR bind as VARCHAR, also in LOB columns and in all-NULL ones; the
// rows with long values in their own executes (for an upsert the split
// upsert: a MERGE without the long columns, then an UPDATE of them with
// LONG binds for CLOB values and LOB binds for national and native JSON
// ones).
func TestBindTypes(t *testing.T) {
	r := defaultRig(t)
	tbl := allTypes()
	s := session(t, r, tbl)
	renderer := oraclesql.New(oraclesql.Options{})
	short := map[string]string{
		"ID": "[]sql.NullString", "NAME": "[]sql.NullString", "NOTE_N": "[]go_ora.NVarChar",
		"CREATED_AT": "[]sql.NullString", "BODY": "[]sql.NullString", "BODY_N": "[]go_ora.NVarChar",
		"ATTRS": "[]sql.NullString", "TAGS": "[]sql.NullString", "EMPTY_LOB": "[]sql.NullString"}
	check := func(t *testing.T, st oraclesql.Statement, args []any, rows int, want map[string]string) {
		t.Helper()
		if len(args) != len(st.Binds) {
			t.Fatalf("%d arguments for %d binds", len(args), len(st.Binds))
		}
		for i, bd := range st.Binds {
			typ := fmt.Sprintf("%T", args[i])
			if w, ok := want[bd.Column]; ok && typ != w {
				t.Errorf("%s bound as %s, want %s", bd.Column, typ, w)
			}
			if n := reflect.ValueOf(args[i]).Len(); n != rows {
				t.Errorf("%s: %d elements, want %d", bd.Column, n, rows)
			}
		}
	}
	last := func(verb string) []any {
		calls := r.db.Args(verb)
		return calls[len(calls)-1]
	}

	w := write(tbl, engine.Upsert, roundTripRows()[:1]...)
	if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
		t.Fatal(err)
	}
	stmts, err := renderer.Step(w)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("short", func(t *testing.T) { check(t, stmts[0], last("MERGE"), 1, short) })

	merges := r.db.Calls(fake.OpMerge)
	w = write(tbl, engine.Upsert, roundTripRows()...)
	if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
		t.Fatal(err)
	}
	if n := r.db.Calls(fake.OpMerge) - merges; n != 2 || r.db.Calls(fake.OpUpdate) != 1 {
		t.Fatalf("%d MERGE and %d UPDATE executes, want 2 and 1", n, r.db.Calls(fake.OpUpdate))
	}
	long := []string{"BODY", "BODY_N", "ATTRS", "TAGS"} // row 2's long values
	split, err := renderer.SplitUpsert(w, long)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("long rows: the MERGE", func(t *testing.T) {
		check(t, split[0], last("MERGE"), 1, short)
		for _, bd := range split[0].Binds {
			if contains(long, bd.Column) {
				t.Errorf("the MERGE binds long column %s", bd.Column)
			}
		}
	})
	t.Run("long rows: the UPDATE", func(t *testing.T) {
		check(t, split[1], last("UPDATE"), 1, map[string]string{
			"BODY": "[]sql.NullString", "BODY_N": "[]go_ora.NClob", "ATTRS": "[]go_ora.Clob", "TAGS": "[]sql.NullString", "ID": "[]sql.NullString"})
		if st := r.db.LOBs(); st.TempLOBs != 2 || st.LongBinds != 2 {
			t.Errorf("%+v, want 2 temporary LOBs (BODY_N, ATTRS) and 2 LONG binds (BODY, TAGS)", st)
		}
	})
}

// TestLongValuesNeedLOBBinds: a value longer than the VARCHAR bind limit
// travels as a LONG bind in the split upsert's UPDATE; with EXTENDED
// strings (32767) a 5000-byte value travels as VARCHAR in the MERGE.
func TestLongValuesNeedLOBBinds(t *testing.T) {
	for _, limit := range []int{4000, 32767} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			r := newRig(t, oracle.Options{MaxStringBytes: limit}, oraclesql.Options{})
			tbl := allTypes()
			s := session(t, r, tbl)
			w := write(tbl, engine.Upsert, map[string]string{"ID": "1", "BODY": strings.Repeat("b", 5000)})
			if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
				t.Fatal(err)
			}
			if got := r.db.Rows("DRY_RUN.ALL_TYPES")[0]["BODY"]; len(got) != 5000 {
				t.Errorf("BODY stored with %d bytes", len(got))
			}
			st := r.db.LOBs()
			wantLong, wantUpdates := 0, 0
			if limit == 4000 {
				wantLong, wantUpdates = 1, 1
			}
			if st.LongBinds != wantLong || st.TempLOBs != 0 || r.db.Calls(fake.OpUpdate) != wantUpdates {
				t.Errorf("limit %d: %+v and %d UPDATE executes, want %d LONG binds, no temporary LOB", limit, st, r.db.Calls(fake.OpUpdate), wantLong)
			}
		})
	}
}

// TestArrayChunks: a batch is executed in array executes of at most
// MaxArrayRows rows, never more than 65,535.
func TestArrayChunks(t *testing.T) {
	const rows = 65535 + 2
	for _, c := range []struct {
		max  int
		want []int
	}{
		{0, []int{10000, 10000, 10000, 10000, 10000, 10000, 5537}},
		{65535, []int{65535, 2}},
		{1 << 20, []int{65535, 2}},
	} {
		t.Run(fmt.Sprint(c.max), func(t *testing.T) {
			r := newRig(t, oracle.Options{MaxArrayRows: c.max}, oraclesql.Options{})
			tbl := &table.Table{Schema: schemaName, Name: "CHUNKS", Columns: []table.Column{
				prop("ID", integer, true), prop("V", table.Type{Kind: table.KindVarchar, Length: 10}, true)}}
			s := session(t, r, tbl)
			w := &engine.Write{Table: tbl, Method: engine.Insert, Columns: []string{"ID", "V"}}
			for i := 0; i < rows; i++ {
				w.Rows = append(w.Rows, engine.Row{Line: int64(i + 1), Values: []string{fmt.Sprint(i), "v"}})
			}
			res, err := s.Load(context.Background(), []engine.Step{w})
			if err != nil {
				t.Fatal(err)
			}
			if res.Inserted != rows || !res.Known {
				t.Errorf("result %+v, want %d inserted", res, rows)
			}
			if got := r.db.Calls(fake.OpInsert); got != len(c.want) {
				t.Fatalf("%d executes, want %d", got, len(c.want))
			}
			calls := r.db.Args("INSERT")
			for i, n := range c.want {
				if got := len(calls[i][0].([]sql.NullString)); got != n {
					t.Errorf("execute %d has %d rows, want %d", i, got, n)
				}
			}
			if got := len(r.db.Rows("DRY_RUN.CHUNKS")); got != rows {
				t.Errorf("%d rows stored, want %d", got, rows)
			}
		})
	}
}

// narrow is a table whose V holds 3 characters and may not be NULL.
func narrow() *table.Table {
	return &table.Table{Schema: schemaName, Name: "NARROW", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false), prop("V", table.Type{Kind: table.KindVarchar, Length: 3, CharSemantics: true}, false)}}
}

func narrowWrite(n int, bad map[int]string) *engine.Write {
	w := &engine.Write{Table: narrow(), Method: engine.Upsert, Columns: []string{"ID", "V"}, KeyColumns: []string{"ID"}}
	for i := 0; i < n; i++ {
		v := "ok"
		if b, ok := bad[i]; ok {
			v = b
		}
		w.Rows = append(w.Rows, engine.Row{Line: int64(100 + i), Values: []string{fmt.Sprint(i), v}})
	}
	return w
}

// TestBisectFindsTheFailingLine: a row error in a large array execute is
// narrowed down to the first failing record's line, at a logarithmic
// cost, and nothing is committed.
func TestBisectFindsTheFailingLine(t *testing.T) {
	for _, c := range []struct {
		name     string
		max      int
		bad      map[int]string
		wantLine int64
		wantCode int
	}{
		{"too long", 0, map[int]string{737: "toolong", 900: "also too long"}, 837, 12899},
		{"null", 0, map[int]string{3: ""}, 103, 1400},
		{"first row", 0, map[int]string{0: "long!"}, 100, 12899},
		{"last row", 0, map[int]string{999: "long!"}, 1099, 12899},
		{"in a later chunk", 100, map[int]string{737: "toolong"}, 837, 12899},
		{"chunks of one", 1, map[int]string{5: "toolong"}, 105, 12899},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, oracle.Options{MaxArrayRows: c.max}, oraclesql.Options{})
			s := session(t, r, narrow())
			_, err := s.Load(context.Background(), []engine.Step{narrowWrite(1000, c.bad)})
			var oe *oracle.Error
			if !errors.As(err, &oe) {
				t.Fatalf("err = %v, want *oracle.Error", err)
			}
			if oe.Line != c.wantLine || oe.Code != c.wantCode || oe.Table != "DRY_RUN.NARROW" {
				t.Errorf("error %+v (%v), want line %d ORA-%05d", oe, err, c.wantLine, c.wantCode)
			}
			msg := err.Error()
			if !strings.Contains(msg, fmt.Sprintf("line %d", c.wantLine)) || !strings.Contains(msg, fmt.Sprintf("ORA-%05d", c.wantCode)) {
				t.Errorf("message %q lacks the line or the code", msg)
			}
			if n := r.db.Calls(fake.OpMerge); c.max == 0 && n > 1+2*10+1 {
				t.Errorf("%d MERGE executes: bisecting 1000 rows should take about 10 probes", n)
			}
			if n := len(r.db.Rows("DRY_RUN.NARROW")); n != 0 {
				t.Errorf("%d rows committed by a failed batch", n)
			}
		})
	}
}

// TestBisectWithoutARowError: an error that no row causes on its own
// (here an injected one) is reported without a line, after a bounded
// number of probes.
func TestBisectWithoutARowError(t *testing.T) {
	r := newRig(t, oracle.Options{MaxBisectProbes: 5}, oraclesql.Options{})
	s := session(t, r, narrow())
	r.db.Inject(fake.Fault{Op: fake.OpMerge, Code: 1031})
	_, err := s.Load(context.Background(), []engine.Step{narrowWrite(1000, nil)})
	var oe *oracle.Error
	if !errors.As(err, &oe) || oe.Line != 0 || oe.Code != 1031 {
		t.Fatalf("err = %v, want ORA-01031 without a line", err)
	}
	if n := r.db.Calls(fake.OpMerge); n > 1+5 {
		t.Errorf("%d MERGE executes, want at most 6", n)
	}
}

// TestDescribeMapsEveryType: a table created from a shape is described as
// the same shape (types compare equal, so reconciling asks for nothing).
func TestDescribeMapsEveryType(t *testing.T) {
	r := defaultRig(t)
	want := allTypes()
	session(t, r, want)
	got, err := r.eng.Describe(context.Background(), schemaName, "ALL_TYPES")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.PrimaryKey, want.PrimaryKey) || len(got.Columns) != len(want.Columns) {
		t.Fatalf("described %+v", got)
	}
	for i, c := range want.Columns {
		g := got.Columns[i]
		if g.Name != c.Name || g.Type != c.Type || g.Nullable != c.Nullable || g.Role != c.Role || !reflect.DeepEqual(g.Source, c.Source) {
			t.Errorf("column %d described as %+v, created as %+v", i, g, c)
		}
	}
	if next, changes, err := table.Reconcile(got, want, nil, table.PolicyFail, table.Options{}); err != nil || len(changes) != 0 || next == nil {
		t.Errorf("reconciling the described table asks for %v (%v)", changes, err)
	}
	missing, err := r.eng.Describe(context.Background(), schemaName, "NO_SUCH_TABLE")
	if err != nil || missing != nil {
		t.Errorf("missing table described as %v, %v", missing, err)
	}
}

// TestDDLIsIdempotent: a CREATE TABLE that finds the table (a concurrent
// run) succeeds when the shape is there and fails naming the column when
// it is not.
func TestDDLIsIdempotent(t *testing.T) {
	r := defaultRig(t)
	tbl := allTypes()
	s := session(t, r, tbl)
	if err := s.Apply(context.Background(), createChange(t, tbl, "ALL_TYPES")); err != nil {
		t.Fatalf("second CREATE TABLE: %v", err)
	}
	other := allTypes()
	other.Name = "OTHER"
	other.Columns = other.Columns[:3]
	if err := s.Apply(context.Background(), createChange(t, other, "OTHER")); err != nil {
		t.Fatal(err)
	}
	err := s.Apply(context.Background(), createChange(t, allTypes(), "OTHER"))
	if err == nil || !strings.Contains(err.Error(), `without column "PAID"`) {
		t.Fatalf("err = %v, want the missing column named", err)
	}
}

// TestDDLResumesAfterALostConnection: after a lost connection the DDL
// continues with the failed statement on a fresh session.
func TestDDLResumesAfterALostConnection(t *testing.T) {
	r := defaultRig(t)
	s := session(t, r)
	r.db.Inject(fake.Fault{Op: fake.OpDDL, Nth: 3})
	tbl := allTypes()
	if err := s.Apply(context.Background(), createChange(t, tbl, "ALL_TYPES")); err != nil {
		t.Fatal(err)
	}
	// CREATE TABLE and one COMMENT per column, the third sent twice.
	if got, want := r.db.Calls(fake.OpDDL), 1+len(tbl.Columns)+1; got != want {
		t.Errorf("%d DDL calls, want %d", got, want)
	}
	if got := r.db.Calls(fake.OpDial); got != 2 {
		t.Errorf("%d dials, want 2", got)
	}
}

// migrateChange is the change that makes C of table M text.
func migrateChange(from, to table.Type) engine.Change {
	next := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false), prop("C", to, true)}}
	return engine.Change{Table: next, Change: table.Change{Kind: table.Migrate, Column: "C", From: from, To: to}}
}

func migrationTable(t testing.TB, r *rig, rows int) engine.Session {
	t.Helper()
	tbl := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false), prop("C", integer, true)}}
	s := session(t, r, tbl)
	w := &engine.Write{Table: tbl, Method: engine.Upsert, Columns: []string{"ID", "C"}, KeyColumns: []string{"ID"}}
	for i := 1; i <= rows; i++ {
		w.Rows = append(w.Rows, engine.Row{Line: int64(i), Values: []string{fmt.Sprint(i), fmt.Sprint(i * 10)}})
	}
	if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
		t.Fatal(err)
	}
	return s
}

var text40 = table.Type{Kind: table.KindVarchar, Length: 40, CharSemantics: true}

func wantMigrated(t *testing.T, r *rig, rows int) {
	t.Helper()
	got, err := r.eng.Describe(context.Background(), schemaName, "M")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Columns) != 2 || got.Columns[1].Name != "C" || got.Columns[1].Type != text40 {
		t.Fatalf("table after the migration: %+v", got.Columns)
	}
	data := r.db.Rows("DRY_RUN.M")
	if len(data) != rows {
		t.Fatalf("%d rows, want %d", len(data), rows)
	}
	for i, row := range data {
		if row["C"] != fmt.Sprint((i+1)*10) {
			t.Errorf("row %d: C = %q", i, row["C"])
		}
	}
}

// TestMigrationInChunks: the copy runs in chunks, each committed, until
// one copies nothing.
func TestMigrationInChunks(t *testing.T) {
	r := newRig(t, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
	s := migrationTable(t, r, 10)
	commits := r.db.Calls(fake.OpCommit)
	if err := s.Apply(context.Background(), migrateChange(integer, text40)); err != nil {
		t.Fatal(err)
	}
	if got := r.db.Calls(fake.OpUpdate); got != 7 {
		t.Errorf("%d UPDATEs, want 7: chunks of 3+3+3+1+0, then the two catch-ups from the renamed old column", got)
	}
	if got := r.db.Calls(fake.OpCommit) - commits; got != 5 {
		t.Errorf("%d commits, want one per chunk", got)
	}
	wantMigrated(t, r, 10)
}

// TestKilledMigrationIsFinished: a migration killed after the old column
// was dropped is finished by the next Describe; so is one killed during
// the copy (the copy goes on where it stopped), before anything can write
// beside the half-filled marker.
func TestKilledMigrationIsFinished(t *testing.T) {
	t.Run("after SET UNUSED", func(t *testing.T) {
		r := defaultRig(t)
		s := migrationTable(t, r, 7)
		r.db.Inject(fake.Fault{Op: fake.OpDDL, Nth: 5, Code: 1031}) // ADD, COMMENT, RENAME away, SET UNUSED, RENAME
		if err := s.Apply(context.Background(), migrateChange(integer, text40)); err == nil {
			t.Fatal("the migration did not fail")
		}
		if cols := r.db.Columns("DRY_RUN.M"); len(cols) != 2 || !strings.HasPrefix(cols[1], "C$M ") {
			t.Fatalf("columns after the kill: %v", cols)
		}
		fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{})
		wantMigrated(t, &rig{db: r.db, eng: fresh}, 7)
	})
	t.Run("during the copy", func(t *testing.T) {
		r := newRig(t, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
		s := migrationTable(t, r, 7)
		r.db.Inject(fake.Fault{Op: fake.OpUpdate, Nth: 2, Code: 1031}) // after the first chunk
		ch := migrateChange(integer, text40)
		if err := s.Apply(context.Background(), ch); err == nil {
			t.Fatal("the migration did not fail")
		}
		if cols := r.db.Columns("DRY_RUN.M"); len(cols) != 3 {
			t.Fatalf("columns after the kill: %v", cols)
		}
		fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
		wantMigrated(t, &rig{db: r.db, eng: fresh}, 7)
		if err := s.Apply(context.Background(), ch); err != nil {
			t.Fatalf("re-run of the finished migration: %v", err)
		}
		wantMigrated(t, r, 7)
	})
}

// TestStoppedMigrationWithAWriterSinceIsRefused: a migration stopped
// during its copy, after which another writer changed a row already
// copied, cannot be told from a user's column commented like a marker
// (its values differ from the column's converted): the next run refuses
// before any change, the writer's value kept, and says how to start the
// copy over.
func TestStoppedMigrationWithAWriterSinceIsRefused(t *testing.T) {
	r := newRig(t, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
	s := migrationTable(t, r, 7)
	r.db.Inject(fake.Fault{Op: fake.OpUpdate, Nth: 2, Code: 1031}) // after the first chunk
	if err := s.Apply(context.Background(), migrateChange(integer, text40)); err == nil {
		t.Fatal("the migration did not fail")
	}
	old := &table.Table{Schema: schemaName, Name: "M", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false), prop("C", integer, true)}}
	w := &engine.Write{Table: old, Method: engine.Upsert, Columns: []string{"ID", "C"}, KeyColumns: []string{"ID"},
		Rows: []engine.Row{{Line: 1, Values: []string{"1", "111"}}}}
	if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
		t.Fatalf("the other writer: %v", err)
	}
	fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
	_, err := fresh.Describe(context.Background(), schemaName, "M")
	if err == nil || !strings.Contains(err.Error(), `set it to NULL in every row (UPDATE … SET "C$M" = NULL)`) {
		t.Fatalf("Describe: %v, want the refusal with how to start the copy over", err)
	}
	for _, row := range r.db.Rows("DRY_RUN.M") {
		if row["ID"] == "1" && row["C"] != "111" {
			t.Errorf("row 1: C = %q, want the writer's 111", row["C"])
		}
	}
}

// TestMigrationKilledAtEveryStep: a migration killed at any of its
// statements (each DDL, each UPDATE: the copy's chunks and the catch-up)
// is finished by the next engine's Describe, every value converted, NOT
// NULL and the key as before; the statement failing is either not run
// (the kill came before it) or run (the kill came after it, before its
// reply).
func TestMigrationKilledAtEveryStep(t *testing.T) {
	for _, op := range []fake.Op{fake.OpDDL, fake.OpUpdate} {
		done := false
		for nth := 1; !done && nth < 40; nth++ {
			for _, applied := range []bool{false, true} {
				r := newRig(t, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
				s := migrationTable(t, r, 7)
				before := r.db.Calls(op)
				r.db.Inject(fake.Fault{Op: op, Nth: nth, Code: 1031, Applied: applied})
				if err := s.Apply(context.Background(), migrateChange(integer, text40)); err == nil {
					if r.db.Calls(op)-before >= nth {
						t.Fatalf("%v %d (applied %v): the fault did not fail the migration", op, nth, applied)
					}
					wantMigrated(t, r, 7) // past the migration's last statement of this kind
					done = true
					break
				}
				fresh := newEngine(t, r.db, oracle.Options{}, oraclesql.Options{MigrationChunkRows: 3})
				if op == fake.OpDDL && nth == 1 && !applied {
					// Killed before its ADD: nothing to finish; the
					// next run migrates as the first would have.
					got, err := fresh.Describe(context.Background(), schemaName, "M")
					if err != nil || len(got.Columns) != 2 || got.Columns[1].Type != integer {
						t.Fatalf("killed before the ADD: %+v, %v", got, err)
					}
					continue
				}
				wantMigrated(t, &rig{db: r.db, eng: fresh}, 7)
			}
		}
		if !done {
			t.Fatalf("%v: every call failed the migration", op)
		}
	}
}

// TestSessionSetup: each session runs the setup block once, named after
// its worker, with the DDL lock timeout.
func TestSessionSetup(t *testing.T) {
	r := newRig(t, oracle.Options{DDLLockTimeoutSeconds: 7}, oraclesql.Options{})
	s, err := r.eng.Session(context.Background(), "stream-a")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := r.eng.Describe(context.Background(), schemaName, "X"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.db.Actions(), ","); got != "stream-a,catalog" {
		t.Errorf("actions %s", got)
	}
	for _, sql := range r.db.Setups() {
		for _, want := range []string{"TIME_ZONE = ''+00:00''", "NLS_NUMERIC_CHARACTERS", "DDL_LOCK_TIMEOUT = 7"} {
			if !strings.Contains(sql, want) {
				t.Errorf("setup lacks %s:\n%s", want, sql)
			}
		}
	}
}

// TestStatementTimeout: statements run under the statement timeout, and a
// timeout is not retried.
func TestStatementTimeout(t *testing.T) {
	r := newRig(t, oracle.Options{StatementTimeout: time.Nanosecond}, oraclesql.Options{})
	_, err := r.eng.Session(context.Background(), "s")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a deadline", err)
	}
	if got := r.db.Calls(fake.OpDial); got != 1 {
		t.Errorf("%d dials, want 1 (no retry)", got)
	}
}

func TestErrorMessage(t *testing.T) {
	for _, c := range []struct {
		err  oracle.Error
		want string
	}{
		{oracle.Error{Table: "S.T", Line: 12, Code: 12899, Err: errors.New("value too large")}, "S.T: line 12: ORA-12899: value too large"},
		{oracle.Error{Table: "S.T", Code: 1, Err: errors.New("ORA-00001: unique")}, "S.T: ORA-00001: unique"},
		{oracle.Error{Table: "S.T", Err: io.EOF}, "S.T: EOF"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestNothingOnStdout: a whole run (with retries and a row error) prints
// nothing to stdout, which belongs to STATE lines.
func TestNothingOnStdout(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = pw
	func() {
		defer func() { os.Stdout = saved }()
		r := defaultRig(t)
		r.db.Inject(fake.Fault{Op: fake.OpMerge, Nth: 2, Code: 3113})
		if _, err := run(t, r.eng, upsertSettings, faultInput()); err != nil {
			t.Errorf("run: %v", err)
		}
		s := session(t, r, narrow())
		if _, err := s.Load(context.Background(), []engine.Step{narrowWrite(50, map[int]string{7: "toolong"})}); err == nil {
			t.Error("bad row loaded")
		}
		r.eng.Close()
	}()
	pw.Close()
	out, _ := io.ReadAll(pr)
	if len(out) != 0 {
		t.Errorf("printed to stdout: %q", out)
	}
}
