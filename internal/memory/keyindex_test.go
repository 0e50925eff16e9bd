package memory

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/target-oracle/target-oracle/internal/table"
)

// TestKeyIndexMatchesMap adds, finds and deletes keys at random in the
// open-addressing key index and in a map, and compares every answer; the
// table grows past mapMin, so its later arrays are mapped memory, and
// deletes shift entries back across wrap-arounds.
func TestKeyIndexMatchesMap(t *testing.T) {
	tbl := newMemTable(&table.Table{Name: "T", PrimaryKey: []string{"ID"}}, true, nil)
	model := map[string]int{}
	rng := rand.New(rand.NewPCG(18, 1))
	key := func(id int) []byte { return tbl.keyOf(map[string]string{"ID": fmt.Sprint(id)}) }
	for step := range 300_000 {
		id := rng.IntN(200_000)
		k := key(id)
		i, ok := tbl.lookup(k)
		mi, mok := model[string(k)]
		if ok != mok || (ok && i != mi) {
			t.Fatalf("step %d: lookup %d = %d, %v; want %d, %v", step, id, i, ok, mi, mok)
		}
		switch {
		case !ok:
			tbl.rows = append(tbl.rows, map[string]string{"ID": fmt.Sprint(id)})
			tbl.index(k, len(tbl.rows)-1)
			model[string(k)] = len(tbl.rows) - 1
		case rng.IntN(3) == 0:
			tbl.unindex(k, i)
			tbl.rows[i] = nil
			delete(model, string(k))
		}
		if tbl.byKey.n != len(model) {
			t.Fatalf("step %d: %d entries, want %d", step, tbl.byKey.n, len(model))
		}
	}
	if !tbl.byKey.slots.mapped {
		t.Errorf("%d slots are not mapped memory", len(tbl.byKey.slots.w))
	}
	for k, mi := range model {
		if i, ok := tbl.lookup([]byte(k)); !ok || i != mi {
			t.Fatalf("lookup %q = %d, %v; want %d", k, i, ok, mi)
		}
	}
	tbl.clear()
}
