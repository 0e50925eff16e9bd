package pipeline

import (
	"time"

	"github.com/target-oracle/target-oracle/internal/batch"
	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/metrics"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// stream is the coordinator's view of one Singer stream. Only the
// coordinator goroutine reads or writes it: a job carries what its worker
// needs (job in flush.go), and what workers keep per stream is the
// separate streamWork. Built with the race detector, the pipeline checks
// this rule on every job (touch).
type stream struct {
	name     string
	settings config.StreamSettings
	opts     table.Options
	table    string     // the stream's table, decided at its first SCHEMA (tableFor)
	turn     *tableTurn // shared with every stream loading into the same table (shared.go)

	// Set by the stream's SCHEMA.
	schemaText []byte // compact schema + key properties: identity of the SCHEMA
	schema     *schema.Schema
	keys       []string
	layout     *tablemap.Layout
	onePass    bool // layout validates records as it converts them (UseOnePass)
	apart      bool // records are validated against their input's schema, not in the one pass (compileFeeds)

	// rowStats, for a stream whose records may delete by key
	// (hard_delete), takes one row's value stats before they count in the
	// buffer's: a deleting row binds only its key, so only the key's
	// values may decide column types (deleteStats).
	rowStats []table.Stats

	buf   *buffer // records not yet handed to a worker
	spare *buffer // a loaded batch's buffer, reused for the next one

	// Jobs handed over but not finished, in order. running is true while
	// a worker has queue[0].
	queue   []*job
	running bool
	queued  bool // on the coordinator's ready list
	// halted is set when a job of the stream failed on its input (a key
	// change a table with rows refuses, text the database character set
	// cannot hold): the failed job stays first in the queue, so the
	// frontier never passes it, and nothing more of the stream is
	// flushed or started while the run drains the other streams.
	halted bool

	flushed     bool  // a batch of this stream was loaded in this run (overwrite, truncate)
	firstRecord int64 // line of the first record, for streams that hold states until the end (holdsStates)
	ord         int   // index in pipeline.order
	bigAt       int   // 1 + index in pipeline.big while the buffer holds rows, else 0 (largest.go)

	warnedUnknown map[string]bool
	warnedLayout  map[string]bool // Layout.Warnings already logged
	// notedOptions: the partitioning/compression note for an existing
	// table was logged (once per stream and run).
	notedOptions bool
	warnedPrune  bool         // delete_missing skipped for this stream: said once
	prune        *streamPrune // delete_missing streams only (prune.go)
	work         *streamWork  // the workers': made at the first job, never touched here after (flush.go)

	// counters for the summary; reported is the part of read already
	// given to the metrics registry, counters the registry's (nil until
	// the first report)
	read, rejected, reported int64
	counters                 *metrics.Stream
}

// touch writes every field of s, as it is, on the coordinator. Built with
// the race detector the pipeline does so each time a job of s starts, so
// that a worker reading or writing any field of its stream is reported
// as a data race, whichever field it is and whether or not the
// coordinator happens to change that field while the job runs.
func (s *stream) touch() {
	c := *s
	*s = c
}

// buffer holds a stream's transformed rows until they are flushed. Rows
// are stored flat in chunks of up to slotChunkBytes bytes (batch.Chunks),
// so a batch costs a handful of allocations whatever its size, growing
// never copies the rows before, and a stream holds at most one partly used
// chunk: with a thousand streams neither a doubling
// slice's spare half nor a buffer sized for the last batch adds up
// (SPEC §10 bounds memory by max_buffered_bytes, not by streams × batch).
//
// Every slot a buffer hands out (next) is clean: its chunks are new, or
// were cleared when the buffer was taken back (reuse, bufferPool.put), and
// a dropped row is cleared at once. So next need not clear a row: clearing
// each row's slots as it was handed out, on memory the runtime had just
// faulted in again, was a sixth of the CPU with 200 streams.
type buffer struct {
	layout   *tablemap.Layout
	width    int
	chunking batch.Chunks
	// flat: every chunk holds chunking.Rows rows, none doubles up to it.
	// Set for a stream whose last batch filled a chunk (nextBuffer): it
	// will again, so small first chunks would only be allocations more.
	flat bool
	// pool gives full chunks (nil: allocate them); many streams only.
	pool   *bufferPool
	chunks [][]string
	// ahead are clean chunks for chunks aheadFrom, aheadFrom+1, ...: the
	// ones a loaded batch of the same layout filled beyond where this
	// buffer had got when that batch came back (takeAhead), so that two
	// batches in turn fill one batch's memory, not two.
	ahead     [][]string
	aheadFrom int
	lines     []int64
	files     []fileRun  // where BATCH rows came from (filerows.go)
	inputs    []inputRun // the input streams rows were mapped from (inputrows.go)
	stats     []table.Stats
	bytes     int64
	minLine   int64
	oldest    time.Time

	// keys are the key columns; unordered is set once a row's key is not
	// greater than the one before it (see batch.Less). Keys in increasing
	// order cannot repeat, so such a batch needs no dedupe: this is
	// decided here, while each row is still in the cache.
	keys      []int
	unordered bool
	// scratch is the row next hands out: memory the collector scans, so
	// that what the row builder writes stays alive however much it
	// allocates before commitRow holds it and moves it into the chunks'
	// slots, which the collector does not scan (slots.go). Clean between
	// rows.
	scratch []string
	// cur is the committed row's slots, last the one before: commitRow
	// compares their keys without finding either in the chunks again
	// (with 200 streams the buffer's chunk list is rarely in the cache).
	// Both point into chunks and are cleared with them.
	cur, last []string

	// types are the column types the values are in when a batch's table
	// changed them (convertTo); nil: the layout's.
	types []table.Type

	// owners keeps alive what the chunks' slots point at: the collector
	// does not scan chunks (slots.go).
	owners ownerSet

	engineRows []engine.Row // the rows handed to the engine, kept for reuse
	// records are the records as received, kept only under
	// on_database_error: reject (a refused one goes to reject_path).
	records [][]byte
}

// slotChunkBytes is the size of one chunk of a buffer's row slots.
const slotChunkBytes = 16 << 10

// slotBytes is what a row's slots cost per column (a string header),
// counted in max_buffered_bytes with the record's size (rowSize).
const slotBytes = 16

// slotChunkSlots is the capacity of a full chunk: every full chunk that
// fills most of it (poolable) is allocated with it, whatever the width, so
// that a chunk given back by one stream fits any other (bufferPool).
const slotChunkSlots = slotChunkBytes / slotBytes

// poolable reports whether a full chunk of n slots takes the common
// capacity slotChunkSlots: when it wastes little of it (any width up to
// 64 columns, most others), not when a wide row leaves much of it unused.
func poolable(n int) bool { return n <= slotChunkSlots && slotChunkSlots-n <= 64 }

// chunkRows is how many rows a full chunk of a row of width columns holds.
func chunkRows(width int) int { return max(1, slotChunkBytes/(slotBytes*max(width, 1))) }

func newBuffer(l *tablemap.Layout) *buffer {
	w := l.Columns()
	return &buffer{
		layout:   l,
		keys:     l.KeyIndexes(),
		width:    w,
		chunking: batch.Chunks{Rows: chunkRows(w)},
		stats:    make([]table.Stats, w),
		minLine:  noLine,
	}
}

func (b *buffer) rows() int { return len(b.lines) }

// chunkOf returns the chunk holding row i and the row's index in it.
func (b *buffer) chunkOf(i int) (k, j int) {
	if b.flat {
		return i / b.chunking.Rows, i % b.chunking.Rows
	}
	return b.chunking.Of(i)
}

// row returns row i's slots.
func (b *buffer) row(i int) []string {
	k, j := b.chunkOf(i)
	c := b.chunks[k]
	j *= b.width
	return c[j : j+b.width : j+b.width]
}

// newChunk allocates chunk k's slots (zero: clean).
func (b *buffer) newChunk(k int) []string {
	rows := b.chunking.Rows
	if !b.flat {
		rows = b.chunking.Size(k)
	}
	n := rows * b.width
	if i := k - b.aheadFrom; i >= 0 && i < len(b.ahead) {
		c := b.ahead[i]
		b.ahead[i] = nil
		if cap(c) >= n {
			return c[:n] // clean: cleared up to its length, never written past it
		}
	}
	if rows == b.chunking.Rows && poolable(n) {
		if c := b.pool.chunk(n); c != nil {
			return c
		}
		return newSlots(n, slotChunkSlots)
	}
	return newSlots(n, n)
}

// newBuffer returns an empty buffer for the stream's current layout,
// reusing the last loaded batch's memory when it has the same layout.
func (s *stream) newBuffer() *buffer {
	if b := s.spare; b != nil && b.layout == s.layout {
		s.spare = nil
		for _, c := range b.chunks {
			clear(c) // drop references to the old rows' strings; next hands out clean slots
		}
		b.recycle()
		b.owners.reset() // after the chunks: nothing points at what the owners held
		b.lines = b.lines[:0]
		b.files = b.files[:0]
		b.inputs = b.inputs[:0]
		clear(b.records)
		b.records = b.records[:0]
		clear(b.stats)
		b.bytes, b.minLine, b.oldest, b.unordered = 0, noLine, time.Time{}, false
		b.cur, b.last = nil, nil
		b.types = nil
		return b
	}
	return newBuffer(s.layout)
}

// next returns the row to fill for one more record, clean (see buffer):
// the scratch row, until commitRow moves it into the chunks.
func (b *buffer) next() []string {
	if len(b.scratch) != b.width {
		b.scratch = make([]string, b.width)
	}
	return b.scratch
}

// drop forgets the row next returned (after a failed transformation),
// clearing what the transformation wrote: next hands it out again.
func (b *buffer) drop() { clear(b.scratch) }

// commitRow makes the row next returned the buffer's next row: its
// values held (slots.go), moved into the chunks' slots, the scratch row
// cleared.
// meta is the receipt times' block (clockText.Block), a hint as the
// layout's block is.
func (b *buffer) commitRow(line int64, size int64, meta string) {
	n := len(b.lines)
	if k, _ := b.chunkOf(n); k == len(b.chunks) {
		b.chunks = append(b.chunks, b.newChunk(k))
	}
	b.cur = b.row(n)
	block := ""
	if b.layout != nil {
		block = b.layout.Block()
	}
	b.owners.keep(b.cur, b.scratch, block, meta)
	clear(b.scratch)
	if n > 0 && len(b.keys) > 0 && !b.unordered {
		b.unordered = !batch.Less(b.last, b.cur, b.keys)
	}
	b.last = b.cur
	if len(b.lines) == 0 {
		b.minLine = line
		b.oldest = time.Now() // the age limit runs on the real clock
	}
	b.lines = append(b.lines, line)
	b.bytes += size
}

// rowSize is what one buffered row counts toward batch_size_bytes and
// max_buffered_bytes: the record's bytes (its values' text is no longer),
// its slots, and a constant for the line number and the engine's row.
func (b *buffer) rowSize(record int) int64 {
	return int64(record) + int64(b.width)*slotBytes + 64
}
