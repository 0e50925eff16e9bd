package pipeline

import (
	"container/heap"
	"fmt"
)

// byBuffered keeps the streams whose filling buffer holds rows, the one
// holding the most bytes first (the first in p.order among equals), for
// flushLargest: past max_buffered_bytes with thousands of streams of a few
// rows each, a scan of every stream per flush made the run quadratic in
// its streams. A buffer's bytes only grow while it fills (grew, after each
// row), and it leaves when the stream's buffer is replaced (dropped: a
// flush, a relayout).
type byBuffered []*stream

func (h byBuffered) Len() int { return len(h) }
func (h byBuffered) Less(i, j int) bool {
	a, b := h[i].buf.bytes, h[j].buf.bytes
	return a > b || (a == b && h[i].ord < h[j].ord)
}
func (h byBuffered) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].bigAt, h[j].bigAt = i+1, j+1
}
func (h *byBuffered) Push(x any) {
	s := x.(*stream)
	*h = append(*h, s)
	s.bigAt = len(*h)
}
func (h *byBuffered) Pop() any {
	old := *h
	s := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	s.bigAt = 0
	return s
}

// grew places s after a row was added to its buffer.
func (p *pipeline) grew(s *stream) {
	if s.bigAt == 0 {
		heap.Push(&p.big, s)
	} else {
		heap.Fix(&p.big, s.bigAt-1)
	}
}

// dropped takes s out when its buffer was replaced.
func (p *pipeline) dropped(s *stream) {
	if s.bigAt > 0 {
		heap.Remove(&p.big, s.bigAt-1)
	}
}

// largest is the stream whose buffer holds the most bytes (the first in
// p.order among equals), nil when no buffer holds a row.
func (p *pipeline) largest() *stream {
	var big *stream
	if len(p.big) > 0 {
		big = p.big[0]
	}
	if verifyFrontier {
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
