package tablemap

import "github.com/target-oracle/target-oracle/internal/table"

// RowState is what building one row needs and nothing after it: the
// values' places in the row's text, their stats, the conversion errors
// held until the record ends. A layout has its own unless it shares one
// (ShareRowState): with many interleaved streams each record's own state
// was out of the cache when its stream's turn came again (a tenth of the
// data cache misses of 200 streams, docs/performance.md), while one state
// shared by every layout stays in it. Nothing of it is read after Row
// returns, so layouts that build their rows one at a time, as the
// pipeline's coordinator does, can share one. Not safe for concurrent use.
type RowState struct {
	spans  []span
	vstats []table.Stats // the current record's value stats, by column
	grown  []int         // columns whose vstats go beyond the caller's stats (noteStats)

	// Conversion errors held until the record ends (see hold).
	pending   []error
	pendingAt []int // order of the errors in the record
	npending  int
	seq       int
}

// fit makes rs hold rows of n columns; it never shrinks, so that every
// layout sharing rs fits.
func (rs *RowState) fit(n int) {
	if cap(rs.spans) >= n {
		return
	}
	rs.spans = make([]span, n)
	rs.vstats = make([]table.Stats, n)
	// Held errors may be another layout's: the new slices start clean.
	rs.pending, rs.pendingAt, rs.npending = make([]error, n), make([]int, n), 0
	rs.grown = make([]int, 0, n)
}

// begin starts a row of n columns (n ≤ what rs was fit for): no span,
// stat or error of the row before, whichever layout built it, is left.
func (rs *RowState) begin(n int) {
	if rs.npending > 0 {
		clear(rs.pending[:cap(rs.pending)])
		rs.npending = 0
	}
	rs.spans, rs.vstats = rs.spans[:n], rs.vstats[:n]
	rs.pending, rs.pendingAt = rs.pending[:n], rs.pendingAt[:n]
	rs.grown = rs.grown[:0]
	clear(rs.spans)
}

// ShareRowState makes l build its rows in rs, shared with other layouts
// whose rows are built one at a time on the same goroutine (nil: l's
// own). The caller owns rs.
func (l *Layout) ShareRowState(rs *RowState) {
	if rs == nil {
		rs = new(RowState)
	}
	rs.fit(len(l.cols))
	l.rs = rs
}
