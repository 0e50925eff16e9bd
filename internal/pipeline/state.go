package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"math"

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
	last    []byte         // text of the last state written
	written int            // number of lines written
	// beforeWrite runs before a state line is written; it makes rejected
	// records durable (SPEC §7 rule 1).
	beforeWrite func() error
	// afterWrite runs after a state line was written (metrics).
	afterWrite func()
}

type pendingState struct {
	line  int64
	value []byte
}

// add records a STATE read at line.
func (t *stateTracker) add(line int64, value []byte) {
	// Only the newest qualifying state is ever written, so a pending state
	// followed by a newer one at a line below the same frontier is dead
	// weight; advance drops them. Keep a private copy: value aliases the
	// reader's buffer.
	t.pending = append(t.pending, pendingState{line: line, value: append([]byte(nil), value...)})
	t.bytes += len(value)
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
	for _, d := range t.pending[:i+1] {
		t.bytes -= len(d.value)
	}
	t.pending = append(t.pending[:0], t.pending[i+1:]...)
	if bytes.Equal(st.value, t.last) {
		return nil
	}
	if t.beforeWrite != nil {
		if err := t.beforeWrite(); err != nil {
			return fmt.Errorf("before writing state: %w", err)
		}
	}
	line := make([]byte, 0, len(st.value)+1)
	line = append(append(line, st.value...), '\n')
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
