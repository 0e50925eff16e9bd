package oracle_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
)

// fakeRig is a rig whose fake server has the given options; the engine
// gets o with the same VARCHAR limit.
func fakeRig(t testing.TB, fo fake.Options, o oracle.Options) *rig {
	t.Helper()
	fo.Schema, fo.Now, fo.MaxStringBytes = schemaName, clock, o.MaxStringBytes
	db := fake.New(fo)
	return &rig{db: db, eng: newEngine(t, db, o, oraclesql.Options{})}
}

// rowsOf is n rows of one map each.
func rowsOf(n int, row func(i int) map[string]string) []map[string]string {
	out := make([]map[string]string, n)
	for i := range out {
		out[i] = row(i)
	}
	return out
}

// load writes rows with method and checks that the table then holds
// exactly them.
func loadAndCheck(t *testing.T, r *rig, tbl *table.Table, method engine.Method, rows []map[string]string) {
	t.Helper()
	s := session(t, r, tbl)
	if _, err := s.Load(context.Background(), []engine.Step{write(tbl, method, rows...)}); err != nil {
		t.Fatal(err)
	}
	checkRows(t, r, tbl, rows)
}

func checkRows(t *testing.T, r *rig, tbl *table.Table, rows []map[string]string) {
	t.Helper()
	got := r.db.Rows(tbl.QualifiedName())
	if len(got) != len(rows) {
		t.Fatalf("%d rows stored, want %d", len(got), len(rows))
	}
	for i, want := range rows {
		for _, c := range tbl.Columns {
			if c.Name == "_SDC_LOADED_AT" {
				continue
			}
			if got[i][c.Name] != want[c.Name] {
				t.Errorf("row %d column %s: stored %.40q (%d bytes), wrote %.40q (%d bytes)", i, c.Name, got[i][c.Name], len(got[i][c.Name]), want[c.Name], len(want[c.Name]))
			}
		}
	}
}

func national() *table.Table {
	return &table.Table{Schema: schemaName, Name: "NATIONAL", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("NV", table.Type{Kind: table.KindVarchar, Length: 2000, CharSemantics: true, National: true}, true),
		prop("NC", table.Type{Kind: table.KindClob, National: true}, true),
	}}
}

// TestNationalBindsAreSizedOnTheWire (risk 1): go-ora sends national text
// in UTF-16 and turns a string into a LONG bind by its UTF-8 length, so a
// national value travels as VARCHAR only when both fit: 2,001 ASCII
// characters (4,002 bytes in UTF-16) and 1,500 CJK characters (4,500 in
// UTF-8) are bound otherwise, and land exactly.
func TestNationalBindsAreSizedOnTheWire(t *testing.T) {
	values := map[string]string{
		"2000 ASCII (4000 in UTF-16)":        strings.Repeat("a", 2000),
		"2001 ASCII (4002 in UTF-16)":        strings.Repeat("a", 2001),
		"1500 CJK (4500 in UTF-8)":           strings.Repeat("中", 1500),
		"1000 emoji (4000 in both)":          strings.Repeat("😀", 1000),
		"1334 CJK (2668 UTF-16, 4002 UTF-8)": strings.Repeat("中", 1334),
	}
	for _, method := range []engine.Method{engine.Upsert, engine.Insert} {
		for name, v := range values {
			t.Run(fmt.Sprint(method, "/", name), func(t *testing.T) {
				r := fakeRig(t, fake.Options{}, oracle.Options{})
				nv := v
				if len([]rune(v)) > 2000 {
					nv = "" // NVARCHAR2(2000 CHAR) holds 2000 characters
				}
				loadAndCheck(t, r, national(), method, []map[string]string{
					{"ID": "1", "NV": nv, "NC": v},
					{"ID": "2", "NV": "x", "NC": "short"},
				})
			})
		}
	}
}

// TestNationalArraysKeepTheirForm (risk 2): a chunk whose last row has a
// NULL national value is still declared in the national character set
// (the fake refuses the []go_ora.NullNVarChar go-ora would declare with
// charset form 0).
func TestNationalArraysKeepTheirForm(t *testing.T) {
	for _, method := range []engine.Method{engine.Upsert, engine.Insert} {
		t.Run(fmt.Sprint(method), func(t *testing.T) {
			r := fakeRig(t, fake.Options{}, oracle.Options{})
			loadAndCheck(t, r, national(), method, rowsOf(10, func(i int) map[string]string {
				row := map[string]string{"ID": fmt.Sprint(i + 1), "NV": "ñandú", "NC": "日本語"}
				if i%5 == 4 {
					row["NV"], row["NC"] = "", "" // rows 5 and 10, the last, are NULL
				}
				return row
			}))
		})
	}
}

// TestScalarNationalBind (risk 3): the soft version cleanup of a table
// whose deleted-at column is NVARCHAR2 binds the time as a national
// scalar, which must pass database/sql's conversion over go-ora's
// CheckNamedValue (the fake applies both).
func TestScalarNationalBind(t *testing.T) {
	r := fakeRig(t, fake.Options{}, oracle.Options{})
	nv := table.Type{Kind: table.KindVarchar, Length: 40, CharSemantics: true, National: true}
	tbl := &table.Table{Schema: schemaName, Name: "SOFT", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false), meta("_SDC_TABLE_VERSION", integer), meta("_SDC_DELETED_AT", nv),
	}}
	s := session(t, r, tbl)
	for _, v := range []string{"1", "2"} {
		ins := oraclesql.Statement{SQL: `INSERT INTO "DRY_RUN"."SOFT" ("ID", "_SDC_TABLE_VERSION") VALUES (TO_NUMBER(:1), TO_NUMBER(:2))`,
			Kind: oraclesql.KindDML, Binds: make([]oraclesql.Bind, 2)}
		if _, err := r.db.Exec(ins, v, v); err != nil {
			t.Fatal(err)
		}
	}
	dv := &engine.DeleteVersions{Table: tbl, Version: "2", At: "2024-05-06T07:08:09Z",
		VersionColumn: "_SDC_TABLE_VERSION", DeletedColumn: "_SDC_DELETED_AT"}
	res, err := s.Load(context.Background(), []engine.Step{dv})
	if err != nil {
		t.Fatal(err)
	}
	if res.Updated != 1 {
		t.Errorf("%d rows soft-deleted, want 1", res.Updated)
	}
	if got := r.db.Rows(tbl.QualifiedName()); got[0]["_SDC_DELETED_AT"] != "2024-05-06T07:08:09Z" || got[1]["_SDC_DELETED_AT"] != "" {
		t.Errorf("rows %v", got)
	}
}

// lobTable has a LOB column of every kind and a plain VARCHAR2.
func lobTable() *table.Table {
	return &table.Table{Schema: schemaName, Name: "LOBS", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("V", table.Type{Kind: table.KindVarchar, Length: 100}, true),
		prop("EMPTY_LOB", table.Type{Kind: table.KindClob}, true),
		prop("BODY", table.Type{Kind: table.KindClob}, true),
		prop("DOC", table.Type{Kind: table.KindJSON, JSONAsClob: true}, true),
		prop("ATTRS", table.Type{Kind: table.KindJSON}, true),
		prop("BODY_N", table.Type{Kind: table.KindClob, National: true}, true),
	}}
}

// lobRows is n rows of lobTable where every tenth row has long values in
// long (a subset of BODY, DOC, ATTRS, BODY_N) and the others short ones;
// EMPTY_LOB is always NULL. limit is the VARCHAR bind limit.
func lobRows(n, limit int, long ...string) []map[string]string {
	return rowsOf(n, func(i int) map[string]string {
		row := map[string]string{"ID": fmt.Sprint(i + 1), "V": "v", "BODY": "short body", "DOC": `{"a":1}`,
			"ATTRS": `{"b":2}`, "BODY_N": "ñ"}
		if i%10 == 9 {
			for _, c := range long {
				switch c {
				case "BODY":
					row[c] = strings.Repeat("b", limit+1)
				case "DOC", "ATTRS":
					row[c] = `{"k":"` + strings.Repeat("d", limit) + `"}`
				case "BODY_N":
					row[c] = strings.Repeat("ü", limit/2+1)
				}
			}
		}
		return row
	})
}

// TestLongValuesNeverTravelAsTemporaryLOBs (risk 5): a value that fits a
// VARCHAR bind is never a temporary LOB, nor one that fits a LONG bind:
// an all-NULL LOB column, or an earlier LOB bind, no longer turns the
// chunk's other LOB columns into temporary LOBs; long CLOB values of an
// INSERT, and of an upsert (the split upsert: a MERGE without them, then
// an UPDATE with LONG binds), travel as LONG binds. Only national and
// native JSON long values take temporary LOBs. The executes per batch do
// not grow with its rows.
func TestLongValuesNeverTravelAsTemporaryLOBs(t *testing.T) {
	const limit = 100 // a small VARCHAR limit keeps the values small
	for _, c := range []struct {
		name     string
		long     []string
		tempLOBs func(longRows int) int
	}{
		{"no long values", nil, func(int) int { return 0 }},
		{"long CLOB", []string{"BODY"}, func(int) int { return 0 }},
		{"long CLOB and JSON CLOB", []string{"BODY", "DOC"}, func(int) int { return 0 }},
		{"long national and native JSON", []string{"ATTRS", "BODY_N"}, func(n int) int { return 2 * n }},
		{"every kind long", []string{"BODY", "DOC", "ATTRS", "BODY_N"}, func(n int) int { return 2 * n }},
	} {
		for _, method := range []engine.Method{engine.Upsert, engine.Insert} {
			t.Run(fmt.Sprint(c.name, "/", method), func(t *testing.T) {
				executes := map[int]int{}
				for _, n := range []int{100, 1000} {
					r := fakeRig(t, fake.Options{}, oracle.Options{MaxStringBytes: limit})
					rows := lobRows(n, limit, c.long...)
					loadAndCheck(t, r, lobTable(), method, rows)
					st := r.db.LOBs()
					if want := c.tempLOBs(n / 10); st.TempLOBs != want {
						t.Errorf("%d rows: %d temporary LOBs, want %d (%+v)", n, st.TempLOBs, want, st)
					}
					executes[n] = r.db.Calls(fake.OpInsert) + r.db.Calls(fake.OpMerge) + r.db.Calls(fake.OpUpdate)
				}
				if executes[100] != executes[1000] {
					t.Errorf("executes grow with the rows: %v", executes)
				}
				if want := 1; c.long != nil {
					want = 2 // the short rows, then the long rows
					if method == engine.Upsert {
						want = 3 // the long rows' MERGE and UPDATE
					}
					if executes[100] != want {
						t.Errorf("%d executes per batch, want %d", executes[100], want)
					}
				}
			})
		}
	}
}

// TestSplitUpsertReplacesRows: the split upsert gives a row what one
// MERGE would: a long value replaces a short one and the reverse, and a
// record's other columns update with it.
func TestSplitUpsertReplacesRows(t *testing.T) {
	const limit = 100
	r := fakeRig(t, fake.Options{}, oracle.Options{MaxStringBytes: limit})
	tbl := lobTable()
	s := session(t, r, tbl)
	long := strings.Repeat("L", limit+1)
	batches := [][]map[string]string{
		{{"ID": "1", "V": "a", "BODY": long}, {"ID": "2", "V": "b", "BODY": "short"}, {"ID": "3", "BODY_N": strings.Repeat("ñ", limit)}},
		{{"ID": "1", "V": "a2", "BODY": "now short"}, {"ID": "2", "V": "b2", "BODY": long + "2"}, {"ID": "3", "V": "c"}},
	}
	for i, rows := range batches {
		res, err := s.Load(context.Background(), []engine.Step{write(tbl, engine.Upsert, rows...)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Written != 3 {
			t.Errorf("batch %d: %d written, want 3 (the split UPDATE is not counted again)", i, res.Written)
		}
		checkRows(t, r, tbl, rows)
	}
}

// TestTemporaryLOBsPerExecuteAreCapped (risk 5): the temporary LOBs of
// one execute stay at DefaultMaxTempLOBs, far below the 50,000 past which
// go-ora v2.9.0 leaks them.
func TestTemporaryLOBsPerExecuteAreCapped(t *testing.T) {
	const limit, rows = 100, 6000
	r := fakeRig(t, fake.Options{}, oracle.Options{MaxStringBytes: limit})
	tbl := lobTable()
	all := rowsOf(rows, func(i int) map[string]string {
		return map[string]string{"ID": fmt.Sprint(i + 1), "ATTRS": `{"k":"` + strings.Repeat("d", limit) + `"}`, "BODY_N": strings.Repeat("ü", limit)}
	})
	loadAndCheck(t, r, tbl, engine.Insert, all)
	st := r.db.LOBs()
	if st.TempLOBs != 2*rows || st.MaxPerExecute > oracle.DefaultMaxTempLOBs {
		t.Errorf("%+v: want %d temporary LOBs, at most %d per execute", st, 2*rows, oracle.DefaultMaxTempLOBs)
	}
}

// TestNonUnicodeDatabase (risk 6): with a WE8MSWIN1252 database, text it
// holds lands exactly, JSON travels as ASCII escapes (the same JSON), a
// column comment keeps its property path, and text it cannot hold fails
// the batch naming the line and column instead of landing as "ý".
func TestNonUnicodeDatabase(t *testing.T) {
	newRig := func(t *testing.T) *rig {
		return fakeRig(t, fake.Options{Charset: "WE8MSWIN1252"}, oracle.Options{Charset: "WE8MSWIN1252"})
	}
	tbl := &table.Table{Schema: schemaName, Name: "WIN", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("V", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, true),
		prop("DOC", table.Type{Kind: table.KindJSON, JSONAsClob: true}, true),
		prop("ATTRS", table.Type{Kind: table.KindJSON}, true),
		prop("NV", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true, National: true}, true),
	}}
	tbl.Columns[1].Source = []string{"größe", "中"}

	t.Run("what it holds", func(t *testing.T) {
		r := newRig(t)
		loadAndCheck(t, r, tbl, engine.Upsert, []map[string]string{{"ID": "1", "V": "€ü café", "NV": "中文 😀"}})
		got, err := r.eng.Describe(context.Background(), schemaName, "WIN")
		if err != nil {
			t.Fatal(err)
		}
		if src := got.Column("V").Source; fmt.Sprint(src) != "[größe 中]" {
			t.Errorf("column comment path read back as %q, want [größe 中]", src)
		}
	})
	t.Run("JSON as ASCII", func(t *testing.T) {
		r := newRig(t)
		doc := `{"名":"😀 ü","n":1}`
		s := session(t, r, tbl)
		if _, err := s.Load(context.Background(), []engine.Step{write(tbl, engine.Insert, map[string]string{"ID": "1", "DOC": doc, "ATTRS": doc, "NV": "x"})}); err != nil {
			t.Fatal(err)
		}
		row := r.db.Rows(tbl.QualifiedName())[0]
		for _, c := range []string{"DOC", "ATTRS"} {
			var got, want any
			if err := json.Unmarshal([]byte(row[c]), &got); err != nil {
				t.Fatalf("%s: %v", c, err)
			}
			_ = json.Unmarshal([]byte(doc), &want)
			if fmt.Sprint(got) != fmt.Sprint(want) || strings.ContainsRune(row[c], 'ý') {
				t.Errorf("%s stored %q, want the JSON %s", c, row[c], doc)
			}
		}
	})
	t.Run("JSON measured as sent", func(t *testing.T) {
		// 2,109 bytes in UTF-8, 4,209 as ASCII escapes: too long for a
		// VARCHAR bind once escaped.
		r := newRig(t)
		doc := `{"k":"` + strings.Repeat("中", 700) + `"}`
		s := session(t, r, tbl)
		if _, err := s.Load(context.Background(), []engine.Step{write(tbl, engine.Upsert, map[string]string{"ID": "1", "ATTRS": doc, "NV": "x"})}); err != nil {
			t.Fatal(err)
		}
		var got map[string]string
		if err := json.Unmarshal([]byte(r.db.Rows(tbl.QualifiedName())[0]["ATTRS"]), &got); err != nil || got["k"] != strings.Repeat("中", 700) {
			t.Errorf("ATTRS read back as %.40q (%v)", got["k"], err)
		}
	})
	t.Run("what it cannot hold", func(t *testing.T) {
		r := newRig(t)
		s := session(t, r, tbl)
		_, err := s.Load(context.Background(), []engine.Step{write(tbl, engine.Insert,
			map[string]string{"ID": "1", "V": "fine", "NV": "x"}, map[string]string{"ID": "2", "V": "日本", "NV": "x"})})
		var ce *oracle.CharsetError
		if !errors.As(err, &ce) || ce.Line != 2 || ce.Column != "V" || ce.Char != '日' {
			t.Fatalf("err = %v, want a CharsetError for line 2 column V", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "WE8MSWIN1252") || !strings.Contains(msg, "national_characters") ||
			!strings.Contains(msg, `property "größe.中"`) || !strings.Contains(msg, "line 2") {
			t.Errorf("message %q", msg)
		}
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Line != 2 {
			t.Errorf("not invalid input (exit 3): %v", err)
		}
		if n := len(r.db.Rows(tbl.QualifiedName())); n != 0 {
			t.Errorf("%d rows stored", n)
		}
	})
	t.Run("a session named after a stream it cannot hold", func(t *testing.T) {
		s, err := newRig(t).eng.Session(context.Background(), "日本")
		if err != nil {
			t.Fatalf("MODULE/ACTION refused: %v", err)
		}
		s.Close()
	})
	t.Run("a comment it cannot hold", func(t *testing.T) {
		r := newRig(t)
		bad := tbl.Clone()
		bad.Name = "WIN2"
		bad.Columns[1].Comment = "größe 中"
		s, err := r.eng.Session(context.Background(), "test")
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		err = s.Apply(context.Background(), engine.Change{Table: bad, Change: table.Change{Kind: table.CreateTable}})
		var ce *oracle.CharsetError
		if !errors.As(err, &ce) || ce.Char != '中' {
			t.Errorf("err = %v, want a CharsetError for the comment", err)
		}
	})
}

// TestExpandedBindsAfterALOB (risk 5): with EXTENDED strings a
// 5,000-byte value fits a VARCHAR bind, but not after a temporary LOB in
// the same row (ORA-24816): there it travels as a LOB too, and only
// there.
func TestExpandedBindsAfterALOB(t *testing.T) {
	for _, method := range []engine.Method{engine.Upsert, engine.Insert} {
		t.Run(fmt.Sprint(method), func(t *testing.T) {
			r := fakeRig(t, fake.Options{}, oracle.Options{MaxStringBytes: 32767})
			tbl := lobTable()
			attrs := `{"k":"` + strings.Repeat("d", 33000) + `"}`
			loadAndCheck(t, r, tbl, method, []map[string]string{
				{"ID": "1", "ATTRS": attrs, "BODY_N": strings.Repeat("n", 2500)},
				{"ID": "2", "ATTRS": `{}`, "BODY_N": strings.Repeat("n", 2500)},
			})
			if st := r.db.LOBs(); st.TempLOBs != 2 {
				t.Errorf("%+v, want 2 temporary LOBs (row 1's ATTRS and BODY_N)", st)
			}
		})
	}
}

// TestSplitUpsertFallsBack: a long value of a NOT NULL column cannot
// move to the split upsert's UPDATE (the MERGE would insert NULL): it
// travels in the MERGE as a temporary LOB.
func TestSplitUpsertFallsBack(t *testing.T) {
	const limit = 100
	r := fakeRig(t, fake.Options{}, oracle.Options{MaxStringBytes: limit})
	tbl := lobTable()
	tbl.Columns[3].Nullable = false // BODY
	long := strings.Repeat("L", limit+1)
	loadAndCheck(t, r, tbl, engine.Upsert, []map[string]string{
		{"ID": "1", "BODY": long, "DOC": `{"d":"` + long + `"}`}, {"ID": "2", "BODY": "short"},
	})
	if st := r.db.LOBs(); st.TempLOBs != 2 || st.LongBinds != 0 || r.db.Calls(fake.OpUpdate) != 0 {
		t.Errorf("%+v, %d UPDATE executes: want the long values as 2 temporary LOBs in the MERGE", st, r.db.Calls(fake.OpUpdate))
	}
}
