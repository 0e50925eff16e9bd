package memory_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/memory"
	"github.com/target-oracle/target-oracle/internal/table"
)

// An Apply error does not name the table: the loader wraps every engine's
// DDL error with it ("table S.T: …"), and the embedded engine's own prefix
// made it "table S.T: S.T: …".
func TestApplyErrorLeavesTheTableToTheCaller(t *testing.T) {
	ctx := context.Background()
	tb := &table.Table{Schema: "S", Name: "T", Columns: []table.Column{
		{Name: "A", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "B", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
		{Name: "C", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
	}}
	e := memory.New(memory.Options{Now: func() time.Time { return time.Unix(0, 0) }, MaxColumns: 2})
	s, err := e.Session(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	err = s.Apply(ctx, engine.Change{Table: tb, Change: table.Change{Kind: table.CreateTable}})
	if err == nil {
		t.Fatal("a table of 3 columns was made where 2 are allowed")
	}
	if strings.Contains(err.Error(), "S.T") {
		t.Errorf("the error names the table itself: %v", err)
	}
}

// The embedded engine refuses the indexes Oracle refuses: one on a LOB
// column (ORA-02327), and a name another table's index in the schema has
// (ORA-00955; index names are per schema). The same name in another
// schema, or an index on a VARCHAR2 column, is made.
func TestApplyRefusesIndexesOracleRefuses(t *testing.T) {
	ctx := context.Background()
	mk := func(schema, name string, ix ...table.Index) *table.Table {
		return &table.Table{Schema: schema, Name: name, Columns: []table.Column{
			{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
			{Name: "N", Type: table.Type{Kind: table.KindVarchar, Length: 40}, Nullable: true},
			{Name: "BODY", Type: table.Type{Kind: table.KindClob}, Nullable: true},
		}, Indexes: ix}
	}
	e := memory.New(memory.Options{Now: func() time.Time { return time.Unix(0, 0) }})
	s, err := e.Session(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	create := func(tb *table.Table) error {
		return s.Apply(ctx, engine.Change{Table: tb, Change: table.Change{Kind: table.CreateTable}})
	}
	if err := create(mk("S", "A", table.Index{Name: "IX", Columns: []string{"N"}})); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tb   *table.Table
		want string // "" = made
	}{
		{mk("S", "B", table.Index{Name: "IX", Columns: []string{"N"}}), "ORA-00955"},
		{mk("S", "C", table.Index{Name: "C_BODY_IDX", Columns: []string{"BODY"}}), "ORA-02327"},
		{mk("OTHER", "B", table.Index{Name: "IX", Columns: []string{"N"}}), ""},
		{mk("S", "D", table.Index{Name: "D_N_IDX", Columns: []string{"ID", "N"}}), ""},
	} {
		err := create(tc.tb)
		checkCreate(t, e, tc.tb, err, tc.want)
	}
	// An index added to an existing table later is checked the same way.
	a := mk("S", "D", table.Index{Name: "D_N_IDX", Columns: []string{"ID", "N"}}, table.Index{Name: "IX", Columns: []string{"N"}})
	if err := s.Apply(ctx, engine.Change{Table: a, Change: table.Change{Kind: table.AddIndex, Index: a.Indexes[1]}}); err == nil || !strings.Contains(err.Error(), "ORA-00955") {
		t.Errorf("add index IX to S.D: %v, want ORA-00955", err)
	}
}

// A primary key constraint's index has the constraint's name: a custom
// index named as another table's primary key (<TABLE>_PK), or a new
// table whose primary key has the name of another table's index, meets
// ORA-00955 on Oracle, and here.
func TestApplyRefusesIndexNamedAsAPrimaryKey(t *testing.T) {
	ctx := context.Background()
	mk := func(name string, key bool, ix ...table.Index) *table.Table {
		tb := &table.Table{Schema: "S", Name: name, Columns: []table.Column{
			{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
			{Name: "N", Type: table.Type{Kind: table.KindVarchar, Length: 40}, Nullable: true},
		}, Indexes: ix}
		if key {
			tb.PrimaryKey = []string{"ID"}
		}
		return tb
	}
	e := memory.New(memory.Options{Now: func() time.Time { return time.Unix(0, 0) }})
	s, err := e.Session(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	create := func(tb *table.Table) error {
		return s.Apply(ctx, engine.Change{Table: tb, Change: table.Change{Kind: table.CreateTable}})
	}
	if err := create(mk("A", true, table.Index{Name: "B_PK", Columns: []string{"N"}})); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tb   *table.Table
		want string
	}{
		{mk("C", false, table.Index{Name: "A_PK", Columns: []string{"N"}}), "ORA-00955"},
		{mk("B", true), "ORA-00955"},
		{mk("B", false), ""},
	} {
		err := create(tc.tb)
		checkCreate(t, e, tc.tb, err, tc.want)
	}
}

// Tables and indexes share a schema's namespace (ORA-00955): a custom
// index named as another table, a new table named as another table's
// index or primary key index, and an index named as its own table are
// refused, as Oracle refuses them.
func TestApplyRefusesTablesAndIndexesOfOneName(t *testing.T) {
	ctx := context.Background()
	mk := func(name string, ix ...table.Index) *table.Table {
		return &table.Table{Schema: "S", Name: name, PrimaryKey: []string{"ID"}, Columns: []table.Column{
			{Name: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}},
			{Name: "N", Type: table.Type{Kind: table.KindVarchar, Length: 40}, Nullable: true},
		}, Indexes: ix}
	}
	e := memory.New(memory.Options{Now: func() time.Time { return time.Unix(0, 0) }})
	s, err := e.Session(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply(ctx, engine.Change{Table: mk("A", table.Index{Name: "IX", Columns: []string{"N"}}), Change: table.Change{Kind: table.CreateTable}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tb   *table.Table
		want string
	}{
		{mk("IX"), "ORA-00955"},
		{mk("A_PK"), "ORA-00955"},
		{mk("B", table.Index{Name: "A", Columns: []string{"N"}}), "ORA-00955"},
		{mk("C", table.Index{Name: "C", Columns: []string{"N"}}), "ORA-00955"},
		{mk("D", table.Index{Name: "D_N", Columns: []string{"N"}}), ""},
	} {
		err := s.Apply(ctx, engine.Change{Table: tc.tb, Change: table.Change{Kind: table.CreateTable}})
		checkCreate(t, e, tc.tb, err, tc.want)
	}
}

// checkCreate checks the outcome of creating tb: err has want in it and
// the table was not made, or (want "") tb was made.
func checkCreate(t *testing.T, e *memory.Engine, tb *table.Table, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v", tb.QualifiedName(), err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: error %v, want %s", tb.QualifiedName(), err, want)
	case want != "" && e.Tables()[tb.QualifiedName()] != nil:
		t.Errorf("%s: made after %v", tb.QualifiedName(), err)
	}
}
