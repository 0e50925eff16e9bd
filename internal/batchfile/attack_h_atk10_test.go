package batchfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/inputerr"
)

// Files the gzip sniffing meets without a "gzip" label: each either
// loads exactly what it holds or fails naming the file.
func TestAttackUnlabelledGzipEdges(t *testing.T) {
	full := gzipped(t, strings.Repeat(`{"id":1}`+"\n", 1000))
	cut := writeFile(t, "cut.jsonl", full[:len(full)/2])
	lone := writeFile(t, "lone.jsonl", []byte{0x1f})
	near := writeFile(t, "near.jsonl", []byte("\x1f{\"id\":1}\n"))
	emptyGz := writeFile(t, "emptygz.jsonl", gzipped(t, ""))
	two := writeFile(t, "two.jsonl", append(gzipped(t, `{"id":1}`+"\n"), gzipped(t, `{"id":2}`+"\n")...))

	for _, c := range []string{"", "none"} {
		if _, err := readBatch(t, batchMessage(t, c, cut), Options{}); err == nil ||
			!strings.Contains(err.Error(), cut) || !strings.Contains(err.Error(), "unexpected EOF") {
			t.Errorf("%q: a cut gzip file: %v", c, err)
		}
		for _, f := range []string{lone, near} {
			_, err := readBatch(t, batchMessage(t, c, f), Options{})
			var ie *inputerr.Error
			if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), f) {
				t.Errorf("%q: a plain file starting with 0x1f: %v, want an input error naming it", c, err)
			}
		}
		rows, err := readBatch(t, batchMessage(t, c, emptyGz), Options{})
		if err != nil || len(rows) != 0 {
			t.Errorf("%q: gzip of nothing: %v %v", c, rows, err)
		}
		rows, err = readBatch(t, batchMessage(t, c, two), Options{})
		if err != nil || len(rows) != 2 || rows[1].record != `{"id":2}` || rows[1].fileLine != 2 {
			t.Errorf("%q: two gzip members: %v %v", c, rows, err)
		}
	}
}
