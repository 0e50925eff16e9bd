package memory

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/oravalue"
	"github.com/target-oracle/target-oracle/internal/table"
)

// checkRows checks a batch in runs of rows, column by column within a
// run; checkByRow is the plain row-by-row check. Whatever the width and
// wherever the refused values are, both report the same first error (the
// first refused value in row order, the leftmost in its row) and the same
// stored values. Seeded: a failure names its seed.
func TestCheckRowsAgreesWithCheckByRow(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		width := 1 + r.IntN(300)
		rows := 1 + r.IntN(700)
		tb := &table.Table{Schema: "S", Name: "T"}
		for i := range width {
			tb.Columns = append(tb.Columns, table.Column{Name: fmt.Sprintf("C%d", i), Type: table.Type{Kind: table.KindNumber, Precision: 10, Scale: 2}, Nullable: true})
		}
		mt := newMemTable(tb, false, nil)
		w := &engine.Write{Table: tb, Method: engine.Insert}
		cols := make([]*table.Column, width)
		rules := make([]oravalue.Column, width)
		keep := make([]oravalue.Keeper, width)
		for i := range width {
			w.Columns = append(w.Columns, tb.Columns[i].Name)
			cols[i] = &tb.Columns[i]
			rules[i] = mt.valueRules(cols[i])
			keep[i] = rules[i].Keeper()
		}
		bad := r.IntN(4) // how many refused values (0: none)
		for j := range rows {
			vals := make([]string, width)
			for i := range vals {
				switch r.IntN(50) {
				case 0:
					vals[i] = "" // NULL
				case 1:
					vals[i] = "1.50" // stored as 1.5: not canonical
				default:
					vals[i] = fmt.Sprint(r.IntN(99999))
				}
			}
			w.Rows = append(w.Rows, engine.Row{Line: int64(j + 1), Values: vals})
		}
		for range bad {
			w.Rows[r.IntN(rows)].Values[r.IntN(width)] = "1234567890" // past NUMBER(10,2)
		}
		gotStored, gotErr := checkRows(w, cols, rules, keep, -1)
		wantStored, wantErr := checkByRow(w, cols, rules, -1)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("seed %d (%d columns, %d rows): checkRows error %v, row by row %v", seed, width, rows, gotErr, wantErr)
		}
		if (bad == 0) != (wantErr == nil) {
			t.Fatalf("seed %d: %d refused values, error %v", seed, bad, wantErr)
		}
		if wantErr == nil && fmt.Sprint(gotStored) != fmt.Sprint(wantStored) {
			t.Fatalf("seed %d: stored values %v, row by row %v", seed, gotStored, wantStored)
		}
	}
}
