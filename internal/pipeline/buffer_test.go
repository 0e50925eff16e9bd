package pipeline

import (
	"fmt"
	"testing"

	"github.com/target-oracle/target-oracle/internal/batch"
	"github.com/target-oracle/target-oracle/internal/config"
)

// Every row of a buffer gets its own slots, whatever the width and the
// chunk sizes (doubling from batch.FirstChunkRows, then chunkRows): rows written
// through next read back through row, and no two rows share a slot.
func TestBufferChunksHoldEveryRow(t *testing.T) {
	for _, tc := range []struct{ width, chunkRows, rows int }{
		{1, 1024, 5000}, {15, 68, 1000}, {200, 5, 100}, {1500, 1, 10}, {3, 4, 40}, {3, 5, 40}, {7, 146, 3},
	} {
		b := &buffer{width: tc.width, chunking: batch.Chunks{Rows: tc.chunkRows}}
		for i := 0; i < tc.rows; i++ {
			row := b.next()
			if len(row) != tc.width || cap(row) != tc.width {
				t.Fatalf("%+v: row %d has len %d cap %d", tc, i, len(row), cap(row))
			}
			for c := range row {
				row[c] = fmt.Sprint(i, ".", c)
			}
			b.commitRow(int64(i), 0, "")
		}
		for i := 0; i < tc.rows; i++ {
			for c, v := range b.row(i) {
				if want := fmt.Sprint(i, ".", c); v != want {
					t.Fatalf("%+v: row %d column %d holds %q, want %q", tc, i, c, v, want)
				}
			}
		}
		slots := 0
		for _, c := range b.chunks {
			slots += len(c)
		}
		if slots > tc.width*(2*tc.rows+batch.FirstChunkRows+tc.chunkRows) {
			t.Errorf("%+v: %d slots for %d rows", tc, slots, tc.rows)
		}
	}
}

// A finished job leaves its stream's queue array: the array outlives the
// slice, and a loaded batch kept in it held its rows (with hundreds of
// streams, one batch each beyond max_buffered_bytes).
func TestCompleteDropsFinishedJob(t *testing.T) {
	s := &stream{name: "s", running: true}
	done := &job{kind: jobBatch, stream: s, buf: &buffer{bytes: 10}}
	next := &job{kind: jobBatch, stream: s, buf: &buffer{bytes: 20}}
	q := []*job{done, next}
	s.queue = q
	p := &pipeline{cfg: &config.Config{MaxParallelism: 1}, order: []*stream{s}, running: 1, buffered: 30, noStart: true}
	p.openLine(done.line) // the queue's open lines (frontier.go)
	p.openLine(next.line)
	p.complete(jobResult{job: done})
	if q[0] != nil {
		t.Fatal("the finished job is still in the queue's array")
	}
	if len(s.queue) != 1 || s.queue[0] != next || p.buffered != 20 {
		t.Fatalf("queue %v, buffered %d", s.queue, p.buffered)
	}
}
