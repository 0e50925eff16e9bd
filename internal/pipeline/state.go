package pipeline

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/target-oracle/target-oracle/internal/singer"
)

// noLine is the frontier when nothing read so far is uncommitted.
const noLine int64 = math.MaxInt64

// stateTracker implements the state contract (SPEC §7): it holds the STATE
// messages read so far and writes the newest one whose every earlier record
// is committed. The caller computes the frontier — the input line of the
// oldest record (or ACTIVATE_VERSION) not yet committed, noLine when there
// is none — and calls advance whenever it may have moved.
//
// It is used from the pipeline's coordinator goroutine only.
type stateTracker struct {
	out     io.Writer
	pending []pendingState // in input order
	bytes   int            // total length of the pending values
	keep    []bool         // coalesce's scratch: which pending states to keep
	dead    int            // pending states, not the last, with no open line in their gap
	// deadFrom: no state before this line is dead, so settle starts there
	// (0: from the first; noLine: none is)
	deadFrom int64
	last     []byte // text of the last state written
	written  int    // number of lines written
	// beforeWrite runs before a state line is written; it makes rejected
	// records durable (SPEC §7 rule 1).
	beforeWrite func() error
	// afterWrite runs after a state line was written (metrics).
	afterWrite func()
}

type pendingState struct {
	line  int64
	value []byte // the value's text; its array has room for the line's "\n"
	// gap counts the open lines (frontier.go) after this state and at or
	// before the next one's line, at or before the earliest held record:
	// while it is 0, this state (if not the last) can never be written.
	gap int
}

func comparePending(s pendingState, x int64) int { return cmp.Compare(s.line, x) }

// add records a STATE read at line.
func (t *stateTracker) add(line int64, value []byte) {
	// Keep a private copy: value aliases the reader's buffer. One byte
	// more, so that advance writes the line without another copy of a
	// state that may be tens of MB.
	v := make([]byte, len(value), len(value)+1)
	copy(v, value)
	t.pending = append(t.pending, pendingState{line: line, value: v})
	t.bytes += len(value)
}

// coalesce forgets the pending states that can never be written. advance
// writes the newest pending state read before the frontier, so a state is
// written only while the frontier lies between it and the next pending
// state: when no line the frontier can still take lies there, the next
// state is always written in its place, and this one is dead weight (a
// tap that sends a STATE after every record, into a stream whose states
// are held until the end of input, would otherwise keep all of them). The
// last pending state is always kept.
//
// points are the lines the frontier can still take, in any order, apart
// from lines not read yet (after every pending state) and noLine
// (pipeline.frontierPoints). So what is written, and when, is what it
// would be without coalesce; memory is bounded by the number of points.
func (t *stateTracker) coalesce(points []int64) {
	n := len(t.pending)
	if n < 2 {
		return
	}
	keep := t.keep[:0]
	for range n {
		keep = append(keep, false)
	}
	keep[n-1] = true
	for _, x := range points {
		// A frontier at x writes the newest state before x: the one before
		// the first pending state at or after x.
		i, _ := slices.BinarySearchFunc(t.pending, x, func(s pendingState, x int64) int { return cmp.Compare(s.line, x) })
		if i > 0 {
			keep[i-1] = true
		}
	}
	kept := t.pending[:0]
	for i, s := range t.pending {
		if keep[i] {
			kept = append(kept, s)
		} else {
			t.bytes -= len(s.value)
		}
	}
	clear(t.pending[len(kept):]) // let the dropped values go
	t.pending, t.keep = kept, keep
}

// point counts an open line x in the gap of the pending state before it
// (d = 1 as it opens, -1 as it closes). A line before every pending state
// counts nowhere: no state before it can be written while it is open.
func (t *stateTracker) point(x int64, d int) {
	i, _ := slices.BinarySearchFunc(t.pending, x, comparePending)
	if i == 0 {
		return
	}
	s := &t.pending[i-1]
	was := s.gap
	s.gap += d
	if i < len(t.pending) {
		switch {
		case was > 0 && s.gap == 0:
			t.dead++
			t.deadFrom = min(t.deadFrom, s.line)
		case was == 0 && s.gap > 0:
			t.dead--
		}
	}
}

// settle is coalesce for the states added since the last call, by the
// gaps' counts of open lines (point): a state with none in its gap, not
// the last, is dropped. It keeps what coalesce(frontierPoints()) keeps,
// in time proportional to the pending states only when one is dropped.
func (t *stateTracker) settle() {
	n := len(t.pending)
	if n < 2 {
		return
	}
	if s := t.pending[n-2]; s.gap == 0 { // it was the last: now it is not
		t.dead++
		t.deadFrom = min(t.deadFrom, s.line)
	}
	if t.dead == 0 {
		return
	}
	// Only from the first state that may be dead: with thousands of
	// streams thousands of states may be pending, and the dead ones are
	// usually the last few.
	from, _ := slices.BinarySearchFunc(t.pending, t.deadFrom, comparePending)
	kept := t.pending[:from]
	for i, s := range t.pending[from:] {
		if s.gap > 0 || from+i == n-1 {
			kept = append(kept, s)
		} else {
			t.bytes -= len(s.value)
		}
	}
	clear(t.pending[len(kept):]) // let the dropped values go
	t.pending, t.dead, t.deadFrom = kept, 0, noLine
}

// advance writes the newest pending state read before frontier, if its text
// differs from the last one written, and forgets every state at or before it.
func (t *stateTracker) advance(frontier int64) error {
	i := -1
	for j := range t.pending {
		if t.pending[j].line >= frontier {
			break
		}
		i = j
	}
	if i < 0 {
		return nil
	}
	st := t.pending[i]
	for k, d := range t.pending[:i+1] {
		t.bytes -= len(d.value)
		if d.gap == 0 && k < len(t.pending)-1 {
			t.dead--
		}
	}
	// Drop them from the front without moving the rest (with thousands of
	// streams thousands of states may be pending, and the frontier moves
	// after every commit): append moves what is left when it needs room.
	clear(t.pending[:i+1]) // let the values go
	t.pending = t.pending[i+1:]
	if bytes.Equal(st.value, t.last) {
		return nil
	}
	if t.beforeWrite != nil {
		if err := t.beforeWrite(); err != nil {
			return fmt.Errorf("before writing state: %w", err)
		}
	}
	line := append(st.value, '\n') // within its capacity (add): no copy
	if _, err := t.out.Write(line); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	t.last = st.value
	t.written++
	if t.afterWrite != nil {
		t.afterWrite()
	}
	return nil
}

// coalesceStates drops the pending states that can never be written
// (stateTracker.coalesce), before they count toward maxPendingStateBytes.
func (p *pipeline) coalesceStates() {
	p.tracker.settle()
	if verifyFrontier {
		p.checkStates()
	}
}

// frontierPoints returns the lines the frontier can still take, apart from
// lines not read yet and noLine: those of the messages frontier() looks at
// (its minimum is frontier()), except the ones after a stream's held first
// record. While that record holds states (holdStates), the frontier stays
// at or before it; drain lets go of every hold at once, only after every
// buffer was flushed and every job finished, when the frontier jumps to
// noLine. So no message after the earliest held record can ever be the
// frontier: every pending state after it waits for the end of input, and
// only the last one is ever written.
func (p *pipeline) frontierPoints() []int64 {
	hold := noLine
	for _, s := range p.order {
		if s.firstRecord > 0 {
			hold = min(hold, s.firstRecord)
		}
	}
	pts := p.points[:0]
	add := func(line int64) {
		if line <= hold && line < noLine {
			pts = append(pts, line)
		}
	}
	for _, s := range p.order {
		if s.firstRecord > 0 {
			add(s.firstRecord)
		}
		if s.buf != nil {
			add(s.buf.minLine)
		}
		for _, j := range s.queue {
			add(j.line)
		}
	}
	p.points = pts
	return pts
}

// maxPendingStateBytes bounds the STATE text held while the records before
// it are uncommitted. max_buffered_bytes counts record bytes only, so
// without it a tap that sends a large STATE after every record would keep
// every one of them until the batch of those records commits (10,000 rows
// of 1 MB states: 10 GB). Past it every buffered stream flushes, so the
// frontier moves and advance forgets the states behind it.
const maxPendingStateBytes = 16 << 20

// flushForStates flushes every stream when the pending states pass
// maxPendingStateBytes (SPEC §10: memory is bounded by the settings, not
// by the input).
func (p *pipeline) flushForStates() {
	if p.tracker.bytes <= maxPendingStateBytes {
		return
	}
	for _, s := range p.order {
		p.flush(s)
	}
}

// noteNullState warns, once per run, of a STATE whose value is null. It is
// written as received (SPEC §7 rule 2: the line null), and an orchestrator
// stores it as the tap's state: the tap's next run starts without a
// bookmark, which a user should be able to trace to the tap.
func (p *pipeline) noteNullState(m *singer.Message) {
	if p.warnedNullState || string(m.Value) != "null" {
		return
	}
	p.warnedNullState = true
	p.log.Warn("STATE with a null value: written as null, as received; an orchestrator stores it as the tap's state, so the tap's next run starts without a bookmark",
		"line", m.Line)
}
