package oracle

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	go_ora "github.com/sijms/go-ora/v2"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/testkit"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// TestBindsOnTheWire runs the binder's INSERT executes through the real
// go-ora v2.9.0 client to the wire peer and checks what go-ora declares
// (risks 1, 2, 5): national arrays keep charset form 2 / AL16UTF16 with a
// NULL last row; no VARCHAR bind is declared longer than the limit; a
// long CLOB value is a LONG bind and makes no temporary LOB; the long
// national value is the only temporary LOB; rows with long values run in
// executes of their own.
func TestBindsOnTheWire(t *testing.T) {
	p := testkit.Peer(t, wirepeer.Facts{})
	db := sql.OpenDB(go_ora.NewConnector(p.URL()))
	defer db.Close()
	conn, err := DialDB(db)(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	nv := table.Type{Kind: table.KindVarchar, Length: 2000, CharSemantics: true, National: true}
	nclob := table.Type{Kind: table.KindClob, National: true}
	clob := table.Type{Kind: table.KindClob}
	st := oraclesql.Statement{SQL: `INSERT INTO T (ID, NV, NC, C) VALUES (TO_NUMBER(:1), :2, :3, :4)`, Kind: oraclesql.KindDML,
		Rows: oraclesql.RowsOf(engine.RowUpsert), Binds: []oraclesql.Bind{
			{Column: "ID", Type: table.Type{Kind: table.KindNumber, Precision: 38}, Source: oraclesql.FromRow, Index: 0},
			{Column: "NV", Type: nv, Source: oraclesql.FromRow, Index: 1},
			{Column: "NC", Type: nclob, Source: oraclesql.FromRow, Index: 2},
			{Column: "C", Type: clob, Source: oraclesql.FromRow, Index: 3},
		}}
	rows := []engine.Row{
		{Line: 1, Values: []string{"1", "ñandú", "short", "short"}},
		{Line: 2, Values: []string{"2", "x", strings.Repeat("a", 2001), strings.Repeat("c", 4001)}}, // 4,002 bytes in UTF-16
		{Line: 3, Values: []string{"3", "x", "y", strings.Repeat("c", 4001)}},
		{Line: 4, Values: []string{"4", "", "", ""}}, // NULLs last
	}
	b := newBinder(Options{MaxStringBytes: 4000})
	execs, err := b.executes(nil, &planned{st: st, role: roleInsert}, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range execs {
		args, err := b.arrayArgs(e)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(context.Background(), e.st, args); err != nil {
			t.Fatalf("execute of %d rows: %v", len(e.rows), err)
		}
	}
	var got []*wirepeer.Execute
	for _, e := range p.Executes() {
		if strings.HasPrefix(e.SQL, "INSERT") {
			got = append(got, e)
		}
	}
	if len(got) != 3 {
		t.Fatalf("%d executes, want 3 (the short rows; row 2 with a long NCLOB and CLOB; row 3 with a long CLOB)", len(got))
	}
	var iterations, longs int
	for i, e := range got {
		iterations += e.Iterations
		if len(e.Problems) > 0 {
			t.Errorf("execute %d: %v", i+1, e.Problems)
		}
		for j, bd := range e.Binds {
			if j == 1 || j == 2 {
				if bd.CSForm != 2 || bd.CharsetID != wirepeer.AL16UTF16 {
					t.Errorf("execute %d bind %d: form %d charset %d, want 2 and AL16UTF16", i+1, j+1, bd.CSForm, bd.CharsetID)
				}
			}
			if bd.Type == wirepeer.TypeVarchar && bd.MaxLen > 4000 {
				t.Errorf("execute %d bind %d: VARCHAR declared %d bytes", i+1, j+1, bd.MaxLen)
			}
			if bd.IsLong() {
				longs++
			}
		}
	}
	if iterations != len(rows) || longs != 2 {
		t.Errorf("%d rows in all, %d LONG binds; want %d and 2 (rows 2 and 3's CLOB)", iterations, longs, len(rows))
	}
	if created, _ := p.TempLOBs(); created != 1 {
		t.Errorf("%d temporary LOBs, want 1 (row 2's NCLOB)", created)
	}
}
