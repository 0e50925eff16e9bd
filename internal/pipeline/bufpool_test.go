package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/target-oracle/target-oracle/internal/batch"
)

// With more streams than keep a spare buffer each, loaded batches give
// their chunks and engine rows back to the pipeline's pool, and the next
// batches of any stream, of any width, fill them again (bufpool.go). The
// run must load every row as read: a chunk handed out while a worker or
// the engine still read it would show as wrong values here, and under
// `go test -race` as a data race between the worker and the coordinator.
// Two workers load while the coordinator reads on; batches are large
// enough to fill chunks (so the later ones are flat), some keys arrive out
// of order (the batch is folded) and widths differ by stream.
func TestRecycledBuffersUnderManyStreams(t *testing.T) {
	const streams, records, batchRows = maxStreamsWithSpare + 6, 330, 150
	cfg := testConfig(t, fmt.Sprintf(`{"batch_size_rows": %d, "max_parallelism": 2}`, batchRows))
	extra := func(s int) []string { return []string{"w", "x", "y"}[:s%4] }
	var in strings.Builder
	for s := 0; s < streams; s++ {
		props := `"id":{"type":"integer"},"v":{"type":"string"}`
		for _, e := range extra(s) {
			props += fmt.Sprintf(`,%q:{"type":["null","string"]}`, e)
		}
		fmt.Fprintf(&in, `{"type":"SCHEMA","stream":"s%d","key_properties":["id"],"schema":{"properties":{%s}}}`+"\n", s, props)
	}
	for r := 0; r < records; r++ {
		for s := 0; s < streams; s++ {
			id := r
			if s%5 == 0 && r%7 == 3 {
				id = r - 2 // out of order, and a repeat: the batch is folded, the later record wins
			}
			fmt.Fprintf(&in, `{"type":"RECORD","stream":"s%d","record":{"id":%d,"v":"s%d-r%d"`, s, id, s, r)
			for _, e := range extra(s) {
				fmt.Fprintf(&in, `,%q:"%s%d"`, e, e, r)
			}
			in.WriteString("}}\n")
		}
	}
	p, eng := dryPipeline(t, cfg, strings.NewReader(in.String()))
	if err := p.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for s := 0; s < streams; s++ {
		rows := eng.Rows(fmt.Sprintf("DRY_RUN.S%d", s))
		want := records
		if s%5 == 0 {
			want -= (records - 3 + 6) / 7 // ids r%7 == 3 never arrive
		}
		if len(rows) != want {
			t.Fatalf("stream s%d: %d rows, want %d", s, len(rows), want)
		}
		for _, row := range rows {
			var id int
			fmt.Sscan(row["ID"], &id)
			r := id // the record that wrote the row last
			if s%5 == 0 && (id+2)%7 == 3 {
				r = id + 2
			}
			want := map[string]string{"V": fmt.Sprintf("s%d-r%d", s, r)}
			for _, e := range extra(s) {
				want[strings.ToUpper(e)] = fmt.Sprint(e, r)
			}
			for c, v := range want {
				if row[c] != v {
					t.Fatalf("stream s%d, id %d: %s = %q, want %q (row %v)", s, id, c, row[c], v, row)
				}
			}
		}
	}
	if p.bufs.reused == 0 {
		t.Error("no chunk was reused: every batch allocated its own")
	}
}

// A buffer from the pool hands out clean slots whatever width the chunks
// had before, rows read back as written, a dropped row's slots are cleared
// at once, and the pool keeps at most poolChunks chunks.
func TestBufferPoolChunks(t *testing.T) {
	var pool bufferPool
	// Some values empty: a slot the pool handed out holding an old value
	// would read back as that value.
	want := func(width, i, c int) string {
		if (i+c)%5 == 0 {
			return ""
		}
		return fmt.Sprint(width, ".", i, ".", c)
	}
	fill := func(width, rows int) *buffer {
		b := &buffer{width: width, chunking: batch.Chunks{Rows: chunkRows(width)}, flat: true, pool: &pool}
		for i := 0; i < rows; i++ {
			row := b.next()
			for c, v := range row {
				if v != "" {
					t.Fatalf("width %d, row %d, column %d: handed out holding %q", width, i, c, v)
				}
				row[c] = want(width, i, c)
			}
			if i%9 == 4 { // a record that fails its transformation
				b.drop()
				for c, v := range b.next() {
					if v != "" {
						t.Fatalf("width %d, row %d: dropped slot %d still holds %q", width, i, c, v)
					}
					row[c] = want(width, i, c)
				}
			}
			b.commitRow(int64(i), 0, "")
		}
		for i := 0; i < rows; i++ {
			for c, v := range b.row(i) {
				if want := want(width, i, c); v != want {
					t.Fatalf("width %d: row %d column %d holds %q, want %q", width, i, c, v, want)
				}
			}
		}
		return b
	}
	pool.put(fill(10, 500))
	if len(pool.chunks) == 0 {
		t.Fatal("a flat buffer's full chunks were not kept")
	}
	before := pool.reused
	pool.put(fill(7, 300)) // narrower rows in the wider rows' chunks
	pool.put(fill(13, 200))
	if pool.reused == before {
		t.Error("the pool's chunks were not reused")
	}
	for i := 0; i < 3*poolChunks; i++ {
		pool.put(&buffer{width: 1, chunking: batch.Chunks{Rows: chunkRows(1)}, chunks: [][]string{make([]string, chunkRows(1), slotChunkSlots)}})
	}
	if len(pool.chunks) > poolChunks {
		t.Errorf("the pool holds %d chunks, at most %d wanted", len(pool.chunks), poolChunks)
	}
}

// Full chunks of rows up to 64 columns wide share the pool's capacity;
// a width that would leave much of it unused gets chunks of its own size.
func TestPoolableWidths(t *testing.T) {
	for w := 1; w <= 64; w++ {
		if n := chunkRows(w) * w; !poolable(n) {
			t.Errorf("width %d (%d slots a chunk): not poolable", w, n)
		}
	}
	for _, tc := range []struct {
		width int
		want  bool
	}{{200, true}, {300, false}, {513, false}, {1024, true}, {1500, false}} {
		if got := poolable(chunkRows(tc.width) * tc.width); got != tc.want {
			t.Errorf("width %d (%d slots a chunk): poolable %v, want %v", tc.width, chunkRows(tc.width)*tc.width, got, tc.want)
		}
	}
}
