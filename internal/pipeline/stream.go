package pipeline

import (
	"math/bits"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
	"github.com/target-oracle/target-oracle/internal/tablemap"
)

// stream is the coordinator's view of one Singer stream.
type stream struct {
	name     string
	settings config.StreamSettings
	opts     table.Options
	table    string // the stream's table, decided at its first SCHEMA (tableFor)

	// Set by the stream's SCHEMA.
	schemaText   []byte // compact schema + key properties: identity of the SCHEMA
	schema       *schema.Schema
	keys         []string
	layout       *tablemap.Layout
	usesVersions bool
	onePass      bool // layout validates records as it converts them (UseOnePass)

	buf   *buffer // records not yet handed to a worker
	spare *buffer // a loaded batch's buffer, reused for the next one

	// Jobs handed over but not finished, in order. running is true while
	// a worker has queue[0].
	queue   []*job
	running bool
	queued  bool // on the coordinator's ready list

	flushed     bool  // a batch of this stream was loaded in this run (overwrite, truncate)
	firstRecord int64 // line of the first record, for streams that hold states until the end (holdsStates)

	warnedUnknown map[string]bool
	warnedLayout  map[string]bool // Layout.Warnings already logged
	warnedKeyless bool
	// notedOptions: the partitioning/compression note for an existing
	// table was logged (once per stream and run).
	notedOptions bool
	warnedPrune  bool           // delete_missing skipped for this stream: said once
	prune        *streamPrune   // delete_missing streams only (prune.go)
	dedupe       map[string]int // write's key → row map, reused by the stream's jobs (which never overlap)
	// warnedNoConstraint: an upsert found its table without a primary key
	warnedNoConstraint bool
	historyAdjusted    bool // history: the +1 µs valid-from adjustment was logged

	// counters for the summary; reported is the part of read already
	// given to the metrics registry
	read, rejected, reported int64
}

// buffer holds a stream's transformed rows until they are flushed. Rows
// are stored flat in chunks of up to slotChunkBytes bytes (see chunkOf),
// so a batch costs a handful of allocations whatever its size, growing
// never copies the rows before, and a stream holds at most one partly used
// chunk: with a thousand streams neither a doubling
// slice's spare half nor a buffer sized for the last batch adds up
// (SPEC §10 bounds memory by max_buffered_bytes, not by streams × batch).
type buffer struct {
	layout    *tablemap.Layout
	width     int
	chunkRows int
	chunks    [][]string
	lines     []int64
	stats     []table.Stats
	bytes     int64
	minLine   int64
	oldest    time.Time

	// keys are the key columns; unordered is set once a row's key is not
	// greater than the one before it (see keyLess). Keys in increasing
	// order cannot repeat, so such a batch needs no dedupe: this is
	// decided here, while each row is still in the cache.
	keys      []int
	unordered bool

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

func newBuffer(l *tablemap.Layout) *buffer {
	w := l.Columns()
	return &buffer{
		layout:    l,
		keys:      l.KeyIndexes(),
		width:     w,
		chunkRows: max(1, slotChunkBytes/(slotBytes*max(w, 1))),
		stats:     make([]table.Stats, w),
		minLine:   noLine,
	}
}

func (b *buffer) rows() int { return len(b.lines) }

// firstChunkRows is the size of a buffer's first chunk; the next ones
// double up to chunkRows, so that a stream with a handful of rows (one of
// thousands) holds a few hundred bytes of slots, not a whole chunk.
const firstChunkRows = 4

// row returns row i's slots.
func (b *buffer) row(i int) []string {
	k, j := b.chunkOf(i)
	c := b.chunks[k]
	j *= b.width
	return c[j : j+b.width : j+b.width]
}

// chunkOf returns the chunk holding row i and the row's index in it.
// Chunk k holds firstChunkRows << k rows while that is below chunkRows,
// then chunkRows each.
func (b *buffer) chunkOf(i int) (k, j int) {
	doubling := b.doublingChunks()
	first := firstChunkRows * (1<<doubling - 1) // rows in the doubling chunks
	if i < first {
		k = bits.Len(uint(i/firstChunkRows+1)) - 1
		return k, i - firstChunkRows*(1<<k-1)
	}
	i -= first
	return doubling + i/b.chunkRows, i % b.chunkRows
}

// doublingChunks is how many chunks are smaller than chunkRows.
func (b *buffer) doublingChunks() int {
	if b.chunkRows <= firstChunkRows {
		return 0
	}
	return bits.Len(uint((b.chunkRows - 1) / firstChunkRows))
}

// chunkSize is the rows chunk k holds.
func (b *buffer) chunkSize(k int) int {
	if k < b.doublingChunks() {
		return firstChunkRows << k
	}
	return b.chunkRows
}

// newBuffer returns an empty buffer for the stream's current layout,
// reusing the last loaded batch's memory when it has the same layout.
func (s *stream) newBuffer() *buffer {
	if b := s.spare; b != nil && b.layout == s.layout {
		s.spare = nil
		for _, c := range b.chunks {
			clear(c) // drop references to the old rows' strings
		}
		b.lines = b.lines[:0]
		clear(b.records)
		b.records = b.records[:0]
		clear(b.stats)
		b.bytes, b.minLine, b.oldest, b.unordered = 0, noLine, time.Time{}, false
		return b
	}
	return newBuffer(s.layout)
}

// next returns the slot for one more row, cleared.
func (b *buffer) next() []string {
	n := len(b.lines)
	if k, _ := b.chunkOf(n); k == len(b.chunks) {
		b.chunks = append(b.chunks, make([]string, b.chunkSize(k)*b.width))
	}
	row := b.row(n)
	clear(row)
	return row
}

// drop forgets the row next returned (after a failed transformation): its
// slot is cleared when next hands it out again.
func (b *buffer) drop() {}

func (b *buffer) commitRow(line int64, size int64) {
	if n := len(b.lines); n > 0 && len(b.keys) > 0 && !b.unordered {
		b.unordered = !keyLess(b.row(n-1), b.row(n), b.keys)
	}
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

// keyLess orders rows by their key values, each by length first, then
// bytes: a strict total order in which canonical integers, and texts of
// one width, sort as their values do.
func keyLess(a, b []string, keys []int) bool {
	for _, k := range keys {
		if x, y := a[k], b[k]; x != y {
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			return x < y
		}
	}
	return false
}
