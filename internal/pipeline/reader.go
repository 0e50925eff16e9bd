package pipeline

import (
	"context"
	"io"
	"time"

	"github.com/target-oracle/target-oracle/internal/singer"
)

// The reader goroutine decodes message envelopes ahead of the coordinator
// and hands them over in chunks, so that channel costs are paid per chunk,
// not per record, and so that the coordinator's timers keep firing while
// the input is idle.
const (
	chunkMessages = 512
	chunkBytes    = 256 << 10
)

type readChunk struct {
	msgs  []singer.Message
	arena []byte // the raw bytes msgs point into
	// at is when the chunk's first message was read: the records'
	// _SDC_RECEIVED_AT (a chunk spans at most a few milliseconds of a busy
	// input; an idle input hands over each message at once).
	at time.Time
}

type inputReader struct {
	chunks chan readChunk
	// free returns processed chunks to the reader for reuse, so that a
	// run allocates a handful of arenas, not one per chunk. Nothing keeps
	// a reference into a chunk once handle returned: rows, states and
	// schemas are copies.
	free   chan readChunk
	err    error // valid once chunks is closed; nil at a clean end of input
	cancel context.CancelFunc
}

// startReader starts the reader goroutine. Where a record's syntax is
// checked, there or by the one pass that converts it, is the reader's
// choice (singer.Message.DecodeRecord): the pipeline reads every record
// through DecodeRecord.
func startReader(ctx context.Context, r io.Reader) *inputReader {
	ctx, cancel := context.WithCancel(ctx)
	in := &inputReader{chunks: make(chan readChunk, 4), free: make(chan readChunk, 8), cancel: cancel}
	go in.loop(ctx, singer.NewReader(r, singer.ReaderOptions{}))
	return in
}

func (in *inputReader) close() { in.cancel() }

// recycle hands a processed chunk back to the reader.
func (in *inputReader) recycle(c readChunk) {
	if cap(c.arena) == 0 {
		return // a long line's chunk (see loop): nothing worth keeping
	}
	clear(c.msgs)
	c.msgs, c.arena = c.msgs[:0], c.arena[:0]
	select {
	case in.free <- c:
	default:
	}
}

func (in *inputReader) loop(ctx context.Context, r *singer.Reader) {
	defer close(in.chunks)
	var c readChunk
	var arena []byte
	send := func() bool {
		if len(c.msgs) == 0 {
			return true
		}
		c.arena = arena
		select {
		case in.chunks <- c:
			c = readChunk{}
			arena = nil
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		m, err := r.Next()
		if err != nil {
			if err != io.EOF {
				in.err = err
			}
			send()
			return
		}
		if r.LineOwned() {
			// A long line's buffer is ours: hand it over as a chunk of
			// its own, without the arena copy.
			if !send() {
				return
			}
			c = readChunk{msgs: []singer.Message{*m}, at: time.Now()}
			if !send() {
				return
			}
			continue
		}
		if arena == nil {
			select {
			case c = <-in.free:
				arena = c.arena
			default:
				c = readChunk{msgs: make([]singer.Message, 0, chunkMessages)}
				arena = make([]byte, 0, chunkBytes+chunkBytes/4)
			}
			if need := m.RawSize(); need > cap(arena) {
				arena = make([]byte, 0, need) // a long message gets an arena of its own
			}
			c.at = time.Now()
		}
		cp := *m
		// The reader reuses its buffer: copy the raw parts into the
		// chunk's arena.
		arena = cp.AppendRaw(arena)
		c.msgs = append(c.msgs, cp)
		if len(c.msgs) >= chunkMessages || len(arena) >= chunkBytes || !r.LineBuffered() {
			if !send() {
				return
			}
		}
	}
}
