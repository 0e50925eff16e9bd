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
