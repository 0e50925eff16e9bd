package pipeline

import (
	"slices"
	"time"

	"github.com/target-oracle/target-oracle/internal/config"
	"github.com/target-oracle/target-oracle/internal/engine"
	"github.com/target-oracle/target-oracle/internal/schema"
	"github.com/target-oracle/target-oracle/internal/table"
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
	layout       *table.Layout
	usesVersions bool
	fused        bool // layout validates records as it converts them (UseChecks)

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
// are stored flat (row i is values[i*width:(i+1)*width]) so a batch costs a
// handful of allocations whatever its size.
type buffer struct {
	layout  *table.Layout
	width   int
	values  []string
	lines   []int64
	stats   []table.Stats
	bytes   int64
	minLine int64
	oldest  time.Time

	// keys are the key columns; unordered is set once a row's key is not
	// greater than the one before it (see keyLess). Keys in increasing
	// order cannot repeat, so such a batch needs no dedupe: this is
	// decided here, while each row is still in the cache.
	keys      []int
	unordered bool

	engineRows []engine.Row // the rows handed to the engine, kept for reuse
}

func newBuffer(l *table.Layout, capRows int) *buffer {
	w := l.Columns()
	// Start small and grow (see stream.newBuffer): a run may have
	// thousands of streams, most of them idle, and memory per idle stream
	// must stay small. A busy stream reuses its grown buffer (spare).
	return &buffer{
		layout:  l,
		keys:    l.KeyIndexes(),
		width:   w,
		values:  make([]string, 0, w*capRows),
		lines:   make([]int64, 0, capRows),
		stats:   make([]table.Stats, w),
		minLine: noLine,
	}
}

func (b *buffer) rows() int { return len(b.lines) }

// newBuffer returns an empty buffer for the stream's current layout,
// reusing the last loaded batch's memory when it has the same layout.
// rows is how many rows the last batch had: a stream that filled one
// batch will likely fill the next.
func (s *stream) newBuffer(rows int) *buffer {
	if b := s.spare; b != nil && b.layout == s.layout {
		s.spare = nil
		clear(b.values) // drop references to the old rows' strings
		b.values, b.lines = b.values[:0], b.lines[:0]
		clear(b.stats)
		b.bytes, b.minLine, b.oldest, b.unordered = 0, noLine, time.Time{}, false
		return b
	}
	return newBuffer(s.layout, min(max(rows, 64), s.settings.BatchSizeRows))
}

// next returns the slot for one more row, cleared.
func (b *buffer) next() []string {
	n := len(b.values)
	b.values = slices.Grow(b.values, b.width)[:n+b.width]
	row := b.values[n : n+b.width]
	clear(row)
	return row
}

// drop removes the last row (after a failed transformation).
func (b *buffer) drop() { b.values = b.values[:len(b.values)-b.width] }

func (b *buffer) commitRow(line int64, size int64) {
	if n := len(b.lines); n > 0 && len(b.keys) > 0 && !b.unordered {
		row := b.values[n*b.width:]
		b.unordered = !keyLess(b.values[(n-1)*b.width:n*b.width], row, b.keys)
	}
	if len(b.lines) == 0 {
		b.minLine = line
		b.oldest = time.Now() // the age limit runs on the real clock
	}
	b.lines = append(b.lines, line)
	b.bytes += size
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
