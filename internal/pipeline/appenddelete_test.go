package pipeline_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// appendRec is a RECORD of stream s; deleted, when set, is its
// _sdc_deleted_at.
func appendRec(id int, v, deleted string) string {
	r := map[string]any{"id": id, "v": v}
	if deleted != "" {
		r["_sdc_deleted_at"] = deleted
	}
	b, _ := json.Marshal(map[string]any{"type": "RECORD", "stream": "s", "record": r})
	return string(b)
}

// An append-only stream keeps every row it appends (SPEC §6.2); with
// hard_delete a record with _sdc_deleted_at deletes the rows of its key
// that exist at that point (SPEC §6.4), earlier rows of the same batch
// included, and rows appended after it stay. The table must be what
// loading the records one by one gives, wherever the batches end: keys
// repeat in such a batch, and the rows of one key must not be folded into
// one as for upserts.
func TestAppendOnlyHardDeleteKeepsEveryRow(t *testing.T) {
	before := []string{schemaLine, appendRec(1, "old1", ""), appendRec(2, "old2", ""), appendRec(3, "old3", "")}
	lines := []string{
		schemaLine,
		appendRec(1, "a", ""),
		appendRec(1, "b", ""),
		appendRec(2, "c", ""),
		appendRec(1, "", "2025-01-01T00:00:00Z"), // removes old1, a, b
		appendRec(1, "d", ""),
		appendRec(2, "e", ""),
		appendRec(1, "f", ""),
		appendRec(3, "", "2025-01-01T00:00:00Z"), // removes old3
		appendRec(3, "", "2025-01-01T00:00:01Z"), // nothing left to remove
		appendRec(3, "g", ""),
		appendRec(2, "h", ""),
	}
	// One by one: old2 (before the run), then c, d, e, f, g, h in input order.
	want := "2=old2 2=c 1=d 2=e 1=f 3=g 2=h"
	for _, size := range []int{1, 2, 3, 4, 5, 1000} {
		t.Run(fmt.Sprint("batch_size_rows=", size), func(t *testing.T) {
			eng := newEngine()
			settings := fmt.Sprintf(`{"load_method": "append-only", "hard_delete": true, "batch_size_rows": %d}`, size)
			if _, err := run(t, eng, loadConfig(t, settings), input(before...)); err != nil {
				t.Fatal(err)
			}
			if _, err := run(t, eng, loadConfig(t, settings), input(lines...)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range eng.Rows("DRY_RUN.S") {
				got = append(got, r["ID"]+"="+r["V"])
			}
			if g := strings.Join(got, " "); g != want {
				t.Errorf("rows %s\nwant %s", g, want)
			}
		})
	}
}
