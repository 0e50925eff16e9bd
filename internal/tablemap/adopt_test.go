package tablemap

import (
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
)

// dbaTable is a table a DBA made: an identity key, columns with defaults,
// a virtual and an invisible column, none of them from a schema.
func dbaTable(idFill table.Fill) *table.Table {
	n := table.Type{Kind: table.KindNumber}
	return &table.Table{Schema: "S", Name: "T", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Fill: idFill},
		{Name: "NAME", Type: tV30b, Nullable: true},
		{Name: "STATUS", Type: tV30b, Fill: table.FillDefault},               // NOT NULL DEFAULT 'new'
		{Name: "CREATED", Type: tV30b, Fill: table.FillDefaultOnNull},        // NOT NULL DEFAULT ON NULL
		{Name: "NOTE", Type: tV30b, Nullable: true, Fill: table.FillDefault}, // nullable DEFAULT
		{Name: "TOTAL", Type: n, Nullable: true, Fill: table.FillVirtual},    // AS (…) VIRTUAL
		{Name: "AUDIT", Type: tV30b, Nullable: true, Hidden: true},           // INVISIBLE
	}}
}

// TestAdoptDatabaseFilledColumns follows SPEC §5.5 on a DBA's table.
func TestAdoptDatabaseFilledColumns(t *testing.T) {
	opts := table.Options{IdentifierUpper: true}
	t.Run("columns the schema does not fill are left to the database", func(t *testing.T) {
		// The stream fills only NAME (and its key id, matched to a BY
		// DEFAULT identity): STATUS, CREATED, NOTE, TOTAL and AUDIT are
		// not bound, not widened and not counted as missing.
		l, err := NewLayout("s", tree(p("id", in), p("name", str)), []string{"id"}, opts, dbaTable(table.FillIdentity))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := columnsOf(l.Table()), "ID NUMBER(38,0) NOT NULL, NAME VARCHAR2(4000 BYTE)"; got != want {
			t.Errorf("columns %s, want %s", got, want)
		}
		next, changes, err := table.Reconcile(dbaTable(table.FillIdentity), l.Table(), nil, table.PolicyWiden, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range changes {
			if c.Column != "NAME" && c.Kind != table.RecordStreams { // the table comment: no column
				t.Errorf("change %v touches a column the database fills", c)
			}
		}
		if len(next.Columns) != 7 {
			t.Errorf("the reconciled table has %d columns, want the 7 it had", len(next.Columns))
		}
	})
	t.Run("a NOT NULL column nothing fills fails at SCHEMA", func(t *testing.T) {
		tb := dbaTable(table.FillIdentity)
		tb.Columns[2].Fill = table.FillNone // STATUS loses its DEFAULT
		_, err := NewLayout("s", tree(p("id", in), p("name", str)), []string{"id"}, opts, tb)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), `"STATUS"`) {
			t.Errorf("err = %v, want an input error naming STATUS", err)
		}
		tb.Columns[2].Hidden = true // invisible does not help when NOT NULL
		if _, err := NewLayout("s", tree(p("id", in), p("name", str)), []string{"id"}, opts, tb); err == nil {
			t.Error("an invisible NOT NULL column without DEFAULT was accepted")
		}
	})
	for _, c := range []struct {
		name  string
		fill  table.Fill
		prop  string // the property matched to the refusing column
		where string // the column
	}{
		{"GENERATED ALWAYS identity", table.FillIdentityAlways, "id", `"ID"`},
		{"virtual column", table.FillVirtual, "total", `"TOTAL"`},
	} {
		t.Run("a property matched to a "+c.name+" fails at SCHEMA", func(t *testing.T) {
			root := tree(p("id", in), p("name", str))
			if c.prop == "total" {
				root = tree(p("id", in), p("total", num))
			}
			tb := dbaTable(table.FillIdentity)
			if c.fill == table.FillIdentityAlways {
				tb = dbaTable(table.FillIdentityAlways)
			}
			_, err := NewLayout("s", root, []string{"id"}, opts, tb)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Property != c.prop || !strings.Contains(err.Error(), c.where) || !strings.Contains(err.Error(), c.name) {
				t.Errorf("err = %v, want an input error naming property %s and column %s", err, c.prop, c.where)
			}
		})
	}
	t.Run("properties matched to DEFAULT and BY DEFAULT identity columns are bound", func(t *testing.T) {
		root := tree(p("id", in), p("status", str), p("created", str), p("note", str))
		l, err := NewLayout("s", root, []string{"id"}, opts, dbaTable(table.FillIdentity))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := columnsOf(l.Table()), "ID NUMBER(38,0) NOT NULL, NAME VARCHAR2(30 BYTE), STATUS VARCHAR2(4000 BYTE) NOT NULL, CREATED VARCHAR2(4000 BYTE) NOT NULL, NOTE VARCHAR2(4000 BYTE)"; got != want {
			t.Errorf("columns %s, want %s", got, want)
		}
		row := make([]string, l.Columns())
		if err := l.Row([]byte(`{"id":1,"status":"open","created":"x","note":"n"}`), nil, row, nil, nil); err != nil {
			t.Fatal(err)
		}
		if strings.Join(row, "|") != "1||open|x|n" {
			t.Errorf("row %q", row)
		}
		// CREATED is DEFAULT ON NULL and NOTE nullable: both may be absent.
		if err := l.Row([]byte(`{"id":2,"status":"open"}`), nil, row, nil, nil); err != nil {
			t.Errorf("a record without the ON NULL and nullable DEFAULT properties: %v", err)
		}
		// STATUS is NOT NULL DEFAULT (not ON NULL): the bound NULL would
		// be refused, so its absence is invalid input.
		err = l.Row([]byte(`{"id":3,"note":"n"}`), nil, row, nil, nil)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Property != "status" || !strings.Contains(err.Error(), `"STATUS"`) {
			t.Errorf("err = %v, want an input error for property status", err)
		}
	})
}

// A key column keeps its type where the schema would widen it (keys never
// widen, SPEC §5.2): from the existing table, or, when the catalog did not
// show it yet, from the run's earlier layout of the table; a SCHEMA that
// asks for more warns, and a key value that does not fit is invalid input.
func TestKeyColumnKeepsItsType(t *testing.T) {
	v10 := table.Type{Kind: table.KindVarchar, Length: 10, CharSemantics: true}
	existing := &table.Table{Schema: "S", Name: "T", PrimaryKey: []string{"ID"}, Columns: []table.Column{{Name: "ID", Type: v10}}}
	prev, err := NewLayout("t", tree(p("id", str, maxLen(10))), []string{"id"}, table.Options{IdentifierUpper: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	adopted, err := NewLayout("t", tree(p("id", str)), []string{"id"}, table.Options{IdentifierUpper: true}, existing)
	if err != nil {
		t.Fatal(err)
	}
	planned, err := NewLayout("t", tree(p("id", str, maxLen(20))), []string{"id"}, table.Options{IdentifierUpper: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	planned.KeepKeyTypes(prev, nil)
	for name, l := range map[string]*Layout{"adopted": adopted, "planned": planned} {
		if got := l.Table().Column("ID").Type; got != v10 {
			t.Errorf("%s: key column %s, want %s", name, got, v10)
		}
		if w := strings.Join(l.Warnings(), "\n"); !strings.Contains(w, `key property "id"`) || !strings.Contains(w, "keys never widen") {
			t.Errorf("%s: warnings %q, want the kept key", name, w)
		}
		row := make([]string, l.Columns())
		if err := l.Row([]byte(`{"id":"0123456789"}`), nil, row, nil, nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		err := l.Row([]byte(`{"id":"0123456789x"}`), nil, row, nil, nil)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Property != "id" || !strings.Contains(err.Error(), "does not fit its column VARCHAR2(10 CHAR)") {
			t.Errorf("%s: err = %v, want invalid input for key id", name, err)
		}
	}
}

// Nor does a change of the key property's kind change its column (keys
// never widen, SPEC §5.2; finding 13's leftover): an adopted NUMBER(38,0)
// key, or a planned one, stays for a string key property, with a warning
// naming the stream, the property, the column and both types; a key
// value is converted into the column's kind and must keep its text.
func TestKeyColumnKeepsItsKind(t *testing.T) {
	existing := &table.Table{Schema: "S", Name: "T", PrimaryKey: []string{"ID"}, Columns: []table.Column{{Name: "ID", Type: table.IntegerType()}}}
	o := table.Options{IdentifierUpper: true}
	prev, err := NewLayout("t", tree(p("id", in)), []string{"id"}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	adopted, err := NewLayout("t", tree(p("id", str)), []string{"id"}, o, existing)
	if err != nil {
		t.Fatal(err)
	}
	planned, err := NewLayout("t", tree(p("id", str)), []string{"id"}, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	planned.KeepKeyTypes(prev, nil)
	warn := `stream "t", key property "id": the schema asks for VARCHAR2(4000 BYTE) but its key column "ID" is NUMBER(38,0) and keys never widen`
	for name, l := range map[string]*Layout{"adopted": adopted, "planned": planned} {
		if got := l.Table().Column("ID").Type; got != table.IntegerType() {
			t.Errorf("%s: key column %s, want NUMBER(38,0)", name, got)
		}
		if w := strings.Join(l.Warnings(), "\n"); !strings.Contains(w, warn) {
			t.Errorf("%s: warnings %q, want %q", name, w, warn)
		}
		row := make([]string, l.Columns())
		if err := l.Row([]byte(`{"id":"-42"}`), nil, row, nil, nil); err != nil || row[0] != "-42" {
			t.Errorf("%s: row %q, %v, want -42", name, row, err)
		}
		for _, bad := range []struct{ rec, err string }{
			{`{"id":"4.20"}`, `key value "4.20" does not fit its column NUMBER(38,0) (it would be stored as 4.2); keys never widen`},
			{`{"id":"x"}`, `key value "x" does not fit its column NUMBER(38,0) (`},
		} {
			err := l.Row([]byte(bad.rec), nil, row, nil, nil)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Property != "id" || !strings.Contains(err.Error(), bad.err) {
				t.Errorf("%s: %s: err = %v, want invalid input for key id: %s", name, bad.rec, err, bad.err)
			}
		}
	}
}

// A key column kept across a change of kind converts the key values into
// its kind: those that convert (and, for a text property, keep their
// exact text) load, the others are invalid input naming the key.
func TestKeyValuesAcrossKinds(t *testing.T) {
	ts3 := table.Type{Kind: table.KindTimestamp, Frac: 3} // a key is never WITH TIME ZONE (ORA-02329)
	for _, c := range []struct {
		name   string
		col    table.Type
		prop   *schema.Property
		good   map[string]string // record value → stored
		bad    map[string]string // record value → error part
		wanted string
	}{
		{name: "number for a VARCHAR2 key", col: table.Type{Kind: table.KindVarchar, Length: 3, CharSemantics: true}, prop: p("id", num),
			good: map[string]string{`1.50`: "1.5", `-7`: "-7"}, bad: map[string]string{`1234`: "key value of 4 bytes (4 characters) does not fit its column VARCHAR2(3 CHAR)"}},
		{name: "integer for a boolean key", col: table.Type{Kind: table.KindNumber, Precision: 1, BoolNumber: true}, prop: p("id", in),
			bad: map[string]string{`1`: "key value 1 does not fit its column NUMBER(1) (expected a boolean, got a JSON number); keys never widen"}},
		{name: "date for a TIMESTAMP key", col: ts3, prop: p("id", str, format("date")),
			good: map[string]string{`"2024-02-29"`: "2024-02-29T00:00:00Z"}},
		{name: "string for a TIMESTAMP key", col: ts3, prop: p("id", str),
			good: map[string]string{`"2024-02-29T10:00:00.5Z"`: "2024-02-29T10:00:00.5Z"},
			bad: map[string]string{`"2024-02-29T10:00:00.500Z"`: "(it would be stored as 2024-02-29T10:00:00.5Z); keys never widen",
				`"tomorrow"`:                  `key value "tomorrow" does not fit its column TIMESTAMP(3) (`,
				`"2024-02-29T10:00:00.5001Z"`: "key value 2024-02-29T10:00:00.5001Z does not fit its column TIMESTAMP(3); keys never widen"}},
		{name: "string for a RAW key", col: table.Type{Kind: table.KindRaw, Length: 2}, prop: p("id", str),
			good: map[string]string{`"00FF"`: "AP8="},
			bad: map[string]string{`"00ff"`: `key value "00ff" does not fit its column RAW(2) (it would be stored as 00FF); keys never widen`,
				`"AP8="`: `key value "AP8=" does not fit its column RAW(2) (`}},
		{name: "date-time for a DATE key", col: table.Type{Kind: table.KindDate}, prop: p("id", str, format("date-time")),
			bad: map[string]string{`"2024-02-29T00:00:00Z"`: `key value "2024-02-29T00:00:00Z" does not fit its column DATE (`}},
	} {
		existing := &table.Table{Schema: "S", Name: "T", PrimaryKey: []string{"ID"}, Columns: []table.Column{{Name: "ID", Type: c.col}}}
		l, err := NewLayout("t", tree(c.prop), []string{"id"}, table.Options{IdentifierUpper: true}, existing)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := l.Table().Column("ID").Type; got != c.col {
			t.Errorf("%s: key column %s, want %s", c.name, got, c.col)
		}
		row := make([]string, l.Columns())
		for v, want := range c.good {
			if err := l.Row([]byte(`{"id":`+v+`}`), nil, row, nil, nil); err != nil || row[0] != want {
				t.Errorf("%s: %s stored as %q (%v), want %q", c.name, v, row[0], err, want)
			}
		}
		for v, want := range c.bad {
			err := l.Row([]byte(`{"id":`+v+`}`), nil, row, nil, nil)
			var ie *inputerr.Error
			if !errors.As(err, &ie) || ie.Property != "id" || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %s: err = %v, want invalid input for key id: %s", c.name, v, err, want)
			}
		}
	}
}
