package pipeline

import (
	"container/heap"
	"fmt"
	"slices"
)

// The frontier's lines, kept as they change (SPEC §10: time near-linear
// in the number of streams). frontier() used to scan every stream after
// every commit and every STATE, and coalesce every buffered stream after
// every STATE: with thousands of streams of a few records each (a database
// tap's many small tables) that made a run quadratic in its streams.
//
// The lines frontier() looks at — a held stream's first record, the first
// row of each filling buffer, every queued job — are opened and closed
// where they change:
//
//   - a buffer's first row opens its line (fill); the line passes to the
//     batch job when the buffer is flushed, and is closed if the buffer is
//     replaced without a flush (relayout);
//   - every other job opens its line as it is queued (enqueue) and closes
//     it when it completes; a failed job stays queued and keeps its line;
//   - a held first record opens its line (holdStates); the drain closes
//     them all at once (releaseHolds).
//
// Lines at or before the earliest held first record also count in the
// state tracker's gaps (stateTracker.point), which is what coalescing
// needs (frontierPoints).
//
// verifyFrontier (the race detector's builds, and this package's tests)
// checks both against a scan of every stream each time they are read.
var verifyFrontier = raceEnabled

// openLine adds a line frontier() looks at.
func (p *pipeline) openLine(x int64) {
	if x == noLine {
		return
	}
	p.lines.add(x)
	if p.holds(x) {
		p.tracker.point(x, 1)
	}
}

// closeLine removes a line openLine added.
func (p *pipeline) closeLine(x int64) {
	if x == noLine {
		return
	}
	p.lines.remove(x)
	if p.holds(x) {
		p.tracker.point(x, -1)
	}
}

// releaseHolds lets go of every held first record (the drain, at a
// complete end of input).
func (p *pipeline) releaseHolds() {
	for _, s := range p.order {
		if s.firstRecord > 0 {
			p.closeLine(s.firstRecord)
			s.firstRecord = 0
		}
	}
	p.hold = 0
}

// holds reports whether x is at or before the earliest held first record,
// if any: only such lines can still be the frontier (frontierPoints).
func (p *pipeline) holds(x int64) bool { return p.hold == 0 || x <= p.hold }

// frontier is the input line of the oldest message not yet in full effect
// — a record not committed, a SCHEMA whose table changes are not applied,
// an ACTIVATE_VERSION not run — over every stream (SPEC §7 rule 1): the
// least open line.
func (p *pipeline) frontier() int64 {
	f := p.lines.min()
	if verifyFrontier {
		if want := p.scanFrontier(); f != want {
			panic(fmt.Sprintf("pipeline: frontier %d, a scan of the streams finds %d", f, want))
		}
	}
	return f
}

// scanFrontier is frontier() by a scan of every stream (verifyFrontier).
//
// Every queued job is looked at, not only a stream's first: a job's line
// is the lowest line it covers, and although a stream's jobs run in input
// order, nothing makes their lines increase (a batch's first record may
// have been read before the SCHEMA whose DDL job runs ahead of it).
// frontierPoints (state.go) lists the same messages: change both together.
func (p *pipeline) scanFrontier() int64 {
	f := noLine
	for _, s := range p.order {
		if s.firstRecord > 0 && s.firstRecord < f {
			f = s.firstRecord
		}
		if s.buf != nil && s.buf.minLine < f {
			f = s.buf.minLine
		}
		for _, j := range s.queue {
			if j.line < f {
				f = j.line
			}
		}
	}
	return f
}

// lineSet is a multiset of input lines with its least element at hand.
type lineSet struct {
	n map[int64]int32 // how many times each open line is open
	h lineHeap        // every open line, and lines closed since (lazily dropped)
}

func (l *lineSet) add(x int64) {
	if l.n == nil {
		l.n = map[int64]int32{}
	}
	if l.n[x] == 0 {
		heap.Push(&l.h, x)
	}
	l.n[x]++
}

func (l *lineSet) remove(x int64) {
	switch c := l.n[x]; {
	case c <= 0:
		panic(fmt.Sprintf("pipeline: line %d closed but not open", x))
	case c == 1:
		delete(l.n, x)
	default:
		l.n[x] = c - 1
	}
	if len(l.h) > 2*len(l.n)+64 {
		// Closed lines still in the heap outnumber the open ones: rebuild.
		l.h = l.h[:0]
		for x := range l.n {
			l.h = append(l.h, x)
		}
		heap.Init(&l.h)
	}
}

// min is the least open line, noLine when none is open.
func (l *lineSet) min() int64 {
	for len(l.h) > 0 {
		if l.n[l.h[0]] > 0 {
			return l.h[0]
		}
		heap.Pop(&l.h)
	}
	return noLine
}

type lineHeap []int64

func (h lineHeap) Len() int           { return len(h) }
func (h lineHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h lineHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *lineHeap) Push(x any)        { *h = append(*h, x.(int64)) }
func (h *lineHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// checkStates compares the tracker's gap counts, and what coalescing kept,
// with frontierPoints (verifyFrontier).
func (p *pipeline) checkStates() {
	pts := p.frontierPoints()
	t := &p.tracker
	want := make([]int, len(t.pending))
	for _, x := range pts {
		i, _ := slices.BinarySearchFunc(t.pending, x, comparePending)
		if i > 0 {
			want[i-1]++
		}
	}
	dead := 0
	for k, s := range t.pending {
		if s.gap != want[k] {
			panic(fmt.Sprintf("pipeline: state at line %d counts %d open lines before the next, a scan finds %d", s.line, s.gap, want[k]))
		}
		if k < len(t.pending)-1 && s.gap == 0 {
			dead++
		}
	}
	if dead != t.dead {
		panic(fmt.Sprintf("pipeline: %d pending states counted as never written, a scan finds %d", t.dead, dead))
	}
	// coalesce, on a copy, keeps what is kept.
	ref := stateTracker{pending: slices.Clone(t.pending)}
	ref.coalesce(pts)
	if len(ref.pending) != len(t.pending) {
		panic(fmt.Sprintf("pipeline: %d pending states kept, coalesce keeps %d", len(t.pending), len(ref.pending)))
	}
}
