package oracle_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oracle"
	"github.com/target-oracle/target-oracle/internal/oracle/fake"
	"github.com/target-oracle/target-oracle/internal/oraclesql"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/wirepeer"
)

// docs is a table with a short text, a CLOB, a national text and an NCLOB.
func docs() *table.Table {
	return &table.Table{Schema: schemaName, Name: "DOCS", PrimaryKey: []string{"ID"}, Columns: []table.Column{
		prop("ID", integer, false),
		prop("NAME", table.Type{Kind: table.KindVarchar, Length: 100, CharSemantics: true}, true),
		prop("BODY", table.Type{Kind: table.KindClob}, true),
		prop("NOTE_N", table.Type{Kind: table.KindVarchar, Length: 1000, CharSemantics: true, National: true}, true),
		prop("BODY_N", table.Type{Kind: table.KindClob, National: true}, true),
	}}
}

// docRows are n rows; long names the rows (from 0) whose BODY and, with
// national, BODY_N are longer than a VARCHAR bind.
func docRows(n int, long map[int]bool, national bool) []map[string]string {
	var rows []map[string]string
	for i := range n {
		r := map[string]string{"ID": fmt.Sprint(i + 1), "NAME": fmt.Sprintf("name %d", i), "BODY": "short",
			"NOTE_N": "ñandú", "BODY_N": "court"}
		if long[i] {
			r["BODY"] = strings.Repeat("b", 5000)
			if national {
				r["BODY_N"] = strings.Repeat("ü", 2500) // 5,000 bytes in AL16UTF16
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// TestRoundTripsPerBatch counts the round trips of one batch (Session.Load)
// on the socket go-ora uses, through the wire peer: an append batch
// (INSERT) and an upsert batch (MERGE) of short rows cost the same
// whatever their number of rows, and long values add executes of their
// own (a LONG bind) or temporary LOBs (created and written one round trip
// each), never a round trip per row. Every execute costs two: go-ora
// closes its cursor at once, with a piggybacked close on a ping. The
// figures are in docs/performance.md.
func TestRoundTripsPerBatch(t *testing.T) {
	for _, c := range []struct {
		name     string
		method   engine.Method
		rows     int
		long     map[int]bool
		national bool
		turns    int
	}{
		{"append, 10 short rows", engine.Insert, 10, nil, false, 3},
		{"append, 1000 short rows", engine.Insert, 1000, nil, false, 3},
		{"append, 1000 rows, 2 with a long CLOB", engine.Insert, 1000, map[int]bool{3: true, 700: true}, false, 5},
		{"append, 1000 rows, 2 with a long CLOB and NCLOB", engine.Insert, 1000, map[int]bool{3: true, 700: true}, true, 10},
		{"upsert, 10 short rows", engine.Upsert, 10, nil, false, 3},
		{"upsert, 1000 short rows", engine.Upsert, 1000, nil, false, 3},
		{"upsert, 1000 rows, 2 with a long CLOB", engine.Upsert, 1000, map[int]bool{3: true, 700: true}, false, 7},
		{"upsert, 1000 rows, 2 with a long CLOB and NCLOB", engine.Upsert, 1000, map[int]bool{3: true, 700: true}, true, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := fake.New(fake.Options{Schema: schemaName, Now: clock})
			o := oracle.Options{Sleep: instant}
			turns := &wirepeer.TurnCounter{}
			dial, p := wirePeer(t, db, o, turns)
			eng := oracle.New(dial, oraclesql.New(oraclesql.Options{ColumnComments: true}), o)
			s := session(t, &rig{db: db, eng: eng}, docs())
			before, calls := turns.Turns(), len(p.Calls())
			w := write(docs(), c.method, docRows(c.rows, c.long, c.national)...)
			if _, err := s.Load(context.Background(), []engine.Step{w}); err != nil {
				t.Fatal(err)
			}
			got := turns.Turns() - before
			var names []string
			for _, call := range p.Calls()[calls:] {
				names = append(names, call.Name+fmt.Sprint(call.Piggyback))
			}
			t.Logf("%d round trips: %v", got, names)
			if got != c.turns {
				t.Errorf("%d round trips, want %d", got, c.turns)
			}
			if len(names) != got {
				t.Errorf("the socket saw %d round trips, the peer %d calls", got, len(names))
			}
			if n := len(db.Rows(schemaName + ".DOCS")); n != c.rows {
				t.Errorf("%d rows landed, want %d", n, c.rows)
			}
		})
	}
}
