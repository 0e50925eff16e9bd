package pipeline

import (
	"unsafe"

	"github.com/target-oracle/target-oracle/internal/engine"
)

// Ownership of a buffer and of its chunks, the row slots engine.Row.Values
// point into:
//
//   - While it fills, a buffer is its stream's (stream.buf), on the
//     coordinator.
//   - flush hands it to a job: from then on the worker running the job owns
//     it, and the engine reads its rows during Session.Load (engine.Row
//     Values are slices of its chunks). No engine keeps a Values slice
//     after Load returns, and none writes into one: the chunks are memory
//     the collector does not scan, and the buffer keeps alive only what
//     went in through commitRow and buffer.set (slots.go). An engine may
//     keep the value strings themselves (the embedded engine's rows in a
//     dump run): the text blocks they point into are then left to the
//     collector; only an engine that keeps none (engine.ValueKeeper) has
//     a loaded batch's blocks given to later rows (tablemap.Blocks).
//   - The job's result reaches the coordinator (complete), which happens
//     after everything the worker did. Only then is the buffer given back:
//     to its stream (stream.spare, few streams) or to the pipeline's
//     bufferPool, both coordinator-only, and cleared before it is used
//     again. A failed job keeps its buffer: it is never given back.
//
// Built with the race detector, a worker or engine that touched a buffer
// after its job ended would race with the coordinator refilling it
// (TestRecycledBuffersUnderManyStreams runs this under -race).

// bufferPool keeps the memory of loaded batches for the next batches of
// any stream, when there are too many streams for each to keep its own
// buffer (maxStreamsWithSpare): full chunks of row slots, taken by a buffer
// only when it fills one (a stream holds no chunk it does not use), and
// the engine rows a job builds. With 200 streams and max_buffered_bytes
// reached, a batch is flushed every few thousand records; each allocated
// its chunks anew, which the collector freed and the runtime returned to
// the system and faulted in again: a quarter of the CPU went to that
// churn. Only the coordinator uses the pool.
type bufferPool struct {
	chunks [][]string     // cleared, each of capacity slotChunkSlots
	rows   [][]engine.Row // cleared, for write (flush.go)
	// rowBytes is what rows hold.
	rowBytes int64
	// reused counts chunks handed out again, ahead the chunks a filling
	// buffer took from its stream's loaded batch (takeAhead), for tests.
	reused, ahead int
}

// The pool's bounds, a few megabytes in all, which count beside
// max_buffered_bytes in SPEC §10's constant: chunks for 4 MiB of slots
// (a flush gives back about as many as the next rows take), and the engine
// rows of a few batches (a finished job gives its rows back as the next
// flush takes them: the pool rarely holds more than max_parallelism).
const (
	poolChunks   = 4 << 20 / slotChunkBytes
	poolRowSets  = 8
	poolRowBytes = 2 << 20
)

// engineRowBytes is the size of an engine.Row.
const engineRowBytes = int64(unsafe.Sizeof(engine.Row{}))

// chunk returns a clean chunk of n slots from the pool, or nil.
func (bp *bufferPool) chunk(n int) []string {
	if bp == nil || n > slotChunkSlots || len(bp.chunks) == 0 {
		return nil
	}
	c := bp.chunks[len(bp.chunks)-1]
	bp.chunks[len(bp.chunks)-1] = nil
	bp.chunks = bp.chunks[:len(bp.chunks)-1]
	bp.reused++
	return c[:n]
}

// put takes back a loaded batch's memory (see the ownership rules above):
// its full chunks and its engine rows, cleared so that the pool keeps no
// rows' text alive, as far as the bounds allow. The buffer itself, with
// its small doubling chunks, goes to the collector.
func (bp *bufferPool) put(b *buffer) {
	for i, c := range b.chunks {
		if cap(c) == slotChunkSlots && len(bp.chunks) < poolChunks {
			// Only its length was written since it was last clean: past
			// it, a chunk from the pool is still as the last put left it.
			clear(c)
			bp.chunks = append(bp.chunks, c[:0])
		}
		b.chunks[i] = nil
	}
	b.chunks, b.cur, b.last = nil, nil, nil
	b.recycle()
	b.owners.reset()
	if r := b.engineRows; cap(r) > 0 && len(bp.rows) < poolRowSets && bp.rowBytes+int64(cap(r))*engineRowBytes <= poolRowBytes {
		clear(r[:cap(r)]) // they point into the chunks
		bp.rows = append(bp.rows, r[:0])
		bp.rowBytes += int64(cap(r)) * engineRowBytes
	}
	b.engineRows = nil
}

// engineRows gives a batch of n rows about to be flushed the pool's
// largest set of engine rows, so that its job does not allocate them.
func (bp *bufferPool) engineRows(b *buffer) {
	if len(bp.rows) == 0 || cap(b.engineRows) >= b.rows() {
		return
	}
	best := 0
	for i, r := range bp.rows {
		if cap(r) > cap(bp.rows[best]) {
			best = i
		}
	}
	r := bp.rows[best]
	last := len(bp.rows) - 1
	bp.rows[best], bp.rows[last] = bp.rows[last], nil
	bp.rows = bp.rows[:last]
	bp.rowBytes -= int64(cap(r)) * engineRowBytes
	b.engineRows = r
}

// nextBuffer returns the buffer that follows a flushed one of lastRows
// rows: the stream's spare (few streams) or a new one. Under many streams
// a new buffer takes its full chunks from the pool; and when the stream's
// last batch filled a chunk it is flat, full chunks from the first row: it
// will fill them again.
func (p *pipeline) nextBuffer(s *stream, lastRows int) *buffer {
	if (s.spare != nil && s.spare.layout == s.layout) || len(p.order) <= maxStreamsWithSpare {
		return s.newBuffer()
	}
	b := newBuffer(s.layout)
	b.pool = &p.bufs
	b.flat = lastRows >= b.chunking.Rows
	return b
}

// release gives a loaded batch's buffer back (see the ownership rules
// above): to its stream when there are few streams, else to the pool.
// Either way its text blocks go to later rows now (recycle), and with few
// streams the chunks it filled beyond where the stream's filling buffer
// has got go to that buffer (takeAhead): the next batch has been filling
// fresh memory while this one loaded, and would go on doing so until its
// end while the spare sat idle.
func (p *pipeline) release(s *stream, b *buffer) {
	if len(p.order) <= maxStreamsWithSpare {
		b.recycle()
		if f := s.buf; f != nil && f != b && f.layout == b.layout && f.width == b.width {
			p.bufs.ahead += f.takeAhead(b)
		}
		s.spare = b
		return
	}
	p.bufs.put(b)
}

// takeAhead moves the chunks of b, a loaded batch's buffer, that f (the
// stream's filling buffer, same layout) has not reached into f.ahead,
// cleared: b keeps the ones f already has its own of. b's rows are not
// read again (it is cleared before reuse: stream.newBuffer). It returns
// how many chunks it moved.
func (f *buffer) takeAhead(b *buffer) int {
	from := len(f.chunks)
	if from >= len(b.chunks) || len(f.ahead) > 0 {
		return 0
	}
	f.ahead = make([][]string, 0, len(b.chunks)-from)
	for _, c := range b.chunks[from:] {
		clear(c) // only its length was written: past it a chunk is clean
		f.ahead = append(f.ahead, c)
	}
	f.aheadFrom = from
	clear(b.chunks[from:])
	b.chunks = b.chunks[:from]
	b.cur, b.last = nil, nil
	return len(f.ahead)
}
