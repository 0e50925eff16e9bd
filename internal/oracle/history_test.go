package oracle_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/testkit"
)

const histSchema = testkit.HistorySchema

var histRec = testkit.HistoryRecord

func histInput(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

// TestHistoryOnFake runs the history rules (changes, no-change repeats, a
// key three times in one batch, the +1 µs rule, deletes, hard_delete,
// ACTIVATE_VERSION, replays with and without history_valid_from) through
// the Oracle engine on the fake server and on the embedded engine, whose
// exact contents pipeline.TestHistory* hold, at several batch sizes: the
// tables must be equal.
func TestHistoryOnFake(t *testing.T) {
	const t1, t2, t3 = "2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z", "2025-01-03T00:00:00Z"
	v := func(line string, n int) string {
		return strings.TrimSuffix(line, "}") + fmt.Sprintf(`,"version":%d}`, n)
	}
	scenario := []string{histSchema,
		histRec(1, "a", t1, t1, ""), histRec(1, "b", t2, t2, ""), histRec(1, "a", t3, t3, ""), // three versions
		histRec(2, "x", t1, t1, ""), histRec(2, "x", t2, t2, ""), // no change
		histRec(3, "p", t2, t2, ""), histRec(3, "q", t2, t2, ""), histRec(3, "r", t1, t1, ""), // +1 µs
		histRec(4, "d", t1, t1, ""), histRec(4, "d", t2, t2, t2), histRec(4, "e", t3, t3, ""), // delete, reopen
		`{"type":"STATE","value":{"n":1}}`}
	activate := []string{histSchema, v(histRec(5, "m", t1, t1, ""), 1), v(histRec(6, "n", t1, t1, ""), 1),
		v(histRec(6, "o", t2, t2, ""), 2), `{"type":"ACTIVATE_VERSION","stream":"dim","version":2}`,
		// A full sync re-sends 5 unchanged and changes 6: only 6 gets a
		// version, 5 keeps its current one under version 3.
		v(histRec(5, "m", t1, t3, ""), 3), v(histRec(6, "z", t3, t3, ""), 3), `{"type":"ACTIVATE_VERSION","stream":"dim","version":3}`}
	for _, tc := range []struct {
		name, settings string
		input          string
		runs           int
	}{
		{"rules", ``, histInput(scenario...), 1},
		{"rules, hard_delete", `,"hard_delete":true`, histInput(scenario...), 1},
		{"replay", ``, histInput(scenario...), 2},
		{"replay, history_valid_from", `,"history_valid_from":"updated_at"`, histInput(scenario...), 2},
		{"activate version", ``, histInput(activate...), 1},
	} {
		for _, batch := range []int{1, 3, 1000} {
			t.Run(fmt.Sprintf("%s/batch %d", tc.name, batch), func(t *testing.T) {
				settings := fmt.Sprintf(`{"load_method":"history","add_record_metadata":false,"batch_size_rows":%d%s}`, batch, tc.settings)
				r := defaultRig(t)
				m := newMemory()
				for i := 0; i < tc.runs; i++ {
					if _, err := run(t, r.eng, settings, tc.input); err != nil {
						t.Fatalf("oracle engine: %v", err)
					}
					if _, err := run(t, m, settings, tc.input); err != nil {
						t.Fatalf("embedded engine: %v", err)
					}
				}
				compare(t, oracleSnapshot(t, r, nil), memorySnapshot(m, nil))
			})
		}
	}
}

// TestHistoryContentsOnFake holds the fake's rows exactly for a key
// changed twice in one batch, and the statements of the batches: one
// read, one array UPDATE, one array INSERT, whatever the batch's size.
func TestHistoryContentsOnFake(t *testing.T) {
	r := defaultRig(t)
	settings := `{"load_method":"history","add_record_metadata":false}`
	in := histInput(histSchema, histRec(1, "a", "", "2025-01-01T00:00:00Z", ""))
	if _, err := run(t, r.eng, settings, in); err != nil {
		t.Fatal(err)
	}
	lines := []string{histSchema}
	for i := 1; i <= 1500; i++ {
		lines = append(lines, histRec(i, "b", "", "2025-01-02T00:00:00Z", ""))
	}
	lines = append(lines, histRec(1, "c", "", "2025-01-03T00:00:00Z", ""))
	before := len(r.db.Statements())
	if _, err := run(t, r.eng, settings, histInput(lines...)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.db.Rows("DRY_RUN.DIM") {
		if row["ID"] == "1" {
			got = append(got, fmt.Sprintf("%s %s..%s current=%s", row["NAME"], row["_SDC_VALID_FROM"], row["_SDC_VALID_TO"], row["_SDC_IS_CURRENT"]))
		}
	}
	want := map[string]bool{
		"a 2025-01-01T00:00:00Z..2025-01-02T00:00:00Z current=0": true,
		"b 2025-01-02T00:00:00Z..2025-01-03T00:00:00Z current=0": true,
		"c 2025-01-03T00:00:00Z.. current=1":                     true,
	}
	if len(got) != len(want) {
		t.Fatalf("versions of key 1: %q", got)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected version %q (all: %q)", g, got)
		}
	}
	if n := len(r.db.Rows("DRY_RUN.DIM")); n != 1502 {
		t.Errorf("%d rows, want 1502", n)
	}
	counts := map[string]int{}
	for _, s := range r.db.Statements()[before:] {
		switch {
		case strings.HasPrefix(s, "SELECT ") && strings.HasSuffix(s, " FOR UPDATE"):
			counts["read"]++
		case strings.HasPrefix(s, `UPDATE "DRY_RUN"."DIM"`):
			counts["close"]++
		case strings.HasPrefix(s, `INSERT INTO "DRY_RUN"."DIM"`):
			counts["insert"]++
		}
	}
	// 1,500 distinct keys: two reads of at most 1,000 keys; one array
	// execute each for the closing UPDATE and the INSERT.
	if want := map[string]int{"read": 2, "close": 1, "insert": 1}; fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("statements of the batch: %v, want %v", counts, want)
	}
}
