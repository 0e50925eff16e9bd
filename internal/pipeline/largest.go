package pipeline

import "fmt"

// byBuffered keeps the streams whose filling buffer holds rows, the one
// holding the most bytes first (the first in p.order among equals), for
// flushLargest: past max_buffered_bytes with thousands of streams of a few
// rows each, a scan of every stream per flush made the run quadratic in
// its streams. A buffer's bytes only grow while it fills (grew, after each
// row), so a stream only ever moves toward the top until it leaves, when
// its buffer is replaced (dropped: a flush, a relayout). The heap is
// written out for its one element type, with each entry's key beside it:
// grew runs once per record, and container/heap's interface calls and the
// loads of stream → buffer → bytes per comparison were 4.5 % of a run with
// 200 interleaved streams.
type byBuffered []bigEntry

type bigEntry struct {
	bytes int64 // s.buf.bytes when it was placed
	ord   int   // s.ord: among equals the first stream in p.order is first
	s     *stream
}

// before reports whether a belongs above b.
func (a *bigEntry) before(b *bigEntry) bool {
	return a.bytes > b.bytes || (a.bytes == b.bytes && a.ord < b.ord)
}

func (h byBuffered) set(i int, e bigEntry) {
	h[i] = e
	e.s.bigAt = i + 1
}

// up moves entry i toward the top while it belongs above its parent.
func (h byBuffered) up(i int) {
	e := h[i]
	for i > 0 {
		parent := (i - 1) / 2
		if !e.before(&h[parent]) {
			break
		}
		h.set(i, h[parent])
		i = parent
	}
	h.set(i, e)
}

// down moves entry i toward the leaves while a child belongs above it.
func (h byBuffered) down(i int) {
	e := h[i]
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && h[r].before(&h[c]) {
			c = r
		}
		if !h[c].before(&e) {
			break
		}
		h.set(i, h[c])
		i = c
	}
	h.set(i, e)
}

// grew places s after a row was added to its buffer: its key only grew,
// so it can only move up.
func (p *pipeline) grew(s *stream) {
	e := bigEntry{bytes: s.buf.bytes, ord: s.ord, s: s}
	i := s.bigAt - 1
	if i < 0 {
		p.big = append(p.big, e)
		i = len(p.big) - 1
	} else {
		p.big[i] = e
	}
	p.big.up(i)
}

// dropped takes s out when its buffer was replaced.
func (p *pipeline) dropped(s *stream) {
	i := s.bigAt - 1
	if i < 0 {
		return
	}
	s.bigAt = 0
	last := len(p.big) - 1
	moved := p.big[last]
	p.big[last] = bigEntry{}
	p.big = p.big[:last]
	if i == last {
		return
	}
	p.big.set(i, moved)
	p.big.down(i)
	p.big.up(moved.s.bigAt - 1)
}

// largest is the stream whose buffer holds the most bytes (the first in
// p.order among equals), nil when no buffer holds a row.
func (p *pipeline) largest() *stream {
	var big *stream
	if len(p.big) > 0 {
		big = p.big[0].s
	}
	if verifyFrontier {
		for i, e := range p.big {
			if e.s.bigAt != i+1 || e.s.buf == nil || e.bytes != e.s.buf.bytes || (i > 0 && e.before(&p.big[(i-1)/2])) {
				panic(fmt.Sprintf("pipeline: heap entry %d of %d (stream %s, %d bytes) is out of place", i, len(p.big), streamName(e.s), e.bytes))
			}
		}
		var want *stream
		for _, s := range p.order {
			if s.buf != nil && s.buf.rows() > 0 && (want == nil || s.buf.bytes > want.buf.bytes) {
				want = s
			}
		}
		if big != want {
			panic(fmt.Sprintf("pipeline: largest buffer %v, a scan finds %v", streamName(big), streamName(want)))
		}
	}
	return big
}

func streamName(s *stream) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprintf("%q", s.name)
}
